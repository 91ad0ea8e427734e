//! `shvedka demo` and `shvedka bot` as processes.

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use shvedka_tests::TestServer;

fn shvedka() -> Command {
    Command::new(env!("CARGO_BIN_EXE_shvedka"))
}

#[test]
fn a4_demo_prints_moves_the_result_and_where_the_record_is_when_not_on_a_terminal() {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("server.toml");
    std::fs::write(&config, format!("data_dir = {:?}\n", dir.path().join("data"))).unwrap();
    let out = shvedka()
        .args(["demo", "--time-control", "20s+0", "--level", "1", "--pace-ms", "0", "--config"])
        .arg(&config)
        .stdin(Stdio::null())
        .output()
        .expect("the demo runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}\n{}", String::from_utf8_lossy(&out.stderr));
    let moves: Vec<&str> = stdout.lines().filter(|l| l.contains("  board ")).collect();
    assert!(moves.len() > 4, "each move is a line: {stdout}");
    assert!(moves[0].contains("board A  1.") || moves[0].contains("board B  1."), "{}", moves[0]);
    let result = stdout.lines().find(|l| l.starts_with("result: ")).expect("a result line");
    assert!(result.contains("(E"), "the result names its rule: {result}");
    let path = stdout.lines().find_map(|l| l.strip_prefix("record: ")).expect("the record's path");
    let text = std::fs::read_to_string(path).expect("the record was written");
    let records = shvedka_records::parse_bpgn(&text).expect("the record is BPGN");
    assert_eq!(records[0].moves.len(), moves.len(), "every printed move is in the record");
    let rules = records[0].rules().unwrap();
    records[0].replay(rules).expect("the record replays");
    assert!(records[0].result.is_some(), "with its result");
}

#[test]
fn chess960_demo_plays_from_a_chess960_start_and_records_it() {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("server.toml");
    std::fs::write(&config, format!("data_dir = {:?}\n", dir.path().join("data"))).unwrap();
    let out = shvedka()
        .args(["demo", "--chess960", "--time-control", "5s+0", "--level", "1", "--pace-ms", "0", "--config"])
        .arg(&config)
        .stdin(Stdio::null())
        .output()
        .expect("the demo runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}\n{}", String::from_utf8_lossy(&out.stderr));
    assert!(stdout.lines().next().is_some_and(|l| l.contains("mgimo-2017 chess960")), "{stdout}");
    let path = stdout.lines().find_map(|l| l.strip_prefix("record: ")).expect("the record's path");
    let text = std::fs::read_to_string(path).expect("the record was written");
    let record = shvedka_records::parse_bpgn(&text).expect("the record is BPGN").remove(0);
    assert_eq!(record.tag("SetUp"), Some("1"), "{text}");
    let fen = record.tag("FEN").expect("the Chess960 start in a FEN tag");
    assert_eq!(fen.split(' ').nth(2).map(str::len), Some(4), "all four rights, Shredder letters: {fen}");
    record.replay(record.rules().unwrap()).expect("the record replays from its start");
}

#[test]
fn s1_bots_as_processes_one_creates_three_join_all_four_finish() {
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let server = runtime.block_on(TestServer::start(""));
    let addr = server.addr.to_string();
    let pin: String = server.pin.iter().map(|b| format!("{b:02x}")).collect();
    let common = ["--server", addr.as_str(), "--fingerprint", pin.as_str(), "--level", "1", "--pace-ms", "0"];
    let mut creator = shvedka()
        .arg("bot")
        .args(common)
        .args(["--time-control", "20s+0", "--name", "first"])
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(creator.stdout.take().unwrap()).lines();
    let created = lines.next().unwrap().unwrap();
    let id = created
        .strip_prefix("created match ")
        .and_then(|r| r.split_whitespace().next())
        .unwrap_or_else(|| panic!("the creator says its match: {created}"))
        .to_owned();
    let mut joiners: Vec<_> = (0..3)
        .map(|i| {
            shvedka()
                .arg("bot")
                .args(common)
                .args(["--match", &id, "--name", &format!("joiner{i}")])
                .stdout(Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    // Bounded: the match's clocks are 20 s; every process must be done well within two minutes.
    let deadline = Instant::now() + Duration::from_secs(120);
    joiners.push(creator);
    for p in &mut joiners {
        loop {
            if let Some(status) = p.try_wait().unwrap() {
                assert!(status.success(), "{status:?}");
                break;
            }
            if Instant::now() > deadline {
                joiners.iter_mut().for_each(|p| drop(p.kill()));
                panic!("the bots did not finish within two minutes");
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }
    let rest: Vec<String> = lines.map_while(Result::ok).collect();
    assert!(rest.iter().any(|l| l.starts_with(&format!("match {id} over after"))), "{rest:?}");
    // A seat in a match that is over is refused with a clear error.
    let out = shvedka().arg("bot").args(common).args(["--match", &id, "--seat", "white-A"]).output().unwrap();
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("cannot take the seat"), "{stderr}");
    runtime.block_on(server.stop());
}

#[test]
fn a_client_without_the_fingerprint_is_told_where_to_find_it() {
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let server = runtime.block_on(TestServer::start(""));
    let addr = server.addr.to_string();
    let out = shvedka().args(["bot", "--server", addr.as_str(), "--name", "lost"]).output().unwrap();
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("pass it as --fingerprint") && stderr.contains("certificate sha256"), "{stderr}");
    runtime.block_on(server.stop());
}

#[test]
fn a4_the_demo_without_a_config_keeps_its_files_in_a_per_user_directory_not_where_it_runs() {
    let here = tempfile::tempdir().unwrap();
    let home = tempfile::tempdir().unwrap();
    let out = shvedka()
        .args(["demo", "--time-control", "5s+0", "--level", "1", "--pace-ms", "0"])
        .current_dir(here.path())
        .env("XDG_DATA_HOME", home.path())
        .stdin(Stdio::null())
        .output()
        .expect("the demo runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}\n{}", String::from_utf8_lossy(&out.stderr));
    let path = stdout.lines().find_map(|l| l.strip_prefix("record: ")).expect("the record's path");
    assert!(std::path::Path::new(path).starts_with(home.path().join("shvedka/demo")), "{path}");
    assert!(
        std::fs::read_to_string(path).is_ok_and(|t| t.contains("[Result")),
        "the record is there: {path}"
    );
    let left: Vec<_> = std::fs::read_dir(here.path()).unwrap().collect();
    assert!(left.is_empty(), "nothing written where the demo ran: {left:?}");
}
