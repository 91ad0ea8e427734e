//! RULES.md A1a: «нижегородская рокировка», which the MGIMO rules list among the type 2 moves, is
//! the king and a rook of his own on his first rank exchanging squares; any other castling that
//! chess forbids stays type 1. Each record is written out in its test.

mod common;

use common::{a1_check, report_lines};
use shvedka_records::CheckReport;

/// The check of a record: the shared tags, then its moves.
fn report(moves: &str) -> CheckReport {
    a1_check(&format!("[Result \"*\"]\n\n{moves}"))
}

fn lines(report: &CheckReport) -> Vec<String> {
    report_lines(report)
}

#[test]
fn a1a_king_and_rook_exchanging_squares_is_type_2() {
    // White-A's king on e1 and rook on h1 swap over the bishop on f1 (`Kxh1`: the king lands on
    // his own rook); Black-A does the same, written the long way (`e8h8`). Both are type 2, and
    // both positions are legal afterwards, so noticed later they stand; 3A. Kg1 is then legal.
    let report = report(
        "1A. Nf3 {179.000} 1a. Nf6 {178.000} 2A. Kxh1 {177.000} 2a. e8h8 {176.000} 3A. Kg1 {175.000} *\n",
    );
    let found = lines(&report);
    assert_eq!(found.len(), 2, "{report}");
    let stands = "noticed later: the move stands, the position after it is legal (A1)";
    assert_eq!(
        found[0],
        format!(
            "2A. Kxh1: type 2 (A1a): the white king on e1 and rook on h1 exchange squares («нижегородская рокировка»), which chess never allows; the move is taken back and team 2 receives one minute on each of its two clocks (A1); {stands}"
        )
    );
    assert_eq!(
        found[1],
        format!(
            "2a. e8h8: type 2 (A1a): the black king on e8 and rook on h8 exchange squares («нижегородская рокировка»), which chess never allows; the move is taken back and team 1 receives one minute on each of its two clocks (A1); {stands}"
        )
    );
}

#[test]
fn a1a_an_ordinary_illegal_castling_stays_type_1() {
    // The white king went to e2 and back: castling is a chess move, forbidden here because the
    // king has moved, so type 1 (the arbiter decides noticed later: it cannot be carried out).
    let report = report(
        "1A. e4 {179.000} 1a. e5 {178.000} 2A. Ke2 {177.000} 2a. Nc6 {176.000} 3A. Ke1 {175.000}
3a. Nf6 {174.000} 4A. Nf3 {173.000} 4a. Bc5 {172.000} 5A. Bc4 {171.000} 5a. d6 {170.000}
6A. O-O {169.000} *
",
    );
    let found = lines(&report);
    assert_eq!(found.len(), 1, "{report}");
    assert!(
        found[0].starts_with(
            "6A. O-O: type 1 (FIDE): castling is not possible here: the white king has moved; the team of white-A loses the game (A1); "
        ),
        "{}",
        found[0]
    );
}
