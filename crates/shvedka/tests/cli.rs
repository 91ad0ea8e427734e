//! The real `shvedka` binary, run as a process: what arbiters and scripts see.

use std::process::Command;

fn shvedka(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_shvedka")).args(args).output().expect("run shvedka");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn last_line(s: &str) -> &str {
    s.lines().last().unwrap_or("")
}

#[test]
fn perft_prints_the_count_alone_on_its_last_line() {
    let (ok, out, _) = shvedka(&["perft", "--depth", "3"]);
    assert!(ok);
    assert_eq!(last_line(&out), "8902");
    let kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    let (ok, out, _) = shvedka(&["perft", "--fen", kiwipete, "--depth", "3"]);
    assert!(ok);
    assert_eq!(last_line(&out), "97862");
}

#[test]
fn perft_searches_drops_when_the_fen_has_pockets() {
    // Same record as tests/data/drops.perft (opening-mixed), established with python-chess.
    let fen = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R[Nnp] w KQkq - 2 3";
    let (ok, out, _) = shvedka(&["perft", "--fen", fen, "--depth", "2"]);
    assert!(ok);
    assert_eq!(last_line(&out), "5224");
}

#[test]
fn perft_divide_lists_first_moves_and_sums_them() {
    let (ok, out, _) = shvedka(&["perft", "--depth", "2", "--divide"]);
    assert!(ok);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 22, "{out}");
    assert_eq!(lines[0], "a2a3: 20");
    let sum: u64 = lines[..20].iter().map(|l| l.rsplit(' ').next().unwrap().parse::<u64>().unwrap()).sum();
    assert_eq!(sum, 400);
    assert_eq!(lines[21], "400");
}

#[test]
fn perft_rejects_a_bad_fen_with_a_clear_error() {
    let (ok, out, err) =
        shvedka(&["perft", "--fen", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1", "--depth", "1"]);
    assert!(!ok);
    assert!(out.is_empty());
    assert!(err.contains("invalid FEN") && err.contains("expected 8 ranks"), "{err}");
    let (ok, _, err) = shvedka(&["perft", "--depth", "x"]);
    assert!(!ok);
    assert!(err.contains("--depth"), "{err}");
}
