//! Drawing the interface: the lobby table, or the match with both boards side by side, the four
//! players with their clocks and reserves, the message pane and the input line.

mod board;
mod clock;

use std::time::Instant;

use bughouse::{BoardId, Seat};
use chess_core::{Color as Side, Role};
use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Paragraph, Wrap};
use shvedka_client::{MatchModel, rules_seat};
use shvedka_proto::{ChatScope, PhaseView, PlayerKind, SeatId, TeamId};

pub use board::{Marks, board_lines, move_squares};
pub use clock::format_clock;

use crate::app::{App, Link, LogLine, Screen};

/// Draws the whole interface at local time `now`.
pub fn render(frame: &mut Frame<'_>, app: &App, now: Instant) {
    let [main, log, input] =
        Layout::vertical([Constraint::Min(14), Constraint::Length(8), Constraint::Length(3)])
            .areas(frame.area());
    match (app.screen, &app.model) {
        (Screen::Match, Some(model)) => render_match(frame, main, app, model, now),
        _ => render_lobby(frame, main, app),
    }
    render_log(frame, log, app);
    render_input(frame, input, app, now);
}

fn title(app: &App, what: String) -> Line<'static> {
    let link = match &app.link {
        Link::Connected => match app.server {
            Some(server) => Span::styled(format!(" connected to {server} "), Style::new().fg(Color::Green)),
            None => Span::styled(" connected ", Style::new().fg(Color::Green)),
        },
        Link::Reconnecting(n) => Span::styled(
            format!(" connection lost — reconnecting (attempt {n}) "),
            Style::new().fg(Color::Black).bg(Color::Yellow),
        ),
        Link::Ended => Span::styled(" session ended ", Style::new().fg(Color::White).bg(Color::Red)),
    };
    // The link first: a long title is cut at the right, and a lost connection must show.
    Line::from(vec![link, Span::styled(format!(" shvedka · {} · {what} ", app.name), Style::new().bold())])
}

fn render_lobby(frame: &mut Frame<'_>, area: Rect, app: &App) {
    let block = Block::bordered().title(title(app, "lobby".into()));
    let mut lines = vec![Line::from(Span::styled(
        format!(
            "{:>5}  {:<11} {:<6} {:<9} {:<12} {:<12} {:<12} {:<12}",
            "match", "rules", "clock", "phase", "white-A", "black-A", "white-B", "black-B"
        ),
        Style::new().add_modifier(Modifier::UNDERLINED),
    ))];
    if app.lobby.is_empty() {
        lines.push(Line::from("  no open matches: press c to create one"));
    }
    for (i, m) in app.lobby.iter().enumerate() {
        let seat = |i: usize| m.seats[i].as_ref().map_or_else(|| "·".into(), |n| marked(n, m.kinds[i]));
        let mut rules = if m.chess960 { format!("{} 960", m.rules) } else { m.rules.clone() };
        if m.rated {
            rules.push_str(" R");
        }
        let text = format!(
            "{:>5}  {:<11} {:<6} {:<9} {:<12} {:<12} {:<12} {:<12}",
            m.match_id.0,
            rules,
            m.time_control,
            phase_name(m.phase),
            seat(0),
            seat(1),
            seat(2),
            seat(3),
        );
        let style =
            if i == app.selected { Style::new().add_modifier(Modifier::REVERSED) } else { Style::new() };
        lines.push(Line::from(Span::styled(text, style)));
    }
    frame.render_widget(Paragraph::new(lines).block(block), area);
}

/// A player's name with his kind when he is no account: `anna (guest)`, `sputnik (bot)`.
pub fn marked(name: &str, kind: Option<PlayerKind>) -> String {
    match kind {
        Some(PlayerKind::Guest) => format!("{name} (guest)"),
        Some(PlayerKind::Bot) => format!("{name} (bot)"),
        Some(PlayerKind::Account) | None => name.to_owned(),
    }
}

fn phase_name(p: PhaseView) -> &'static str {
    match p {
        PhaseView::Forming => "forming",
        PhaseView::Countdown => "countdown",
        PhaseView::Running => "running",
        PhaseView::Paused => "paused",
        PhaseView::Ended => "ended",
        PhaseView::Annulled => "annulled",
    }
}

/// Which colour sits at the bottom of each board: the player's own board from his side, the other
/// board from his partner's side; for a spectator board A from White and board B from Black.
fn orientation(me: Option<SeatId>) -> [Side; 2] {
    match me.map(rules_seat) {
        Some(seat) => {
            let mut sides = [Side::White; 2];
            sides[seat.board.index()] = seat.color;
            sides[seat.board.other().index()] = !seat.color;
            sides
        }
        None => [Side::White, Side::Black],
    }
}

fn render_match(frame: &mut Frame<'_>, area: Rect, app: &App, model: &MatchModel, now: Instant) {
    let state = model.state();
    let me = model.my_seat();
    let role = match me {
        Some(s) => format!("you play {s} ({})", team_name(s.team())),
        None => "watching".into(),
    };
    let what = format!(
        "match {} · {} · {} · {} · {role}",
        state.match_id.0,
        state.rules,
        state.time_control,
        phase_name(state.phase)
    );
    let block = Block::bordered().title(title(app, what));
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let [boards, status] = Layout::vertical([Constraint::Min(12), Constraint::Length(2)]).areas(inner);
    let [left, right, list] =
        Layout::horizontal([Constraint::Length(40), Constraint::Length(40), Constraint::Min(0)])
            .areas(boards);
    let halves = [left, right];
    frame.render_widget(Paragraph::new(move_list(model, list.height as usize)), list);
    let sides = orientation(me);
    // The player's own board on the left.
    let order = match me.map(rules_seat) {
        Some(seat) => [seat.board, seat.board.other()],
        None => [BoardId::A, BoardId::B],
    };
    let clocks = model.clocks(now);
    for (half, board) in halves.into_iter().zip(order) {
        let bottom = sides[board.index()];
        let picks: Vec<_> = match (&app.picking, me.map(rules_seat)) {
            (Some(p), Some(seat)) if seat.board != board => p.iter().map(|p| p.square).collect(),
            _ => Vec::new(),
        };
        let last = model.last_move(board).map(|m| move_squares(&m.uci)).unwrap_or_default();
        let mut lines = vec![Line::from(Span::styled(format!("Board {board}"), Style::new().bold()))];
        lines.push(player_line(model, Seat::new(board, !bottom), clocks, me));
        lines.extend(board_lines(model.game().board(board), bottom, Marks { last, picks: &picks }));
        lines.push(player_line(model, Seat::new(board, bottom), clocks, me));
        if let Some(m) = model.last_move(board) {
            lines.push(Line::from(format!("last: {} {}", m.seat, m.san)));
        }
        frame.render_widget(Paragraph::new(lines), half);
    }
    frame.render_widget(Paragraph::new(status_lines(app, model)), status);
}

/// The latest moves of both boards in the order they were made, as BPGN numbers them
/// (`12A. Nf3`, `12b. N@e4`), newest at the bottom.
fn move_list(model: &MatchModel, height: usize) -> Vec<Line<'static>> {
    let moves = model.moves();
    let shown = &moves[moves.len().saturating_sub(height.saturating_sub(1))..];
    let mut lines = vec![Line::from(Span::styled("moves", Style::new().bold()))];
    lines.extend(shown.iter().map(|m| {
        // Upper case for White, lower for Black, as BPGN writes it.
        let board = m.seat.board().to_string();
        let letter = if m.seat.index() % 2 == 0 { board } else { board.to_lowercase() };
        Line::from(format!("{}{letter}. {}", m.number, m.san))
    }));
    lines
}

fn team_name(team: TeamId) -> &'static str {
    match team {
        TeamId::One => "team 1: white-A + black-B",
        TeamId::Two => "team 2: black-A + white-B",
    }
}

fn player_line(
    model: &MatchModel,
    seat: Seat,
    clocks: [std::time::Duration; 4],
    me: Option<SeatId>,
) -> Line<'static> {
    let id = SeatId::ALL[seat.index()];
    let state = model.state();
    let name = state.seats[seat.index()]
        .as_ref()
        .map_or_else(|| "(empty)".into(), |n| marked(n, state.kinds[seat.index()]));
    let to_move = model.phase() == PhaseView::Running && model.game().to_move(seat.board) == seat;
    let marker = if to_move { "▶ " } else { "  " };
    let you = if me == Some(id) { " (you)" } else { "" };
    let clock = format_clock(clocks[seat.index()]);
    let clock_style = match (state.running[seat.index()], clocks[seat.index()].as_millis() < 10_000) {
        (true, true) => Style::new().fg(Color::Black).bg(Color::Red).bold(),
        (true, false) => Style::new().fg(Color::Black).bg(Color::White).bold(),
        _ => Style::new(),
    };
    let mut spans = vec![
        Span::styled(marker, Style::new().fg(Color::Yellow).bold()),
        Span::raw(format!("{name}{you} {id} ")),
        Span::styled(format!(" {clock} "), clock_style),
    ];
    if model.flags()[seat.index()] {
        spans.push(Span::styled(" flag", Style::new().fg(Color::Red)));
    }
    if state.phase == PhaseView::Forming {
        let ready = if state.ready[seat.index()] { " ready" } else { " not ready" };
        spans.push(Span::raw(ready));
    }
    spans.push(Span::raw(format!(" [{}]", reserve_text(model, seat))));
    Line::from(spans)
}

/// A reserve as `Q1 N2 P3`, or empty.
fn reserve_text(model: &MatchModel, seat: Seat) -> String {
    [Role::Queen, Role::Rook, Role::Bishop, Role::Knight, Role::Pawn]
        .into_iter()
        .filter_map(|role| {
            let n = model.game().reserve(seat, role);
            (n > 0).then(|| format!("{}{n}", role.upper_char()))
        })
        .collect::<Vec<_>>()
        .join(" ")
}

fn status_lines(app: &App, model: &MatchModel) -> Vec<Line<'static>> {
    let mut lines = Vec::new();
    if let Some(result) = model.result() {
        // The reason names the winner and the rule (`team 1 wins: mate on board by white-A (E1)`).
        let teams = match result.winner {
            Some(team) => format!(" · {}", team_name(team)),
            None => String::new(),
        };
        lines.push(Line::from(Span::styled(
            format!("{}{teams} · /lobby to leave", result.reason),
            Style::new().fg(Color::Black).bg(Color::Cyan).bold(),
        )));
    } else if model.phase() == PhaseView::Annulled {
        lines.push(Line::from("annulled by the arbiter"));
    } else if let Some(offer) = model.draw_offer() {
        lines.push(Line::from(format!("{offer} offers a draw: /draw accepts, /decline declines")));
    } else if model.phase() == PhaseView::Forming && model.my_seat().is_some() {
        lines.push(Line::from("press Enter (or /ready) when you are ready to start"));
    } else if model.phase() == PhaseView::Paused {
        lines.push(Line::from("the clocks are stopped for the arbiter"));
    }
    if app.picking.is_some() {
        lines.push(Line::from(Span::styled(
            "promotion: press the number of the piece to remove (marked on the other board)",
            Style::new().fg(Color::Red).bold(),
        )));
    }
    lines
}

fn render_log(frame: &mut Frame<'_>, area: Rect, app: &App) {
    let height = area.height.saturating_sub(2) as usize;
    let lines: Vec<Line<'static>> = app
        .log
        .iter()
        .skip(app.log.len().saturating_sub(height))
        .map(|l| match l {
            LogLine::Info(t) => Line::from(t.clone()),
            LogLine::Error(t) => Line::from(Span::styled(t.clone(), Style::new().fg(Color::Red))),
            LogLine::Chat { from, scope, text } => {
                let to = if *scope == ChatScope::Team { "team" } else { "all" };
                Line::from(vec![
                    Span::styled(format!("[{to}] {from}: "), Style::new().fg(Color::Cyan)),
                    Span::raw(text.clone()),
                ])
            }
        })
        .collect();
    let block = Block::bordered().title(" messages ");
    frame.render_widget(Paragraph::new(lines).block(block).wrap(Wrap { trim: false }), area);
}

fn render_input(frame: &mut Frame<'_>, area: Rect, app: &App, now: Instant) {
    let pools: Vec<String> =
        app.pools.iter().take(4).enumerate().map(|(i, tc)| format!("F{} {tc}", i + 1)).collect();
    let hint = match app.screen {
        Screen::Lobby => format!(
            " {} seek · ↑↓ select · Enter watch · 1-4 sit · c create · r refresh · q quit ",
            pools.join(" ")
        ),
        Screen::Match => " move + Enter · F1-F8 quick chat · /help · Ctrl-C quits ".to_owned(),
    };
    // Seeking (or invited) shows on every screen, above all else: how long, how far the range reaches.
    let block = match app.seek_line(now) {
        Some(line) => Block::bordered()
            .title(Span::styled(format!(" {line} "), Style::new().fg(Color::Black).bg(Color::Cyan))),
        None => Block::bordered().title(hint),
    };
    let text = Line::from(vec![
        Span::raw("> "),
        Span::raw(app.input.clone()),
        Span::styled("▏", Style::new().slow_blink()),
    ]);
    frame.render_widget(Paragraph::new(text).block(block), area);
}
