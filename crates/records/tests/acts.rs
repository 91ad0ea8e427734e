//! A record's acts replayed (RULES.md A2, A4; docs/bpgn.md): each move is judged on the boards as
//! the acts before it left them (A1), the clocks and times are those the players had, and the
//! specification's own example reads and replays.

mod common;

use bughouse::{BoardId, Game, Seat};
use common::{one, rules};
use shvedka_records::{ActKind, ImpossibleKind, StepKind, check_record};

const TAGS: &str = r#"[Event "acts"]
[TimeControl "180+0"]
[Rules "mgimo-2017"]
[Result "*"]
"#;

fn game_after(moves: &[(BoardId, &str)]) -> Game {
    let mut g = Game::new(rules("mgimo-2017"));
    for (board, text) in moves {
        let m = g.parse_move(*board, text).unwrap();
        g.play_unchecked(m);
    }
    g
}

#[test]
fn a1_p1_a_drop_of_a_pawn_a_corrected_position_gave_stands() {
    // The arbiter corrects the position: white-A's h2 pawn goes into white-B's reserve (C2
    // holds). white-B then drops it: legal on the corrected boards.
    let corrected = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPP1/RNBQKBNR[] w KQkq - 0 1 | \
                     rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[P] w KQkq - 0 1";
    let text =
        format!("{TAGS}\n{{[%act position by=alice position=\"{corrected}\"]}} 1B. P@d5 1b. e6 1A. e4 *\n");
    let record = one(&text);
    let report = check_record(&record, rules("mgimo-2017"));
    assert!(report.is_clean(), "{report}");
    let replay = record.replay(rules("mgimo-2017")).unwrap();
    assert_eq!(replay.game_after(0).unwrap().reserve(Seat::ALL[2], chess_core::Role::Pawn), 1);
    // The same moves without the act: the pawn came from nowhere (type 1, P1).
    let mut bare = record.clone();
    bare.acts.clear();
    let report = check_record(&bare, rules("mgimo-2017"));
    assert_eq!(report.impossible.len(), 1, "{report}");
    assert_eq!(
        (report.impossible[0].kind, report.impossible[0].rule.as_str()),
        (ImpossibleKind::Type1, "P1")
    );
}

#[test]
fn a1_fide_a_knight_move_on_a_corrected_board_stands() {
    // The g1 knight was on h4 on the corrected board: 1A. Nf3 is legal there.
    let corrected = "rnbqkbnr/pppppppp/8/8/7N/8/PPPPPPPP/RNBQKB1R[] w KQkq - 0 1 | \
                     rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1";
    let text = format!("{TAGS}\n{{[%act position t=0.500 position=\"{corrected}\"]}} 1A. Nf3 *\n");
    let report = check_record(&one(&text), rules("mgimo-2017"));
    assert!(report.is_clean(), "{report}");
    let text = format!("{TAGS}\n1A. Nh3 1a. e5 2A. Nf4 2a. d5 3A. Nf3 *\n");
    let report = check_record(&one(&text), rules("mgimo-2017"));
    assert_eq!(report.impossible.len(), 1, "no knight reaches f3 from f4 and b1: {report}");
    assert_eq!(report.impossible[0].rule, "FIDE");
}

#[test]
fn a1_p1_a_drop_of_a_piece_a_take_back_removed_is_still_caught() {
    // 2A. exd5 gave black-B a pawn (C1); the arbiter took the move back with its transfer, so
    // black-B's later P@e5 drops a pawn he no longer holds: type 1 (P1).
    let before = game_after(&[(BoardId::A, "e4"), (BoardId::A, "d5")]);
    let text = format!(
        "{TAGS}\n1A. e4 1a. d5 {{[%act played move=\"2A. exd5\"]}} \
         {{[%act takeback board=A position=\"{}\"]}} 2A. Nc3 1B. e4 1b. P@e5 *\n",
        before.bfen()
    );
    let record = one(&text);
    let timeline = record.timeline(rules("mgimo-2017")).unwrap();
    let played = timeline
        .steps()
        .iter()
        .find(|s| matches!(&s.kind, StepKind::Act(a) if matches!(a.kind, ActKind::Played(_))));
    assert_eq!(
        played.unwrap().game.reserve(Seat::ALL[3], chess_core::Role::Pawn),
        1,
        "the capture gave the pawn"
    );
    let report = check_record(&record, rules("mgimo-2017"));
    assert_eq!(report.impossible.len(), 1, "{report}");
    let f = &report.impossible[0];
    assert_eq!(
        (f.label.as_str(), f.kind, f.rule.as_str()),
        ("1b. P@e5", ImpossibleKind::Type1, "P1"),
        "{report}"
    );
    // Moves are counted as the record lists them: the taken-back one is not among them.
    assert_eq!(record.moves.len(), 5);
    assert_eq!(timeline.end().moves_made, 5);
}

#[test]
fn k5_a2_the_clocks_stand_in_a_pause_and_an_adjustment_shows_at_once() {
    let text = format!(
        "{TAGS}\n1A. e4 {{179.000}} {{[%mt 1.000]}} \
         {{[%act pause t=2.000 by=alice clocks=179.000,179.000,178.000,180.000]}} \
         {{[%act adjust t=3.000 by=alice seat=white-A delta=+60.000 clocks=239.000,179.000,178.000,180.000]}} \
         {{[%act resume t=5.000 by=alice clocks=239.000,179.000,178.000,180.000]}} \
         1a. e5 {{177.000}} {{[%mt 7.000]}} {{[%act flag t=185.000 seat=white-B clocks=239.000,177.000,0.000,180.000]}} \
         {{[%act end t=185.400 clocks=239.000,177.000,0.000,180.000]}} 0-1\n"
    );
    let record = one(&text);
    let timeline = record.timeline(rules("mgimo-2017")).unwrap();
    assert!(timeline.timed());
    // In the pause nothing runs; the added minute is there at once.
    let at = timeline.at(2_500).unwrap();
    assert!(at.step.paused && at.step.running == [false; 4]);
    assert_eq!(at.clocks.0, [Some(179_000), Some(179_000), Some(178_000), Some(180_000)]);
    let at = timeline.at(4_000).unwrap();
    assert_eq!(at.clocks.get(Seat::ALL[0]), Some(239_000));
    // After the resume black-A's and white-B's clocks run again.
    let at = timeline.at(6_000).unwrap();
    assert_eq!(at.clocks.0, [Some(239_000), Some(178_000), Some(177_000), Some(180_000)]);
    // The flag is a step at its own time, and past the end nothing runs (no flag is invented).
    let at = timeline.at(185_100).unwrap();
    assert!(matches!(&at.step.kind, StepKind::Act(a) if a.kind == ActKind::Flag { seat: Seat::ALL[2] }));
    let late = timeline.at(900_000).unwrap();
    assert!(late.step.ended && late.step.running == [false; 4]);
    assert_eq!(late.clocks.0, [Some(239_000), Some(177_000), Some(0), Some(180_000)]);
}

#[test]
fn a4_the_old_prose_of_a_corrected_position_still_replays() {
    let corrected = "rnbqkbnr/pppppppp/8/8/7N/8/PPPPPPPP/RNBQKB1R[] w KQkq - 0 1 | \
                     rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1";
    let text = format!("{TAGS}\n{{arbiter alice: set the position {corrected}}} 1A. Nf3 *\n");
    let record = one(&text);
    assert_eq!(record.acts.len(), 1);
    assert_eq!(record.acts[0].by.as_deref(), Some("alice"));
    assert!(check_record(&record, rules("mgimo-2017")).is_clean());
    assert_eq!(record.comment, None, "the prose became the act");
}

#[test]
fn a4_the_specification_example_reads_and_replays() {
    let spec = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/bpgn.md")).unwrap();
    let example = spec.split("## An example").nth(1).unwrap();
    let text = example.split("```").nth(1).unwrap();
    let record = one(text);
    let timeline = record.timeline(rules("mgimo-2017")).unwrap();
    assert!(check_record(&record, rules("mgimo-2017")).is_clean());
    let kinds: Vec<String> = timeline
        .steps()
        .iter()
        .map(|s| match &s.kind {
            StepKind::Start => "start".to_owned(),
            StepKind::Move(i) => record.moves[*i].label(),
            StepKind::Act(a) => match &a.kind {
                ActKind::Played(m) => format!("played {}", m.label()),
                ActKind::TakeBack { board, .. } => format!("takeback {board}"),
                ActKind::Adjust { seat, delta_ms } => format!("adjust {seat} {delta_ms}"),
                other => format!("{other:?}"),
            },
        })
        .collect();
    assert_eq!(
        kinds,
        [
            "start",
            "1A. e4",
            "1a. e5",
            "1B. Nf3",
            "played 2A. Nf3",
            "takeback A",
            "adjust white-A 60000",
            "2A. Bc4"
        ]
    );
    let after_takeback = &timeline.steps()[5];
    assert_eq!(
        after_takeback.game.bfen(),
        game_after(&[(BoardId::A, "e4"), (BoardId::A, "e5"), (BoardId::B, "Nf3")]).bfen()
    );
    assert_eq!(
        timeline.at(10_000).unwrap().clocks.get(Seat::ALL[0]),
        Some(235_280),
        "white-A to move, his clock runs"
    );
    assert_eq!(timeline.end().at_ms, Some(12_268));
}
