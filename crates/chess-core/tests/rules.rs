//! Standard chess rules of the core on hand-built positions: castling (FIDE 3.8), check, mate and
//! stalemate, insufficient material, the halfmove clock, repetition, and refusing illegal moves.

use chess_core::{Color, Position, Repetitions};

fn pos(fen: &str) -> Position {
    Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn legal(p: &Position) -> Vec<String> {
    let mut v: Vec<String> = p.legal_moves().iter().map(|m| p.uci(m)).collect();
    v.sort();
    v
}

/// FIDE 3.8: no castling out of, through or into check, nor across pieces; an attacked rook or
/// b1 does not matter.
#[test]
fn fide_3_8_castling_conditions() {
    let ok = pos("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    assert!(legal(&ok).contains(&"e1g1".into()) && legal(&ok).contains(&"e1c1".into()));
    let in_check = pos("r3k2r/8/8/8/8/8/4r3/R3K2R w KQkq - 0 1");
    assert!(!legal(&in_check).iter().any(|m| m == "e1g1" || m == "e1c1"));
    let through = pos("r3k2r/8/8/8/8/8/5r2/R3K2R w KQkq - 0 1");
    assert!(!legal(&through).contains(&"e1g1".into()) && legal(&through).contains(&"e1c1".into()));
    let into = pos("r3k2r/8/8/8/8/8/6r1/R3K2R w KQkq - 0 1");
    assert!(!legal(&into).contains(&"e1g1".into()));
    let b1_attacked = pos("r3k2r/8/8/8/8/8/1r6/R3K2R w KQkq - 0 1");
    assert!(legal(&b1_attacked).contains(&"e1c1".into()));
    let rook_attacked = pos("r3k2r/8/8/8/8/8/7r/R3K2R w KQkq - 0 1");
    assert!(legal(&rook_attacked).contains(&"e1g1".into()));
    let blocked = pos("r3k2r/8/8/8/8/8/8/R2QK1NR w KQkq - 0 1");
    assert!(!legal(&blocked).iter().any(|m| m == "e1g1" || m == "e1c1"));
    // Moving the king or a rook loses the right for good.
    let mut p = ok;
    p.play(p.parse_uci("h1h2").unwrap()).unwrap();
    p.play(p.parse_uci("a8a7").unwrap()).unwrap();
    assert_eq!(p.fen(), "4k2r/r7/8/8/8/8/7R/R3K3 w Qk - 2 2");
    p.play(p.parse_uci("e1e2").unwrap()).unwrap();
    assert!(p.castling().rooks_of(Color::White).is_empty() && p.castling().king_moved(Color::White));
    // Capturing a rook on its corner removes that right.
    let mut p = pos("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    p.play(p.parse_uci("a1a8").unwrap()).unwrap();
    assert_eq!(p.fen(), "R3k2r/8/8/8/8/8/8/4K2R b Kk - 0 1");
}

/// Chess960 (FIDE appendix F): king and rook land on the standard squares whatever their start.
#[test]
fn chess960_castling_lands_on_standard_squares() {
    let mut p = pos("1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w GBgb - 0 1");
    p.play(p.parse_uci("e1g1").unwrap()).unwrap();
    assert!(p.fen().starts_with("1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R3RK1 b gb"), "{}", p.fen());
    // The castling rook shields the king: queen-side castling would expose c1 to the a1 queen.
    let p = pos("4k3/8/8/8/8/8/8/qRK4R w HB - 0 1");
    let moves = legal(&p);
    assert!(moves.contains(&"c1h1".into()) && !moves.contains(&"c1b1".into()), "{moves:?}");
}

#[test]
fn check_mate_and_stalemate() {
    let mut p = Position::new();
    for m in ["f2f3", "e7e5", "g2g4", "d8h4"] {
        p.play(p.parse_uci(m).unwrap()).unwrap();
    }
    assert!(p.is_check() && p.is_checkmate() && !p.is_stalemate());
    assert_eq!(p.count_legal(), 0);
    let stalemate = pos("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
    assert!(stalemate.is_stalemate() && !stalemate.is_checkmate());
    assert!(!Position::new().is_check());
}

/// FIDE 5.2.2: positions where no sequence of legal moves can mate, by material.
#[test]
fn insufficient_material() {
    for (fen, white, black) in [
        ("4k3/8/8/8/8/8/8/4K3 w - - 0 1", true, true),
        ("4k3/8/8/8/8/8/8/2N1K3 w - - 0 1", true, true),
        ("4k3/8/8/8/8/8/8/2B1K3 w - - 0 1", true, true),
        ("4k1b1/8/8/8/8/8/8/2B1K3 w - - 0 1", false, false), // opposite-coloured bishops
        ("4kb2/8/8/8/8/8/8/2B1K3 w - - 0 1", true, true),    // same-coloured bishops (dark)
        ("4k3/8/8/8/8/8/8/1NN1K3 w - - 0 1", false, true),
        ("4k3/4p3/8/8/8/8/8/2N1K3 w - - 0 1", false, false),
        ("4k3/8/8/8/8/8/8/3RK3 w - - 0 1", false, true),
        ("4k3/8/8/8/8/8/8/4K3[N] w - - 0 1", false, true), // a pocket piece can mate later
        ("4k3/8/8/8/8/8/8/2N1K3[n] w - - 0 1", false, false), // and can block
    ] {
        let p = pos(fen);
        assert_eq!(
            (p.has_insufficient_material(Color::White), p.has_insufficient_material(Color::Black)),
            (white, black),
            "{fen}"
        );
        assert_eq!(p.is_insufficient_material(), white && black, "{fen}");
    }
}

/// FIDE 9.2 / 9.3: repetition by hash and the halfmove clock.
#[test]
fn repetition_and_halfmove_clock() {
    let mut p = Position::new();
    let mut reps = Repetitions::new();
    assert_eq!(reps.record(&p), 1);
    for round in 2..=3 {
        for m in ["g1f3", "g8f6", "f3g1", "f6g8"] {
            p.play(p.parse_uci(m).unwrap()).unwrap();
            reps.record(&p);
        }
        assert_eq!(reps.count(&p), round);
    }
    assert_eq!(p.halfmoves(), 8);
    assert_eq!(p.fullmoves(), 5);
    reps.unrecord(&p);
    assert_eq!(reps.count(&p), 2);
    // A lost castling right makes the position different.
    let mut q = Position::new();
    for m in ["g1f3", "g8f6", "h1g1", "f6g8", "g1h1", "g8f6", "f3g1", "f6g8"] {
        q.play(q.parse_uci(m).unwrap()).unwrap();
    }
    assert_eq!(q.board(), Position::new().board());
    assert_ne!(q.zobrist(), Position::new().zobrist());
}

#[test]
fn illegal_moves_are_refused_and_change_nothing() {
    let mut p = Position::new();
    let before = p;
    let bogus = chess_core::Move::Normal {
        role: chess_core::Role::Pawn,
        from: "e2".parse().unwrap(),
        capture: None,
        to: "e5".parse().unwrap(),
        promotion: None,
    };
    let err = p.play(bogus).unwrap_err();
    assert!(err.to_string().contains("e2e5"), "{err}");
    assert_eq!(p, before);
    // Pinned pieces stay pinned; the king never walks into check; kings are never captured (M4).
    let pinned = pos("4k3/4r3/8/8/8/8/4N3/4K3 w - - 0 1");
    assert!(!legal(&pinned).iter().any(|m| m.starts_with("e2")));
}
