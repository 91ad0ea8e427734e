//! Replaying a record through the rules: every position and the clocks known after each move.

use bughouse::{BughouseMove, Game, Rules};

use crate::clock::Clocks;
use crate::record::Record;
use crate::start::{ReplayError, start_clocks, start_game};
use crate::timeline::act_position;

/// A replayed record: the game after every prefix of its moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Replay {
    /// `games[n]` is the game after the first `n` moves and the acts after them.
    games: Vec<Game>,
    moves: Vec<BughouseMove>,
    /// `clocks[n]`: the clocks known after the first `n` moves.
    clocks: Vec<Clocks>,
}

impl Replay {
    /// How many moves were replayed.
    pub fn len(&self) -> usize {
        self.moves.len()
    }

    /// Whether the record has no moves.
    pub fn is_empty(&self) -> bool {
        self.moves.is_empty()
    }

    /// The moves, as the rules read them.
    pub fn moves(&self) -> &[BughouseMove] {
        &self.moves
    }

    /// The game after the first `n` moves (`0`: the start), if the record has that many.
    pub fn game_after(&self, n: usize) -> Option<&Game> {
        self.games.get(n)
    }

    /// The game after the last move.
    pub fn final_game(&self) -> &Game {
        // `games` always holds at least the start.
        &self.games[self.games.len() - 1]
    }

    /// The position (BFEN) after the first `n` moves.
    pub fn position_after(&self, n: usize) -> Option<String> {
        self.game_after(n).map(Game::bfen)
    }

    /// The clocks known after the first `n` moves: each seat's last clock comment so far, or the
    /// time control's base time before its first one.
    pub fn clocks_after(&self, n: usize) -> Option<Clocks> {
        self.clocks.get(n).copied()
    }
}

impl Record {
    /// Plays the moves through the rules, from the `BFEN` tag or the standard start, each on
    /// the boards as the acts before it left them (a take-back, a corrected position, a replay:
    /// [`crate::Act`]). For the clocks and times of the acts too, see [`Record::timeline`].
    ///
    /// # Errors
    /// [`ReplayError`] for a bad start position, the first move that cannot be played, named
    /// as written (`14a. Q@g8`), or an act that cannot be applied.
    pub fn replay(&self, rules: Rules) -> Result<Replay, ReplayError> {
        let start = start_game(self, rules)?;
        let mut game = start;
        let mut clocks = start_clocks(self);
        let apply = |game: &mut Game, acts: &[crate::Act], index: Option<usize>| {
            for act in acts {
                if let Some(after) = act_position(act, game, &start) {
                    *game = after.map_err(|why| ReplayError::Act {
                        index,
                        after: index.map_or_else(|| "the start".to_owned(), |i| self.moves[i].label()),
                        act: crate::act_text::verb(&act.kind).to_owned(),
                        why,
                    })?;
                }
            }
            Ok(())
        };
        apply(&mut game, &self.acts, None)?;
        let mut replay = Replay { games: vec![game], moves: Vec::new(), clocks: vec![clocks] };
        for (index, rm) in self.moves.iter().enumerate() {
            let turn = game.board(rm.board).turn();
            if turn != rm.color {
                return Err(ReplayError::OutOfTurn { index, label: rm.label(), board: rm.board, turn });
            }
            let m = game.parse_move(rm.board, &rm.text).map_err(|error| ReplayError::Move {
                index,
                label: rm.label(),
                error,
            })?;
            game.play_unchecked(m);
            apply(&mut game, &rm.acts, Some(index))?;
            if let Some(ms) = rm.clock_ms {
                clocks.set(rm.seat(), ms);
            }
            replay.games.push(game);
            replay.moves.push(m);
            replay.clocks.push(clocks);
        }
        Ok(replay)
    }
}
