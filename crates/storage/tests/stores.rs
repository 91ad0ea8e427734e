//! One suite, run against both stores: SQLite in a temporary file and a throwaway PostgreSQL.

use std::sync::Arc;

use shvedka_storage::{EventRow, NewMatch, PgStore, PlayerRow, SqliteStore, Store};
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
    let alice = PlayerRow { id: 7, name: "alice".into(), token_hash: "ab".repeat(32), created_ms: 5 };
    store.add_player(&alice).await.unwrap();
    assert!(store.add_player(&alice).await.is_err(), "a player id is unique");
    assert_eq!(store.players().await.unwrap(), vec![alice.clone()]);

    store.add_match(&new_match(1)).await.unwrap();
    store.add_match(&new_match(2)).await.unwrap();
    assert!(store.add_match(&new_match(2)).await.is_err(), "a match id is unique");
    store.append(1, &[event(0), event(1), event(2)]).await.unwrap();
    store.append(1, &[event(3)]).await.unwrap();
    store.append(1, &[]).await.unwrap();
    // A4: the log is append-only and whole: a batch with a seq already stored is refused as a
    // whole, and nothing of it is written.
    assert!(store.append(1, &[event(4), event(3)]).await.is_err());
    let log = store.events(1).await.unwrap();
    assert_eq!(log, (0..4).map(event).collect::<Vec<_>>(), "in order, nothing of the refused batch");
    assert!(store.append(99, &[event(0)]).await.is_err(), "no events for a match that does not exist");

    assert_eq!(store.matches(true).await.unwrap().len(), 2);
    store.finish(1, "{\"winner\":1}", 42).await.unwrap();
    let open = store.matches(true).await.unwrap();
    assert_eq!(open.iter().map(|m| m.created.id).collect::<Vec<_>>(), vec![2], "only undecided ones");
    let one = store.find_match(1).await.unwrap().expect("match 1");
    assert_eq!(one.created, new_match(1));
    assert_eq!((one.finished_ms, one.result.as_deref()), (Some(42), Some("{\"winner\":1}")));
    assert!(store.find_match(3).await.unwrap().is_none());
    assert_eq!(store.max_ids().await.unwrap(), (2, 7));
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
    assert_eq!(again.events(1).await.unwrap().len(), 4);
    assert_eq!(again.max_ids().await.unwrap(), (2, 7));
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
    assert_eq!(again.events(1).await.unwrap().len(), 4);
}

async fn reset(url: &str) {
    use sqlx::Connection;
    let mut c = sqlx::PgConnection::connect(url).await.unwrap();
    sqlx::raw_sql("DROP TABLE IF EXISTS events, matches, players, tournaments, shvedka_migrations CASCADE")
        .execute(&mut c)
        .await
        .unwrap();
}
