//! Randomized faults in a cluster (issue 36): three `shvedka serve` nodes over one PostgreSQL and
//! one NATS server, 50 matches of random-moving players spread over the nodes, and a fault every
//! few seconds — a node cut from PostgreSQL and NATS, from one of them, a slow link to
//! PostgreSQL, a cut that heals before the lease, SIGKILL and a restart — for ten minutes. Then
//! the faults stop, everything heals, play settles, and every match's log is checked for lost or
//! duplicated acknowledged moves, forks, and events told twice or skipped. The partition tests
//! (`tests/tests/partition.rs`) show each fault once, by hand; this looks for what only a long
//! random mix finds, which is why it is a benchmark (minutes, random) and not a test.
//!
//! ```sh
//! cargo bench -p shvedka --bench faults -- --minutes 10 [--matches 50] [--seed N] [--logs DIR]
//! ```
//!
//! Prints a table (faults by kind, matches, moves acknowledged, lost, duplicated, forks, events
//! told twice, gaps, the longest stall, failures to resume) and exits non-zero when anything was
//! lost, duplicated, forked, told twice or skipped. The nodes' logs, the fault timeline and the
//! table stay in the logs directory (printed; a temporary one by default).

mod check;
mod cluster;
mod driver;
mod schedule;

use std::io::Write;
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use cluster::{Cluster, Leases};
use driver::Run;

/// The command line.
struct Options {
    minutes: f64,
    matches: usize,
    seed: u64,
    leases: Leases,
    logs: std::path::PathBuf,
}

fn options() -> Options {
    let mut o = Options {
        minutes: 10.0,
        matches: 50,
        seed: std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_nanos() as u64
            % 1_000_000_007,
        leases: Leases { lease_ms: 2000, renew_ms: 250 },
        logs: std::env::temp_dir().join(format!("shvedka-faults-{}", std::process::id())),
    };
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut value = |name: &str| args.next().unwrap_or_else(|| panic!("{name} needs a value"));
        let number =
            |name: &str, v: String| v.parse::<u64>().unwrap_or_else(|_| panic!("{name}: a number, not {v}"));
        match arg.as_str() {
            "--minutes" => o.minutes = value("--minutes").parse().expect("--minutes: a number"),
            "--matches" => o.matches = number("--matches", value("--matches")) as usize,
            "--seed" => o.seed = number("--seed", value("--seed")),
            "--lease-ms" => o.leases.lease_ms = number("--lease-ms", value("--lease-ms")),
            "--lease-renew-ms" => o.leases.renew_ms = number("--lease-renew-ms", value("--lease-renew-ms")),
            "--logs" => o.logs = value("--logs").into(),
            // `cargo bench` passes `--bench` to every benchmark.
            "--bench" => {}
            other => panic!(
                "unknown argument {other}: --minutes N --matches N --seed N --lease-ms N --lease-renew-ms N --logs DIR"
            ),
        }
    }
    o
}

fn main() {
    let o = options();
    std::fs::create_dir_all(&o.logs).unwrap();
    println!(
        "faults: {} min, {} matches, seed {}, lease_ms {} / lease_renew_ms {}; logs in {}",
        o.minutes,
        o.matches,
        o.seed,
        o.leases.lease_ms,
        o.leases.renew_ms,
        o.logs.display()
    );
    let rt = tokio::runtime::Builder::new_multi_thread().enable_all().build().unwrap();
    let failed = rt.block_on(bench(&o));
    std::process::exit(i32::from(failed));
}

/// The run; `true` when the check failed.
async fn bench(o: &Options) -> bool {
    let mut cluster = Cluster::start(3, o.leases, &o.logs).await;
    let start = Instant::now();
    let run = Arc::new(Run {
        start,
        nodes: cluster.addrs(),
        pin: cluster.pin,
        seed: o.seed,
        stop_moving: Default::default(),
        stop: Default::default(),
        played: Mutex::new(Vec::new()),
        setup_failures: Mutex::new(0),
    });
    let mut slots = Vec::new();
    for i in 0..o.matches {
        slots.push(tokio::spawn(driver::slot(run.clone(), i)));
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let mut timeline = std::fs::File::create(o.logs.join("faults.txt")).unwrap();
    let stop_faults = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let length = Duration::from_secs_f64(o.minutes * 60.0);
    let stopper = {
        let stop = stop_faults.clone();
        tokio::spawn(async move {
            tokio::time::sleep(length).await;
            stop.store(true, Ordering::SeqCst);
        })
    };
    let counts = schedule::run(&mut cluster, o.seed, &stop_faults, start, &mut timeline).await;
    stopper.await.unwrap();
    let faulted = start.elapsed();
    // Healed: every link passes, every node runs and holds its lease again.
    for node in &mut cluster.nodes {
        node.heal();
        if !node.running() {
            node.spawn().await;
        }
    }
    let deadline = Instant::now() + Duration::from_secs(60);
    for node in &cluster.nodes {
        while node.metric("shvedka_cluster_lease_lost").await != Some(0) && Instant::now() < deadline {
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
    }
    println!("{:.1} s: faults stopped, everything healed; settling", start.elapsed().as_secs_f64());
    // Settle: every player resumed, and some more moves.
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let waiting = run
            .played
            .lock()
            .unwrap()
            .iter()
            .filter(|p| p.ended.lock().unwrap().is_none())
            .flat_map(|p| p.seats.iter())
            .filter(|s| !s.lock().unwrap().connected)
            .count();
        if waiting == 0 || Instant::now() > deadline {
            println!("{waiting} players still resuming");
            break;
        }
        tokio::time::sleep(Duration::from_millis(500)).await;
    }
    tokio::time::sleep(Duration::from_secs(15)).await;
    run.stop_moving.store(true, Ordering::SeqCst);
    let moving_until = Instant::now();
    // Moves in flight answered, their events told to everyone.
    tokio::time::sleep(Duration::from_secs(10)).await;
    run.stop.store(true, Ordering::SeqCst);
    for s in slots {
        let _ = tokio::time::timeout(Duration::from_secs(30), s).await;
    }
    let played: Vec<_> = run.played.lock().unwrap().clone();
    let found = check::check(&cluster.pg.url, &played, start, moving_until).await;
    let table = table(o, &counts, &found, faulted, *run.setup_failures.lock().unwrap());
    println!("{table}");
    let mut file = std::fs::File::create(o.logs.join("result.md")).unwrap();
    let _ = writeln!(file, "{table}");
    for e in &found.errors {
        let _ = writeln!(file, "{e}");
    }
    for e in found.errors.iter().take(50) {
        println!("{e}");
    }
    if found.errors.len() > 50 {
        println!("... {} more in {}", found.errors.len() - 50, o.logs.join("result.md").display());
    }
    println!("logs: {}", o.logs.display());
    found.lost + found.duplicated + found.forks + found.repeats + found.gaps + found.went_back > 0
}

fn table(o: &Options, counts: &[u64; 6], f: &check::Found, faulted: Duration, setup_failures: u64) -> String {
    let mut t = String::new();
    let mut row = |what: &str, value: String| t.push_str(&format!("| {what} | {value} |\n"));
    row(
        "run",
        format!(
            "3 nodes, {} live matches, {:.1} min of faults, seed {}, lease_ms {} / lease_renew_ms {}",
            o.matches,
            faulted.as_secs_f64() / 60.0,
            o.seed,
            o.leases.lease_ms,
            o.leases.renew_ms
        ),
    );
    for (kind, n) in schedule::KINDS.iter().zip(counts) {
        row(&format!("faults: {kind}"), n.to_string());
    }
    row("faults injected", counts.iter().sum::<u64>().to_string());
    row("matches played", f.matches.to_string());
    row("moves acknowledged", f.acknowledged.to_string());
    row("moves in the logs", f.moves_in_logs.to_string());
    row("lost", f.lost.to_string());
    row("duplicated", f.duplicated.to_string());
    row("forks", f.forks.to_string());
    row("events told twice", f.repeats.to_string());
    row("gaps (events skipped)", f.gaps.to_string());
    row("states older than an event told", f.went_back.to_string());
    row("players not caught up at the end", f.behind.to_string());
    row("players told their live match closed (they follow it no more)", f.closed.to_string());
    row("moves acknowledged on a lagging view (found later in the log)", f.stale_view.to_string());
    row(
        "longest stall (a live match without an acknowledged move)",
        format!("{} ms (match {}, from {:.1} s)", f.stall.0.as_millis(), f.stall.1, f.stall.2),
    );
    row(
        "longest wait of a player for its move's acknowledgement",
        format!("{} ms (match {}, from {:.1} s)", f.wait.0.as_millis(), f.wait.1, f.wait.2),
    );
    row("resumes (told to resume elsewhere)", format!("{} ({})", f.resumes, f.elsewhere));
    row("longest resume", format!("{} ms", f.longest_resume.as_millis()));
    row("failures to resume (a minute and more)", f.resume_failures.to_string());
    row("matches not set up within 30 s (retried)", setup_failures.to_string());
    let refused: Vec<String> = f.refusals.iter().map(|(why, n)| format!("{why}: {n}")).collect();
    row("moves refused or unanswered (then tried again)", refused.join("; "));
    format!("| what | measured |\n|---|---|\n{t}")
}
