//! Legal-move generation of the bughouse rules on drop-heavy middlegames with full reserves, with
//! mate-on-board filtering of drops (P3) and removal expansion of promotions (R1–R4) on.
//!
//! Reported as nodes per second of a small perft on one board (every move played with its
//! transfers), next to the chess core's own perft of the same position measured the same way (moves listed, not
//! bulk-counted) in the same run — the reference — and the ratio (bughouse ÷ core). The core counts plain drops without the P3
//! filter, so the ratio is the price of the variant's rules.
//!
//! Run: `cargo bench -p bughouse --bench movegen`.

use std::hint::black_box;
use std::time::{Duration, Instant};

use bughouse::{BoardId, Game, RuleOptions};

const POSITIONS: [(&str, &str, u32); 3] = [
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
];

fn bughouse_perft(game: &Game, board: BoardId, depth: u32) -> u64 {
    let moves = game.legal_moves(board);
    if depth <= 1 {
        return moves.len() as u64;
    }
    moves
        .into_iter()
        .map(|m| {
            let mut child = *game;
            child.play_unchecked(m);
            bughouse_perft(&child, board, depth - 1)
        })
        .sum()
}

/// The core's perft, listing the leaves' moves as the bughouse perft does (no bulk counting).
fn core_perft(pos: &chess_core::Position, depth: u32) -> u64 {
    let moves = pos.legal_moves();
    if depth <= 1 {
        return moves.len() as u64;
    }
    moves
        .into_iter()
        .map(|m| {
            let mut child = *pos;
            child.play_unchecked(m);
            core_perft(&child, depth - 1)
        })
        .sum()
}

fn best_of<F: FnMut() -> u64>(rounds: u32, mut f: F) -> (u64, Duration) {
    let mut best = Duration::MAX;
    let mut nodes = 0;
    for _ in 0..rounds {
        let start = Instant::now();
        nodes = black_box(f());
        best = best.min(start.elapsed());
    }
    (nodes, best)
}

fn main() {
    let rules = RuleOptions::mgimo_2017().rules().expect("preset");
    println!(
        "{:<14} {:>5} {:>10} {:>14} {:>10} {:>14} {:>7}",
        "position", "depth", "bh nodes", "bughouse n/s", "core nodes", "core n/s", "ratio"
    );
    for (name, bfen, depth) in POSITIONS {
        let game = Game::from_bfen(bfen, rules).expect("benchmark BFEN");
        let core = *game.board(BoardId::A);
        let (bn, bt) = best_of(5, || bughouse_perft(black_box(&game), BoardId::A, depth));
        let (cn, ct) = best_of(5, || core_perft(black_box(&core), depth));
        let bnps = bn as f64 / bt.as_secs_f64();
        let cnps = cn as f64 / ct.as_secs_f64();
        println!("{name:<14} {depth:>5} {bn:>10} {bnps:>14.0} {cn:>10} {cnps:>14.0} {:>7.3}", bnps / cnps);
    }
}
