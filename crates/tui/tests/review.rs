//! The terminal's review of a decided match (`/review N`; RULES.md A4, A2): the record's one
//! replay stepped through on the screen — the same moves, acts, match times and clocks as
//! `shvedka arbiter show` gives (the records crate's timeline) — in English and Russian, on the
//! smallest terminal and a wide one. The record is docs/bpgn.md's example: a move taken back by
//! the arbiter, who then added a minute on white-A's clock.

use std::time::Instant;

use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use shvedka_proto::{MatchId, MatchSummary, PhaseView};
use shvedka_tui::review::{Review, ReviewError};
use shvedka_tui::{Action, App, Lang, Screen, view};

const RECORD: &str = r#"[Event "shvedka match 4"]
[WhiteA "anna"]
[BlackA "boris"]
[WhiteB "vera"]
[BlackB "gleb"]
[TimeControl "180+0"]
[Rules "mgimo-2017"]
[Result "*"]

1A. e4 {178.802} {[%mt 1.198]} 1a. e5 {177.310} {[%mt 3.888]} 1B. Nf3 {176.004}
{[%mt 3.996]} {[%act played t=6.420 move="2A. Nf3" clock=175.380 mt=6.420]}
{[%act takeback t=9.104 by=alice board=A position="rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR[] w KQkq - 0 2 | rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R[] b KQkq - 1 1"
clocks=175.380,174.626,180.000,170.896]} {[%act adjust t=9.900 by=alice seat=white-A
delta=+60.000 clocks=235.380,174.626,180.000,170.100]} 2A. Bc4 {233.012} {[%mt 12.268]} *
"#;

fn key(app: &mut App, code: KeyCode) -> Vec<Action> {
    app.on_key(KeyEvent::new(code, KeyModifiers::NONE))
}

fn typed(app: &mut App, text: &str) -> Vec<Action> {
    for c in text.chars() {
        key(app, KeyCode::Char(c));
    }
    key(app, KeyCode::Enter)
}

fn screen(app: &App, (cols, rows): (u16, u16)) -> String {
    let mut terminal = Terminal::new(TestBackend::new(cols, rows)).unwrap();
    terminal.draw(|f| view::render(f, app, Instant::now())).unwrap();
    let buffer = terminal.backend().buffer().clone();
    (0..buffer.area.height)
        .map(|y| (0..buffer.area.width).map(|x| buffer[(x, y)].symbol().to_owned()).collect::<String>())
        .map(|r| r.trim().to_owned())
        .filter(|r| !r.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

fn reviewing(lang: Lang) -> App {
    let mut app = App::new_in("anna", lang);
    app.open_review(Review::from_bpgn(MatchId(4), RECORD).expect("the example reads"));
    app
}

#[test]
fn a2_review_asks_for_the_named_followed_or_selected_match() {
    let mut app = App::new("anna");
    assert_eq!(typed(&mut app, "/review 4"), [Action::Review(MatchId(4))]);
    assert!(typed(&mut app, "/review").is_empty(), "no match named, none selected");
    assert!(typed(&mut app, "/review four").is_empty(), "not a number");
    app.set_lobby(vec![MatchSummary {
        match_id: MatchId(9),
        rules: "classic".into(),
        time_control: "3+0".into(),
        chess960: false,
        rated: false,
        seats: [None, None, None, None],
        kinds: [None; 4],
        phase: PhaseView::Ended,
    }]);
    assert_eq!(typed(&mut app, "/review"), [Action::Review(MatchId(9))]);
}

#[test]
fn a2_the_review_steps_through_moves_and_the_arbiters_acts_with_shows_times_and_clocks() {
    let mut app = reviewing(Lang::En);
    assert_eq!(app.screen, Screen::Review);
    // At the end: four moves (the taken-back 2A. Nf3 not counted), white-A's added minute used.
    let end = screen(&app, (100, 30));
    assert!(end.contains("review of match 4"), "{end}");
    assert!(end.contains("moves made: 4 of 4, the last 2A. Bc4"), "{end}");
    assert!(end.contains("match time: 0:12.268"), "{end}");
    assert!(end.contains("anna · white-A") && end.contains("3:53.012"), "{end}");
    assert!(end.contains("alice took back the last move on board A (A2)"), "{end}");
    // The start, then move by move.
    key(&mut app, KeyCode::Home);
    let start = screen(&app, (100, 30));
    assert!(start.contains("after move 0 (the start)") && start.contains("3:00.000"), "{start}");
    key(&mut app, KeyCode::Right);
    assert!(screen(&app, (100, 30)).contains("moves made: 1 of 4, the last 1A. e4"));
    key(&mut app, KeyCode::Right);
    key(&mut app, KeyCode::Right);
    // After 1B. Nf3 and the acts after it: the take-back and the minute added.
    let third = screen(&app, (100, 30));
    assert!(third.contains("after move 3 (1B. Nf3)"), "{third}");
    assert!(third.contains("match time: 0:09.900"), "{third}");
    assert!(third.contains("3:55.380"), "white-A's clock with the minute: {third}");
    assert!(third.contains("2A. Nf3 was played, then taken back or annulled"), "{third}");
    // One step back: before the minute.
    key(&mut app, KeyCode::Up);
    let before = screen(&app, (100, 30));
    assert!(before.contains("match time: 0:09.104") && before.contains("2:55.380"), "{before}");
    assert!(!before.contains("added 1:00.000"), "{before}");
    // The steps are the records crate's timeline, the one `shvedka arbiter show` prints from.
    let review = app.review.as_ref().unwrap();
    let step = review.step();
    assert_eq!((step.moves_made, step.at_ms, step.clocks.0[0]), (3, Some(9_104), Some(175_380)));
    key(&mut app, KeyCode::Esc);
    assert_eq!(app.screen, Screen::Lobby, "Esc leaves the review");
    assert!(app.review.is_none());
}

#[test]
fn a2_the_review_speaks_russian_and_fits_the_smallest_terminal() {
    let mut app = reviewing(Lang::Ru);
    key(&mut app, KeyCode::Home);
    for _ in 0..3 {
        key(&mut app, KeyCode::Right);
    }
    for size in [(80, 24), (160, 40)] {
        let s = screen(&app, size);
        assert!(s.contains("разбор матча 4"), "{size:?}: {s}");
        assert!(s.contains("после хода 3 (1B. Nf3)"), "{size:?}: {s}");
        assert!(s.contains("3:55.380"), "{size:?}: {s}");
        for english in ["review", "match time", "moves made", "took back", "reserve", "white-A"] {
            assert!(!s.contains(english), "no English {english:?} on the Russian screen {size:?}: {s}");
        }
    }
}

#[test]
fn a4_a_text_that_is_no_record_is_said_not_shown() {
    assert!(matches!(Review::from_bpgn(MatchId(1), "1A. e4 {"), Err(ReviewError::Unreadable(_))));
    assert_eq!(Review::from_bpgn(MatchId(1), ""), Err(ReviewError::NoGame));
}

/// A2, K6: a pause in a record is said as whose it was — an arbiter's act (A2), or the server's
/// own (a restart, a shutdown or a take-over, K6), never a player's call (K5).
#[test]
fn a2_k6_a_pause_is_said_as_the_arbiters_act_or_the_servers_own() {
    use shvedka_records::{Act, ActKind};
    use shvedka_tui::{Lang, record_words};
    let pause =
        |by: &str| Act { kind: ActKind::Pause, at_ms: Some(3000), by: Some(by.to_owned()), clocks: None };
    let arbiter = record_words::act(Lang::En, None, &pause("alice"), None);
    assert!(arbiter.ends_with("stopped the clocks (A2)"), "{arbiter}");
    let server = record_words::act(Lang::En, None, &pause("(server)"), None);
    assert!(server.contains("the server stopped the clocks") && server.contains("K6"), "{server}");
    assert!(!server.contains("K5"), "{server}");
    let ru = record_words::act(Lang::Ru, None, &pause("(server)"), None);
    assert!(ru.contains("сервер остановил часы") && ru.contains("K6"), "{ru}");
}
