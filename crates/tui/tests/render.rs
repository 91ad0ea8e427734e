//! What the screen shows for given states, drawn on ratatui's test backend.

use std::time::{Duration, Instant};

use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::style::Color;
use shvedka_proto::{
    Board, ChatScope, ErrorCode, ErrorMsg, EventView, MatchEvent, MatchId, MatchState, MatchSummary,
    PhaseView, PlayerKind, ResultCause, ResultView, SeatId, ServerMsg, TeamId,
};
use shvedka_tui::{Action, App, Lang, Link, refusal, view};

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1 | \
                     rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1";

fn state(bfen: &str, me: Option<SeatId>, phase: PhaseView) -> MatchState {
    MatchState {
        match_id: MatchId(7),
        rules: "mgimo-2017".into(),
        time_control: "3+0".into(),
        seats: [Some("alice".into()), Some("bob".into()), Some("carol".into()), Some("dave".into())],
        kinds: [
            Some(PlayerKind::Account),
            Some(PlayerKind::Guest),
            Some(PlayerKind::Bot),
            Some(PlayerKind::Account),
        ],
        ready: [true; 4],
        phase,
        bfen: bfen.into(),
        clocks_ms: [179_870, 180_000, 9_870, 180_000],
        running: [true, false, true, false],
        last_seq: Some(10),
        result: None,
        your_seat: me,
        server_time_us: 0,
        moves: Vec::new(),
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
    let mut app = App::new("alice");
    app.on_server(ServerMsg::State(s), now);
    app
}

/// The screen as lines of text.
fn screen(app: &App, now: Instant) -> (Vec<String>, Terminal<TestBackend>) {
    let mut terminal = Terminal::new(TestBackend::new(110, 34)).unwrap();
    terminal.draw(|f| view::render(f, app, now)).unwrap();
    let buffer = terminal.backend().buffer().clone();
    let lines = (0..buffer.area.height)
        .map(|y| (0..buffer.area.width).map(|x| buffer[(x, y)].symbol().to_owned()).collect::<String>())
        .collect();
    (lines, terminal)
}

fn find(lines: &[String], needle: &str) -> Option<(usize, usize)> {
    lines.iter().enumerate().find_map(|(y, l)| l.find(needle).map(|x| (l[..x].chars().count(), y)))
}

/// A line from column `x` on.
fn tail(line: &str, x: usize) -> String {
    line.chars().skip(x).collect()
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

#[test]
fn s1_lobby_lists_matches_with_rules_clock_and_the_four_seats() {
    let now = Instant::now();
    let mut app = App::new("alice");
    let (lines, _) = screen(&app, now);
    assert!(find(&lines, "no open matches").is_some(), "{lines:#?}");
    app.set_lobby(vec![MatchSummary {
        match_id: MatchId(3),
        rules: "classic".into(),
        time_control: "2+0".into(),
        chess960: false,
        rated: false,
        seats: [Some("bob".into()), None, None, Some("dave".into())],
        kinds: [Some(PlayerKind::Guest), None, None, Some(PlayerKind::Bot)],
        phase: PhaseView::Forming,
    }]);
    let (lines, _) = screen(&app, now);
    let row = lines.iter().find(|l| l.contains("classic")).expect("the match's row");
    // Guests and bots are marked as such (issue 17); an account's name stands alone.
    for part in ["3", "2+0", "forming", "bob (guest)", "dave (bot)"] {
        assert!(row.contains(part), "{part} in {row}");
    }
    assert_eq!(app.on_key(key(KeyCode::Char('2'))), vec![Action::TakeSeat(MatchId(3), SeatId::BlackA)]);
    assert_eq!(app.on_key(key(KeyCode::Char('w'))), vec![Action::Watch(MatchId(3))]);
}

#[test]
fn chess960_lobby_offers_and_shows_a_chess960_start() {
    let now = Instant::now();
    let mut app = App::new("alice");
    app.set_lobby(vec![MatchSummary {
        match_id: MatchId(4),
        rules: "mgimo-2017".into(),
        time_control: "1+0".into(),
        chess960: true,
        seats: [None, None, None, None],
        kinds: [None; 4],
        phase: PhaseView::Forming,
        rated: true,
    }]);
    let (lines, _) = screen(&app, now);
    assert!(lines.iter().any(|l| l.contains("mgimo-2017 960 R")), "a rated Chess960 match: {lines:#?}");
    let create = |chess960, rated| Action::Create {
        rules: "classic".into(),
        time_control: "1+0".into(),
        chess960,
        rated,
    };
    assert_eq!(typed(&mut app, "/create classic 1+0 960"), vec![create(true, false)]);
    assert_eq!(typed(&mut app, "/create classic 1+0"), vec![create(false, false)]);
    assert_eq!(typed(&mut app, "/create rated classic 1+0"), vec![create(false, true)]);
}

#[test]
fn bots_fill_the_selected_match_or_the_followed_one_at_a_level() {
    let now = Instant::now();
    let mut app = App::new("alice");
    app.set_lobby(vec![MatchSummary {
        match_id: MatchId(4),
        rules: "mgimo-2017".into(),
        time_control: "1+0".into(),
        chess960: false,
        seats: [Some("alice".into()), None, None, None],
        kinds: [Some(PlayerKind::Account), None, None, None],
        phase: PhaseView::Forming,
        rated: false,
    }]);
    assert_eq!(typed(&mut app, "/bots"), vec![Action::FillWithBots(MatchId(4), 2)]);
    assert_eq!(typed(&mut app, "/bots 5"), vec![Action::FillWithBots(MatchId(4), 5)]);
    assert_eq!(typed(&mut app, "/bots 9"), vec![]);
    let mut app = app_with(state(START, Some(SeatId::WhiteA), PhaseView::Forming), now);
    assert_eq!(typed(&mut app, "/bots 1"), vec![Action::FillWithBots(MatchId(7), 1)]);
}

#[test]
fn s1_own_board_on_the_left_from_the_players_side_and_the_partners_board_from_his() {
    let now = Instant::now();
    let app = app_with(state(START, Some(SeatId::BlackB), PhaseView::Running), now);
    let (lines, _) = screen(&app, now);
    let (bx, by) = find(&lines, "Board B").expect("board B");
    let (ax, _) = find(&lines, "Board A").expect("board A");
    assert!(bx < ax, "the player's board B is on the left");
    // Board B from Black's side: rank 1 on top, files h..a, White's pieces at the top.
    let top_rank = &lines[by + 2];
    assert!(tail(top_rank, bx).starts_with("1  R  N  B  K  Q  B  N  R"), "{top_rank}");
    let files = &lines[by + 10];
    assert!(files.contains(" h  g  f  e  d  c  b  a "), "{files}");
    // Board A from the partner's (White's) side: rank 8 on top.
    assert!(tail(&lines[by + 2], ax).starts_with("8  r  n  b  q  k  b  n  r"), "{}", &lines[by + 2]);
    assert!(find(&lines, "dave (you) black-B").is_some(), "the player is marked");
}

#[test]
fn k1_four_clocks_with_tenths_below_ten_seconds_and_the_player_to_move_marked() {
    let now = Instant::now();
    let app = app_with(state(START, None, PhaseView::Running), now);
    let (lines, _) = screen(&app, now);
    let text = lines.join("\n");
    assert!(text.contains("▶ alice white-A  2:59"), "{text}");
    assert!(text.contains("▶ carol (bot) white-B  9.8"), "{text}");
    assert!(text.contains("bob (guest) black-A  3:00"), "guests are marked: {text}");
    // A second later the running clocks read one second less; the others stand.
    let (later, _) = screen(&app, now + Duration::from_secs(1));
    let later = later.join("\n");
    assert!(
        later.contains("2:58") && later.contains("8.8") && later.contains("bob (guest) black-A  3:00"),
        "{later}"
    );
}

#[test]
fn s4_reserves_show_with_their_counts() {
    let now = Instant::now();
    let bfen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[QNNp] w KQkq - 0 1 | \
                rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1";
    let app = app_with(state(bfen, None, PhaseView::Running), now);
    let text = screen(&app, now).0.join("\n");
    assert!(text.contains("reserve: Q1 N2"), "white-A's reserve: {text}");
    assert!(
        text.contains("reserve: p1"),
        "black-A's reserve, in Black's lower case as the help says: {text}"
    );
    assert!(text.contains("reserve: —"), "an empty reserve is labelled: {text}");
}

#[test]
fn a4_the_last_move_is_highlighted_and_named() {
    let now = Instant::now();
    let mut app = app_with(state(START, None, PhaseView::Running), now);
    let after = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR[] b KQkq - 0 1 | \
                 rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1";
    app.on_server(
        ServerMsg::Event(MatchEvent {
            match_id: MatchId(7),
            seq: 11,
            at_ms: 500,
            kind: EventView::Moved {
                seat: SeatId::WhiteA,
                uci: "e2e4".into(),
                san: "e4".into(),
                charged_ms: 500,
                credit_ms: 0,
            },
            clocks_ms: [179_370, 180_000, 9_370, 180_000],
            running: [false, true, true, false],
            bfen: Some(after.into()),
            server_time_us: 0,
        }),
        now,
    );
    let (lines, terminal) = screen(&app, now);
    assert!(find(&lines, "last: white-A e4").is_some());
    assert!(find(&lines, "1A. e4").is_some(), "the move list numbers it as BPGN does");
    let (ax, ay) = find(&lines, "Board A").unwrap();
    // e4 on board A from White's side: rank 4 is the fifth line of ranks, file e the fifth square.
    let (x, y) = (ax + 2 + 4 * 3 + 1, ay + 2 + 4);
    let cell = &terminal.backend().buffer()[(x as u16, y as u16)];
    assert_eq!(cell.symbol(), "P");
    let e3 = &terminal.backend().buffer()[(x as u16, y as u16 + 1)];
    assert_ne!(cell.bg, e3.bg, "the destination square stands out");
    assert_eq!(terminal.backend().buffer()[(x as u16, y as u16 + 2)].bg, cell.bg, "and so does e2");
    assert!(find(&lines, "▶ bob (guest) black-A").is_some(), "now Black-A is to move");
}

#[test]
fn e1_the_result_is_shown_with_its_reason_and_rule() {
    let now = Instant::now();
    let mut s = state(START, Some(SeatId::WhiteA), PhaseView::Ended);
    s.result = Some(Box::new(ResultView {
        winner: Some(TeamId::Two),
        reason: "team 2 wins: mate on board by black-A (E1)".into(),
        rule: "E1".into(),
        cause: Some(ResultCause::MateOnBoard { seat: SeatId::BlackA }),
        note: None,
        rules: Box::default(),
    }));
    let app = app_with(s, now);
    let text = screen(&app, now).0.join("\n");
    assert!(
        text.contains(
            "team 2 wins: mate on board by black-A (E1) · team 2: black-A + white-B · /lobby to leave"
        ),
        "{text}"
    );
}

#[test]
fn r1_a_promotion_without_the_removed_piece_asks_which_and_marks_them_on_the_other_board() {
    let now = Instant::now();
    // White-A's pawn on e7 may promote; White-B has a queen on d1 and a knight on b1 to remove.
    let bfen = "k7/4P3/8/8/8/8/8/4K3[] w - - 0 1 | 4k3/8/8/8/8/8/8/1N1QK3[] b - - 0 1";
    let mut app = app_with(state(bfen, Some(SeatId::WhiteA), PhaseView::Running), now);
    assert_eq!(typed(&mut app, "e8"), vec![], "nothing is sent before the pick");
    let (lines, terminal) = screen(&app, now);
    let text = lines.join("\n");
    assert!(text.contains("1) knight b1") && text.contains("2) queen d1"), "{text}");
    assert!(text.contains("press the number of the piece to remove"), "{text}");
    let (bx, by) = find(&lines, "Board B").unwrap();
    // Board B from Black's side (the partner's): rank 1 on top, files h..a.
    let rank1 = by + 2;
    let d1 = bx + 2 + 4 * 3 + 1;
    assert_eq!(terminal.backend().buffer()[(d1 as u16, rank1 as u16)].symbol(), "2", "{text}");
    assert_eq!(terminal.backend().buffer()[(d1 as u16, rank1 as u16)].bg, Color::Rgb(200, 80, 80));
    assert_eq!(
        app.on_key(key(KeyCode::Char('2'))),
        vec![Action::Play { board: Board::A, text: "e7e8qd1".into() }]
    );
    assert!(app.picking.is_none());
}

#[test]
fn a3_team_chat_quick_messages_and_commands() {
    let now = Instant::now();
    let mut app = app_with(state(START, Some(SeatId::WhiteA), PhaseView::Running), now);
    assert_eq!(app.on_key(key(KeyCode::F(1))), vec![Action::Chat(ChatScope::Team, "need a knight".into())]);
    assert_eq!(app.on_key(key(KeyCode::F(8))), vec![Action::Chat(ChatScope::Team, "don't trade".into())]);
    assert_eq!(
        typed(&mut app, "/t push on the king"),
        vec![Action::Chat(ChatScope::Team, "push on the king".into())]
    );
    assert_eq!(typed(&mut app, "/draw"), vec![Action::OfferDraw]);
    assert_eq!(typed(&mut app, "/decline"), vec![Action::DeclineDraw]);
    assert_eq!(typed(&mut app, "/claim rep"), vec![Action::Claim(shvedka_proto::ClaimKind::Repetition)]);
    assert_eq!(typed(&mut app, "/resign"), vec![], "the first /resign asks");
    assert_eq!(typed(&mut app, "/resign"), vec![Action::Resign], "the second confirms");
    assert_eq!(typed(&mut app, "/resign"), vec![], "and the next asks again");
    assert_eq!(typed(&mut app, "/draw"), vec![Action::OfferDraw], "another command withdraws the question");
    assert_eq!(typed(&mut app, "/resign"), vec![]);
    assert_eq!(typed(&mut app, "/arbiter"), vec![Action::CallArbiter(None)]);
    assert_eq!(
        typed(&mut app, "/choose 1 2 1 crossed"),
        vec![Action::Choose { tournament: 1, round: 2, game: 1, choice: shvedka_proto::TdChoice::Crossed }]
    );
    assert_eq!(typed(&mut app, "/choose 1 2"), vec![], "an incomplete choice is refused with a hint");
    assert_eq!(typed(&mut app, "/mygame 4"), vec![Action::MyGame(4)]);
    // An illegal move is still sent: the server is the judge and says why.
    assert_eq!(typed(&mut app, "Ke3"), vec![Action::Play { board: Board::A, text: "Ke3".into() }]);
    app.on_server(
        ServerMsg::Chat {
            match_id: MatchId(7),
            from: "dave".into(),
            kind: PlayerKind::Guest,
            seat: Some(SeatId::BlackB),
            scope: ChatScope::Team,
            text: "need a knight".into(),
        },
        now,
    );
    let text = screen(&app, now).0.join("\n");
    assert!(text.contains("[team] dave (guest): need a knight"), "the writer's kind is shown: {text}");
}

#[test]
fn s1_enter_says_ready_while_forming() {
    let now = Instant::now();
    let mut s = state(START, Some(SeatId::BlackA), PhaseView::Forming);
    s.ready = [true, false, false, false];
    let mut app = app_with(s, now);
    assert_eq!(typed(&mut app, ""), vec![Action::Ready(true)]);
    let text = screen(&app, now).0.join("\n");
    assert!(text.contains("press Enter (or /ready)") && text.contains("not ready"), "{text}");
}

#[test]
fn p3_a_refusal_shows_the_servers_reason_with_the_rule_and_changes_nothing() {
    let now = Instant::now();
    let mut app = app_with(state(START, Some(SeatId::WhiteA), PhaseView::Running), now);
    let before = app.model.as_ref().unwrap().game().bfen();
    let e = shvedka_client::ClientError::Server(ErrorMsg {
        code: ErrorCode::Rejected,
        rule: Some("P3".into()),
        message: "a drop may not give mate on board".into(),
    });
    app.error(refusal(Lang::En, &e));
    let text = screen(&app, now).0.join("\n");
    assert!(text.contains("refused: a drop may not give mate on board (P3)"), "{text}");
    assert_eq!(app.model.as_ref().unwrap().game().bfen(), before);
}

#[test]
fn resume_a_lost_connection_is_said_on_screen() {
    let now = Instant::now();
    let mut app = app_with(state(START, Some(SeatId::WhiteA), PhaseView::Running), now);
    app.link = Link::Reconnecting(2);
    let text = screen(&app, now).0.join("\n");
    assert!(text.contains("connection lost — reconnecting (attempt 2)"), "{text}");
}

#[test]
fn the_title_names_the_server_connected_to() {
    let now = Instant::now();
    let mut app = App::new("alice");
    let text = screen(&app, now).0.join("\n");
    assert!(text.contains(" connected ") && !text.contains("connected to"), "{text}");
    app.server = Some("127.0.0.1:4433".parse().unwrap());
    let text = screen(&app, now).0.join("\n");
    assert!(text.contains("connected to 127.0.0.1:4433"), "{text}");
}

#[test]
fn rematch_is_asked_after_the_match_and_its_offer_is_told() {
    let now = Instant::now();
    let mut app = app_with(state(START, Some(SeatId::WhiteA), PhaseView::Running), now);
    assert_eq!(typed(&mut app, "/rematch"), vec![], "not while the match is played");
    let mut s = state(START, Some(SeatId::WhiteA), PhaseView::Ended);
    s.result = Some(Box::new(ResultView {
        winner: Some(TeamId::Two),
        reason: "team 2 wins".into(),
        rule: "E10".into(),
        cause: Some(ResultCause::Resignation { seat: SeatId::WhiteA }),
        note: None,
        rules: Box::default(),
    }));
    let mut app = app_with(s, now);
    assert_eq!(typed(&mut app, "/rematch"), vec![Action::Rematch(MatchId(7), true)]);
    assert_eq!(typed(&mut app, "/norematch"), vec![Action::Rematch(MatchId(7), false)]);
    app.on_server(
        ServerMsg::Rematch(shvedka_proto::RematchView {
            match_id: MatchId(7),
            players: ["alice", "bob", "carol", "dave"].map(String::from),
            kinds: [shvedka_proto::PlayerKind::Account; 4],
            accepted: [true, false, true, false],
            declined: [false; 4],
            rematch: None,
        }),
        now,
    );
    let text = screen(&app, now).0.join("\n");
    assert!(text.contains("rematch of match 7: 2 of 4 accepted (alice, carol); waiting"), "{text}");
    // Before anyone accepted, and for a player who has not: what he may do.
    let offer = |accepted| {
        ServerMsg::Rematch(shvedka_proto::RematchView {
            match_id: MatchId(7),
            players: ["alice", "bob", "carol", "dave"].map(String::from),
            kinds: [shvedka_proto::PlayerKind::Account; 4],
            accepted,
            declined: [false; 4],
            rematch: None,
        })
    };
    app.on_server(offer([false; 4]), now);
    app.on_server(offer([false, true, false, false]), now);
    let text = screen(&app, now).0.join("\n");
    assert!(text.contains("rematch of match 7: nobody accepted yet; /rematch to accept"), "{text}");
    assert!(text.contains("1 of 4 accepted (bob); /rematch to accept, /norematch to decline"), "{text}");
}

#[test]
fn ratings_are_asked_with_top_and_profile_and_a_rated_match_logs_each_change() {
    let now = Instant::now();
    let mut app = app_with(state(START, Some(SeatId::WhiteA), PhaseView::Running), now);
    assert_eq!(typed(&mut app, "/top rapid"), vec![Action::Leaderboard("rapid".into())]);
    assert_eq!(typed(&mut app, "/top"), vec![Action::Leaderboard("blitz".into())], "blitz unless named");
    assert_eq!(typed(&mut app, "/profile boris"), vec![Action::Profile("boris".into())]);
    assert_eq!(typed(&mut app, "/profile"), vec![Action::Profile("alice".into())], "one's own");
    let change = |seat, name: &str, after, provisional| shvedka_proto::RatingChange {
        seat,
        name: name.into(),
        category: "blitz".into(),
        before: 1500,
        after,
        deviation: 290,
        provisional,
    };
    let changes =
        vec![change(SeatId::WhiteA, "alice", 1612, true), change(SeatId::BlackA, "bob", 1388, false)];
    app.on_server(ServerMsg::Rated { match_id: MatchId(7), changes }, now);
    let log: Vec<String> = app
        .log
        .iter()
        .filter_map(|l| match l {
            shvedka_tui::LogLine::Info(t) => Some(t.clone()),
            _ => None,
        })
        .collect();
    assert!(log.iter().any(|l| l == "blitz alice: white-A 1500 → 1612? (+112)"), "{log:#?}");
    assert!(log.iter().any(|l| l == "blitz bob: black-A 1500 → 1388 (-112)"), "{log:#?}");
}

fn seek_view(seek: u64, waiting: bool) -> shvedka_proto::SeekView {
    shvedka_proto::SeekView {
        seek,
        time_control: "3+0".into(),
        rules: "mgimo-2017".into(),
        rated: false,
        range: None,
        players: vec!["alice".into()],
        invited: None,
        waiting,
        waited_ms: 0,
        reach: 150,
        widening: 25,
        expires_in_ms: Some(60_000),
    }
}

#[test]
fn quick_pairing_on_one_key_shows_the_wait_and_the_widening_range_and_x_cancels() {
    let now = Instant::now();
    let mut app = App::new("alice");
    let actions = app.on_key(key(KeyCode::F(3)));
    let [Action::Seek(request)] = &actions[..] else { panic!("{actions:?}") };
    assert_eq!(
        (request.time_control.as_str(), request.rated, request.partner.as_deref()),
        ("3+0", false, None)
    );
    app.seeking(seek_view(4, true), now);
    let later = now + Duration::from_secs(12);
    let (lines, _) = screen(&app, later);
    assert!(
        find(&lines, "seeking a 3+0 casual game · waiting 0:12 · rating ±450 · x cancels").is_some(),
        "{lines:#?}"
    );
    assert_eq!(app.on_key(key(KeyCode::F(1))), Vec::new(), "one seek at a time");
    assert_eq!(app.on_key(key(KeyCode::Char('x'))), vec![Action::CancelSeek(4)]);
    app.on_server(
        ServerMsg::MatchFound { seek: 4, match_id: MatchId(9), seat: SeatId::BlackB, rated: false },
        later,
    );
    assert!(app.seek.is_none(), "the match found ends the seek");
}

#[test]
fn a_partners_invitation_is_shown_and_accepted_and_partner_invites_after_a_match() {
    let now = Instant::now();
    let mut app = App::new("bob");
    let mut invitation = seek_view(5, false);
    invitation.players = vec!["alice".into()];
    invitation.invited = Some("bob".into());
    app.on_server(ServerMsg::SeekInvitation(invitation), now);
    let (lines, _) = screen(&app, now + Duration::from_secs(10));
    assert!(
        find(&lines, "alice invites you to play a 3+0 casual game as partners (0:50 left)").is_some(),
        "{lines:#?}"
    );
    assert_eq!(typed(&mut app, "/accept"), vec![Action::AnswerSeek(5, true)]);
    // After a match, /partner invites the partner (white-A's is black-B) on its terms.
    let mut s = state(START, Some(SeatId::WhiteA), PhaseView::Ended);
    s.result = Some(Box::new(ResultView {
        winner: Some(TeamId::One),
        reason: "black-A resigned".into(),
        rule: "E10".into(),
        cause: Some(ResultCause::Resignation { seat: SeatId::BlackA }),
        note: None,
        rules: Box::default(),
    }));
    let mut app = app_with(s, now);
    let actions = typed(&mut app, "/partner");
    let [Action::Seek(request)] = &actions[..] else { panic!("{actions:?}") };
    assert_eq!((request.partner.as_deref(), request.time_control.as_str()), (Some("dave"), "3+0"));
}

/// A5, A6: a player asks for a replay with `/arbiter setup|hint|other`; every follower reads the
/// call with its reason, and the arbiter's replay clears the annulled game's moves and sets both
/// boards back at the start.
#[test]
fn a5_a6_a_call_for_a_replay_and_the_replay_itself_are_shown() {
    use shvedka_proto::{ArbiterRequest, OfficialView, ReplayReason};
    let now = Instant::now();
    let mut app = app_with(state(START, Some(SeatId::WhiteA), PhaseView::Running), now);
    assert_eq!(typed(&mut app, "/arbiter setup"), vec![Action::CallArbiter(Some(ReplayReason::WrongSetup))]);
    assert_eq!(typed(&mut app, "/arbiter hint"), vec![Action::CallArbiter(Some(ReplayReason::OutsideHint))]);
    assert_eq!(typed(&mut app, "/arbiter other"), vec![Action::CallArbiter(Some(ReplayReason::Other))]);
    assert_eq!(typed(&mut app, "/arbiter because"), vec![], "an unknown reason is refused with a hint");
    let after = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR[] b KQkq - 0 1 | \
                 rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1";
    let event = |seq, kind, bfen: Option<&str>| {
        ServerMsg::Event(MatchEvent {
            match_id: MatchId(7),
            seq,
            at_ms: 500,
            kind,
            clocks_ms: [179_370, 180_000, 9_370, 180_000],
            running: [false; 4],
            bfen: bfen.map(String::from),
            server_time_us: 0,
        })
    };
    let moved = EventView::Moved {
        seat: SeatId::WhiteA,
        uci: "e2e4".into(),
        san: "e4".into(),
        charged_ms: 500,
        credit_ms: 0,
    };
    app.on_server(event(11, moved, Some(after)), now);
    app.on_server(
        event(
            12,
            EventView::ArbiterCalled { seat: SeatId::WhiteB, replay: Some(ReplayReason::WrongSetup) },
            None,
        ),
        now,
    );
    let text = screen(&app, now).0.join("\n");
    assert!(text.contains("1A. e4"), "{text}");
    assert!(
        text.contains(
            "white-B stopped the clocks and asks the arbiter for a replay: wrong initial setup (A5)"
        ),
        "{text}"
    );
    let replay = EventView::ArbiterActed {
        act: ArbiterRequest::Replay { reason: ReplayReason::WrongSetup, note: String::new() },
        text: "THE SERVER'S WORDS".into(),
        by: Some(OfficialView::Account("olga".into())),
    };
    app.on_server(event(13, replay, Some(START)), now);
    let (lines, terminal) = screen(&app, now);
    let text = lines.join("\n");
    assert!(
        text.contains("the arbiter ordered a replay: wrong initial setup (A5); the game starts again"),
        "{text}"
    );
    assert!(!text.contains("1A. e4"), "the annulled move left the list: {text}");
    assert!(!text.contains("THE SERVER'S WORDS"), "{text}");
    let (ax, ay) = find(&lines, "Board A").unwrap();
    // e2 on board A from White's side holds its pawn again.
    let (x, y) = (ax + 2 + 4 * 3 + 1, ay + 2 + 6);
    assert_eq!(terminal.backend().buffer()[(x as u16, y as u16)].symbol(), "P");
}

fn info_lines(app: &App) -> Vec<String> {
    app.log
        .iter()
        .filter_map(|l| match l {
            shvedka_tui::LogLine::Info(t) => Some(t.clone()),
            _ => None,
        })
        .collect()
}

#[test]
fn k5_a2_a_late_arbiter_reads_the_call_and_a_corrected_result_reaches_an_open_screen() {
    use shvedka_proto::{ArbiterRequest, CallView, ReplayReason};
    let now = Instant::now();
    // An arbiter opens a match stopped by black-B's call for a replay.
    let mut s = state(START, None, PhaseView::Paused);
    s.called = Some(CallView { seat: SeatId::BlackB, replay: Some(ReplayReason::OutsideHint) });
    let app = app_with(s, now);
    let log = info_lines(&app);
    assert!(
        log.iter().any(|l| l.starts_with("black-B stopped the clocks and asks the arbiter for a replay: ")),
        "{log:#?}"
    );
    // A player's open screen: the match ends, then the arbiter corrects the result with a reason.
    let mut app = app_with(state(START, Some(SeatId::WhiteA), PhaseView::Running), now);
    let event = |seq, kind| {
        ServerMsg::Event(MatchEvent {
            match_id: MatchId(7),
            seq,
            at_ms: 1000,
            kind,
            clocks_ms: [1, 2, 3, 4],
            running: [false; 4],
            bfen: None,
            server_time_us: 0,
        })
    };
    let first = ResultView {
        winner: Some(TeamId::Two),
        reason: String::new(),
        rule: "E10".into(),
        cause: Some(ResultCause::Resignation { seat: SeatId::WhiteA }),
        note: None,
        rules: Box::default(),
    };
    app.on_server(event(11, EventView::Ended(first)), now);
    let act = ArbiterRequest::DeclareResult { winner: None, reason: "a flag missed".into() };
    app.on_server(event(12, EventView::ArbiterActed { act, text: String::new(), by: None }), now);
    let corrected = ResultView {
        winner: None,
        reason: String::new(),
        rule: "A2".into(),
        cause: Some(ResultCause::Arbiter),
        note: Some("a flag missed".into()),
        rules: vec!["A2".into()].into(),
    };
    app.on_server(event(13, EventView::Ended(corrected)), now);
    let log = info_lines(&app);
    let told = log
        .iter()
        .find(|l| l.starts_with("the result is corrected: draw: "))
        .unwrap_or_else(|| panic!("{log:#?}"));
    assert!(told.ends_with("(A2): «a flag missed»"), "{told}");
}

/// E1: a move typed at a decided match, still seated, is not sent: the screen says the match is
/// over (the server no longer runs it and could only say the session follows no match).
#[test]
fn e1_a_move_typed_after_the_end_is_answered_the_match_is_over() {
    let now = Instant::now();
    let mut app = app_with(state(START, Some(SeatId::WhiteA), PhaseView::Ended), now);
    assert!(typed(&mut app, "e4").is_empty(), "nothing is sent");
    let text = screen(&app, now).0.join("\n");
    assert!(text.contains("the match is over"), "{text}");
    assert!(!text.contains("this needs a match you watch or sit in"), "{text}");
}

/// S1, issue 56: the lobby offers the account its match in play (a seat belongs to the account),
/// not a match it only shares a name in as a guest, nor an ended one; Enter on it watches it,
/// which takes the seat over.
#[test]
fn s1_the_lobby_offers_the_account_its_match_in_play() {
    let now = Instant::now();
    let mut app = App::new("alice");
    let summary = |id, phase, kind| MatchSummary {
        match_id: MatchId(id),
        rules: "classic".into(),
        time_control: "3+0".into(),
        chess960: false,
        rated: false,
        seats: [Some("bob".into()), Some("alice".into()), Some("carol".into()), Some("dave".into())],
        kinds: [Some(PlayerKind::Guest), Some(kind), Some(PlayerKind::Guest), Some(PlayerKind::Guest)],
        phase,
    };
    app.set_lobby(vec![
        summary(4, PhaseView::Ended, PlayerKind::Account),
        summary(5, PhaseView::Running, PlayerKind::Guest),
    ]);
    let (lines, _) = screen(&app, now);
    assert!(find(&lines, "your match").is_none(), "{lines:#?}");
    app.set_lobby(vec![summary(6, PhaseView::Running, PlayerKind::Account)]);
    let (lines, _) = screen(&app, now);
    assert!(
        find(&lines, "your match 6 is in play: you are black-A — select it and press Enter").is_some(),
        "{lines:#?}"
    );
    assert_eq!(app.on_key(key(KeyCode::Enter)), vec![Action::Watch(MatchId(6))]);
}
