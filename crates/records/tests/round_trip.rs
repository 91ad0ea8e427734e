//! RULES.md A4: BPGN export and import round trips, and replaying records.

mod common;

use bughouse::{BoardId, MatchResult, Seat, Team};
use chess_core::Color;
use common::{data, one, random_play, rules};
use shvedka_records::parse_bpgn;

#[test]
fn a4_export_then_import_round_trips() {
    for seed in [1, 2, 3] {
        let played = random_play(seed, 90, "mgimo-2017", None);
        assert!(played.record.moves.len() >= 60, "seed {seed}: only {} moves", played.record.moves.len());
        let text = played.record.to_bpgn();
        let back = one(&text);
        assert_eq!(back, played.record, "seed {seed}:\n{text}");
        let replay = back.replay(rules("mgimo-2017")).unwrap();
        assert_eq!(replay.position_after(replay.len()).unwrap(), played.game.bfen());
        for (n, bfen) in played.bfens.iter().enumerate() {
            assert_eq!(replay.position_after(n).as_ref(), Some(bfen), "seed {seed}, after {n} moves");
        }
        assert_eq!(replay.position_after(played.bfens.len()), None);
    }
}

#[test]
fn a4_export_then_import_round_trips_classic_and_custom_start() {
    let start =
        "7k/4P3/8/8/8/8/8/K7[Pn] w - - 0 1 | rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1";
    for preset in ["mgimo-2017", "classic"] {
        let played = random_play(7, 70, preset, Some(start));
        let back = one(&played.record.to_bpgn());
        assert_eq!(back, played.record, "{preset}");
        assert_eq!(back.start_bfen().as_deref(), Some(start));
        let replay = back.replay(rules(preset)).unwrap();
        assert_eq!(replay.final_game().bfen(), played.game.bfen(), "{preset}");
    }
}

#[test]
fn a4_export_layout_clock_comments_wrapping_and_result() {
    let played = random_play(11, 64, "mgimo-2017", None);
    let text = played.record.to_bpgn();
    assert!(text.contains("[Result \"0-1\"]"), "team 2 won: 0-1\n{text}");
    assert!(text.contains("[Termination \"flag of white-A\"]\n[TerminationRule \"E6\"]"));
    assert!(text.contains("[WhiteA \"Anna \\\"the rook\\\"\"]"), "tag values are escaped");
    assert!(text.trim_end().ends_with("{flag of white-A} 0-1"), "{text}");
    for line in text.lines() {
        assert!(line.chars().count() <= 80, "line longer than 80 columns: {line}");
    }
    // Each move is followed by its clock with milliseconds.
    let first = &played.record.moves[0];
    let expected = format!("{} {} {{{}.", first.number_label(), first.text, first.clock_ms.unwrap() / 1000);
    assert!(text.contains(&expected), "{expected}\n{text}");
    let clocks = text.matches('{').filter(|_| true).count();
    assert!(clocks > played.record.moves.len());
}

#[test]
fn a4_bughousedb_sample_reads_and_reexports_to_an_equal_record() {
    let text = data("bughousedb_sample.bpgn");
    let games = parse_bpgn(&text).unwrap();
    assert_eq!(games.len(), 2);
    let first = &games[0];
    assert_eq!(first.player(Seat::new(BoardId::A, Color::White)), Some("kiwi"));
    assert_eq!(first.player(Seat::new(BoardId::B, Color::Black)), Some("ZweiLeben"));
    assert_eq!(first.tag("WhiteAElo"), Some("2210"));
    assert_eq!(first.tag("Result"), None, "the result lives in Record::result");
    let result = first.result.as_ref().unwrap();
    assert_eq!(result.outcome, MatchResult::Win(Team::One), "1-0: the team with White on board A");
    assert_eq!(result.reason.as_deref(), Some("Hornet checkmated"));
    assert_eq!(first.comment.as_deref().map(|c| c.starts_with("Written by hand")), Some(true));
    assert_eq!(first.moves.len(), 25);
    let m = &first.moves[9];
    assert_eq!((m.label().as_str(), m.clock_ms), ("3B. Qxf7+", Some(174_000)));
    assert_eq!(m.comment.as_deref(), Some("tolya: sorry, mouse slip"));
    let last = first.moves.last().unwrap();
    assert_eq!(
        (last.label().as_str(), last.clock_ms, last.comment.as_deref()),
        ("7A. Q@f7#", Some(164_000), None)
    );

    let second = &games[1];
    let result = second.result.as_ref().unwrap();
    assert_eq!(result.outcome, MatchResult::Win(Team::Two));
    assert_eq!(result.reason.as_deref(), Some("Rated 3 0"));
    assert_eq!(second.moves.last().unwrap().comment.as_deref(), Some("kiwi resigns"));

    for game in &games {
        let exported = game.to_bpgn();
        assert!(exported.contains("{180.000}"), "whole seconds are written with milliseconds");
        assert_eq!(&one(&exported), game, "\n{exported}");
        game.replay(rules("classic")).unwrap();
    }
}

#[test]
fn a4_crlf_and_several_games_read_like_lf() {
    let text = data("bughousedb_sample.bpgn");
    let crlf = text.replace('\n', "\r\n");
    assert_eq!(parse_bpgn(&crlf).unwrap(), parse_bpgn(&text).unwrap());
    let played = random_play(5, 20, "mgimo-2017", None);
    let joined = format!("{}\n{}", played.record.to_bpgn(), text);
    let games = parse_bpgn(&joined).unwrap();
    assert_eq!(games.len(), 3);
    assert_eq!(games[0], played.record);
    assert!(parse_bpgn("").unwrap().is_empty());
    assert!(parse_bpgn(" \r\n\n; only a comment line\n").unwrap().is_empty());
}

#[test]
fn a4_replay_gives_positions_and_known_clocks() {
    let games = parse_bpgn(&data("bughousedb_sample.bpgn")).unwrap();
    let replay = games[0].replay(rules("classic")).unwrap();
    assert_eq!(replay.len(), 25);
    let start = replay.clocks_after(0).unwrap();
    assert!(Seat::ALL.iter().all(|&s| start.get(s) == Some(180_000)), "base time of 180+0");
    let after_ten = replay.clocks_after(10).unwrap();
    assert_eq!(after_ten.get(Seat::new(BoardId::A, Color::White)), Some(176_000));
    assert_eq!(after_ten.get(Seat::new(BoardId::A, Color::Black)), Some(177_000));
    assert_eq!(after_ten.get(Seat::new(BoardId::B, Color::White)), Some(174_000));
    assert_eq!(after_ten.get(Seat::new(BoardId::B, Color::Black)), Some(178_000));
    // White-A holds the queen Black-B took on f7 of board B (C1) before dropping it.
    let before_drop = replay.position_after(24).unwrap();
    assert!(
        before_drop.starts_with("r1bq1bkr/ppppp1pp/1nn5/4P1N1/8/8/PPPP1PPP/RNBQK2R[QBqpp]"),
        "{before_drop}"
    );
    assert!(replay.final_game().is_mate_on_board(BoardId::A));
    assert_eq!(replay.clocks_after(26), None);
}

#[test]
fn a4_replay_names_the_move_that_fails() {
    let record = one(&data("check/type2_drop_mate.bpgn"));
    let err = record.replay(rules("mgimo-2017")).unwrap_err();
    assert!(err.to_string().starts_with("1A. Q@g7#: "), "{err}");
    assert!(err.to_string().contains("(P3)"), "{err}");
    let record = one(&data("check/type1_out_of_turn.bpgn"));
    let err = record.replay(rules("mgimo-2017")).unwrap_err();
    assert_eq!(err.to_string(), "2A. Bc4: it is black's turn on board A");
}

#[test]
fn a4_edge_records_round_trip() {
    use shvedka_records::{Record, RecordMove, RecordResult};

    let empty = Record::new();
    assert_eq!(one(&empty.to_bpgn()), empty);

    let mut drawn = Record::new();
    drawn.result = Some(RecordResult::new(MatchResult::Draw));
    drawn.comment = Some("agreed before a move".to_owned());
    assert!(drawn.to_bpgn().contains("[Result \"1/2-1/2\"]"));
    assert_eq!(one(&drawn.to_bpgn()), drawn);

    // Unfinished: a Termination tag stays an ordinary tag; a comment that looks like a clock and
    // a move without a clock survive; a reason that looks like a clock is kept by its tag alone.
    let mut open = Record::new();
    open.set_tag("Termination", "adjourned");
    let mut m = RecordMove::new(BoardId::B, Color::White, 1, "Nf3");
    m.comment = Some("179".to_owned());
    open.moves.push(m);
    let mut m = RecordMove::new(BoardId::B, Color::Black, 1, "N@f6");
    m.clock_ms = Some(0);
    open.moves.push(m);
    assert_eq!(one(&open.to_bpgn()), open, "{}", open.to_bpgn());
    open.result =
        Some(RecordResult { outcome: MatchResult::Win(Team::One), reason: Some("5".into()), rule: None });
    open.tags.retain(|t| t.name != "Termination");
    let text = open.to_bpgn();
    assert!(text.trim_end().ends_with("{0.000} 1-0"), "{text}");
    assert_eq!(one(&text), open, "{text}");
}
