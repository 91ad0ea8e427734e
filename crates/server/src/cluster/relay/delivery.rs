//! Delivery of what owners relay: each relayed message reaches its session's connection here in
//! `seq` order (a repeat dropped, a gap filled from the database first); a match taken over is
//! followed again on its new node, retried every `lease_renew_ms` and given up after
//! [`GIVE_UP`]; the relay task hears this node's relay subject and the take-overs.

use std::sync::{Arc, Weak};
use std::time::Duration;

use futures_util::StreamExt;
use shvedka_proto::{ArbiterRequest, ClosedReason, ErrorCode, EventView, MatchId, SeekEnd, ServerMsg};
use tokio::sync::{oneshot, watch};
use tokio::time::Instant;

use super::*;
use crate::cluster::wire::{Answer, Ask, Relay, TAKEN, relay_subject};
use crate::service::room::RoomMsg;

/// What [`Relays::give_the_end`] found of a match nobody runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum TheEnd {
    /// It was decided: the follower was given its last events, the end included.
    Given,
    /// Not decided (or the follower had nothing of it): it is gone.
    NotDecided,
    /// The database could not be read: the follower keeps waiting.
    Unread,
}

impl Relays {
    /// What another node pushed a session of this node: from the seeks, or from a rematch offer.
    /// A match found, or a rematch made, is sat in here, through the match's node, before the
    /// session is told (as the node running the seeks, or the offer, seats its own).
    pub(super) fn push(self: &Arc<Self>, key: &str, msg: ServerMsg) {
        let Some(mut s) = self.seekers.get_mut(key) else { return };
        if let ServerMsg::Rematch(view) = &msg
            && let Some(new) = view.rematch
            && let Some(p) = s.rematch.clone().filter(|p| p.match_id == view.match_id)
        {
            let (session, out) = (s.session.clone(), s.out.clone());
            drop(s);
            let relays = self.clone();
            tokio::spawn(async move {
                if let Err(e) = relays.seat_in_rematch(&session, &out, new, p.seat).await {
                    tracing::warn!(match_id = %new, error = %e.message, "a rematch seat stays empty");
                }
                out.push(msg);
            });
            return;
        }
        match &msg {
            ServerMsg::Seek(view) | ServerMsg::SeekInvitation(view) if !s.seeks.contains(&view.seek) => {
                s.seeks.push(view.seek);
            }
            ServerMsg::SeekEnded { seek, .. } | ServerMsg::MatchFound { seek, .. } => {
                s.seeks.retain(|x| x != seek)
            }
            _ => {}
        }
        let ServerMsg::MatchFound { seek, match_id, seat, .. } = msg else {
            s.out.push(msg);
            return;
        };
        let (session, out) = (s.session.clone(), s.out.clone());
        drop(s);
        let relays = self.clone();
        tokio::spawn(async move {
            match relays.seat_ready(&session, &out, match_id, seat).await {
                Ok(_) => {
                    out.push(msg);
                }
                Err(e) => {
                    tracing::warn!(match_id = %match_id, error = %e.message, "a sought seat cannot be taken through this node");
                    out.push(ServerMsg::SeekEnded { seek, reason: SeekEnd::Failed });
                }
            }
        });
    }

    /// Delivers what an owner relayed.
    pub(super) async fn deliver(self: &Arc<Self>, relay: Relay) {
        match relay {
            Relay::Push { key, msg } => self.push(&key, msg),
            Relay::Behind { key, match_id } => {
                if let Some((_, t)) = self.targets.remove_if(&key, |_, t| t.match_id == match_id) {
                    // The connection closes as one that cannot keep up, and its client resumes.
                    t.out.raise_behind();
                }
            }
            Relay::Msg { key, match_id, msg: ServerMsg::ResumeElsewhere { .. } } => {
                // The owner let the match go (its lease lost): the session is here, not there,
                // so its client stays; it follows the match again where it is taken over.
                if let Some(mut t) = self.targets.get_mut(&key).filter(|t| t.match_id == match_id) {
                    t.attached = false;
                    t.since = Instant::now();
                }
                self.owners.remove(&match_id);
            }
            Relay::Msg { key, match_id, msg } => {
                let next = match self.targets.get_mut(&key) {
                    Some(mut t) if t.match_id == match_id => step(&mut t, &msg),
                    _ => return,
                };
                if let Step::Fill { after, upto } = next {
                    // Unread, it is as if the database had fewer: the follower resumes.
                    let missed = self.missed(match_id, after, upto).await.unwrap_or_default();
                    let Some(mut t) = self.targets.get_mut(&key).filter(|t| t.match_id == match_id) else {
                        return;
                    };
                    for view in missed {
                        t.seen = Seen::Upto(Some(view.seq));
                        t.out.push(ServerMsg::Event(view));
                    }
                    if step(&mut t, &msg) != Step::Deliver {
                        // The database had fewer events than the owner sent: resume instead.
                        t.out.raise_behind();
                        return;
                    }
                } else if matches!(next, Step::Drop) {
                    return;
                }
                if let ServerMsg::Event(e) = &msg
                    && matches!(
                        e.kind,
                        EventView::Ended(_)
                            | EventView::ArbiterActed { act: ArbiterRequest::Annul { .. }, .. }
                    )
                {
                    self.note_ended(match_id);
                }
                let closed = matches!(msg, ServerMsg::MatchClosed { .. });
                let gone = match self.targets.get(&key) {
                    Some(t) => !t.out.push(msg) && t.out.is_closed(),
                    None => return,
                };
                if closed || gone {
                    // Closed: its client resumes here and follows it again.
                    if let Some((_, t)) = self.targets.remove_if(&key, |_, t| t.match_id == match_id)
                        && closed
                    {
                        t.session.leave_room(match_id);
                    }
                }
            }
        }
    }

    /// Notes that the match `id` ended on the node this node knew ran it (where its rematch
    /// offer is), forgetting the oldest noted at [`Relays::max_ended`].
    pub(super) fn note_ended(&self, id: MatchId) {
        let Some(node) = self.owners.get(&id).map(|n| n.clone()) else { return };
        if !self.ended.contains_key(&id) && self.ended.len() >= self.max_ended {
            let oldest = self.ended.iter().min_by_key(|e| e.1).map(|e| *e.key());
            if let Some(oldest) = oldest {
                self.ended.remove(&oldest);
            }
        }
        self.ended.insert(id, (node, Instant::now()));
    }

    /// The events of `id` after `after` and before `upto`, from the database (the owner stores
    /// an event before it relays it). `None` when they cannot be read.
    pub(super) async fn missed(
        &self,
        id: MatchId,
        after: Option<u64>,
        upto: u64,
    ) -> Option<Vec<shvedka_proto::MatchEvent>> {
        let read = match self.store.events(id.0).await {
            Ok(rows) => rows
                .iter()
                .filter(|r| after.is_none_or(|a| r.seq > a) && r.seq < upto)
                .map(|r| crate::service::restore::view_of(r, None))
                .collect::<anyhow::Result<Vec<_>>>(),
            Err(e) => Err(e.into()),
        };
        read.inspect_err(|e| tracing::warn!(match_id = %id, error = %e, "cannot read missed events")).ok()
    }

    /// Another node took `id` over: its followers here follow it there, from what they have.
    pub(super) fn taken_over(self: &Arc<Self>, id: MatchId) {
        self.owners.remove(&id);
        let mut again = Vec::new();
        for mut t in self.targets.iter_mut() {
            if t.match_id == id {
                t.attached = false;
                // Waiting from now: one who followed it longer than `GIVE_UP` must not be
                // given up on before the new owner even answers.
                t.since = Instant::now();
                again.push(t.key().clone());
            }
        }
        for key in again {
            self.spawn_follow(key);
        }
    }

    /// Asks the owner again for a session whose match was waiting to be taken over.
    pub(super) fn spawn_follow(self: &Arc<Self>, key: String) {
        // Not while it is being asked already (its answer decides).
        let Some((session, out, id, seen)) = self.targets.get_mut(&key).filter(|t| !t.asking).map(|mut t| {
            t.asking = true;
            (t.session.clone(), t.out.clone(), t.match_id, t.seen)
        }) else {
            return;
        };
        if out.is_closed() {
            // Its connection is gone: it follows again when its client resumes, not before (a
            // restored match must not count an absent player back).
            self.targets.remove_if(&key, |_, t| t.out.same(&out));
            return;
        }
        let last_seq = match seen {
            Seen::Upto(seq) => seq,
            Seen::Unknown => None,
        };
        let relays = self.clone();
        // This node took the match over itself: the session follows it here, as any local one.
        let here = self.rooms.get().and_then(Weak::upgrade).and_then(|rooms| rooms.room(id).ok());
        if let Some(room) = here {
            self.targets.remove_if(&key, |_, t| t.match_id == id);
            tokio::spawn(async move {
                let (reply, rx) = oneshot::channel();
                let msg = RoomMsg::Follow { session: session.clone(), out, last_seq, reply };
                if room.tx.send(msg).await.is_err() || !matches!(rx.await, Ok(Ok(()))) {
                    session.leave_room(id);
                }
            });
            return;
        }
        // A gallery's follower follows; a session asks to watch, and a spectator is served from
        // this node's gallery of the match.
        let ask = if session.is_nobody() { Ask::Follow { last_seq } } else { Ask::Watch { last_seq } };
        tokio::spawn(async move {
            let answer = relays.ask(&session, id, ask).await;
            relays.asked(&key, id);
            match answer {
                Ok(Answer::Spectator) => {
                    if let Err(e) = relays.spectate_here(&session, &out, id).await {
                        tracing::debug!(match_id = %id, error = %e.message, "a spectator cannot watch again");
                        session.leave_room(id);
                    }
                }
                Ok(_) => {
                    if let Some(mut t) = relays.targets.get_mut(&key)
                        && t.match_id == id
                    {
                        t.attached = true;
                    }
                }
                Err(e) if e.code == ErrorCode::Unavailable => {}
                Err(e) if e.code == ErrorCode::NoSuchMatch => match relays.give_the_end(&key, id).await {
                    TheEnd::Given | TheEnd::Unread => {}
                    TheEnd::NotDecided => relays.close(&key, id),
                },
                Err(_) => relays.close(&key, id),
            }
        });
    }

    /// Nobody runs the session's match any more: if it was decided (or annulled) meanwhile, its
    /// last events stored by a node that could not deliver them (it lost its lease while they
    /// were committed), he is given them — the end included — and follows it no more, as if he
    /// had seen it end ([`TheEnd::Given`]). [`TheEnd::NotDecided`] when it did not end, or he was
    /// given nothing of it yet (no events to add to): the caller says it is gone.
    /// [`TheEnd::Unread`] when the database could not be read: he keeps following it, and is
    /// asked about again at each retry, not left without its end on the strength of a failed
    /// read; a read that keeps failing (or a stored row that does not decode) has him told it
    /// closed after [`GIVE_UP`], as any match nobody takes over.
    pub(super) async fn give_the_end(&self, key: &str, id: MatchId) -> TheEnd {
        let Some(Seen::Upto(after)) = self.targets.get(key).filter(|t| t.match_id == id).map(|t| t.seen)
        else {
            return TheEnd::NotDecided;
        };
        let ended = match self.store.find_match(id.0).await {
            Ok(Some(row)) => row.finished_ms.is_some() || row.ending.is_some(),
            Ok(None) => false,
            Err(e) => {
                tracing::warn!(match_id = %id, error = %e, "cannot read a match that nobody runs");
                return TheEnd::Unread;
            }
        };
        if !ended {
            return TheEnd::NotDecided;
        }
        let Some(missed) = self.missed(id, after, u64::MAX).await else { return TheEnd::Unread };
        if let Some((_, t)) = self.targets.remove_if(key, |_, t| t.match_id == id) {
            for view in missed {
                t.out.push(ServerMsg::Event(view));
            }
            t.session.leave_room(id);
        }
        TheEnd::Given
    }

    /// The session's match is gone for good: it is told so and follows nothing.
    pub(super) fn close(&self, key: &str, id: MatchId) {
        if let Some((_, t)) = self.targets.remove_if(key, |_, t| t.match_id == id) {
            t.out.push(ServerMsg::MatchClosed { match_id: id, reason: ClosedReason::Failed });
            t.session.leave_room(id);
        }
    }

    /// Every `every`: sessions whose match waits to be taken over ask again, and give up after
    /// [`GIVE_UP`]; what is remembered of matches nobody here follows any more is forgotten.
    pub(super) fn retry(self: &Arc<Self>) {
        // Who runs a match is remembered while sessions here follow it; an ended match's node
        // as long as its rematch offer lasts.
        let followed: std::collections::HashSet<MatchId> = self.targets.iter().map(|t| t.match_id).collect();
        self.owners.retain(|id, _| followed.contains(id));
        self.ended.retain(|_, e| e.1.elapsed() < self.keep);
        self.galleries.sweep();
        let waiting: Vec<(String, MatchId, bool)> = self
            .targets
            .iter()
            .filter(|t| !t.attached && !t.asking)
            .map(|t| (t.key().clone(), t.match_id, t.since.elapsed() > GIVE_UP))
            .collect();
        for (key, id, expired) in waiting {
            if expired {
                self.close(&key, id);
            } else {
                self.spawn_follow(key);
            }
        }
    }
}

/// Delivers what other nodes relay to this node's sessions, and follows matches taken over,
/// until `stopped`.
pub(crate) async fn run(relays: Arc<Relays>, every: Duration, mut stopped: watch::Receiver<bool>) {
    let subscribed = async {
        let relayed = relays.nats.subscribe(relay_subject(&relays.node)).await?;
        let taken = relays.nats.subscribe(TAKEN).await?;
        Ok::<_, async_nats::SubscribeError>((relayed, taken))
    };
    let (mut relayed, mut taken) = match subscribed.await {
        Ok(subs) => subs,
        Err(e) => {
            tracing::error!(error = %e, "cannot hear relayed messages");
            return;
        }
    };
    let mut tick = tokio::time::interval(every);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        let stop = async {
            let _ = stopped.wait_for(|stop| *stop).await;
        };
        tokio::select! {
            () = stop => return,
            msg = relayed.next() => {
                let Some(msg) = msg else { return };
                match shvedka_proto::decode::<Relay>(&msg.payload) {
                    Ok(relay) => relays.deliver(relay).await,
                    Err(e) => tracing::warn!(error = %e, "a relayed message that does not decode"),
                }
            }
            msg = taken.next() => {
                let Some(msg) = msg else { return };
                if let Ok(id) = shvedka_proto::decode::<MatchId>(&msg.payload) {
                    relays.taken_over(id);
                }
            }
            _ = tick.tick() => relays.retry(),
        }
    }
}
