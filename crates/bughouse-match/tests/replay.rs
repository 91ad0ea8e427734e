//! The event log (A4): random legal play with random timing, claims and arbiter acts (replays of
//! the game among them, A2), then a
//! replay of the log must rebuild the identical match, clocks included, and the state at any
//! logged instant. Colour conservation (C2) holds after every event.

mod common;

use std::time::Duration;

use bughouse::{BoardId, MatchResult, Seat};
use bughouse_match::{
    ArbiterAct, Claim, Command, Match, MatchConfig, Phase, ReplayError, ReplayReason, Snapshot,
};
use chess_core::Color;
use common::*;
use testkit::SplitMix;

fn random_config(rng: &mut SplitMix) -> MatchConfig {
    let preset = if rng.coin() { "mgimo-2017" } else { "classic" };
    let tc = ["30s+0", "1+1", "20s+d1", "10s+2"][rng.below(4)];
    let c = config(preset, tc);
    if rng.below(3) == 0 { claim_mode(c) } else { c }
}

fn random_command(rng: &mut SplitMix, m: &Match, seat: Seat, elapsed: Duration) -> Command {
    match rng.below(40) {
        0 => Command::OfferDraw,
        1 => Command::DeclineDraw,
        2 => Command::Claim(Claim::Repetition),
        3 => Command::Claim(Claim::FiftyMoves),
        4 => Command::Claim(Claim::Flag(Seat::ALL[rng.below(4)])),
        5 if rng.below(4) == 0 => Command::CallArbiter { replay: random_reason(rng) },
        6 if rng.below(8) == 0 => Command::Resign,
        _ => {
            let moves = m.game().legal_moves(seat.board);
            if moves.is_empty() {
                return Command::OfferDraw;
            }
            let client_time = match rng.below(3) {
                0 => None,
                1 => Some(elapsed.saturating_sub(Duration::from_millis(rng.below(1500) as u64))),
                _ => Some(Duration::from_millis(rng.below(20_000) as u64)),
            };
            Command::Move { mv: moves[rng.below(moves.len())], client_time }
        }
    }
}

/// A call's or a replay's reason: none a quarter of the time.
fn random_reason(rng: &mut SplitMix) -> Option<ReplayReason> {
    [None, Some(ReplayReason::WrongSetup), Some(ReplayReason::OutsideHint), Some(ReplayReason::Other)]
        [rng.below(4)]
}

fn random_act(rng: &mut SplitMix, m: &Match, earlier: &[String]) -> ArbiterAct {
    match rng.below(12) {
        0 | 1 => ArbiterAct::Pause,
        2..=4 => ArbiterAct::Resume,
        5 | 6 => ArbiterAct::AdjustClock {
            seat: Seat::ALL[rng.below(4)],
            delta_ms: rng.below(20_000) as i64 - 10_000,
        },
        7 | 8 => ArbiterAct::TakeBack { board: BoardId::ALL[rng.below(2)] },
        9 if !earlier.is_empty() => {
            ArbiterAct::SetPosition { bfen: earlier[rng.below(earlier.len())].clone() }
        }
        10 if rng.below(10) == 0 => {
            ArbiterAct::DeclareResult { result: MatchResult::Draw, note: "random".into() }
        }
        11 if rng.below(6) == 0 => match random_reason(rng) {
            Some(reason) => ArbiterAct::Replay { reason, note: String::new() },
            None => ArbiterAct::Replay { reason: ReplayReason::Other, note: "random".into() },
        },
        _ => ArbiterAct::SetPosition { bfen: m.game().bfen() },
    }
}

/// Plays one random match, checking C2 after every input; returns it, its config, and
/// snapshots taken along the way.
fn random_match(seed: u64) -> (MatchConfig, Match, Vec<Snapshot>) {
    let mut rng = SplitMix(seed);
    let config = random_config(&mut rng);
    let mut t = Table::new(config.clone());
    let mut at = Duration::ZERO;
    let mut snapshots = Vec::new();
    let mut earlier = vec![t.m.game().bfen()];
    for _ in 0..400 {
        if t.result().is_some() || t.m.phase() == &Phase::Annulled {
            break;
        }
        at += Duration::from_millis(1 + rng.below(2500) as u64);
        if rng.below(4) == 0 {
            // The driver wakes at its timer, not only when input arrives.
            t.wait(at);
        }
        let paused = matches!(t.m.phase(), Phase::Paused { .. });
        if rng.below(if paused { 2 } else { 25 }) == 0 {
            let act = random_act(&mut rng, &t.m, &earlier);
            let _ = t.arbiter(at, act);
        } else {
            let board = BoardId::ALL[rng.below(2)];
            let seat = if rng.below(6) == 0 { Seat::ALL[rng.below(4)] } else { t.m.game().to_move(board) };
            let elapsed = Duration::from_millis(rng.below(3000) as u64);
            let command = random_command(&mut rng, &t.m, seat, elapsed);
            let _ = t.cmd(at, seat, command);
        }
        for color in Color::ALL {
            assert_eq!(t.m.game().units(color), 32, "C2 after event {}", t.m.events().len());
        }
        if rng.below(8) == 0 {
            snapshots.push(t.m.snapshot(at));
            earlier.push(t.m.game().bfen());
        }
    }
    t.wait(at + Duration::from_secs(60));
    (config, t.m, snapshots)
}

#[test]
fn a4_replaying_the_log_rebuilds_the_identical_match() {
    let mut endings = std::collections::BTreeMap::new();
    let mut total_events = 0;
    let mut replayed = 0;
    let (base, _say) = testkit::seeded(0xA4);
    for seed in 0..60u64 {
        let (config, m, snapshots) = random_match(base ^ (seed << 8));
        total_events += m.events().len();
        replayed += m
            .events()
            .iter()
            .filter(|e| {
                matches!(&e.kind, bughouse_match::EventKind::Arbiter(r) if matches!(r.act, ArbiterAct::Replay { .. }))
            })
            .count();
        let log = m.events();
        let r = Match::replay(config.clone(), log).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        assert_eq!(r.events(), log, "seed {seed}");
        assert_eq!(r.game(), m.game(), "seed {seed}");
        assert_eq!(r.phase(), m.phase(), "seed {seed}");
        let end = log.last().unwrap().at + Duration::from_secs(5);
        assert_eq!(r.clocks(end), m.clocks(end), "seed {seed}");
        assert_eq!(r.fallen_flags(), m.fallen_flags(), "seed {seed}");
        for s in &snapshots {
            let at =
                Match::state_at(config.clone(), log, s.at).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
            assert_eq!(&at, s, "seed {seed}: state at {:?}", s.at);
        }
        let key = match m.phase() {
            Phase::Ended(adj) => adj.reason.rule(),
            Phase::Annulled => "annulled",
            _ => "unfinished",
        };
        *endings.entry(key).or_insert(0) += 1;
    }
    eprintln!("{total_events} events; {replayed} games played again; endings {endings:?}");
    assert!(replayed > 0, "some random match was played again");
    assert!(total_events > 3000, "the random matches did something: {total_events} events");
    assert!(endings.len() >= 3, "the random matches end in several ways: {endings:?}");
}

#[test]
fn a4_a_tampered_log_does_not_replay() {
    let (config, m, _) = random_match(7);
    let mut log = m.events().to_vec();
    let i = log.iter().position(|e| matches!(e.kind, bughouse_match::EventKind::Moved { .. })).unwrap();
    log[i].clocks[0] += Duration::from_millis(1);
    assert_eq!(Match::replay(config.clone(), &log).unwrap_err(), ReplayError::Diverged { seq: i as u64 });
    let mut log = m.events().to_vec();
    log.truncate(i);
    log.push(m.events()[i].clone());
    log.last_mut().unwrap().at = Duration::ZERO;
    assert!(Match::replay(config, &log).is_err());
}

#[test]
fn the_match_machine_never_reads_the_clock() {
    let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut checked = 0;
    for entry in std::fs::read_dir(src).unwrap() {
        let path = entry.unwrap().path();
        let text = std::fs::read_to_string(&path).unwrap();
        for banned in ["Instant", "SystemTime", "::now("] {
            assert!(!text.contains(banned), "{} mentions {banned}", path.display());
        }
        checked += 1;
    }
    assert!(checked >= 8);
}
