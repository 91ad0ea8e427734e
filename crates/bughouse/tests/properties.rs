//! Random full games on both boards under both presets: colour conservation (C2) after every
//! move, BFEN round-trip of every position, every listed move playable, no panic.

mod common;

use bughouse::{BoardId, BughouseMove, Game, RuleOptions};
use chess_core::{Bitboard, Color, Move, Rank, Role, Square};
use testkit::SplitMix;

/// A random legal move on a board that has one (`None`: the game is over, by mate on a board or
/// with both boards waiting).
fn random_move(g: &Game, rng: &mut SplitMix) -> Option<BughouseMove> {
    let boards: Vec<BoardId> = BoardId::ALL.into_iter().filter(|&b| !g.legal_moves(b).is_empty()).collect();
    if boards.is_empty() || BoardId::ALL.iter().any(|&b| g.is_mate_on_board(b)) {
        return None;
    }
    let moves = g.legal_moves(boards[rng.below(boards.len())]);
    Some(moves[rng.below(moves.len())])
}

#[test]
fn c2_random_games_conserve_colours_and_round_trip_bfen() {
    let mut checked = 0;
    let mut captures_seen = 0;
    let mut drops_seen = 0;
    let mut removals_seen = 0;
    let (base, _say) = testkit::seeded(0);
    for preset in bughouse::PRESETS {
        let rules = RuleOptions::preset(preset).unwrap().rules().unwrap();
        let mut rng = SplitMix(base.wrapping_add(preset.len() as u64));
        for _game in 0..40 {
            let mut g = Game::new(rules);
            for _ply in 0..300 {
                let Some(m) = random_move(&g, &mut rng) else { break };
                let board = m.board;
                captures_seen += usize::from(m.mv.is_capture());
                drops_seen += usize::from(m.mv.is_drop());
                removals_seen += usize::from(m.removal.is_some());
                // Notation round-trips too.
                assert_eq!(g.parse_move(board, &g.uci(&m)), Ok(m), "{}", g.bfen());
                assert_eq!(g.parse_move(board, &g.san(&m)), Ok(m), "{} in {}", g.san(&m), g.bfen());
                g.play(m).unwrap();
                assert_eq!(
                    (g.units(Color::White), g.units(Color::Black)),
                    (32, 32),
                    "C2 after {}: {}",
                    g.uci(&m),
                    g.bfen()
                );
                let text = g.bfen();
                let back = Game::from_bfen(&text, rules).unwrap_or_else(|e| panic!("{text}: {e}"));
                assert_eq!(back.bfen(), text);
                assert_eq!(back.repetition_key(BoardId::A), g.repetition_key(BoardId::A), "{text}");
                assert_eq!(back.repetition_key(BoardId::B), g.repetition_key(BoardId::B), "{text}");
                checked += 1;
            }
        }
    }
    assert!(checked > 10_000, "{checked}");
    assert!(captures_seen > 1_000 && drops_seen > 1_000, "{captures_seen} captures, {drops_seen} drops");
    assert!(removals_seen > 0, "no promotion by removal was played");
}

/// Every move a player could name on `board`, legal or not: each of his pieces to every square;
/// each pawn's promotions on the squares it could reach from the seventh rank, with every promotion field, without a
/// removal square and with each square of the other board that holds a piece or is next to
/// one; every drop of every role, without and with a removal square.
fn candidates(g: &Game, board: BoardId) -> Vec<BughouseMove> {
    let pos = g.board(board);
    let b = pos.board();
    let other = g.board(board.other()).board().occupied();
    let near_other = other | other.into_iter().filter_map(|sq| sq.offset(1)).collect::<Bitboard>();
    let squares = || (0..64).map(|i| Square::new(i).unwrap());
    let mut out = Vec::new();
    for from in b.by_color(pos.turn()) {
        let role = b.role_at(from).unwrap();
        for to in squares() {
            let mv = Move::Normal { role, from, capture: b.role_at(to), to, promotion: None };
            out.push(BughouseMove { board, mv, removal: None });
            let reachable = from.rank().relative_to(pos.turn()) == Rank::SEVENTH
                && to.rank().relative_to(pos.turn()) == Rank::EIGHTH
                && from.file().index().abs_diff(to.file().index()) <= 1;
            if role != Role::Pawn || !reachable {
                continue;
            }
            for promotion in [
                Some(Role::Queen),
                Some(Role::Rook),
                Some(Role::Bishop),
                Some(Role::Knight),
                Some(Role::King),
            ] {
                let mv = Move::Normal { role, from, capture: b.role_at(to), to, promotion };
                out.push(BughouseMove { board, mv, removal: None });
                out.extend(near_other.into_iter().map(|sq| BughouseMove { board, mv, removal: Some(sq) }));
            }
            out.extend(near_other.into_iter().map(|sq| BughouseMove { board, mv, removal: Some(sq) }));
        }
    }
    for role in Role::ALL {
        for to in squares() {
            let mv = Move::Drop { role, to };
            out.push(BughouseMove { board, mv, removal: None });
            out.extend(other.first().map(|sq| BughouseMove { board, mv, removal: Some(sq) }));
        }
    }
    out
}

/// `Game::is_legal` decides one move without listing the board's moves: it must say exactly what
/// `Game::legal_moves` says, promotions by removal (R1–R4) and drops that would mate (P3)
/// included, for the listed moves and every near miss.
#[test]
fn r1_r4_p3_is_legal_says_exactly_what_the_legal_move_list_says() {
    let (base, _say) = testkit::seeded(0);
    let mut checked = 0;
    let (mut removals, mut vanishing, mut mating_drops_refused) = (0, 0, 0);
    for preset in bughouse::PRESETS {
        let rules = RuleOptions::preset(preset).unwrap().rules().unwrap();
        let mut rng = SplitMix(base.wrapping_add(7 * preset.len() as u64));
        for _game in 0..12 {
            let mut g = Game::new(rules);
            for ply in 0..300 {
                let Some(next) = random_move(&g, &mut rng) else { break };
                // Every legal move is legal; every sixth position, every near miss too.
                for board in BoardId::ALL {
                    let legal = g.legal_moves(board);
                    for m in &legal {
                        assert!(g.is_legal(m), "{} is listed but not legal in {}", g.uci(m), g.bfen());
                        removals += usize::from(m.removal.is_some());
                        vanishing += usize::from(m.is_promotion() && m.mv.promotion().is_none());
                    }
                    checked += legal.len();
                    if ply % 6 != 0 {
                        continue;
                    }
                    for m in candidates(&g, board) {
                        let listed = legal.contains(&m);
                        assert_eq!(g.is_legal(&m), listed, "{m:?} in {}", g.bfen());
                        mating_drops_refused += usize::from(
                            !listed
                                && m.mv.is_drop()
                                && m.removal.is_none()
                                && g.board(board).is_legal(&m.mv),
                        );
                        checked += 1;
                    }
                }
                g.play(next).unwrap();
            }
        }
    }
    assert!(checked > 500_000, "{checked}");
    assert!(removals > 0, "no promotion by removal was listed");
    assert!(mating_drops_refused > 0, "no drop was refused for mating (P3)");
    eprintln!(
        "{checked} moves checked; {removals} removals and {vanishing} vanishing promotions listed, {mating_drops_refused} mating drops refused"
    );
}
