//! Bots over the wire: matches of four bots on a real server all finish with a valid result.
//!
//! `SHVEDKA_BOT_MATCHES=100 cargo nextest run -p shvedka-tests -E 'test(/^bots::/)' --no-capture` plays
//! a hundred and prints the distribution of results and reasons (the suite plays fewer).

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use shvedka_bot::{BotConfig, Outcome, play_match};
use shvedka_client::Update;
use shvedka_proto::{MatchId, SeatId, ServerMsg, TeamId};
use shvedka_tests::TestServer;
use tokio::task::JoinSet;

/// Seats four bots in match `id`, each taking at least `pace` a move; each plays in a task of
/// `set` until the match ends.
async fn spawn_match(
    server: &TestServer,
    (id, pace): (MatchId, Duration),
    level: u8,
    set: &mut JoinSet<(MatchId, Outcome)>,
) {
    for seat in SeatId::ALL {
        let mut c = server.client(&format!("bot-{seat}")).await;
        set.spawn(async move {
            let config = BotConfig { level, chat: true, pace };
            let outcome = play_match(&mut c, id, seat, &config).await;
            c.close().await;
            (id, outcome.expect("the bot plays to the end without an error"))
        });
    }
}

/// How long a batch of matches at 10 s a player may take. Each lasts about a minute at most: a
/// board's two clocks hold 20 s, and under an increment every move costs its mover at least as
/// much again (a hundred moves a player at most). A batch still playing after this has a match
/// that stalled, and the test says which and how.
const BATCH_DEADLINE: Duration = Duration::from_secs(150);

/// Plays the matches at once and gives each match's four outcomes; fails, describing each
/// unfinished match as the server sees it, when the batch outlasts [`BATCH_DEADLINE`].
async fn play_all(server: &TestServer, matches: Vec<(MatchId, Duration)>) -> Vec<Vec<Outcome>> {
    let mut set = JoinSet::new();
    for &m in &matches {
        spawn_match(server, m, 1, &mut set).await;
    }
    let ids: Vec<MatchId> = matches.iter().map(|&(id, _)| id).collect();
    let mut by_match: BTreeMap<MatchId, Vec<Outcome>> = BTreeMap::new();
    let deadline = tokio::time::Instant::now() + BATCH_DEADLINE;
    loop {
        match tokio::time::timeout_at(deadline, set.join_next()).await {
            Ok(Some(joined)) => {
                let (id, outcome) = joined.expect("the bot task");
                by_match.entry(id).or_default().push(outcome);
            }
            Ok(None) => break,
            Err(_) => {
                let stalled = describe_stalled(server, &ids, &by_match).await;
                panic!("a batch still plays after {BATCH_DEADLINE:?}:\n{stalled}");
            }
        }
    }
    by_match.into_values().collect()
}

/// Each match of `ids` whose four bots have not all finished, as a watcher is told it: phase,
/// clocks, which run, the last event, and how many of its bots finished.
async fn describe_stalled(
    server: &TestServer,
    ids: &[MatchId],
    done: &BTreeMap<MatchId, Vec<Outcome>>,
) -> String {
    let mut out = String::new();
    for &id in ids {
        let finished = done.get(&id).map_or(0, Vec::len);
        if finished == 4 {
            continue;
        }
        let mut watcher = server.client("watcher").await;
        let state = match watcher.watch(id).await {
            Err(e) => format!("cannot watch: {e}"),
            Ok(()) => loop {
                match tokio::time::timeout(Duration::from_secs(5), watcher.next_update()).await {
                    Ok(Some(Update::Server(ServerMsg::State(s)))) => {
                        break format!(
                            "phase {:?}, clocks {:?} ms, running {:?}, last event {:?}, seats {:?}",
                            s.phase, s.clocks_ms, s.running, s.last_seq, s.seats
                        );
                    }
                    Ok(Some(_)) => {}
                    Ok(None) | Err(_) => break "no state came".to_owned(),
                }
            },
        };
        out.push_str(&format!("match {id}: {finished} of 4 bots finished; {state}\n"));
        watcher.close().await;
    }
    out
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn e1_e10_matches_of_four_bots_all_finish_with_a_valid_result() {
    // Two batches of four in the suite (about a minute: the clocks run in real time); both presets
    // and both time controls come in each batch.
    // The bots' own account of lost connections and resumes, and the server's warnings, are
    // shown should the test fail.
    let _ = tracing_subscriber::fmt()
        .with_env_filter("warn,shvedka_bot=info")
        .with_ansi(false)
        .with_test_writer()
        .try_init();
    let n: usize = std::env::var("SHVEDKA_BOT_MATCHES").ok().and_then(|v| v.parse().ok()).unwrap_or(8);
    let parallel = 4;
    // One host creates every batch of matches.
    let server = TestServer::start("max_matches = 1000\nmax_open_matches_per_session = 100").await;
    let started = Instant::now();
    let mut reasons: BTreeMap<String, u32> = BTreeMap::new();
    let mut winners: BTreeMap<&str, u32> = BTreeMap::new();
    let (mut moves, mut asked) = (0u32, 0u32);
    let mut done = 0;
    while done < n {
        let batch = parallel.min(n - done);
        // A host for each batch: one kept idle through a batch (CPU-bound bots on two cores) once
        // lost its connection to the 10 s idle timeout before the next batch's `create` (CI).
        let host = server.client("host").await;
        let mut ids = Vec::new();
        for i in 0..batch {
            // Both presets, and a time control with increment now and then. Bots of level 1
            // move in a few milliseconds: faster than an increment, their clocks would grow and
            // such a match end only by mate or a draw rule, any time later (CI once saw one go on
            // for minutes). So under an increment they take at least twice it a move, and every
            // move costs its mover time.
            let rules = if (done + i) % 2 == 0 { "mgimo-2017" } else { "classic" };
            let (tc, pace) = if (done + i) % 3 == 0 {
                ("10s+100ms", Duration::from_millis(200))
            } else {
                ("10s+0", Duration::ZERO)
            };
            ids.push((host.create_match(rules, tc, true).await.expect("create"), pace));
        }
        let results = play_all(&server, ids).await;
        for outcomes in results {
            let r = outcomes[0].result.clone().expect("a decided match, not annulled");
            assert!(
                outcomes.iter().all(|o| o.result.as_ref() == Some(&r)),
                "all four bots saw the same result"
            );
            assert!(
                ["E1", "E3", "E4", "E5", "E7", "E8", "E10"].contains(&r.rule.as_str()),
                "a rule that ends a bot match: {r:?}"
            );
            *reasons.entry(format!("{} {}", r.rule, r.reason)).or_default() += 1;
            *winners
                .entry(match r.winner {
                    Some(TeamId::One) => "team 1",
                    Some(TeamId::Two) => "team 2",
                    None => "draw",
                })
                .or_default() += 1;
            moves += outcomes.iter().map(|o| o.moves).sum::<u32>();
            asked += outcomes.iter().map(|o| o.asked).sum::<u32>();
        }
        done += batch;
    }
    println!(
        "{n} bot matches in {:.1} s: {moves} moves, {asked} requests for pieces",
        started.elapsed().as_secs_f64()
    );
    println!("results: {winners:?}");
    for (reason, count) in &reasons {
        println!("{count:>4}  {reason}");
    }
    assert!(moves as usize > 10 * n, "the bots play: {moves} moves in {n} matches");
    server.stop().await;
}

/// A bot that plays faster than the server's rate limit (here 4 requests a second) waits and
/// tries again rather than failing: it finishes one match and sits down for the next, as in a
/// tournament, where a refused `Assignment` once ended a bot's night (found by CI).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bot_slows_down_when_the_server_says_it_sends_too_many_requests() {
    let server =
        TestServer::start("rate_per_second = 4\nrate_burst = 4\nmax_open_matches_per_session = 10").await;
    let host = server.client("host").await;
    let first = host.create_match("classic", "5s+0", true).await.expect("create");
    let second = host.create_match("classic", "5s+0", true).await.expect("create");
    let mut set = JoinSet::new();
    for seat in SeatId::ALL {
        let mut c = server.client(&format!("bot-{seat}")).await;
        set.spawn(async move {
            let config = BotConfig { level: 1, chat: true, pace: Duration::ZERO };
            let one = play_match(&mut c, first, seat, &config).await.expect("the first match");
            // Straight into the next seat, with the bucket emptied by the first match's moves.
            let two = play_match(&mut c, second, seat, &config).await.expect("the second match");
            c.close().await;
            (one, two)
        });
    }
    let mut moves = 0;
    while let Some(joined) = set.join_next().await {
        let (one, two) = joined.expect("the bot task");
        assert!(one.result.is_some() && two.result.is_some(), "both matches decided: {one:?} {two:?}");
        moves += one.moves + two.moves;
    }
    assert!(moves > 8, "the bots played: {moves} moves");
    server.stop().await;
}
