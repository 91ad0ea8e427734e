//! `shvedka moves`, `status` and `apply` run as a process: output, and exit status 1 for a refused
//! move, 2 for bad input.

use std::process::Command;

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1";

fn shvedka(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_shvedka")).args(args).output().expect("run shvedka");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn start() -> String {
    format!("{START} | {START}")
}

#[test]
fn moves_lists_one_board_sorted_in_long_notation() {
    let (code, out, _) = shvedka(&["moves", "--bfen", &start(), "--board", "b"]);
    assert_eq!(code, 0);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 20);
    assert_eq!((lines[0], lines[19]), ("a2a3", "h2h4"));
    let mut sorted = lines.clone();
    sorted.sort();
    assert_eq!(lines, sorted);
    // P3 under MGIMO, not under classic: the smothering knight drop.
    let bfen = format!("6rk/6pp/8/8/8/8/8/K7[N] w - - 0 1 | {START}");
    let (_, mgimo, _) = shvedka(&["moves", "--bfen", &bfen, "--board", "a"]);
    let (_, classic, _) = shvedka(&["moves", "--bfen", &bfen, "--board", "a", "--rules", "classic"]);
    assert!(!mgimo.lines().any(|l| l == "N@f7") && classic.lines().any(|l| l == "N@f7"));
}

#[test]
fn status_prints_one_json_object() {
    let (code, out, _) = shvedka(&["status", "--bfen", &start()]);
    assert_eq!(code, 0);
    let board = r#"{"turn":"white","in_check":false,"mate_on_board":false,"legal_moves":20,"waiting":false}"#;
    assert_eq!(out.trim_end(), format!(r#"{{"a":{board},"b":{board}}}"#));
    let bfen = format!("R5k1/5ppp/8/8/8/8/8/6K1[] b - - 0 1 | {START}");
    let (_, out, _) = shvedka(&["status", "--bfen", &bfen]);
    assert!(
        out.starts_with(
            r#"{"a":{"turn":"black","in_check":true,"mate_on_board":false,"legal_moves":0,"waiting":true}"#
        ),
        "{out}"
    );
}

#[test]
fn apply_plays_moves_with_transfers_and_prints_the_bfen() {
    let (code, out, _) = shvedka(&["apply", "--bfen", &start(), "a:e2e4", "b:d4", "a:d7d5", "a:exd5"]);
    assert_eq!(code, 0);
    assert_eq!(
        out.lines().last().unwrap(),
        "rnbqkbnr/ppp1pppp/8/3P4/8/8/PPPP1PPP/RNBQKBNR[] b KQkq - 0 2 | rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR[p] b KQkq - 0 1"
    );
}

#[test]
fn apply_names_the_index_move_and_rule_of_an_illegal_move() {
    let bfen = format!("6rk/6pp/8/8/8/8/8/K7[N] w - - 0 1 | {START}");
    let (code, out, err) = shvedka(&["apply", "--bfen", &bfen, "b:e4", "a:N@f7"]);
    assert_eq!(code, 1);
    assert!(out.is_empty());
    assert!(err.contains("move 2") && err.contains("N@f7") && err.contains("(P3)"), "{err}");
}

#[test]
fn r3_moves_lists_no_removal_that_uncovers_a_check_on_the_other_board() {
    let bfen = "7k/1P6/8/8/8/8/8/K7[] w - - 0 1 | 4k3/8/8/8/4N3/8/8/4RK2[] w - - 0 1";
    let (code, out, _) = shvedka(&["moves", "--bfen", bfen, "--board", "a"]);
    assert_eq!(code, 0);
    let promos: Vec<&str> = out.lines().filter(|l| l.starts_with("b7b8")).collect();
    assert_eq!(promos, ["b7b8re1"], "{out}");
    let (code, _, err) = shvedka(&["apply", "--bfen", bfen, "a:b7b8ne4"]);
    assert_eq!(code, 1);
    assert!(err.contains("R3"), "{err}");
}

#[test]
fn bad_input_exits_with_status_2() {
    for args in [
        vec!["status", "--bfen", "nonsense"],
        vec!["status", "--bfen", START],
        vec!["moves", "--bfen", "x | y", "--board", "a"],
        vec!["moves", "--bfen", "", "--board", "c"],
        vec!["status", "--bfen", "", "--rules", "blitz"],
        vec!["apply", "--bfen", "", "e2e4"],
    ] {
        let mut args = args;
        let full = start();
        if args.get(2) == Some(&"") {
            args[2] = &full;
        }
        let (code, _, err) = shvedka(&args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert_eq!(err.trim_end().lines().count(), 1, "one-line error for {args:?}: {err}");
    }
    let (code, _, err) = shvedka(&["apply", "--bfen", &start(), "a:Zz9"]);
    assert_eq!(code, 2, "{err}");
}
