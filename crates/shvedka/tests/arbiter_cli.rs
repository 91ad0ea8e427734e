//! `shvedka arbiter check-record` and `shvedka arbiter show` run as a process on hand-written BPGN
//! records under tests/data (RULES.md A1, A4, M1, K1): stdout, stderr and the exit status.

use std::process::Command;

fn shvedka(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_shvedka")).args(args).output().expect("run shvedka");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn data(name: &str) -> String {
    format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"))
}

/// `shvedka arbiter <sub> <tests/data/file> <rest...>`
/// In English unless `rest` names a language (the locale and a remembered choice aside).
fn arbiter(sub: &str, file: &str, rest: &[&str]) -> (i32, String, String) {
    let path = data(file);
    let mut args = vec!["arbiter", sub, path.as_str()];
    args.extend_from_slice(rest);
    if !rest.contains(&"--lang") {
        args.extend_from_slice(&["--lang", "en"]);
    }
    shvedka(&args)
}

/// The lines of a `show` output from the first board line on, without the BFEN.
fn boards_and_seats(out: &str) -> Vec<&str> {
    let lines: Vec<&str> = out.lines().collect();
    let from = lines.iter().position(|l| l.starts_with("board A:")).expect("a board A line");
    lines[from..].iter().copied().filter(|l| !l.starts_with("bfen: ")).collect()
}

fn seat_lines(out: &str) -> Vec<&str> {
    out.lines().filter(|l| l.starts_with("white-") || l.starts_with("black-")).collect()
}

const TYPE2_LINE_END: &str =
    "; the move is taken back and team 2 receives one minute on each of its two clocks (A1)";

#[test]
fn a1_check_record_clean_prints_no_impossible_move_exit_0() {
    for file in ["timed_opening.bpgn", "scholar_mate.bpgn"] {
        let (code, out, err) = arbiter("check-record", file, &[]);
        assert_eq!((code, out.as_str(), err.as_str()), (0, "no impossible move\n", ""), "{file}");
    }
}

#[test]
fn a1_check_record_type2_drop_mate_exit_1() {
    let (code, out, err) = arbiter("check-record", "type2_drop_mate.bpgn", &[]);
    assert_eq!(code, 1, "{out}{err}");
    assert_eq!(out.lines().count(), 1, "{out}");
    let line = out.trim_end();
    assert!(line.starts_with("1A. Q@g7#: type 2 (P3): "), "{line}");
    assert!(line.contains("mate on board"), "{line}");
    assert!(line.contains(TYPE2_LINE_END), "{line}");
    assert!(
        line.ends_with("; noticed later: the move stands, the position after it is legal (A1)"),
        "{line}"
    );
    assert_eq!(err.trim_end(), "shvedka: impossible move found");
    // P3 is MGIMO's: under the classic preset the same drop is a legal mate.
    let (code, out, _) = arbiter("check-record", "type2_drop_mate.bpgn", &["--rules", "classic"]);
    assert_eq!((code, out.as_str()), (0, "no impossible move\n"));
}

#[test]
fn a1_check_record_type1_king_left_in_check_exit_1() {
    let (code, out, err) = arbiter("check-record", "type1_king_left_in_check.bpgn", &[]);
    assert_eq!(code, 1, "{out}{err}");
    let line = out.trim_end();
    assert!(line.starts_with("2a. Nc6: type 1 (FIDE): "), "{line}");
    assert!(line.contains("leaves the black king in check"), "{line}");
    assert!(
        line.contains("; the team of black-A loses the game (A1); noticed later: the arbiter decides"),
        "{line}"
    );
}

/// A1 in Russian: every finding said from the check's codes — its type, rule, what is wrong,
/// what A1 prescribes and what it says when noticed later (and why the arbiter decides); no
/// English left.
#[test]
fn a1_check_record_speaks_russian() {
    let (code, out, err) = arbiter("check-record", "two_impossible_moves.bpgn", &["--lang", "ru"]);
    assert_eq!(code, 1, "{out}{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines,
        [
            "1A. P@a7: тип 2 (P2): пешку можно выставлять только на горизонтали с 2 по 6; ход возвращается, команда 2 получает по минуте на часы обоих своих игроков (A1); если замечено позже: ход остаётся в силе, позиция после него законна (A1)",
            "3A. Q@d1: тип 1 (P1): в запасе белых A нет ферзя; команде белых A засчитывается поражение в партии (A1); если замечено позже: решает судья: фигура (ферзь) взялась извне партии (C2); дальше запись не проверяется (A1)",
        ]
    );
    assert_eq!(err.trim_end(), "shvedka: найден невозможный ход");
    let (code, out, _) = arbiter("check-record", "timed_opening.bpgn", &["--lang", "ru"]);
    assert_eq!((code, out.as_str()), (0, "невозможных ходов нет\n"));
}

#[test]
fn a1_check_record_reports_every_impossible_move_and_whether_it_stands() {
    let (code, out, err) = arbiter("check-record", "two_impossible_moves.bpgn", &[]);
    assert_eq!(code, 1, "{out}{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 2, "{out}");
    assert!(lines[0].starts_with("1A. P@a7: type 2 (P2): "), "{}", lines[0]);
    assert!(lines[0].contains(TYPE2_LINE_END), "{}", lines[0]);
    assert!(lines[0].ends_with("; noticed later: the move stands, the position after it is legal (A1)"));
    assert!(
        lines[1].starts_with("3A. Q@d1: type 1 (P1): the reserve of white-A holds no queen; "),
        "{}",
        lines[1]
    );
    assert!(
        lines[1].contains("; the team of white-A loses the game (A1); noticed later: the arbiter decides")
    );
    assert!(lines[1].ends_with(", and the record is not checked further (A1)"), "{}", lines[1]);
    assert_eq!(err.trim_end(), "shvedka: impossible move found");
}

#[test]
fn chess960_arbiter_reads_a_record_with_its_start_in_setup_and_fen() {
    let (code, out, err) = arbiter("check-record", "chess960_castling.bpgn", &[]);
    assert_eq!((code, out.as_str(), err.as_str()), (0, "no impossible move\n", ""));
    // After 5A. O-O-O the Chess960 way: king on c1, rook on d1 (FIDE appendix F).
    let (code, out, err) = arbiter("show", "chess960_castling.bpgn", &["--after-move", "10"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("1 B B K R . . . R"), "{out}");
    assert!(out.contains("8 b b . . . r k r"), "{out}");
}

#[test]
fn a1_check_record_numbers_the_games_of_a_file_with_several() {
    let (code, out, _) = arbiter("check-record", "two_games.bpgn", &[]);
    assert_eq!(code, 1);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 2, "{out}");
    assert_eq!(lines[0], "game 1: no impossible move");
    assert!(lines[1].starts_with("game 2: 1A. Q@g7#: type 2 (P3): ") && lines[1].contains(TYPE2_LINE_END));
}

#[test]
fn a1_check_record_unreadable_file_exit_2() {
    let cases = [
        ("missing.bpgn", "cannot read"),
        ("not_utf8.bpgn", "not UTF-8"),
        ("not_bpgn.bpgn", "line 3, column 12: expected a move"),
        ("empty.bpgn", "no game in the file"),
    ];
    for (file, what) in cases {
        let (code, out, err) = arbiter("check-record", file, &[]);
        assert_eq!(code, 2, "{file}: {err}");
        assert!(out.is_empty(), "{file}: {out}");
        assert_eq!(err.lines().count(), 1, "{file}: {err}");
        assert!(err.contains(&data(file)) && err.contains(what), "{file}: {err}");
    }
    let (code, _, err) = arbiter("check-record", "timed_opening.bpgn", &["--rules", "blitz"]);
    assert_eq!(code, 2, "{err}");
}

#[test]
fn a4_show_after_move_prints_boards_reserves_clocks_and_mate_on_board() {
    // 180+2. After 1A. e4 1B. d4 1a. d5 2A. exd5 1b. Nf6 2a. Qxd5, at match time 9 s (see the
    // comment in the file): white-A to move since 9 s, white-B since 8 s. The captured d5 pawn
    // went to black-B, the captured e4 pawn to white-B (C1).
    let (code, out, err) = arbiter("show", "timed_opening.bpgn", &["--after-move", "6"]);
    assert_eq!((code, err.as_str()), (0, ""), "{out}");
    let expected = "\
after move 6 (2a. Qxd5)
moves made: 6 of 8, the last 2a. Qxd5
match time: 0:09.000
board A: white-A to move, mate on board: no
8 r n b . k b n r
7 p p p . p p p p
6 . . . . . . . .
5 . . . q . . . .
4 . . . . . . . .
3 . . . . . . . .
2 P P P P . P P P
1 R N B Q K B N R
  a b c d e f g h
board B: white-B to move, mate on board: no
8 r n b q k b . r
7 p p p p p p p p
6 . . . . . n . .
5 . . . . . . . .
4 . . . P . . . .
3 . . . . . . . .
2 P P P . P P P P
1 R N B Q K B N R
  a b c d e f g h
white-A (Anna): clock 2:59.750 running, reserve -
black-A (Boris): clock 2:59.250, reserve -
white-B (Vera): clock 2:57.000 running, reserve P1
black-B (Gleb): clock 2:58.000, reserve p1
bfen: rnb1kbnr/ppp1pppp/8/3q4/8/8/PPPP1PPP/RNBQKBNR[] w KQkq - 0 3 | rnbqkb1r/pppppppp/5n2/8/3P4/8/PPP1PPPP/RNBQKBNR[Pp] w KQkq - 1 2
";
    assert_eq!(out, expected);

    // The start: nothing moved, every clock at the base time.
    let (code, out, _) = arbiter("show", "timed_opening.bpgn", &["--after-move", "0"]);
    assert_eq!(code, 0);
    assert_eq!(
        out.lines().take(3).collect::<Vec<_>>(),
        ["after move 0 (the start)", "moves made: 0 of 8", "match time: 0:00.000"]
    );
    assert_eq!(
        seat_lines(&out),
        [
            "white-A (Anna): clock 3:00.000 running, reserve -",
            "black-A (Boris): clock 3:00.000, reserve -",
            "white-B (Vera): clock 3:00.000 running, reserve -",
            "black-B (Gleb): clock 3:00.000, reserve -",
        ]
    );
}

#[test]
fn a4_show_at_time_places_moves_by_their_clocks() {
    // Moves completed at 3, 4, 5.5, 6.75, 8, 9, 10.5 and 12 s (thinking = previous remaining + 2
    // − remaining after, summed per board).
    let (code, out, err) = arbiter("show", "timed_opening.bpgn", &["--at", "10"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        out.lines().take(3).collect::<Vec<_>>(),
        ["at 0:10.000", "moves made: 6 of 8, the last 2a. Qxd5", "match time: 0:10.000"]
    );
    // Same position as after move 6; the running clocks have lost 1 s (A) and 2 s (B) more.
    let (_, after6, _) = arbiter("show", "timed_opening.bpgn", &["--after-move", "6"]);
    let position = |s: &str| -> Vec<String> {
        boards_and_seats(s).iter().filter(|l| !l.contains("clock")).map(|l| (*l).to_owned()).collect()
    };
    assert_eq!(position(&out), position(&after6));
    assert_eq!(
        seat_lines(&out),
        [
            "white-A (Anna): clock 2:58.750 running, reserve -",
            "black-A (Boris): clock 2:59.250, reserve -",
            "white-B (Vera): clock 2:56.000 running, reserve P1",
            "black-B (Gleb): clock 2:58.000, reserve p1",
        ]
    );

    // 2B. P@e5 was completed at 10.5 s exactly: made by then, in every spelling of that time.
    for at in ["10.5", "10.5s", "0:10.5", "0:10.500"] {
        let (code, out, _) = arbiter("show", "timed_opening.bpgn", &["--at", at]);
        assert_eq!(code, 0, "{at}");
        assert_eq!(out.lines().nth(1), Some("moves made: 7 of 8, the last 2B. P@e5"), "{at}");
        assert!(out.contains("\n5 . . . . P . . .\n"), "{at}: {out}");
        assert_eq!(
            seat_lines(&out),
            [
                "white-A (Anna): clock 2:58.250 running, reserve -",
                "black-A (Boris): clock 2:59.250, reserve -",
                "white-B (Vera): clock 2:57.500, reserve -",
                "black-B (Gleb): clock 2:58.000 running, reserve p1",
            ],
            "{at}"
        );
    }
    let (_, out, _) = arbiter("show", "timed_opening.bpgn", &["--at", "10.499"]);
    assert_eq!(out.lines().nth(1), Some("moves made: 6 of 8, the last 2a. Qxd5"));

    // Before the first move: both White clocks run from 0 (K1).
    let (_, out, _) = arbiter("show", "timed_opening.bpgn", &["--at", "2.999"]);
    assert_eq!(out.lines().nth(1), Some("moves made: 0 of 8"));
    assert_eq!(
        seat_lines(&out),
        [
            "white-A (Anna): clock 2:57.001 running, reserve -",
            "black-A (Boris): clock 3:00.000, reserve -",
            "white-B (Vera): clock 2:57.001 running, reserve -",
            "black-B (Gleb): clock 3:00.000, reserve -",
        ]
    );

    // After the last move the clocks of the players to move keep running.
    let (_, out, _) = arbiter("show", "timed_opening.bpgn", &["--at", "1:00"]);
    assert_eq!(
        out.lines().take(2).collect::<Vec<_>>(),
        ["at 1:00.000", "moves made: 8 of 8, the last 2b. Nd5"]
    );
    assert_eq!(
        seat_lines(&out),
        [
            "white-A (Anna): clock 2:08.750 running, reserve -",
            "black-A (Boris): clock 2:59.250, reserve -",
            "white-B (Vera): clock 2:09.500 running, reserve -",
            "black-B (Gleb): clock 2:58.500, reserve p1",
        ]
    );
}

#[test]
fn m1_show_reports_mate_on_board() {
    // 4A. Qxf7# at 15 s: black-A is mated on board A (contact check by a protected queen).
    let (code, out, err) = arbiter("show", "scholar_mate.bpgn", &["--after-move", "10"]);
    assert_eq!(code, 0, "{err}");
    let expected_boards = [
        "board A: black-A to move, mate on board: yes, black-A is mated (M1)",
        "8 r . b q k b . r",
        "7 p p p p . Q p p",
        "6 . . n . . n . .",
        "5 . . . . p . . .",
        "4 . . B . P . . .",
        "3 . . . . . . . .",
        "2 P P P P . P P P",
        "1 R N B . K . N R",
        "  a b c d e f g h",
        "board B: black-B to move, mate on board: no",
    ];
    assert_eq!(&boards_and_seats(&out)[..11], expected_boards);
    assert!(
        out.contains("match time: 0:15.000 (clocks stopped at 0:15.000 by mate on board, E1)\n"),
        "{out}"
    );
    let stopped = [
        "white-A (Anna): clock 2:53.000, reserve -",
        "black-A (Boris): clock 2:52.000, reserve -",
        "white-B (Vera): clock 2:53.000, reserve -",
        "black-B (Gleb): clock 2:52.000, reserve p1",
    ];
    assert_eq!(seat_lines(&out), stopped);
    // Later the clocks still read what they read at the mate (E1 ends the match).
    let (_, out, _) = arbiter("show", "scholar_mate.bpgn", &["--at", "100"]);
    assert!(
        out.contains("match time: 1:40.000 (clocks stopped at 0:15.000 by mate on board, E1)\n"),
        "{out}"
    );
    assert_eq!(seat_lines(&out), stopped);
    // One move earlier there is no mate, and black-A's clock runs.
    let (_, out, _) = arbiter("show", "scholar_mate.bpgn", &["--after-move", "9"]);
    assert!(out.contains("board A: white-A to move, mate on board: no\n"), "{out}");
    assert!(out.contains("board B: black-B to move, mate on board: no\n"), "{out}");
    assert!(out.contains("white-A (Anna): clock 2:54.000 running, reserve -\n"), "{out}");
}

#[test]
fn a4_show_refuses_a_move_number_beyond_the_record() {
    let (code, out, err) = arbiter("show", "timed_opening.bpgn", &["--after-move", "9"]);
    assert_eq!(code, 2);
    assert!(out.is_empty(), "{out}");
    assert!(err.contains("no move 9") && err.contains("8 moves"), "{err}");
    let (code, _, _) = arbiter("show", "timed_opening.bpgn", &["--after-move", "8"]);
    assert_eq!(code, 0);
}

#[test]
fn a4_show_refuses_a_bad_time_or_a_missing_instant() {
    for (args, what) in [
        (vec!["--at", "-5"], "negative"),
        (vec!["--at", "soon"], "expected seconds"),
        (vec!["--at", "1:75"], "fewer than 60"),
        (vec!["--after-move", "-1"], "--after-move"),
        (vec!["--after-move", "1", "--at", "5"], "cannot be used with"),
    ] {
        let (code, out, err) = arbiter("show", "timed_opening.bpgn", &args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(out.is_empty(), "{args:?}: {out}");
        assert!(err.contains(what), "{args:?}: {err}");
    }
}

#[test]
fn a4_show_at_needs_clock_comments_after_move_does_not() {
    let (code, out, err) = arbiter("show", "no_clocks.bpgn", &["--at", "5"]);
    assert_eq!(code, 2);
    assert!(out.is_empty(), "{out}");
    assert!(err.contains("--at needs") && err.contains("use --after-move"), "{err}");
    let (code, out, err) = arbiter("show", "no_clocks.bpgn", &["--after-move", "3"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("\nmatch time: unknown ("), "{out}");
    assert!(out.contains("white-A (Anna): clock ?, reserve -\n"), "{out}");
}

#[test]
fn a1_show_follows_a_record_past_an_impossible_move_and_marks_it() {
    // 2a. Nc6 leaves the black king in check: the record is shown up to its end, the impossible
    // move as it was made (the knight on c6) and marked, so the arbiter sees what he decides on.
    let (code, out, err) = arbiter("show", "type1_king_left_in_check.bpgn", &["--after-move", "5"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("after move 5 (1b. d5)\n"), "{out}");
    assert!(!out.contains("impossible move"), "{out}");
    let (code, out, err) = arbiter("show", "type1_king_left_in_check.bpgn", &["--after-move", "6"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("\nimpossible move 2a. Nc6: "), "{out}");
    assert!(out.contains(": it leaves the black king in check; shown as it was made (A1)\n"), "{out}");
    assert!(out.contains("\n6 . . n . . p . .\n"), "the knight stands on c6: {out}");
    // What is wrong is said from the check's facts, in Russian too.
    let (_, ru, _) = arbiter("show", "type1_king_left_in_check.bpgn", &["--after-move", "6", "--lang", "ru"]);
    assert!(
        ru.contains("\nневозможный ход 2a. Nc6: после него король чёрных остаётся под шахом; показан так, как был сделан (A1)\n"),
        "{ru}"
    );
    // Without an instant, the end of the record.
    let (code, end, _) = arbiter("show", "type1_king_left_in_check.bpgn", &[]);
    assert_eq!(code, 0);
    assert!(end.starts_with("at the end of the record\nmoves made: 6 of 6, the last 2a. Nc6\n"), "{end}");
}

#[test]
fn a4_show_prints_the_arbiters_acts_up_to_the_instant_with_who_made_them() {
    // The record's acts are the old prose comments, read back as acts (the lenient reading).
    let (code, out, err) = arbiter("show", "arbiter_acts.bpgn", &["--after-move", "2"]);
    assert_eq!((code, err.as_str()), (0, ""), "{out}");
    assert!(
        out.contains(
            "act at 0:03.000: arbiter alice stopped the clocks (A2)\n\
             act at 0:03.000: an arbiter (secret) restarted the clocks\n"
        ),
        "{out}"
    );
    assert!(!out.contains("called the arbiter"), "an act after a later move is not yet made: {out}");
    let (_, out, _) = arbiter("show", "arbiter_acts.bpgn", &["--after-move", "3"]);
    assert!(
        out.contains("act at 0:05.500: white-B stopped the clocks and called the arbiter (K5)\n"),
        "{out}"
    );
    assert!(out.contains("match time: 0:05.500 (clocks stopped at 0:05.500: paused, K5)\n"), "{out}");
    assert!(!out.contains(" running"), "the call stopped every clock: {out}");
}

#[test]
fn m1_analyse_finds_the_mate_in_one_and_then_the_mate_on_board() {
    // After 3a. Nf6 White-A mates with Qxf7 (a contact check no drop can block, M1).
    let (code, out, err) =
        arbiter("analyse", "scholar_mate.bpgn", &["--after-move", "9", "--nodes", "20000"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("board A: white-A to move, mate on board: no\n"),
        "the instant is shown first: {out}"
    );
    assert!(out.contains("analysis of board A (White to move): White mates in 1\n"), "{out}");
    assert!(out.contains("  best: Qxf7# (depth "), "{out}");
    assert!(out.contains("analysis of board B (Black to move): "), "{out}");
    let (code, out, err) =
        arbiter("analyse", "scholar_mate.bpgn", &["--after-move", "10", "--nodes", "20000"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("analysis of board A (Black to move): mate on board: White won (M1)\n"), "{out}");
    // Clocks at 14.9 s: nobody is short of time; a bad node count is refused before any search.
    let (code, _, err) = arbiter("analyse", "scholar_mate.bpgn", &["--after-move", "9", "--nodes", "0"]);
    assert_eq!(code, 2, "{err}");
}

#[test]
fn e1_e6_e9_k4_explain_a_mate_inside_a_flags_window_in_both_languages() {
    let (code, out, err) = arbiter("explain", "explain_mate_in_window.bpgn", &["--lang", "en"]);
    assert_eq!((code, err.as_str()), (0, ""), "{out}");
    assert_eq!(
        out.lines().collect::<Vec<_>>(),
        [
            "result: team 1 wins (E1)",
            "0:30.410 the flag of black-B fell (K4) · inside the flag's grace window (K4)",
            "0:30.843 4A. Qxf7#: black-A is mated on board (M1) · inside the flag's grace window (K4)",
            "0:30.843 the match ended · inside the flag's grace window (K4)",
            "weighed: a mate on board counts, a flag in the same window does not (E6, E9)",
            "rules that decided it: E1 (mate on board), K4 (the flag: time has run out), E6 (a flag counts only without a mate on board), E9 (mate on board beats a draw, a draw beats a flag)",
        ]
    );
    let (code, out, _) = arbiter("explain", "explain_mate_in_window.bpgn", &["--lang", "ru"]);
    assert_eq!(code, 0);
    assert!(out.starts_with("результат: победила команда 1 (E1)\n0:30.410 у чёрных B упал флаг (K4) · внутри окна флага (K4)\n"), "{out}");
    assert!(
        out.contains("решение: мат на доске засчитывается, флаг в том же окне — нет (E6, E9)\n"),
        "{out}"
    );
    assert!(out.contains("что решило исход: E1 (мат на доске), K4 ("), "{out}");
}

#[test]
fn e9_k4_explain_a_draw_then_a_mate_in_one_window_in_both_languages() {
    let (code, out, err) = arbiter("explain", "explain_draw_then_mate.bpgn", &["--lang", "en"]);
    assert_eq!((code, err.as_str()), (0, ""), "{out}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines[2],
        "0:30.600 board A drew (the players agreed, E3); held in the flag's window, weighed at its close · inside the flag's grace window (K4)"
    );
    assert_eq!(
        lines[5..],
        [
            "weighed: a mate on board counts, a flag in the same window does not (E6, E9)",
            "weighed: a mate on board beats a draw in the same window (E9)",
            "rules that decided it: E1 (mate on board), K4 (the flag: time has run out), E6 (a flag counts only without a mate on board), E9 (mate on board beats a draw, a draw beats a flag)",
        ]
    );
    let (code, out, _) = arbiter("explain", "explain_draw_then_mate.bpgn", &["--lang", "ru"]);
    assert_eq!(code, 0);
    assert!(
        out.contains("0:30.600 на доске A ничья (по соглашению, E3); внутри окна флага, учитывается при его закрытии · внутри окна флага (K4)\n"),
        "{out}"
    );
    assert!(out.contains("решение: мат на доске сильнее ничьей в том же окне (E9)\n"), "{out}");
    // show names the held draw among the acts.
    let (_, out, _) = arbiter("show", "explain_draw_then_mate.bpgn", &["--lang", "en"]);
    assert!(
        out.contains("act at 0:30.600: board A drew (the players agreed, E3) inside a flag's window: weighed when it closes (K4)\n"),
        "{out}"
    );
}

#[test]
fn e7_k4_explain_flags_of_both_teams() {
    let (code, out, _) = arbiter("explain", "explain_two_flags.bpgn", &["--lang", "en"]);
    assert_eq!(code, 0);
    assert!(
        out.contains("0:10.000 the flag of black-A fell (K4) · inside the flag's grace window (K4)\n"),
        "{out}"
    );
    assert!(
        out.contains("0:10.400 the flag of black-B fell (K4) · inside the flag's grace window (K4)\n"),
        "{out}"
    );
    assert!(out.contains("weighed: flags of both teams make a draw (E7)\n"), "{out}");
    assert!(
        out.ends_with("rules that decided it: E7 (flag: time ran out), K4 (the flag: time has run out)\n"),
        "{out}"
    );
    let (_, out, _) = arbiter("explain", "explain_two_flags.bpgn", &["--lang", "ru"]);
    assert!(out.contains("решение: флаги у обеих команд — ничья (E7)\n"), "{out}");
}

#[test]
fn k3_explain_lag_credit_that_takes_a_flag_back() {
    let (code, out, _) = arbiter("explain", "explain_lag_credit.bpgn", &["--lang", "en"]);
    assert_eq!(code, 0);
    assert!(
        out.contains("0:20.300 2a. Nc6: the lag credit of 0.550 s brought the move of black-A inside the time; the flag is withdrawn (K3)\n"),
        "{out}"
    );
    assert!(!out.contains("grace window"), "the withdrawn flag decided nothing: {out}");
    assert!(out.contains("\n0:25.000 white-A resigned (E10)\n0:25.000 the match ended\n"), "{out}");
    assert!(out.ends_with("rules that decided it: E10 (resignation), K3 (lag credit)\n"), "{out}");
    let (_, out, _) = arbiter("explain", "explain_lag_credit.bpgn", &["--lang", "ru"]);
    assert!(
        out.contains(
            "компенсация задержки связи (0.550 с) вернула ход чёрных A в пределы времени; флаг снят (K3)"
        ),
        "{out}"
    );
    assert!(out.contains("\n0:25.000 белые A сдались (E10)\n"), "{out}");
    // A file that is not there is bad input (exit 2).
    let (code, _, err) = arbiter("explain", "no_such_file.bpgn", &[]);
    assert_eq!(code, 2, "{err}");
}

#[test]
fn a4_show_speaks_russian() {
    let (code, out, err) = arbiter("show", "timed_opening.bpgn", &["--after-move", "6", "--lang", "ru"]);
    assert_eq!((code, err.as_str()), (0, ""), "{out}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines[..3],
        ["после хода 6 (2a. Qxd5)", "сделано ходов: 6 из 8, последний 2a. Qxd5", "время матча: 0:09.000"]
    );
    assert!(out.contains("\nдоска A: ходят белые A, мат на доске: нет\n"), "{out}");
    assert!(out.contains("\nбелые A (Anna): часы 2:59.750 идут, запас -\n"), "{out}");
    let (_, out, _) = arbiter("show", "arbiter_acts.bpgn", &["--after-move", "3", "--lang", "ru"]);
    assert!(out.contains("0:03.000: судья alice остановил часы (A2)\n"), "{out}");
    assert!(out.contains("время матча: 0:05.500 (часы стоят с 0:05.500: остановка, K5)\n"), "{out}");
    let (_, out, _) = arbiter("show", "scholar_mate.bpgn", &["--after-move", "10", "--lang", "ru"]);
    assert!(out.contains("мат на доске: да, мат получают чёрные A (M1)"), "{out}");
}
