//! Leases and fencing of cluster mode, on a throwaway PostgreSQL: two store handles play two
//! nodes of one cluster.

use std::time::Duration;

use shvedka_storage::{
    Appending, EventRow, IdKind, Leases, NewMatch, NodeRow, PgStore, Store, StoreError, Take,
};
use testkit::postgres::TempPostgres;

const LONG: Duration = Duration::from_secs(60);

fn new_match(id: u64) -> NewMatch {
    NewMatch {
        id,
        rules: "classic".into(),
        time_control: "3+0".into(),
        listed: true,
        config: "{}".into(),
        created_ms: 1,
        invite_hash: None,
        rated: false,
    }
}

fn event(seq: u64) -> EventRow {
    EventRow { seq, at_us: seq, event: format!("{{\"seq\":{seq}}}"), view: "{}".into() }
}

fn leases(store: &PgStore) -> &dyn Leases {
    store.leases().expect("a node of a cluster")
}

async fn node(url: &str, name: &str, lease: Duration) -> PgStore {
    let store = PgStore::connect_node(url, name, lease).await.unwrap();
    leases(&store).heartbeat().await.unwrap();
    store
}

#[tokio::test]
async fn a_stale_owner_cannot_append_once_another_node_took_the_match_over() {
    let pg = TempPostgres::start();
    let a = node(&pg.url, "a", LONG).await;
    let b = node(&pg.url, "b", LONG).await;
    a.add_match(&new_match(1)).await.unwrap();
    a.add_match(&new_match(2)).await.unwrap();

    assert_eq!(leases(&a).take_lease(1).await.unwrap(), Take::Taken { fence: 1 });
    assert_eq!(leases(&b).take_lease(1).await.unwrap(), Take::Held { node: "a".into() }, "a is alive");
    let holder = leases(&b).holder(1).await.unwrap();
    assert_eq!(holder, Some(NodeRow { node: "a".into(), alive: true, matches: 1 }), "who to forward to");
    assert_eq!(leases(&b).holder(2).await.unwrap(), None, "nobody runs match 2");
    assert_eq!(leases(&b).fence(1), None);
    a.append(1, &[event(0), event(1)]).await.unwrap();
    let refused = b.append(1, &[event(2)]).await;
    assert!(
        matches!(refused, Err(StoreError::Fenced { match_id: 1, fence: None, current: Some(1) })),
        "a node without the lease may not append: {refused:?}"
    );

    // Node a stops answering: its lease runs out (here at once), and b takes the match over.
    leases(&a).leave().await.unwrap();
    let holder = leases(&b).holder(1).await.unwrap();
    assert_eq!(holder, Some(NodeRow { node: "a".into(), alive: false, matches: 1 }), "a's lease ran out");
    assert_eq!(leases(&b).take_lease(1).await.unwrap(), Take::Taken { fence: 2 });
    b.append(1, &[event(2)]).await.unwrap();
    let refused = a.append(1, &[event(3)]).await;
    assert!(
        matches!(refused, Err(StoreError::Fenced { match_id: 1, fence: Some(1), current: Some(2) })),
        "the stale owner is refused: {refused:?}"
    );
    assert_eq!(
        b.events(1).await.unwrap(),
        (0..3).map(event).collect::<Vec<_>>(),
        "nothing of a's refused append"
    );
    // The stale owner's retry of an event already stored is refused too: it may not even confirm.
    assert!(matches!(a.append(1, &[event(2)]).await, Err(StoreError::Fenced { .. })));

    // A group commit with one stale match is refused whole, and the good match alone goes through.
    leases(&a).heartbeat().await.unwrap();
    assert_eq!(leases(&a).take_lease(2).await.unwrap(), Take::Taken { fence: 1 });
    let stale = Appending { match_id: 1, fence: Some(1), events: &[event(3)] };
    let refused =
        a.append_batch(&[Appending { match_id: 2, fence: Some(1), events: &[event(0)] }, stale]).await;
    assert!(matches!(refused, Err(StoreError::Fenced { match_id: 1, .. })), "{refused:?}");
    assert!(a.events(2).await.unwrap().is_empty(), "all or none");
    a.append(2, &[event(0)]).await.unwrap();
    assert_eq!(leases(&a).take_lease(1).await.unwrap(), Take::Held { node: "b".into() }, "b is alive");
}

/// A node let a match go (it lost its standing) while an append of the match's task waited
/// to be committed, and took the match back before that commit ran, for a new task that read
/// the log without those events: the old task's append names the fence it took and is refused,
/// though the node holds the match again; the new task's goes through.
#[tokio::test]
async fn an_append_of_a_let_go_task_is_refused_after_its_node_took_the_match_back() {
    let pg = TempPostgres::start();
    let a = node(&pg.url, "a", LONG).await;
    a.add_match(&new_match(1)).await.unwrap();
    assert_eq!(leases(&a).take_lease(1).await.unwrap(), Take::Taken { fence: 1 });
    a.append(1, &[event(0)]).await.unwrap();
    leases(&a).release_lease(1).await.unwrap();
    assert_eq!(leases(&a).take_lease(1).await.unwrap(), Take::Taken { fence: 2 });
    let old_task = EventRow { event: "{\"old\":true}".into(), ..event(1) };
    let refused = a.append_batch(&[Appending { match_id: 1, fence: Some(1), events: &[old_task] }]).await;
    assert!(
        matches!(refused, Err(StoreError::Fenced { match_id: 1, fence: Some(1), current: Some(2) })),
        "the let-go task is refused: {refused:?}"
    );
    a.append_batch(&[Appending { match_id: 1, fence: Some(2), events: &[event(1)] }]).await.unwrap();
    assert_eq!(a.events(1).await.unwrap(), vec![event(0), event(1)], "the new task's event alone");
    // An appender that holds no fence is refused too.
    let none = a.append_batch(&[Appending { match_id: 1, fence: None, events: &[event(2)] }]).await;
    assert!(matches!(none, Err(StoreError::Fenced { .. })), "{none:?}");
}

#[tokio::test]
async fn a_restarted_node_retakes_its_own_matches_under_a_new_fence() {
    let pg = TempPostgres::start();
    let old = node(&pg.url, "a", LONG).await;
    old.add_match(&new_match(1)).await.unwrap();
    assert_eq!(leases(&old).take_lease(1).await.unwrap(), Take::Taken { fence: 1 });
    let new = node(&pg.url, "a", LONG).await;
    assert_eq!(leases(&new).take_lease(1).await.unwrap(), Take::Taken { fence: 2 });
    new.append(1, &[event(0)]).await.unwrap();
    assert!(
        matches!(old.append(1, &[event(1)]).await, Err(StoreError::Fenced { .. })),
        "the old process of the same name is fenced off"
    );
}

#[tokio::test]
async fn a_lease_runs_out_by_the_database_clock_when_its_node_stops_renewing() {
    let pg = TempPostgres::start();
    let a = node(&pg.url, "a", Duration::from_millis(200)).await;
    let b = node(&pg.url, "b", LONG).await;
    a.add_match(&new_match(1)).await.unwrap();
    assert_eq!(leases(&a).take_lease(1).await.unwrap(), Take::Taken { fence: 1 });
    assert_eq!(leases(&b).take_lease(1).await.unwrap(), Take::Held { node: "a".into() });
    assert!(leases(&b).orphans().await.unwrap().is_empty(), "a runs it");
    // a renews once more, then no more. A take that returned within 200 ms of the start of that
    // renewal ran within 200 ms of it, so it must have been refused.
    let renewed = std::time::Instant::now();
    leases(&a).heartbeat().await.unwrap();
    for _ in 0..40 {
        let taken = leases(&b).take_lease(1).await.unwrap();
        let within = renewed.elapsed();
        match taken {
            Take::Taken { fence } => {
                assert!(within >= Duration::from_millis(200), "taken {within:?} after a's renewal");
                assert_eq!(fence, 2);
                return;
            }
            Take::Held { node } => assert_eq!(node, "a"),
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("a's lease never ran out");
}

#[tokio::test]
async fn orphans_are_the_undecided_matches_no_live_node_runs_and_nodes_are_listed() {
    let pg = TempPostgres::start();
    let a = node(&pg.url, "a", LONG).await;
    let b = node(&pg.url, "b", LONG).await;
    for id in 1..=4 {
        a.add_match(&new_match(id)).await.unwrap();
    }
    leases(&a).take_lease(1).await.unwrap();
    leases(&b).take_lease(2).await.unwrap();
    leases(&a).take_lease(4).await.unwrap();
    a.finish(4, "{}", 5).await.unwrap();
    assert_eq!(leases(&a).orphans().await.unwrap(), vec![3], "3 has no lease; 4 is decided");
    // A match just stored, its lease not taken yet (its node takes it next), is no orphan until
    // it is older than a lease: a scan in between must not take it from its creator.
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_millis() as u64;
    a.add_match(&NewMatch { created_ms: now, ..new_match(5) }).await.unwrap();
    assert_eq!(leases(&b).orphans().await.unwrap(), vec![3], "5 is being created");
    let young = node(&pg.url, "c", Duration::from_millis(1)).await;
    tokio::time::sleep(Duration::from_millis(20)).await;
    assert_eq!(leases(&young).orphans().await.unwrap(), vec![3, 5], "older than c's lease, 5 is an orphan");
    leases(&a).take_lease(5).await.unwrap();
    leases(&young).leave().await.unwrap();
    leases(&b).leave().await.unwrap();
    assert_eq!(leases(&a).orphans().await.unwrap(), vec![2, 3], "b's match once b is gone");
    leases(&a).release_lease(4).await.unwrap();
    let nodes = leases(&a).nodes().await.unwrap();
    assert_eq!(
        nodes,
        vec![
            NodeRow { node: "a".into(), alive: true, matches: 2 },
            NodeRow { node: "b".into(), alive: false, matches: 1 },
            NodeRow { node: "c".into(), alive: false, matches: 0 },
        ]
    );
    // A store that is no node (a tool's: a standalone server is refused beside nodes) has no
    // leases, and appends as before.
    let plain = PgStore::connect_tool(&pg.url).await.unwrap();
    assert!(plain.leases().is_none());
    plain.append(3, &[event(0)]).await.unwrap();
}

#[tokio::test]
async fn nodes_are_handed_distinct_ids_above_every_stored_one() {
    let pg = TempPostgres::start();
    let a = node(&pg.url, "a", LONG).await;
    let b = node(&pg.url, "b", LONG).await;
    // Ids stored before the database served a cluster stay taken.
    a.add_match(&new_match(41)).await.unwrap();
    let (mine, theirs) = tokio::join!(
        async {
            let mut ids = Vec::new();
            for _ in 0..20 {
                ids.push(leases(&a).next_id(IdKind::Match).await.unwrap());
            }
            ids
        },
        async {
            let mut ids = Vec::new();
            for _ in 0..20 {
                ids.push(leases(&b).next_id(IdKind::Match).await.unwrap());
            }
            ids
        }
    );
    let mut all: Vec<u64> = mine.iter().chain(&theirs).copied().collect();
    all.sort_unstable();
    all.dedup();
    assert_eq!(all.len(), 40, "no id handed out twice");
    assert!(all[0] > 41, "above the stored match 41: {all:?}");
    assert!(mine.windows(2).all(|w| w[0] < w[1]), "increasing per node");
    assert_eq!(leases(&a).next_id(IdKind::Player).await.unwrap(), 1, "players count apart");
}

#[tokio::test]
async fn a_take_over_waits_for_an_append_in_flight_and_then_fences_the_next() {
    use sqlx::Connection;
    let pg = TempPostgres::start();
    let a = node(&pg.url, "a", LONG).await;
    let b = node(&pg.url, "b", LONG).await;
    a.add_match(&new_match(1)).await.unwrap();
    leases(&a).take_lease(1).await.unwrap();
    leases(&a).leave().await.unwrap();
    // An append of a's in flight holds the lease row as the append's transaction does, until
    // its commit.
    let mut conn = sqlx::PgConnection::connect(&pg.url).await.unwrap();
    let mut tx = conn.begin().await.unwrap();
    sqlx::query("SELECT fence FROM match_leases WHERE match_id = 1 FOR SHARE")
        .fetch_one(&mut *tx)
        .await
        .unwrap();
    let take = tokio::spawn(async move {
        let taken = leases(&b).take_lease(1).await.unwrap();
        (b, taken)
    });
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert!(!take.is_finished(), "the take-over waits for the append in flight");
    tx.commit().await.unwrap();
    let (b, taken) = tokio::time::timeout(Duration::from_secs(10), take).await.expect("it goes on").unwrap();
    assert_eq!(taken, Take::Taken { fence: 2 });
    assert!(matches!(a.append(1, &[event(0)]).await, Err(StoreError::Fenced { .. })));
    b.append(1, &[event(0)]).await.unwrap();
}

#[tokio::test]
async fn a_role_is_held_by_one_live_node_and_passes_on_when_it_stops() {
    let pg = TempPostgres::start();
    let a = node(&pg.url, "a", LONG).await;
    let b = node(&pg.url, "b", LONG).await;
    assert_eq!(leases(&a).take_role("tournaments").await.unwrap(), Take::Taken { fence: 1 });
    assert_eq!(
        leases(&a).take_role("tournaments").await.unwrap(),
        Take::Taken { fence: 1 },
        "kept, not raised"
    );
    assert_eq!(leases(&b).take_role("tournaments").await.unwrap(), Take::Held { node: "a".into() });
    a.save_tournament(1, "by a").await.expect("the driver saves");
    let refused = b.save_tournament(1, "by b").await;
    assert!(
        matches!(refused, Err(StoreError::RoleFenced { fence: None, .. })),
        "not the driver: {refused:?}"
    );
    leases(&a).leave().await.unwrap();
    assert_eq!(leases(&b).take_role("tournaments").await.unwrap(), Take::Taken { fence: 2 });
    b.save_tournament(1, "by b").await.expect("the new driver saves");
    leases(&a).heartbeat().await.unwrap();
    // Node a comes back without having looked at the role: its save is refused, not written.
    let stale = a.save_tournament(1, "stale, by a").await;
    assert!(
        matches!(stale, Err(StoreError::RoleFenced { fence: Some(1), current: None, .. })),
        "a stale driver's save is refused: {stale:?}"
    );
    assert_eq!(leases(&a).take_role("tournaments").await.unwrap(), Take::Held { node: "b".into() });
    assert_eq!(b.tournaments().await.unwrap(), [(1, "by b".to_owned())], "only the drivers' saves are kept");
}

/// Sessions of the database with a transaction open and idle, as the server itself counts them.
async fn idle_in_transaction(url: &str) -> i64 {
    use sqlx::Connection;
    let mut conn = sqlx::PgConnection::connect(url).await.unwrap();
    sqlx::query_scalar("SELECT count(*) FROM pg_stat_activity WHERE state = 'idle in transaction'")
        .fetch_one(&mut conn)
        .await
        .unwrap()
}

/// A node's append abandoned while its `BEGIN` is on a cut link (its match task let the match go)
/// leaves no transaction open on a pooled connection once the link heals: the connection is
/// closed, so later appends are committed, not swallowed by a transaction nobody ends.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a4_an_append_abandoned_on_a_cut_link_leaves_no_transaction_open_and_later_appends_are_committed() {
    use testkit::link::{Link, Mode};
    let pg = TempPostgres::start();
    let link = Link::start_unix(pg.socket().expect("a throwaway PostgreSQL")).await.unwrap();
    let linked = format!("postgres://postgres@{}/postgres", link.addr());
    // A long lease: the database would end the open transaction only after it.
    let store = node(&linked, "node-a", Duration::from_secs(60)).await;
    store.add_match(&new_match(1)).await.unwrap();
    assert!(matches!(leases(&store).take_lease(1).await.unwrap(), Take::Taken { .. }));
    store.append(1, &[event(0)]).await.unwrap();

    link.set(Mode::Blackhole);
    let abandoned = tokio::time::timeout(Duration::from_millis(300), store.append(1, &[event(1)])).await;
    assert!(abandoned.is_err(), "held by the cut link, then abandoned");
    link.set(Mode::Pass);
    // The held `BEGIN` lands now; the connection it came on must not be given to anyone.
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(idle_in_transaction(&pg.url).await, 0, "no pooled connection holds a transaction open");
    // A statement that commits by itself (a decision; a heartbeat is another) is committed.
    store.finish(1, "{}", 1234).await.unwrap();
    let check = PgStore::connect_tool(&pg.url).await.unwrap();
    let row = check.find_match(1).await.unwrap().expect("the match");
    assert_eq!(row.finished_ms, Some(1234), "a write acknowledged is committed");
    for seq in 1..=8 {
        store.append(1, &[event(seq)]).await.unwrap();
    }
    let stored: Vec<u64> = check.events(1).await.unwrap().iter().map(|e| e.seq).collect();
    assert_eq!(stored, (0..=8).collect::<Vec<_>>(), "every acknowledged append is committed");
    assert_eq!(idle_in_transaction(&pg.url).await, 0, "still none");
}

/// A match task ends after its node took the match again under a later fence (it lost its lease,
/// rejoined and took the match back, while the old task was still ending): releasing the old
/// task's lease must leave the later one alone. Released by "whatever fence this node holds now",
/// the later lease was deleted, another node took the match with a fence counted from 1 again,
/// and two nodes ran it (found by the fault benchmark).
#[tokio::test]
async fn releasing_an_older_lease_of_a_match_leaves_the_nodes_later_one() {
    let pg = TempPostgres::start();
    let a = node(&pg.url, "a", Duration::from_secs(60)).await;
    let b = node(&pg.url, "b", Duration::from_secs(60)).await;
    a.add_match(&new_match(9)).await.unwrap();
    assert_eq!(leases(&a).take_lease(9).await.unwrap(), Take::Taken { fence: 1 });
    assert_eq!(leases(&a).take_lease(9).await.unwrap(), Take::Taken { fence: 2 }, "taken again");
    leases(&a).release_lease_taken(9, 1).await.unwrap();
    let holder = leases(&a).holder(9).await.unwrap().expect("still held");
    assert_eq!(holder.node, "a");
    assert_eq!(leases(&a).fence(9), Some(2), "the later fence is still this node's");
    assert_eq!(leases(&b).take_lease(9).await.unwrap(), Take::Held { node: "a".into() });
    leases(&a).release_lease_taken(9, 2).await.unwrap();
    assert_eq!(leases(&a).holder(9).await.unwrap(), None, "its own lease released");
    assert_eq!(leases(&b).last_holder(9).await.unwrap().map(|h| h.node), Some("a".into()));
    leases(&a).leave().await.unwrap();
    let gone = leases(&b).last_holder(9).await.unwrap().expect("still named");
    assert!(!gone.alive, "a left: named, but not alive");
    assert_eq!(leases(&a).fence(9), None);
}

/// A released lease keeps its row without a node: the next node to take the match raises the
/// fence above every fence it had. Deleted, the next take counted from 1 again, and a node that
/// still held the match's old fence 1 in memory (cut off when it was taken over) was let append
/// beside the node that runs it.
#[tokio::test]
async fn a_released_lease_is_taken_next_under_a_higher_fence_and_an_old_fence_never_counts_again() {
    let pg = TempPostgres::start();
    let a = node(&pg.url, "a", LONG).await;
    let b = node(&pg.url, "b", LONG).await;
    let c = node(&pg.url, "c", LONG).await;
    a.add_match(&new_match(5)).await.unwrap();
    assert_eq!(leases(&a).take_lease(5).await.unwrap(), Take::Taken { fence: 1 });
    // Node a is cut off (its lease runs out, it still believes it holds fence 1); b takes the
    // match over and later releases it.
    leases(&a).leave().await.unwrap();
    assert_eq!(leases(&b).take_lease(5).await.unwrap(), Take::Taken { fence: 2 });
    leases(&b).release_lease_taken(5, 2).await.unwrap();
    assert_eq!(leases(&c).holder(5).await.unwrap(), None, "a released lease has no holder");
    // Issue 55: the node that held it last is remembered (an arbiter's act on the decided match
    // goes there, to its watchers), alive or not.
    assert_eq!(
        leases(&c).last_holder(5).await.unwrap(),
        Some(NodeRow { node: "b".into(), alive: true, matches: 0 }),
        "b held it last"
    );
    assert_eq!(leases(&c).orphans().await.unwrap(), vec![5], "and its match is an orphan at once");
    let refused = b.append(5, &[event(0)]).await;
    assert!(matches!(refused, Err(StoreError::Fenced { fence: None, current: None, .. })), "{refused:?}");
    assert_eq!(leases(&c).take_lease(5).await.unwrap(), Take::Taken { fence: 3 }, "never 1 again");
    assert_eq!(leases(&a).last_holder(5).await.unwrap(), None, "held again: no last holder to name");
    c.append(5, &[event(0)]).await.unwrap();
    assert_eq!(leases(&a).fence(5), Some(1), "node a still believes");
    let refused = a.append(5, &[event(1)]).await;
    assert!(
        matches!(refused, Err(StoreError::Fenced { match_id: 5, fence: Some(1), current: Some(3) })),
        "the old fence is refused: {refused:?}"
    );
    let stored: Vec<u64> = c.events(5).await.unwrap().iter().map(|e| e.seq).collect();
    assert_eq!(stored, vec![0]);
}

/// A node killed and restarted under its name renews its row at once, so no other node ever
/// finds the matches its earlier process ran orphaned: the restarted process must take them
/// back itself. They are its orphans (leases in its name it never took); the ones it took are not.
#[tokio::test]
async fn a_restarted_nodes_leases_from_its_earlier_process_are_its_orphans() {
    let pg = TempPostgres::start();
    let before = node(&pg.url, "a", LONG).await;
    let other = node(&pg.url, "b", LONG).await;
    before.add_match(&new_match(3)).await.unwrap();
    before.add_match(&new_match(4)).await.unwrap();
    assert_eq!(leases(&before).take_lease(3).await.unwrap(), Take::Taken { fence: 1 });
    assert_eq!(leases(&before).orphans().await.unwrap(), vec![4], "its own lease is no orphan to it");
    // Killed, and started again under the same name before the lease ran out.
    drop(before);
    let after = node(&pg.url, "a", LONG).await;
    assert_eq!(leases(&other).orphans().await.unwrap(), vec![4], "node a is alive: not b's to take");
    assert_eq!(leases(&after).orphans().await.unwrap(), vec![3, 4], "but the new process's to take back");
    assert_eq!(leases(&after).take_lease(3).await.unwrap(), Take::Taken { fence: 2 });
    assert_eq!(leases(&after).orphans().await.unwrap(), vec![4], "taken back: no orphan any more");
}
