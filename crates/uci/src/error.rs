//! What can go wrong with an engine: [`UciError`].

use std::fmt;
use std::time::Duration;

use crate::position::{Incompatible, RefusedMove};

/// Why an engine gave no usable answer. After any error other than [`UciError::Refused`] and
/// [`UciError::Incompatible`] the engine is unusable ([`UciError::is_fatal`]): its process is
/// killed and every later request answers [`UciError::Unusable`] at once.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum UciError {
    /// The program could not be started.
    Spawn {
        /// The program.
        path: String,
        /// The operating system's reason.
        reason: String,
    },
    /// The engine closed its output (it exited or crashed).
    Exited {
        /// What the driver was waiting for.
        waiting_for: &'static str,
    },
    /// The engine said nothing the driver could use in time.
    Timeout {
        /// What the driver was waiting for.
        waiting_for: &'static str,
        /// How long it waited.
        after: Duration,
    },
    /// A line longer than the driver reads (its limit, in bytes).
    LineTooLong {
        /// The limit.
        limit: usize,
    },
    /// A line the protocol does not allow there.
    Malformed {
        /// The line.
        line: String,
    },
    /// Writing to the engine failed.
    Write {
        /// The operating system's reason.
        reason: String,
    },
    /// The engine does not offer `UCI_Variant` `bughouse` (it is not Fairy-Stockfish, or too old).
    NoBughouse {
        /// Its name, as it gave it.
        engine: String,
    },
    /// The position is under rules the engine does not play.
    Incompatible(Incompatible),
    /// The engine answered a move shvedka refuses in that position.
    Refused(RefusedMove),
    /// An earlier error left the engine unusable.
    Unusable {
        /// That error.
        cause: String,
    },
}

impl UciError {
    /// Whether the engine is unusable after this error.
    pub fn is_fatal(&self) -> bool {
        !matches!(self, UciError::Refused(_) | UciError::Incompatible(_))
    }
}

impl fmt::Display for UciError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            UciError::Spawn { path, reason } => write!(f, "cannot start the UCI engine {path:?}: {reason}"),
            UciError::Exited { waiting_for } => {
                write!(f, "the UCI engine exited while the driver waited for {waiting_for}")
            }
            UciError::Timeout { waiting_for, after } => {
                write!(f, "the UCI engine sent no {waiting_for} within {} ms", after.as_millis())
            }
            UciError::LineTooLong { limit } => write!(f, "the UCI engine wrote a line over {limit} bytes"),
            UciError::Malformed { line } => {
                write!(f, "the UCI engine wrote {line:?}, which the protocol does not allow here")
            }
            UciError::Write { reason } => write!(f, "cannot write to the UCI engine: {reason}"),
            UciError::NoBughouse { engine } => {
                write!(f, "the UCI engine {engine:?} offers no UCI_Variant bughouse (Fairy-Stockfish does)")
            }
            UciError::Incompatible(e) => e.fmt(f),
            UciError::Refused(e) => e.fmt(f),
            UciError::Unusable { cause } => {
                write!(f, "the UCI engine is unusable after an earlier error: {cause}")
            }
        }
    }
}

impl std::error::Error for UciError {}
