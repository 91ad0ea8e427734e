//! Rebuilding an undecided match from its stored log after a restart: the config it was created
//! with, the machine's events replayed by the machine's own replay (which insists on reproducing
//! the log exactly, clocks included), and the wire views followers resume from.

use bughouse_match::{Event, EventKind, Match, MatchConfig};
use shvedka_proto::{EventView, MatchEvent, PlayerKind};
use shvedka_storage::{EventRow, MatchRow, Store};

/// A match rebuilt from storage.
pub(crate) struct Rebuilt {
    pub(crate) m: Match,
    pub(crate) views: Vec<MatchEvent>,
}

pub(crate) async fn rebuild(store: &dyn Store, row: &MatchRow) -> anyhow::Result<Rebuilt> {
    let config: MatchConfig = serde_json::from_str(&row.created.config)?;
    let rows = store.events(row.created.id).await?;
    let mut events: Vec<Event> = Vec::with_capacity(rows.len());
    let mut views: Vec<MatchEvent> = Vec::with_capacity(rows.len());
    for (i, r) in rows.iter().enumerate() {
        anyhow::ensure!(r.seq == i as u64, "the log has a gap before event {}", r.seq);
        let event: Event = serde_json::from_str(&r.event)?;
        views.push(view_of(r, Some(&event))?);
        events.push(event);
    }
    let mut m = Match::replay(config, &events)?;
    // A match still forming draws its Chess960 position again (it is fixed at the countdown).
    m.choose_chess960(crate::service::random::chess960());
    // The replayed log is already stored and delivered: mark it polled.
    while m.poll_event().is_some() {}
    Ok(Rebuilt { m, views })
}

/// The wire view of one stored event, as followers are told it. A view stored before arbiter
/// acts were typed gets its facts back from the machine's act (`event`, read here when not
/// given).
pub(crate) fn view_of(r: &EventRow, event: Option<&Event>) -> anyhow::Result<MatchEvent> {
    let mut view: MatchEvent = serde_json::from_str(&r.view)?;
    if let EventView::Arbiter { act: text } = &view.kind {
        let read;
        let event = match event {
            Some(event) => event,
            None => {
                read = serde_json::from_str::<Event>(&r.event)?;
                &read
            }
        };
        if let EventKind::Arbiter(ruling) = &event.kind {
            view.kind = EventView::ArbiterActed {
                act: crate::service::convert::arbiter_request(&ruling.act),
                text: text.clone(),
                by: crate::service::convert::official(&ruling.by),
            };
        }
    }
    Ok(view)
}

/// The seated players' names and kinds, as the log's views say (who sat last on each seat, and
/// stayed).
pub(crate) fn names(views: &[MatchEvent]) -> ([Option<String>; 4], [Option<PlayerKind>; 4]) {
    let mut names: [Option<String>; 4] = Default::default();
    let mut kinds: [Option<PlayerKind>; 4] = Default::default();
    for v in views {
        match &v.kind {
            EventView::SeatTaken { seat, name, kind } => {
                let i = crate::service::convert::seat(*seat).index();
                names[i] = Some(name.clone());
                kinds[i] = Some(*kind);
            }
            EventView::SeatLeft { seat } => {
                let i = crate::service::convert::seat(*seat).index();
                names[i] = None;
                kinds[i] = None;
            }
            _ => {}
        }
    }
    (names, kinds)
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use bughouse::{RuleOptions, Seat};
    use bughouse_match::{ArbiterAct, ClockConfig, Command, PlayerId};
    use shvedka_proto::{ArbiterRequest, MatchId, SeatId};
    use shvedka_storage::{EventRow, NewMatch};

    use super::*;
    use crate::test_store::MemStore;

    /// A match whose arbiter act was stored, as a server before typed acts stored it, with a
    /// words-only view: after a restart its followers get the typed act, read from the machine's
    /// own event.
    #[tokio::test]
    async fn a2_a_words_only_arbiter_view_stored_before_is_served_typed_after_a_restart() {
        let clock = ClockConfig::builtin();
        let config = MatchConfig {
            rules: RuleOptions::preset("classic").unwrap(),
            time_control: clock.time_control("3+0").unwrap(),
            lag: clock.lag,
            countdown: Duration::ZERO,
            start: None,
            window_holds_endings: true,
        };
        let mut m = Match::new(config.clone()).unwrap();
        for (i, seat) in Seat::ALL.into_iter().enumerate() {
            m.handle_command(Duration::ZERO, PlayerId(i as u64 + 1), Command::TakeSeat(seat)).unwrap();
        }
        for i in 0..4 {
            m.handle_command(Duration::ZERO, PlayerId(i + 1), Command::Ready(true)).unwrap();
        }
        m.handle_timeout(Duration::from_millis(10));
        m.handle_arbiter(
            Duration::from_secs(1),
            bughouse_match::Official::Account("olga".into()),
            ArbiterAct::AdjustClock { seat: Seat::ALL[3], delta_ms: -60_000 },
        )
        .unwrap();
        let store = MemStore::default();
        let created = NewMatch {
            id: 9,
            rules: "classic".into(),
            time_control: "3+0".into(),
            listed: true,
            config: serde_json::to_string(&config).unwrap(),
            created_ms: 0,
            invite_hash: None,
            rated: false,
        };
        store.add_match(&created).await.unwrap();
        let mut rows = Vec::new();
        while let Some(e) = m.poll_event() {
            let kind = match &e.kind {
                EventKind::Arbiter(_) => {
                    EventView::Arbiter { act: "removed 60000 ms on black-B's clock".into() }
                }
                _ => EventView::Started,
            };
            let view = MatchEvent {
                match_id: MatchId(9),
                seq: e.seq,
                at_ms: 0,
                kind,
                clocks_ms: [0; 4],
                running: [false; 4],
                bfen: None,
                server_time_us: 0,
            };
            rows.push(EventRow {
                seq: e.seq,
                at_us: e.at.as_micros() as u64,
                event: serde_json::to_string(&e).unwrap(),
                view: serde_json::to_string(&view).unwrap(),
            });
        }
        store.append(9, &rows).await.unwrap();
        let row = store.find_match(9).await.unwrap().unwrap();
        let rebuilt = rebuild(&store, &row).await.unwrap();
        let last = &rebuilt.views.last().unwrap().kind;
        assert_eq!(
            last,
            &EventView::ArbiterActed {
                act: ArbiterRequest::AdjustClock { seat: SeatId::BlackB, delta_ms: -60_000 },
                text: "removed 60000 ms on black-B's clock".into(),
                by: Some(shvedka_proto::OfficialView::Account("olga".into())),
            }
        );
    }
}
