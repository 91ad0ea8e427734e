//! Lag credit (RULES.md K3): a per-player quota of network lag the server forgives, after the
//! scheme lichess documents.
//!
//! A move carries the client's own measure of how long its player thought. The server's measure
//! is longer by the network round trip; that difference is the lag. The server charges
//! `elapsed − min(lag, quota)`, then the quota grows by a fixed gain per move up to a cap. A
//! player on a slow line is so not flagged by his network, while a cheating client that under-
//! reports its thinking time gains at most the quota per move, and the quota refills slowly.

use std::time::Duration;

use serde::Deserialize;

use crate::TimeControl;

/// The constants of the lag quota scheme (`config/clock.toml`, `[lag]`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LagSettings {
    /// The fixed part of the gain per move.
    pub gain_base_ms: u64,
    /// How many moves the estimated game length counts (the gain grows with
    /// `base + estimate_moves × increment`).
    pub estimate_moves: u64,
    /// The estimated game length is divided by this to give the variable part of the gain.
    pub gain_divisor: u64,
    /// The gain is at most this.
    pub gain_max_ms: u64,
    /// The quota at the start, in gains.
    pub start_gains: u32,
    /// The quota never exceeds this many gains.
    pub max_gains: u32,
    /// K4 auto: a fallen flag is settled after at most this long (and at most the flagged
    /// player's remaining quota).
    pub max_grace_ms: u64,
}

impl LagSettings {
    /// No lag credit at all: every move is charged what the server measured, and a flag is
    /// settled the instant it falls.
    pub const NONE: LagSettings = LagSettings {
        gain_base_ms: 0,
        estimate_moves: 0,
        gain_divisor: 1,
        gain_max_ms: 0,
        start_gains: 0,
        max_gains: 0,
        max_grace_ms: 0,
    };

    /// The quota gain per move for a time control:
    /// `min(gain_max, gain_base + (base + estimate_moves × bonus) / gain_divisor)`.
    pub fn gain(&self, tc: &TimeControl) -> Duration {
        let estimate = tc.base.as_millis() as u64 + self.estimate_moves * tc.bonus_time().as_millis() as u64;
        let gain = self.gain_base_ms + estimate / self.gain_divisor.max(1);
        Duration::from_millis(gain.min(self.gain_max_ms))
    }

    /// A fresh quota for one player.
    pub fn quota(&self, tc: &TimeControl) -> LagQuota {
        let gain = self.gain(tc);
        LagQuota { gain, quota: gain * self.start_gains, max: gain * self.max_gains }
    }

    /// The longest a flag waits before it is settled.
    pub fn max_grace(&self) -> Duration {
        Duration::from_millis(self.max_grace_ms)
    }
}

/// One player's lag quota.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct LagQuota {
    gain: Duration,
    quota: Duration,
    max: Duration,
}

impl LagQuota {
    /// What is left to credit.
    pub fn remaining(&self) -> Duration {
        self.quota
    }

    /// The gain per move.
    pub fn gain(&self) -> Duration {
        self.gain
    }

    /// The cap.
    pub fn max(&self) -> Duration {
        self.max
    }

    /// The credit for a move the server timed at `elapsed` and the client at `client_time`:
    /// `min(lag, quota)` with `lag = elapsed − client_time` (negative lag counts as zero; no
    /// client time means no credit). Never more than `elapsed`, so a clock never runs backwards.
    pub fn credit(&self, elapsed: Duration, client_time: Option<Duration>) -> Duration {
        let lag = client_time.map_or(Duration::ZERO, |c| elapsed.saturating_sub(c));
        lag.min(self.quota)
    }

    /// Spends `credit` (at most the quota) and adds one gain, up to the cap.
    pub fn after_move(&mut self, credit: Duration) {
        self.quota = (self.quota.saturating_sub(credit) + self.gain).min(self.max);
    }
}
