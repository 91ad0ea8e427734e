//! RULES.md A1: what is wrong with a record is said in both languages from the records crate's
//! facts — every kind of impossible move (`Wrong`), of move that cannot be carried out (`Stuck`),
//! of illegal board (`Broken`) and of ending of the check (`Undecided`) — and the Russian has no
//! English word left: every Latin token is a square, a rule id, a board, a seat's letter, a move's
//! label or castling's notation.
//!
//! The lists are checked against exhaustive matches (`index`): a new variant does not compile until
//! it has an index, and the test fails until it is in the list.

use bughouse::{BoardId, Illegal, Seat};
use chess_core::{CastlingSide, Color, Role, Square};
use shvedka_records::{Broken, Castling, CheckEnd, Stuck, Undecided, Wrong};
use shvedka_tui::{Lang, wrong_words};

fn sq(s: &str) -> Square {
    s.parse().expect("a square")
}

/// A Latin token a Russian sentence may hold.
fn allowed(token: &str) -> bool {
    let square = token.len() == 2
        && token.as_bytes()[0].is_ascii_lowercase()
        && (b'a'..=b'h').contains(&token.as_bytes()[0])
        && (b'1'..=b'8').contains(&token.as_bytes()[1]);
    let rule = token.len() >= 2
        && token.as_bytes()[0].is_ascii_uppercase()
        && token[1..].chars().all(|c| c.is_ascii_digit() || c.is_ascii_lowercase());
    // A move's number and board in its label (`3A.`).
    let number = token.as_bytes()[0].is_ascii_digit();
    square || rule || number || matches!(token, "A" | "B" | "O-O" | "O-O-O" | "BFEN" | "FIDE")
}

fn check(what: &str, en: &str, ru: &str) {
    for (lang, text) in [("en", en), ("ru", ru)] {
        assert!(!text.trim().is_empty(), "{lang} {what}: empty");
        assert!(!text.contains('‹') && !text.contains('{'), "{lang} {what}: a missing message: {text}");
    }
    assert!(ru.chars().any(|c| ('а'..='я').contains(&c)), "{what}: not Russian: {ru}");
    for token in ru.split(|c: char| !(c.is_ascii_alphanumeric() || c == '-')).filter(|t| !t.is_empty()) {
        let token = token.trim_matches('-');
        if token.chars().any(|c| c.is_ascii_alphabetic()) {
            assert!(allowed(token), "{what}: an English word «{token}» in: {ru}");
        }
    }
    assert_ne!(en, ru, "{what}");
}

fn wrongs() -> Vec<Wrong> {
    fn index(w: &Wrong) -> usize {
        match w {
            Wrong::OutOfTurn { .. } => 0,
            Wrong::CapturesKing { .. } => 1,
            Wrong::Rules(_) => 2,
            Wrong::DroppedRookCastles => 3,
            Wrong::TakesNewPiece { .. } => 4,
            Wrong::NothingToRemove { .. } => 5,
            Wrong::UpgradeRemovesNothing => 6,
            Wrong::Castling { .. } => 7,
            Wrong::MustPromote => 8,
            Wrong::VanishingLeavesCheck { .. } => 9,
            Wrong::KingRookSwap { .. } => 10,
            Wrong::NoSuchPiece { .. } => 11,
            Wrong::CannotReach { .. } => 12,
            Wrong::LeavesCheck { .. } => 13,
            Wrong::NotLegal => 14,
            Wrong::Unreadable { .. } => 15,
            Wrong::BadPosition(_) => 16,
        }
    }
    let cross = Seat::new(BoardId::B, Color::Black);
    let mut all = vec![
        Wrong::OutOfTurn { board: BoardId::A, turn: Color::White },
        Wrong::CapturesKing { king: Color::Black, on: sq("e8") },
        Wrong::Rules(Illegal::NotInReserve { seat: Seat::new(BoardId::B, Color::White), role: Role::Pawn }),
        Wrong::Rules(Illegal::PawnRank { first: 2, last: 6 }),
        Wrong::Rules(Illegal::DropMates),
        Wrong::DroppedRookCastles,
        Wrong::TakesNewPiece { crosswise: cross, role: Role::Queen },
        Wrong::NothingToRemove { crosswise: cross, role: Role::Knight },
        Wrong::UpgradeRemovesNothing,
        Wrong::MustPromote,
        Wrong::VanishingLeavesCheck { color: Color::White },
        Wrong::KingRookSwap { color: Color::White, king: sq("e1"), rook: sq("h1") },
        Wrong::NoSuchPiece { color: Color::White, role: Some(Role::Knight), on: None },
        Wrong::NoSuchPiece { color: Color::Black, role: None, on: Some(sq("d4")) },
        Wrong::CannotReach { color: Color::White, role: Some(Role::Knight), capture: false, to: sq("f3") },
        Wrong::CannotReach { color: Color::Black, role: None, capture: true, to: sq("e4") },
        Wrong::LeavesCheck { color: Color::Black },
        Wrong::NotLegal,
        Wrong::Unreadable { ambiguous: true, detail: "ENGLISH".into() },
        Wrong::Unreadable { ambiguous: false, detail: "ENGLISH".into() },
        Wrong::BadPosition("ENGLISH".into()),
    ];
    for why in [
        None,
        Some(Castling::KingMoved),
        Some(Castling::NoRook),
        Some(Castling::InCheck),
        Some(Castling::Blocked(sq("f1"))),
        Some(Castling::Attacked(sq("f1"))),
    ] {
        all.push(Wrong::Castling { side: CastlingSide::KingSide, color: Color::White, why });
    }
    let mut seen: Vec<usize> = all.iter().map(index).collect();
    seen.sort_unstable();
    seen.dedup();
    assert_eq!(seen, (0..=16).collect::<Vec<_>>(), "every kind of wrong move is in the list");
    all
}

fn stucks() -> Vec<Stuck> {
    fn index(s: Stuck) -> usize {
        match s {
            Stuck::OutOfTurn(_) => 0,
            Stuck::NotOneMove => 1,
            Stuck::DropOccupied(_) => 2,
            Stuck::FromOutside(_) => 3,
            Stuck::Castling => 4,
            Stuck::Units { .. } => 5,
            Stuck::NothingOn(_) => 6,
            Stuck::OwnPiece { .. } => 7,
            Stuck::KingCaptured { .. } => 8,
            Stuck::NothingToTake { .. } => 9,
            Stuck::KingRemoved { .. } => 10,
            Stuck::NotCrosswises { .. } => 11,
            Stuck::PieceNotThere => 12,
            Stuck::WhichPiece => 13,
        }
    }
    let all = vec![
        Stuck::OutOfTurn(Seat::new(BoardId::A, Color::Black)),
        Stuck::NotOneMove,
        Stuck::DropOccupied(sq("e4")),
        Stuck::FromOutside(Role::Queen),
        Stuck::Castling,
        Stuck::Units { color: Color::White, was: 16, is: 17 },
        Stuck::NothingOn(sq("e2")),
        Stuck::OwnPiece { to: sq("e2"), color: Color::White },
        Stuck::KingCaptured { king: Color::Black, on: sq("e8") },
        Stuck::NothingToTake { square: sq("d1"), board: BoardId::B },
        Stuck::KingRemoved { square: sq("e1"), board: BoardId::B },
        Stuck::NotCrosswises {
            square: sq("d1"),
            board: BoardId::B,
            crosswise: Seat::new(BoardId::B, Color::Black),
        },
        Stuck::PieceNotThere,
        Stuck::WhichPiece,
    ];
    let mut seen: Vec<usize> = all.iter().map(|s| index(*s)).collect();
    seen.dedup();
    assert_eq!(seen, (0..=13).collect::<Vec<_>>(), "every kind of stuck move is in the list");
    all
}

fn brokens() -> Vec<Broken> {
    fn index(b: Broken) -> usize {
        match b {
            Broken::Kings { .. } => 0,
            Broken::PawnOnEdge(_) => 1,
            Broken::WaitingInCheck { .. } => 2,
        }
    }
    let all = vec![
        Broken::Kings { color: Color::White, count: 2 },
        Broken::PawnOnEdge(sq("b8")),
        Broken::WaitingInCheck { waiting: Color::Black },
    ];
    assert_eq!(all.iter().map(|b| index(*b)).collect::<Vec<_>>(), [0, 1, 2]);
    all
}

#[test]
fn a1_every_impossible_move_is_said_in_both_languages() {
    for w in wrongs() {
        let (en, ru) = (wrong_words::wrong(Lang::En, &w), wrong_words::wrong(Lang::Ru, &w));
        check(&format!("{w:?}"), &en, &ru);
        assert!(!en.contains("ENGLISH") && !ru.contains("ENGLISH"), "{w:?}: the parser's words: {en} / {ru}");
    }
}

#[test]
fn a1_every_move_that_cannot_be_carried_out_and_every_illegal_board_is_said_in_both_languages() {
    for s in stucks() {
        check(&format!("{s:?}"), &wrong_words::stuck(Lang::En, s), &wrong_words::stuck(Lang::Ru, s));
    }
    for b in brokens() {
        check(&format!("{b:?}"), &wrong_words::broken(Lang::En, b), &wrong_words::broken(Lang::Ru, b));
        for end in
            [CheckEnd::Stuck("3A. Nf3".into()), CheckEnd::Unreadable("3A. Nf3".into()), CheckEnd::RecordEnds]
        {
            let u = Undecided::StillIllegal { board: BoardId::A, now: b, end };
            check(
                &format!("{u:?}"),
                &wrong_words::undecided(Lang::En, &u),
                &wrong_words::undecided(Lang::Ru, &u),
            );
        }
    }
    let u = Undecided::Stuck(Stuck::Castling);
    check("stuck", &wrong_words::undecided(Lang::En, &u), &wrong_words::undecided(Lang::Ru, &u));
}

/// The colour is declined in each language: a code, not a word the records crate built.
#[test]
fn a1_a_colour_is_said_as_the_language_declines_it() {
    let w =
        Wrong::CannotReach { color: Color::White, role: Some(Role::Knight), capture: false, to: sq("f3") };
    assert_eq!(wrong_words::wrong(Lang::En, &w), "no white knight can move to f3");
    assert_eq!(wrong_words::wrong(Lang::Ru, &w), "ни одна фигура белых (конь) не может пойти на f3");
    let b = Broken::WaitingInCheck { waiting: Color::Black };
    assert_eq!(wrong_words::broken(Lang::En, b), "the black king is in check with White to move");
    assert_eq!(wrong_words::broken(Lang::Ru, b), "король чёрных под шахом, а ход белых");
}
