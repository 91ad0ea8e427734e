//! Inputs to a match and the events of its log.

use std::fmt;
use std::time::Duration;

use bughouse::{Adjudication, BoardId, BughouseMove, MatchResult, Seat};

/// Who a player is, as the driver (the server) knows him.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
pub struct PlayerId(pub u64);

impl fmt::Display for PlayerId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "player {}", self.0)
    }
}

/// A claim a player may make (E4, E5, K4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Claim {
    /// E4: the position on the claimant's board has occurred three times.
    Repetition,
    /// E5: 50 moves (100 halfmoves) on the claimant's board without a capture, pawn move or drop.
    FiftyMoves,
    /// K4 `claim` mode: the flag of a player of the other team has fallen.
    Flag(Seat),
}

/// The longest thinking time a client's measure is read as: a year, far past what any clock can
/// read (a base of at most a day, bonuses of at most ten minutes, an arbiter's adjustments of a
/// day). The measure is evidence for lag credit (K3: the match's time less it, never below
/// zero), so a longer one would give no more credit; and the log writes its times in whole
/// nanoseconds (`u64`, 584 years), which a client's `u64::MAX` milliseconds would not fit.
pub const MOST_CLIENT_TIME: Duration = Duration::from_secs(365 * 24 * 3600);

/// What a player asks of the match.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Command {
    /// S1: sit down before the start.
    TakeSeat(Seat),
    /// Stand up before the start.
    LeaveSeat,
    /// Say (or withdraw) ready; the match starts when all four seats are ready.
    Ready(bool),
    /// Play a move on the player's board, with the client's own measure of the thinking time
    /// (K3; `None` gives no lag credit).
    Move {
        /// The move.
        mv: BughouseMove,
        /// How long the client saw its player think; read as at most [`MOST_CLIENT_TIME`].
        client_time: Option<Duration>,
    },
    /// E3: offer a draw, or accept the standing offer.
    OfferDraw,
    /// Decline the standing offer.
    DeclineDraw,
    /// Claim a draw or a flag.
    Claim(Claim),
    /// E10.
    Resign,
    /// K5: stop all four clocks and call the arbiter; with a reason when the player asks for the
    /// game to be played again (A5, A6).
    CallArbiter {
        /// Why the player asks for a replay; `None` for any other call.
        replay: Option<ReplayReason>,
    },
}

/// Why a game is played again: the two situations of the MGIMO text, and any other the arbiter
/// names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum ReplayReason {
    /// A5: the pieces were set up wrongly at the start.
    WrongSetup,
    /// A6: someone outside the game hinted at a flag or an impossible move.
    OutsideHint,
    /// Another reason the arbiter accepts (A2).
    Other,
}

impl ReplayReason {
    /// The rule the replay rests on (RULES.md).
    pub const fn rule(self) -> &'static str {
        match self {
            ReplayReason::WrongSetup => "A5",
            ReplayReason::OutsideHint => "A6",
            ReplayReason::Other => "A2",
        }
    }
}

impl fmt::Display for ReplayReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ReplayReason::WrongSetup => "wrong initial setup",
            ReplayReason::OutsideHint => "a hint from outside",
            ReplayReason::Other => "another reason",
        })
    }
}

/// What the arbiter may do (A2, K5).
#[derive(Clone, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum ArbiterAct {
    /// Stop all four clocks.
    Pause,
    /// Restart them.
    Resume,
    /// Add (positive) or remove (negative) milliseconds on one clock.
    AdjustClock {
        /// Whose clock.
        seat: Seat,
        /// Milliseconds to add; negative removes (the reading stops at zero).
        delta_ms: i64,
    },
    /// Take back the last move on a board, with every reserve transfer it made.
    TakeBack {
        /// The board.
        board: BoardId,
    },
    /// Set a corrected two-board position (BFEN); each colour keeps its number of units (C2).
    SetPosition {
        /// The position.
        bfen: String,
    },
    /// Declare the result (it replaces any earlier one).
    DeclareResult {
        /// The result.
        result: MatchResult,
        /// Why, in the arbiter's words.
        note: String,
    },
    /// Annul the match so it is replayed as a new match.
    Annul {
        /// Why.
        note: String,
    },
    /// A2, A5, A6: annul what was played and play the same match again at once: the same seats,
    /// rules and time control, both boards back at the start (the same Chess960 position), all
    /// four clocks full, after the countdown. What was played stays in the log.
    Replay {
        /// Why.
        reason: ReplayReason,
        /// The arbiter's words, if any (may be empty).
        note: String,
    },
}

/// Who made an arbiter act: the log and the record name him (RULES.md A4), so that a record says
/// which arbiter acted.
#[derive(Clone, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Official {
    /// An account that holds the arbiter role, by its registered name.
    Account(String),
    /// A session that presented the arbiters' shared secret (the way the first arbiter is
    /// bootstrapped), not an account holding the role.
    Secret,
    /// The driver itself: its own pauses (a restart, a shutdown, a storage outage).
    Server,
    /// Not recorded: an act logged before the log named who made it.
    Unrecorded,
}

impl fmt::Display for Official {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Official::Account(name) => f.write_str(name),
            Official::Secret => f.write_str("secret"),
            Official::Server => f.write_str("server"),
            Official::Unrecorded => f.write_str("unrecorded"),
        }
    }
}

/// An arbiter act with who made it, as the log records it.
///
/// It reads back an act logged before the log named who made it (the bare [`ArbiterAct`]) as
/// made by [`Official::Unrecorded`], so such a log still replays to itself.
#[derive(Clone, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(from = "RulingRepr")]
pub struct Ruling {
    /// What was done.
    pub act: ArbiterAct,
    /// Who did it.
    pub by: Official,
}

/// How a [`Ruling`] is read: as written now, or a bare act of an older log.
#[derive(serde::Deserialize)]
#[serde(untagged)]
enum RulingRepr {
    Named { act: ArbiterAct, by: Official },
    Bare(ArbiterAct),
}

impl From<RulingRepr> for Ruling {
    fn from(r: RulingRepr) -> Ruling {
        match r {
            RulingRepr::Named { act, by } => Ruling { act, by },
            RulingRepr::Bare(act) => Ruling { act, by: Official::Unrecorded },
        }
    }
}

/// An input as recorded: who gave it and what it was.
#[derive(Clone, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Input {
    /// A player's command.
    Player {
        /// Who.
        player: PlayerId,
        /// What.
        command: Command,
    },
    /// An arbiter's act, with who made it.
    Arbiter(Ruling),
}

/// One entry of the event log.
#[derive(Clone, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Event {
    /// Its position in the log, from 0.
    pub seq: u64,
    /// The match time it took effect (for a flag, the instant the clock reached zero).
    #[serde(with = "crate::nanos::one")]
    pub at: Duration,
    /// What happened.
    pub kind: EventKind,
    /// The four clock readings just after it, in the order of [`Seat::ALL`].
    #[serde(with = "crate::nanos::four")]
    pub clocks: [Duration; 4],
}

/// What happened. The first group are accepted inputs; [`EventKind::input`] recovers them. The
/// rest follow from inputs or from time passing.
#[derive(Clone, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum EventKind {
    /// A player sat down.
    SeatTaken {
        /// Who.
        player: PlayerId,
        /// Where.
        seat: Seat,
    },
    /// A player stood up.
    SeatLeft {
        /// Who.
        player: PlayerId,
        /// Where from.
        seat: Seat,
    },
    /// A player said ready (or withdrew it).
    Ready {
        /// Who.
        player: PlayerId,
        /// His seat.
        seat: Seat,
        /// Ready or not.
        ready: bool,
    },
    /// A move was played.
    Moved {
        /// Who.
        player: PlayerId,
        /// His seat.
        seat: Seat,
        /// The move.
        mv: BughouseMove,
        /// The client's measure of the thinking time.
        #[serde(with = "crate::nanos::option")]
        client_time: Option<Duration>,
        /// The time charged to his clock (before the increment).
        #[serde(with = "crate::nanos::one")]
        charged: Duration,
        /// The lag credit given (K3).
        #[serde(with = "crate::nanos::one")]
        credit: Duration,
    },
    /// A draw offered, or accepted.
    DrawOffered {
        /// Who.
        player: PlayerId,
        /// His seat.
        seat: Seat,
    },
    /// A draw offer declined.
    DrawDeclined {
        /// Who.
        player: PlayerId,
        /// His seat.
        seat: Seat,
    },
    /// A claim that was upheld (a rejected one is no event).
    Claimed {
        /// Who.
        player: PlayerId,
        /// His seat.
        seat: Seat,
        /// The claim.
        claim: Claim,
    },
    /// A resignation.
    Resigned {
        /// Who.
        player: PlayerId,
        /// His seat.
        seat: Seat,
    },
    /// K5: a player stopped the clocks and called the arbiter.
    ArbiterCalled {
        /// Who.
        player: PlayerId,
        /// His seat.
        seat: Seat,
        /// Why he asks for a replay (A5, A6), if he does; absent from logs before it existed.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        replay: Option<ReplayReason>,
    },
    /// An arbiter act, with who made it.
    Arbiter(Ruling),
    /// All four seats are ready; the clocks start at `starts_at`. Logged also without a
    /// countdown when the match starts from a Chess960 position, to carry it.
    CountdownStarted {
        /// The start.
        #[serde(with = "crate::nanos::one")]
        starts_at: Duration,
        /// The Chess960 position both boards start from (0–959), fixed now; `None` for a match
        /// that does not start from one. [`crate::Match::replay`] reads it back from the log.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        chess960: Option<u16>,
    },
    /// K1: both White clocks (the sides to move) started.
    Started,
    /// A clock reached zero (K4). Under `auto` this opens the adjudication window; a move of
    /// that player that lag credit brings inside his time withdraws it.
    FlagFell {
        /// Whose.
        seat: Seat,
    },
    /// The match ended (E1–E10, or A2 by the arbiter).
    Ended(Adjudication),
}

impl EventKind {
    /// The input this event records, or `None` for a consequence.
    pub fn input(&self) -> Option<Input> {
        let player = |player: &PlayerId, command| Some(Input::Player { player: *player, command });
        match self {
            EventKind::SeatTaken { player: p, seat } => player(p, Command::TakeSeat(*seat)),
            EventKind::SeatLeft { player: p, .. } => player(p, Command::LeaveSeat),
            EventKind::Ready { player: p, ready, .. } => player(p, Command::Ready(*ready)),
            EventKind::Moved { player: p, mv, client_time, .. } => {
                player(p, Command::Move { mv: *mv, client_time: *client_time })
            }
            EventKind::DrawOffered { player: p, .. } => player(p, Command::OfferDraw),
            EventKind::DrawDeclined { player: p, .. } => player(p, Command::DeclineDraw),
            EventKind::Claimed { player: p, claim, .. } => player(p, Command::Claim(*claim)),
            EventKind::Resigned { player: p, .. } => player(p, Command::Resign),
            EventKind::ArbiterCalled { player: p, replay, .. } => {
                player(p, Command::CallArbiter { replay: *replay })
            }
            EventKind::Arbiter(ruling) => Some(Input::Arbiter(ruling.clone())),
            EventKind::CountdownStarted { .. }
            | EventKind::Started
            | EventKind::FlagFell { .. }
            | EventKind::Ended(_) => None,
        }
    }
}
