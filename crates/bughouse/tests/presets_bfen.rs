//! Rule presets as data (RULES.md section 9) and BFEN (A4, P5a).

mod common;

use bughouse::{DrawAgreement, DropMate, FlagMode, Game, OptionsError, Promotion, RuleOptions, Stalemate};
use common::*;

#[test]
fn presets_load_with_the_table_of_section_9() {
    let m = RuleOptions::mgimo_2017();
    assert_eq!(
        (
            m.promotion,
            m.pawn_drop_ranks,
            m.drop_mate,
            m.castle_with_dropped_rook,
            m.stalemate,
            m.draw_agreement,
            m.flag
        ),
        (
            Promotion::Removal,
            [2, 6],
            DropMate::Forbidden,
            true,
            Stalemate::Wait,
            DrawAgreement::OneBoard,
            FlagMode::Auto
        )
    );
    let c = RuleOptions::classic();
    assert_eq!(
        (c.promotion, c.pawn_drop_ranks, c.drop_mate, c.castle_with_dropped_rook, c.draw_agreement),
        (Promotion::Upgrade, [2, 7], DropMate::Allowed, false, DrawAgreement::BothBoards)
    );
    assert_eq!(bughouse::Rules::default(), m.rules().unwrap(), "MGIMO is the default");
}

#[test]
fn bad_presets_are_clear_errors() {
    assert!(matches!(RuleOptions::preset("blitz"), Err(OptionsError::UnknownPreset(_))));
    let text = include_str!("../../../config/rules/mgimo-2017.toml");
    let e = RuleOptions::from_toml(&format!("{text}\nsurprise = 1\n")).unwrap_err();
    assert!(e.to_string().contains("unknown field `surprise`"), "{e}");
    let e = RuleOptions::from_toml(&text.replace("\"removal\"", "\"remove\"")).unwrap_err();
    assert!(e.to_string().contains("promotion"), "{e}");
    let e = RuleOptions::from_toml(&text.replace("[2, 6]", "[0, 6]")).unwrap_err();
    assert!(matches!(e, OptionsError::PawnDropRanks(_)), "{e}");
    let e = RuleOptions::from_toml(&text.replace("chess960 = false", "")).unwrap_err();
    assert!(e.to_string().contains("chess960"), "{e}");
}

#[test]
fn a4_bfen_round_trips_and_reads_the_example() {
    let example = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1 | rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1";
    let g = game(example);
    assert_eq!(g.bfen(), example);
    assert_eq!(g, Game::new(*g.rules()));
    for text in [
        "r1bqkb1r/pppp1ppp/2n2n2/4p3/4P3/2N2N2/PPPP1PPP/R1BQKB1R[Pp] w KQkq - 4 4 | 4k3/8/8/8/8/8/8/4K3[QRBNPqrbnp] b Uu - 10 30",
        "4k3/8/8/8/8/8/8/R3K3[] w Q - 0 1 | 4k3/8/8/8/8/8/8/4K3[] b - - 0 1",
    ] {
        assert_eq!(game(text).bfen(), text);
    }
    // `U` beside a castling right says nothing new: the canonical form leaves it out.
    assert_eq!(
        game(&bfen("4k3/8/8/8/8/8/8/R3K3[] w QU - 0 1", START)).bfen(),
        bfen("4k3/8/8/8/8/8/8/R3K3[] w Q - 0 1", START)
    );
    // Missing brackets mean empty reserves.
    assert_eq!(
        game(&bfen("4k3/8/8/8/8/8/8/4K3 w - - 0 1", START)).bfen(),
        bfen("4k3/8/8/8/8/8/8/4K3[] w - - 0 1", START)
    );
}

#[test]
fn bfen_errors_name_the_board() {
    let rules = bughouse::Rules::default();
    let e = Game::from_bfen(START, rules).unwrap_err();
    assert!(e.to_string().contains("two FENs"), "{e}");
    let e = Game::from_bfen(&bfen(START, "8/8/8/8/8/8/8/8[] w - - 0 1"), rules).unwrap_err();
    assert_eq!(e.board, Some(bughouse::BoardId::B));
    assert!(e.to_string().starts_with("invalid BFEN, board B: invalid FEN: white has 0 kings"), "{e}");
    assert!(Game::from_bfen(&format!("{START} | {START} | {START}"), rules).is_err());
}
