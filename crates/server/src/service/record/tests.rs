//! The record replays the match the players had (RULES.md A4, A2): random matches under both
//! presets and Chess960, with random arbiter acts among their moves (take-backs on either board,
//! clock adjustments, corrected positions that keep C2, pauses by the arbiter and by the server
//! as at a restart, calls, flags, replays, declared results), are exported as BPGN, read back and
//! replayed by the records crate; at every event the replay's position, reserves, four clocks and
//! match time equal the match's own, and the check of A1 finds no impossible move.

use std::time::Duration;

use bughouse::{BoardId, MatchResult, RuleOptions, Seat, Team};
use bughouse_match::{
    ArbiterAct, Command, Event, EventKind, Input, Match, MatchConfig, Official, Phase, PlayerId,
    ReplayReason, Ruling, TimeControl,
};
use shvedka_records::{ActKind, StepKind, check_record, parse_bpgn};
use testkit::SplitMix;

/// What the records crate keeps of a clock: whole milliseconds, so a reading placed from two
/// recorded times and one recorded reading is within this of the match's own.
const CLOCK_PRECISION_MS: u64 = 2;

fn random_config(rng: &mut SplitMix) -> MatchConfig {
    let mut rules = RuleOptions::preset(if rng.coin() { "mgimo-2017" } else { "classic" }).unwrap();
    rules.chess960 = rng.below(3) == 0;
    let tc = ["30s+0", "1+1", "10s+2"][rng.below(3)];
    let mut c = MatchConfig::new(rules, tc.parse::<TimeControl>().unwrap());
    c.countdown = if rng.coin() { Duration::ZERO } else { Duration::from_secs(3) };
    c
}

fn reason(rng: &mut SplitMix) -> ReplayReason {
    [ReplayReason::WrongSetup, ReplayReason::OutsideHint, ReplayReason::Other][rng.below(3)]
}

fn random_act(rng: &mut SplitMix, m: &Match, earlier: &[String]) -> (Official, ArbiterAct) {
    let by = match rng.below(4) {
        0 => Official::Secret,
        _ => Official::Account("alice".into()),
    };
    let act = match rng.below(14) {
        0 | 1 => ArbiterAct::Pause,
        2..=4 => ArbiterAct::Resume,
        5 | 6 => ArbiterAct::AdjustClock {
            seat: Seat::ALL[rng.below(4)],
            delta_ms: rng.below(120_000) as i64 - 20_000,
        },
        7..=9 => ArbiterAct::TakeBack { board: BoardId::ALL[rng.below(2)] },
        10 if !earlier.is_empty() => {
            ArbiterAct::SetPosition { bfen: earlier[rng.below(earlier.len())].clone() }
        }
        11 if rng.below(8) == 0 => ArbiterAct::Replay { reason: reason(rng), note: "set up again".into() },
        12 if rng.below(12) == 0 => ArbiterAct::DeclareResult {
            result: [MatchResult::Draw, MatchResult::Win(Team::One)][rng.below(2)],
            note: "the arbiter's \"ruling\" [A2]".into(),
        },
        // A restart: the server pauses the match it restores, and resumes it.
        13 => {
            return (
                Official::Server,
                if m.phase() == &Phase::Running { ArbiterAct::Pause } else { ArbiterAct::Resume },
            );
        }
        _ => ArbiterAct::SetPosition { bfen: m.game().bfen() },
    };
    (by, act)
}

fn player(seat: Seat) -> PlayerId {
    PlayerId(seat.index() as u64 + 1)
}

/// A random match, and the position after each of its events.
fn random_match(seed: u64) -> (Match, Vec<String>) {
    let mut rng = SplitMix(seed);
    let mut m = Match::new(random_config(&mut rng)).unwrap();
    m.choose_chess960(rng.below(960) as u16);
    let mut after: Vec<String> = Vec::new();
    // The events an input brings: the consequences of time passing before it (a flag) saw the
    // boards as they were; the input's own event and what follows it, as they are now.
    let note = |m: &Match, after: &mut Vec<String>, before: &str| {
        let new = &m.events()[after.len()..];
        let own = new.iter().position(|e| e.kind.input().is_some()).unwrap_or(new.len());
        for i in 0..new.len() {
            after.push(if i < own { before.to_owned() } else { m.game().bfen() });
        }
    };
    for seat in Seat::ALL {
        m.handle_command(Duration::ZERO, player(seat), Command::TakeSeat(seat)).unwrap();
    }
    if rng.coin() {
        // An adjustment before the start: negative match time.
        let act = ArbiterAct::AdjustClock { seat: Seat::ALL[rng.below(4)], delta_ms: 5_000 };
        m.handle_arbiter(Duration::ZERO, Official::Account("alice".into()), act).unwrap();
    }
    for seat in Seat::ALL {
        m.handle_command(Duration::from_millis(10), player(seat), Command::Ready(true)).unwrap();
    }
    note(&m, &mut after, "");
    let mut at = Duration::from_millis(10);
    let mut earlier = Vec::new();
    for _ in 0..300 {
        if matches!(m.phase(), Phase::Ended(_) | Phase::Annulled) {
            break;
        }
        // Nanoseconds too, as a real clock gives them.
        at += Duration::from_nanos(1_000_000 * (1 + rng.below(2500) as u64) + rng.below(1_000_000) as u64);
        if rng.below(5) == 0 {
            let before = m.game().bfen();
            m.handle_timeout(at);
            note(&m, &mut after, &before);
        }
        let paused = matches!(m.phase(), Phase::Paused { .. });
        let input = if rng.below(if paused { 2 } else { 12 }) == 0 {
            let (by, act) = random_act(&mut rng, &m, &earlier);
            Input::Arbiter(Ruling { act, by })
        } else {
            let board = BoardId::ALL[rng.below(2)];
            let seat = m.game().to_move(board);
            let command = match rng.below(60) {
                0 => Command::CallArbiter { replay: rng.coin().then(|| reason(&mut rng)) },
                _ => {
                    let moves = m.game().legal_moves(board);
                    if moves.is_empty() {
                        continue;
                    }
                    let client_time = rng.coin().then(|| Duration::from_millis(rng.below(3000) as u64));
                    Command::Move { mv: moves[rng.below(moves.len())], client_time }
                }
            };
            Input::Player { player: player(seat), command }
        };
        let before = m.game().bfen();
        let _ = m.handle_input(at, input);
        note(&m, &mut after, &before);
        if rng.below(6) == 0 {
            earlier.push(m.game().bfen());
        }
    }
    let before = m.game().bfen();
    m.handle_timeout(at + Duration::from_secs(120));
    note(&m, &mut after, &before);
    (m, after)
}

/// Whether the record has a step for this event.
fn recorded(e: &Event, first_start: bool) -> bool {
    match &e.kind {
        EventKind::Moved { .. }
        | EventKind::Arbiter(_)
        | EventKind::ArbiterCalled { .. }
        | EventKind::FlagFell { .. }
        | EventKind::Resigned { .. }
        | EventKind::Ended(_) => true,
        EventKind::Started => !first_start,
        _ => false,
    }
}

#[test]
fn a4_a2_the_record_replays_every_event_as_the_match_had_it() {
    let (base, _say) = testkit::seeded(0xA4A2);
    let (mut matches, mut events, mut acts, mut taken_back) = (0, 0, 0, 0);
    for n in 0..40u64 {
        let seed = base ^ (n << 12);
        let (m, after) = random_match(seed);
        let names = [Some("a".into()), Some("b".into()), Some("c".into()), Some("d".into())];
        let record = super::record(n, &m, &names, &[None; 4], "2026.12.02");
        let text = record.to_bpgn();
        let read = parse_bpgn(&text).unwrap_or_else(|e| panic!("seed {seed}: {e}\n{text}"));
        assert_eq!(read, vec![record.clone()], "seed {seed}: the record reads back as written\n{text}");
        let rules = m.config().rules.rules().unwrap();
        let timeline = read[0].timeline(rules).unwrap();
        assert!(timeline.timed(), "seed {seed}");
        // A draw a window holds is an act after the event that made it (a move, an agreement,
        // a claim), not an event of its own.
        let held_draw =
            |k: &StepKind| matches!(k, StepKind::Act(a) if matches!(a.kind, ActKind::Draw { .. }));
        let steps: Vec<_> =
            timeline.steps().iter().filter(|s| s.kind != StepKind::Start && !held_draw(&s.kind)).collect();
        let origin = m.events().iter().find(|e| e.kind == EventKind::Started).map(|e| e.at).unwrap();
        let mut first_start = true;
        let mut k = 0;
        for (i, e) in m.events().iter().enumerate() {
            let is_start = e.kind == EventKind::Started;
            if !recorded(e, first_start) {
                first_start &= !is_start;
                continue;
            }
            first_start &= !is_start;
            let step = steps
                .get(k)
                .unwrap_or_else(|| panic!("seed {seed}: no step for event {i} {:?}\n{text}", e.kind));
            k += 1;
            let at = |d: Duration| d.as_millis() as i64;
            let t = if e.at >= origin { at(e.at - origin) } else { -at(origin - e.at) };
            assert_eq!(step.at_ms, Some(t), "seed {seed}: event {i} {:?}: its match time", e.kind);
            assert_eq!(step.game.bfen(), after[i], "seed {seed}: event {i} {:?}: the boards\n{text}", e.kind);
            for seat in Seat::ALL {
                let want = e.clocks[seat.index()].as_millis() as u64;
                let got = step.clocks.get(seat).unwrap();
                assert!(
                    want.abs_diff(got) <= CLOCK_PRECISION_MS,
                    "seed {seed}: event {i} {:?}: {seat}'s clock {got} against the match's {want}\n{text}",
                    e.kind
                );
            }
            assert!(step.impossible.is_none(), "seed {seed}: event {i}: {:?}", step.impossible);
            events += 1;
            if let StepKind::Act(a) = &step.kind {
                acts += 1;
                taken_back += usize::from(matches!(a.kind, ActKind::Played(_)));
            }
        }
        assert_eq!(k, steps.len(), "seed {seed}: a step for every recorded event and no more");
        let report = check_record(&read[0], rules);
        assert!(report.is_clean(), "seed {seed}: {report}\n{text}");
        matches += 1;
    }
    eprintln!("{matches} matches, {events} events, {acts} acts ({taken_back} moves taken back or annulled)");
    assert!(acts > 200 && taken_back > 20, "the random matches had acts: {acts}, {taken_back}");
}

/// E1, E6, E9, K4 from the server's own record: black-B's flag falls, and white-A's mate comes
/// inside its grace window; the record explains the result with every rule that decided it.
#[test]
fn e1_e6_e9_k4_the_record_explains_a_mate_inside_a_flags_window() {
    use shvedka_records::{Happening, Weighing};
    let rules = RuleOptions::preset("mgimo-2017").unwrap();
    let mut config = MatchConfig::new(rules, "30s+0".parse::<TimeControl>().unwrap());
    config.countdown = Duration::ZERO;
    let mut m = Match::new(config).unwrap();
    for seat in Seat::ALL {
        m.handle_command(Duration::ZERO, player(seat), Command::TakeSeat(seat)).unwrap();
    }
    for seat in Seat::ALL {
        m.handle_command(Duration::ZERO, player(seat), Command::Ready(true)).unwrap();
    }
    let ms = Duration::from_millis;
    let play = |m: &mut Match, at: u64, seat: Seat, text: &str| {
        let mv = m.game().parse_move(seat.board, text).unwrap();
        m.handle_command(ms(at), player(seat), Command::Move { mv, client_time: None }).unwrap();
    };
    let [wa, ba, wb, _bb] = Seat::ALL;
    play(&mut m, 100, wb, "d4");
    for (at, seat, text) in [
        (200, wa, "e4"),
        (300, ba, "e5"),
        (400, wa, "Bc4"),
        (500, ba, "Nc6"),
        (600, wa, "Qh5"),
        (700, ba, "Nf6"),
    ] {
        play(&mut m, at, seat, text);
    }
    // black-B's 30 s run out at 30.1 s; white-A mates 0.1 s later, inside the window.
    m.handle_timeout(ms(30_150));
    play(&mut m, 30_200, wa, "Qxf7#");
    m.handle_timeout(ms(40_000));
    let Phase::Ended(adj) = m.phase() else { panic!("decided: {:?}", m.phase()) };
    assert_eq!(adj.reason.rule(), "E1");
    let record = super::record(1, &m, &[None, None, None, None], &[None; 4], "2026.12.02");
    let read = &parse_bpgn(&record.to_bpgn()).unwrap()[0];
    let e = read.explain(m.config().rules.rules().unwrap()).unwrap();
    let what: Vec<_> = e.lines.iter().map(|l| (l.what.clone(), l.in_window)).collect();
    assert_eq!(
        what,
        [
            (Happening::Flag { seat: Seat::ALL[3] }, true),
            (Happening::Mate { mated: Seat::ALL[1], by: "4A. Qxf7#".into() }, true),
            (Happening::Ended, true),
        ]
    );
    assert_eq!(e.lines[0].at_ms, Some(30_100), "the flag at the instant the clock reached zero");
    assert_eq!(e.weighing, [Weighing::MateOverFlag]);
    assert_eq!(e.rules, ["E1", "K4", "E6", "E9"]);
}

/// E9, K4 from the server's own record: black-B's flag falls; inside its window the players of
/// board A agree a draw (held, E3) and then white-A mates: the record carries the held draw as an
/// act, and the explanation weighs the mate over the flag and over the draw.
#[test]
fn e9_k4_the_record_carries_a_draw_held_in_a_window_and_the_mate_that_beat_it() {
    use shvedka_records::{DrawCause, Happening, Weighing};
    let rules = RuleOptions::preset("mgimo-2017").unwrap();
    let mut config = MatchConfig::new(rules, "30s+0".parse::<TimeControl>().unwrap());
    config.countdown = Duration::ZERO;
    let mut m = Match::new(config).unwrap();
    for seat in Seat::ALL {
        m.handle_command(Duration::ZERO, player(seat), Command::TakeSeat(seat)).unwrap();
    }
    for seat in Seat::ALL {
        m.handle_command(Duration::ZERO, player(seat), Command::Ready(true)).unwrap();
    }
    let ms = Duration::from_millis;
    let play = |m: &mut Match, at: u64, seat: Seat, text: &str| {
        let mv = m.game().parse_move(seat.board, text).unwrap();
        m.handle_command(ms(at), player(seat), Command::Move { mv, client_time: None }).unwrap();
    };
    let [wa, ba, wb, _bb] = Seat::ALL;
    play(&mut m, 100, wb, "d4");
    for (at, seat, text) in [
        (200, wa, "e4"),
        (300, ba, "e5"),
        (400, wa, "Bc4"),
        (500, ba, "Nc6"),
        (600, wa, "Qh5"),
        (700, ba, "Nf6"),
    ] {
        play(&mut m, at, seat, text);
    }
    m.handle_timeout(ms(30_150));
    m.handle_command(ms(30_160), player(ba), Command::OfferDraw).unwrap();
    m.handle_command(ms(30_170), player(wa), Command::OfferDraw).unwrap();
    assert!(!matches!(m.phase(), Phase::Ended(_)), "the window holds the draw");
    play(&mut m, 30_200, wa, "Qxf7#");
    m.handle_timeout(ms(40_000));
    let Phase::Ended(adj) = m.phase() else { panic!("decided: {:?}", m.phase()) };
    assert_eq!(adj.reason.rule(), "E1", "a mate beats a draw in the window (E9)");
    let record = super::record(1, &m, &[None, None, None, None], &[None; 4], "2026.12.02");
    let text = record.to_bpgn();
    let read = &parse_bpgn(&text).unwrap()[0];
    let draws: Vec<_> = read.all_acts().filter(|a| matches!(a.kind, ActKind::Draw { .. })).collect();
    assert_eq!(draws.len(), 1, "{text}");
    assert_eq!(draws[0].kind, ActKind::Draw { board: BoardId::A, cause: DrawCause::Agreed });
    assert_eq!(draws[0].at_ms, Some(30_170), "at the agreement");
    let e = read.explain(m.config().rules.rules().unwrap()).unwrap();
    let what: Vec<_> = e.lines.iter().map(|l| (l.what.clone(), l.in_window)).collect();
    assert_eq!(
        what,
        [
            (Happening::Flag { seat: Seat::ALL[3] }, true),
            (Happening::Draw { board: BoardId::A, cause: DrawCause::Agreed }, true),
            (Happening::Mate { mated: Seat::ALL[1], by: "4A. Qxf7#".into() }, true),
            (Happening::Ended, true),
        ]
    );
    assert_eq!(e.weighing, [Weighing::MateOverFlag, Weighing::MateOverDraw]);
    assert_eq!(e.rules, ["E1", "K4", "E6", "E9"]);
}
