//! Rebuilding a match from its event log (RULES.md A4): the whole match, or the match as it
//! stood at any instant.

use std::fmt;
use std::time::Duration;

use bughouse::Game;

use crate::{ConfigError, Event, Match, MatchConfig, Phase, Rejection};

/// A log that does not replay to itself.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReplayError {
    /// The config cannot start a match.
    Config(ConfigError),
    /// A logged input is refused on replay.
    Rejected {
        /// The event.
        seq: u64,
        /// Why.
        rejection: Rejection,
    },
    /// Replay produced a different event (or none) at this place in the log.
    Diverged {
        /// The first event that differs.
        seq: u64,
    },
}

impl fmt::Display for ReplayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReplayError::Config(e) => write!(f, "cannot replay: {e}"),
            ReplayError::Rejected { seq, rejection } => {
                write!(f, "cannot replay: event {seq} is refused: {rejection}")
            }
            ReplayError::Diverged { seq } => write!(f, "cannot replay: the log diverges at event {seq}"),
        }
    }
}

impl std::error::Error for ReplayError {}

/// The state of a match at one instant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Snapshot {
    /// The instant.
    pub at: Duration,
    /// Both boards and the reserves.
    pub game: Game,
    /// The four clock readings, in the order of `Seat::ALL`.
    pub clocks: [Duration; 4],
    /// Where the match was.
    pub phase: Phase,
}

impl Match {
    /// Rebuilds a match from its whole log: every logged input is applied again at its time, and
    /// the log that results must be the one given, event for event, clocks included.
    ///
    /// # Errors
    /// [`ReplayError`] naming the first event that does not replay.
    pub fn replay(config: MatchConfig, log: &[Event]) -> Result<Match, ReplayError> {
        Match::replay_until(config, log, Duration::MAX)
    }

    /// Rebuilds a match as it stood at `until` (events after it are not applied).
    ///
    /// # Errors
    /// [`ReplayError`] naming the first event that does not replay.
    pub fn replay_until(config: MatchConfig, log: &[Event], until: Duration) -> Result<Match, ReplayError> {
        let mut m = Match::new(config).map_err(ReplayError::Config)?;
        // The Chess960 position was drawn by the driver; the log carries it.
        let drawn = log.iter().find_map(|e| match e.kind {
            crate::EventKind::CountdownStarted { chess960, .. } => chess960,
            _ => None,
        });
        if let Some(n) = drawn {
            m.choose_chess960(n);
        }
        let upto = log.iter().take_while(|e| e.at <= until).count();
        for e in &log[..upto] {
            if let Some(input) = e.kind.input() {
                m.handle_input(e.at, input)
                    .map_err(|rejection| ReplayError::Rejected { seq: e.seq, rejection })?;
            }
        }
        if let Some(last) = log[..upto].last() {
            m.handle_timeout(last.at);
        }
        let produced = m.events();
        if let Some(i) = (0..upto.max(produced.len())).find(|&i| produced.get(i) != log.get(i)) {
            return Err(ReplayError::Diverged { seq: i as u64 });
        }
        Ok(m)
    }

    /// The position and the four clocks at any instant of a logged match.
    ///
    /// # Errors
    /// [`ReplayError`] when the log does not replay up to that instant.
    pub fn state_at(config: MatchConfig, log: &[Event], at: Duration) -> Result<Snapshot, ReplayError> {
        let m = Match::replay_until(config, log, at)?;
        Ok(m.snapshot(at))
    }

    /// The match now, as a [`Snapshot`].
    pub fn snapshot(&self, at: Duration) -> Snapshot {
        Snapshot { at, game: *self.game(), clocks: self.clocks(at), phase: self.phase().clone() }
    }
}
