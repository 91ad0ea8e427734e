//! Match records of shvedka: what a bughouse match looked like, move by move, as text that other
//! tools and people can read — and the checks an arbiter runs on a record entered from an
//! over-the-board game.
//!
//! A [`Record`] holds the tags of a match (players, time control, rules preset, start position)
//! and the moves of both boards interleaved in the order they were made, each with the mover's
//! clock, plus the team result (RULES.md A4, S1). It travels as BPGN, the bughouse PGN of the
//! internet servers and bughousedb.com: [`Record::to_bpgn`] writes it, [`parse_bpgn`] reads it
//! back (our own export exactly, common bughousedb files leniently). [`Record::to_pgn`] writes one
//! board as ordinary PGN for ordinary chess tools.
//!
//! A record also carries what happened besides its moves ([`Act`]: the arbiter's take-backs,
//! clock adjustments, corrected positions, pauses, a player's call, a flag, a replay, the end), as
//! `{[%act …]}` comments other readers skip (docs/bpgn.md). Records are text and nothing more
//! until replayed: [`Record::timeline`] is the one replay every reader uses — moves *and* acts,
//! on one time axis (match time from the start of the clocks), the position, reserves and four
//! clocks after each step; [`Record::replay`] gives the positions before each move;
//! [`Record::explain`] says why the match ended as it did.
//! [`check_record`] replays a record as an arbiter would (RULES.md A1): it reports every
//! impossible move, whether it is of type 1 (illegal in ordinary chess too) or type 2 (illegal
//! only in this variant), which rule it breaks, what follows had it been noticed at once, and
//! whether it stands when noticed later (its board is legal after it, or legal again after a later
//! move the check names) or the arbiter decides (the board is still illegal when the record ends).
//!
//! The crate does no IO: text in, text out. No input makes it panic; every parse error names the
//! line and column and what was expected there.

mod act;
mod act_text;
mod aftermath;
mod check;
mod classify;
mod clock;
mod explain;
mod export;
mod lexer;
mod notation;
mod parse;
mod pgn;
mod prose;
mod record;
mod replay;
mod result;
mod start;
mod timeline;
mod wrong;

pub use act::{Act, ActKind, DrawCause, RecordMove, ReplayCause};
pub use check::{CheckReport, Impossible, Later, Unreadable, check_record};
pub use clock::{Clocks, parse_seconds, time_control_ms};
pub use explain::{Explanation, Happening, Line, MOST_WINDOW_MS, Weighing};
pub use lexer::ParseBpgnError;
pub use parse::parse_bpgn;
pub use record::{Record, Tag};
pub use replay::Replay;
pub use result::RecordResult;
pub use start::ReplayError;
pub use timeline::{Instant, Step, StepKind, Timeline};
pub use wrong::{Broken, Castling, CheckEnd, ImpossibleKind, NotRead, Stuck, Undecided, Wrong};
