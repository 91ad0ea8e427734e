//! K4 `auto`: the endings recorded inside one flag's grace window are held and weighed together
//! by E1–E9 when the window closes (RULES.md section 10), in the orders issue 33 names: a draw then
//! a mate, a mate then a draw, mates by both teams, a flag then a draw and a mate. Each is checked
//! at 1+0 and with increments (1+2, 2+12), where the grace differs: White-A's quota at his flag is
//! 3 gains — 390 ms at 1+0 (1.17 s), 710 ms at 1+2 (2.13 s, so the 2 s cap), 1 s at 2+12 (2 s).

mod common;

use std::time::Duration;

use bughouse::{BoardId, DrawKind, Reason, Stalemate, Team};
use bughouse_match::{ArbiterAct, Claim, Command, EventKind, Match, Rejection};
use common::*;

/// Board A where White mates at once with Nf7 (a smothered king: a knight's check cannot be
/// blocked, M1).
const A_MATE_FOR_WHITE: &str = "6rk/6pp/8/6N1/8/8/8/K7[] w - - 0 1";
/// Board B where White mates at once with Nf7, the same smothered king.
const B_MATE_FOR_WHITE: &str = "6rk/6pp/8/6N1/8/8/8/K7[] w - - 0 1";
/// Board B where Black mates at once with Nf2 (smothered), Black to move.
const B_MATE_FOR_BLACK: &str = "4k3/8/8/8/4n3/8/B5PP/6RK[] b - - 0 1";
/// Board B where White's Qf7 leaves Black's lone king on h8 without a move and not in check.
const B_STALEMATE_BY_WHITE: &str = "7k/8/6Q1/8/8/8/8/K7[] w - - 0 1";
/// Board A with bare kings after 50 moves without a capture, pawn move or drop (E5 claimable).
const A_FIFTY_MOVES: &str = "4k3/8/8/8/8/8/8/4K3[] w - - 100 60";

/// The controls checked: (spec, base in ms, the grace of White-A's flag in ms).
const CONTROLS: [(&str, u64, u64); 3] =
    [("1+0", 60_000, 1_170), ("1+2", 60_000, 2_000), ("2+12", 120_000, 2_000)];

/// A table where White-A (team 1) is the only clock that can run out: his flag falls at `base`
/// (he never moves), board B's players have 1000 s more.
fn table(tc: &str, a: &str, b: &str, stalemate: Stalemate) -> Table {
    let mut c = with_start(config("mgimo-2017", tc), a, b);
    c.rules.stalemate = stalemate;
    Table::board_a_only(c)
}

/// What the players were told after the start, with when: the wire's story of the match.
fn story(t: &Table) -> Vec<(Duration, String)> {
    let start = t.m.events().iter().position(|e| e.kind == EventKind::Started).unwrap();
    t.m.events()[start + 1..]
        .iter()
        .map(|e| {
            let what = match &e.kind {
                EventKind::FlagFell { seat } => format!("flag {seat}"),
                EventKind::DrawOffered { seat, .. } => format!("draw offer {seat}"),
                EventKind::Moved { seat, .. } => format!("move {seat}"),
                EventKind::Claimed { seat, claim, .. } => format!("claim {claim:?} {seat}"),
                EventKind::Resigned { seat, .. } => format!("resign {seat}"),
                EventKind::Ended(adj) => format!("ended: {adj}"),
                other => format!("{other:?}"),
            };
            (e.at, what)
        })
        .collect()
}

fn told(list: &[(u64, &str)]) -> Vec<(Duration, String)> {
    list.iter().map(|&(at, what)| (ms(at), what.to_string())).collect()
}

/// The log replays to the identical match (A4): holding endings depends on nothing but the inputs
/// and their times. Not the result alone (issue 60): the events, what is held and pending, the
/// clocks, the boards, and the match as it stood at every event's instant.
fn replays(t: &Table) {
    let again = Match::replay(t.m.config().clone(), t.m.events()).expect("the log replays");
    assert_eq!(again.result(), t.result());
    assert_eq!(again.events(), t.m.events(), "the same log, event for event");
    assert_eq!(again.phase(), t.m.phase());
    assert_eq!(again.fallen_flags(), t.m.fallen_flags());
    assert_eq!(again.held_endings(), t.m.held_endings(), "the same endings held");
    assert_eq!(again.draw_offers(), t.m.draw_offers());
    assert_eq!(again.running(), t.m.running());
    assert_eq!(again.game(), t.m.game(), "the same boards and reserves");
    let now = t.m.now();
    assert_eq!(again.clocks(now), t.m.clocks(now));
    for event in t.m.events() {
        assert_eq!(again.snapshot(event.at), t.m.snapshot(event.at), "the match at {:?}", event.at);
    }
}

/// (1) A draw, then a mate, inside White-A's window: the mate wins (E9), although the draw was
/// recorded first. The mate is White-A's own, on its way when his flag fell: the client thought
/// `base − 0.5 s`, and the 1 s of lag is inside his quota, so the move is in time and withdraws
/// the flag (K3).
#[test]
fn k4_e9_a_draw_then_a_mate_in_one_window_the_mate_wins() {
    for (tc, base, grace) in CONTROLS {
        let mut t = table(tc, A_MATE_FOR_WHITE, STANDARD, Stalemate::Wait);
        t.wait(ms(base));
        assert_eq!(t.m.fallen_flags(), [true, false, false, false], "{tc}");
        t.cmd(ms(base + 200), WB, Command::OfferDraw).unwrap();
        t.cmd(ms(base + 300), BB, Command::OfferDraw).unwrap();
        assert_eq!(t.result(), None, "{tc}: the draw on B is held while the window is open");
        t.try_play(ms(base + 500), WA, "Nf7", Some(ms(base - 500))).unwrap();
        assert_eq!(t.m.fallen_flags(), [false; 4], "{tc}: the credited move withdrew the flag");
        assert_eq!(t.result(), None, "{tc}: a mate of team 2 could still come before the window closes");
        t.wait(ms(base + grace - 1));
        assert_eq!(t.result(), None, "{tc}");
        t.wait(ms(base + grace));
        assert_eq!(t.result(), win(Team::One, Reason::MateOnBoard(WA)), "{tc}");
        assert_eq!(t.result().unwrap().reason.rule(), "E1");
        assert_eq!(
            story(&t),
            told(&[
                (base, "flag white-A"),
                (base + 200, "draw offer white-B"),
                (base + 300, "draw offer black-B"),
                (base + 500, "move white-A"),
                (base + grace, "ended: team 1 wins: mate on board by white-A (E1)"),
            ]),
            "{tc}"
        );
        let moved = t.m.events().iter().find(|e| matches!(e.kind, EventKind::Moved { .. })).unwrap();
        let EventKind::Moved { credit, charged, .. } = moved.kind else { unreachable!() };
        assert_eq!((credit, charged), (ms(1_000), ms(base - 500)), "{tc}");
        replays(&t);
    }
}

/// M3 under `stalemate = draw`: a stalemate on B inside White-A's window is a draw recorded in it,
/// and White-A's credited mate arriving later still wins (E9).
#[test]
fn k4_m3_e9_a_stalemate_draw_then_a_mate_in_one_window_the_mate_wins() {
    for (tc, base, grace) in CONTROLS {
        let mut t = table(tc, A_MATE_FOR_WHITE, B_STALEMATE_BY_WHITE, Stalemate::Draw);
        t.wait(ms(base));
        t.play(ms(base + 100), WB, "Qf7");
        assert!(t.m.game().is_stalemate_draw(BoardId::B), "{tc}");
        assert_eq!(t.result(), None, "{tc}: the stalemate is held while the window is open");
        t.try_play(ms(base + 400), WA, "Nf7", Some(ms(base - 400))).unwrap();
        t.wait(ms(base + grace));
        assert_eq!(t.result(), win(Team::One, Reason::MateOnBoard(WA)), "{tc}");
        assert_eq!(t.when(|k| matches!(k, EventKind::Ended(_))), Some(ms(base + grace)), "{tc}");
        replays(&t);
    }
}

/// (2) A mate, then a draw, inside White-A's window: the mate wins. White-A's partner mates on B;
/// White-A's opponent then accepts the draw White-A offered on A before his flag fell. Both are
/// recorded (nothing is refused while the window is open) and weighed together with the flag.
#[test]
fn k4_e9_a_mate_then_a_draw_in_one_window_the_mate_wins() {
    for (tc, base, grace) in CONTROLS {
        let mut t = table(tc, STANDARD, B_MATE_FOR_BLACK, Stalemate::Wait);
        t.cmd(secs(1), WA, Command::OfferDraw).unwrap();
        t.wait(ms(base));
        t.play(ms(base + 300), BB, "Nf2");
        assert!(t.m.game().is_mate_on_board(BoardId::B), "{tc}");
        assert_eq!(t.result(), None, "{tc}: the mate is held while the window is open");
        t.cmd(ms(base + 600), BA, Command::OfferDraw).unwrap();
        assert_eq!(t.result(), None, "{tc}");
        t.wait(ms(base + grace));
        assert_eq!(t.result(), win(Team::One, Reason::MateOnBoard(BB)), "{tc}");
        assert_eq!(
            story(&t),
            told(&[
                (1_000, "draw offer white-A"),
                (base, "flag white-A"),
                (base + 300, "move black-B"),
                (base + 600, "draw offer black-A"),
                (base + grace, "ended: team 1 wins: mate on board by black-B (E1)"),
            ]),
            "{tc}"
        );
        assert_eq!(t.cmd(ms(base + grace), WB, Command::OfferDraw), Err(Rejection::Over), "{tc}");
        replays(&t);
    }
}

/// (3) Mates by both teams inside one window draw (E2), in either order: the other team's mate
/// first, or White-A's credited mate first (it withdraws his flag, but the window stays open to
/// its deadline). Nothing recorded later can change a mutual mate, so it is settled at once.
#[test]
fn k4_e2_mates_by_both_teams_in_one_window_draw_in_either_order() {
    for (tc, base, grace) in CONTROLS {
        for white_a_first in [false, true] {
            let mut t = table(tc, A_MATE_FOR_WHITE, B_MATE_FOR_WHITE, Stalemate::Wait);
            t.wait(ms(base));
            let (first, second) = if white_a_first { (WA, WB) } else { (WB, WA) };
            for (seat, at) in [(first, base + 300), (second, base + 500)] {
                // White-A's client thought until 0.5 s before his flag: 0.8 s or 1 s of lag.
                let client = (seat == WA).then(|| ms(base - 500));
                t.try_play(ms(at), seat, "Nf7", client).unwrap();
                if seat == first {
                    assert_eq!(t.result(), None, "{tc}, {first} first: the first mate is held");
                }
            }
            assert_eq!(t.result(), draw(Reason::MutualMate), "{tc}, {first} first");
            assert_eq!(t.result().unwrap().reason.rule(), "E2");
            let ended = t.when(|k| matches!(k, EventKind::Ended(_)));
            assert_eq!(ended, Some(ms(base + 500)), "{tc}: settled at the second mate, inside the window");
            assert!(ended.unwrap() < ms(base + grace));
            assert_eq!(t.m.poll_timeout(), None, "{tc}");
            replays(&t);
        }
    }
}

/// (4) A flag, then a draw and a mate after it inside its window: the mate wins (E9), and White-A's
/// flag counts for nothing although his own team mates. The draw is claimed (E5) by White-A's
/// opponent; the mate is White-A's partner's on B.
#[test]
fn k4_e9_a_flag_then_a_claimed_draw_and_a_mate_in_one_window_the_mate_wins() {
    for (tc, base, grace) in CONTROLS {
        let mut t = table(tc, A_FIFTY_MOVES, B_MATE_FOR_BLACK, Stalemate::Wait);
        t.wait(ms(base));
        t.claim(ms(base + 200), BA, Claim::FiftyMoves).unwrap();
        assert_eq!(t.result(), None, "{tc}: the claimed draw is held while the window is open");
        t.play(ms(base + 400), BB, "Nf2");
        assert_eq!(t.result(), None, "{tc}");
        // White-A's own move is too late even with his lag credited: refused, the flag stands.
        let late = t.try_play(ms(base + 600), WA, "Kd1", Some(ms(base + 100)));
        assert_eq!(late, Err(Rejection::FlagFell(WA)), "{tc}");
        t.wait(ms(base + grace));
        assert_eq!(t.result(), win(Team::One, Reason::MateOnBoard(BB)), "{tc}");
        assert_eq!(
            story(&t),
            told(&[
                (base, "flag white-A"),
                (base + 200, "claim FiftyMoves black-A"),
                (base + 400, "move black-B"),
                (base + grace, "ended: team 1 wins: mate on board by black-B (E1)"),
            ]),
            "{tc}"
        );
        replays(&t);
    }
}

/// Without a mate the held draw beats the flag when the window closes (E8, E9): the draw is not
/// settled when it is recorded, but no later than the window's deadline.
#[test]
fn k4_e8_a_draw_in_the_window_is_settled_when_it_closes() {
    for (tc, base, grace) in CONTROLS {
        let mut t = table(tc, STANDARD, STANDARD, Stalemate::Wait);
        t.wait(ms(base));
        t.cmd(ms(base + 100), WB, Command::OfferDraw).unwrap();
        t.cmd(ms(base + 200), BB, Command::OfferDraw).unwrap();
        assert_eq!(t.result(), None, "{tc}");
        assert_eq!(t.m.poll_timeout(), Some(ms(base + grace)), "{tc}: the driver wakes at the deadline");
        t.wait(ms(base + grace));
        assert_eq!(t.result(), draw(Reason::BoardDrawn(BoardId::B, DrawKind::Agreement)), "{tc}");
        assert_eq!(t.when(|k| matches!(k, EventKind::Ended(_))), Some(ms(base + grace)), "{tc}");
        replays(&t);
    }
}

/// E10 inside the window (RULES.md section 10): the endings already held are weighed before the
/// resignation, which settles the window at once. A draw held on B beats White-A's flag and his
/// own resignation after it.
#[test]
fn e10_k4_a_resignation_inside_the_window_weighs_the_held_draw_first() {
    let (tc, base, _) = CONTROLS[0];
    let mut t = table(tc, STANDARD, STANDARD, Stalemate::Wait);
    t.wait(ms(base));
    t.cmd(ms(base + 100), WB, Command::OfferDraw).unwrap();
    t.cmd(ms(base + 200), BB, Command::OfferDraw).unwrap();
    t.cmd(ms(base + 300), WA, Command::Resign).unwrap();
    assert_eq!(t.result(), draw(Reason::BoardDrawn(BoardId::B, DrawKind::Agreement)));
    assert_eq!(t.when(|k| matches!(k, EventKind::Ended(_))), Some(ms(base + 300)));
    replays(&t);
}

/// Time the arbiter adds withdraws White-A's flag (A2), but the window stays open to its deadline
/// with the draw it holds; a pause (K5) then moves that deadline on by its length, and the draw is
/// settled when the window closes after all.
#[test]
fn k4_k5_a2_added_time_and_a_pause_inside_the_window_keep_what_it_holds() {
    let (tc, base, grace) = CONTROLS[0];
    let mut t = table(tc, STANDARD, STANDARD, Stalemate::Wait);
    t.wait(ms(base));
    t.cmd(ms(base + 100), WB, Command::OfferDraw).unwrap();
    t.cmd(ms(base + 200), BB, Command::OfferDraw).unwrap();
    t.arbiter(ms(base + 300), ArbiterAct::AdjustClock { seat: WA, delta_ms: 10_000 }).unwrap();
    assert_eq!(t.m.fallen_flags(), [false; 4]);
    assert_eq!(t.result(), None, "the window still holds the draw");
    t.arbiter(ms(base + 400), ArbiterAct::Pause).unwrap();
    t.arbiter(ms(base + 10_400), ArbiterAct::Resume).unwrap();
    assert_eq!(t.m.poll_timeout(), Some(ms(base + grace + 10_000)), "moved on by the 10 s pause");
    t.wait(ms(base + grace + 10_000));
    assert_eq!(t.result(), draw(Reason::BoardDrawn(BoardId::B, DrawKind::Agreement)));
    replays(&t);
}

/// A match stored before the window held its endings has no `window_holds_endings` in its stored
/// config: it reads as `false` and its log replays as it was played — the draw agreed inside the
/// window settled it at once, and the later mate was refused.
#[test]
fn k4_a_match_stored_before_the_window_held_endings_replays_as_it_was_played() {
    let (tc, base, _) = CONTROLS[0];
    let mut stored =
        serde_json::to_value(with_start(config("mgimo-2017", tc), A_MATE_FOR_WHITE, STANDARD)).unwrap();
    stored.as_object_mut().unwrap().remove("window_holds_endings");
    let old: bughouse_match::MatchConfig = serde_json::from_value(stored).unwrap();
    assert!(!old.window_holds_endings);
    let mut t = Table::board_a_only(old);
    t.wait(ms(base));
    t.cmd(ms(base + 200), WB, Command::OfferDraw).unwrap();
    t.cmd(ms(base + 300), BB, Command::OfferDraw).unwrap();
    assert_eq!(t.result().map(|r| r.reason.rule()), Some("E3"), "the agreed draw settled the window at once");
    assert_eq!(t.try_play(ms(base + 500), WA, "Nf7", Some(ms(base - 500))), Err(Rejection::Over));
    replays(&t);
}
