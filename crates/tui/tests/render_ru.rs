//! The screen in Russian, drawn on ratatui's test backend at 80×24 (the smallest terminal the
//! client is made for) and in a wide terminal: the lobby, both boards with players, clocks and
//! reserves, a refused move, a result and the help. No English is left on a Russian screen but
//! identifiers (names, rule ids, squares, SAN, piece letters, commands and keys), and nothing is
//! cut: every text asked for is on the screen whole.

use std::time::Instant;

use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use shvedka_client::ClientError;
use shvedka_proto::{
    Board, ChatScope, ErrorCode, ErrorMsg, EventView, IllegalMove, MatchEvent, MatchId, MatchRefusal,
    MatchState, MatchSummary, MoveView, PhaseView, PlayerKind, ResultCause, ResultView, SeatId, ServerMsg,
    TeamId,
};
use shvedka_tui::{Action, App, Lang, speak, view};

/// White-A holds a queen and two knights, black-A a pawn; the other two reserves are empty.
const BFEN: &str = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR[QNNp] w KQkq - 0 2 | \
                    rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1";

/// The longest name a guest may have (32 characters).
const LONG: &str = "александр_невский_чемпион_мгимо1";

const SIZES: [(u16, u16); 3] = [(80, 24), (100, 30), (160, 40)];

fn state(me: Option<SeatId>, phase: PhaseView) -> MatchState {
    MatchState {
        match_id: MatchId(12),
        rules: "mgimo-2017".into(),
        time_control: "3+0".into(),
        seats: [Some(LONG.into()), Some("боря".into()), Some("sputnik-7".into()), Some("даша".into())],
        kinds: [
            Some(PlayerKind::Guest),
            Some(PlayerKind::Account),
            Some(PlayerKind::Bot),
            Some(PlayerKind::Guest),
        ],
        ready: [true, false, true, true],
        phase,
        bfen: BFEN.into(),
        clocks_ms: [179_870, 180_000, 9_870, 180_000],
        running: [true, false, true, false],
        last_seq: Some(10),
        result: None,
        your_seat: me,
        server_time_us: 0,
        moves: vec![
            MoveView { seat: SeatId::WhiteA, number: 1, san: "e4".into() },
            MoveView { seat: SeatId::BlackA, number: 1, san: "e5".into() },
        ],
        rated: false,
        rating_changes: Vec::new(),
        called: None,
        restart_by_us: None,
        countdown_left_ms: None,
        bots_missing: Vec::new(),
        reserved: false,
        tournament: None,
    }
}

fn app_with(s: MatchState, now: Instant) -> App {
    let mut app = App::new_in("даша", Lang::Ru);
    app.on_server(ServerMsg::State(s), now);
    app
}

/// The screen's rows.
fn screen(app: &App, now: Instant, (cols, rows): (u16, u16)) -> Vec<String> {
    let mut terminal = Terminal::new(TestBackend::new(cols, rows)).unwrap();
    terminal.draw(|f| view::render(f, app, now)).unwrap();
    let buffer = terminal.backend().buffer().clone();
    (0..buffer.area.height)
        .map(|y| (0..buffer.area.width).map(|x| buffer[(x, y)].symbol().to_owned()).collect::<String>())
        .collect()
}

/// The screen as running text: rows trimmed and joined by a space, so that a text wrapped over
/// rows reads as one.
fn flow(rows: &[String]) -> String {
    rows.iter().map(|r| r.trim()).filter(|r| !r.is_empty()).collect::<Vec<_>>().join(" ")
}

/// Latin words on the screen that are not identifiers.
fn english(rows: &[String], names: &[&str]) -> Vec<String> {
    let allowed = [
        "shvedka",
        "mgimo-2017",
        "classic",
        "Enter",
        "Ctrl-C",
        "PgUp",
        "PgDn",
        "Esc",
        "FIDE",
        "UTC",
        "rated",
        "white-A",
        "black-A",
        "white-B",
        "black-B",
        "straight",
        "crossed",
        "white-a",
        "white-b",
        "bullet",
        "blitz",
        "rapid",
        "with",
        "rep",
        "flag",
        "lang",
        "sputnik-7",
    ];
    let text = rows.join("\n");
    text.split(|c: char| !(c.is_ascii_alphanumeric() || "/-@=+_".contains(c)))
        .filter(|w| w.chars().filter(|c| c.is_ascii_alphabetic()).count() >= 3)
        .filter(|w| !w.starts_with('/') && !w.starts_with("--"))
        .filter(|w| !allowed.contains(w) && !names.iter().any(|n| n.contains(*w)))
        // SAN and long notation: a square in it.
        .filter(|w| !w.chars().any(|c| ('1'..='8').contains(&c)))
        .map(str::to_owned)
        .collect()
}

fn key(code: KeyCode) -> KeyEvent {
    KeyEvent::new(code, KeyModifiers::NONE)
}

fn typed(app: &mut App, text: &str) -> Vec<Action> {
    let mut actions = Vec::new();
    for c in text.chars() {
        actions.extend(app.on_key(key(KeyCode::Char(c))));
    }
    actions.extend(app.on_key(key(KeyCode::Enter)));
    actions
}

fn event(seq: u64, kind: EventView) -> ServerMsg {
    ServerMsg::Event(MatchEvent {
        match_id: MatchId(12),
        seq,
        at_ms: 1000,
        kind,
        clocks_ms: [179_870, 180_000, 9_870, 180_000],
        running: [true, false, true, false],
        bfen: None,
        server_time_us: 0,
    })
}

#[test]
fn the_lobby_in_russian_keeps_its_columns_with_long_names_cut() {
    let now = Instant::now();
    let mut app = App::new_in("даша", Lang::Ru);
    app.set_lobby(vec![
        MatchSummary {
            match_id: MatchId(3),
            rules: "mgimo-2017".into(),
            time_control: "3+0".into(),
            chess960: true,
            rated: false,
            seats: [Some(LONG.into()), None, Some("sputnik-7".into()), Some("боря".into())],
            kinds: [Some(PlayerKind::Guest), None, Some(PlayerKind::Bot), Some(PlayerKind::Account)],
            phase: PhaseView::Forming,
        },
        MatchSummary {
            match_id: MatchId(1234),
            rules: "classic".into(),
            time_control: "1+0".into(),
            chess960: false,
            rated: false,
            seats: [Some("юра".into()), Some("эля".into()), Some("щука".into()), Some("ёж".into())],
            kinds: [Some(PlayerKind::Account); 4],
            phase: PhaseView::Annulled,
        },
    ]);
    for size in SIZES {
        let rows = screen(&app, now, size);
        let text = rows.join("\n");
        let header = rows.iter().position(|r| r.contains("матч") && r.contains("правила")).expect(&text);
        for word in ["время", "стадия", "белые A", "чёрные A", "белые B", "чёрные B"]
        {
            assert!(rows[header].contains(word), "{size:?}: {word} in {}", rows[header]);
        }
        // Each seat's column starts where its heading does, in every row.
        let at = |row: &str, needle: &str| row.find(needle).map(|b| row[..b].chars().count());
        let columns: Vec<usize> = ["белые A", "чёрные A", "белые B", "чёрные B"]
            .iter()
            .map(|h| at(&rows[header], h).unwrap())
            .collect();
        let first = &rows[header + 1];
        let second = &rows[header + 2];
        assert_eq!(at(second, "юра"), Some(columns[0]), "{size:?}:\n{text}");
        assert_eq!(at(second, "эля"), Some(columns[1]), "{size:?}:\n{text}");
        assert_eq!(at(second, "щука"), Some(columns[2]), "{size:?}:\n{text}");
        assert_eq!(at(second, "ёж"), Some(columns[3]), "{size:?}:\n{text}");
        assert_eq!(at(first, "алек"), Some(columns[0]), "{size:?}:\n{text}");
        assert_eq!(at(first, "боря"), Some(columns[3]), "{size:?}:\n{text}");
        // The long name is cut with … and keeps its mark while the column allows one.
        assert!(first.contains('…') && !first.contains(LONG), "{size:?}: {first}");
        if size.0 >= 100 {
            assert!(first.contains("…(гость)") || first.contains("… (гость)"), "{size:?}: {first}");
        }
        for word in ["сбор", "аннулирован", "mgimo-2017 960", "classic"] {
            assert!(text.contains(word), "{size:?}: {word}:\n{text}");
        }
        assert!(rows.iter().all(|r| r.chars().count() == usize::from(size.0)));
        assert_eq!(english(&rows, &["даша", "sputnik-7"]), Vec::<String>::new(), "{size:?}:\n{text}");
    }
    // Empty, it says what to do.
    let app = App::new_in("даша", Lang::Ru);
    let text = flow(&screen(&app, now, (80, 24)));
    assert!(text.contains("открытых матчей нет: c — создать матч, F1–F4 — найти партию"), "{text}");
}

#[test]
fn both_boards_players_clocks_and_reserves_in_russian_whole_at_80x24_and_wide() {
    let now = Instant::now();
    let mut app = app_with(state(Some(SeatId::BlackB), PhaseView::Running), now);
    app.on_server(event(11, EventView::FlagFell { seat: SeatId::WhiteB }), now);
    for size in SIZES {
        let rows = screen(&app, now, size);
        let text = rows.join("\n");
        let all = flow(&rows);
        // The player's board B on the left, from Black's side; board A from White's.
        let b = rows.iter().position(|r| r.contains("Доска B")).expect(&text);
        let (bx, ax) = (rows[b].find("Доска B").unwrap(), rows[b].find("Доска A").expect(&text));
        assert!(bx < ax, "{size:?}");
        // Every player with his seat, clock and reserve (the empty ones labelled).
        for part in [
            "даша (гость) (вы)",
            "чёрные B",
            "белые A",
            "чёрные A",
            "белые B",
            "боря",
            "sputnik-7 (бот)",
            "2:59",
            "3:00",
            "9,8",
            "флаг",
            "запас: Q1 N2",
            "запас: p1",
        ] {
            assert!(all.contains(part), "{size:?}: {part}:\n{text}");
        }
        assert_eq!(all.matches("запас: —").count(), 2, "{size:?}: two empty reserves:\n{text}");
        assert!(!text.contains("[]") && !text.contains(" ["), "{size:?}: no bare brackets:\n{text}");
        // The long name is cut with … on a narrow panel, never the clock or the reserve after it.
        if size.0 < 160 {
            assert!(text.contains('…') && !text.contains(LONG), "{size:?}:\n{text}");
        }
        // The eight ranks and the files of both boards.
        assert_eq!(
            rows.iter().filter(|r| r.contains(" a  b  c  d  e  f  g  h ")).count(),
            1,
            "{size:?}:\n{text}"
        );
        assert_eq!(
            rows.iter().filter(|r| r.contains(" h  g  f  e  d  c  b  a ")).count(),
            1,
            "{size:?}:\n{text}"
        );
        assert!(all.contains("2 хода"), "the move list's count: {size:?}:\n{text}");
        assert!(all.contains("матч 12"), "{size:?}:\n{text}");
        assert_eq!(english(&rows, &[LONG]), Vec::<String>::new(), "{size:?}:\n{text}");
    }
    // Wide, the title says it all: the seat with its team.
    let all = flow(&screen(&app, now, (160, 40)));
    assert!(all.contains("ваше место: чёрные B (команда 1: белые A + чёрные B)"), "{all}");
}

#[test]
fn a_refused_move_in_russian_reads_whole_in_the_message_pane() {
    let now = Instant::now();
    let mut app = app_with(state(Some(SeatId::WhiteA), PhaseView::Running), now);
    let actions = typed(&mut app, "Ke3");
    assert_eq!(actions, vec![Action::Play { board: Board::A, text: "Ke3".into() }]);
    let refused = ClientError::Server(ErrorMsg {
        code: ErrorCode::Match(MatchRefusal::Illegal {
            board: Board::A,
            why: IllegalMove::Chess { in_check: false },
        }),
        rule: Some("FIDE".into()),
        message: "move \"Ke3\" is illegal on board A: not a legal chess move here (FIDE)".into(),
    });
    app.error(speak::refused(Lang::Ru, &actions[0], &refused));
    // A drop that would mate, and a message from the partner (a quick one, in the reader's words).
    let p3 = ClientError::Server(ErrorMsg {
        code: ErrorCode::Match(MatchRefusal::Illegal { board: Board::A, why: IllegalMove::DropMates }),
        rule: Some("P3".into()),
        message: "a drop may not give mate on board".into(),
    });
    app.error(speak::refused(Lang::Ru, &Action::Play { board: Board::A, text: "Q@f7".into() }, &p3));
    app.on_server(
        ServerMsg::Chat {
            match_id: MatchId(12),
            from: "даша".into(),
            kind: PlayerKind::Guest,
            seat: Some(SeatId::BlackB),
            scope: ChatScope::Team,
            text: "need a knight".into(),
        },
        now,
    );
    for size in SIZES {
        let rows = screen(&app, now, size);
        let all = flow(&rows);
        let text = rows.join("\n");
        assert!(
            all.contains("невозможный ход Ke3 на доске A: по шахматным правилам так ходить нельзя (FIDE)"),
            "{size:?}:\n{text}"
        );
        assert!(
            all.contains("невозможный ход Q@f7 на доске A: выставление с матом на доске запрещено (P3)"),
            "{size:?}:\n{text}"
        );
        assert!(all.contains("[команде] даша (гость): нужен конь"), "{size:?}:\n{text}");
        assert!(!text.contains("illegal") && !text.contains("need a"), "{size:?}:\n{text}");
        assert_eq!(english(&rows, &[LONG]), Vec::<String>::new(), "{size:?}:\n{text}");
    }
}

#[test]
fn a_result_and_the_bots_that_sat_down_are_said_in_russian() {
    let now = Instant::now();
    let mut app = app_with(state(Some(SeatId::WhiteA), PhaseView::Forming), now);
    // The server's bots fill the match: every player sees who sat where.
    app.on_server(
        event(11, EventView::SeatTaken { seat: SeatId::BlackA, name: "bot-1".into(), kind: PlayerKind::Bot }),
        now,
    );
    let text = flow(&screen(&app, now, (80, 24)));
    assert!(text.contains("за доску садится бот: чёрные A — bot-1"), "{text}");
    assert!(
        text.contains("не готов") && text.contains("нажмите Enter (или /ready), когда будете готовы начать"),
        "{text}"
    );
    // The match ends: the result with its rule and the team, and what to do next.
    app.on_server(
        event(
            12,
            EventView::Ended(ResultView {
                winner: Some(TeamId::Two),
                reason: "team 2 wins: mate on board by black-A (E1)".into(),
                rule: "E1".into(),
                cause: Some(ResultCause::MateOnBoard { seat: SeatId::BlackA }),
                note: None,
                rules: Box::default(),
            }),
        ),
        now,
    );
    for size in SIZES {
        let rows = screen(&app, now, size);
        let all = flow(&rows);
        let text = rows.join("\n");
        assert!(
            all.contains(
                "победила команда 2: чёрные A поставили мат на доске (E1) · команда 2: чёрные A + белые B · /lobby — выйти в лобби"
            ),
            "{size:?}:\n{text}"
        );
        assert!(all.contains("/rematch — сыграть ещё раз"), "{size:?}:\n{text}");
        assert!(!text.contains("wins"), "{size:?}:\n{text}");
        assert_eq!(english(&rows, &[LONG, "bot-1"]), Vec::<String>::new(), "{size:?}:\n{text}");
    }
}

#[test]
fn help_in_russian_says_who_may_fill_a_match_with_bots_and_scrolls() {
    let now = Instant::now();
    let mut app = app_with(state(Some(SeatId::WhiteA), PhaseView::Forming), now);
    assert_eq!(typed(&mut app, "/help"), vec![]);
    assert!(app.help);
    // PgDn goes forward through the help, PgUp back.
    let mut seen = String::new();
    for _ in 0..8 {
        seen.push_str(&flow(&screen(&app, now, (80, 24))));
        app.on_key(key(KeyCode::PageDown));
    }
    assert!(seen.contains("PgUp PgDn — листать сообщения"), "the last line shows at the end:\n{seen}");
    for _ in 0..8 {
        app.on_key(key(KeyCode::PageUp));
    }
    assert!(flow(&screen(&app, now, (80, 24))).contains("ходы: e4, Nf3"), "and the first at the start");
    for part in [
        "может создатель матча или игрок, сидящий в нём, до начала и только в нерейтинговом матче",
        "N@f3 (выставление)",
        "K король, Q ферзь, R ладья, B слон, N конь, P пешка",
        "/lang ru или /lang en",
    ] {
        assert!(seen.contains(part), "{part}:\n{seen}");
    }
    app.on_key(key(KeyCode::Esc));
    assert!(!app.help, "Esc closes the help");
}

#[test]
fn lang_switches_the_language_at_once_and_asks_to_remember_it() {
    let now = Instant::now();
    let mut app = app_with(state(Some(SeatId::WhiteA), PhaseView::Running), now);
    assert_eq!(typed(&mut app, "/lang en"), vec![Action::Language(Lang::En)]);
    assert_eq!(app.lang, Lang::En);
    let text = flow(&screen(&app, now, (100, 30)));
    assert!(
        text.contains("language: English") && text.contains("Board A") && text.contains("reserve: Q1 N2"),
        "{text}"
    );
    assert_eq!(typed(&mut app, "/lang ru"), vec![Action::Language(Lang::Ru)]);
    let text = flow(&screen(&app, now, (100, 30)));
    assert!(text.contains("язык: русский") && text.contains("Доска A"), "{text}");
    assert_eq!(typed(&mut app, "/lang de"), vec![], "an unknown language is refused");
    assert!(flow(&screen(&app, now, (100, 30))).contains("какой язык? /lang ru или /lang en"));
}

/// Issue 36: the node let the match go; the player reads why in Russian, and the end of the
/// connection that follows is the move to another node, not a fault to report in the client's
/// own (English) words.
#[test]
fn a_match_moving_to_another_node_is_said_in_russian_and_its_connection_end_is_no_fault() {
    let now = Instant::now();
    let mut app = app_with(state(Some(SeatId::WhiteA), PhaseView::Running), now);
    assert!(!app.moving);
    app.on_server(
        ServerMsg::ResumeElsewhere {
            match_id: MatchId(4),
            reason: shvedka_proto::ElsewhereReason::LeaseLost,
        },
        now,
    );
    let text = flow(&screen(&app, now, (80, 24)));
    assert!(text.contains("матч 4 переходит на другой узел"), "{text}");
    assert!(app.moving, "the connection's end that follows is expected");
    // The connection ends: no fault is said (in any language), and the client reconnects.
    app.disconnected("connection lost: closed by peer");
    let after = flow(&screen(&app, now, (80, 24)));
    assert!(!after.contains("closed by peer"), "the library's words are not shown: {after}");
    assert!(!after.contains("связь потеряна:"), "no loss is reported: {after}");
    assert_eq!(app.link, shvedka_tui::Link::Reconnecting(1));
    assert!(!app.moving, "the next loss is reported again");
    // A loss nobody announced is said, in Russian.
    app.link = shvedka_tui::Link::Connected;
    app.disconnected("connection lost: closed by peer");
    let lost = flow(&screen(&app, now, (80, 24)));
    assert!(
        lost.contains("связь потеряна: connection lost"),
        "an unannounced loss is said in Russian: {lost}"
    );
}

/// A declined rematch names who declines, the verb agreeing with how many (a verb in the present
/// tense, so that it needs no gender: отказывается, отказываются).
#[test]
fn a_declined_rematch_agrees_with_the_number_of_players_who_decline() {
    let now = Instant::now();
    let mut app = app_with(state(Some(SeatId::WhiteA), PhaseView::Ended), now);
    let mut view = shvedka_proto::RematchView {
        match_id: MatchId(12),
        players: ["аня".into(), "боря".into(), "вера".into(), "гена".into()],
        kinds: [PlayerKind::Account; 4],
        accepted: [false; 4],
        declined: [false, true, false, false],
        rematch: None,
    };
    app.rematch(&view);
    let text = flow(&screen(&app, now, (100, 30)));
    assert!(text.contains("реванша в матче 12 не будет: отказывается боря"), "{text}");
    view.declined = [false, true, true, false];
    app.rematch(&view);
    let text = flow(&screen(&app, now, (100, 30)));
    assert!(text.contains("не будет: отказываются боря, вера"), "{text}");
}

/// `/resign` in a decided match is answered at once, "the match is over", not asked to be typed
/// twice for a refusal about not being in a match.
#[test]
fn resigning_a_decided_match_says_it_is_over() {
    let now = Instant::now();
    let mut app = app_with(state(Some(SeatId::WhiteA), PhaseView::Ended), now);
    assert_eq!(typed(&mut app, "/resign"), vec![], "nothing is sent");
    let text = flow(&screen(&app, now, (100, 30)));
    assert!(text.contains("матч окончен") && !text.contains("наберите /resign"), "{text}");
    let mut app = app_with(state(Some(SeatId::WhiteA), PhaseView::Running), now);
    assert_eq!(typed(&mut app, "/resign"), vec![], "asked first");
    assert_eq!(typed(&mut app, "/resign"), vec![Action::Resign], "then sent");
}

/// A2: the arbiter takes back the last move on board A. The header and the list no longer show
/// it: the board's last move is the one before, and the list counts one move less.
#[test]
fn a_move_taken_back_by_the_arbiter_leaves_the_header_and_the_list() {
    let now = Instant::now();
    let mut app = app_with(state(Some(SeatId::WhiteA), PhaseView::Running), now);
    let moved = |seat, uci: &str, san: &str| EventView::Moved {
        seat,
        uci: uci.into(),
        san: san.into(),
        charged_ms: 1000,
        credit_ms: 0,
    };
    app.on_server(event(11, moved(SeatId::WhiteA, "g1f3", "Nf3")), now);
    app.on_server(event(12, moved(SeatId::BlackA, "b8c6", "Nc6")), now);
    let text = flow(&screen(&app, now, (160, 40)));
    assert!(text.contains("последний ход: чёрные A Nc6") && text.contains("4 хода"), "{text}");
    let take_back = EventView::ArbiterActed {
        act: shvedka_proto::ArbiterRequest::TakeBack { board: Board::A },
        text: String::new(),
        by: None,
    };
    app.on_server(event(13, take_back), now);
    let text = flow(&screen(&app, now, (160, 40)));
    assert!(text.contains("последний ход: белые A Nf3") && text.contains("3 хода"), "{text}");
    assert!(!text.contains("Nc6"), "the move taken back is gone:\n{text}");
}

/// K6: a match waiting after a restart says in Russian how long the clocks wait at most, then
/// that they run with whoever is there.
#[test]
fn k6_a_match_waiting_after_a_restart_says_for_how_long_at_most() {
    let now = Instant::now();
    let mut s = state(Some(SeatId::WhiteA), PhaseView::Paused);
    s.server_time_us = 5_000_000;
    s.restart_by_us = Some(95_000_000);
    let app = app_with(s, now);
    let text = flow(&screen(&app, now, (160, 40)));
    assert!(text.contains("часы ждут всех четверых ещё не больше 1:30"), "{text}");
    assert!(text.contains("пойдут с теми, кто здесь (K6)"), "{text}");
    // Without a wait (all four are back, or an older server) nothing is said of it.
    let app = app_with(state(Some(SeatId::WhiteA), PhaseView::Paused), now);
    assert!(!flow(&screen(&app, now, (160, 40))).contains("K6"));
}

/// A server's bot that could not sit again after a restart is said in Russian, with its reason.
#[test]
fn a_servers_bot_that_could_not_sit_again_is_said_in_russian() {
    let now = Instant::now();
    let mut s = state(Some(SeatId::WhiteA), PhaseView::Paused);
    s.bots_missing =
        vec![shvedka_proto::MissingBot { seat: SeatId::BlackA, reason: shvedka_proto::BotTrouble::MaxBots }];
    let text = flow(&screen(&app_with(s, now), now, (160, 40)));
    assert!(text.contains("бот сервера на месте чёрных A не смог вернуться"), "{text}");
    assert!(text.contains("(max_bots)"), "{text}");
}
