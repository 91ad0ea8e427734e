//! A full disk for real (issue 58): the server's data directory on a small file system (a tmpfs
//! of a few MiB) that the test fills. A move the database could not store is not acknowledged,
//! every other request to the match is refused `StorageFull` (the players are told why), the log
//! and `/metrics` say so, and once the test frees the space the waiting move is stored and
//! acknowledged and play goes on; afterwards every acknowledged move is in the database.
//!
//! Mounting a file system needs a mount namespace of the test's own: the test runs itself again
//! (this very test binary, this one test) under `unshare --user --map-root-user --mount`, which
//! mounts the tmpfs on a temporary directory and then runs the inner half, [`INNER`] set. Nothing
//! is mounted outside that namespace, and it ends with the inner process. A machine without user
//! namespaces fails the test, naming what is missing.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Duration;

use shvedka_proto::{Board, ErrorCode};
use shvedka_tests::TestServer;

/// Set in the environment of the inner half: the tmpfs's mount point.
const INNER: &str = "SHVEDKA_DISK_FULL_MOUNT";
/// The file system's size: the database (~200 KiB) and its log, with room for a few matches.
const SIZE: &str = "6m";
const PATIENCE: Duration = Duration::from_secs(30);
const NAME: &str = "disk_full::a_full_disk_refuses_moves_as_such_loses_nothing_acknowledged_and_play_resumes_when_space_is_freed";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_full_disk_refuses_moves_as_such_loses_nothing_acknowledged_and_play_resumes_when_space_is_freed() {
    match std::env::var_os(INNER) {
        Some(mount) => inner(Path::new(&mount)).await,
        None => outer(),
    }
}

/// Runs the inner half in a mount namespace of its own, on a tmpfs of [`SIZE`].
fn outer() {
    let mount = tempfile::tempdir().expect("a mount point");
    let exe = std::env::current_exe().expect("this test binary");
    let script = format!("mount -t tmpfs -o size={SIZE},mode=0700 shvedka-test \"$0\" && exec \"$@\"");
    let out = std::process::Command::new("unshare")
        .args(["--user", "--map-root-user", "--mount", "--propagation", "private", "sh", "-c", &script])
        .arg(mount.path())
        .arg(&exe)
        .args([NAME, "--exact", "--nocapture", "--test-threads", "1"])
        .env(INNER, mount.path())
        .output()
        .unwrap_or_else(|e| {
            panic!("cannot run unshare (util-linux) for a file system of the test's own: {e}")
        });
    let said = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(
        out.status.success() && said.contains("1 passed"),
        "the inner half, in a mount namespace with a {SIZE} tmpfs, failed ({}); a machine without user \
         namespaces cannot run this test:\n{said}",
        out.status
    );
}

async fn inner(mount: &Path) {
    let dir = tempfile::tempdir_in(mount).expect("a directory on the small file system");
    let server = TestServer::start_in_dir(dir, "").await;
    let (match_id, clients) = server.seated_match("mgimo-2017", "blitz").await;
    let [wa, ba, wb, _bb] = <[_; 4]>::try_from(clients).ok().expect("four players");
    wa.play(Board::A, "e4", None).await.expect("stored and acknowledged");

    // The disk fills up (another program's file, say), the write-ahead log emptied just before:
    // SQLite reuses a log's space once a checkpoint has copied it all, so the next commit must
    // find the log empty to need room the disk no longer has.
    empty_log(&server.data_dir().join("shvedka.db")).await;
    let filler = fill(&server.data_dir());
    // Black-A's move cannot be stored: it waits, unacknowledged, while the match is paused.
    let waiting = tokio::spawn(async move {
        let played = ba.play(Board::A, "e5", None).await;
        (ba, played)
    });
    server.until_metric("shvedka_storage_full 1").await;
    assert!(!waiting.is_finished(), "a move that is not stored is not acknowledged");
    // Every other request to the match is refused, saying why.
    let refused = wb.play(Board::B, "d4", None).await.expect_err("refused while the disk is full");
    match refused {
        shvedka_client::ClientError::Server(e) => assert_eq!(e.code, ErrorCode::StorageFull, "{e:?}"),
        other => panic!("refused otherwise: {other:?}"),
    }

    // Space returns: the waiting move is stored and acknowledged, and play goes on.
    std::fs::remove_file(&filler).expect("the filler removed");
    let (_ba, played) = tokio::time::timeout(PATIENCE, waiting).await.expect("in time").expect("the task");
    played.expect("stored and acknowledged once there is space");
    server.until_metric("shvedka_storage_full 0").await;
    wb.play(Board::B, "d4", None).await.expect("play goes on");

    // Every acknowledged move is in the database: a restarted server's record has them, and the
    // pause the full disk made.
    let server = server.restart().await;
    let reader = server.client("reader").await;
    let record = reader.request(shvedka_proto::ClientMsg::Record { match_id }).await.expect("the record");
    let shvedka_proto::Reply::Record { bpgn } = record else { panic!("not a record: {record:?}") };
    for text in ["e4", "e5", "d4"] {
        assert!(bpgn.contains(text), "{text} not in the record:\n{bpgn}");
    }
    server.stop().await;
}

/// Checkpoints the database's write-ahead log and truncates it to nothing (retried while a
/// reader holds it, a bounded number of times).
async fn empty_log(db: &Path) {
    use sqlx::Connection;
    let mut conn =
        sqlx::SqliteConnection::connect(&format!("sqlite://{}", db.display())).await.expect("the database");
    for _ in 0..200 {
        let (busy, _, _): (i64, i64, i64) = sqlx::query_as("PRAGMA wal_checkpoint(TRUNCATE)")
            .fetch_one(&mut conn)
            .await
            .expect("a checkpoint");
        if busy == 0 {
            return;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!("the write-ahead log could not be emptied: a reader held it throughout");
}

/// Writes a file in `dir` until the file system is full; its path.
fn fill(dir: &Path) -> PathBuf {
    let path = dir.join("filler");
    let mut file = std::fs::File::create(&path).expect("a filler file");
    let block = vec![0xa5u8; 64 * 1024];
    loop {
        match file.write(&block) {
            Ok(0) => break,
            Ok(_) => {}
            Err(e) if e.raw_os_error() == Some(28) => break, // ENOSPC
            Err(e) => panic!("filling the disk: {e}"),
        }
    }
    // The last bytes: a smaller write may still fit.
    while file.write(&[0u8; 512]).is_ok_and(|n| n > 0) {}
    path
}
