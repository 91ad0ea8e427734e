//! One writer per PostgreSQL database (`writer.rs`), on a throwaway PostgreSQL: store handles
//! play the servers (standalone ones and cluster nodes), and a raw connection plays an operator
//! who ends a backend or another writer that takes the lock.

use std::time::Duration;

use shvedka_storage::{NewMatch, PgStore, Store, StoreError, WRITER_LOCK, Writing};
use sqlx::{Connection, Row};
use testkit::postgres::TempPostgres;

const LEASE: Duration = Duration::from_secs(60);

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

fn refusal(opened: Result<PgStore, StoreError>) -> String {
    match opened {
        Err(StoreError::InUse(message)) => message,
        Err(e) => panic!("refused for another reason: {e}"),
        Ok(_) => panic!("not refused"),
    }
}

/// A connection of the test's own, named `name`.
async fn raw(url: &str, name: &str) -> sqlx::PgConnection {
    let options: sqlx::postgres::PgConnectOptions = url.parse().unwrap();
    sqlx::ConnectOptions::connect(&options.application_name(name)).await.unwrap()
}

/// The backend and `application_name` of the connection holding the writer lock for a store
/// whose name starts so.
async fn lock_backend(admin: &mut sqlx::PgConnection, starting: &str) -> (i32, String) {
    let row = sqlx::query(
        "SELECT a.pid, a.application_name FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid \
         WHERE l.locktype = 'advisory' AND l.granted AND l.objid::bigint = $1 AND a.application_name LIKE $2",
    )
    .bind(WRITER_LOCK & 0xffff_ffff)
    .bind(format!("{starting}%"))
    .fetch_one(admin)
    .await
    .unwrap();
    (row.get(0), row.get(1))
}

/// Asks for the writer lock exclusively on `conn`, waiting for it; returns once the request is
/// queued in the database (the lock is granted when its holder goes).
async fn queue_for_the_lock(
    url: &str,
    mut conn: sqlx::PgConnection,
) -> tokio::task::JoinHandle<sqlx::PgConnection> {
    let pid: i32 = sqlx::query("SELECT pg_backend_pid()").fetch_one(&mut conn).await.unwrap().get(0);
    let waiting = tokio::spawn(async move {
        sqlx::query("SELECT pg_advisory_lock($1)").bind(WRITER_LOCK).execute(&mut conn).await.unwrap();
        conn
    });
    let mut look = raw(url, "look").await;
    loop {
        let queued: bool = sqlx::query(
            "SELECT EXISTS (SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND pid = $1 AND NOT granted)",
        )
        .bind(pid)
        .fetch_one(&mut look)
        .await
        .unwrap()
        .get(0);
        if queued {
            return waiting;
        }
        tokio::task::yield_now().await;
    }
}

async fn terminate(admin: &mut sqlx::PgConnection, pid: i32) {
    let ended: bool = sqlx::query("SELECT pg_terminate_backend($1, 10000)")
        .bind(pid)
        .fetch_one(admin)
        .await
        .unwrap()
        .get(0);
    assert!(ended, "the backend ended");
}

#[tokio::test]
async fn a_second_standalone_server_on_one_postgresql_database_is_refused_naming_the_first() {
    let pg = TempPostgres::start();
    let first = PgStore::connect(&pg.url).await.unwrap();
    first.add_match(&new_match(1)).await.unwrap();
    let message = refusal(PgStore::connect(&pg.url).await);
    assert!(message.contains("in use by another standalone shvedka server"), "{message}");
    let name = format!("«shvedka standalone on {} pid {}", host(), std::process::id());
    assert!(message.contains(&name), "names the first: {message}");
    assert!(message.contains("connected from a local socket since"), "{message}");
    assert!(message.contains("stop that one, or give this one another database_url"), "{message}");
    first.add_match(&new_match(2)).await.expect("the first writes on");
}

#[tokio::test]
async fn a_standalone_server_is_refused_on_a_postgresql_database_where_cluster_nodes_run() {
    let pg = TempPostgres::start();
    let _a = PgStore::connect_node(&pg.url, "a", LEASE).await.unwrap();
    let _b = PgStore::connect_node(&pg.url, "b", LEASE).await.unwrap();
    let message = refusal(PgStore::connect(&pg.url).await);
    assert!(message.contains("is a cluster's: 2 node(s) run on it"), "{message}");
    assert!(message.contains("«shvedka node a on ") && message.contains("«shvedka node b on "), "{message}");
    assert!(message.contains("make this one a node of the cluster"), "{message}");
}

#[tokio::test]
async fn a_cluster_node_is_refused_while_a_standalone_server_runs() {
    let pg = TempPostgres::start();
    let _alone = PgStore::connect(&pg.url).await.unwrap();
    let message = refusal(PgStore::connect_node(&pg.url, "a", LEASE).await);
    assert!(message.contains("in use by a standalone shvedka server"), "{message}");
    assert!(message.contains("«shvedka standalone on "), "{message}");
    assert!(message.contains("stop that server"), "{message}");
}

#[tokio::test]
async fn two_cluster_nodes_share_one_postgresql_database_and_a_tool_runs_beside_any_server() {
    let pg = TempPostgres::start();
    let a = PgStore::connect_node(&pg.url, "a", LEASE).await.unwrap();
    let b = PgStore::connect_node(&pg.url, "b", LEASE).await.unwrap();
    a.add_match(&new_match(1)).await.unwrap();
    b.add_match(&new_match(2)).await.unwrap();
    let tool = PgStore::connect_tool(&pg.url).await.unwrap();
    assert_eq!(tool.matches(false).await.unwrap().len(), 2, "a tool reads beside the nodes");
    drop((a, b));
    let _alone = PgStore::connect(&pg.url).await.expect("the nodes went: a standalone server may start");
    let check = PgStore::connect_tool(&pg.url).await.unwrap();
    check.add_match(&new_match(3)).await.expect("a tool writes beside a standalone server too");
}

#[tokio::test]
async fn a_new_standalone_server_starts_once_the_first_one_stopped() {
    let pg = TempPostgres::start();
    let first = PgStore::connect(&pg.url).await.unwrap();
    first.add_match(&new_match(1)).await.unwrap();
    first.close().await;
    assert!(
        matches!(first.add_match(&new_match(9)).await, Err(StoreError::NotWriter(_))),
        "a closed store writes nothing"
    );
    let second = PgStore::connect(&pg.url).await.expect("the lock was released at the close");
    second.add_match(&new_match(2)).await.unwrap();
    // Dropped without a close (a server ending abruptly): released as its task ends.
    drop(second);
    let third = PgStore::connect(&pg.url).await.expect("released when the holder went");
    assert_eq!(third.matches(false).await.unwrap().len(), 2);
}

#[tokio::test]
async fn a_server_whose_lock_connection_was_lost_writes_nothing_until_it_holds_the_lock_again() {
    let pg = TempPostgres::start();
    let store = PgStore::connect(&pg.url).await.unwrap();
    let mut state = store.writer_lock().expect("a writer's store has a lock");
    store.add_match(&new_match(1)).await.unwrap();
    let mut admin = raw(&pg.url, "admin").await;
    let (pid, name) = lock_backend(&mut admin, "shvedka standalone").await;
    // Another connection of the same name (as the server's own lost connection, not yet ended,
    // looks) takes the lock as soon as the backend ends: the server cannot take it back yet.
    let queued = queue_for_the_lock(&pg.url, raw(&pg.url, &name).await).await;
    terminate(&mut admin, pid).await;
    let mut stale = queued.await.unwrap();
    state.wait_for(|s| s.losses == 1).await.unwrap();
    assert!(matches!(state.borrow().writing, Writing::Lost(_)), "{:?}", *state.borrow());
    let refused = store.add_match(&new_match(2)).await;
    assert!(matches!(refused, Err(StoreError::NotWriter(_))), "nothing written meanwhile: {refused:?}");
    assert!(store.find_match(1).await.is_err(), "nor read from the writers' pool");
    // The stale connection goes: the server takes the lock back and writes again.
    sqlx::query("SELECT pg_advisory_unlock_all()").execute(&mut stale).await.unwrap();
    stale.close().await.unwrap();
    state.wait_for(|s| s.writing == Writing::Held).await.unwrap();
    assert_eq!(state.borrow().losses, 1);
    store.add_match(&new_match(2)).await.expect("writes again");
    let (again, _) = lock_backend(&mut admin, "shvedka standalone").await;
    assert_ne!(again, pid, "on a new connection");
}

#[tokio::test]
async fn a_server_whose_lock_another_server_took_while_it_had_lost_it_writes_nothing_more() {
    let pg = TempPostgres::start();
    let store = PgStore::connect(&pg.url).await.unwrap();
    let mut state = store.writer_lock().unwrap();
    let mut admin = raw(&pg.url, "admin").await;
    let (pid, _) = lock_backend(&mut admin, "shvedka standalone").await;
    let queued =
        queue_for_the_lock(&pg.url, raw(&pg.url, "shvedka standalone on elsewhere pid 7").await).await;
    terminate(&mut admin, pid).await;
    let _intruder = queued.await.unwrap();
    state.wait_for(|s| matches!(s.writing, Writing::TakenBy(_))).await.unwrap();
    let Writing::TakenBy(who) = state.borrow().writing.clone() else { unreachable!() };
    assert!(who.contains("«shvedka standalone on elsewhere pid 7»"), "names the other: {who}");
    let refused = store.add_match(&new_match(1)).await;
    match refused {
        Err(StoreError::NotWriter(why)) => assert!(why.contains("another server took it"), "{why}"),
        other => panic!("must not write: {other:?}"),
    }
}

fn host() -> String {
    std::fs::read_to_string("/proc/sys/kernel/hostname").unwrap().trim().to_owned()
}

#[tokio::test]
async fn a_tool_migrates_a_new_database_but_not_a_schema_behind_its_build_under_a_running_server() {
    let pg = TempPostgres::start();
    let tool = PgStore::connect_tool(&pg.url).await.expect("nobody runs: the tool migrates");
    tool.add_match(&new_match(1)).await.unwrap();
    let _server = PgStore::connect(&pg.url).await.expect("a server beside the tool");
    let mut admin = raw(&pg.url, "admin").await;
    // As if this build had a script the running server's had not.
    sqlx::query(
        "DELETE FROM shvedka_migrations WHERE version = (SELECT MAX(version) FROM shvedka_migrations)",
    )
    .execute(&mut admin)
    .await
    .unwrap();
    let message = refusal(PgStore::connect_tool(&pg.url).await);
    assert!(
        message.contains("the database's schema is older than this build's, and a shvedka server runs on it"),
        "{message}"
    );
    assert!(message.contains("«shvedka standalone on "), "{message}");
}
