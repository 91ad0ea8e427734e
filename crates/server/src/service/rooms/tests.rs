//! The registry's own decisions, on the in-memory store.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use bughouse_match::{ClockConfig, PlayerId};
use shvedka_proto::MatchId;

use super::{MatchLimits, Rooms, RoomsSetup};
use crate::service::hooks::Unrated;
use crate::service::metrics::Metrics;
use crate::service::session::Sessions;
use crate::service::standing::{self, StandingTx};
use crate::test_store::MemStore;

async fn rooms(max_matches: usize) -> (Arc<Rooms>, StandingTx) {
    let store = Arc::new(MemStore::default());
    let (tx, standing) = standing::channel();
    let setup = RoomsSetup {
        limits: MatchLimits {
            max_matches,
            max_open_per_session: 10,
            forming_expiry: Duration::from_secs(600),
            restart_wait: Duration::from_secs(120),
            page_max: 50,
            reads_at_once: 4,
            record_cache_bytes: 1 << 20,
            spectator_events_kept: 16,
            watched: (4, 4),
        },
        clock: ClockConfig::builtin(),
        store: store.clone(),
        sessions: Arc::new(Sessions::new(store, 0, Duration::from_secs(3600))),
        records_dir: None,
        arbiters: false,
        started: tokio::time::Instant::now(),
        metrics: Arc::new(Metrics::new()),
        hooks: Arc::new(Unrated),
        standing,
    };
    (Rooms::open(setup, HashMap::new()).await.expect("the registry opens"), tx)
}

/// A match let go when the node lost its lease, not taken back by a look, is kept for the next
/// look exactly when this node could not take anything then: its lease lost again, or
/// `max_matches` reached. Forgotten otherwise (another node took it over, or it is decided), and
/// never kept while it is live here.
#[tokio::test(start_paused = true)]
async fn a_match_let_go_is_kept_for_later_only_while_this_node_could_not_take_it() {
    let (rooms, standing) = rooms(1).await;
    let elsewhere = MatchId(77);
    assert!(!rooms.take_back_later(elsewhere), "could have taken it: another node did, or it is over");

    standing.set(false);
    assert!(rooms.take_back_later(elsewhere), "its lease lost again while the look went on");
    standing.set(true);

    let (live, _) = rooms.create(PlayerId(1), "classic", "3+2", true, false, false).await.expect("a match");
    assert_eq!(rooms.len(), 1);
    assert!(rooms.take_back_later(elsewhere), "max_matches (1) reached: nothing could be taken");
    assert!(!rooms.take_back_later(live), "live here: nothing to take back");
    standing.set(false);
    assert!(!rooms.take_back_later(live), "live here, whatever the lease says");
}
