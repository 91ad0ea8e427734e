//! Per-board PGN export: one board's moves only, with `[%clk]` comments, for ordinary tools.

mod common;

use bughouse::BoardId;
use common::{data, random_play};
use shvedka_records::parse_bpgn;

/// The move texts of a PGN movetext, in order: numbers, comments and the result dropped.
fn pgn_moves(pgn: &str) -> Vec<String> {
    let movetext = pgn.split("\n\n").nth(1).unwrap();
    let mut out = Vec::new();
    let mut depth = 0;
    let mut word = String::new();
    for c in movetext.chars().chain([' ']) {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            _ if depth > 0 => {}
            c if c.is_whitespace() => {
                let w = std::mem::take(&mut word);
                let number = w.ends_with('.') && w.starts_with(|c: char| c.is_ascii_digit());
                if !w.is_empty() && !number && !["1-0", "0-1", "1/2-1/2", "*"].contains(&w.as_str()) {
                    out.push(w);
                }
            }
            c => word.push(c),
        }
    }
    out
}

#[test]
fn a4_per_board_pgn_holds_only_that_boards_moves_with_clocks() {
    let played = random_play(31, 80, "mgimo-2017", None);
    for board in BoardId::ALL {
        let pgn = played.record.to_pgn(board);
        let mine: Vec<String> =
            played.record.moves.iter().filter(|m| m.board == board).map(|m| m.text.clone()).collect();
        assert!(!mine.is_empty());
        assert_eq!(pgn_moves(&pgn), mine, "board {board}:\n{pgn}");
        assert_eq!(pgn.matches("[%clk ").count(), mine.len(), "one clock per move of board {board}");
        assert!(pgn.contains("[Variant \"bughouse\"]"));
        for line in pgn.lines() {
            assert!(line.chars().count() <= 80, "{line}");
        }
    }
}

#[test]
fn a4_per_board_pgn_tags_players_result_and_clock_format() {
    let games = parse_bpgn(&data("bughousedb_sample.bpgn")).unwrap();
    let a = games[0].to_pgn(BoardId::A);
    let b = games[0].to_pgn(BoardId::B);
    // Movetext as one line, so that wrapping does not matter.
    let flat = |pgn: &str| pgn.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(a.contains("[White \"kiwi\"]\n[Black \"Hornet\"]\n[Result \"1-0\"]"), "{a}");
    // Team 1 won: on board B team 1 plays Black.
    assert!(b.contains("[White \"tolya\"]\n[Black \"ZweiLeben\"]\n[Result \"0-1\"]"), "{b}");
    assert!(flat(&a).contains("1. e4 {[%clk 0:03:00.000]} 1... Nc6 {[%clk 0:02:59.000]}"), "{a}");
    assert!(a.contains("Bxf7+") && !a.contains("Qxf7+") && !a.contains("Qh5"), "{a}");
    assert!(b.contains("Qxf7+") && !b.contains("Bxf7+"), "{b}");
    assert!(flat(&b).contains("3. Qxf7+ {[%clk 0:02:54.000] tolya: sorry, mouse slip} 3... Kxf7"), "{b}");
    assert!(a.trim_end().ends_with("1-0") && b.trim_end().ends_with("0-1"));
    assert!(!a.contains("[FEN"), "standard start: no FEN");
}

#[test]
fn a4_per_board_pgn_of_a_custom_start_gives_that_boards_fen() {
    let record = &parse_bpgn(&data("check/type2_castle_with_dropped_rook.bpgn")).unwrap()[0];
    let a = record.to_pgn(BoardId::A);
    assert!(a.contains("[SetUp \"1\"]\n[FEN \"4k3/pppppppp/8/8/8/8/PPPPPPPP/4K3 w - - 0 1\"]"), "{a}");
    let b = record.to_pgn(BoardId::B);
    assert!(b.contains("[FEN \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\"]"), "{b}");
    let flat = a.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(flat.contains("1. R@h1 {[%clk 0:02:59.000]} 1... a6 {[%clk 0:02:58.000]} 2. O-O"), "{a}");
}
