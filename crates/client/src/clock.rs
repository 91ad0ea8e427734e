//! The four clocks as a client shows them: the server's readings at an event, run down locally
//! for the clocks that run, corrected by every update.

use std::time::{Duration, Instant};

use shvedka_proto::{MatchEvent, MatchState};

/// A local model of the four clocks.
#[derive(Clone, Debug)]
pub struct ClockModel {
    readings: [Duration; 4],
    running: [bool; 4],
    /// When the readings were true, on the local clock: receipt minus half a round trip.
    at: Instant,
}

impl ClockModel {
    /// All four at `base`, stopped.
    pub fn new(base: Duration, now: Instant) -> ClockModel {
        ClockModel { readings: [base; 4], running: [false; 4], at: now }
    }

    /// Takes the readings of a state received at `received`, `rtt` being the measured round trip.
    pub fn on_state(&mut self, s: &MatchState, received: Instant, rtt: Duration) {
        self.set(s.clocks_ms, s.running, received, rtt);
    }

    /// Takes the readings of an event received at `received`.
    pub fn on_event(&mut self, e: &MatchEvent, received: Instant, rtt: Duration) {
        self.set(e.clocks_ms, e.running, received, rtt);
    }

    fn set(&mut self, clocks_ms: [u64; 4], running: [bool; 4], received: Instant, rtt: Duration) {
        self.readings = clocks_ms.map(Duration::from_millis);
        self.running = running;
        // The readings were taken about half a round trip before they arrived.
        self.at = received.checked_sub(rtt / 2).unwrap_or(received);
    }

    /// The four readings at local time `now` (never below zero).
    pub fn readings(&self, now: Instant) -> [Duration; 4] {
        let passed = now.saturating_duration_since(self.at);
        std::array::from_fn(|i| {
            if self.running[i] { self.readings[i].saturating_sub(passed) } else { self.readings[i] }
        })
    }

    /// Which clocks run.
    pub fn running(&self) -> [bool; 4] {
        self.running
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn k1_running_clocks_tick_down_locally_and_updates_correct_them() {
        let t0 = Instant::now();
        let mut m = ClockModel::new(Duration::from_secs(60), t0);
        assert_eq!(m.readings(t0 + Duration::from_secs(5)), [Duration::from_secs(60); 4]);
        let mut e = MatchEvent {
            match_id: shvedka_proto::MatchId(1),
            seq: 0,
            at_ms: 0,
            kind: shvedka_proto::EventView::Started,
            clocks_ms: [60_000; 4],
            running: [true, false, true, false],
            bfen: None,
            server_time_us: 0,
        };
        m.on_event(&e, t0 + Duration::from_millis(100), Duration::from_millis(100));
        let r = m.readings(t0 + Duration::from_millis(1050));
        assert_eq!(r, [ms(59_000), ms(60_000), ms(59_000), ms(60_000)], "half the round trip counts");
        e.clocks_ms = [58_000, 60_000, 58_500, 60_000];
        m.on_event(&e, t0 + Duration::from_secs(2), Duration::ZERO);
        assert_eq!(m.readings(t0 + Duration::from_secs(3))[2], ms(57_500), "corrected by the update");
        assert_eq!(m.readings(t0 + Duration::from_secs(600))[0], Duration::ZERO, "never below zero");
    }

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }
}
