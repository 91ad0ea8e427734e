//! `shvedka admin backup FILE` (issue 58, backups while serving): taken while a match is played,
//! it holds every move acknowledged before it and every account; restored into a data directory
//! of its own (the file as `shvedka.db`), a server serves the account and restores the match in
//! play from the backup's last acknowledged move. A backup never overwrites a file and is the
//! owner's alone.

use std::path::Path;
use std::process::Command;

use shvedka_client::{Client, Trust, Update};
use shvedka_proto::{Board, SeatId, ServerMsg};
use shvedka_tests::next;
use shvedka_tests::process::Served;

/// `shvedka serve` on SQLite in `dir/data` (the restart tests' server).
fn serve(dir: &Path) -> Served {
    crate::restart::serve(dir, "127.0.0.1:0", "")
}

/// `shvedka admin --data-dir data backup file`, run to its end.
pub(crate) fn backup(data: &Path, file: &Path) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_shvedka"))
        .args(["admin", "--data-dir", data.to_str().unwrap(), "backup", file.to_str().unwrap()])
        .env_remove("SHVEDKA_DATABASE_URL")
        .output()
        .expect("shvedka runs")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a4_a_backup_taken_during_play_restores_every_acknowledged_move_and_account() {
    let dir = tempfile::tempdir().unwrap();
    let Served { child: mut server, addr, pin, .. } = serve(dir.path());
    let trust = || Trust::Fingerprint(pin);
    let mut alice = Client::connect(addr, trust(), "").await.unwrap();
    alice.register("alice", "alice-password-1", false).await.expect("an account");
    let mut c = Vec::new();
    for seat in SeatId::ALL {
        c.push(Client::connect(addr, trust(), seat.name()).await.unwrap());
    }
    let id = c[0].create_match("mgimo-2017", "blitz", true).await.unwrap();
    for (client, seat) in c.iter().zip(SeatId::ALL) {
        client.take_seat(id, seat).await.unwrap();
        client.ready(true).await.unwrap();
    }
    for (who, board, text) in [(0, Board::A, "e4"), (1, Board::A, "e5"), (2, Board::B, "d4")] {
        c[who].play(board, text, None).await.expect("acknowledged");
    }

    // While the server runs and the match is in play.
    let file = dir.path().join("night.db");
    let out = backup(&dir.path().join("data"), &file);
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{}{said}", String::from_utf8_lossy(&out.stderr));
    assert!(said.starts_with(&format!("backed up to {}: ", file.display())), "{said}");
    assert!(said.contains(" 1 matches, 1 accounts"), "{said}");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&file).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600, "the backup holds the password hashes: the owner's alone");
    }
    let again = backup(&dir.path().join("data"), &file);
    assert_eq!(again.status.code(), Some(2), "never over a file");
    assert!(String::from_utf8_lossy(&again.stderr).contains("a backup never overwrites a file"));
    let missing = backup(&dir.path().join("no-such-dir"), &dir.path().join("x.db"));
    assert_eq!(missing.status.code(), Some(2), "no database there");
    // A move after the backup is not in it.
    c[3].play(Board::B, "d5", None).await.expect("acknowledged after the backup");
    server.kill().unwrap();
    server.wait().unwrap();
    alice.close().await;

    // Restored: the file as shvedka.db in a data directory of its own.
    let restored = tempfile::tempdir().unwrap();
    std::fs::create_dir(restored.path().join("data")).unwrap();
    std::fs::copy(&file, restored.path().join("data/shvedka.db")).unwrap();
    let Served { child: mut server, addr, pin, .. } = serve(restored.path());
    let trust = || Trust::Fingerprint(pin);
    Client::connect_as(addr, trust(), "alice", "alice-password-1").await.expect("the account, restored");
    let mut watcher = Client::connect(addr, trust(), "watcher").await.unwrap();
    watcher.watch(id).await.expect("the match in play, restored");
    let state = loop {
        if let Update::Server(ServerMsg::State(s)) = next(&mut watcher).await {
            break s;
        }
    };
    let sans: Vec<&str> = state.moves.iter().map(|m| m.san.as_str()).collect();
    assert_eq!(sans, ["e4", "e5", "d4"], "every move acknowledged before the backup, none after");
    server.kill().unwrap();
    server.wait().unwrap();
}
