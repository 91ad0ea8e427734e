//! One suite, run against both stores: SQLite in a temporary file and a throwaway PostgreSQL.

use std::sync::Arc;

use shvedka_storage::{Ending, EventRow, NewMatch, PgStore, PlayerRow, SqliteStore, Store, StoreError};
use testkit::postgres::TempPostgres;

fn new_match(id: u64) -> NewMatch {
    NewMatch {
        id,
        rules: "mgimo-2017".into(),
        time_control: "3+0".into(),
        listed: id % 2 == 1,
        config: format!("{{\"id\":{id}}}"),
        created_ms: 1_700_000_000_000 + id,
    }
}

fn event(seq: u64) -> EventRow {
    EventRow {
        seq,
        at_us: seq * 1000,
        event: format!("{{\"seq\":{seq}}}"),
        view: format!("view {seq} ünïcode"),
    }
}

/// Everything the server relies on.
async fn suite(store: Arc<dyn Store>) {
    assert_eq!(store.max_ids().await.unwrap(), (0, 0), "a new database is empty");
    let alice = PlayerRow {
        id: 7,
        name: "alice".into(),
        token_hash: "ab".repeat(32),
        created_ms: 5,
        last_seen_ms: 5,
    };
    store.add_player(&alice).await.unwrap();
    assert!(store.add_player(&alice).await.is_err(), "a player id is unique");
    assert_eq!(store.player_by_token(&alice.token_hash).await.unwrap(), Some(alice.clone()));
    assert_eq!(store.player_by_token(&"cd".repeat(32)).await.unwrap(), None);
    store.touch_player(7, 99).await.unwrap();
    let seen = store.player(7).await.unwrap().expect("alice");
    assert_eq!(seen, PlayerRow { last_seen_ms: 99, ..alice.clone() }, "last seen moves, nothing else");
    assert_eq!(store.player(8).await.unwrap(), None);

    store.add_match(&new_match(1)).await.unwrap();
    store.add_match(&new_match(2)).await.unwrap();
    assert!(store.add_match(&new_match(2)).await.is_err(), "a match id is unique");
    store.append(1, &[event(0), event(1), event(2)]).await.unwrap();
    store.append(1, &[event(3)]).await.unwrap();
    store.append(1, &[]).await.unwrap();
    // A4: the log is append-only and whole: a batch with a seq already stored with other content
    // is refused as a whole, and nothing of it is written.
    let forked = EventRow { event: "{\"other\":true}".into(), ..event(3) };
    let refused = store.append(1, &[event(4), forked]).await;
    assert!(matches!(refused, Err(StoreError::Conflict { match_id: 1, seq: 3 })), "{refused:?}");
    let log = store.events(1).await.unwrap();
    assert_eq!(log, (0..4).map(event).collect::<Vec<_>>(), "in order, nothing of the refused batch");
    // Appending is idempotent: a batch whose commit was acknowledged too late and is sent again
    // (the same events) is taken as written, and what is new in it is added.
    store.append(1, &[event(2), event(3), event(4)]).await.unwrap();
    let log = store.events(1).await.unwrap();
    assert_eq!(log, (0..5).map(event).collect::<Vec<_>>(), "a retried batch is stored once");
    // Group commit: the events of several matches in one transaction, all or none.
    store.append_batch(&[(1, &[event(5)][..]), (2, &[event(0), event(1)][..])]).await.unwrap();
    assert_eq!(store.events(1).await.unwrap().len(), 6);
    assert_eq!(store.events(2).await.unwrap(), vec![event(0), event(1)]);
    let forked = EventRow { event: "{\"other\":true}".into(), ..event(0) };
    let refused = store.append_batch(&[(1, &[event(6)][..]), (2, &[forked][..])]).await;
    assert!(matches!(refused, Err(StoreError::Conflict { match_id: 2, seq: 0 })), "{refused:?}");
    assert_eq!(store.events(1).await.unwrap().len(), 6, "nothing of a refused batch, of any match");
    store.append_batch(&[]).await.unwrap();
    // A batch larger than one statement carries (500 rows an INSERT): stored whole and in order;
    // and a conflict in its last statement takes back the statements before it.
    let many: Vec<EventRow> = (2..1202).map(event).collect();
    let forked = EventRow { event: "{\"other\":true}".into(), ..event(5) };
    let refused = store.append_batch(&[(2, &many[..]), (1, &[forked][..])]).await;
    assert!(matches!(refused, Err(StoreError::Conflict { match_id: 1, seq: 5 })), "{refused:?}");
    assert_eq!(store.events(2).await.unwrap().len(), 2, "nothing of the refused statements");
    store.append_batch(&[(2, &many[..600]), (1, &[event(6)][..]), (2, &many[600..])]).await.unwrap();
    assert_eq!(store.events(2).await.unwrap(), (0..1202).map(event).collect::<Vec<_>>());
    assert_eq!(store.events(1).await.unwrap().len(), 7);
    assert!(store.append(99, &[event(0)]).await.is_err(), "no events for a match that does not exist");

    assert_eq!(store.matches(true).await.unwrap().len(), 2);
    store.finish(1, "{\"winner\":1}", 42).await.unwrap();
    let open = store.matches(true).await.unwrap();
    assert_eq!(open.iter().map(|m| m.created.id).collect::<Vec<_>>(), vec![2], "only undecided ones");
    let one = store.find_match(1).await.unwrap().expect("match 1");
    assert_eq!(one.created, new_match(1));
    assert_eq!((one.finished_ms, one.result.as_deref()), (Some(42), Some("{\"winner\":1}")));
    assert_eq!(one.ending, Some(Ending::Decided));
    // A match that ends without a result (annulled, expired) is not restored either.
    store.add_match(&new_match(3)).await.unwrap();
    store.end_match(3, Ending::Expired, 50).await.unwrap();
    let three = store.find_match(3).await.unwrap().expect("match 3");
    assert_eq!((three.finished_ms, three.result, three.ending), (Some(50), None, Some(Ending::Expired)));
    let open = store.matches(true).await.unwrap();
    assert_eq!(open.iter().map(|m| m.created.id).collect::<Vec<_>>(), vec![2], "ended ones are not open");
    assert_eq!(store.find_match(2).await.unwrap().expect("match 2").ending, None);
    assert!(store.find_match(4).await.unwrap().is_none());
    assert_eq!(store.max_ids().await.unwrap(), (3, 7));
    assert!(
        store.append(1, &[EventRow { seq: u64::MAX, ..event(5) }]).await.is_err(),
        "out of range refused"
    );
    // Tournaments are saved whole and replaced.
    store.save_tournament(2, "{\"round\":1}").await.unwrap();
    store.save_tournament(1, "{}").await.unwrap();
    store.save_tournament(2, "{\"round\":2}").await.unwrap();
    assert_eq!(
        store.tournaments().await.unwrap(),
        vec![(1, "{}".to_owned()), (2, "{\"round\":2}".to_owned())]
    );
}

#[tokio::test]
async fn a4_sqlite_store_keeps_players_matches_and_logs_and_survives_reopening() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("db").join("shvedka.db");
    suite(Arc::new(SqliteStore::open(&path).await.unwrap())).await;
    // Reopened (migrations already applied), everything is there.
    let again = SqliteStore::open(&path).await.unwrap();
    assert_eq!(again.events(1).await.unwrap().len(), 7);
    assert_eq!(again.max_ids().await.unwrap(), (3, 7));
    assert_eq!(again.kind(), "sqlite");
}

#[tokio::test]
async fn a4_postgres_store_keeps_players_matches_and_logs_and_survives_reconnecting() {
    let pg = TempPostgres::start();
    let store = PgStore::connect(&pg.url).await.unwrap();
    assert_eq!(store.kind(), "postgres");
    // A database shared with earlier runs (SHVEDKA_TEST_DATABASE_URL) starts from a clean schema.
    reset(&pg.url).await;
    let store = PgStore::connect(&pg.url).await.unwrap();
    suite(Arc::new(store)).await;
    let again = PgStore::connect(&pg.url).await.unwrap();
    assert_eq!(again.events(1).await.unwrap().len(), 7);
}

async fn reset(url: &str) {
    use sqlx::Connection;
    let mut c = sqlx::PgConnection::connect(url).await.unwrap();
    sqlx::raw_sql("DROP TABLE IF EXISTS events, matches, players, tournaments, shvedka_migrations CASCADE")
        .execute(&mut c)
        .await
        .unwrap();
}
