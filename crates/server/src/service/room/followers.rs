//! Who follows a match and what they see: following (with the events missed since `last_seq`, or
//! the whole state), leaving, the state and move list a follower is sent, and chat routing by
//! scope (RULES.md A3). A follower without a seat is a spectator: after his state (or the events
//! he missed) his writer is handed the match's gallery (`service/gallery.rs`), and takes every
//! later event from there; taking a seat or leaving takes the gallery back.

use std::sync::Arc;

use bughouse::Seat;
use bughouse_match::{Command, Phase};
use shvedka_proto::{ChatScope, ErrorCode, ErrorMsg, Limit, MatchState, MoveView, ServerMsg};

use super::{Follower, MAX_CHAT, Room, SpectatorsState};
use crate::service::convert::{self, error, seat_id};
use crate::service::encoding::Shared;
use crate::service::gallery;
use crate::service::outbound::Outbound;
use crate::service::refusal;
use crate::service::session::Session;

/// Followers a match holds before it first sweeps out those whose connection is gone.
pub(super) const SWEEP_MIN: usize = 64;

impl Room {
    pub(super) fn follow(&mut self, session: Arc<Session>, out: Outbound, last_seq: Option<u64>) {
        // Whatever connection he watched from leaves the gallery, with what it posted so far.
        self.leave_gallery(&session.key);
        if last_seq.is_none() {
            self.take_over(&session);
        }
        // A long absence is cheaper to bridge with the whole state than event by event (and
        // must not overflow the connection's queue).
        let seat = self.seat_for(&session);
        let seated = seat.is_some();
        let bridged = match last_seq.and_then(|seen| self.recent.after(seen)) {
            Some(missed) => {
                for view in missed {
                    out.push(ServerMsg::Event(view.clone()));
                }
                true
            }
            None => false,
        };
        // While a restart's wait runs (K6), whoever resumes is sent the whole state after what
        // he missed: it says until when the clocks wait.
        let state = !bridged || self.restart_by.is_some();
        if seated && state {
            out.push(ServerMsg::State(self.state_seen_by(seat.map(seat_id))));
        } else if state {
            out.push_shared(&self.spectators_state());
        }
        session.set_room(Some(self.id));
        let spectator = if !seated {
            let (spot, rx) = self.gallery.subscribe();
            out.watch(rx).then_some(spot)
        } else {
            None
        };
        self.followers.insert(session.key.clone(), Follower { session, out: Some(out), spectator });
        if self.followers.len() > self.sweep_at {
            self.sweep();
        }
    }

    /// Forgets the followers without a seat whose connection is gone: a spectator who closed his
    /// page is not told so, and a final's crowd coming and going would otherwise leave the match
    /// one entry (and that connection's queue) per session that ever watched. Swept whenever the
    /// followers double since the last sweep, so they stay under twice the most connected at once
    /// (or [`SWEEP_MIN`]), at a cost shared among the follows. A seated player stays, connected
    /// or not; a spectator swept out who comes back follows again as anyone does.
    fn sweep(&mut self) {
        let m = &self.m;
        self.followers.retain(|_, f| {
            m.seat_of(f.session.player).is_some() || f.out.as_ref().is_some_and(|out| !out.is_closed())
        });
        self.sweep_at = (2 * self.followers.len()).max(SWEEP_MIN);
    }

    /// A spectator's connection stops taking the gallery's posts: it takes those its lane gave
    /// it, and is queued those its lane has not given it yet.
    pub(super) fn leave_gallery(&mut self, key: &str) {
        if let Some(f) = self.followers.get_mut(key)
            && let Some(spot) = f.spectator.take()
            && let Some(out) = &f.out
        {
            let (mark, owed) = self.gallery.leave(spot);
            let _ = out.unwatch(mark) && owed.iter().all(|msg| out.push_shared(msg));
        }
    }

    /// Every spectator waiting for the latest state is given it: one state for all of them.
    pub(super) fn answer_spectators(&mut self) {
        if self.gallery.wanted() {
            let state = self.spectators_state();
            self.gallery.answer(state);
        }
    }

    /// The state as spectators see it, made at most once per event and per [`gallery::ROUND`]
    /// and shared: a crowd arriving at once (a final's audience) costs the match task one state,
    /// not one each (its move list replays the record). Its clocks are at most a round old.
    pub(super) fn spectators_state(&mut self) -> Arc<Shared> {
        let now = tokio::time::Instant::now();
        let key = (self.recent.last_seq(), self.rating_changes.len());
        if let Some(made) = &self.spectators_state
            && made.key == key
            && now.duration_since(made.at) < gallery::ROUND
        {
            return made.state.clone();
        }
        let state = Shared::new(ServerMsg::State(self.state_seen_by(None)));
        self.spectators_state = Some(SpectatorsState { key, at: now, state: state.clone() });
        state
    }

    pub(super) fn unfollow(&mut self, session: &Session) -> Result<(), ErrorMsg> {
        if let Some(seat) = self.seat_for(session) {
            match self.m.phase() {
                Phase::Forming => {
                    let now = self.now();
                    self.m
                        .handle_command(now, session.player, Command::LeaveSeat)
                        .map_err(|r| refusal::rejection(&r))?;
                    self.names[seat.index()] = None;
                    self.kinds[seat.index()] = None;
                }
                Phase::Ended(_) | Phase::Annulled => {}
                _ => {
                    return Err(error(
                        ErrorCode::NotInMatch,
                        format!("you play {seat} in match {}", self.id),
                    ));
                }
            }
        }
        self.leave_gallery(&session.key);
        self.followers.remove(&session.key);
        session.set_room(None);
        Ok(())
    }

    /// The whole state, as the player in `seat` (or a spectator: `None`) sees it.
    pub(super) fn state_seen_by(&self, seat: Option<shvedka_proto::SeatId>) -> MatchState {
        let now = self.now();
        MatchState {
            match_id: self.id,
            rules: self.rules.clone(),
            time_control: self.time_control.clone(),
            seats: self.names.clone(),
            kinds: self.kinds,
            ready: self.m.ready(),
            phase: convert::phase(self.m.phase()),
            bfen: self.m.game().bfen(),
            clocks_ms: convert::clocks(self.m.clocks(now)),
            running: self.m.running(),
            last_seq: self.recent.last_seq(),
            result: convert::match_result(&self.m).map(|mut r| {
                r.rules = self.result_rules.clone();
                Box::new(r)
            }),
            your_seat: seat,
            server_time_us: self.server_time_us(),
            moves: self.move_list(),
            rated: self.rated,
            rating_changes: self.rating_changes.clone(),
            called: convert::call_of(&self.m),
            restart_by_us: self
                .restart_by
                .map(|t| t.saturating_duration_since(self.started).as_micros() as u64),
            countdown_left_ms: match self.m.phase() {
                bughouse_match::Phase::Countdown { starts_at } => {
                    Some(starts_at.saturating_sub(now).as_millis() as u64)
                }
                _ => None,
            },
            bots_missing: self.bots_missing.clone(),
            reserved: self.reserved.is_some(),
            tournament: match &self.reserved {
                Some(crate::service::room::setup::Reserved::Names(_, game)) => game.clone(),
                _ => None,
            },
        }
    }

    /// The match's moves as its record has them (take-backs applied), for `MatchState`.
    pub(super) fn move_list(&self) -> Vec<MoveView> {
        let record = self.record();
        record
            .moves
            .iter()
            .map(|mv| MoveView {
                seat: seat_id(bughouse::Seat { board: mv.board, color: mv.color }),
                number: mv.number,
                san: mv.text.clone(),
            })
            .collect()
    }

    /// RULES.md A3: team chat reaches the partner only; a spectator's words never reach the
    /// players of a match in play.
    pub(super) fn chat(&mut self, session: &Session, scope: ChatScope, text: String) -> Result<(), ErrorMsg> {
        let chars = text.chars().count();
        if chars > MAX_CHAT {
            return Err(error(
                ErrorCode::Limit(Limit::ChatLength),
                format!("a chat message has at most {MAX_CHAT} characters"),
            ));
        }
        if chars == 0 || crate::service::text::hides(&text) {
            return Err(error(
                ErrorCode::Invalid(shvedka_proto::Invalid::ChatText),
                "a chat message has text and no control, bidirectional or invisible characters",
            ));
        }
        let from = self.seat_for(session);
        let in_play =
            matches!(self.m.phase(), Phase::Countdown { .. } | Phase::Running | Phase::Paused { .. });
        // Who hears it, by seat (`None`: a follower without one, the spectators among them).
        let hears = |to: Option<Seat>| match (scope, from) {
            (ChatScope::Team, Some(seat)) => to == Some(seat) || to == Some(seat.partner()),
            (ChatScope::Team, None) => false,
            (ChatScope::Match, None) if in_play => to.is_none(),
            (ChatScope::Match, _) => true,
        };
        if scope == ChatScope::Team && from.is_none() {
            return Err(error(ErrorCode::NotInMatch, "team chat is for the players of the match"));
        }
        let recipients = self.tokens_where(hears);
        let msg = ServerMsg::Chat {
            match_id: self.id,
            from: session.name.clone(),
            kind: session.kind(),
            seat: from.map(seat_id),
            scope,
            text,
        };
        let msg = Shared::new(msg);
        for token in recipients {
            if let Some(f) = self.followers.get_mut(&token) {
                deliver(f, &msg);
            }
        }
        if hears(None) {
            self.gallery.post(&msg);
        }
        Ok(())
    }

    pub(super) fn tokens_where(&self, f: impl Fn(Option<Seat>) -> bool) -> Vec<String> {
        self.followers
            .iter()
            .filter(|(_, fl)| f(self.seat_for(&fl.session)))
            .map(|(t, _)| t.clone())
            .collect()
    }
}

/// Queues a message for a follower who is not a spectator (a spectator takes it from the
/// gallery); a follower whose connection is gone or cannot keep up loses its connection here
/// and catches up when it resumes.
pub(super) fn deliver(f: &mut Follower, msg: &Arc<Shared>) {
    if let Some(out) = &f.out
        && f.spectator.is_none()
        && !out.push_shared(msg)
    {
        f.out = None;
    }
}
