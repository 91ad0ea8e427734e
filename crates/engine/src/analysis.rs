//! Analysis for review and for the arbiter: what the engine thinks of one board of a position —
//! its score, the move it would play and the line it expects after it — rather than only the
//! move a bot needs.
//!
//! It is the bot's own search ([`Engine::choose`], so every variant rule of the match's preset
//! holds for the first move), followed by a walk of the transposition table from the position
//! after that move: each stored best move that is still legal there is played, until the table
//! has nothing, a position repeats, or the line is [`MAX_LINE`] plies long. The line is the
//! search's own view of the board (a capture leaves for the partner, RULES.md C1), so it is a
//! hint of the plan, not a forecast of the game: the other board's moves are out of its sight.

use bughouse::{BoardId, BughouseMove, Game};
use chess_core::{Color, Move, Position};

use crate::Engine;
use crate::limits::Limits;
use crate::score::{MATE, MATE_BOUND};
use crate::search::Budget;

/// The longest line an analysis reports after its first move.
pub const MAX_LINE: usize = 8;

/// What the engine found on one board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Analysis {
    /// The move it would play, one of `Game::legal_moves` of the board.
    pub best: BughouseMove,
    /// The score for the side to move, in centipawns; beyond `±(MATE − 1000)` a mate score.
    pub score: i32,
    /// The last depth searched to the end.
    pub depth: u8,
    /// The nodes searched.
    pub nodes: u64,
    /// The moves the search expects after `best`, at most [`MAX_LINE`], each legal on the board
    /// as the line reaches it (drops from the reserves as they stand).
    pub line: Vec<Move>,
}

/// A score read for people: centipawns, or a mate in so many moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// An advantage in centipawns (positive: good for the side it is told for).
    Centipawns(i32),
    /// Mate in this many moves of the side it is told for (negative: it is mated).
    MateIn(i32),
}

impl Analysis {
    /// The score for White on the board (the side to move's score turned when Black is to move).
    pub fn score_for_white(&self, to_move: Color) -> i32 {
        if to_move == Color::White { self.score } else { -self.score }
    }

    /// The score for the side to move, read as centipawns or as a mate in moves.
    pub fn verdict(&self) -> Verdict {
        verdict(self.score)
    }
}

/// Reads a search score (for some side) as centipawns or a mate in moves for that side.
pub fn verdict(score: i32) -> Verdict {
    if score >= MATE_BOUND {
        // MATE − plies, the mating side's own moves counted.
        Verdict::MateIn((MATE - score + 1) / 2)
    } else if score <= -MATE_BOUND {
        Verdict::MateIn(-((MATE + score + 1) / 2))
    } else {
        Verdict::Centipawns(score)
    }
}

impl Engine {
    /// Analyses `board` of `game` within `limits`: `None` when the side to move has no legal move
    /// (mate on board, or waiting for a piece: M1–M3), which the caller reads from the game.
    pub fn analyse(&mut self, game: &Game, board: BoardId, limits: Limits) -> Option<Analysis> {
        // A forced move is searched as deep as any other: its score is what a reader wants.
        let budget = Budget { forced_at_once: false, ..self.budget(limits) };
        let choice = self.search_board(game, board, budget)?;
        let mut after = *game;
        after.play_unchecked(choice.mv);
        let line = self.principal_line(after.board(board));
        Some(Analysis {
            best: choice.mv,
            score: choice.score,
            depth: choice.depth,
            nodes: choice.nodes,
            line,
        })
    }

    /// The stored best moves from `start`, each checked legal before it is played.
    fn principal_line(&self, start: &Position) -> Vec<Move> {
        let mut line = Vec::new();
        let mut pos = *start;
        let mut seen = vec![pos.zobrist()];
        while line.len() < MAX_LINE {
            let Some(mv) = self.tt.probe(pos.zobrist()).and_then(|e| e.mv) else { break };
            if !pos.is_legal(&mv) {
                break;
            }
            pos.play_unchecked(mv);
            line.push(mv);
            if seen.contains(&pos.zobrist()) {
                break;
            }
            seen.push(pos.zobrist());
        }
        line
    }
}
