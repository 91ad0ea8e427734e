//! Swedish chess (bughouse) rules on two linked boards, under the MGIMO-2017 rules (the default)
//! and classic bughouse — a pure library over `chess-core`, doing no IO.
//!
//! A [`Game`] holds boards A and B as two chess-core positions whose pockets are the four players'
//! reserves (the White pocket of board A is White-A's reserve). [`Game::play`] performs every
//! transfer: a capture goes to the capturer's partner (C1), a drop obeys P1–P4, castling with a
//! dropped rook follows P5, and a promotion removes a piece of the crosswise player (R1–R5) or, in
//! the classic preset, upgrades (R6). [`Game::legal_moves`] lists exactly the legal moves,
//! including one move per legal removal choice. [`is_mate_on_board`] is the variant's mate (M1);
//! [`adjudicate`] weighs ending events by E1–E10. Rule options come from preset files
//! ([`RuleOptions`]); positions travel as BFEN ([`Game::bfen`]). [`Game::chess960`] starts both
//! boards from the same Chess960 position.
//!
//! Rule ids (P3, R4, …) refer to the project's rules specification, RULES.md.

mod adjudicate;
mod bfen;
mod castling_field;
mod chess960;
mod error;
mod game;
mod mate;
mod notation;
mod options;
mod seat;

pub use adjudicate::{Adjudication, DrawKind, EndingEvent, MatchResult, Reason, adjudicate};
pub use bfen::ParseBfenError;
pub use chess960::{CHESS960_POSITIONS, STANDARD_CHESS960, chess960_back_rank, chess960_fen};
pub use error::{Illegal, MoveTextError, PlayError, RuleId, Unreadable};
pub use game::{BoardStatus, BughouseMove, Game};
pub use mate::is_mate_on_board;
pub use options::{
    DrawAgreement, DropMate, FlagMode, OptionsError, PRESETS, Promotion, RuleOptions, Rules, Stalemate,
};
pub use seat::{BoardId, Seat, Team};
