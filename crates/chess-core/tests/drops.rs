//! Pockets and drops in the rules core, on hand-built positions: the drop rules that bughouse
//! reuses (RULES.md P1, P2, P4, P5) and captures returned to the caller (C1 is the caller's job).

use chess_core::{Color, DropRules, Move, Piece, Position, Role, Square};

fn pos(fen: &str) -> Position {
    Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn sq(s: &str) -> Square {
    s.parse().unwrap()
}

fn play(p: &mut Position, uci: &str) -> Option<chess_core::Captured> {
    let m = p.parse_uci(uci).unwrap_or_else(|e| panic!("{uci} in {}: {e}", p.fen()));
    p.play(m).unwrap()
}

fn drops(p: &Position, role: Role) -> Vec<Square> {
    p.legal_moves()
        .into_iter()
        .filter_map(|m| match m {
            Move::Drop { role: r, to } if r == role => Some(to),
            _ => None,
        })
        .collect()
}

/// P1: a drop goes on any empty square; P2: pawn-drop ranks are a parameter.
#[test]
fn p1_p2_pawn_drop_ranks_are_a_parameter() {
    let mut p = pos("4k3/8/8/8/8/8/8/4K3[Pp] w - - 0 1");
    assert_eq!(drops(&p, Role::Pawn).len(), 48, "ranks 2-7: six ranks of 8");
    assert!(drops(&p, Role::Pawn).contains(&sq("e7")));
    p.set_drop_rules(DropRules::new(2..=6, false).unwrap());
    let white = drops(&p, Role::Pawn);
    assert_eq!(white.len(), 40);
    assert!(!white.contains(&sq("e7")) && !white.contains(&sq("e8")) && !white.contains(&sq("d1")));
    assert!(white.contains(&sq("a2")) && white.contains(&sq("h6")));
    // Black counts ranks from its own side: its 2nd-6th ranks are 7 down to 3.
    play(&mut p, "e1d1");
    let black = drops(&p, Role::Pawn);
    assert_eq!(black.len(), 40);
    assert!(black.contains(&sq("a7")) && black.contains(&sq("h3")));
    assert!(!black.contains(&sq("e2")) && !black.contains(&sq("a1")));
    assert!(DropRules::new(0..=6, false).is_err());
    let (lo, hi) = (5, 3);
    assert!(DropRules::new(lo..=hi, false).is_err(), "an empty range is refused");
}

/// P1: a drop must not leave the own king in check — so in check it can only interpose.
#[test]
fn p1_drops_in_check_only_interpose() {
    let p = pos("4k3/8/8/8/8/8/8/r3K3[N] w - - 0 1");
    let mut squares = drops(&p, Role::Knight);
    squares.sort();
    assert_eq!(squares, vec![sq("b1"), sq("c1"), sq("d1")]);
    // Knight check and contact check: no drop helps.
    assert!(drops(&pos("4k3/8/8/8/8/3n4/8/4K3[QRBNP] w - - 0 1"), Role::Queen).is_empty());
    assert!(drops(&pos("4k3/8/8/8/8/8/4q3/4K3[QRBNP] w - - 0 1"), Role::Rook).is_empty());
    // Double check: only the king moves.
    let p = pos("4k3/8/8/8/1b6/8/8/r3K3[QRBNP] w - - 0 1");
    assert!(p.legal_moves().iter().all(|m| m.role() == Role::King));
}

/// Mate depends on the pocket: a distant check that a drop could block is not mate while the
/// pocket holds a piece (FIDE mate = no legal move, drops included).
#[test]
fn checkmate_counts_drops_that_interpose() {
    let with = pos("k7/8/8/8/8/8/5PPP/r5K1[N] w - - 0 1");
    assert!(with.is_check() && !with.is_checkmate());
    let without = pos("k7/8/8/8/8/8/5PPP/r5K1[] w - - 0 1");
    assert!(without.is_checkmate());
    let stalemate_unless_drop = pos("k7/8/1Q6/8/8/8/8/7K[n] b - - 0 1");
    assert!(!stalemate_unless_drop.is_stalemate());
    assert!(pos("k7/8/1Q6/8/8/8/8/7K[N] b - - 0 1").is_stalemate());
}

/// P4: a pawn dropped on its own 2nd rank may advance two squares and be taken en passant.
#[test]
fn p4_dropped_pawn_double_steps_and_is_taken_en_passant() {
    let mut p = pos("4k3/8/8/8/3p4/8/8/4K3[P] w - - 0 1");
    play(&mut p, "P@e2");
    play(&mut p, "e8d8");
    play(&mut p, "e2e4");
    assert_eq!(p.ep_square(), Some(sq("e3")));
    let captured = play(&mut p, "d4e3").expect("en passant captures");
    assert_eq!(captured.piece, Role::Pawn.of(Color::White));
    assert_eq!(captured.square, sq("e4"));
}

/// Captures are returned to the caller and join no pocket in the core (the variant decides, C1).
#[test]
fn captured_pieces_are_returned_not_pocketed() {
    let mut p = pos("4k3/8/8/3n4/8/8/8/3QK3[] w - - 0 1");
    let captured = play(&mut p, "d1d5").unwrap();
    assert_eq!(captured.piece, Piece { color: Color::Black, role: Role::Knight });
    assert!(!captured.promoted);
    assert!(p.pockets().unwrap().is_empty());
    // A promoted piece keeps its mark as it moves and when captured (classic bughouse returns it
    // as a pawn, R6).
    let mut p = pos("1r2k3/P7/8/8/8/8/8/4K3[] w - - 0 1");
    let captured = play(&mut p, "a7b8q").expect("captures the rook");
    assert_eq!(captured.piece, Role::Rook.of(Color::Black));
    assert!(p.fen().starts_with("1Q~2k3"), "{}", p.fen());
    play(&mut p, "e8d7");
    play(&mut p, "b8b5");
    assert!(p.board().promoted().contains(sq("b5")));
    let mut p = pos("4k3/8/8/1Q~6/1r6/8/8/4K3[] b - - 0 1");
    let captured = play(&mut p, "b4b5").expect("rook takes the promoted queen");
    assert!(captured.promoted && captured.piece.role == Role::Queen);
    assert!(p.board().promoted().is_empty());
}

/// P5 hook: a rook dropped on its corner may castle while the king has never moved — only when
/// the drop rules allow it; the plain (perft) convention does not.
#[test]
fn p5_castling_with_a_dropped_rook() {
    let start = "4k3/8/8/8/8/8/8/4K3[R] w - - 0 1";
    for allowed in [false, true] {
        let mut p = pos(start);
        p.set_drop_rules(DropRules::new(2..=6, allowed).unwrap());
        p.set_king_moved(Color::White, false);
        play(&mut p, "R@h1");
        play(&mut p, "e8d8");
        assert_eq!(p.parse_uci("e1g1").is_ok(), allowed, "allowed = {allowed}");
        assert_eq!(p.castling().rooks_of(Color::White).count(), usize::from(allowed));
    }
    // Once the king has moved, a dropped rook gains nothing.
    let mut p = pos(start);
    p.set_drop_rules(DropRules::new(2..=6, true).unwrap());
    p.set_king_moved(Color::White, false);
    play(&mut p, "e1d1");
    play(&mut p, "e8d8");
    play(&mut p, "d1e1");
    play(&mut p, "d8e8");
    play(&mut p, "R@h1");
    play(&mut p, "e8d8");
    assert!(p.parse_uci("e1g1").is_err());
    // A rook dropped off its corner gains nothing either.
    let mut p = pos(start);
    p.set_drop_rules(DropRules::new(2..=6, true).unwrap());
    p.set_king_moved(Color::White, false);
    play(&mut p, "R@g1");
    assert!(p.castling().rooks().is_empty());
}

/// P5 in Chess960: the start files set from outside FEN (a FEN without rights has no place for
/// them) decide which drop regains a right; files that do not fit are refused, changing nothing.
#[test]
fn p5_chess960_start_files_decide_which_dropped_rook_may_castle() {
    use chess_core::{CastlingSide, File, StartFilesError};
    let start = "3k4/8/8/8/8/8/8/3K4[RR] w - - 0 1";
    let b = File::from_char('b').unwrap();
    let mut p = pos(start);
    p.set_drop_rules(DropRules::new(2..=6, true).unwrap());
    p.set_king_moved(Color::White, false);
    p.set_chess960_start_files(b, File::G).unwrap();
    assert!(p.castling().is_chess960());
    play(&mut p, "R@a1");
    play(&mut p, "d8e8");
    assert!(p.castling().rooks().is_empty(), "a1 is no start square here");
    play(&mut p, "R@b1");
    play(&mut p, "e8d8");
    assert_eq!(p.castling().rooks(), chess_core::Bitboard::from_square(sq("b1")));
    assert!(p.parse_uci("d1b1").is_ok(), "king d1 to c1, rook b1 to d1");
    let before = p;
    assert_eq!(
        p.set_chess960_start_files(File::G, b),
        Err(StartFilesError::Order { queen_side: File::G, king_side: b })
    );
    assert_eq!(
        p.set_chess960_start_files(File::A, File::G),
        Err(StartFilesError::Right { rook: sq("b1"), side: CastlingSide::QueenSide, file: File::A })
    );
    assert_eq!(p, before);
}

/// E5: a drop resets the halfmove clock like a pawn move.
#[test]
fn e5_drops_reset_the_halfmove_clock() {
    let mut p = pos("4k3/8/8/8/8/8/8/4K3[N] w - - 37 60");
    play(&mut p, "N@c3");
    assert_eq!(p.halfmoves(), 0);
    play(&mut p, "e8d8");
    assert_eq!(p.halfmoves(), 1);
}

/// E4: pockets are part of the position for repetition (and so of the hash).
#[test]
fn e4_pockets_are_part_of_the_hash() {
    let a = pos("4k3/8/8/8/8/8/8/4K3[N] w - - 0 1");
    let b = pos("4k3/8/8/8/8/8/8/4K3[B] w - - 0 1");
    let c = pos("4k3/8/8/8/8/8/8/4K3[] w - - 0 1");
    assert_ne!(a.zobrist(), b.zobrist());
    assert_ne!(a.zobrist(), c.zobrist());
    let mut d = c;
    d.add_to_pocket(Role::Knight.of(Color::White)).unwrap();
    assert_eq!(d.zobrist(), a.zobrist());
    assert_eq!(d, a);
    d.remove_from_pocket(Role::Knight.of(Color::White)).unwrap();
    assert_eq!(d.zobrist(), c.zobrist());
    assert!(d.remove_from_pocket(Role::Knight.of(Color::White)).is_err());
    assert!(d.add_to_pocket(Role::King.of(Color::White)).is_err());
}
