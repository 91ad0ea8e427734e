//! RULES.md A1: the arbiter's check of an over-the-board record, one test per kind of impossible
//! move. Each record is a hand-written BPGN file under tests/data/check.

mod common;

use bughouse::{BoardId, Illegal};
use chess_core::Color;
use common::{data, one, rules};
use shvedka_records::{
    Broken, CheckEnd, CheckReport, Impossible, ImpossibleKind, Later, Record, Stuck, Undecided, Unreadable,
    Wrong, check_record,
};

fn record(file: &str) -> Record {
    one(&data(&format!("check/{file}.bpgn")))
}

/// Checks a record under the preset its Rules tag names (or `preset` when given) and asserts
/// its first impossible move; returns it for further checks.
fn first(
    file: &str,
    preset: Option<&str>,
    label: &str,
    kind: ImpossibleKind,
    rule: &str,
    consequence: &str,
) -> Impossible {
    let rec = record(file);
    let rules = preset.map_or_else(|| rec.rules().unwrap(), rules);
    let report = check_record(&rec, rules);
    let Some(found) = report.impossible.first() else {
        panic!("{file}: expected an impossible move, got {report:?}")
    };
    let Impossible { label: l, kind: k, rule: r, why, consequence: c, index, .. } = found;
    assert_eq!((l.as_str(), *k, r.as_str()), (label, kind, rule), "{file}: {why}");
    assert_eq!(c, consequence, "{file}");
    assert_eq!(rec.moves[*index].label(), label);
    found.clone()
}

/// [`first`], returning the reason.
fn expect(
    file: &str,
    preset: Option<&str>,
    label: &str,
    kind: ImpossibleKind,
    rule: &str,
    consequence: &str,
) -> String {
    first(file, preset, label, kind, rule, consequence).why.to_string()
}

/// Whether the arbiter must decide on the impossible move noticed later: its board is still illegal
/// when the record ends, or the record cannot be followed past it.
fn arbiter_decides(found: &Impossible) -> bool {
    matches!(found.later, Later::ArbiterDecides { .. })
}

const TEAM1_LOSES_A: &str = "the team of white-A loses the game (A1)";
const TEAM2_LOSES_A: &str = "the team of black-A loses the game (A1)";
const TEAM2_GETS_A_MINUTE: &str =
    "the move is taken back and team 2 receives one minute on each of its two clocks (A1)";

#[test]
fn a1_type1_leaving_the_king_in_check() {
    let reason =
        expect("type1_king_left_in_check", None, "2a. Nc6", ImpossibleKind::Type1, "FIDE", TEAM2_LOSES_A);
    assert!(reason.contains("leaves the black king in check"), "{reason}");
}

#[test]
fn a1_type1_piece_that_cannot_move_so() {
    let reason =
        expect("type1_piece_cannot_move_so", None, "2A. Bc4", ImpossibleKind::Type1, "FIDE", TEAM1_LOSES_A);
    assert_eq!(reason, "no white bishop can move to c4");
}

#[test]
fn a1_type1_piece_that_is_not_there() {
    let reason =
        expect("type1_piece_not_there", None, "2A. e3e4", ImpossibleKind::Type1, "FIDE", TEAM1_LOSES_A);
    assert_eq!(reason, "there is no white piece on e3");
}

#[test]
fn a1_type1_capturing_the_king_m4() {
    // A king on move is never left attacked (BFEN refuses such a start, legal play cannot reach
    // one), so a king capture can only be written across a blocked line: here f7 blocks h5-e8.
    let reason = expect("type1_captures_king", None, "3A. Qxe8", ImpossibleKind::Type1, "M4", TEAM1_LOSES_A);
    assert!(reason.contains("black king on e8"), "{reason}");
}

#[test]
fn a1_type1_moving_out_of_turn() {
    let reason = expect("type1_out_of_turn", None, "2A. Bc4", ImpossibleKind::Type1, "FIDE", TEAM1_LOSES_A);
    assert!(reason.contains("out of turn"), "{reason}");
}

#[test]
fn a1_type1_drop_on_an_occupied_square_p1() {
    expect("type1_drop_on_occupied_square", None, "1A. Q@e6", ImpossibleKind::Type1, "P1", TEAM1_LOSES_A);
}

#[test]
fn a1_type2_drop_mate_p3() {
    let reason =
        expect("type2_drop_mate", None, "1A. Q@g7#", ImpossibleKind::Type2, "P3", TEAM2_GETS_A_MINUTE);
    assert!(reason.contains("mate on board"), "{reason}");
    // The classic preset allows a drop to mate.
    assert_eq!(check_record(&record("type2_drop_mate"), rules("classic")), CheckReport::default());
}

#[test]
fn a1_type2_pawn_drop_on_rank_1_p2() {
    expect("type2_pawn_drop_rank1", None, "1A. P@e1", ImpossibleKind::Type2, "P2", TEAM2_GETS_A_MINUTE);
}

#[test]
fn a1_type2_pawn_drop_on_rank_7_p2_mgimo_only() {
    expect("type2_pawn_drop_rank7", None, "1A. P@e7", ImpossibleKind::Type2, "P2", TEAM2_GETS_A_MINUTE);
    assert_eq!(check_record(&record("type2_pawn_drop_rank7"), rules("classic")), CheckReport::default());
}

#[test]
fn a1_type2_pawn_drop_on_rank_8_p2() {
    for preset in ["mgimo-2017", "classic"] {
        expect(
            "type2_pawn_drop_rank8",
            Some(preset),
            "1A. P@e8",
            ImpossibleKind::Type2,
            "P2",
            TEAM2_GETS_A_MINUTE,
        );
    }
}

#[test]
fn a1_type1_drop_of_a_piece_not_in_the_reserve_p1() {
    let found =
        first("type1_drop_not_in_reserve", None, "1A. R@e4", ImpossibleKind::Type1, "P1", TEAM1_LOSES_A);
    assert!(found.why.to_string().contains("no rook in white-A's reserve"), "{}", found.why.to_string());
    // The rook came from outside the game: no legal position to go on from.
    assert!(arbiter_decides(&found), "{found}");
    assert!(found.to_string().contains("C2"), "{found}");
}

#[test]
fn a1_type2_promotion_without_removal_when_removal_is_possible_r4() {
    expect(
        "type2_promotion_without_removal",
        None,
        "1A. e8+",
        ImpossibleKind::Type2,
        "R4",
        TEAM2_GETS_A_MINUTE,
    );
}

#[test]
fn a1_type2_promotion_to_a_new_piece_instead_of_removal_r1() {
    let reason = expect(
        "type2_promotion_new_piece",
        None,
        "1A. e8=Q+",
        ImpossibleKind::Type2,
        "R1",
        TEAM2_GETS_A_MINUTE,
    );
    assert!(reason.contains("white-B"), "{reason}");
}

#[test]
fn a1_type2_removal_of_a_pawn_r1() {
    expect("type2_removal_of_a_pawn", None, "1A. e8=Qe2+", ImpossibleKind::Type2, "R1", TEAM2_GETS_A_MINUTE);
}

#[test]
fn a1_type2_castling_with_a_dropped_rook_in_classic_p5() {
    expect(
        "type2_castle_with_dropped_rook",
        None,
        "2A. O-O",
        ImpossibleKind::Type2,
        "P5",
        TEAM2_GETS_A_MINUTE,
    );
    // MGIMO lets a dropped rook castle.
    assert_eq!(
        check_record(&record("type2_castle_with_dropped_rook"), rules("mgimo-2017")),
        CheckReport::default()
    );
}

#[test]
fn a1_type2_removal_that_leaves_the_other_king_attacked_r3() {
    let found = first(
        "type2_removal_breaks_other_board",
        None,
        "1A. b8=Ne4",
        ImpossibleKind::Type2,
        "R3",
        TEAM2_GETS_A_MINUTE,
    );
    assert!(found.why.to_string().contains("would leave board B illegal"), "{}", found.why.to_string());
    // Carried out, White-B's rook sees the black king with White to move.
    assert_eq!(
        found.later,
        Later::ArbiterDecides {
            why: Undecided::StillIllegal {
                board: BoardId::B,
                now: Broken::WaitingInCheck { waiting: Color::Black },
                end: CheckEnd::RecordEnds
            }
        }
    );
}

#[test]
fn a1_type2_removal_under_the_upgrade_preset_r6() {
    let found = first(
        "type2_removal_under_upgrade",
        None,
        "1A. b8=Qd1",
        ImpossibleKind::Type2,
        "R6",
        TEAM2_GETS_A_MINUTE,
    );
    assert_eq!(found.later, Later::Stands, "the queen came over and both boards are legal");
}

#[test]
fn a1_type2_removal_naming_the_wrong_kind_of_piece_r7() {
    let found = first(
        "type2_removal_wrong_kind",
        None,
        "1A. b8=Rd1",
        ImpossibleKind::Type2,
        "R7",
        TEAM2_GETS_A_MINUTE,
    );
    assert!(found.why.to_string().contains("is a queen"), "{}", found.why.to_string());
    assert_eq!(found.later, Later::Stands);
}

#[test]
fn a1_type2_new_piece_when_nothing_can_be_removed_r4() {
    let found = first(
        "type2_new_piece_nothing_removable",
        None,
        "1A. b8=Q+",
        ImpossibleKind::Type2,
        "R4",
        TEAM2_GETS_A_MINUTE,
    );
    assert!(
        found.why.to_string().contains("no piece of white-B can be removed"),
        "{}",
        found.why.to_string()
    );
    assert_eq!(found.later, Later::Stands);
}

#[test]
fn a1_type1_drop_into_check_p1() {
    let found = first("type1_drop_into_check", None, "1A. N@a3", ImpossibleKind::Type1, "P1", TEAM1_LOSES_A);
    assert_eq!(found.why, Wrong::Rules(Illegal::DropLeavesCheck));
    assert!(arbiter_decides(&found));
}

#[test]
fn a1_type1_castling_that_chess_forbids() {
    let found =
        first("type1_illegal_castling", None, "1A. O-O", ImpossibleKind::Type1, "FIDE", TEAM1_LOSES_A);
    assert_eq!(found.why.to_string(), "castling is not possible here: f1 is not empty");
    assert_eq!(found.later, Later::ArbiterDecides { why: Undecided::Stuck(Stuck::Castling) });
}

#[test]
fn a1_type1_pawn_left_unpromoted_under_upgrade_r6() {
    let found = first("type1_unpromoted_pawn", None, "1A. b8", ImpossibleKind::Type1, "FIDE", TEAM1_LOSES_A);
    assert_eq!(found.why.to_string(), "a pawn reaching the last rank must be promoted");
    assert_eq!(
        found.later,
        Later::ArbiterDecides {
            why: Undecided::StillIllegal {
                board: BoardId::A,
                now: Broken::PawnOnEdge("b8".parse().unwrap()),
                end: CheckEnd::RecordEnds
            }
        }
    );
}

#[test]
fn a1_type1_promotion_whose_vanishing_pawn_leaves_the_king_in_check_r4() {
    let found = first(
        "type1_vanishing_pawn_uncovers_check",
        None,
        "1A. b8",
        ImpossibleKind::Type1,
        "FIDE",
        TEAM1_LOSES_A,
    );
    assert_eq!(
        found.why.to_string(),
        "the pawn leaves the board (R4) and that leaves the white king in check"
    );
    assert!(arbiter_decides(&found));
}

#[test]
fn a1_every_impossible_move_is_reported_until_the_record_cannot_be_followed() {
    let rec = record("two_impossible_moves");
    let report = check_record(&rec, rec.rules().unwrap());
    let found: Vec<(&str, ImpossibleKind, &str, bool)> = report
        .impossible
        .iter()
        .map(|f| (f.label.as_str(), f.kind, f.rule.as_str(), arbiter_decides(f)))
        .collect();
    assert_eq!(
        found,
        [("1A. P@a7", ImpossibleKind::Type2, "P2", false), ("3A. Q@d1", ImpossibleKind::Type1, "P1", true)],
        "{report}"
    );
    assert_eq!(report.unreadable, None);
    let lines: Vec<String> = report.to_string().lines().map(str::to_owned).collect();
    assert_eq!(lines.len(), 2, "{report}");
    assert!(lines[0].ends_with("noticed later: the move stands, the position after it is legal (A1)"));
    assert!(lines[1].contains("the team of white-A loses the game (A1)"), "{}", lines[1]);
    assert!(lines[1].ends_with(", and the record is not checked further (A1)"), "{}", lines[1]);
}

#[test]
fn a1_clean_records_have_no_impossible_move() {
    let rec = record("clean_promotion_by_removal");
    let outcome = check_record(&rec, rec.rules().unwrap());
    assert_eq!(outcome, CheckReport::default());
    assert_eq!(outcome.to_string(), "no impossible move");
    let sample = &shvedka_records::parse_bpgn(&data("bughousedb_sample.bpgn")).unwrap();
    for game in sample {
        assert_eq!(check_record(game, rules("classic")), CheckReport::default());
    }
}

#[test]
fn a1_the_sample_game_ends_with_a_drop_mate_that_mgimo_forbids() {
    let sample = shvedka_records::parse_bpgn(&data("bughousedb_sample.bpgn")).unwrap();
    let outcome = check_record(&sample[0], rules("mgimo-2017"));
    let line = outcome.to_string();
    assert!(line.starts_with("7A. Q@f7#: type 2 (P3): "), "{line}");
    assert!(line.contains(TEAM2_GETS_A_MINUTE), "{line}");
    assert!(
        line.ends_with("; noticed later: the move stands, the position after it is legal (A1)"),
        "{line}"
    );
    assert!(!line.contains('\n'));
}

#[test]
fn a1_outcome_is_one_line_naming_move_type_rule_and_consequence() {
    let rec = record("type1_king_left_in_check");
    let line = check_record(&rec, rec.rules().unwrap()).to_string();
    let found = format!("2a. Nc6: type 1 (FIDE): it leaves the black king in check; {TEAM2_LOSES_A}; ");
    assert!(line.starts_with(&found), "{line}");
    assert!(
        line.ends_with("noticed later: the arbiter decides, board A is still no legal position when the record ends: the black king is in check with white to move (A1)"),
        "{line}"
    );
}

#[test]
fn a1_bad_start_position_is_reported_not_checked() {
    let mut rec = record("type2_drop_mate");
    rec.set_start_bfen("not a position");
    let outcome = check_record(&rec, rules("mgimo-2017"));
    assert!(outcome.impossible.is_empty(), "{outcome:?}");
    assert!(matches!(outcome.unreadable, Some(Unreadable { index: None, .. })), "{outcome:?}");
}
