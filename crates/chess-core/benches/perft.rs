//! Perft speed of this rules core against cozy-chess (an independent, fast move generator),
//! measured in the same run on the six reference positions of the chessprogramming wiki.
//!
//! Both sides count the last ply without playing it (bulk counting), as cozy-chess's own perft
//! example does. Each position is timed in several interleaved rounds and the best round of each
//! side is kept, so a noisy shared machine hurts both alike. The ratio is ours ÷ reference
//! (higher is better; the target is at least 0.7 on every position).
//!
//! Run: `cargo bench -p chess-core --bench perft` (optionally `-- --rounds N`).

use std::hint::black_box;
use std::time::{Duration, Instant};

use chess_core::{Position, perft};

const POSITIONS: [(&str, &str, u32); 6] = [
    ("initial", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 5),
    ("kiwipete", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 4),
    ("position-3", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 6),
    ("position-4", "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", 5),
    ("position-5", "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", 4),
    ("position-6", "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10", 4),
];

fn cozy_perft(board: &cozy_chess::Board, depth: u32) -> u64 {
    let mut nodes = 0;
    match depth {
        0 => nodes = 1,
        1 => {
            board.generate_moves(|moves| {
                nodes += moves.len() as u64;
                false
            });
        }
        _ => {
            board.generate_moves(|moves| {
                for mv in moves {
                    let mut child = board.clone();
                    child.play_unchecked(mv);
                    nodes += cozy_perft(&child, depth - 1);
                }
                false
            });
        }
    }
    nodes
}

fn time<F: FnMut() -> u64>(mut f: F) -> (u64, Duration) {
    let start = Instant::now();
    let nodes = black_box(f());
    (nodes, start.elapsed())
}

fn main() {
    let mut rounds = 5;
    let args: Vec<String> = std::env::args().collect();
    if let Some(i) = args.iter().position(|a| a == "--rounds") {
        rounds = args.get(i + 1).and_then(|v| v.parse().ok()).unwrap_or(rounds);
    }
    println!(
        "{:<12} {:>5} {:>12} {:>14} {:>14} {:>7}",
        "position", "depth", "nodes", "ours n/s", "cozy n/s", "ratio"
    );
    let mut worst: f64 = f64::INFINITY;
    for (name, fen, depth) in POSITIONS {
        let ours = Position::from_fen(fen).expect("reference FEN");
        let theirs: cozy_chess::Board = fen.parse().expect("reference FEN");
        let (mut best_ours, mut best_theirs) = (Duration::MAX, Duration::MAX);
        let mut nodes = 0;
        for _ in 0..rounds {
            let (n1, t1) = time(|| perft(black_box(&ours), depth));
            let (n2, t2) = time(|| cozy_perft(black_box(&theirs), depth));
            assert_eq!(n1, n2, "{name}: node counts differ");
            nodes = n1;
            best_ours = best_ours.min(t1);
            best_theirs = best_theirs.min(t2);
        }
        let nps = |t: Duration| nodes as f64 / t.as_secs_f64();
        let ratio = nps(best_ours) / nps(best_theirs);
        worst = worst.min(ratio);
        println!(
            "{name:<12} {depth:>5} {nodes:>12} {:>14.0} {:>14.0} {ratio:>7.2}",
            nps(best_ours),
            nps(best_theirs)
        );
    }
    println!("worst ratio (ours / cozy-chess): {worst:.2} (target >= 0.70)");
}
