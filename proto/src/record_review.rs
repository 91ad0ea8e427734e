//! A record reviewed from its text (`ClientMsg::ReviewRecord` → `Reply::RecordReview`, version
//! 10): a BPGN record pasted or uploaded by an arbiter or a player, replayed by the server's rules
//! crates — the position and the recorded clocks after each move, for stepping through it as
//! through a stored match — and checked for impossible moves (RULES.md A1), each finding given as
//! codes (its move, type, rule and what A1 says when it is noticed later), never as prose.

use serde::{Deserialize, Serialize};

use crate::SeatId;

/// A record to review.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RecordReviewRequest {
    /// The BPGN text (one or more games).
    pub bpgn: String,
    /// Which game of the text, from 1.
    pub game: u32,
    /// The rules preset; `None`: the record's `Rules` tag, else `mgimo-2017`.
    pub rules: Option<String>,
    /// The first move wanted (an index into the record's moves): answers come in pages.
    pub from: u32,
}

/// The record replayed and checked, one page of its moves.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RecordReview {
    /// How many games the text holds.
    pub games: u32,
    /// The preset it was read under.
    pub rules: String,
    /// Its `TimeControl` tag, if any.
    pub time_control: Option<String>,
    /// The players by seat, in the order of `SeatId::ALL`, as its tags name them.
    pub players: [Option<String>; 4],
    /// The position it starts from (BFEN).
    pub start: String,
    /// The four clocks at the start: the `TimeControl` tag's base time (none without one).
    pub start_clocks_ms: [Option<u64>; 4],
    /// How many moves the record writes.
    pub total: u32,
    /// The moves from `from` on, as far as the rules could play them (at most a page).
    pub moves: Vec<ReviewedMove>,
    /// The first move the rules could not play (an impossible move is shown up to it); `None`
    /// when every move was played.
    pub stopped: Option<u32>,
    /// The `from` of the next page; `None` at the end of what could be played.
    pub next: Option<u32>,
    /// The impossible moves the check of A1 found, in the order played (at most 100).
    pub impossible: Vec<ImpossibleView>,
    /// What the check could not read (the check stops there), if anything.
    pub unreadable: Option<UnreadableAt>,
    /// The moves the answer names by index (findings, `stopped`, `unreadable`) as the record
    /// writes them (`14a. Q@g8`), in index order: a move the replay could not reach has no other
    /// place in the answer.
    pub named: Vec<NamedMove>,
    /// The record's acts (version 13: a move played and taken back, an arbiter's act, a pause, a
    /// flag, a call, a resignation, the end), each with the boards, clocks and running clocks
    /// after it, at their places among this page's moves: those after move `from` up to the
    /// page's last move (the first page: from the start; the last: to the end).
    pub acts: Vec<ReviewedAct>,
    /// Why the game ended as it did (version 13), on the first page (`from` 0) only; `None` on
    /// later pages, or when the start position does not read.
    pub explained: Option<crate::ExplanationView>,
}

/// A move of the record named by its index.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct NamedMove {
    /// Its index among the record's moves.
    pub index: u32,
    /// Its number and text as written, `14a. Q@g8`.
    pub label: String,
}

/// What a record's check could not read.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum UnreadableAt {
    /// Its start position (the `BFEN` or `FEN` tag).
    Start,
    /// A move that does not read as one move (malformed or ambiguous), by index.
    Move {
        /// Its index among the record's moves.
        index: u32,
    },
}

/// One move of a reviewed record.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReviewedMove {
    /// Who moved.
    pub seat: SeatId,
    /// Its full-move number on its board.
    pub number: u32,
    /// The move as the record writes it.
    pub text: String,
    /// The move in SAN, as the server writes it (`N@f3`, `e8=Qd1`).
    pub san: String,
    /// The move in long notation (`e2e4`, `e7e8qd1`), for marking its squares.
    pub uci: String,
    /// The position after it (BFEN).
    pub bfen: String,
    /// The four clocks the record knows after it (clock comments; the base before a seat's
    /// first), milliseconds.
    pub clocks_ms: [Option<u64>; 4],
    /// The record's comment after it, as written there.
    pub comment: Option<String>,
    /// Its match time in milliseconds from the start of the clocks (version 12): the record's own
    /// (`[%mt]`), or placed by the clocks and the time control; `None` when the record gives
    /// neither. The same axis as `shvedka arbiter show --at`.
    pub at_ms: Option<i64>,
    /// Which clocks run after it (version 12): the side to move on each board, unless a pause,
    /// a call, a mate on board or the end stopped them.
    pub running: [bool; 4],
}

/// An impossible move (RULES.md A1).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ImpossibleView {
    /// Its index among the record's moves.
    pub index: u32,
    /// Type 1 (illegal in chess too: the mover's team loses) or 2 (illegal in this variant: taken
    /// back, a minute to the other team).
    pub kind: u8,
    /// The rule it breaks (`P3`, `R1`, `A1a` …), or `FIDE`.
    pub rule: String,
    /// What A1 says had it been noticed only later.
    pub later: LaterView,
}

/// A1 on a move noticed later.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum LaterView {
    /// The position it produced is legal: it stands.
    Stands,
    /// The board became legal again after the move at this index: it stands.
    LegalAgain {
        /// The index of that move.
        index: u32,
    },
    /// Still no legal position, or the record cannot be followed past it: the arbiter decides.
    ArbiterDecides,
}

/// One act of a reviewed record, at its place among the moves (version 13).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReviewedAct {
    /// How many of the record's moves come before it.
    pub after_moves: u32,
    /// Its match time in milliseconds from the start of the clocks, if known.
    pub at_ms: Option<i64>,
    /// What happened.
    pub what: ActView,
    /// The position after it (BFEN).
    pub bfen: String,
    /// The four clocks after it, milliseconds, where known.
    pub clocks_ms: [Option<u64>; 4],
    /// Which clocks run after it.
    pub running: [bool; 4],
}

/// What an act of a record did (docs/bpgn.md's `[%act]` verbs).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ActView {
    /// A move played here and later taken back, or of a game played again.
    Played {
        /// Who moved.
        seat: SeatId,
        /// The move as written.
        text: String,
    },
    /// An arbiter's act (A2, K5), as the arbiter asks for it; a `SetPosition`'s BFEN is the
    /// position after it, and an unrecorded arbiter is no one.
    Arbiter(crate::ArbiterRequest),
    /// K4: a clock reached zero.
    Flag {
        /// Whose.
        seat: SeatId,
    },
    /// K5: a player stopped the clocks and called the arbiter.
    Call {
        /// Who.
        seat: SeatId,
    },
    /// E3–E5, M3: a draw a flag's window held.
    Draw {
        /// The board.
        board: crate::Board,
    },
    /// E10: a player resigned.
    Resign {
        /// Who.
        seat: SeatId,
    },
    /// K1: the clocks start again after a replay.
    Start,
    /// The match ended.
    End,
}
