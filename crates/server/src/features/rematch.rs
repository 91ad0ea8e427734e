//! Rematches: once a match is decided (or annulled), its four players may play it again. Each
//! answers the offer (`ClientMsg::Rematch`); whoever asked about it hears of every change
//! (`ServerMsg::Rematch`). When all four have accepted, the server creates the new match with
//! the same rules, time control, listing and Chess960 choice, and seats the four in it, ready,
//! each with the **other colour on the same board**: partners stay partners and opponents stay
//! opponents, as a two-player site swaps colours for a rematch. The countdown then starts by
//! itself.
//!
//! Offers live in memory only, for `rematch_offer_s` after the match ended and at most
//! `max_rematch_offers` at once (config/default.toml; the oldest goes first, and an answer to it
//! is then refused like one to any unknown offer): a rematch is asked for in the minutes after a match, and a
//! server restart simply forgets it. A tournament game has no rematch (the director pairs the
//! next one).

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use shvedka_proto::{ErrorCode, ErrorMsg, MatchId, PhaseView, RematchView, SeatId, ServerMsg};
use tokio::time::Instant;

use crate::service::convert::error;
pub(crate) use crate::service::hooks::Finished;
use crate::service::outbound::Outbound;
use crate::service::rooms::Rooms;
use crate::service::session::Session;

/// One decided match's offer.
struct Offer {
    finished: Finished,
    accepted: [bool; 4],
    declined: [bool; 4],
    rematch: Option<MatchId>,
    /// Being created (the four accepted; the store is writing it).
    creating: bool,
    /// The players who asked about it, with the connection they last asked from.
    listeners: [Option<Listener>; 4],
    since: Instant,
}

/// A player who asked about an offer.
#[derive(Clone)]
struct Listener {
    session: Arc<Session>,
    out: Outbound,
    /// He is a session of another node of the cluster (standing in here): his node seats him
    /// when it hears the rematch exists, not this one.
    remote: bool,
}

impl Offer {
    fn view(&self) -> RematchView {
        RematchView {
            match_id: self.finished.id,
            players: self.finished.players.clone().map(|(_, name)| name),
            kinds: self.finished.kinds,
            accepted: self.accepted,
            declined: self.declined,
            rematch: self.rematch,
        }
    }

    fn tell(&self, skip: Option<usize>) {
        let view = self.view();
        for (i, l) in self.listeners.iter().enumerate() {
            if let (Some(l), false) = (l, skip == Some(i)) {
                l.out.push(ServerMsg::Rematch(view.clone()));
            }
        }
    }
}

/// The open rematch offers.
pub(crate) struct Rematches {
    offers: Mutex<HashMap<MatchId, Offer>>,
    /// How long after its end a match's rematch may be agreed.
    keep: Duration,
    /// The most offers held at once.
    max: usize,
}

/// The seat a player of the decided match takes in its rematch: the other colour, same board.
pub(crate) fn swapped(seat: SeatId) -> SeatId {
    match seat {
        SeatId::WhiteA => SeatId::BlackA,
        SeatId::BlackA => SeatId::WhiteA,
        SeatId::WhiteB => SeatId::BlackB,
        SeatId::BlackB => SeatId::WhiteB,
    }
}

impl Rematches {
    /// No offers yet; each kept for `keep`, at most `max` at once.
    pub(crate) fn new(keep: Duration, max: usize) -> Rematches {
        Rematches { offers: Mutex::default(), keep, max }
    }

    /// Opens the offer of a match that just ended (once: a match an arbiter brings back and
    /// decides again keeps its offer).
    pub(crate) fn open(&self, finished: Finished) {
        if !finished.rematch {
            return;
        }
        let Ok(mut offers) = self.offers.lock() else { return };
        offers.retain(|_, o| o.since.elapsed() < self.keep);
        while offers.len() >= self.max.max(1) {
            let Some(oldest) = offers.iter().min_by_key(|(_, o)| o.since).map(|(id, _)| *id) else { break };
            offers.remove(&oldest);
        }
        offers.entry(finished.id).or_insert_with(|| Offer {
            finished,
            accepted: [false; 4],
            declined: [false; 4],
            rematch: None,
            creating: false,
            listeners: Default::default(),
            since: Instant::now(),
        });
    }

    /// Whether this node holds an open offer for the match `id`.
    pub(crate) fn holds(&self, id: MatchId) -> bool {
        self.offers.lock().is_ok_and(|o| o.get(&id).is_some_and(|o| o.since.elapsed() < self.keep))
    }

    /// A player's answer (`Some(true)` accept, `Some(false)` decline, `None` only listen); when
    /// it is the fourth acceptance, the new match is created and the four seated in it first
    /// (the `remote` ones, sessions of other nodes, by their nodes). With the offer's view comes
    /// the player's seat in the decided match.
    ///
    /// # Errors
    /// `Rejected` while the match is live or after a decline, `NoSuchMatch` without an offer (and
    /// for anyone but its players when the match was private, live or decided), `Forbidden` for
    /// anyone but its players, and whatever creating the match meets.
    pub(crate) async fn answer(
        &self,
        rooms: &Rooms,
        session: &Arc<Session>,
        out: &Outbound,
        id: MatchId,
        accept: Option<bool>,
        remote: bool,
    ) -> Result<(RematchView, SeatId), ErrorMsg> {
        // A match decided a moment ago opens its offer as its task ends, right after its last
        // event: a request that comes first waits for it.
        for _ in 0..50 {
            let open = self.offers.lock().is_ok_and(|o| o.contains_key(&id));
            let ending = rooms.room(id).is_ok_and(|r| {
                r.summary.lock().is_ok_and(|s| matches!(s.phase, PhaseView::Ended | PhaseView::Annulled))
            });
            if open || !ending {
                break;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        let (f, seat_was) = {
            let mut offers = self.offers.lock().map_err(|_| error(ErrorCode::Unavailable, "rematches"))?;
            let Some(offer) = offers.get_mut(&id).filter(|o| o.since.elapsed() < self.keep) else {
                // A live match this session may not reach (private, without its invitation) is
                // answered as one that does not exist.
                if rooms.room(id).is_ok() && !rooms.hidden_from(session, id) {
                    return Err(error(
                        ErrorCode::Busy(shvedka_proto::Busy::NotOver),
                        format!("match {id} is not over"),
                    ));
                }
                return Err(error(ErrorCode::NoSuchMatch, format!("match {id} has no rematch offer")));
            };
            let Some(i) = offer.finished.players.iter().position(|(p, _)| *p == session.player) else {
                // A private match's offer is nobody else's business: as if there were none.
                if !offer.finished.listed {
                    return Err(error(ErrorCode::NoSuchMatch, format!("match {id} has no rematch offer")));
                }
                return Err(error(
                    ErrorCode::Forbidden,
                    format!("only the players of match {id} agree its rematch"),
                ));
            };
            offer.listeners[i] = Some(Listener { session: session.clone(), out: out.clone(), remote });
            if offer.rematch.is_none() {
                match accept {
                    Some(true) if offer.declined.iter().any(|&d| d) => {
                        return Err(error(
                            ErrorCode::Busy(shvedka_proto::Busy::RematchDeclined),
                            format!("the rematch of match {id} was declined"),
                        ));
                    }
                    Some(yes) => {
                        offer.accepted[i] = yes;
                        offer.declined[i] = !yes;
                    }
                    None => {}
                }
            }
            let all = offer.accepted.iter().all(|&a| a);
            if all && offer.rematch.is_none() && !offer.creating {
                offer.creating = true;
                (offer.finished.clone(), SeatId::ALL[i])
            } else {
                if accept.is_some() {
                    offer.tell(Some(i));
                }
                return Ok((offer.view(), SeatId::ALL[i]));
            }
        };
        let created = rooms.create_rematch(&f.rules, &f.time_control, f.listed, f.chess960, f.rated).await;
        let (listeners, view) = {
            let mut offers = self.offers.lock().map_err(|_| error(ErrorCode::Unavailable, "rematches"))?;
            let offer =
                offers.get_mut(&id).ok_or_else(|| error(ErrorCode::NoSuchMatch, "the offer lapsed"))?;
            offer.creating = false;
            offer.rematch = Some(created?);
            (offer.listeners.clone(), offer.view())
        };
        let new_id = view.rematch.expect("set above");
        // A private match's rematch is private too: its four hold its invitation, so that one
        // who leaves it may come back.
        if rooms.code_of(new_id).is_some() {
            for l in listeners.iter().flatten() {
                l.session.invite(new_id);
            }
        }
        // Everyone accepted, so everyone asked: each is seated over the connection he asked from
        // (a stale one is replaced when the session resumes: it follows the new match by then).
        for (i, l) in listeners.iter().enumerate() {
            let Some(l) = l.as_ref().filter(|l| !l.remote) else { continue };
            let seat = swapped(SeatId::ALL[i]);
            if let Err(e) = rooms.seat_ready(&l.session, &l.out, new_id, seat).await {
                tracing::warn!(match_id = %new_id, %seat, error = %e.message, "a rematch seat stays empty");
            }
        }
        for l in listeners.iter().flatten() {
            if !Arc::ptr_eq(&l.session, session) {
                l.out.push(ServerMsg::Rematch(view.clone()));
            }
        }
        Ok((view, seat_was))
    }
}

#[cfg(test)]
mod tests {
    use bughouse_match::PlayerId;
    use shvedka_proto::PlayerKind;

    use super::*;

    fn finished(id: u64) -> Finished {
        Finished {
            id: MatchId(id),
            rules: "mgimo-2017".into(),
            time_control: "3+0".into(),
            listed: true,
            chess960: false,
            rated: false,
            players: [1, 2, 3, 4].map(|p| (PlayerId(p), format!("p{p}"))),
            kinds: [PlayerKind::Guest; 4],
            rematch: true,
        }
    }

    fn held(r: &Rematches) -> Vec<u64> {
        let mut ids: Vec<u64> = r.offers.lock().unwrap().keys().map(|m| m.0).collect();
        ids.sort_unstable();
        ids
    }

    #[tokio::test(start_paused = true)]
    async fn offers_are_bounded_by_max_rematch_offers_and_kept_for_rematch_offer_s() {
        let r = Rematches::new(Duration::from_secs(60), 2);
        r.open(finished(1));
        tokio::time::advance(Duration::from_secs(1)).await;
        r.open(finished(2));
        tokio::time::advance(Duration::from_secs(1)).await;
        r.open(finished(3));
        assert_eq!(held(&r), vec![2, 3], "at the limit the oldest is forgotten");
        tokio::time::advance(Duration::from_secs(60)).await;
        r.open(finished(4));
        assert_eq!(held(&r), vec![4], "older than rematch_offer_s: gone");
        r.open(Finished { rematch: false, ..finished(5) });
        assert_eq!(held(&r), vec![4], "a tournament game has no offer");
    }
}
