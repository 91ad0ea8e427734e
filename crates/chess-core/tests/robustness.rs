//! No input makes the parsers panic, and random play with pockets keeps every invariant: the
//! incremental hash equals a fresh one, FEN round-trips, no legal move leaves the mover in check
//! or captures a king (M4), and captured pieces come back to the caller.

use chess_core::{Color, Move, Position, Role, San, UciMove};
use testkit::SplitMix as Rng;

const ALPHABET: &[u8] = b"rnbqkpRNBQKP12345678/[]~ -wbKQkqa-h0x@=+#O!?abcdefgh9";

fn mutate(rng: &mut Rng, s: &str) -> String {
    let mut bytes: Vec<u8> = s.bytes().collect();
    for _ in 0..=rng.below(4) {
        let c = ALPHABET[rng.below(ALPHABET.len())];
        match rng.below(3) {
            0 if !bytes.is_empty() => {
                let i = rng.below(bytes.len());
                bytes[i] = c;
            }
            1 => {
                let i = rng.below(bytes.len() + 1);
                bytes.insert(i, c);
            }
            _ if !bytes.is_empty() => {
                let i = rng.below(bytes.len());
                bytes.remove(i);
            }
            _ => {}
        }
    }
    String::from_utf8_lossy(&bytes).into_owned()
}

#[test]
fn parsers_never_panic_on_mutated_input() {
    let mut rng = Rng(7);
    let seeds = [
        chess_core::STARTING_FEN,
        "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R[QRBNPqrbnp] w KQkq - 2 3",
        "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
        "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
    ];
    let moves = ["e4", "Nbd7", "exd8=Q+", "O-O-O", "N@f3", "@e4", "e2e4", "e7e8q", "P@e4", "Qa1b2#"];
    let mut accepted = 0;
    for i in 0..20_000 {
        let fen = mutate(&mut rng, seeds[i % seeds.len()]);
        if let Ok(p) = Position::from_fen(&fen) {
            accepted += 1;
            // Whatever parses must be playable and print back to something that parses the same.
            let again = Position::from_fen(&p.fen()).unwrap_or_else(|e| panic!("{fen} -> {}: {e}", p.fen()));
            assert_eq!(again.fen(), p.fen(), "{fen}");
            assert_eq!(again.zobrist(), p.zobrist(), "{fen}");
            if p.ep_target().is_some() && p.ep_square().is_none() {
                // A double step whose capture is illegal now is a fact the FEN does not write (it
                // writes the right): the read-back is the position without that fact.
                let mut fields: Vec<&str> = fen.split_ascii_whitespace().collect();
                fields[3] = "-";
                assert_eq!(again, Position::from_fen(&fields.join(" ")).unwrap(), "{fen}");
            } else {
                assert_eq!(again, p, "{fen}");
            }
            for m in p.legal_moves().into_iter().take(5) {
                let mut q = p;
                q.play_unchecked(m);
                let _ = q.fen();
            }
        }
        let text = mutate(&mut rng, moves[i % moves.len()]);
        let _ = San::parse(&text);
        let _ = UciMove::parse(&text);
        let p = Position::new();
        let _ = p.parse_san(&text);
        let _ = p.parse_uci(&text);
    }
    assert!(accepted > 100, "only {accepted} mutated FENs parsed: the test would check little");
}

fn mover_in_check_after(p: &Position, m: Move) -> bool {
    let mut q = *p;
    q.play_unchecked(m);
    let king = q.board().king_of(p.turn()).expect("king stays");
    q.board().is_attacked(king, !p.turn(), q.board().occupied())
}

/// Random crazyhouse-style games (captures go to the capturer's pocket via the public API).
#[test]
fn random_games_with_pockets_keep_invariants() {
    let mut rng = Rng(2026);
    let mut positions = 0;
    for _game in 0..60 {
        let mut p = Position::from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1").unwrap();
        for _ply in 0..160 {
            let moves = p.legal_moves();
            assert_eq!(moves.len(), p.count_legal(), "{}", p.fen());
            if moves.is_empty() {
                assert!(p.is_checkmate() || p.is_stalemate());
                break;
            }
            for &m in &moves {
                assert!(m.capture() != Some(Role::King), "M4: {} in {}", p.uci(&m), p.fen());
                assert!(
                    !mover_in_check_after(&p, m),
                    "{} leaves the king in check in {}",
                    p.uci(&m),
                    p.fen()
                );
            }
            let m = moves[rng.below(moves.len())];
            let mover = p.turn();
            if let Some(captured) = p.play_unchecked(m) {
                assert_eq!(captured.piece.color, !mover);
                let role = if captured.promoted { Role::Pawn } else { captured.piece.role };
                p.add_to_pocket(role.of(mover)).unwrap();
            }
            let fresh = Position::from_fen(&p.fen()).unwrap();
            assert_eq!(fresh.zobrist(), p.zobrist(), "hash drifted: {}", p.fen());
            assert_eq!(fresh.checkers(), p.checkers());
            assert_eq!(fresh.fen(), p.fen());
            positions += 1;
        }
        // Conservation in the core: pieces on board plus pockets stay 32 (captures re-pocketed).
        let pockets = p.pockets().unwrap();
        let total: u32 = Color::ALL.iter().map(|&c| pockets.of(c).total()).sum::<u32>()
            + p.board().occupied().count() as u32;
        assert_eq!(total, 32, "{}", p.fen());
    }
    assert!(positions > 5_000, "{positions}");
}
