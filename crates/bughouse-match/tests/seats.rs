//! Seats and readiness (S1), the countdown to the start (K1), and refused inputs: each gets a
//! typed reason and changes nothing.

mod common;

use std::time::Duration;

use bughouse::BoardId;
use bughouse_match::{Command, EventKind, Input, Match, Phase, PlayerId, Rejection};
use common::*;

fn cmd(m: &mut Match, at: Duration, p: u64, command: Command) -> Result<(), Rejection> {
    m.handle_command(at, PlayerId(p), command)
}

#[test]
fn s1_players_take_and_leave_seats_and_the_match_starts_when_all_four_are_ready() {
    let mut m = Match::new(config("mgimo-2017", "3+0")).unwrap();
    cmd(&mut m, secs(1), 1, Command::TakeSeat(WA)).unwrap();
    assert_eq!(cmd(&mut m, secs(1), 2, Command::TakeSeat(WA)), Err(Rejection::SeatTaken(WA)));
    assert_eq!(cmd(&mut m, secs(1), 1, Command::TakeSeat(BB)), Err(Rejection::AlreadySeated(WA)));
    assert_eq!(cmd(&mut m, secs(1), 2, Command::Ready(true)), Err(Rejection::NotSeated));
    assert_eq!(cmd(&mut m, secs(1), 2, Command::LeaveSeat), Err(Rejection::NotSeated));
    cmd(&mut m, secs(2), 1, Command::Ready(true)).unwrap();
    cmd(&mut m, secs(2), 1, Command::LeaveSeat).unwrap();
    assert_eq!(m.ready(), [false; 4], "leaving drops readiness");
    for (p, seat) in [(1, BA), (2, WA), (3, WB), (4, BB)] {
        cmd(&mut m, secs(3), p, Command::TakeSeat(seat)).unwrap();
    }
    assert_eq!(m.seat_of(PlayerId(1)), Some(BA));
    for p in 1..=3 {
        cmd(&mut m, secs(4), p, Command::Ready(true)).unwrap();
    }
    cmd(&mut m, secs(4), 3, Command::Ready(false)).unwrap();
    cmd(&mut m, secs(5), 4, Command::Ready(true)).unwrap();
    assert_eq!(m.phase(), &Phase::Forming, "one player withdrew");
    assert_eq!(cmd(&mut m, secs(5), 4, Command::Resign), Err(Rejection::NotStarted));
    cmd(&mut m, secs(6), 3, Command::Ready(true)).unwrap();
    assert_eq!(m.phase(), &Phase::Running);
    assert_eq!(m.events().last().unwrap().kind, EventKind::Started);
    assert_eq!(m.clocks(secs(16)), [secs(170), secs(180), secs(170), secs(180)], "started at 6 s");
    assert_eq!(cmd(&mut m, secs(7), 1, Command::LeaveSeat), Err(Rejection::SeatsLocked));
    assert_eq!(cmd(&mut m, secs(7), 9, Command::TakeSeat(WA)), Err(Rejection::SeatsLocked));
}

#[test]
fn k1_the_countdown_starts_the_clocks_when_it_ends() {
    let mut c = config("mgimo-2017", "3+0");
    c.countdown = secs(3);
    let mut m = Match::new(c).unwrap();
    for (i, seat) in bughouse::Seat::ALL.into_iter().enumerate() {
        cmd(&mut m, secs(1), i as u64, Command::TakeSeat(seat)).unwrap();
        cmd(&mut m, secs(1), i as u64, Command::Ready(true)).unwrap();
    }
    assert_eq!(m.phase(), &Phase::Countdown { starts_at: secs(4) });
    assert_eq!(m.poll_timeout(), Some(secs(4)));
    assert_eq!(cmd(&mut m, secs(2), 0, Command::Ready(false)), Err(Rejection::SeatsLocked));
    let mv = m.game().parse_move(BoardId::A, "e4").unwrap();
    assert_eq!(cmd(&mut m, secs(2), 0, Command::Move { mv, client_time: None }), Err(Rejection::NotStarted));
    m.handle_timeout(secs(10));
    assert_eq!(m.phase(), &Phase::Running);
    let started = m.events().iter().find(|e| e.kind == EventKind::Started).unwrap();
    assert_eq!(started.at, secs(4), "the start is stamped when it was due, not when noticed");
    assert_eq!(m.clocks(secs(10)), [secs(174), secs(180), secs(174), secs(180)]);
}

#[test]
fn k1_moves_are_refused_with_a_typed_reason_and_change_nothing() {
    let a = "4k3/8/8/8/8/8/8/4K3[P] w - - 0 1";
    let mut t = Table::new(with_start(config("mgimo-2017", "3+0"), a, STANDARD));
    let before = (*t.m.game(), t.m.events().len(), t.m.clocks(secs(1)));
    let mv_a = t.m.game().parse_move(BoardId::A, "Kd1").unwrap();
    let mv_b = t.m.game().parse_move(BoardId::B, "e4").unwrap();
    let at = secs(1);
    let refuse = |t: &mut Table, p: PlayerId, mv| {
        t.m.handle_input(at, Input::Player { player: p, command: Command::Move { mv, client_time: None } })
            .unwrap_err()
    };
    assert_eq!(refuse(&mut t, player(WB), mv_a), Rejection::NotYourBoard { seat: WB, board: BoardId::A });
    assert_eq!(refuse(&mut t, player(BA), mv_a), Rejection::NotYourTurn { seat: BA });
    assert_eq!(refuse(&mut t, PlayerId(99), mv_b), Rejection::NotSeated);
    let to: chess_core::Square = "e7".parse().unwrap();
    let drop7 = bughouse::BughouseMove {
        board: BoardId::A,
        mv: chess_core::Move::Drop { role: chess_core::Role::Pawn, to },
        removal: None,
    };
    let e = refuse(&mut t, player(WA), drop7);
    assert_eq!(e.rule(), Some("P2"));
    assert_eq!(e.to_string(), "illegal on board A: pawns may be dropped only on ranks 2-6 (P2)");
    let e = refuse(&mut t, player(WA), mv_b);
    assert_eq!(e, Rejection::NotYourBoard { seat: WA, board: BoardId::B });
    assert_eq!(e.to_string(), "you play white-A, not on board B");
    assert_eq!((*t.m.game(), t.m.events().len(), t.m.clocks(secs(1))), before);
}
