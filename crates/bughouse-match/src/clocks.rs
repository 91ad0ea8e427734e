//! The four clocks (RULES.md K1, K2): one per seat, the side to move's clock running on each
//! board. Time is match time passed in by the caller; nothing here reads a clock.

use std::time::Duration;

use bughouse::{BoardId, Seat};
use chess_core::Color;

use crate::TimeControl;

/// The four clocks of a match.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Clocks {
    tc: TimeControl,
    /// Per seat: what is left, as of `turn_started` for the side to move.
    remaining: [Duration; 4],
    /// Per board: the side to move, whose clock runs.
    turn: [Color; 2],
    /// Per board: when the side to move's clock started, moved on by every pause.
    turn_started: [Duration; 2],
    /// Whether the clocks have been started (K1).
    started: bool,
    /// When they were stopped (pause or end); `None` while they run.
    stopped_at: Option<Duration>,
}

impl Clocks {
    pub(crate) fn new(tc: TimeControl, turn: [Color; 2]) -> Clocks {
        Clocks {
            tc,
            remaining: [tc.base; 4],
            turn,
            turn_started: [Duration::ZERO; 2],
            started: false,
            stopped_at: None,
        }
    }

    /// K1: the clocks of both sides to move start at the same instant.
    pub(crate) fn start(&mut self, now: Duration) {
        self.started = true;
        self.stopped_at = None;
        self.turn_started = [now; 2];
    }

    /// Whether the side-to-move clocks are running.
    pub(crate) fn running(&self) -> bool {
        self.started && self.stopped_at.is_none()
    }

    /// Stops all four (pause, or the end of the match).
    pub(crate) fn stop(&mut self, now: Duration) {
        if self.running() {
            self.stopped_at = Some(now);
        }
    }

    /// Restarts after [`Clocks::stop`]: the time stopped is not charged to anyone.
    pub(crate) fn resume(&mut self, now: Duration) {
        if let Some(stopped) = self.stopped_at.take() {
            let pause = now.saturating_sub(stopped);
            for t in &mut self.turn_started {
                *t += pause;
            }
        }
    }

    /// The instant the running clocks are read at: `now`, or when they stopped.
    fn effective(&self, now: Duration) -> Duration {
        self.stopped_at.map_or(now, |s| s.min(now))
    }

    fn is_running(&self, seat: Seat) -> bool {
        self.started && self.turn[seat.board.index()] == seat.color
    }

    /// How long the side to move on a board has been thinking.
    pub(crate) fn elapsed(&self, board: BoardId, now: Duration) -> Duration {
        if !self.started {
            return Duration::ZERO;
        }
        self.effective(now).saturating_sub(self.turn_started[board.index()])
    }

    /// What the running clock has consumed so far: the thinking time minus the delay (K2).
    fn consumed(&self, board: BoardId, now: Duration) -> Duration {
        self.elapsed(board, now).saturating_sub(self.tc.delay_time())
    }

    /// The reading of one clock at `now` (never below zero).
    pub(crate) fn reading(&self, seat: Seat, now: Duration) -> Duration {
        let left = self.remaining[seat.index()];
        if self.is_running(seat) { left.saturating_sub(self.consumed(seat.board, now)) } else { left }
    }

    /// All four readings, in the order of [`Seat::ALL`].
    pub(crate) fn readings(&self, now: Duration) -> [Duration; 4] {
        Seat::ALL.map(|s| self.reading(s, now))
    }

    /// When a running clock will read zero; `None` when it is not running.
    pub(crate) fn flag_time(&self, seat: Seat) -> Option<Duration> {
        (self.running() && self.is_running(seat)).then(|| {
            self.turn_started[seat.board.index()] + self.tc.delay_time() + self.remaining[seat.index()]
        })
    }

    /// What a move by the side to move on `board` at `now` would be charged after `credit` (K3)
    /// and the delay (K2).
    pub(crate) fn charge(&self, board: BoardId, now: Duration, credit: Duration) -> Duration {
        self.elapsed(board, now).saturating_sub(credit).saturating_sub(self.tc.delay_time())
    }

    /// What the side to move on `board` had at the start of its turn.
    pub(crate) fn remaining(&self, seat: Seat) -> Duration {
        self.remaining[seat.index()]
    }

    /// K1: a move stops the mover's clock, charged `charged` and given the increment, and starts
    /// his opponent's.
    pub(crate) fn complete_move(&mut self, board: BoardId, now: Duration, charged: Duration) {
        let mover = Seat::new(board, self.turn[board.index()]);
        let left = &mut self.remaining[mover.index()];
        *left = left.saturating_sub(charged) + self.tc.increment();
        self.turn[board.index()] = !mover.color;
        self.turn_started[board.index()] = self.effective(now);
    }

    /// Charges the side to move on `board` what it has used so far and hands the turn to `turn`
    /// (an arbiter's take-back or corrected position).
    pub(crate) fn set_turn(&mut self, board: BoardId, turn: Color, now: Duration) {
        let mover = Seat::new(board, self.turn[board.index()]);
        self.remaining[mover.index()] = self.reading(mover, now);
        self.turn[board.index()] = turn;
        self.turn_started[board.index()] = self.effective(now);
    }

    /// A2: adds (or, negative, removes) milliseconds on one clock; the reading never goes below
    /// zero. Returns the new reading.
    pub(crate) fn adjust(&mut self, seat: Seat, delta_ms: i64, now: Duration) -> Duration {
        let reading = self.reading(seat, now);
        let delta = Duration::from_millis(delta_ms.unsigned_abs());
        let target =
            if delta_ms >= 0 { reading.saturating_add(delta) } else { reading.saturating_sub(delta) };
        let consumed = if self.is_running(seat) { self.consumed(seat.board, now) } else { Duration::ZERO };
        self.remaining[seat.index()] = target + consumed;
        target
    }
}
