//! Perft vectors as data: every `tests/data/*.perft` file is read and each record's counts are
//! checked against the move generator.
//!
//! - `standard.perft`: the six reference positions of the chessprogramming wiki (published counts).
//! - `chess960.perft`: Chess960 positions (FIDE appendix F castling), counts from python-chess and,
//!   where marked, the wiki's published table.
//! - `drops.perft`: positions with pockets under the crazyhouse-style convention of `perft`
//!   (pawn drops on ranks 2–7, captured pieces join no pocket), counts established independently
//!   with python-chess by `tools/perft_reference.py`.
//!
//! Depths above `SHVEDKA_PERFT_MAX_DEPTH` (default 4) are skipped; set it higher for the deep run.

use std::path::Path;

use chess_core::{Position, perft};

struct Record {
    file: String,
    id: String,
    fen: String,
    counts: Vec<(u32, u64)>,
}

fn parse_file(path: &Path) -> Vec<Record> {
    let text = std::fs::read_to_string(path).unwrap();
    let name = path.file_name().unwrap().to_string_lossy().into_owned();
    let mut records = Vec::new();
    let mut current: Option<Record> = None;
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (key, value) = line.split_once(' ').unwrap_or_else(|| panic!("{name}:{}: no value", n + 1));
        match key {
            "id" => {
                records.extend(current.take());
                current = Some(Record {
                    file: name.clone(),
                    id: value.to_owned(),
                    fen: String::new(),
                    counts: vec![],
                });
            }
            "fen" | "epd" => current.as_mut().expect("fen before id").fen = value.to_owned(),
            "perft" => {
                let (d, c) = value.split_once(' ').expect("perft <depth> <count>");
                current
                    .as_mut()
                    .expect("perft before id")
                    .counts
                    .push((d.parse().unwrap(), c.parse().unwrap()));
            }
            other => panic!("{name}:{}: unknown key {other}", n + 1),
        }
    }
    records.extend(current);
    records
}

fn max_depth() -> u32 {
    std::env::var("SHVEDKA_PERFT_MAX_DEPTH").ok().and_then(|v| v.parse().ok()).unwrap_or(4)
}

fn run(file: &str) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data").join(file);
    let records = parse_file(&path);
    assert!(!records.is_empty(), "{file} holds no records");
    let mut checked = 0;
    let mut failures = Vec::new();
    for r in &records {
        let pos = Position::from_fen(&r.fen).unwrap_or_else(|e| panic!("{} {}: {e}", r.file, r.id));
        assert_eq!(
            pos.fen().split(' ').next().map(|p| p.split('[').next()),
            r.fen.split(' ').next().map(|p| p.split('[').next())
        );
        for &(depth, expected) in &r.counts {
            if depth > max_depth() {
                continue;
            }
            let got = perft(&pos, depth);
            checked += 1;
            if got != expected {
                failures.push(format!(
                    "{} {} depth {depth}: expected {expected}, got {got} ({})",
                    r.file, r.id, r.fen
                ));
            }
        }
    }
    assert!(failures.is_empty(), "perft mismatches:\n{}", failures.join("\n"));
    assert!(checked >= records.len(), "{file}: only {checked} counts checked");
}

/// The chessprogramming wiki's six reference positions (FIDE rules).
#[test]
fn perft_standard_reference_positions() {
    run("standard.perft");
}

/// Chess960 castling (FIDE appendix F) through the same move generator.
#[test]
fn perft_chess960_positions() {
    run("chess960.perft");
}

/// Drops from pockets (bughouse P1, P2 ranks 2–7, P4 en passant after a dropped pawn's double step).
#[test]
fn perft_drop_positions() {
    run("drops.perft");
}
