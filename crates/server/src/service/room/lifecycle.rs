//! A match task's life besides play: a restored match waits for its four players (paused when
//! it was in play, its countdown held when it was counting down), a forming match nobody
//! attends expires, a shutdown pauses play and stores it, and however the task ends — decided,
//! annulled, expired, shut down, or by a panic — its followers are freed (and told, unless
//! the match was decided before their eyes).

use bughouse_match::{ArbiterAct, Official, PlayerId};
use shvedka_proto::{ClosedReason, ElsewhereReason, ErrorCode, PauseReason, ServerMsg};
use shvedka_storage::Ending;
use tokio::time::Instant;

use super::durable::Write;
use super::{Closing, Room};
use crate::service::hooks::Finished;

/// How a match task ended, for the registry.
pub(crate) struct Ran {
    /// What a rematch needs, if the match may have one.
    pub(crate) finished: Option<Finished>,
    /// Let go (the node lost its lease): its lease is kept, to be taken back on rejoining
    /// should nobody have taken it over meanwhile.
    pub(crate) let_go: bool,
}

impl Room {
    /// Whether a seated player of the match is connected and follows it.
    fn connected(&self, player: PlayerId) -> bool {
        self.followers.values().any(|f| {
            self.follower_player(&f.session) == Some(player) && f.out.as_ref().is_some_and(|o| !o.is_closed())
        })
    }

    /// After a restart, the clocks (or the countdown) restart once the four seated players
    /// follow the match again.
    pub(super) fn restart_when_all_back(&mut self) {
        if !self.restart_pause && self.frozen.is_none() {
            return;
        }
        if !self.m.seats().iter().all(|s| s.is_some_and(|p| self.connected(p))) {
            return;
        }
        self.restart("all four players are back");
    }

    /// K6: the wait for the missing players is over (`restart_wait_s`): the clocks (or the
    /// countdown) start again all the same, and an absent player's clock runs.
    pub(super) fn restart_without_the_missing(&mut self) {
        let missing = self.m.seats().iter().filter(|s| !s.is_some_and(|p| self.connected(p))).count();
        tracing::info!(match_id = %self.id, missing, "the wait for the missing players is over (K6)");
        self.restart("the wait for the missing players is over (K6)");
    }

    fn restart(&mut self, why: &str) {
        self.restart_by = None;
        // The spectators' state said until when: it is made again.
        self.spectators_state = None;
        if let Some(at) = self.frozen.take() {
            // Match time goes on from where the countdown was held. No event says so: whoever
            // follows is sent the state, which says how long it has left.
            self.epoch = Instant::now().checked_sub(at).unwrap_or_else(Instant::now);
            tracing::info!(match_id = %self.id, "{why}: the countdown goes on");
            self.tell_states();
        }
        if self.restart_pause {
            self.restart_pause = false;
            if self.server_act(ArbiterAct::Resume, PauseReason::Restart) {
                tracing::info!(match_id = %self.id, "{why}: the clocks restart");
            }
        }
    }

    /// When a forming match should next look at who attends it: at the expiry of an unattended
    /// one, or a quarter of the expiry time from now (a connection may end without a word).
    pub(super) fn attendance_wake(&self) -> Option<Instant> {
        if !matches!(self.m.phase(), bughouse_match::Phase::Forming) {
            return None;
        }
        Some(match self.unattended_since {
            Some(since) => since + self.expiry,
            None => Instant::now() + self.expiry / 4,
        })
    }

    /// Notes whether a seated player attends the forming match; `true` when it has gone
    /// unattended for the expiry time.
    pub(super) fn check_attendance(&mut self) -> bool {
        if !matches!(self.m.phase(), bughouse_match::Phase::Forming) {
            self.unattended_since = None;
            return false;
        }
        let attended = self.m.seats().iter().flatten().any(|&p| self.connected(p));
        match (attended, self.unattended_since) {
            (true, _) => self.unattended_since = None,
            (false, None) => self.unattended_since = Some(Instant::now()),
            (false, Some(since)) => return since.elapsed() >= self.expiry,
        }
        false
    }

    /// The forming match expires: stored as expired (never restored), its followers told.
    pub(super) async fn expire(&mut self) {
        tracing::info!(match_id = %self.id, "forming match expired: no seated player attended it");
        if self.durably(Write::End(Ending::Expired)).await {
            self.closing = Some(Closing::Expired);
        }
    }

    /// Sends each follower the match's whole state (something changed that no event says).
    pub(super) fn tell_states(&mut self) {
        self.spectators_state = None;
        for f in self.followers.values() {
            if let (Some(out), None) = (&f.out, &f.spectator) {
                let seat = self.seat_for(&f.session).map(crate::service::convert::seat_id);
                out.push(ServerMsg::State(self.state_seen_by(seat)));
            }
        }
        let state = self.spectators_state();
        self.gallery.post(&state);
    }

    /// The server's own pause or resume (`act`), logged as the machine's act and shown with
    /// `reason` (`Paused`/`Resumed` views). Whether the machine took it.
    pub(super) fn server_act(&mut self, act: ArbiterAct, reason: PauseReason) -> bool {
        self.server_pause = Some(reason);
        let now = self.now();
        let taken = self.m.handle_arbiter(now, Official::Server, act).is_ok();
        if !taken {
            self.server_pause = None;
        }
        taken
    }

    /// This node may not run matches now (it lost its lease): the task ends where it is, storing
    /// nothing more; its followers are told to resume elsewhere (`Drop`), where another node
    /// takes the match over from its log.
    pub(super) fn let_go(&mut self) {
        tracing::warn!(match_id = %self.id, "this node lost its lease: the match is let go");
        self.closing = Some(Closing::LetGo);
    }

    /// The match let go: whatever was asked of it meanwhile is answered `Unavailable`, not
    /// dropped unanswered.
    pub(super) fn refuse_the_rest(&mut self) {
        self.rx.close();
        while let Ok(msg) = self.rx.try_recv() {
            if let Some(reply) = super::durable::refuse(msg, (ErrorCode::Unavailable, super::durable::LET_GO))
            {
                let _ = reply.send(());
            }
        }
    }

    /// A shutdown: a match in play is paused (stored, so the restart charges nobody for the
    /// time the server was down).
    pub(super) async fn shut_down(&mut self) {
        if matches!(self.m.phase(), bughouse_match::Phase::Running) {
            self.server_act(ArbiterAct::Pause, PauseReason::Shutdown);
            self.flush().await;
        }
        self.closing.get_or_insert(Closing::Shutdown);
    }
}

impl Drop for Room {
    /// Frees the followers however the task ends (a panic included): each follows no match any
    /// more, and leaves memory if nothing else holds it. Unless the match was decided or
    /// annulled before their eyes, or the server is shutting down, they are told why.
    fn drop(&mut self) {
        let match_id = self.id;
        let told = match self.closing {
            Some(Closing::Over | Closing::Shutdown) => None,
            Some(Closing::LetGo) => {
                Some(ServerMsg::ResumeElsewhere { match_id, reason: ElsewhereReason::LeaseLost })
            }
            Some(Closing::Expired) => {
                Some(ServerMsg::MatchClosed { match_id, reason: ClosedReason::Expired })
            }
            Some(Closing::Failed) | None => {
                tracing::error!(%match_id, "the match task failed; the match stays as stored");
                Some(ServerMsg::MatchClosed { match_id, reason: ClosedReason::Failed })
            }
        };
        // A decided match's watchers are kept a while: a correction of its result reaches them.
        if matches!(self.closing, Some(Closing::Over)) {
            let watchers =
                self.followers.values().filter_map(|f| Some((f.session.clone(), f.out.clone()?))).collect();
            self.lingering.keep(match_id, watchers);
        }
        for f in self.followers.values() {
            f.session.leave_room(self.id);
            if let (Some(msg), Some(out), false) = (&told, &f.out, f.spectator.is_some()) {
                out.push(msg.clone());
            }
            self.sessions.evict_if_idle(&f.session);
        }
        // The spectators are told once, after everything the gallery posted before.
        if let Some(msg) = told {
            self.gallery.post(&crate::service::encoding::Shared::new(msg));
        }
        self.gallery.release_all();
    }
}
