//! One writer per PostgreSQL database (issue 61), as an operator meets it: `shvedka serve`
//! processes on one throwaway PostgreSQL, each with a data directory of its own. A second
//! standalone server is refused at start naming the first, and starts once the first stopped;
//! a cluster node is refused beside a standalone server; a server whose writer lock another
//! writer took while its connection was lost stops, naming it.

use std::path::Path;
use std::process::{Command, Stdio};

use shvedka_tests::process::{self, Served};
use sqlx::{Connection, Row};
use testkit::postgres::TempPostgres;

/// The advisory lock every server holds (`shvedka_storage::WRITER_LOCK`).
const WRITER_LOCK: i64 = 0x7368_7665_646b_6100;

/// The configuration of a server in `dir` on `database_url`, with `extra` settings after.
fn config(dir: &Path, database_url: &str, extra: &str) -> std::path::PathBuf {
    let path = dir.join("server.toml");
    std::fs::write(
        &path,
        format!(
            "listen = \"127.0.0.1:0\"\nhttp_listen = \"\"\nwebtransport_listen = \"\"\ndata_dir = {:?}\n\
             database_url = {database_url:?}\n{extra}",
            dir.join("data")
        ),
    )
    .unwrap();
    path
}

fn serve(dir: &Path, database_url: &str) -> Served {
    process::serve(env!("CARGO_BIN_EXE_shvedka"), &config(dir, database_url, ""), &dir.join("stderr.log"))
}

/// Runs a server that must be refused: its exit code and standard error.
fn refused(dir: &Path, database_url: &str, extra: &str) -> (Option<i32>, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_shvedka"))
        .args(["serve", "--config"])
        .arg(config(dir, database_url, extra))
        .env("RUST_LOG", "warn")
        .stdin(Stdio::null())
        .output()
        .expect("shvedka serve runs");
    (out.status.code(), String::from_utf8_lossy(&out.stderr).into_owned())
}

fn interrupt_and_wait(mut served: Served) -> std::process::ExitStatus {
    let pid = served.child.id().to_string();
    assert!(Command::new("kill").args(["-INT", &pid]).status().unwrap().success());
    served.child.wait().unwrap()
}

#[test]
fn a_second_standalone_server_on_one_postgresql_database_is_refused_naming_the_first() {
    let pg = TempPostgres::start();
    let (one, two) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let first = serve(one.path(), &pg.url);
    let (code, err) = refused(two.path(), &pg.url, "");
    assert_eq!(code, Some(2), "{err}");
    let named = format!(
        "is in use by another standalone shvedka server: «shvedka standalone on {} pid {}»",
        std::fs::read_to_string("/proc/sys/kernel/hostname").unwrap().trim(),
        first.child.id()
    );
    assert!(err.contains(&named), "names the first: {err}");
    assert!(err.contains("stop that one, or give this one another database_url"), "{err}");
    assert!(interrupt_and_wait(first).success());
    // Once the first stopped, the database is free again.
    let second = serve(two.path(), &pg.url);
    assert!(interrupt_and_wait(second).success());
}

#[test]
fn a_cluster_node_is_refused_while_a_standalone_server_runs_on_its_database() {
    let pg = TempPostgres::start();
    let (one, two) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let alone = serve(one.path(), &pg.url);
    // NATS is never reached: the node is refused before it would connect.
    let node = "[cluster]\nnode = \"n1\"\nnats_url = \"nats://127.0.0.1:9\"\ninsecure_nats = true\n";
    let (code, err) = refused(two.path(), &pg.url, node);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("is in use by a standalone shvedka server (one without [cluster])"), "{err}");
    assert!(err.contains(&format!("pid {}»", alone.child.id())), "{err}");
    assert!(interrupt_and_wait(alone).success());
}

#[tokio::test]
async fn a_server_whose_writer_lock_another_server_took_while_it_had_lost_it_stops_naming_it() {
    let pg = TempPostgres::start();
    let dir = tempfile::tempdir().unwrap();
    let mut served = serve(dir.path(), &pg.url);
    let mut admin = sqlx::PgConnection::connect(&pg.url).await.unwrap();
    let server: i32 = sqlx::query(
        "SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND granted AND objid::bigint = $1",
    )
    .bind(WRITER_LOCK & 0xffff_ffff)
    .fetch_one(&mut admin)
    .await
    .unwrap()
    .get(0);
    // Another writer asks for the lock, and gets it the moment the server's connection ends.
    let options: sqlx::postgres::PgConnectOptions = pg.url.parse().unwrap();
    let mut intruder =
        sqlx::ConnectOptions::connect(&options.application_name("shvedka standalone on other pid 1"))
            .await
            .unwrap();
    let intruder_pid: i32 =
        sqlx::query("SELECT pg_backend_pid()").fetch_one(&mut intruder).await.unwrap().get(0);
    let granted = tokio::spawn(async move {
        sqlx::query("SELECT pg_advisory_lock($1)").bind(WRITER_LOCK).execute(&mut intruder).await.unwrap();
        intruder
    });
    loop {
        let waiting: bool =
            sqlx::query("SELECT EXISTS (SELECT 1 FROM pg_locks WHERE pid = $1 AND NOT granted)")
                .bind(intruder_pid)
                .fetch_one(&mut admin)
                .await
                .unwrap()
                .get(0);
        if waiting {
            break;
        }
        tokio::task::yield_now().await;
    }
    sqlx::query("SELECT pg_terminate_backend($1, 10000)").bind(server).execute(&mut admin).await.unwrap();
    let _intruder = granted.await.unwrap();
    let status = tokio::task::spawn_blocking(move || served.child.wait().unwrap()).await.unwrap();
    assert_eq!(status.code(), Some(2), "the server stopped with an error");
    let err = std::fs::read_to_string(dir.path().join("stderr.log")).unwrap();
    assert!(
        err.contains(
            "another shvedka server took this database's writer lock while this one had lost its connection"
        ),
        "{err}"
    );
    assert!(err.contains("«shvedka standalone on other pid 1»"), "names the other: {err}");
}
