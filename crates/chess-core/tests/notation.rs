//! FEN, SAN (FIDE appendix C) and long notation: output, input, and typed errors that say what is
//! wrong and where.

use chess_core::{CastlingSide, FenField, Move, ParseUciError, Position, Role, San, SanError, Square};

fn pos(fen: &str) -> Position {
    Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn sq(s: &str) -> Square {
    s.parse().unwrap()
}

#[test]
fn fen_round_trips_standard_chess960_and_pockets() {
    for fen in [
        chess_core::STARTING_FEN,
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
        "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
        "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R[QRBNPqrbnp] w KQkq - 2 3",
        "4k3/8/8/8/8/8/8/4K3[] b - - 10 40",
        "4k3/8/8/8/8/8/8/Q~3K3[p] b - - 0 40",
    ] {
        let p = pos(fen);
        assert_eq!(p.fen(), fen);
        assert_eq!(pos(&p.fen()), p);
    }
}

/// Found by fuzzing (fuzz/, targets `fen` and `bfen`): castling rights whose rooks start on
/// different files for White and Black share one pair of rook files, which took the last letter's
/// file, so the FEN written (White's letters first) read back as another position.
#[test]
fn fen_round_trips_whatever_the_order_of_the_castling_letters() {
    for (fen, files) in [
        ("1r4kr/pp1pppp1/7n/Bb6/8/8/pP1P2PP/RK4R1 w hAGb - 0 9", ["a", "g"]),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPQPQ/RRBBNKRQ w kqQK - 0 1", ["a", "g"]),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPQPQ/RRBBNKRQ w QKkq - 0 1", ["a", "g"]),
    ] {
        let p = pos(fen);
        assert_eq!(pos(&p.fen()), p, "{fen} written as {}", p.fen());
        let rook_files = [CastlingSide::QueenSide, CastlingSide::KingSide]
            .map(|side| p.castling().rook_file(side).to_string());
        assert_eq!(rook_files, files, "{fen}");
    }
}

#[test]
fn fen_normalises_an_en_passant_square_without_a_legal_capture() {
    // After 1. e4 no black pawn can take en passant: the square is not kept (FIDE 9.2.3).
    let p = pos("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1");
    assert_eq!(p.ep_square(), None);
    assert_eq!(p.fen(), "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
    // Epd-style: the clocks may be left out.
    assert_eq!(pos("4k3/8/8/8/8/8/8/4K3 w -").halfmoves(), 0);
}

#[test]
fn fen_errors_name_the_field_and_offset() {
    let cases: &[(&str, FenField, usize)] = &[
        ("", FenField::Placement, 0),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1", FenField::Placement, 0),
        ("rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", FenField::Placement, 18),
        ("rnbqkbnr/ppppXppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", FenField::Placement, 13),
        ("rnbqkbnr/ppppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", FenField::Placement, 17),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[Qx] w KQkq - 0 1", FenField::Pockets, 45),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[Q w KQkq - 0 1", FenField::Pockets, 43),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1", FenField::Turn, 44),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkz - 0 1", FenField::Castling, 49),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1 w KQkq - 0 1", FenField::Castling, 46),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e4 0 1", FenField::EnPassant, 51),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e6 0 1", FenField::EnPassant, 51),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - x 1", FenField::Halfmoves, 53),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 99999999999", FenField::Fullmoves, 55),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 extra", FenField::Position, 57),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQQBNR w - - 0 1", FenField::Position, 0),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNP w - - 0 1", FenField::Position, 0),
        ("4k3/8/8/8/8/8/8/4K2r b - - 0 1", FenField::Position, 0),
    ];
    for &(fen, field, offset) in cases {
        let e = Position::from_fen(fen).expect_err(fen);
        assert_eq!((e.field, e.offset), (field, offset), "{fen}: {e}");
        assert!(!e.to_string().is_empty());
    }
}

#[test]
fn san_output_follows_fide_appendix_c() {
    // Disambiguation by file, by rank, by both; captures; castling; promotion; check and mate.
    let p = pos("1k6/8/8/8/3N1N2/8/3N4/K7 w - - 0 1");
    let san: Vec<String> = p.legal_moves().iter().map(|m| p.san(m)).collect();
    for expected in ["Nde6", "Nfe6", "N2b3", "N4b3", "Nc6+", "Ng2"] {
        assert!(san.contains(&expected.to_owned()), "{expected} not in {san:?}");
    }
    let p = pos("6k1/8/8/8/8/Q7/8/Q1Q4K w - - 0 1");
    assert_eq!(p.san(&p.parse_uci("a1b2").unwrap()), "Qa1b2");
    assert_eq!(p.uci(&p.parse_san("Qa1b2").unwrap()), "a1b2");

    let p = pos("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    let kingside = p.parse_uci("e1g1").unwrap();
    assert_eq!(p.san(&kingside), "O-O");
    assert_eq!(p.san(&p.parse_uci("e1c1").unwrap()), "O-O-O");
    assert_eq!(p.san(&p.parse_uci("a1a8").unwrap()), "Rxa8+");

    let p = pos("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1");
    assert_eq!(p.san(&p.parse_uci("a1a8").unwrap()), "Ra8#");

    let p = pos("3r3k/4P3/8/8/8/8/8/K7 w - - 0 1");
    assert_eq!(p.san(&p.parse_uci("e7d8q").unwrap()), "exd8=Q+");
    assert_eq!(p.san(&p.parse_uci("e7e8n").unwrap()), "e8=N");

    let p = pos("4k3/8/8/8/8/8/8/4K3[N] w - - 0 1");
    assert_eq!(p.san(&p.parse_uci("N@f6").unwrap()), "N@f6+");
}

#[test]
fn san_input_resolves_tolerates_suffixes_and_rejects_ambiguity() {
    let p = Position::new();
    assert_eq!(p.uci(&p.parse_san("e4").unwrap()), "e2e4");
    assert_eq!(p.uci(&p.parse_san("Nf3!?").unwrap()), "g1f3");
    assert_eq!(p.uci(&p.parse_san("Ng1f3").unwrap()), "g1f3");
    assert!(matches!(p.parse_san("e5"), Err(SanError::Illegal { .. })));
    assert!(matches!(p.parse_san("Ke2"), Err(SanError::Illegal { .. })));

    let p = pos("1k6/8/8/8/3N1N2/8/8/K7 w - - 0 1");
    match p.parse_san("Ne6") {
        Err(SanError::Ambiguous { candidates, .. }) => assert_eq!(candidates.len(), 2),
        other => panic!("expected ambiguity, got {other:?}"),
    }
    assert_eq!(p.uci(&p.parse_san("Nde6").unwrap()), "d4e6");

    let p = pos("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    assert_eq!(p.uci(&p.parse_san("O-O").unwrap()), "e1g1");
    assert_eq!(p.uci(&p.parse_san("0-0-0").unwrap()), "e1c1");

    let p = pos("4k3/8/8/8/8/8/8/4K3[Np] b - - 0 1");
    assert_eq!(p.parse_san("@e1"), Err(SanError::Illegal { input: "@e1".into() }));
    assert_eq!(p.parse_san("@e5").unwrap(), Move::Drop { role: Role::Pawn, to: sq("e5") });
    let p = pos("4k3/8/8/8/8/8/8/4K3[Np] w - - 0 1");
    assert!(p.parse_san("P@e5").is_err(), "White holds no pawn");
    assert_eq!(p.parse_san("N@e5").unwrap(), Move::Drop { role: Role::Knight, to: sq("e5") });
}

#[test]
fn san_syntax_errors_carry_offsets() {
    for (text, offset) in
        [("", 0), ("Zf3", 0), ("Nz3", 1), ("e9", 1), ("e8=", 3), ("e4 x", 2), ("O-O-O-O", 0), ("X@e4", 0)]
    {
        let e = San::parse(text).expect_err(text);
        assert_eq!(e.offset, offset, "{text}: {e}");
    }
    assert_eq!(San::parse("O-O").unwrap(), San::Castle(CastlingSide::KingSide));
}

#[test]
fn long_notation_in_and_out() {
    let p = Position::new();
    assert_eq!(p.uci(&p.parse_uci("g1f3").unwrap()), "g1f3");
    assert!(matches!(p.parse_uci("e2e5"), Err(ParseUciError::Illegal { .. })));
    assert!(matches!(p.parse_uci("e2"), Err(ParseUciError::Syntax { offset: 2, .. })));
    assert!(matches!(p.parse_uci("e2e4x"), Err(ParseUciError::Syntax { offset: 4, .. })));
    assert!(matches!(p.parse_uci("e2e4qq"), Err(ParseUciError::Syntax { offset: 5, .. })));
    assert!(matches!(p.parse_uci("K@e4"), Err(ParseUciError::Syntax { offset: 0, .. })));

    let p = pos("3r3k/4P3/8/8/8/8/8/K7 w - - 0 1");
    assert_eq!(p.uci(&p.parse_uci("e7d8q").unwrap()), "e7d8q");
    assert!(p.parse_uci("e7d8").is_err(), "promotion needs a piece in standard chess");

    // Castling: e1g1 and e1h1 both accepted in standard chess; Chess960 writes king takes rook.
    let p = pos("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    assert_eq!(p.parse_uci("e1h1").unwrap(), p.parse_uci("e1g1").unwrap());
    let p = pos("1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w GBgb - 0 1");
    let castle = p.parse_uci("e1g1").unwrap();
    assert_eq!(castle, Move::Castle { king: sq("e1"), rook: sq("g1") });
    assert_eq!(p.uci(&castle), "e1g1");
    assert_eq!(p.uci(&p.parse_uci("e1b1").unwrap()), "e1b1");

    let p = pos("4k3/8/8/8/8/8/8/4K3[P] w - - 0 1");
    assert_eq!(p.uci(&p.parse_uci("P@e4").unwrap()), "P@e4");
    assert_eq!(p.parse_uci("@e4").unwrap(), p.parse_uci("P@e4").unwrap());
}
