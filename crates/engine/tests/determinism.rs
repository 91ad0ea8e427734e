//! The same position with the same node limit gives the same choice from fresh engines.

mod common;

use bughouse::BoardId;
use common::{game2, nodes};
use shvedka_engine::Engine;

#[test]
fn same_position_same_node_limit_same_move() {
    let g = game2(
        "r1bq1rk1/ppp2ppp/2np1n2/2b1p3/2B1P3/2NP1N2/PPP2PPP/R1BQ1RK1[QRBNPqrbnp] w - - 0 8",
        "r1bqk2r/pppp1ppp/2n2n2/8/1b6/2N2N2/PPPP1PPP/R1BQKB1R[Pp] w KQkq - 0 6",
        "mgimo-2017",
    );
    let first = Engine::new(5).choose(&g, BoardId::A, nodes(15_000)).expect("a move");
    let second = Engine::new(5).choose(&g, BoardId::A, nodes(15_000)).expect("a move");
    assert_eq!(first, second);
    assert!(first.depth >= 1, "{first:?}");
}
