//! One Swedish-chess (bughouse) match as a deterministic, sans-IO state machine: seats and
//! readiness (RULES.md S1), four synchronized clocks with lag credit (K1–K3), flags settled
//! after a lag grace window together with every ending recorded in it, by the E1–E9 priority
//! (K4), draws, claims and resignation (E3–E5, E10),
//! pausing (K5), the arbiter's acts (A2), and the append-only event log (A4).
//!
//! The match never reads a clock. Every input carries the match time `now` (the driver's
//! monotonic clock since the match was created), and [`Match::poll_timeout`] says when time
//! alone will next change something; the driver calls [`Match::handle_timeout`] then. The style
//! is quinn-proto's: `handle_*` in, `poll_*` out. So every flag race is a unit test on virtual
//! time, and the log replays to the identical match ([`Match::replay`], [`Match::state_at`]).
//!
//! Layers: this crate sits on `bughouse` (the rules of a position and [`bughouse::adjudicate`])
//! and is driven by the server; it knows nothing of networks or storage.

mod clocks;
mod config;
mod event;
mod history;
mod lag;
mod machine;
mod nanos;
mod reject;
mod replay;
mod time_control;
mod window;

pub use config::{ClockConfig, ConfigError, MatchConfig};
pub use event::{
    ArbiterAct, Claim, Command, Event, EventKind, Input, MOST_CLIENT_TIME, Official, PlayerId, ReplayReason,
    Ruling,
};
pub use lag::{LagQuota, LagSettings};
pub use machine::{Match, Phase};
pub use reject::{ClaimFailure, PositionFailure, Rejection, TakeBackFailure};
pub use replay::{ReplayError, Snapshot};
pub use time_control::{Bonus, ParseTimeControlError, TimeControl};
