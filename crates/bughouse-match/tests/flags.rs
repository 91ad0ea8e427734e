//! Flags on virtual time (K4) and how they are weighed against other endings (E1, E6–E9):
//! `auto` mode with its lag grace window, and `claim` mode.

mod common;

use bughouse::{BoardId, Reason, Team};
use bughouse_match::{ArbiterAct, Claim, Command, EventKind, Rejection};
use common::*;

/// Board B where Black mates at once with Nf2 (a smothered king: knight checks cannot be
/// blocked, M1), after a tempo each: Ke8-d8 and Ba2-b1.
const B_MATE_FOR_BLACK: &str = "4k3/8/8/8/4n3/8/B5PP/6RK[] b - - 0 1";
/// Board A where White mates at once with Nf7.
const A_MATE_FOR_WHITE: &str = "6rk/6pp/8/6N1/8/8/8/K7[] w - - 0 1";

#[test]
fn k4_auto_flag_falls_at_zero_and_is_settled_after_the_grace() {
    let mut t = Table::new(config("mgimo-2017", "1+0"));
    t.play(secs(1), WB, "e4");
    t.play(secs(2), BB, "e5");
    t.play(secs(3), WB, "d4");
    t.play(secs(4), BB, "d5");
    assert_eq!(t.m.poll_timeout(), Some(secs(60)), "WA's clock reaches zero first");
    t.wait(secs(60));
    assert_eq!(t.when(|k| matches!(k, EventKind::FlagFell { seat } if *seat == WA)), Some(secs(60)));
    assert_eq!(t.result(), None, "a flag waits out its grace window");
    // Grace: the flagged player's quota (3 gains of 390 ms), at most 2 s.
    assert_eq!(t.m.poll_timeout(), Some(ms(61_170)));
    t.wait(ms(61_169));
    assert_eq!(t.result(), None);
    t.wait(ms(61_170));
    assert_eq!(t.result(), win(Team::Two, Reason::Flag(WA)));
    assert_eq!(t.when(|k| matches!(k, EventKind::Ended(_))), Some(ms(61_170)));
    assert_eq!(t.m.events().last().unwrap().clocks[WA.index()], ms(0));
    assert_eq!(t.try_play(ms(61_200), WA, "e4", Some(secs(58))), Err(Rejection::Over));
}

#[test]
fn k4_grace_is_at_most_two_seconds() {
    let mut t = Table::board_a_only(config("mgimo-2017", "10+5"));
    assert!(t.m.lag_quota(WA).remaining() > secs(2));
    t.wait(secs(600));
    assert_eq!(t.when(|k| matches!(k, EventKind::FlagFell { .. })), Some(secs(600)));
    assert_eq!(t.m.poll_timeout(), Some(secs(602)));
}

#[test]
fn k4_k3_a_move_that_lag_credit_brings_inside_the_time_withdraws_the_flag() {
    let mut t = Table::board_a_only(config("mgimo-2017", "1+0"));
    t.wait(ms(60_100));
    assert!(t.when(|k| matches!(k, EventKind::FlagFell { seat } if *seat == WA)).is_some());
    // Too late even with the lag credited: refused, and the flag stands.
    let late = t.try_play(ms(60_500), WA, "e4", Some(ms(60_100)));
    assert_eq!(late, Err(Rejection::FlagFell(WA)));
    // The client thought 59.4 s; 1.1 s of lag is inside the 1.17 s quota.
    t.try_play(ms(60_500), WA, "e4", Some(ms(59_400))).unwrap();
    assert_eq!(t.clock(ms(60_500), WA), ms(600));
    assert_eq!(t.m.fallen_flags(), [false; 4]);
    t.wait(secs(62));
    assert_eq!(t.result(), None, "the window closed with nothing in it");
}

#[test]
fn e1_e6_e9_mate_on_board_inside_the_grace_window_beats_the_flag() {
    let c = with_start(config("mgimo-2017", "1+0"), STANDARD, B_MATE_FOR_BLACK);
    let mut t = Table::new(c);
    t.play(secs(1), BB, "Kd8");
    t.play(secs(2), WB, "Bb1");
    t.wait(secs(60));
    assert!(t.when(|k| matches!(k, EventKind::FlagFell { seat } if *seat == WA)).is_some());
    // WA's partner mates inside the window: his team wins although WA's flag is down. The mate is
    // held until the window closes (a mate of the other team could still arrive in it, E2).
    t.play(ms(60_500), BB, "Nf2");
    assert_eq!(t.result(), None);
    t.wait(ms(61_170));
    assert_eq!(t.result(), win(Team::One, Reason::MateOnBoard(BB)));
    assert_eq!(t.result().unwrap().reason.rule(), "E1");
}

#[test]
fn e6_a_mate_after_the_window_closed_is_too_late() {
    let c = with_start(config("mgimo-2017", "1+0"), STANDARD, B_MATE_FOR_BLACK);
    let mut t = Table::new_with(c, |m| {
        m.handle_arbiter(secs(0), arbiter(), ArbiterAct::AdjustClock { seat: BB, delta_ms: 10_000 }).unwrap();
    });
    t.play(secs(1), BB, "Kd8");
    t.play(secs(2), WB, "Bb1");
    t.wait(ms(61_170));
    assert_eq!(t.try_play(ms(61_171), BB, "Nf2", None), Err(Rejection::Over));
    assert_eq!(t.result(), win(Team::Two, Reason::Flag(WA)));
}

#[test]
fn e7_flags_of_two_crosswise_players_draw() {
    let mut t = Table::new_with(config("mgimo-2017", "1+0"), |m| {
        m.handle_arbiter(secs(0), arbiter(), ArbiterAct::AdjustClock { seat: WB, delta_ms: 500 }).unwrap();
    });
    t.wait(secs(70));
    assert_eq!(t.when(|k| matches!(k, EventKind::FlagFell { seat } if *seat == WA)), Some(secs(60)));
    assert_eq!(t.when(|k| matches!(k, EventKind::FlagFell { seat } if *seat == WB)), Some(ms(60_500)));
    assert_eq!(t.result(), draw(Reason::FlagsOfBothTeams));
    assert_eq!(t.when(|k| matches!(k, EventKind::Ended(_))), Some(ms(60_500 + 1_170)), "the last grace");
}

#[test]
fn e7_flags_of_two_partners_lose_for_their_team() {
    let mut t = Table::new(config("mgimo-2017", "1+0"));
    t.play(secs(1), WB, "e4");
    t.wait(secs(70));
    assert_eq!(t.when(|k| matches!(k, EventKind::FlagFell { seat } if *seat == BB)), Some(secs(61)));
    assert_eq!(t.result(), win(Team::Two, Reason::Flag(WA)));
}

#[test]
fn e7_flags_of_both_players_of_one_board_draw_in_claim_mode() {
    let mut t = Table::board_a_only(claim_mode(config("mgimo-2017", "1+0")));
    t.wait(secs(61));
    assert_eq!(t.m.fallen_flags(), [true, false, false, false]);
    assert_eq!(t.result(), None, "under claim a fallen flag waits for a claim");
    t.play(secs(61), WA, "e4");
    t.wait(secs(122));
    assert_eq!(t.m.fallen_flags(), [true, true, false, false]);
    t.claim(secs(122), WB, Claim::Flag(WA)).unwrap();
    assert_eq!(t.result(), draw(Reason::FlagsOfBothTeams));
}

#[test]
fn e8_e9_a_draw_on_one_board_with_a_flag_on_the_other_is_a_draw() {
    let mut t = Table::new(config("mgimo-2017", "1+0"));
    t.play(secs(1), WB, "e4");
    t.play(secs(2), BB, "e5");
    t.wait(secs(60));
    t.cmd(ms(60_200), WB, Command::OfferDraw).unwrap();
    t.cmd(ms(60_500), BB, Command::OfferDraw).unwrap();
    // The draw is held in WA's window (closing at 61.17 s). White-B's clock still runs: his flag
    // falls at 61 s inside the window and keeps it open for his own grace (4 gains, 1.56 s).
    t.wait(ms(61_170));
    assert_eq!(t.when(|k| matches!(k, EventKind::FlagFell { seat } if *seat == WB)), Some(secs(61)));
    assert_eq!(t.result(), None);
    t.wait(ms(62_560));
    assert_eq!(t.result(), draw(Reason::BoardDrawn(BoardId::B, bughouse::DrawKind::Agreement)));
    assert_eq!(t.when(|k| matches!(k, EventKind::Ended(_))), Some(ms(62_560)));
}

#[test]
fn k4_claim_mode_flag_counts_only_when_the_other_team_claims_it() {
    let mut t = Table::new(claim_mode(config("mgimo-2017", "1+0")));
    t.play(secs(1), WB, "e4");
    assert_eq!(
        t.claim(secs(30), BA, Claim::Flag(WA)).unwrap_err().to_string(),
        "claim rejected: white-A's flag has not fallen (K4)"
    );
    t.wait(secs(60));
    assert!(t.m.fallen_flags()[WA.index()]);
    // A flagged player may keep moving until the claim.
    t.play(secs(65), WA, "e4");
    assert_eq!(t.clock(secs(65), WA), secs(0));
    let own = t.claim(secs(66), BB, Claim::Flag(WA)).unwrap_err();
    assert!(matches!(own, Rejection::ClaimRejected(bughouse_match::ClaimFailure::OwnTeamFlag(_))), "{own}");
    // The partner of the opponent may fix a flag on the neighbouring clock.
    t.claim(secs(66), WB, Claim::Flag(WA)).unwrap();
    assert_eq!(t.result(), win(Team::Two, Reason::Flag(WA)));
}

#[test]
fn k3_k4_claim_mode_a_move_that_lag_credit_brings_inside_the_time_lifts_the_flag() {
    let mut t = Table::board_a_only(claim_mode(config("mgimo-2017", "1+0")));
    t.wait(ms(60_100));
    assert!(t.m.fallen_flags()[WA.index()], "the clock read zero at 60 s");
    // The client thought 59.4 s; 1.1 s of lag is inside the 1.17 s quota: the clock is back at
    // 0.6 s, so the flag never fell and Black-A's claim fails.
    t.try_play(ms(60_500), WA, "e4", Some(ms(59_400))).unwrap();
    assert_eq!(t.clock(ms(60_500), WA), ms(600));
    assert_eq!(t.m.fallen_flags(), [false; 4]);
    let claim = t.claim(secs(61), BA, Claim::Flag(WA)).unwrap_err();
    assert_eq!(claim.to_string(), "claim rejected: white-A's flag has not fallen (K4)");
    assert_eq!(t.result(), None);
    // A move still late after its credit leaves the flag down, and the claim then succeeds.
    t.play(secs(62), BA, "e5");
    t.wait(ms(62_700));
    assert!(t.m.fallen_flags()[WA.index()], "0.6 s later the clock reads zero again");
    t.try_play(secs(63), WA, "d4", Some(ms(900))).unwrap();
    assert_eq!(t.clock(secs(63), WA), ms(0));
    assert!(t.m.fallen_flags()[WA.index()]);
    t.claim(ms(63_100), BA, Claim::Flag(WA)).unwrap();
    assert_eq!(t.result(), win(Team::Two, Reason::Flag(WA)));
}

#[test]
fn e1_claim_mode_a_player_whose_flag_fell_unclaimed_can_still_mate_and_win() {
    let c = with_start(claim_mode(config("mgimo-2017", "1+0")), A_MATE_FOR_WHITE, STANDARD);
    let mut t = Table::new(c);
    t.wait(secs(70));
    assert!(t.m.fallen_flags()[WA.index()]);
    t.play(secs(70), WA, "Nf7");
    assert_eq!(t.result(), win(Team::One, Reason::MateOnBoard(WA)));
}

#[test]
fn k4_flags_cannot_be_claimed_under_auto() {
    let mut t = Table::new(config("mgimo-2017", "1+0"));
    let e = t.claim(secs(1), BA, Claim::Flag(WA)).unwrap_err();
    assert_eq!(e.to_string(), "claim rejected: flags fall by themselves under flag = auto (K4)");
}

/// K4 under `claim` (RULES.md section 10): only the lag credit of the move in whose turn the flag
/// fell withdraws it. A move made after the fall, not brought inside the time by its credit,
/// still earns its increment; the next move made inside that increment must not lift the flag, so
/// the other team's later claim holds. Checked at 1+2 and 2+12 (1+0 has no increment to hide it).
#[test]
fn k4_claim_mode_the_increment_never_lifts_a_fallen_flag() {
    for (tc, base, inc) in [("1+2", 60, 2), ("2+12", 120, 12)] {
        let mut t = Table::board_a_only(claim_mode(config("mgimo-2017", tc)));
        t.wait(secs(base + 1));
        assert!(t.m.fallen_flags()[WA.index()], "{tc}: the clock read zero at {base} s");
        // Late by 5 s, with no lag to credit: the move stands (a flagged player may move until the
        // claim), the increment is added, and the flag stays down.
        t.try_play(secs(base + 5), WA, "e4", Some(secs(base + 5))).unwrap();
        assert_eq!(t.clock(secs(base + 5), WA), secs(inc), "{tc}: the increment is added");
        assert!(t.m.fallen_flags()[WA.index()], "{tc}: a late move leaves the flag down");
        t.play(secs(base + 6), BA, "e5");
        // Inside the increment: in time for this move, but the flag fell before.
        t.try_play(secs(base + 6) + ms(500), WA, "d4", Some(ms(500))).unwrap();
        assert!(t.m.fallen_flags()[WA.index()], "{tc}: the increment does not lift the flag");
        t.claim(secs(base + 7), BA, Claim::Flag(WA)).unwrap();
        assert_eq!(t.result(), win(Team::Two, Reason::Flag(WA)), "{tc}");
    }
}
