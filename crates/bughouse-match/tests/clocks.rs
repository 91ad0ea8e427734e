//! The four clocks on virtual time: K1 (simultaneous start, a move switches the clock), K2
//! (Fischer increment, delay), K3 (lag credit from the quota), and the clock settings as data.

mod common;

use std::time::Duration;

use bughouse_match::{ClockConfig, Event, EventKind, LagSettings, Match, TimeControl};
use common::*;
use testkit::SplitMix;

#[test]
fn k1_both_white_clocks_start_at_the_same_instant() {
    let t = Table::new(no_lag(config("mgimo-2017", "1+0")));
    assert_eq!(t.m.events().iter().filter(|e| e.kind == EventKind::Started).count(), 1);
    assert_eq!(t.m.clocks(secs(5)), [secs(55), secs(60), secs(55), secs(60)]);
}

#[test]
fn k1_a_move_stops_the_movers_clock_and_starts_his_opponents_on_that_board_only() {
    let mut t = Table::new(no_lag(config("mgimo-2017", "1+0")));
    t.play(secs(5), WA, "e4");
    assert_eq!(t.m.clocks(secs(7)), [secs(55), secs(58), secs(53), secs(60)]);
    t.play(secs(8), BA, "e5");
    t.play(secs(9), WB, "d4");
    assert_eq!(t.m.clocks(secs(10)), [secs(53), secs(57), secs(51), secs(59)]);
    let moved = t.m.events().iter().find(|e| matches!(e.kind, EventKind::Moved { .. })).unwrap();
    assert_eq!(moved.clocks, [secs(55), secs(60), secs(55), secs(60)], "readings after the first move");
}

#[test]
fn k1_clocks_do_not_run_before_the_start() {
    let mut m = bughouse_match::Match::new(no_lag(config("mgimo-2017", "1+0"))).unwrap();
    assert_eq!(m.clocks(secs(100)), [secs(60); 4]);
    assert_eq!(m.poll_timeout(), None, "nothing runs before the start");
    m.handle_timeout(secs(100));
    assert!(m.events().is_empty());
}

#[test]
fn k2_fischer_increment_is_added_after_each_move() {
    let mut t = Table::new(no_lag(config("mgimo-2017", "3+2")));
    t.play(secs(10), WA, "e4");
    assert_eq!(t.clock(secs(10), WA), secs(172));
    t.play(secs(11), BA, "e5");
    assert_eq!(t.clock(secs(11), BA), secs(181), "a fast move may gain time");
}

#[test]
fn k2_delay_time_does_not_run_the_base_time() {
    let mut t = Table::new(no_lag(config("mgimo-2017", "5+d3")));
    assert_eq!(t.clock(secs(2), WA), secs(300), "inside the delay the base does not run");
    assert_eq!(t.clock(secs(5), WA), secs(298));
    t.play(secs(2), WA, "e4");
    assert_eq!(t.clock(secs(2), WA), secs(300), "no time charged, and no increment under a delay");
    t.play(secs(10), BA, "e5");
    assert_eq!(t.clock(secs(10), BA), secs(295));
    // A flag under a delay falls at base + delay.
    t.wait(secs(400));
    assert_eq!(t.when(|k| matches!(k, EventKind::FlagFell { seat } if *seat == WB)), Some(secs(303)));
}

#[test]
fn k3_quota_gain_follows_the_documented_formula() {
    let lag = ClockConfig::builtin().lag;
    let gain = |tc: &str| lag.gain(&tc.parse::<TimeControl>().unwrap());
    assert_eq!(gain("1+0"), ms(390));
    assert_eq!(gain("3+0"), ms(870));
    assert_eq!(gain("3+2"), ms(1000), "capped at one second: 0.15 + (180 + 80) / 250 > 1");
    assert_eq!(gain("0.5+0"), ms(270));
    let q = lag.quota(&"1+0".parse().unwrap());
    assert_eq!((q.remaining(), q.max()), (ms(1170), ms(2730)), "starts at 3 gains, capped at 7");
}

#[test]
fn k3_lag_is_credited_up_to_the_quota() {
    let mut t = Table::new(config("mgimo-2017", "1+0"));
    // 5 s on the server, 4.5 s on the client: 0.5 s of lag, all credited.
    t.try_play(secs(5), WA, "e4", Some(ms(4500))).unwrap();
    assert_eq!(t.clock(secs(5), WA), ms(55_500));
    assert_eq!(t.m.lag_quota(WA).remaining(), ms(1170 - 500 + 390));
    let EventKind::Moved { charged, credit, .. } = t.kinds()[0] else { panic!() };
    assert_eq!((charged, credit), (ms(4500), ms(500)));
    // 3 s of claimed lag: only the quota (1.06 s) is credited.
    t.try_play(secs(10), BA, "e5", Some(secs(2))).unwrap();
    assert_eq!(t.clock(secs(10), BA), ms(60_000 - 5_000 + 1170));
    assert_eq!(t.m.lag_quota(BA).remaining(), ms(390), "spent, then one gain");
}

#[test]
fn k3_no_client_time_or_negative_lag_gives_no_credit() {
    let mut t = Table::new(config("mgimo-2017", "1+0"));
    t.try_play(secs(5), WA, "e4", None).unwrap();
    assert_eq!(t.clock(secs(5), WA), secs(55));
    t.try_play(secs(10), BA, "e5", Some(secs(9))).unwrap();
    assert_eq!(t.clock(secs(10), BA), secs(55), "a client claiming more time than passed gets nothing back");
    assert_eq!(t.m.lag_quota(BA).remaining(), ms(1170 + 390));
}

/// K3, A4: a client's measure past any clock (`u64::MAX` ms) is read as a year: no credit, and
/// the move's event still fits the log's whole nanoseconds and replays to the same match.
#[test]
fn k3_a_client_time_past_any_clock_is_read_as_a_year_and_the_log_still_replays() {
    let mut t = Table::new(config("mgimo-2017", "1+0"));
    t.try_play(secs(5), WA, "e4", Some(Duration::from_millis(u64::MAX))).unwrap();
    assert_eq!(t.clock(secs(5), WA), secs(55), "no credit");
    let moved = t.m.events().last().unwrap().clone();
    let EventKind::Moved { client_time, credit, .. } = moved.kind else { panic!("{moved:?}") };
    assert_eq!((client_time, credit), (Some(bughouse_match::MOST_CLIENT_TIME), Duration::ZERO));
    let json = serde_json::to_string(t.m.events()).expect("the log is written");
    let log: Vec<Event> = serde_json::from_str(&json).unwrap();
    assert_eq!(Match::replay(t.m.config().clone(), &log).unwrap().events(), t.m.events());
}

#[test]
fn k3_quota_is_capped_at_seven_gains() {
    let mut t = Table::new(config("mgimo-2017", "1+0"));
    let mut at = Duration::ZERO;
    for i in 0..6 {
        at += ms(100);
        let (w, b) = if i % 2 == 0 { ("Nf3", "Nf6") } else { ("Ng1", "Ng8") };
        t.try_play(at, WA, w, None).unwrap();
        at += ms(100);
        t.try_play(at, BA, b, None).unwrap();
    }
    assert_eq!(t.m.lag_quota(WA).remaining(), ms(2730));
}

#[test]
fn k3_credit_never_exceeds_the_quota_nor_runs_a_clock_backwards() {
    let (seed, _say) = testkit::seeded(0x4b33);
    let mut rng = SplitMix(seed);
    for _ in 0..40 {
        let mut t = Table::new(config("mgimo-2017", "3+2"));
        let mut at = Duration::ZERO;
        for _ in 0..30 {
            let Some(seat) = [WA, BA].into_iter().find(|s| t.m.game().to_move(s.board) == *s) else { break };
            let moves = t.m.game().legal_moves(seat.board);
            if moves.is_empty() || t.result().is_some() {
                break;
            }
            let before = t.clock(at, seat);
            let quota = t.m.lag_quota(seat).remaining();
            let think = ms(rng.below(6000) as u64);
            at += think;
            let client = match rng.below(3) {
                0 => None,
                1 => Some(ms(rng.below(8000) as u64)),
                _ => Some(think.saturating_sub(ms(rng.below(4000) as u64))),
            };
            let mv = moves[rng.below(moves.len())];
            let command = bughouse_match::Command::Move { mv, client_time: client };
            if t.cmd(at, seat, command).is_err() {
                break;
            }
            let EventKind::Moved { charged, credit, .. } = t.m.events().last().unwrap().kind else {
                break;
            };
            assert!(credit <= quota, "K3: credit {credit:?} > quota {quota:?}");
            assert!(charged <= think, "K3: charged {charged:?} more than elapsed {think:?}");
            let after = t.clock(at, seat);
            assert!(after <= before + secs(2), "K3: the clock ran backwards: {before:?} -> {after:?}");
            assert_eq!(after, before.saturating_sub(charged) + secs(2));
        }
    }
}

#[test]
fn k3_lag_constants_are_configurable() {
    let text = r#"
        countdown_ms = 0
        [lag]
        gain_base_ms = 100
        estimate_moves = 20
        gain_divisor = 100
        gain_max_ms = 500
        start_gains = 2
        max_gains = 4
        max_grace_ms = 1000
        [time_controls]
        lightning = "30s+1"
    "#;
    let c = ClockConfig::from_toml(text).unwrap();
    let tc = c.time_control("lightning").unwrap();
    assert_eq!(tc, TimeControl::fischer(secs(30), secs(1)));
    assert_eq!(c.lag.gain(&tc), ms(500), "100 + (30000 + 20 x 1000) / 100 = 600, capped at 500");
    assert_eq!(c.lag.quota(&tc).remaining(), ms(1000));
    assert_eq!(c.time_control("2+1").unwrap(), TimeControl::fischer(secs(120), secs(1)));
    let e = c.time_control("blitz").unwrap_err().to_string();
    assert!(e.contains("configured names: lightning"), "{e}");
    let e = ClockConfig::from_toml("countdown_ms = 0\n[lag]\nbogus = 1").unwrap_err().to_string();
    assert!(e.contains("invalid clock configuration"), "{e}");
    assert_eq!(LagSettings::NONE.quota(&tc).remaining(), Duration::ZERO);
}

#[test]
fn k2_time_controls_parse_and_print() {
    for (text, tc, printed) in [
        ("3+2", TimeControl::fischer(secs(180), secs(2)), "3+2"),
        ("5+d3", TimeControl::delay(secs(300), secs(3)), "5+d3"),
        ("30s+0", TimeControl::fischer(secs(30), Duration::ZERO), "30s+0"),
        ("0.5+0", TimeControl::fischer(secs(30), Duration::ZERO), "30s+0"),
        (" 1 + 500ms ", TimeControl::fischer(secs(60), ms(500)), "1+500ms"),
    ] {
        let parsed: TimeControl = text.parse().unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(parsed, tc, "{text}");
        assert_eq!(parsed.to_string(), printed);
        assert_eq!(printed.parse::<TimeControl>().unwrap(), tc);
    }
    for bad in ["3", "x+1", "0+0", "3+-1", "3+", "+2", "1e3+0", "99999+0", "3+2+1", "3+d"] {
        let e = bad.parse::<TimeControl>().unwrap_err().to_string();
        assert!(e.starts_with("invalid time control"), "{bad}: {e}");
    }
    assert_eq!(ClockConfig::builtin().time_controls.len(), 5);
}

/// Found by fuzzing (fuzz/, target `time_control`): the PGN tag wrote a fractional second as a
/// binary float (`4.4719999999999995`), which reads back a millisecond short.
#[test]
fn k2_pgn_time_control_keeps_every_millisecond() {
    for (text, pgn) in [
        ("354.134+4.4722", "21248.04+4.472"),
        ("3+2", "180+2"),
        ("5+d3", "300+d3"),
        ("1+500ms", "60+0.5"),
        ("30s+0", "30+0"),
        ("10+0.001", "600+0.001"),
    ] {
        let tc: TimeControl = text.parse().unwrap();
        assert_eq!(tc.pgn(), pgn, "{text}");
    }
}
