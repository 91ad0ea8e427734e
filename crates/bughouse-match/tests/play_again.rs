//! The arbiter's replay (RULES.md A2, A5, A6): what was played is annulled and the same match
//! starts again at once — the same seats, rules and time control, both boards back at the start
//! (the same Chess960 position), four full clocks, after the countdown — and the act is in the
//! log with who made it, so a replay of the log gives the same match.

mod common;

use std::time::Duration;

use bughouse::{Game, Seat};
use bughouse_match::{
    ArbiterAct, Claim, Command, Event, EventKind, Match, MatchConfig, Official, Phase, Rejection,
    ReplayReason, Ruling,
};
use chess_core::Role;
use common::*;

fn olga() -> Official {
    Official::Account("olga".into())
}

fn replay(reason: ReplayReason) -> ArbiterAct {
    ArbiterAct::Replay { reason, note: String::new() }
}

/// Four players seated in the order of `Seat::ALL` and ready at zero; the clocks start after
/// the config's countdown.
fn ready(config: MatchConfig, chess960: u16) -> Match {
    let mut m = Match::new(config).unwrap();
    m.choose_chess960(chess960);
    for seat in Seat::ALL {
        m.handle_command(Duration::ZERO, player(seat), Command::TakeSeat(seat)).unwrap();
    }
    for seat in Seat::ALL {
        m.handle_command(Duration::ZERO, player(seat), Command::Ready(true)).unwrap();
    }
    m
}

fn play(m: &mut Match, at: Duration, seat: Seat, text: &str) {
    let mv = m.game().parse_move(seat.board, text).unwrap_or_else(|e| panic!("{text}: {e}"));
    m.handle_command(at, player(seat), Command::Move { mv, client_time: None }).unwrap();
}

fn kinds_from(m: &Match, seq: usize) -> Vec<EventKind> {
    m.events()[seq..].iter().map(|e| e.kind.clone()).collect()
}

/// A5: board A's players find after 1A. e4 1a. e5 1B. d4 that the pieces stood wrongly (three
/// moves or fewer: the game is played again). White-B stops the clocks asking for a replay, the
/// arbiter olga orders it: the same four in the same seats, the standard start on both boards,
/// four full clocks, and the clocks start again after the 3 s countdown.
#[test]
fn a5_a_replay_for_a_wrong_setup_starts_the_same_match_afresh_after_the_countdown() {
    let mut c = config("mgimo-2017", "1+0");
    c.countdown = secs(3);
    let mut m = ready(c.clone(), 0);
    m.handle_timeout(secs(3));
    play(&mut m, secs(5), WA, "e4");
    play(&mut m, secs(6), BA, "e5");
    play(&mut m, secs(8), WB, "d4");
    m.handle_command(secs(9), player(WB), Command::CallArbiter { replay: Some(ReplayReason::WrongSetup) })
        .unwrap();
    assert_eq!(m.phase(), &Phase::Paused { since: secs(9), by: Some(WB) });
    let before = m.events().len();

    m.handle_arbiter(secs(20), olga(), replay(ReplayReason::WrongSetup)).unwrap();

    let fresh = Match::new(c).unwrap();
    assert_eq!(m.game(), fresh.game(), "both boards back at the standard start, reserves empty");
    assert_eq!(m.game().bfen(), format!("{STANDARD} | {STANDARD}"));
    assert_eq!(m.seats(), Seat::ALL.map(|s| Some(player(s))), "the same players in the same seats");
    assert_eq!(m.phase(), &Phase::Countdown { starts_at: secs(23) });
    assert_eq!(m.clocks(secs(20)), [secs(60); 4], "four full clocks");
    assert_eq!(m.running(), [false; 4]);
    assert_eq!(m.occurrences(bughouse::BoardId::A), 1, "the repetition count starts again");
    let acted = Ruling { act: replay(ReplayReason::WrongSetup), by: olga() };
    assert_eq!(
        kinds_from(&m, before),
        [EventKind::Arbiter(acted), EventKind::CountdownStarted { starts_at: secs(23), chess960: None }]
    );
    assert_eq!(m.events()[before].clocks, [secs(60); 4], "the act's event carries the fresh clocks");
    assert_eq!(
        m.events().iter().filter(|e| matches!(e.kind, EventKind::Moved { .. })).count(),
        3,
        "the annulled moves stay in the log"
    );

    // Nobody moves before the new start; then both White clocks start together (K1).
    assert_eq!(
        m.handle_command(
            secs(21),
            player(WA),
            Command::Move { mv: m.game().parse_move(WA.board, "e4").unwrap(), client_time: None }
        ),
        Err(Rejection::NotStarted)
    );
    m.handle_timeout(secs(23));
    assert_eq!(m.phase(), &Phase::Running);
    assert_eq!(m.events().last().map(|e| (e.at, e.kind.clone())), Some((secs(23), EventKind::Started)));
    play(&mut m, secs(25), WA, "d4");
    assert_eq!(m.clocks(secs(30)), [secs(58), secs(55), secs(53), secs(60)]);
}

/// A6: a spectator hinted at a flag; at a player's wish the arbiter orders the game played again.
/// A Chess960 match starts again from its own position (number 0, BBQNNRKR), and what the game
/// had made of the clocks (the increment, a fallen flag under `claim`, the lag quotas) and its
/// draw offers are gone.
#[test]
fn a6_a_replay_for_an_outside_hint_keeps_the_chess960_start_and_clears_the_game() {
    let mut c = claim_mode(config("mgimo-2017", "1+2"));
    c.rules.chess960 = true;
    let mut m = ready(c.clone(), 0);
    let rules = *m.game().rules();
    let start = Game::chess960(0, rules);
    assert_eq!(m.game(), &start);
    play(&mut m, secs(5), WA, "d4");
    play(&mut m, ms(5_500), BA, "d5");
    m.handle_command(secs(6), player(BA), Command::OfferDraw).unwrap();
    // White-B lets his flag fall (he is White, his clock runs from the start); under `claim` it
    // stays down until claimed.
    m.handle_timeout(secs(61));
    assert_eq!(m.fallen_flags(), [false, false, true, false]);
    let quota_after_moves = m.lag_quota(WA);

    m.handle_arbiter(secs(70), Official::Secret, replay(ReplayReason::OutsideHint)).unwrap();

    assert_eq!(m.game(), &start, "both boards back at the same Chess960 position");
    assert_eq!(m.chess960_start(), Some(0));
    assert_eq!(m.start_game(), start);
    assert_eq!(m.phase(), &Phase::Running, "no countdown configured: the clocks start at once");
    assert_eq!(m.clocks(secs(70)), [secs(60); 4]);
    assert_eq!(m.running(), [true, false, true, false]);
    assert_eq!(m.fallen_flags(), [false; 4]);
    assert_eq!(m.draw_offers(), [false; 4]);
    let fresh = Match::new(c).unwrap();
    assert_eq!(m.lag_quota(WA), fresh.lag_quota(WA));
    assert_ne!(quota_after_moves, fresh.lag_quota(WA), "the quota had changed in the annulled game");
    assert_eq!(m.poll_timeout(), Some(secs(130)), "white-A's and white-B's flags fall a minute on");
    let tail: Vec<(Duration, EventKind)> =
        m.events().iter().rev().take(3).rev().map(|e| (e.at, e.kind.clone())).collect();
    assert_eq!(
        tail,
        [
            (
                secs(70),
                EventKind::Arbiter(Ruling { act: replay(ReplayReason::OutsideHint), by: Official::Secret })
            ),
            (secs(70), EventKind::CountdownStarted { starts_at: secs(70), chess960: Some(0) }),
            (secs(70), EventKind::Started),
        ]
    );
    // The annulled game's flag can no longer be claimed.
    assert!(matches!(
        m.handle_command(secs(71), player(WA), Command::Claim(Claim::Flag(WB))),
        Err(Rejection::ClaimRejected(_))
    ));
}

/// A2: a replay concerns a game in play (running or paused): before the start there is nothing
/// to play again, and a decided or annulled match is over. A refused act changes nothing.
#[test]
fn a2_a_replay_is_refused_before_the_start_and_once_the_match_is_over() {
    let mut forming = Match::new(config("mgimo-2017", "1+0")).unwrap();
    assert_eq!(
        forming.handle_arbiter(secs(1), olga(), replay(ReplayReason::Other)),
        Err(Rejection::NotStarted)
    );
    assert!(forming.events().is_empty());

    let mut c = config("mgimo-2017", "1+0");
    c.countdown = secs(3);
    let mut counting = ready(c, 0);
    let logged = counting.events().len();
    assert_eq!(
        counting.handle_arbiter(secs(1), olga(), replay(ReplayReason::Other)),
        Err(Rejection::NotStarted)
    );
    assert_eq!(counting.events().len(), logged);

    let mut t = Table::new(config("mgimo-2017", "1+0"));
    t.cmd(secs(1), WA, Command::Resign).unwrap();
    let logged = t.m.events().len();
    assert_eq!(t.arbiter(secs(2), replay(ReplayReason::OutsideHint)), Err(Rejection::Over));
    assert_eq!(t.m.events().len(), logged);

    let mut t = Table::new(config("mgimo-2017", "1+0"));
    t.arbiter(secs(1), ArbiterAct::Annul { note: "a new match".into() }).unwrap();
    assert_eq!(t.arbiter(secs(2), replay(ReplayReason::WrongSetup)), Err(Rejection::Over));
}

/// A4: the log of a replayed match — as storage keeps it, JSON — replays to the identical match
/// (the act with who made it, the new countdown and start, the second game), and the match can
/// be seen at any instant: the annulled game before the act, the fresh start after it.
#[test]
fn a4_a_replayed_match_restores_from_its_log_exactly() {
    let mut c = config("mgimo-2017", "3+0");
    c.countdown = secs(2);
    let mut m = ready(c.clone(), 0);
    m.handle_timeout(secs(2));
    play(&mut m, secs(3), WA, "e4");
    play(&mut m, secs(4), BA, "d5");
    play(&mut m, secs(5), WA, "exd5");
    m.handle_command(secs(6), player(BA), Command::CallArbiter { replay: Some(ReplayReason::OutsideHint) })
        .unwrap();
    m.handle_arbiter(
        secs(10),
        olga(),
        ArbiterAct::Replay { reason: ReplayReason::OutsideHint, note: "a spectator said \"flag\"".into() },
    )
    .unwrap();
    m.handle_timeout(secs(12));
    play(&mut m, secs(13), WB, "Nf3");

    let json = serde_json::to_string(m.events()).unwrap();
    let log: Vec<Event> = serde_json::from_str(&json).unwrap();
    let restored = Match::replay(c.clone(), &log).unwrap();
    assert_eq!(restored.events(), m.events());
    assert_eq!(restored.game(), m.game());
    assert_eq!(restored.phase(), m.phase());
    assert_eq!(restored.clocks(secs(14)), m.clocks(secs(14)));

    let during = Match::state_at(c.clone(), &log, secs(7)).unwrap();
    assert_eq!(during.game.reserve(BB, Role::Pawn), 1, "the pawn white-A took on d5 went to black-B (C1)");
    assert_eq!(during.phase, Phase::Paused { since: secs(6), by: Some(BA) });
    let after = Match::state_at(c, &log, secs(11)).unwrap();
    assert_eq!(after.game, Match::new(config("mgimo-2017", "3+0")).unwrap().start_game());
    assert_eq!(after.clocks, [secs(180); 4]);
    assert_eq!(after.phase, Phase::Countdown { starts_at: secs(12) });
}

/// K5, A5: a call for a replay is logged with its reason; a call logged before calls had reasons
/// (no `replay` key in the stored JSON) reads back as a plain call and replays.
#[test]
fn k5_a_call_keeps_its_replay_reason_and_an_older_call_reads_back_as_plain() {
    let mut t = Table::new(config("mgimo-2017", "1+0"));
    t.cmd(secs(1), BB, Command::CallArbiter { replay: Some(ReplayReason::WrongSetup) }).unwrap();
    let call = t.m.events().last().unwrap().clone();
    assert_eq!(
        call.kind,
        EventKind::ArbiterCalled { player: player(BB), seat: BB, replay: Some(ReplayReason::WrongSetup) }
    );
    assert_eq!(ReplayReason::WrongSetup.rule(), "A5");
    assert_eq!(ReplayReason::OutsideHint.rule(), "A6");

    let mut t = Table::new(config("mgimo-2017", "1+0"));
    t.cmd(secs(1), BB, Command::CallArbiter { replay: None }).unwrap();
    let mut json = serde_json::to_value(t.m.events()).unwrap();
    let last = json.as_array_mut().unwrap().last_mut().unwrap();
    assert!(
        last["kind"]["ArbiterCalled"].get("replay").is_none(),
        "a plain call is written as before: {last}"
    );
    last["kind"]["ArbiterCalled"].as_object_mut().unwrap().remove("replay");
    let old: Vec<Event> = serde_json::from_value(json).unwrap();
    assert!(matches!(old.last().unwrap().kind, EventKind::ArbiterCalled { replay: None, .. }));
    assert_eq!(Match::replay(t.m.config().clone(), &old).unwrap().events(), &old[..]);
}
