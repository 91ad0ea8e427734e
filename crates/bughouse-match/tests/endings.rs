//! Endings on virtual time: mate on board (E1, E2 online), draws by agreement (E3), repetition
//! (E4), the move rules (E5), resignation (E10).

mod common;

use bughouse::{BoardId, DrawKind, Reason, Team};
use bughouse_match::{Claim, Command, EventKind, Rejection};
use common::*;

/// White mates at once with Nf7 (a smothered king, M1).
const MATE_FOR_WHITE: &str = "6rk/6pp/8/6N1/8/8/8/K7[] w - - 0 1";

#[test]
fn e1_mate_on_board_wins_for_the_mating_players_team() {
    let mut t = Table::new(with_start(config("mgimo-2017", "3+0"), STANDARD, MATE_FOR_WHITE));
    t.play(secs(2), WB, "Nf7");
    assert_eq!(t.result(), win(Team::Two, Reason::MateOnBoard(WB)));
    let kinds = t.kinds();
    assert!(matches!(kinds[kinds.len() - 2], EventKind::Moved { .. }));
    assert!(matches!(kinds[kinds.len() - 1], EventKind::Ended(_)));
    // The clocks stop at the mate.
    assert_eq!(t.m.clocks(secs(100)), [secs(178), secs(180), secs(178), secs(180)]);
    assert_eq!(t.m.poll_timeout(), None);
}

#[test]
fn e2_outside_a_flag_window_the_first_mate_ends_the_match_so_a_later_one_is_refused() {
    // E2 (mates by both teams weigh as a draw) needs two mates recorded before the match is
    // stopped, as over the board. Online, with no flag's grace window open (K4), the first mate
    // ends the match at once; inside one, see flag_window.rs.
    let mut t = Table::new(with_start(config("mgimo-2017", "3+0"), MATE_FOR_WHITE, MATE_FOR_WHITE));
    t.play(ms(1000), WA, "Nf7");
    assert_eq!(t.try_play(ms(1001), WB, "Nf7", None), Err(Rejection::Over));
    assert_eq!(t.result(), win(Team::One, Reason::MateOnBoard(WA)));
}

#[test]
fn e3_one_board_agreement_of_the_two_players_of_a_board_draws_the_match() {
    let mut t = Table::new(config("mgimo-2017", "3+0"));
    t.cmd(secs(1), WA, Command::OfferDraw).unwrap();
    assert_eq!(t.cmd(secs(1), WA, Command::OfferDraw), Err(Rejection::AlreadyOffered));
    t.cmd(secs(2), WB, Command::OfferDraw).unwrap();
    assert_eq!(t.result(), None, "offers on different boards do not agree");
    t.cmd(secs(3), BA, Command::OfferDraw).unwrap();
    assert_eq!(t.result(), draw(Reason::BoardDrawn(BoardId::A, DrawKind::Agreement)));
    assert_eq!(t.result().unwrap().reason.rule(), "E3");
}

#[test]
fn e3_both_boards_needs_all_four_players() {
    let mut t = Table::new(config("classic", "3+0"));
    for (i, seat) in [WA, BA, WB].into_iter().enumerate() {
        t.cmd(secs(i as u64 + 1), seat, Command::OfferDraw).unwrap();
        assert_eq!(t.result(), None);
    }
    t.cmd(secs(5), BB, Command::OfferDraw).unwrap();
    assert_eq!(t.result(), draw(Reason::BoardDrawn(BoardId::B, DrawKind::Agreement)));
}

#[test]
fn e3_an_offer_is_declined_by_answer_or_by_moving() {
    let mut t = Table::new(config("mgimo-2017", "3+0"));
    assert_eq!(t.cmd(secs(1), BA, Command::DeclineDraw), Err(Rejection::NoDrawOffer));
    t.cmd(secs(1), WA, Command::OfferDraw).unwrap();
    t.cmd(secs(2), BA, Command::DeclineDraw).unwrap();
    assert_eq!(t.m.draw_offers(), [false; 4]);
    t.play(secs(3), WA, "e4");
    t.cmd(secs(4), WA, Command::OfferDraw).unwrap();
    t.play(secs(5), BA, "e5");
    assert_eq!(t.m.draw_offers(), [false; 4], "moving instead of answering declines");
    t.cmd(secs(6), BA, Command::OfferDraw).unwrap();
    assert_eq!(t.result(), None, "a new offer, not an acceptance");
}

fn knight_cycle(t: &mut Table, start: u64) -> u64 {
    let mut at = start;
    for (seat, mv) in [(WA, "Nf3"), (BA, "Nf6"), (WA, "Ng1"), (BA, "Ng8")] {
        at += 1;
        t.play(secs(at), seat, mv);
    }
    at
}

#[test]
fn e4_threefold_repetition_may_be_claimed_by_either_player_of_the_board() {
    let mut t = Table::new(config("mgimo-2017", "10+0"));
    let at = knight_cycle(&mut t, 0);
    let e = t.claim(secs(at), BA, Claim::Repetition).unwrap_err();
    assert_eq!(
        e.to_string(),
        "claim rejected: the position on board A has occurred 2 time(s); 3 are needed (E4)"
    );
    let at = knight_cycle(&mut t, at);
    assert_eq!(t.m.occurrences(BoardId::A), 3);
    let e = t.claim(secs(at), WB, Claim::Repetition).unwrap_err();
    assert!(e.to_string().contains("board B has occurred 1 time"), "a claim is about the claimant's board");
    t.claim(secs(at), WA, Claim::Repetition).unwrap();
    assert_eq!(t.result(), draw(Reason::BoardDrawn(BoardId::A, DrawKind::Repetition)));
}

#[test]
fn e4_the_reserves_of_the_board_are_part_of_the_position() {
    let mut t = Table::new(config("mgimo-2017", "10+0"));
    let at = knight_cycle(&mut t, 0);
    // A capture on board B puts a pawn into Black-A's reserve: board A's position is new.
    t.play(secs(at + 1), WB, "e4");
    t.play(secs(at + 2), BB, "d5");
    t.play(secs(at + 3), WB, "exd5");
    let at = knight_cycle(&mut t, at + 3);
    assert_eq!(t.m.occurrences(BoardId::A), 2);
    assert!(matches!(t.claim(secs(at), BA, Claim::Repetition), Err(Rejection::ClaimRejected(_))));
}

#[test]
fn e4_fivefold_repetition_draws_by_itself() {
    let mut t = Table::new(config("mgimo-2017", "10+0"));
    let mut at = 0;
    for _ in 0..3 {
        at = knight_cycle(&mut t, at);
    }
    assert_eq!(t.result(), None);
    knight_cycle(&mut t, at);
    assert_eq!(t.result(), draw(Reason::BoardDrawn(BoardId::A, DrawKind::Repetition)));
}

#[test]
fn e5_fifty_moves_may_be_claimed() {
    let a = "4k3/8/8/8/8/8/8/R3K3[] w - - 99 60";
    let mut t = Table::new(with_start(config("mgimo-2017", "3+0"), a, STANDARD));
    let e = t.claim(secs(1), BA, Claim::FiftyMoves).unwrap_err();
    assert!(e.to_string().contains("99 halfmove(s)"), "{e}");
    t.play(secs(1), WA, "Ra2");
    t.claim(secs(2), BA, Claim::FiftyMoves).unwrap();
    assert_eq!(t.result(), draw(Reason::BoardDrawn(BoardId::A, DrawKind::MoveRule)));
}

#[test]
fn e5_seventy_five_moves_draw_by_themselves() {
    let a = "4k3/8/8/8/8/8/8/R3K3[] w - - 149 80";
    let mut t = Table::new(with_start(config("mgimo-2017", "3+0"), a, STANDARD));
    t.play(secs(1), WA, "Ra2");
    assert_eq!(t.result(), draw(Reason::BoardDrawn(BoardId::A, DrawKind::MoveRule)));
}

#[test]
fn e5_a_drop_counts_like_a_pawn_move() {
    let a = "4k3/8/8/8/8/8/8/R3K3[N] w - - 99 60";
    let mut t = Table::new(with_start(config("mgimo-2017", "3+0"), a, STANDARD));
    t.play(secs(1), WA, "N@c3");
    assert_eq!(t.m.game().halfmoves(BoardId::A), 0);
    assert!(t.claim(secs(2), BA, Claim::FiftyMoves).is_err());
}

#[test]
fn e10_resignation_ends_the_match_at_once() {
    let mut t = Table::new(config("mgimo-2017", "3+0"));
    t.play(secs(1), WA, "e4");
    t.cmd(secs(2), BB, Command::Resign).unwrap();
    assert_eq!(t.result(), win(Team::Two, Reason::Resignation(BB)));
    assert_eq!(t.cmd(secs(3), WA, Command::Resign), Err(Rejection::Over));
}

#[test]
fn e10_e9_a_resignation_weighs_flags_already_in_the_window_first() {
    let mut t = Table::new(config("mgimo-2017", "1+0"));
    t.play(secs(1), WB, "e4");
    t.play(secs(2), BB, "e5");
    t.wait(ms(60_100));
    // WA's flag fell first; his opponent's resignation inside the window comes too late.
    t.cmd(ms(60_200), BA, Command::Resign).unwrap();
    assert_eq!(t.result(), win(Team::Two, Reason::Flag(WA)));
}
