//! A match from a Chess960 start (docs/RULES.md section 9): the driver's random choice becomes the
//! start of both boards when the countdown starts, the log carries it, and a replay of the log
//! starts from it again. A position the arbiter sets keeps the files the rooks started on (P5).

mod common;

use std::time::Duration;

use bughouse::{BoardId, Game, Seat};
use bughouse_match::{ArbiterAct, Command, EventKind, Match, MatchConfig};
use common::*;

fn chess960(countdown: Duration) -> MatchConfig {
    let mut c = config("mgimo-2017", "1+0");
    c.rules.chess960 = true;
    c.countdown = countdown;
    c
}

/// Seats everyone and makes all ready at zero, after the driver drew `n`.
fn ready(c: MatchConfig, n: u16) -> Match {
    let mut m = Match::new(c).unwrap();
    m.choose_chess960(n);
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

#[test]
fn chess960_both_boards_start_from_the_drawn_position_fixed_at_the_countdown() {
    let mut m = ready(chess960(secs(3)), 0);
    let rules = *m.game().rules();
    assert_eq!(m.game(), &Game::chess960(0, rules), "BBQNNRKR on both boards");
    let countdown = m.events().iter().find_map(|e| match e.kind {
        EventKind::CountdownStarted { starts_at, chess960 } => Some((starts_at, chess960)),
        _ => None,
    });
    assert_eq!(countdown, Some((secs(3), Some(0))));
    assert_eq!((m.chess960_start(), m.start_game()), (Some(0), Game::chess960(0, rules)));
    // Drawn again after the countdown started: too late, nothing changes.
    m.choose_chess960(1);
    m.handle_timeout(secs(3));
    assert_eq!(m.game(), &Game::chess960(0, rules));
    // Chess960 castling in play: clear c1, d1 and e1, then the king on g1 castles with the f1
    // rook queen side and ends on c1, the rook on d1 (FIDE appendix F).
    for (i, (seat, text)) in
        [(WA, "Nc3"), (BA, "Nc6"), (WA, "Nf3"), (BA, "Nf6"), (WA, "d3"), (BA, "d6"), (WA, "Qd2"), (BA, "Qd7")]
            .into_iter()
            .enumerate()
    {
        play(&mut m, secs(4 + i as u64), seat, text);
    }
    play(&mut m, secs(12), WA, "O-O-O");
    let fen = m.game().board(BoardId::A).fen();
    assert_eq!(fen.split(['/', '[']).nth(7), Some("BBKR3R"), "{fen}");
}

#[test]
fn chess960_a_replay_of_the_log_starts_from_the_same_position() {
    for countdown in [Duration::ZERO, secs(3)] {
        let mut m = ready(chess960(countdown), 737);
        m.handle_timeout(countdown);
        play(&mut m, countdown + secs(1), WB, "e4");
        let replayed = Match::replay(m.config().clone(), m.events()).unwrap();
        assert_eq!(replayed.events(), m.events(), "countdown {countdown:?}");
        assert_eq!(replayed.game(), m.game());
        assert_ne!(m.game().board(BoardId::A), &chess_core::Position::new());
    }
}

#[test]
fn chess960_off_the_drawn_number_is_ignored_and_not_logged() {
    let mut c = config("mgimo-2017", "1+0");
    c.countdown = secs(3);
    let m = ready(c, 0);
    assert_eq!(m.game(), &Game::new(*m.game().rules()));
    assert!(
        m.events()
            .iter()
            .any(|e| e.kind == EventKind::CountdownStarted { starts_at: secs(3), chess960: None })
    );
}

/// Chess960 position 342, `NRBKQBRN`: kings on d1/d8, rooks on b and g.
const START_342: &str = "nrbkqbrn/pppppppp/8/8/8/8/PPPPPPPP/NRBKQBRN[] w GBgb - 0 1";

/// A position the arbiter sets on board A of a match from [`START_342`] (32 units a colour): both
/// sides' rooks, a knight and a bishop in the reserves, no right left, neither king moved.
/// `castling` is the castling field.
fn lost_rights(castling: &str) -> String {
    format!("3kqb1n/pppppppp/8/8/8/8/PPPPPPPP/3KQB1N[RRBNrrbn] w {castling} - 0 12 | {START_342}")
}

/// After the arbiter set `bfen` in a match from `start` (a Chess960 number, or the standard
/// start): whether White-A castles queen side after dropping a rook on `square`.
fn castles_after_set_position(start: Option<u16>, bfen: &str, square: &str) -> bool {
    let mut c = config("mgimo-2017", "3+0");
    c.rules.chess960 = start.is_some();
    let mut t = Table::new_with(c.clone(), |m| m.choose_chess960(start.unwrap_or(0)));
    assert_eq!(t.m.chess960_start(), start);
    t.arbiter(secs(1), ArbiterAct::SetPosition { bfen: bfen.to_owned() })
        .unwrap_or_else(|e| panic!("{bfen}: {e}"));
    t.play(secs(2), WA, &format!("R@{square}"));
    t.play(secs(3), BA, "Ng6");
    let castles = t.m.game().parse_move(BoardId::A, "O-O-O").is_ok();
    if castles {
        t.play(secs(4), WA, "O-O-O");
        let rank = t.m.game().board(BoardId::A).fen();
        assert_eq!(rank.split(['/', '[']).nth(7), Some("2KRQB1N"), "{rank}");
    }
    // A replay of the log sets the same position.
    let replayed = Match::replay(c, t.m.events()).unwrap();
    assert_eq!(replayed.game(), t.m.game());
    castles
}

#[test]
fn p5_a2_chess960_start_files_survive_the_arbiters_set_position() {
    // Written out in the BFEN: the files b and g.
    let written = lost_rights("Uu(bg)");
    assert!(castles_after_set_position(Some(342), &written, "b1"));
    assert!(!castles_after_set_position(Some(342), &written, "a1"));
    // Left out: the match's start gives them.
    let left_out = lost_rights("Uu");
    assert!(castles_after_set_position(Some(342), &left_out, "b1"));
    assert!(!castles_after_set_position(Some(342), &left_out, "a1"));
    // In a match from the standard start the corners are a1 and h1.
    assert!(castles_after_set_position(None, &left_out, "a1"));
    assert!(!castles_after_set_position(None, &left_out, "b1"));
}

#[test]
fn p5_a2_the_set_position_is_written_back_with_its_start_files() {
    let mut c = config("mgimo-2017", "3+0");
    c.rules.chess960 = true;
    let mut t = Table::new_with(c, |m| m.choose_chess960(342));
    assert_eq!(t.m.game().bfen(), format!("{START_342} | {START_342}"));
    t.arbiter(secs(1), ArbiterAct::SetPosition { bfen: lost_rights("Uu") }).unwrap();
    assert_eq!(t.m.game().bfen(), lost_rights("Uu(bg)"));
}
