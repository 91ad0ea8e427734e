//! Search speed of the engine, in nodes per second, on a few bughouse positions (full reserves,
//! open kings, an attack, the start).
//!
//! The machine is shared and noisy, so each figure is reported next to a reference measured in the
//! same run on the same position: the chess core's perft with every move listed and played (no bulk
//! counting), in positions reached per second — the move generation and copy-make a search node
//! costs, without the evaluation and ordering. The ratio (search ÷
//! perft) is the figure to compare between runs; each side keeps its best of several rounds.
//!
//! Run: `cargo bench -p shvedka-engine --bench search`.

use std::hint::black_box;
use std::time::{Duration, Instant};

use bughouse::{BoardId, Game, RuleOptions};
use chess_core::Position;
use shvedka_engine::{Engine, Limits};

const POSITIONS: [(&str, &str, u32); 4] = [
    (
        "full-reserves",
        "r1bq1rk1/ppp2ppp/2np1n2/2b1p3/2B1P3/2NP1N2/PPP2PPP/R1BQ1RK1[QRBNPqrbnp] w - - 0 8 | \
         rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1",
        2,
    ),
    (
        "open-kings",
        "r4rk1/pp3ppp/8/3q4/8/2P5/PP3PPP/R2Q1RK1[NNBPPnbppp] w - - 0 16 | \
         r1bqk2r/pppp1ppp/2n2n2/8/1b6/2N2N2/PPPP1PPP/R1BQKB1R[Pp] w KQkq - 0 6",
        2,
    ),
    (
        "attack",
        "r1b2rk1/pp3p1p/6p1/4q3/8/3B4/PPP2PPP/R2Q1RK1[QNPPbnpp] w - - 0 18 | \
         rnb1k2r/ppp2ppp/8/8/8/8/PPP2PPP/RNB1KB1R[QRrp] b KQkq - 0 9",
        2,
    ),
    (
        "start",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1 | \
         rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1",
        4,
    ),
];

/// Nodes per search.
const NODES: u64 = 300_000;
/// Rounds per measurement; the best is kept.
const ROUNDS: u32 = 3;

/// Positions reached in `depth` plies, every one of them played (as a search plays its nodes).
fn perft(pos: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    pos.legal_moves()
        .into_iter()
        .map(|m| {
            let mut child = *pos;
            child.play_unchecked(m);
            perft(&child, depth - 1)
        })
        .sum()
}

fn best_of<F: FnMut() -> u64>(mut f: F) -> (u64, Duration) {
    let mut best = Duration::MAX;
    let mut nodes = 0;
    for _ in 0..ROUNDS {
        let start = Instant::now();
        nodes = black_box(f());
        best = best.min(start.elapsed());
    }
    (nodes, best)
}

fn main() {
    let rules = RuleOptions::mgimo_2017().rules().expect("preset");
    let limits = Limits { time: None, nodes: Some(NODES), depth: None };
    println!(
        "{:<14} {:>8} {:>6} {:>12} {:>6} {:>11} {:>12} {:>7}",
        "position", "nodes", "depth", "search n/s", "perft", "leaves", "perft n/s", "ratio"
    );
    for (name, bfen, perft_depth) in POSITIONS {
        let game = Game::from_bfen(bfen, rules).expect("benchmark BFEN");
        let mut depth = 0;
        let (sn, st) = best_of(|| {
            let choice = Engine::new(5).choose(black_box(&game), BoardId::A, limits).expect("a move");
            depth = choice.depth;
            choice.nodes
        });
        let core = *game.board(BoardId::A);
        let (pn, pt) = best_of(|| perft(black_box(&core), perft_depth));
        let snps = sn as f64 / st.as_secs_f64();
        let pnps = pn as f64 / pt.as_secs_f64();
        println!(
            "{name:<14} {sn:>8} {depth:>6} {snps:>12.0} {perft_depth:>6} {pn:>11} {pnps:>12.0} {:>7.3}",
            snps / pnps
        );
    }
}
