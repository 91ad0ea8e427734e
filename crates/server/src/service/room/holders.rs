//! A seat belongs to its player's account, not to one session of it (issue 56). The machine
//! seats a `PlayerId`, the session that sat down; when that session is lost (a phone that died,
//! a browser whose storage was cleared) the account logs in again as a new session, and that
//! session, watching or taking its seat, takes the seat over: it follows the match as the seated
//! player, and its commands act for the machine's player of that seat, so the clocks and lag
//! credit go on as for a resume. The session that held the seat is told
//! (`MatchClosed { TakenOver }`), leaves the match's followers and can move there no more. At
//! most one session holds a seat: `holders` names the session that took each seat over (none:
//! the machine's own player's session holds it). Guests and programs without an account have only
//! their session, as before. A take-over happens only on an explicit watch or take-seat, never on
//! an automatic resume, so two devices left open do not pass the seat back and forth.

use std::sync::Arc;

use bughouse::Seat;
use bughouse_match::{Phase, PlayerId};
use shvedka_proto::{BotTrouble, ClosedReason, ErrorCode, ErrorMsg, MissingBot, PlayerKind, ServerMsg};

use super::Room;
use crate::service::convert::error;
use crate::service::session::Session;

impl Room {
    /// The seat `session` holds: one it took over, or the machine's seat of its own player
    /// unless another session took that over.
    pub(super) fn seat_for(&self, session: &Session) -> Option<Seat> {
        if let Some(seat) =
            Seat::ALL.into_iter().find(|s| self.holders[s.index()].as_deref() == Some(&*session.key))
        {
            return Some(seat);
        }
        let seat = self.m.seat_of(session.player)?;
        self.holders[seat.index()].is_none().then_some(seat)
    }

    /// The machine's player `session` acts for: the seat's player when it holds a seat.
    ///
    /// # Errors
    /// `NotInMatch` for a session whose seat another session of its account took over.
    pub(super) fn acting_player(&self, session: &Session) -> Result<PlayerId, ErrorMsg> {
        match self.seat_for(session) {
            Some(seat) => Ok(self.m.seats()[seat.index()].unwrap_or(session.player)),
            None if self.m.seat_of(session.player).is_some() => Err(error(
                ErrorCode::NotInMatch,
                format!("your seat in match {} was taken over by another session of your account", self.id),
            )),
            None => Ok(session.player),
        }
    }

    /// The seat `session`'s account holds in the match in play, which a watch of it takes over
    /// (none for a guest, or before the start: seats then go by the machine's own rules, S1).
    pub(super) fn account_seat(&self, session: &Session) -> Option<Seat> {
        if session.account.is_none()
            || matches!(self.m.phase(), Phase::Forming | Phase::Ended(_) | Phase::Annulled)
        {
            return None;
        }
        Seat::ALL.into_iter().find(|s| {
            self.kinds[s.index()] == Some(PlayerKind::Account)
                && self.names[s.index()].as_deref() == Some(session.name.as_str())
        })
    }

    /// Whether `session` plays here: it holds a seat, or its account's seat is its to take over
    /// (a node of a cluster then relays it as a player, not as a spectator).
    pub(super) fn plays_here(&self, session: &Session) -> bool {
        self.seat_for(session).is_some() || self.account_seat(session).is_some()
    }

    /// The machine's player a follower acts for, if it holds a seat.
    pub(super) fn follower_player(&self, session: &Session) -> Option<PlayerId> {
        self.seat_for(session).and_then(|seat| self.m.seats()[seat.index()])
    }

    /// `session` asked to follow the match (a watch or a take-seat, not a resume): if its account
    /// sits here under another session, it takes that seat over and the session that held it is
    /// told and let go.
    pub(super) fn take_over(&mut self, session: &Arc<Session>) {
        if self.seat_for(session).is_some() {
            return;
        }
        let Some(seat) = self.account_seat(session) else { return };
        let previous: Vec<String> = self
            .followers
            .iter()
            .filter(|(key, f)| **key != session.key && self.seat_for(&f.session) == Some(seat))
            .map(|(key, _)| key.clone())
            .collect();
        let own = self.m.seats()[seat.index()] == Some(session.player);
        self.holders[seat.index()] = (!own).then(|| session.key.clone().into_boxed_str());
        tracing::info!(match_id = self.id.0, %seat, account = session.name, "a seat taken over by another session of its account");
        for key in previous {
            self.leave_gallery(&key);
            if let Some(f) = self.followers.remove(&key) {
                if f.session.room() == Some(self.id) {
                    f.session.set_room(None);
                }
                if let Some(out) = f.out {
                    out.push(ServerMsg::MatchClosed { match_id: self.id, reason: ClosedReason::TakenOver });
                }
            }
        }
    }

    /// A bot the server started again after a restart or a take-over (`features/bots.rs`) takes
    /// the seat its earlier bot held: `session`, opened by the server under that bot's name,
    /// holds it from now on, as a session of an account would. When none could (`trouble`),
    /// every follower is sent the state, which says so.
    ///
    /// # Errors
    /// `Forbidden` unless the seat is the server's bot's, under the session's name, in a match
    /// not over.
    pub(super) fn hand_to_bot(
        &mut self,
        seat: Seat,
        session: Result<Arc<Session>, BotTrouble>,
    ) -> Result<(), ErrorMsg> {
        let session = match session {
            Ok(session) => session,
            Err(reason) => {
                let seat = crate::service::convert::seat_id(seat);
                self.bots_missing.retain(|b| b.seat != seat);
                self.bots_missing.push(MissingBot { seat, reason });
                tracing::warn!(match_id = self.id.0, %seat, ?reason, "the server's bot cannot sit again; its seat is waited for (K6)");
                self.tell_states();
                return Ok(());
            }
        };
        let i = seat.index();
        let ours = self.names[i].as_deref() == Some(session.name.as_str())
            && crate::service::bot_names::level(&session.name, self.kinds[i]).is_some()
            && self.m.seats()[i].is_some();
        if !ours || matches!(self.m.phase(), Phase::Ended(_) | Phase::Annulled) {
            return Err(error(
                ErrorCode::Forbidden,
                format!("seat {seat} is not the server's bot's to take"),
            ));
        }
        self.holders[i] = Some(session.key.clone().into_boxed_str());
        let id = crate::service::convert::seat_id(seat);
        self.bots_missing.retain(|b| b.seat != id);
        tracing::info!(match_id = self.id.0, %seat, name = session.name, "the server's bot sits again");
        Ok(())
    }
}
