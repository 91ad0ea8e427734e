//! K4 `auto`: the grace window a fallen flag opens (RULES.md section 10).
//!
//! A flag is not settled when its clock reaches zero: a move its player made in time may still be
//! on its way, and lag credit (K3) can bring it inside his time. So the flag opens a window that
//! closes after the player's remaining quota, at most `max_grace`. Everything that ends a match
//! and is recorded while the window is open — the flag itself, further flags, mates, draws — is
//! held here, and E1–E9 weigh it all together when the window closes (or earlier, once nothing
//! recorded later could change the outcome). Settling the window at its first ending would let a
//! draw shut out a mate that the credit brings inside the window, or let the first of two mates
//! by different teams win where E2 makes them a draw.

use std::time::Duration;

use bughouse::{EndingEvent, Seat};

/// An open grace window: the flags still pending, the other endings recorded in it, and when it
/// closes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Window {
    /// The last deadline of the flags that fell in it. A withdrawn flag does not bring it closer:
    /// what was recorded before the withdrawal is still weighed with what comes after.
    closes: Duration,
    /// Flags that fell in it and were not withdrawn, in the order they fell.
    flags: Vec<Seat>,
    /// Mates and draws recorded in it, in order, each once (the same mate or automatic draw is
    /// seen again after every later move).
    held: Vec<EndingEvent>,
}

impl Window {
    /// The window `seat`'s flag opens, closing at `deadline`.
    pub(crate) fn open(seat: Seat, deadline: Duration) -> Window {
        Window { closes: deadline, flags: vec![seat], held: Vec::new() }
    }

    /// Another flag falls inside the window: it is weighed too, and the window stays open until
    /// its deadline as well.
    pub(crate) fn flag(&mut self, seat: Seat, deadline: Duration) {
        self.flags.push(seat);
        self.closes = self.closes.max(deadline);
    }

    /// `seat`'s flag never fell after all (a move the lag credit brought inside his time, or the
    /// arbiter adding time). The window itself stays open until its deadline.
    pub(crate) fn withdraw(&mut self, seat: Seat) {
        self.flags.retain(|s| *s != seat);
    }

    /// Records mates and draws seen inside the window, each once.
    pub(crate) fn hold(&mut self, events: &[EndingEvent]) {
        for event in events {
            if !self.held.contains(event) {
                self.held.push(*event);
            }
        }
    }

    /// The mates and draws recorded in it, in order.
    pub(crate) fn held(&self) -> &[EndingEvent] {
        &self.held
    }

    /// When it closes.
    pub(crate) fn closes(&self) -> Duration {
        self.closes
    }

    /// K5: a pause moves the deadline on by its length.
    pub(crate) fn postpone(&mut self, pause: Duration) {
        self.closes += pause;
    }

    /// Everything recorded in it, flags first, then `after` (an ending that closes it, such as a
    /// resignation). Within each kind the order is the order recorded, which is what E1–E9 name
    /// the first of.
    pub(crate) fn endings(&self, after: &[EndingEvent]) -> Vec<EndingEvent> {
        let flags = self.flags.iter().map(|&seat| EndingEvent::Flag { seat });
        flags.chain(self.held.iter().copied()).chain(after.iter().copied()).collect()
    }

    /// Whether nothing recorded later can change the outcome, so it need not wait for its
    /// deadline: mates by both teams are already a draw (E2), and no mate, draw or flag outranks
    /// that. Anything less could still be overturned by a mate (of the other team) arriving in
    /// time.
    pub(crate) fn decided(&self) -> bool {
        let mut mates = self.held.iter().filter_map(|e| match e {
            EndingEvent::MateOnBoard { winner } => Some(winner.team()),
            _ => None,
        });
        mates.next().is_some_and(|first| mates.any(|team| team != first))
    }
}
