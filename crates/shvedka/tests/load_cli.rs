//! `shvedka load` against a real server on loopback: it sets up its matches, plays random legal
//! moves at its pace, stops by itself, and reports what was offered and served with latency.

use std::process::Command;

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
            .args(["load", "--server", &addr, "--fingerprint", &fingerprint])
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
    (Summary(summary.unwrap_or_else(|| panic!("no summary in {text}")).to_owned()), crowd)
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
    assert_eq!(server.stats.live_matches(), 3, "it played the matches it set up");
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
    // The decided ones were released (and the last ones, their clocks running out once the run
    // stopped, may be decided too).
    let live = server.stats.live_matches();
    assert!(live <= 2, "{live} live matches: {summary}");
    server.stop().await;
}
