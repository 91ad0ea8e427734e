//! A record's text reviewed: its moves with positions and clocks, page by page, and the check of
//! A1 as codes; bad text refused with what is wrong.

use shvedka_proto::{ErrorCode, Invalid, LaterView, RecordReview, RecordReviewRequest, Reply, SeatId};

use super::{PAGE, review};

/// The scholar's mate on board A (10 moves, clock comments, mate on board by 4A. Qxf7#).
const SCHOLAR: &str = r#"[Event "review"]
[WhiteA "Anna"]
[BlackA "Boris"]
[WhiteB "Vera"]
[BlackB "Gleb"]
[TimeControl "180+0"]
[Rules "mgimo-2017"]
[Result "1-0"]

1A. e4 {178.000} 1B. Nf3 {177.000} 1a. e5 {177.000} 2A. Bc4 {176.000}
1b. d5 {175.000} 2a. Nc6 {175.000} 3A. Qh5 {174.000} 2B. d4 {173.000}
3a. Nf6 {172.000} 4A. Qxf7# {173.000} {BlackA checkmated} 1-0
"#;

/// White-A drops a pawn on the seventh rank (type 2 under MGIMO, P2), then a queen he does not
/// hold (type 1, P1).
const TWO_IMPOSSIBLE: &str = r#"[Event "A1"]
[TimeControl "180+0"]
[Rules "mgimo-2017"]
[SetUp "1"]
[BFEN "4k3/8/8/8/8/8/8/4K3[PR] w - - 0 1 | rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1"]
[Result "*"]

1A. P@a7 {179.000} 1a. Kd7 {178.000} 2A. R@h1 {177.000} 2a. Kc6 {176.000}
3A. Q@d1 {175.000} 3a. Kb6 {174.000} *
"#;

fn ask(bpgn: &str, from: u32) -> Result<RecordReview, ErrorCode> {
    let req = RecordReviewRequest { bpgn: bpgn.into(), game: 1, rules: None, from };
    match review(&req) {
        Ok(Reply::RecordReview(r)) => Ok(*r),
        Ok(other) => panic!("expected RecordReview, got {other:?}"),
        Err(e) => Err(e.code),
    }
}

#[test]
fn a4_m1_a_clean_record_is_replayed_move_by_move_with_its_clocks() {
    let r = ask(SCHOLAR, 0).unwrap();
    assert_eq!(
        (r.games, r.rules.as_str(), r.time_control.as_deref(), r.total),
        (1, "mgimo-2017", Some("180+0"), 10)
    );
    assert_eq!(
        r.players,
        [Some("Anna".into()), Some("Boris".into()), Some("Vera".into()), Some("Gleb".into())]
    );
    assert!(r.start.starts_with("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq"));
    assert_eq!(r.start_clocks_ms, [Some(180_000); 4]);
    assert_eq!(r.moves.len(), 10);
    assert_eq!((r.stopped, r.next, r.impossible.len(), r.unreadable), (None, None, 0, None));
    let first = &r.moves[0];
    assert_eq!(
        (first.seat, first.number, first.text.as_str(), first.san.as_str(), first.uci.as_str()),
        (SeatId::WhiteA, 1, "e4", "e4", "e2e4")
    );
    assert!(first.bfen.starts_with("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR[] b"), "{}", first.bfen);
    // 1A. e4 at match time 2 s (placed by its clock): white-B's clock ran meanwhile too (K1),
    // and after it black-A's and white-B's run.
    assert_eq!(first.at_ms, Some(2_000));
    assert_eq!(first.clocks_ms, [Some(178_000), Some(180_000), Some(178_000), Some(180_000)]);
    assert_eq!(first.running, [false, true, true, false]);
    let last = &r.moves[9];
    assert_eq!((last.seat, last.text.as_str()), (SeatId::WhiteA, "Qxf7#"));
    assert!(last.bfen.starts_with("r1bqkb1r/pppp1Qpp/2n2n2/4p3/2B1P3/8/PPPP1PPP/RNB1K1NR"), "{}", last.bfen);
}

#[test]
fn a1_impossible_moves_come_as_codes_and_the_review_follows_the_record_to_its_end() {
    let r = ask(TWO_IMPOSSIBLE, 0).unwrap();
    assert_eq!((r.total, r.moves.len(), r.stopped, r.next), (6, 6, None, None));
    // The impossible drop on the seventh rank as it was made: the pawn stands on a7, its SAN as
    // written and no squares to mark.
    let drop = &r.moves[0];
    assert_eq!((drop.san.as_str(), drop.uci.as_str()), ("P@a7", ""));
    assert!(drop.bfen.starts_with("4k3/P7/"), "{}", drop.bfen);
    // The queen from nowhere cannot be carried out: the boards stay as they were.
    assert_eq!(r.moves[4].bfen, r.moves[3].bfen);
    let found: Vec<_> = r.impossible.iter().map(|f| (f.index, f.kind, f.rule.as_str())).collect();
    assert_eq!(found, [(0, 2, "P2"), (4, 1, "P1")]);
    // Moves the replay never reached are named as written.
    let named: Vec<_> = r.named.iter().map(|n| (n.index, n.label.as_str())).collect();
    assert_eq!(named, [(0, "1A. P@a7"), (4, "3A. Q@d1")]);
    assert!(r.impossible.iter().all(|f| f.later != LaterView::Stands || f.kind == 2), "{:?}", r.impossible);
    // Under classic a pawn may be dropped on the seventh rank: only the queen is impossible.
    let req =
        RecordReviewRequest { bpgn: TWO_IMPOSSIBLE.into(), game: 1, rules: Some("classic".into()), from: 0 };
    let Ok(Reply::RecordReview(r)) = review(&req) else { panic!("a review") };
    assert_eq!((r.rules.as_str(), r.moves.len(), r.stopped), ("classic", 6, None));
    assert_eq!(r.moves[0].uci, "P@a7", "a legal drop has its long notation");
    assert_eq!(
        r.impossible.iter().map(|f| (f.index, f.kind, f.rule.as_str())).collect::<Vec<_>>(),
        [(4, 1, "P1")]
    );
}

#[test]
fn a4_a_long_record_comes_in_pages() {
    // Knights out and back on both boards (8 moves a round), and for the first 12 rounds a pawn
    // step each (4 more): 30 rounds make 288 moves. Records are replayed move by move; repeated
    // positions end nothing here.
    let mut text = String::from("[Event \"long\"]\n[Rules \"classic\"]\n\n");
    // Not the f- and g-pawns: a pawn on f3 would take the knight's square.
    let files = ["a", "b", "c", "d", "e", "h"];
    let mut n = 1;
    for round in 0..30 {
        for (white, black) in [("Nf3", "Nf6"), ("Ng1", "Ng8")] {
            text.push_str(&format!("{n}A. {white} {n}a. {black} {n}B. {white} {n}b. {black} "));
            n += 1;
        }
        if round < 12 {
            let (file, [w, b]) = (files[round % 6], if round < 6 { ["3", "6"] } else { ["4", "5"] });
            text.push_str(&format!("{n}A. {file}{w} {n}a. {file}{b} {n}B. {file}{w} {n}b. {file}{b} "));
            n += 1;
        }
    }
    text.push_str("*\n");
    let first = ask(&text, 0).unwrap();
    assert!(first.total as usize > PAGE, "{}", first.total);
    assert_eq!((first.moves.len(), first.next, first.stopped), (PAGE, Some(PAGE as u32), None));
    let second = ask(&text, PAGE as u32).unwrap();
    assert_eq!(second.moves.len() as u32, first.total - PAGE as u32);
    assert_eq!(second.next, None);
    assert_eq!(second.moves[0].text, "Nf3", "page two starts at move {PAGE}");
}

#[test]
fn bad_text_is_refused_with_what_is_wrong() {
    // Where the text stops reading, as a fact the page says in its reader's language.
    assert_eq!(
        ask("[Event \"x\"]\n\n1A. e4 2A. 1-0\n", 0).unwrap_err(),
        ErrorCode::Invalid(Invalid::RecordAt { line: 3, column: 12 })
    );
    let req = RecordReviewRequest { bpgn: SCHOLAR.into(), game: 2, rules: None, from: 0 };
    assert_eq!(review(&req).unwrap_err().code, ErrorCode::Invalid(Invalid::NoSuchGame { games: 1 }));
    let req =
        RecordReviewRequest { bpgn: SCHOLAR.into(), game: 1, rules: Some("blitz-9000".into()), from: 0 };
    assert_eq!(review(&req).unwrap_err().code, ErrorCode::Invalid(Invalid::RulePreset));
    assert_eq!(ask(&"x".repeat(super::MOST_TEXT + 1), 0).unwrap_err(), ErrorCode::TooLarge);
    // A page past the end is empty, not an error.
    let r = ask(SCHOLAR, 500).unwrap();
    assert_eq!((r.moves.len(), r.next), (0, None));
}

/// E1, E6, E9, K4 over the wire: the first page explains the result in codes — the flag, the
/// draw its window held, the mate, the end, the weighing and every rule that decided it; later
/// pages do not repeat it.
#[test]
fn e9_k4_the_first_page_explains_the_result_in_codes() {
    use shvedka_proto::{Board, ExplainedLine, HappeningView, Outcome, TeamId, WeighingView};
    let text = include_str!("../../../../shvedka/tests/data/explain_draw_then_mate.bpgn");
    let first = ask(text, 0).unwrap();
    let e = first.explained.expect("the first page explains the result");
    assert_eq!(e.outcome, Some(Outcome::Win(TeamId::One)));
    assert_eq!(e.rule.as_deref(), Some("E1"));
    let line = |at_ms, what| ExplainedLine { at_ms: Some(at_ms), in_window: true, what };
    assert_eq!(
        e.lines,
        [
            line(30_410, HappeningView::Flag { seat: SeatId::BlackB }),
            line(30_600, HappeningView::Draw { board: Board::A, rule: "E3".into() }),
            line(30_843, HappeningView::Mate { mated: SeatId::BlackA, by: "4A. Qxf7#".into() }),
            line(30_843, HappeningView::Ended),
        ]
    );
    assert_eq!(e.weighing, [WeighingView::MateOverFlag, WeighingView::MateOverDraw]);
    assert_eq!(e.rules, ["E1", "K4", "E6", "E9"]);
    assert_eq!(ask(text, 1).unwrap().explained, None, "only the first page carries it");
    let scholar = ask(SCHOLAR, 0).unwrap().explained.expect("explained");
    assert_eq!(scholar.weighing, [], "no window decided the scholar's mate");
}

/// K4, A4: a record's acts come with the page, at their places, with the boards and clocks after
/// them: the flag after the seventh move, the draw the window held, the end after the mate.
#[test]
fn k4_a_records_acts_come_at_their_places_with_the_clocks_after_them() {
    use shvedka_proto::{ActView, Board};
    let text = include_str!("../../../../shvedka/tests/data/explain_draw_then_mate.bpgn");
    let first = ask(text, 0).unwrap();
    let acts: Vec<_> = first.acts.iter().map(|a| (a.after_moves, a.at_ms, a.what.clone())).collect();
    assert_eq!(
        acts,
        [
            (7, Some(30_410), ActView::Flag { seat: SeatId::BlackB }),
            (7, Some(30_600), ActView::Draw { board: Board::A }),
            (8, Some(30_843), ActView::End),
        ]
    );
    assert_eq!(first.acts[0].clocks_ms[3], Some(0), "black-B's clock at zero after its flag");
    assert_eq!(first.acts[2].running, [false; 4], "no clock runs after the end");
    assert!(ask(SCHOLAR, 0).unwrap().acts.is_empty(), "a record without acts has none");
}
