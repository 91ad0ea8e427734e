//! RULES.md A1, an impossible move noticed only later: the check judges the position at each later
//! point of the record, reports where it is legal again (the move stands, «заигран»), goes on
//! checking from there, and leaves to the arbiter only a position that is still illegal when the
//! record ends. Each record is written out in its test.

mod common;

use common::{a1_check, report_lines};
use shvedka_records::{CheckReport, ImpossibleKind, Later};

/// The check of a record: the shared tags, then `bpgn` (its own tags, moves and result).
fn report(bpgn: &str) -> CheckReport {
    a1_check(bpgn)
}

/// The report's lines, one per finding.
fn lines(report: &CheckReport) -> Vec<String> {
    report_lines(report)
}

const BLACK_A_LOSES: &str = "the team of black-A loses the game (A1)";

#[test]
fn a1_king_left_in_check_escapes_later_and_its_moves_stand() {
    // MGIMO's own example: after 2A. Qh5+ Black-A leaves his king in check twice (2a. Nc6,
    // 3a. a6), nobody notices, and only 4a. g6 answers the check. Each of his two moves made the
    // board illegal (Black's king attacked with White to move) until White's next move on board A
    // (3A. Nf3, 4A. Nc3) left Black to move in check, a legal position: both moves stand.
    let report = report(
        "[Result \"*\"]

1A. e4 {179.500} 1a. f6 {178.250} 2A. Qh5+ {176.125} 2a. Nc6 {170.000}
1B. d4 {179.900} 1b. d5 {179.000} 3A. Nf3 {175.000} 3a. a6 {168.000}
2B. c4 {178.000} 4A. Nc3 {174.000} 4a. g6 {165.000} 5A. Qxg6+ {172.000}
5a. hxg6 {160.000} *
",
    );
    let found = lines(&report);
    let in_check = "type 1 (FIDE): it leaves the black king in check";
    assert_eq!(
        found,
        [
            format!(
                "2a. Nc6: {in_check}; {BLACK_A_LOSES}; noticed later: the move stands, the position is legal again after 3A. Nf3 (A1)"
            ),
            format!(
                "3a. a6: {in_check}; {BLACK_A_LOSES}; noticed later: the move stands, the position is legal again after 4A. Nc3 (A1)"
            ),
        ]
    );
    let later: Vec<(usize, &Later)> = report.impossible.iter().map(|f| (f.index, &f.later)).collect();
    assert_eq!(
        later,
        [
            (3, &Later::LegalAgain { index: 6, label: "3A. Nf3".to_owned() }),
            (7, &Later::LegalAgain { index: 9, label: "4A. Nc3".to_owned() }),
        ]
    );
    assert!(report.impossible.iter().all(|f| f.later.stands()));
    assert_eq!(report.unreadable, None, "read to the end");
}

#[test]
fn a1_position_still_illegal_when_the_record_ends_goes_to_the_arbiter() {
    // Black-A leaves his king in check and board A sees no move after it: when the record ends
    // (when the move is noticed) Black's king is still attacked with White to move. The moves on
    // board B after it are still checked (they are legal).
    let report = report(
        "[Result \"*\"]

1A. e4 {179.500} 1a. f6 {178.250} 2A. Qh5+ {176.125} 2a. Nc6 {170.000}
1B. d4 {179.900} 1b. d5 {179.000} 2B. c4 {178.000} *
",
    );
    assert_eq!(report.impossible.len(), 1, "{report}");
    assert_eq!(
        lines(&report),
        [format!(
            "2a. Nc6: type 1 (FIDE): it leaves the black king in check; {BLACK_A_LOSES}; noticed later: the arbiter decides, board A is still no legal position when the record ends: the black king is in check with white to move (A1)"
        )]
    );
}

#[test]
fn a1_the_check_goes_on_past_an_impossible_move_to_the_next_one() {
    // Black-A's 2a. Nc6 leaves his king in check (legal again after 3A. Nf3, he escapes with
    // 3a. g6); later White-B drops a pawn on his seventh rank, which MGIMO forbids (P2). Both are
    // reported.
    let report = report(
        "[SetUp \"1\"]
[BFEN \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1 | rnbqkbnr/pppppppp/8/8/8/8/1PPPPPPP/RNBQKBNR[P] w KQkq - 0 1\"]
[Result \"*\"]

1A. e4 {179.500} 1a. f6 {178.250} 2A. Qh5+ {176.125} 2a. Nc6 {170.000}
3A. Nf3 {175.000} 3a. g6 {168.000} 1B. e4 {179.000} 1b. a5 {178.000}
2B. P@a7 {177.000} 2b. Nc6 {176.000} *
",
    );
    let found = lines(&report);
    assert_eq!(found.len(), 2, "{found:#?}");
    assert!(found[0].starts_with("2a. Nc6: type 1 (FIDE): "), "{}", found[0]);
    assert!(
        found[0].ends_with("noticed later: the move stands, the position is legal again after 3A. Nf3 (A1)"),
        "{}",
        found[0]
    );
    assert!(found[1].starts_with("2B. P@a7: type 2 (P2): "), "{}", found[1]);
    assert!(
        found[1].ends_with("noticed later: the move stands, the position after it is legal (A1)"),
        "{}",
        found[1]
    );
    let kinds: Vec<ImpossibleKind> = report.impossible.iter().map(|f| f.kind).collect();
    assert_eq!(kinds, [ImpossibleKind::Type1, ImpossibleKind::Type2]);
}

#[test]
fn a1_m4_taking_a_king_left_in_check_is_impossible_and_the_arbiter_decides() {
    // Black-A leaves his king in check (2a. Nc6) and White-A, instead of calling the arbiter,
    // takes it (3A. Qxe8): chess would allow the capture on that illegal board, no rule set does
    // (M4). It cannot be carried out, so the record is followed no further, and the earlier move
    // goes to the arbiter too: board A never became legal again.
    let report = report(
        "[Result \"*\"]

1A. e4 {179.500} 1a. f6 {178.250} 2A. Qh5+ {176.125} 2a. Nc6 {170.000}
3A. Qxe8 {175.000} 3a. a6 {168.000} *
",
    );
    let found = lines(&report);
    assert_eq!(found.len(), 2, "{report}");
    assert!(
        found[0].ends_with(
            "noticed later: the arbiter decides, board A is still no legal position at 3A. Qxe8, past which the record cannot be followed: the black king is in check with white to move (A1)"
        ),
        "{}",
        found[0]
    );
    assert!(
        found[1].starts_with(
            "3A. Qxe8: type 1 (M4): it captures the black king on e8: a king is never captured; the team of white-A loses the game (A1); "
        ),
        "{}",
        found[1]
    );
    assert!(
        found[1].ends_with(
            "noticed later: the arbiter decides, the black king on e8 was captured (M4), and the record is not checked further (A1)"
        ),
        "{}",
        found[1]
    );
}
