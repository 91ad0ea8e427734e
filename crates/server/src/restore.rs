//! Rebuilding an undecided match from its stored log after a restart: the config it was created
//! with, the machine's events replayed by the machine's own replay (which insists on reproducing
//! the log exactly, clocks included), and the wire views followers resume from.

use bughouse_match::{Event, EventKind, Match, MatchConfig};
use shvedka_proto::{EventView, MatchEvent};
use shvedka_storage::{MatchRow, Store};

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
        let mut view: MatchEvent = serde_json::from_str(&r.view)?;
        // A view stored before arbiter acts were typed gets its facts back from the machine's act.
        if let (EventView::Arbiter { act: text }, EventKind::Arbiter(act)) = (&view.kind, &event.kind) {
            view.kind =
                EventView::ArbiterActed { act: crate::convert::arbiter_request(act), text: text.clone() };
        }
        events.push(event);
        views.push(view);
    }
    let mut m = Match::replay(config, &events)?;
    // A match still forming draws its Chess960 position again (it is fixed at the countdown).
    m.choose_chess960(crate::rooms::random_chess960());
    // The replayed log is already stored and delivered: mark it polled.
    while m.poll_event().is_some() {}
    Ok(Rebuilt { m, views })
}

/// The seated players' names, as the log's views say (who sat last on each seat, and stayed).
pub(crate) fn names(views: &[MatchEvent]) -> [Option<String>; 4] {
    let mut names: [Option<String>; 4] = Default::default();
    for v in views {
        match &v.kind {
            EventView::SeatTaken { seat, name } => {
                names[crate::convert::seat(*seat).index()] = Some(name.clone())
            }
            EventView::SeatLeft { seat } => names[crate::convert::seat(*seat).index()] = None,
            _ => {}
        }
    }
    names
}
