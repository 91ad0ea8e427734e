//! Robustness: in hundreds of positions reached by random legal play (both presets, some with full
//! reserves), the choice is always one of the bughouse crate's legal moves, `None` exactly when
//! there is none, and nothing panics.

mod common;

use bughouse::{BoardId, Game};
use common::{assert_legal, game2, nodes};
use shvedka_engine::Engine;
use testkit::SplitMix;

const FULL: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[QRBNPPqrbnpp] w KQkq - 0 1";
const EMPTY: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1";

/// Plays up to `plies` random legal moves on random boards; stops at mate on board.
fn playout(g: &mut Game, rng: &mut SplitMix, plies: usize) {
    for _ in 0..plies {
        if BoardId::ALL.iter().any(|&b| g.is_mate_on_board(b)) {
            return;
        }
        let first = if rng.coin() { BoardId::A } else { BoardId::B };
        let Some((_, moves)) = [first, first.other()]
            .into_iter()
            .map(|b| (b, g.legal_moves(b)))
            .find(|(_, moves)| !moves.is_empty())
        else {
            return;
        };
        let mv = moves[rng.below(moves.len())];
        g.play(mv).unwrap_or_else(|e| panic!("{mv:?} in {}: {e}", g.bfen()));
    }
}

/// What the random positions held: the choice is only proven for the kinds of position reached.
#[derive(Debug, Default)]
struct Coverage {
    /// Boards whose legal moves include a drop.
    drops: usize,
    /// Boards whose legal moves include a promotion by removal (R1).
    removals: usize,
    /// Boards whose side to move is in check.
    checks: usize,
    /// Boards with no legal move (the engine must say `None`).
    no_move: usize,
    /// Choices that were drops.
    chosen_drops: usize,
}

fn check_position(engine: &mut Engine, g: &Game, seen: &mut Coverage) {
    for board in BoardId::ALL {
        let legal = g.legal_moves(board);
        seen.drops += usize::from(legal.iter().any(|m| m.mv.is_drop()));
        seen.removals += usize::from(legal.iter().any(|m| m.removal.is_some()));
        seen.checks += usize::from(g.board(board).is_check());
        seen.no_move += usize::from(legal.is_empty());
        match engine.choose(g, board, nodes(200)) {
            Some(choice) => {
                assert_legal(g, &choice.mv);
                seen.chosen_drops += usize::from(choice.mv.mv.is_drop());
            }
            None => assert!(legal.is_empty(), "no choice but {} legal moves in {}", legal.len(), g.bfen()),
        }
    }
}

#[test]
fn random_positions_always_get_a_legal_choice() {
    let (seed, _say) = testkit::seeded(0x5eed_2017);
    let mut rng = SplitMix(seed);
    let mut engine = Engine::new(1);
    let mut seen = Coverage::default();
    for i in 0..320 {
        let preset = if i % 2 == 0 { "mgimo-2017" } else { "classic" };
        let start = if i % 4 < 2 { EMPTY } else { FULL };
        let mut g = game2(start, start, preset);
        let plies = rng.below(80);
        playout(&mut g, &mut rng, plies);
        check_position(&mut engine, &g, &mut seen);
    }
    eprintln!("random positions from {}: {seen:?}", testkit::replay(seed));
    // The positions reach what the engine must handle: drops to choose among, promotions by
    // removal, checks to answer, boards with no move at all (640 boards; with the fixed seed each count is far above these).
    assert!(seen.drops >= 100, "{seen:?}");
    assert!(seen.chosen_drops >= 10, "{seen:?}");
    assert!(seen.checks >= 10, "{seen:?}");
    assert!(seen.removals >= 1, "{seen:?}");
    assert!(seen.no_move >= 1, "{seen:?}");
}
