//! BPGN import errors: each names the line and column and what was expected there; and no input,
//! however mangled, makes the crate panic.

mod common;

use bughouse::BoardId;
use common::{data, random_play, rules};
use shvedka_records::{check_record, parse_bpgn};
use testkit::SplitMix;

/// Each file under tests/data/bad starts with `; error LINE:COLUMN <start of the expectation>`.
#[test]
fn a4_parse_errors_name_line_column_and_what_was_expected() {
    let dir = format!("{}/tests/data/bad", env!("CARGO_MANIFEST_DIR"));
    let mut files: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).collect();
    files.sort();
    assert!(files.len() >= 10);
    for path in files {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let text = data(&format!("bad/{name}"));
        let header = text.lines().next().unwrap().trim_end();
        let spec = header.strip_prefix("; error ").unwrap_or_else(|| panic!("{name}: no '; error' line"));
        let (at, expected) = spec.split_once(' ').unwrap();
        let (line, column) = at.split_once(':').unwrap();
        let err = parse_bpgn(&text).expect_err(&name);
        assert_eq!((err.line, err.column), (line.parse().unwrap(), column.parse().unwrap()), "{name}: {err}");
        let shown = err.to_string();
        assert!(shown.starts_with(&format!("line {line}, column {column}: {expected}")), "{name}: {shown}");
    }
}

#[test]
fn a4_parse_error_says_what_was_found() {
    let err = parse_bpgn("1A. e4 1a. Zz9 *").unwrap_err();
    assert_eq!(err.found.as_deref(), Some("Zz9"));
    assert!(err.to_string().ends_with("found \"Zz9\""), "{err}");
    let err = parse_bpgn("[Event \"x\"]\n1A. e4 {179").unwrap_err();
    assert_eq!(err.found, None);
    assert!(err.to_string().ends_with("found the end of the input"), "{err}");
}

const NOISE: &[char] = &[
    '{', '}', '[', ']', '(', ')', '"', '\\', ';', '$', '*', '.', '-', '/', '@', '=', '+', '#', 'x', 'O', '0',
    '1', '2', '9', 'A', 'a', 'B', 'b', 'e', 'h', 'K', 'Q', 'N', 'P', ' ', '\n', '\r', 'é', '\u{feff}',
];

fn mutate(rng: &mut SplitMix, text: &str) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    for _ in 0..=rng.below(4) {
        let at = rng.below(chars.len() + 1);
        match rng.below(5) {
            0 => chars.truncate(at),
            1 => chars.insert(at, NOISE[rng.below(NOISE.len())]),
            2 if at < chars.len() => {
                chars.remove(at);
            }
            3 if at < chars.len() => chars[at] = NOISE[rng.below(NOISE.len())],
            _ => {
                // Duplicate a slice somewhere else.
                let from = rng.below(chars.len() + 1);
                let len = rng.below(40).min(chars.len() - from);
                let slice: Vec<char> = chars[from..from + len].to_vec();
                let at = at.min(chars.len());
                chars.splice(at..at, slice);
            }
        }
    }
    chars.into_iter().collect()
}

#[test]
fn a4_mutated_and_truncated_inputs_never_panic() {
    let mut seeds = vec![
        data("bughousedb_sample.bpgn"),
        random_play(21, 40, "mgimo-2017", None).record.to_bpgn(),
        data("check/type2_castle_with_dropped_rook.bpgn"),
        data("check/clean_promotion_by_removal.bpgn"),
    ];
    seeds.push(random_play(22, 30, "classic", None).record.to_bpgn());
    let presets = [rules("mgimo-2017"), rules("classic")];
    let (base, _say) = testkit::seeded(0x5eed);
    let mut rng = SplitMix(base);
    let (mut ok, mut failed) = (0, 0);
    for round in 0..4000 {
        let seed = &seeds[round % seeds.len()];
        let text = mutate(&mut rng, seed);
        match parse_bpgn(&text) {
            Ok(games) => {
                ok += 1;
                for game in &games {
                    let again = parse_bpgn(&game.to_bpgn()).expect("our export always reads back");
                    assert_eq!(again.len(), 1);
                    let _ = game.to_pgn(BoardId::A);
                    let _ = game.to_pgn(BoardId::B);
                    let _ = game.rules();
                    if round % 4 == 0 {
                        let rules = presets[round % 8 / 4];
                        let _ = game.replay(rules).map(|r| r.position_after(r.len()));
                        let _ = check_record(game, rules).to_string();
                    }
                }
            }
            Err(e) => {
                failed += 1;
                assert!(e.line >= 1 && e.column >= 1, "{e}");
                let _ = e.to_string();
            }
        }
    }
    assert!(
        ok > 100 && failed > 100,
        "the mutations should exercise both paths: {ok} read, {failed} refused"
    );
}
