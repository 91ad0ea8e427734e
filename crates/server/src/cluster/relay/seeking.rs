//! Seeks and rematches through other nodes: the node whose desk pairs everybody (`Seeking`), a
//! seek request sent there for a session of this node, and a rematch offer kept by the node that
//! ran the match — answered from here, and the player seated in the rematch (through the node
//! that runs it) once it exists. Leaving the match followed before is `let_go` here for another
//! node's match, as `Rooms::unfollow` is for this node's.

use std::sync::{Arc, Weak};

use shvedka_proto::{ClientMsg, ErrorCode, ErrorMsg, MatchId, Reply, SeatId, SeekEnd, ServerMsg};

use super::*;
use crate::cluster::wire::{About, Answer, Ask};
use crate::service::convert::error;
use crate::service::outbound::Outbound;
use crate::service::session::Session;

impl Relays {
    /// Which node runs the seeks, as last read from the database.
    pub(crate) fn seeking(&self) -> Seeking {
        self.seeking.lock().expect("seeking lock").clone()
    }

    /// Notes which node runs the seeks. When that changes, the seeks this node's sessions made
    /// through the old one are gone with it: each is told so.
    pub(crate) fn set_seeking(&self, now: Seeking) {
        let was = std::mem::replace(&mut *self.seeking.lock().expect("seeking lock"), now.clone());
        if was != now && matches!(was, Seeking::There(_)) {
            if now != Seeking::Unknown {
                tracing::info!(
                    ?now,
                    "the seeks are run by another node now; seeks made through the old one end"
                );
            }
            for mut s in self.seekers.iter_mut() {
                for seek in std::mem::take(&mut s.seeks) {
                    s.out.push(ServerMsg::SeekEnded { seek, reason: SeekEnd::Failed });
                }
            }
            // Those answering a rematch offer elsewhere still hear of it.
            self.seekers.retain(|_, s| s.rematch.is_some());
        }
    }

    /// Forwards a seek request of `session` (connected here through `out`) to `node`, which
    /// runs the seeks; what it pushes the session (invitations, matches found) comes to `out`.
    pub(crate) async fn ask_seeks(
        &self,
        session: &Arc<Session>,
        out: &Outbound,
        node: &str,
        msg: ClientMsg,
    ) -> Result<Reply, ErrorMsg> {
        self.listen(session, out);
        let payload = self.payload(session, About::Seek(msg))?;
        let unavailable = |what: &str| {
            error(ErrorCode::Unavailable, format!("node {node}, which runs the seeks, {what}; try again"))
        };
        match self.request(node, &payload).await {
            Ok(Answer::Reply(reply)) => {
                if let (Reply::Seek(view), Some(mut s)) = (&reply, self.seekers.get_mut(&session.key))
                    && !s.seeks.contains(&view.seek)
                {
                    s.seeks.push(view.seek);
                }
                Ok(reply)
            }
            Ok(Answer::Refused(e)) => Err(e),
            Ok(_) => Err(unavailable("does not run them any more")),
            Err(Unreached::OtherWire(wire)) => Err(other_wire(node, &wire, "runs the seeks")),
            Err(Unreached::Gone) => Err(unavailable("stopped")),
            Err(Unreached::Unanswered) => Err(unavailable("did not answer in time")),
        }
    }

    /// What another node pushes `session` from now on comes to `out`.
    pub(super) fn listen(&self, session: &Arc<Session>, out: &Outbound) {
        match self.seekers.get_mut(&session.key) {
            Some(mut s) => s.out = out.clone(),
            None => {
                let seeker =
                    Seeker { session: session.clone(), out: out.clone(), seeks: Vec::new(), rematch: None };
                self.seekers.insert(session.key.clone(), seeker);
            }
        }
    }

    /// The node that ran the match `id` if this node saw it end there lately (its rematch offer
    /// is there).
    pub(crate) fn ran_elsewhere(&self, id: MatchId) -> Option<String> {
        self.ended.get(&id).filter(|e| e.1.elapsed() < self.keep).map(|e| e.0.clone())
    }

    /// Forwards `session`'s answer to the rematch offer of match `id` to `node`, which ran it;
    /// what the offer tells the session later comes to `out`. When the rematch exists (this
    /// answer was the fourth acceptance), the session is seated in it first.
    pub(crate) async fn ask_rematch(
        self: &Arc<Self>,
        session: &Arc<Session>,
        out: &Outbound,
        node: &str,
        id: MatchId,
        accept: Option<bool>,
    ) -> Result<Reply, ErrorMsg> {
        self.listen(session, out);
        let payload = self.payload(session, About::Rematch { match_id: id, accept })?;
        let (view, seat) = match self.request(node, &payload).await {
            Ok(Answer::Rematch { view, seat }) => (view, seat),
            Ok(Answer::Refused(e)) => return Err(e),
            // It runs another build now: restarted, so the offer it kept is gone.
            Err(Unreached::OtherWire(_)) => {
                return Err(error(
                    ErrorCode::NoSuchMatch,
                    format!(
                        "node {node}, which ran match {id}, now runs another build: its rematch offer is gone"
                    ),
                ));
            }
            Ok(_) | Err(Unreached::Gone) => {
                return Err(error(
                    ErrorCode::NoSuchMatch,
                    format!("node {node}, which ran match {id}, stopped: its rematch offer is gone"),
                ));
            }
            Err(Unreached::Unanswered) => {
                return Err(error(
                    ErrorCode::Unavailable,
                    format!("node {node}, which ran match {id}, did not answer in time; try again"),
                ));
            }
        };
        if let Some(mut s) = self.seekers.get_mut(&session.key) {
            s.rematch = Some(Pending { node: node.to_owned(), match_id: id, seat });
        }
        if let Some(new) = view.rematch
            && let Err(e) = self.seat_in_rematch(session, out, new, seat).await
        {
            tracing::warn!(match_id = %new, error = %e.message, "a rematch seat stays empty");
        }
        Ok(Reply::Rematch(view))
    }

    /// Seats `session` in the rematch `new` of a match it played at `seat` (the other colour,
    /// same board), ready, through the node that runs it; nothing when it is in it already.
    pub(super) async fn seat_in_rematch(
        &self,
        session: &Arc<Session>,
        out: &Outbound,
        new: MatchId,
        seat: SeatId,
    ) -> Result<(), ErrorMsg> {
        if session.room() == Some(new) {
            return Ok(());
        }
        self.leave_other(session, new).await?;
        self.seat_ready(session, out, new, crate::features::rematch::swapped(seat)).await
    }

    /// `session` stops following a match other than `new` (on this node or another), as
    /// following a match does.
    pub(super) async fn leave_other(&self, session: &Arc<Session>, new: MatchId) -> Result<(), ErrorMsg> {
        let Some(other) = session.room().filter(|&other| other != new) else { return Ok(()) };
        let rooms = self.rooms.get().and_then(Weak::upgrade);
        if let Some(rooms) = rooms
            && rooms.unfollow(session, other).await?
        {
            return Ok(());
        }
        self.let_go(session, other).await
    }

    /// `session` stops following the match `id` another node runs (or ran). Refused only by a
    /// match that keeps him (he plays in it); one that is over, gone or being taken over lets go.
    pub(crate) async fn let_go(&self, session: &Arc<Session>, id: MatchId) -> Result<(), ErrorMsg> {
        if self.unwatch(session, Some(id), None).await {
            // A spectator of a gallery here: the owner never followed him.
            session.leave_room(id);
            return Ok(());
        }
        if !self.ended.contains_key(&id) {
            // Nothing is relayed for an unfollow: its queue is never read.
            let (out, _) = Outbound::channel(1);
            match self.forward(session, &out, id, Ask::Unfollow).await {
                Err(e) if !matches!(e.code, ErrorCode::Unavailable | ErrorCode::NoSuchMatch) => {
                    return Err(e);
                }
                Ok(_) => return Ok(()),
                Err(_) => {}
            }
        }
        self.drop_target(session, id);
        session.leave_room(id);
        Ok(())
    }

    /// Takes `seat` in match `id` and says ready, through the node that runs it, as the session's
    /// own requests would.
    pub(super) async fn seat_ready(
        &self,
        session: &Arc<Session>,
        out: &Outbound,
        id: MatchId,
        seat: SeatId,
    ) -> Result<(), ErrorMsg> {
        let sit = ClientMsg::TakeSeat { match_id: id, seat };
        self.forward(session, out, id, Ask::Command(sit)).await?;
        self.forward(session, out, id, Ask::Command(ClientMsg::Ready { ready: true })).await?;
        Ok(())
    }
}
