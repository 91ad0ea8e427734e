//! The fault scheduler: every few seconds (3 to 8, from a seeded generator) one fault on one
//! node chosen at random, among the partitions of issue 36 and SIGKILL with a restart. One fault
//! at a time, healed before the next is chosen, so that a majority of the nodes always works and
//! can take the faulty node's matches over.

use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use testkit::SplitMix;
use testkit::link::Mode;

use crate::cluster::Cluster;

/// The kinds of fault, in the order the table lists them.
pub(crate) const KINDS: [&str; 6] = [
    "cut from PostgreSQL and NATS (1-6 s)",
    "cut from PostgreSQL alone (1-6 s)",
    "cut from NATS alone (1-6 s)",
    "slow PostgreSQL link (200-400 ms each way, 5 s)",
    "short cut healed before the lease (1 s)",
    "SIGKILL, restarted after 2-5 s",
];

/// A number of milliseconds in `lo..=hi`.
fn ms(rng: &mut SplitMix, lo: u64, hi: u64) -> Duration {
    Duration::from_millis(lo + rng.next_u64() % (hi - lo + 1))
}

/// Injects faults until `stop` is set (the fault under way is finished and healed first); gives
/// how many of each kind. Each is written to `timeline` with its time since `start`.
pub(crate) async fn run(
    cluster: &mut Cluster,
    seed: u64,
    stop: &AtomicBool,
    start: Instant,
    timeline: &mut std::fs::File,
) -> [u64; 6] {
    let mut rng = SplitMix(seed);
    let mut counts = [0u64; 6];
    loop {
        let pause = ms(&mut rng, 3000, 8000);
        let until = Instant::now() + pause;
        while Instant::now() < until {
            if stop.load(Ordering::SeqCst) {
                return counts;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        let kind = rng.below(KINDS.len());
        let which = rng.below(cluster.nodes.len());
        let node = &mut cluster.nodes[which];
        let mut note = |what: String| {
            let line = format!("{:>8.3} s  {}: {what}", start.elapsed().as_secs_f64(), node_name(which));
            let _ = writeln!(timeline, "{line}");
            println!("{line}");
        };
        counts[kind] += 1;
        match kind {
            0..=2 => {
                let length = ms(&mut rng, 1000, 6000);
                note(format!(
                    "{} for {} ms",
                    ["cut from both", "cut from PostgreSQL", "cut from NATS"][kind],
                    length.as_millis()
                ));
                if kind != 2 {
                    node.pg.set(Mode::Blackhole);
                }
                if kind != 1 {
                    node.nats.set(Mode::Blackhole);
                }
                tokio::time::sleep(length).await;
                node.heal();
                note("healed".into());
            }
            3 => {
                let delay = ms(&mut rng, 200, 400);
                note(format!("PostgreSQL link slowed by {} ms each way for 5 s", delay.as_millis()));
                node.pg.set(Mode::Delay(delay));
                tokio::time::sleep(Duration::from_secs(5)).await;
                node.heal();
                note("healed".into());
            }
            4 => {
                note("cut from both for 1000 ms".into());
                node.pg.set(Mode::Blackhole);
                node.nats.set(Mode::Blackhole);
                tokio::time::sleep(Duration::from_secs(1)).await;
                node.heal();
                note("healed".into());
            }
            _ => {
                let down = ms(&mut rng, 2000, 5000);
                note(format!("SIGKILL, restart in {} ms", down.as_millis()));
                node.kill();
                tokio::time::sleep(down).await;
                let started = Instant::now();
                node.spawn().await;
                note(format!("restarted (listening after {} ms)", started.elapsed().as_millis()));
            }
        }
    }
}

/// `node-a`, `node-b`, ... for node `i`.
pub(crate) fn node_name(i: usize) -> String {
    format!("node-{}", (b'a' + i as u8) as char)
}
