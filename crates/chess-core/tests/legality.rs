//! `Position::is_legal` decides one move without listing the others; it must say exactly what the
//! list says. Checked over every perft position (standard, Chess960, with pockets) and the
//! positions a few plies after them, for every move of the list and for every near miss a
//! client could send: each piece of the side to move to every square (each capture and promotion
//! field, right or wrong), every en passant and castling pair, every drop of every role.

use std::path::Path;

use chess_core::{Move, Position, Role, Square, UciMove};
use testkit::SplitMix;

/// The FENs of every record of the perft data files.
fn perft_fens() -> Vec<String> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data");
    let mut fens = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let text = std::fs::read_to_string(entry.unwrap().path()).unwrap();
        fens.extend(text.lines().filter_map(|l| l.trim().strip_prefix("fen ")).map(str::to_owned));
    }
    fens
}

/// Every perft position, and the positions along `lines` random lines of `plies` from each.
fn positions(lines: usize, plies: usize) -> Vec<Position> {
    let (seed, _say) = testkit::seeded(0);
    let mut rng = SplitMix(seed);
    let mut out = Vec::new();
    for fen in perft_fens() {
        let root = Position::from_fen(&fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        out.push(root);
        for _line in 0..lines {
            let mut pos = root;
            for _ply in 0..plies {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                pos.play_unchecked(moves[rng.below(moves.len())]);
                out.push(pos);
            }
        }
    }
    out
}

fn squares() -> impl Iterator<Item = Square> {
    (0..64).map(|i| Square::new(i).unwrap())
}

/// Every move a client could name in `pos`, legal or not (the legal ones among them).
fn candidates(pos: &Position) -> Vec<Move> {
    let board = pos.board();
    let ours = board.by_color(pos.turn());
    let mut out = Vec::new();
    let roles = [None, Some(Role::Pawn), Some(Role::Knight), Some(Role::Queen)];
    for from in ours {
        let role = board.role_at(from).unwrap();
        for to in squares() {
            let promotions: &[Option<Role>] = if role == Role::Pawn {
                &[None, Some(Role::Queen), Some(Role::Knight), Some(Role::Pawn), Some(Role::King)]
            } else {
                &[None, Some(Role::Queen)]
            };
            for &promotion in promotions {
                for capture in roles.iter().copied().chain([board.role_at(to)]) {
                    out.push(Move::Normal { role, from, capture, to, promotion });
                }
            }
            // The wrong role for the piece on `from`.
            out.push(Move::Normal {
                role: Role::Bishop,
                from,
                capture: board.role_at(to),
                to,
                promotion: None,
            });
            out.push(Move::EnPassant { from, to });
            out.push(Move::Castle { king: from, rook: to });
        }
    }
    for role in Role::ALL {
        for to in squares() {
            out.push(Move::Drop { role, to });
        }
    }
    out
}

/// The legal moves seen, by kind: castling, en passant, promotion, drop.
#[derive(Default)]
struct Seen([usize; 4]);

fn check(pos: &Position, fen: &str, seen: &mut Seen) -> usize {
    let legal = pos.legal_moves();
    for m in legal.iter() {
        assert!(pos.is_legal(m), "{m:?} is listed but not legal in {fen}");
        let kind = match m {
            Move::Castle { .. } => 0,
            Move::EnPassant { .. } => 1,
            Move::Normal { promotion: Some(_), .. } => 2,
            Move::Drop { .. } => 3,
            Move::Normal { .. } => continue,
        };
        seen.0[kind] += 1;
    }
    let mut checked = legal.len();
    for m in candidates(pos) {
        assert_eq!(pos.is_legal(&m), legal.contains(&m), "{m:?} in {fen}");
        checked += 1;
    }
    checked
}

#[test]
fn is_legal_says_exactly_what_the_legal_move_list_says() {
    let positions = positions(4, 6);
    let mut checked = 0;
    let mut seen = Seen::default();
    for pos in &positions {
        checked += check(pos, &pos.fen(), &mut seen);
    }
    assert!(positions.len() > 500, "{} positions", positions.len());
    assert!(checked > 1_000_000, "{checked} moves checked");
    // Every kind of move was among the legal ones checked.
    assert!(seen.0.iter().all(|&n| n > 0), "castles, en passant, promotions, drops: {:?}", seen.0);
}

/// `Position::resolve_uci` names the move the long notation means by checking the few moves it
/// can mean; it must find what a search of the legal move list finds (the first listed move
/// with that notation), for every text `from`–`to` (each promotion) and every drop.
#[test]
fn resolve_uci_finds_what_the_legal_move_list_finds() {
    let mut texts: Vec<UciMove> =
        Role::ALL.iter().flat_map(|&role| squares().map(move |to| UciMove::Drop { role, to })).collect();
    for from in squares() {
        for to in squares() {
            for promotion in [None, Some(Role::Queen), Some(Role::Knight), Some(Role::King)] {
                texts.push(UciMove::Normal { from, to, promotion });
            }
        }
    }
    let positions = positions(1, 7);
    let mut resolved = 0;
    for pos in &positions {
        let legal = pos.legal_moves();
        for uci in &texts {
            let by_list = legal.iter().copied().find(|m| names(pos, uci, m));
            assert_eq!(pos.resolve_uci(uci), by_list, "{uci:?} in {}", pos.fen());
            resolved += usize::from(by_list.is_some());
        }
    }
    assert!(positions.len() > 200 && resolved > 5_000, "{} positions, {resolved} resolved", positions.len());
}

/// Whether long notation `uci` names `m`, as the list search the resolver replaced read it: the
/// king's step or king takes rook for castling (the step only in standard chess).
fn names(pos: &Position, uci: &UciMove, m: &Move) -> bool {
    match (*uci, *m) {
        (UciMove::Drop { role, to }, Move::Drop { role: r, to: t }) => role == r && to == t,
        (UciMove::Normal { from, to, promotion }, Move::Normal { from: f, to: t, promotion: p, .. }) => {
            from == f && to == t && promotion == p
        }
        (UciMove::Normal { from, to, promotion: None }, Move::EnPassant { from: f, to: t }) => {
            from == f && to == t
        }
        (UciMove::Normal { from, to, promotion: None }, Move::Castle { king, rook }) => {
            from == king
                && (to == rook
                    || (!pos.castling().is_chess960()
                        && to == chess_core::CastlingSide::of(king, rook).king_to(pos.turn())))
        }
        _ => false,
    }
}
