//! A logged event as the wire shows it (`MatchEvent`): built once, when the event is polled from
//! the machine, stored beside it, and shared by every follower and every later resume.

use bughouse_match::{ArbiterAct, Event, EventKind, Match, Ruling};
use shvedka_proto::{EventView, MatchEvent, PauseReason};

use super::Room;
use crate::service::convert::{self, seat_id};

impl Room {
    /// Every rule that decided the match just decided, its own `rule` first: its record
    /// explained (the flag's window, the weighing of E1–E9, lag credit, the arbiter), as
    /// `shvedka arbiter explain` says it.
    fn deciding_rules(&self, rule: &str) -> Vec<String> {
        let record = self.record();
        let explained = self.m.config().rules.rules().ok().and_then(|rules| record.explain(rules).ok());
        let mut rules = vec![rule.to_owned()];
        for r in explained.map(|e| e.rules).unwrap_or_default() {
            if !rules.contains(&r) {
                rules.push(r);
            }
        }
        rules
    }

    /// Every event the machine produced since the last call, with its wire view.
    pub(super) fn poll_batch(&mut self) -> Vec<(Event, MatchEvent)> {
        let mut batch = Vec::new();
        while let Some(e) = self.m.poll_event() {
            let view = self.view_of(&e);
            batch.push((e, view));
        }
        batch
    }

    fn view_of(&mut self, e: &Event) -> MatchEvent {
        let kind = match &e.kind {
            EventKind::SeatTaken { seat, .. } => EventView::SeatTaken {
                seat: seat_id(*seat),
                name: self.names[seat.index()].clone().unwrap_or_default(),
                kind: self.kinds[seat.index()].unwrap_or_default(),
            },
            EventKind::SeatLeft { seat, .. } => EventView::SeatLeft { seat: seat_id(*seat) },
            EventKind::Ready { seat, ready, .. } => EventView::Ready { seat: seat_id(*seat), ready: *ready },
            EventKind::CountdownStarted { starts_at, .. } => {
                EventView::CountdownStarted { starts_at_ms: convert::millis(*starts_at) }
            }
            EventKind::Started => EventView::Started,
            EventKind::Moved { seat, charged, credit, .. } => {
                let (uci, san) = self.pending_move.take().unwrap_or_default();
                EventView::Moved {
                    seat: seat_id(*seat),
                    uci,
                    san,
                    charged_ms: convert::millis(*charged),
                    credit_ms: convert::millis(*credit),
                }
            }
            EventKind::DrawOffered { seat, .. } => EventView::DrawOffered { seat: seat_id(*seat) },
            EventKind::DrawDeclined { seat, .. } => EventView::DrawDeclined { seat: seat_id(*seat) },
            EventKind::Claimed { seat, claim, .. } => {
                EventView::Claimed { seat: seat_id(*seat), claim: convert::claim_kind(*claim) }
            }
            EventKind::Resigned { seat, .. } => EventView::Resigned { seat: seat_id(*seat) },
            EventKind::ArbiterCalled { seat, replay, .. } => EventView::ArbiterCalled {
                seat: seat_id(*seat),
                replay: replay.map(convert::wire_replay_reason),
            },
            EventKind::FlagFell { seat } => EventView::FlagFell { seat: seat_id(*seat) },
            // The server's own pauses say why; the arbiter's are the arbiter's acts.
            EventKind::Arbiter(Ruling { act: ArbiterAct::Pause, .. }) if self.server_pause.is_some() => {
                EventView::Paused { reason: self.server_pause.take().unwrap_or(PauseReason::Restart) }
            }
            EventKind::Arbiter(Ruling { act: ArbiterAct::Resume, .. }) if self.server_pause.is_some() => {
                EventView::Resumed { reason: self.server_pause.take().unwrap_or(PauseReason::Restart) }
            }
            EventKind::Arbiter(Ruling { act, by }) => EventView::ArbiterActed {
                act: convert::arbiter_request(act),
                text: convert::describe_act(act),
                by: convert::official(by),
            },
            EventKind::Ended(adj) => {
                let mut result = convert::result_at(&self.m, e.seq, adj);
                result.rules = self.deciding_rules(&result.rule).into();
                self.result_rules = result.rules.clone();
                EventView::Ended(result)
            }
        };
        let changes_position = matches!(
            e.kind,
            EventKind::Moved { .. }
                | EventKind::CountdownStarted { chess960: Some(_), .. }
                | EventKind::Arbiter(Ruling {
                    act: ArbiterAct::TakeBack { .. }
                        | ArbiterAct::SetPosition { .. }
                        | ArbiterAct::Replay { .. },
                    ..
                })
        );
        MatchEvent {
            match_id: self.id,
            seq: e.seq,
            at_ms: convert::millis(e.at),
            kind,
            clocks_ms: convert::clocks(e.clocks),
            running: self.m.running(),
            bfen: changes_position.then(|| self.m.game().bfen()),
            server_time_us: self.server_time_us(),
        }
    }
}

/// Whether the server paused the match by itself, as its log shows: the last pause, resume or
/// call of the arbiter is a pause of the server's (a restart, a shutdown, a storage outage).
pub(crate) fn paused_by_server(m: &Match, views: &[MatchEvent]) -> bool {
    let last = m.events().iter().rev().find(|e| {
        matches!(
            e.kind,
            EventKind::Arbiter(Ruling { act: ArbiterAct::Pause | ArbiterAct::Resume, .. })
                | EventKind::ArbiterCalled { .. }
        )
    });
    last.and_then(|e| views.get(e.seq as usize)).is_some_and(|v| matches!(v.kind, EventView::Paused { .. }))
}
