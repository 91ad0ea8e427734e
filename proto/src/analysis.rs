//! Engine analysis of a position (`ClientMsg::Analyse` → `Reply::Analysis`, version 10): what the
//! server's engine thinks of each board of a bughouse position under a preset's rules.
//!
//! A request names a position, not a match, so the same message serves a review at any instant,
//! the arbiter's "analyse from here" and a record pasted into the web client. The answer is facts
//! a client draws (a score, a mate distance, squares for an arrow, SAN for the line, a piece
//! wished for), never a sentence. The server computes it off the match tasks in a bounded pool
//! and caches it by position; PROTOCOL.md (item 23) gives the limits and the refusals.

use serde::{Deserialize, Serialize};

use crate::{Board, Colour, PieceKind};

/// What to analyse.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AnalysisRequest {
    /// Both boards and the four reserves, as `MatchState::bfen` writes them.
    pub bfen: String,
    /// The rules preset the position is played under (`mgimo-2017`, `classic`).
    pub rules: String,
    /// The four clocks at that instant (order of `SeatId::ALL`), milliseconds, when known: the
    /// answer then says which side to move is short of time.
    pub clocks_ms: Option<[u64; 4]>,
}

/// The answer: both boards.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AnalysisView {
    /// The position analysed, as the request gave it.
    pub bfen: String,
    /// Board A, then board B.
    pub boards: [BoardAnalysis; 2],
}

/// What the engine found on one board.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BoardAnalysis {
    /// Which board.
    pub board: Board,
    /// The side to move there.
    pub to_move: Colour,
    /// How the board stands.
    pub evaluation: Evaluation,
    /// The move the engine would play (none when the side to move has no legal move).
    pub best: Option<AnalysedMove>,
    /// The moves it expects after `best`, in SAN, on this board alone (reserves as they stand).
    pub line: Vec<String>,
    /// The depth searched to the end.
    pub depth: u8,
    /// The nodes searched (0 when the answer needed no search).
    pub nodes: u64,
    /// The piece the side to move would most like its partner to send, if one would help much
    /// more than its own worth (a mate, a decisive attack, a blocked check).
    pub wish: Option<PieceKind>,
    /// The side to move has less than ten seconds on its clock (only when the request gave
    /// clocks): a winning evaluation may not be playable in time.
    pub short_of_time: bool,
}

/// How a board stands, always told from White's side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Evaluation {
    /// An advantage in centipawns for White (negative: for Black).
    Centipawns {
        /// Centipawns for White.
        white: i32,
    },
    /// A forced mate the search found: positive, White mates in so many moves; negative, Black.
    MateIn {
        /// Moves to mate, signed for White.
        white: i32,
    },
    /// Mate on board already (RULES.md M1): this colour has won the board.
    Mated {
        /// The winner of the board.
        winner: Colour,
    },
    /// The side to move has no legal move but is not mated: it waits for material (M2, M3).
    Waiting,
    /// Stalemate, which these rules make a draw (M3, option `draw`).
    Drawn,
}

/// A move as a client draws it: an arrow from a square (or from the reserve) to a square.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AnalysedMove {
    /// SAN, as the move list writes it (`Nf3`, `N@f7`, `e8=Qd1`).
    pub san: String,
    /// The square it leaves (0 = a1 … 63 = h8); none for a drop.
    pub from: Option<u8>,
    /// The square it goes to.
    pub to: u8,
    /// The piece dropped, for a drop.
    pub drop: Option<PieceKind>,
    /// The square of the piece removed on the other board by a promotion (RULES.md R1).
    pub removal: Option<u8>,
}
