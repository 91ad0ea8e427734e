//! `shvedka load` against a real server on loopback: it sets up its matches, plays random legal
//! moves at its pace, stops by itself, and reports what was offered and served with latency; it
//! leaves nothing live (issue 61: 300 matches and 1,200 sessions were held 14 minutes after a
//! run), targets a server it did not start only when told so, and ends with a verdict.

use std::process::Command;
use std::time::Duration;

use shvedka_tests::TestServer;

/// The figures of load's summary line (`load: offered …`), by the word before each.
struct Summary(String);

impl Summary {
    fn field(&self, name: &str) -> f64 {
        let rest = self.0.split(name).nth(1).unwrap_or_else(|| panic!("no {name} in {}", self.0));
        rest.trim_start().split([' ', ',', ';']).next().unwrap().parse().unwrap()
    }
}

/// Runs `shvedka load` with `args` against `server` until it stops by itself.
async fn load(server: &TestServer, args: &'static [&'static str]) -> Summary {
    load_with_crowd(server, args).await.0
}

/// As [`load`], with the crowd's line (`crowd: …`) when it has spectators.
async fn load_with_crowd(server: &TestServer, args: &'static [&'static str]) -> (Summary, Option<Summary>) {
    let fingerprint: String = server.pin.iter().map(|b| format!("{b:02x}")).collect();
    let addr = server.addr.to_string();
    let out = tokio::task::spawn_blocking(move || {
        Command::new(env!("CARGO_BIN_EXE_shvedka"))
            .args(["load", "--server", &addr, "--fingerprint", &fingerprint, "--running-server"])
            // Targets no loaded machine misses: these tests are about what is played, not how fast.
            .args(["--target-p99-ms", "60000", "--target-served-percent", "50"])
            .args(args)
            .output()
            .expect("shvedka runs")
    })
    .await
    .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}{}", String::from_utf8_lossy(&out.stderr));
    let summary = text.lines().find(|l| l.starts_with("load: offered"));
    let crowd = text.lines().find(|l| l.starts_with("crowd:")).map(|l| Summary(l.to_owned()));
    assert!(text.contains("\nverdict: met — "), "{text}");
    assert!(text.contains("matches and logged out their players\n"), "{text}");
    assert!(!text.contains("could not be ended"), "{text}");
    (Summary(summary.unwrap_or_else(|| panic!("no summary in {text}")).to_owned()), crowd)
}

/// Waits (at most 10 s) until the server holds no match and no session: what a run leaves.
async fn nothing_left(server: &TestServer) {
    let left = tokio::time::timeout(Duration::from_secs(10), async {
        while server.stats.live_matches() + server.stats.sessions_in_memory() > 0 {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    })
    .await;
    assert!(
        left.is_ok(),
        "{} live matches and {} sessions left after the run",
        server.stats.live_matches(),
        server.stats.sessions_in_memory()
    );
}

/// The command's output and exit status, run with `args` (no server of the test's).
async fn shvedka(args: &[&str], tmp: &std::path::Path) -> (String, Option<i32>) {
    let (args, tmp): (Vec<String>, _) = (args.iter().map(|a| (*a).to_owned()).collect(), tmp.to_path_buf());
    let out = tokio::task::spawn_blocking(move || {
        Command::new(env!("CARGO_BIN_EXE_shvedka"))
            .args(args)
            .env("TMPDIR", tmp)
            .output()
            .expect("shvedka runs")
    })
    .await
    .unwrap();
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    (text, out.status.code())
}

/// A server it did not start is refused without --running-server, and nothing is played there.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn load_refuses_a_server_it_did_not_start_without_running_server() {
    let server = TestServer::start("").await;
    let addr = server.addr.to_string();
    let fingerprint: String = server.pin.iter().map(|b| format!("{b:02x}")).collect();
    let out = tokio::task::spawn_blocking(move || {
        Command::new(env!("CARGO_BIN_EXE_shvedka"))
            .args(["load", "--server", &addr, "--fingerprint", &fingerprint, "--matches", "2"])
            .output()
            .expect("shvedka runs")
    })
    .await
    .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("is a server this run did not start"), "{err}");
    assert!(err.contains("--running-server"), "it says how: {err}");
    assert_eq!(server.stats.live_matches(), 0, "nothing was played there");
    assert_eq!(server.stats.sessions_in_memory(), 0, "no session was opened there");
    server.stop().await;
}

/// Without --server it starts a server of its own, plays, and leaves nothing: the server held
/// nothing at the end, and its temporary directory is gone.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn load_starts_a_server_of_its_own_and_leaves_nothing_behind() {
    let tmp = tempfile::tempdir().unwrap();
    let (text, code) = shvedka(
        &[
            "load",
            "--matches",
            "2",
            "--pace-ms",
            "200",
            "--duration",
            "2",
            "--endpoints",
            "2",
            "--target-p99-ms",
            "60000",
        ],
        tmp.path(),
    )
    .await;
    assert_eq!(code, Some(0), "{text}");
    assert!(text.contains("load: started a server of its own on 127.0.0.1:"), "{text}");
    assert!(text.contains("load: ended 2 matches and logged out their players\n"), "{text}");
    assert!(text.contains("its server held 0 live matches and 0 sessions at the end; stopped"), "{text}");
    assert!(text.contains("\nverdict: met — 2 matches played; "), "{text}");
    let left: Vec<_> = std::fs::read_dir(tmp.path()).unwrap().collect();
    assert!(left.is_empty(), "its temporary data directory is deleted: {left:?}");
}

/// A run its server's settings cannot carry is not met, exits 1, and names the setting to raise.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn load_that_misses_its_targets_says_not_met_and_the_setting_to_change() {
    let tmp = tempfile::tempdir().unwrap();
    let config = tmp.path().join("small.toml");
    std::fs::write(&config, "max_connections = 6\n").unwrap();
    let config = config.to_string_lossy().into_owned();
    let (text, code) =
        shvedka(&["load", "--matches", "3", "--duration", "1", "--server-config", &config], tmp.path()).await;
    assert_eq!(code, Some(1), "{text}");
    assert!(text.contains("verdict: NOT MET — "), "{text}");
    assert!(text.contains("could not be set up: refused at max_connections"), "{text}");
    assert!(text.contains("  change: raise max_connections to at least 12 "), "{text}");
    assert!(
        text.contains("its server held 0 live matches and 0 sessions"),
        "what was set up is gone: {text}"
    );
    // An unmeetable latency target is not met either, and says what to look at.
    let (text, code) = shvedka(
        &["load", "--matches", "1", "--pace-ms", "200", "--duration", "2", "--target-p99-ms", "0"],
        tmp.path(),
    )
    .await;
    assert_eq!(code, Some(1), "{text}");
    assert!(text.contains("ms is over the target's 0 ms"), "{text}");
    assert!(text.contains("shvedka_move_seconds"), "{text}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn load_with_a_crowd_times_every_spectators_events_and_loses_none() {
    let server = TestServer::start("rate_per_second = 1000\nrate_burst = 1000").await;
    const ARGS: [&str; 10] =
        ["--matches", "2", "--pace-ms", "200", "--duration", "3", "--endpoints", "2", "--spectators", "60"];
    let (s, crowd) = load_with_crowd(&server, &ARGS).await;
    let crowd = crowd.unwrap_or_else(|| panic!("no crowd line after {}", s.0));
    // 60 spectators of a match moving on each board every 0.2 s for 3 s: hundreds of events seen.
    assert!(crowd.field("match:") >= 60.0, "{}", crowd.0);
    assert!(crowd.field("p99") > 0.0, "{}", crowd.0);
    assert_eq!(crowd.field("disconnected"), 0.0, "{}", crowd.0);
    assert_eq!(crowd.field("errors"), 0.0, "{}", crowd.0);
    nothing_left(&server).await;
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn load_plays_its_matches_and_reports_served_moves_and_latency() {
    let server = TestServer::start("rate_per_second = 1000\nrate_burst = 1000").await;
    let s =
        load(&server, &["--matches", "3", "--pace-ms", "200", "--duration", "3", "--endpoints", "2"]).await;
    let summary = &s.0;
    // Three matches, two boards, a move every 0.2 s: about 30 moves a second offered.
    assert!(s.field("offered") >= 10.0, "{summary}");
    assert!(s.field("served") >= 0.8 * s.field("offered"), "{summary}");
    assert_eq!(s.field("errors"), 0.0, "{summary}");
    assert_eq!(s.field("disconnected"), 0.0, "{summary}");
    assert!(s.field("p99") > 0.0, "{summary}");
    // It played the three matches it set up, and ended them: nothing is left live.
    nothing_left(&server).await;
    server.stop().await;
}

/// E3 (a flag falls, the match is decided): with one-second clocks and a move a second per board
/// (more than the lag credit, K3, gives back) the matches end during the run, and the same four
/// players start another each time, so the server keeps the number of live matches asked for
/// while the decided ones are released.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn e3_load_replaces_each_decided_match_with_a_new_one() {
    let server = TestServer::start("rate_per_second = 1000\nrate_burst = 1000").await;
    const ARGS: [&str; 8] =
        ["--matches", "2", "--pace-ms", "1000", "--duration", "12", "--time-control", "1s+0"];
    let s = load(&server, &ARGS).await;
    let summary = &s.0;
    // Each decided match was replaced: a replacement that failed would count as an error.
    assert!(s.field("replaced") >= 1.0, "matches decided and replaced during the run: {summary}");
    assert_eq!(s.field("errors"), 0.0, "{summary}");
    // The decided ones were released, and the last ones ended by the run itself.
    nothing_left(&server).await;
    server.stop().await;
}
