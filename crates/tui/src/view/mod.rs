//! Drawing the interface: the lobby table, or the match with both boards side by side, the four
//! players with their clocks and reserves, the message pane and the input line.
//!
//! Everything is laid out for the terminal's size: the board panels share its width, a player's
//! line wraps under the board when the panel is narrow, names are cut with `…` to their column,
//! and the message pane takes the height the match leaves — so that nothing is cut from 80×24 up,
//! in either language.

mod board;
mod clock;
mod fit;
mod parts;
mod review;

use std::time::Instant;

use bughouse::{BoardId, Seat};
use chess_core::Color as Side;
use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph};
use shvedka_client::{MatchModel, rules_seat};
use shvedka_proto::{ChatScope, PhaseView, PlayerKind, SeatId};

pub use board::{Marks, board_lines, move_squares};
pub use clock::format_clock;
pub use fit::{fit, width, wrap};

use crate::app::{App, LogLine, Screen, help_lines};
use crate::i18n::{Lang, t};
use crate::speak;
use parts::{reserve_text, title};

/// Columns of one board's squares with its rank digits (`8 ` and eight squares of three).
const BOARD_COLS: u16 = 26;

/// Draws the whole interface at local time `now`.
pub fn render(frame: &mut Frame<'_>, app: &App, now: Instant) {
    let area = frame.area();
    let input = input_lines(app, now, area.width);
    let input_height = input.len() as u16 + 1;
    let main_height = match (app.screen, &app.model, &app.review) {
        (Screen::Review, _, Some(r)) => {
            review::height(app, r, area.width, area.height.saturating_sub(input_height))
        }
        (Screen::Match, Some(model), _) => match_height(app, model, area.width),
        // The lobby takes what a message pane of a third of the screen leaves.
        _ => area.height.saturating_sub(input_height).saturating_sub((area.height / 3).clamp(4, 10)),
    };
    let [main, log, input_area] = Layout::vertical([
        Constraint::Length(main_height),
        Constraint::Min(3),
        Constraint::Length(input_height),
    ])
    .areas(area);
    if app.help {
        // Help covers the match (or the lobby) and the messages; Esc gives them back.
        let [over, _] = Layout::vertical([Constraint::Min(0), Constraint::Length(input_height)]).areas(area);
        render_help(frame, over, app);
    } else {
        match (app.screen, &app.model, &app.review) {
            (Screen::Review, _, Some(r)) => review::render(frame, main, app, r),
            (Screen::Match, Some(model), _) => render_match(frame, main, app, model, now),
            _ => render_lobby(frame, main, app),
        }
        render_log(frame, log, app);
    }
    render_input(frame, input_area, app, input);
}

/// The listed match in play where the client's account sits (a guest cannot bear an account's
/// name), if any.
fn your_match(app: &App) -> Option<(shvedka_proto::MatchId, SeatId)> {
    app.lobby.iter().find_map(|m| {
        let playing = matches!(m.phase, PhaseView::Countdown | PhaseView::Running | PhaseView::Paused);
        let i = (0..4).find(|&i| {
            m.seats[i].as_deref() == Some(app.name.as_str())
                && m.kinds[i] == Some(shvedka_proto::PlayerKind::Account)
        })?;
        (playing && app.model.as_ref().is_none_or(|f| f.state().match_id != m.match_id))
            .then_some((m.match_id, SeatId::ALL[i]))
    })
}

fn render_lobby(frame: &mut Frame<'_>, area: Rect, app: &App) {
    let lang = app.lang;
    let block = Block::new().borders(Borders::TOP).title(title(app, &[t!(lang, "lobby")], area.width));
    let inner = block.inner(area);
    let cols = usize::from(inner.width);
    // Each column as wide as its longest cell (a cap for the rules), the seats sharing the rest.
    let rules_of = |m: &shvedka_proto::MatchSummary| {
        let mut rules = if m.chess960 { format!("{} 960", m.rules) } else { m.rules.clone() };
        if m.rated {
            rules.push_str(" R");
        }
        rules
    };
    let header =
        [t!(lang, "lobby-match"), t!(lang, "lobby-rules"), t!(lang, "lobby-clock"), t!(lang, "lobby-phase")];
    let widest = |head: &str, cells: &mut dyn Iterator<Item = String>, cap: usize| {
        cells.map(|c| width(&c)).chain([width(head)]).max().unwrap_or(0).min(cap)
    };
    let w_id = widest(&header[0], &mut app.lobby.iter().map(|m| m.match_id.0.to_string()), 8);
    let w_rules = widest(&header[1], &mut app.lobby.iter().map(rules_of), 16);
    let w_clock = widest(&header[2], &mut app.lobby.iter().map(|m| m.time_control.clone()), 8);
    let w_phase = widest(&header[3], &mut app.lobby.iter().map(|m| speak::phase(lang, m.phase)), 14);
    let fixed = w_id + 2 + w_rules + 1 + w_clock + 1 + w_phase + 1;
    let w_seat = (cols.saturating_sub(fixed) / 4).saturating_sub(1).clamp(5, 24);
    let row = |id: &str, rules: &str, clock: &str, phase: &str, seats: [String; 4]| {
        let mut text = format!(
            "{}  {} {} {} ",
            fit::column_right(id, w_id),
            fit::column(rules, w_rules),
            fit::column(clock, w_clock),
            fit::column(phase, w_phase)
        );
        for seat in seats {
            text.push_str(&fit::column(&seat, w_seat));
            text.push(' ');
        }
        fit(text.trim_end(), cols)
    };
    let mut lines = vec![Line::from(Span::styled(
        row(&header[0], &header[1], &header[2], &header[3], SeatId::ALL.map(|s| speak::seat(lang, s))),
        Style::new().add_modifier(Modifier::UNDERLINED),
    ))];
    if app.lobby.is_empty() {
        lines.push(Line::from(format!("  {}", t!(lang, "lobby-empty"))));
    }
    let visible = usize::from(inner.height).saturating_sub(1).max(1);
    let first = app.selected.saturating_sub(visible - 1);
    for (i, m) in app.lobby.iter().enumerate().skip(first).take(visible) {
        let seat = |i: usize| match &m.seats[i] {
            Some(name) => seat_cell(lang, name, m.kinds[i], w_seat),
            None => "·".into(),
        };
        let text = row(
            &m.match_id.0.to_string(),
            &rules_of(m),
            &m.time_control,
            &speak::phase(lang, m.phase),
            [seat(0), seat(1), seat(2), seat(3)],
        );
        let style =
            if i == app.selected { Style::new().add_modifier(Modifier::REVERSED) } else { Style::new() };
        lines.push(Line::from(Span::styled(text, style)));
    }
    // The account's own match in play (a seat belongs to the account: Enter on it, or /watch,
    // takes the seat over from a session that was lost).
    if let Some((id, seat)) = your_match(app) {
        let text = t!(lang, "lobby-your-match", id = id.0, seat = speak::seat(lang, seat));
        lines.insert(0, Line::from(Span::styled(fit(&text, cols), Style::new().fg(Color::Yellow))));
    }
    // What the keys do, below the list while there is room.
    let room = usize::from(inner.height).saturating_sub(lines.len() + 1);
    let hints = wrap(&[Span::styled(t!(lang, "lobby-keys"), Style::new().fg(Color::DarkGray))], cols, 2);
    if hints.len() <= room {
        lines.push(Line::default());
        lines.extend(hints);
    }
    frame.render_widget(Paragraph::new(lines).block(block), area);
}

/// A seated player in a column of `cols` cells: the name cut before the kind mark is.
fn seat_cell(lang: Lang, name: &str, kind: Option<PlayerKind>, cols: usize) -> String {
    let whole = speak::marked(lang, name, kind);
    match speak::kind_mark(lang, kind) {
        Some(mark) if width(&whole) > cols && cols >= width(&mark) + 3 => {
            format!("{} {mark}", fit(name, cols - width(&mark) - 1))
        }
        _ => fit(&whole, cols),
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

/// How the match pane divides `cols`: two board panels and the move list (none when narrow).
fn columns(cols: u16) -> (u16, u16) {
    let list = if cols >= 2 * BOARD_COLS + 12 { (cols / 6).clamp(12, 24) } else { 0 };
    let panel = ((cols.saturating_sub(list + 2)) / 2).clamp(BOARD_COLS.min(cols / 2), 64);
    (panel, list)
}

/// The rows the match pane needs at width `cols`: its title, both boards with their players and
/// the status lines.
fn match_height(app: &App, model: &MatchModel, cols: u16) -> u16 {
    let (panel, _) = columns(cols);
    let clocks = model.clocks(Instant::now());
    let me = model.my_seat();
    let board_rows = [BoardId::A, BoardId::B]
        .into_iter()
        .map(|board| {
            let players: usize = [Side::White, Side::Black]
                .into_iter()
                .map(|side| player_lines(app, model, Seat::new(board, side), clocks, me, panel).len())
                .sum();
            // Its title, eight ranks, the files and the two players.
            2 + 8 + players
        })
        .max()
        .unwrap_or(12);
    let status = status_lines(app, model, cols).len();
    (1 + board_rows + status) as u16
}

fn render_match(frame: &mut Frame<'_>, area: Rect, app: &App, model: &MatchModel, now: Instant) {
    let lang = app.lang;
    let state = model.state();
    let me = model.my_seat();
    let number = t!(lang, "match-number", id = state.match_id.0);
    let phase = speak::phase(lang, state.phase);
    let what = match me {
        Some(s) => {
            let seat = speak::seat(lang, s);
            vec![
                format!(
                    "{number} · {} · {} · {phase} · {}",
                    state.rules,
                    state.time_control,
                    t!(
                        lang,
                        "you-play-team",
                        seat = seat.as_str(),
                        team = speak::team_with_seats(lang, s.team())
                    )
                ),
                format!(
                    "{number} · {} · {phase} · {}",
                    state.time_control,
                    t!(lang, "you-play", seat = seat.as_str())
                ),
                format!("{number} · {}", t!(lang, "you-play", seat = seat)),
            ]
        }
        None => vec![
            format!(
                "{number} · {} · {} · {phase} · {}",
                state.rules,
                state.time_control,
                t!(lang, "watching")
            ),
            format!("{number} · {phase} · {}", t!(lang, "watching")),
        ],
    };
    let block = Block::new().borders(Borders::TOP).title(title(app, &what, area.width));
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let status = status_lines(app, model, inner.width);
    let [boards, status_area] =
        Layout::vertical([Constraint::Min(0), Constraint::Length(status.len() as u16)]).areas(inner);
    let (panel, list_cols) = columns(inner.width);
    let [left, right, list] = Layout::horizontal([
        Constraint::Length(panel),
        Constraint::Length(panel),
        Constraint::Length(list_cols),
    ])
    .spacing(1)
    .areas(boards);
    frame.render_widget(Paragraph::new(move_list(lang, model, list.height as usize, list.width)), list);
    let sides = orientation(me);
    // The player's own board on the left.
    let order = match me.map(rules_seat) {
        Some(seat) => [seat.board, seat.board.other()],
        None => [BoardId::A, BoardId::B],
    };
    let clocks = model.clocks(now);
    for (half, board) in [left, right].into_iter().zip(order) {
        let bottom = sides[board.index()];
        let picks: Vec<_> = match (&app.picking, me.map(rules_seat)) {
            (Some(p), Some(seat)) if seat.board != board => p.iter().map(|p| p.square).collect(),
            _ => Vec::new(),
        };
        let last = model.last_move(board).map(|m| move_squares(&m.uci)).unwrap_or_default();
        let letter = board.to_string();
        let mut heads = Vec::new();
        if let Some(m) = model.last_move(board) {
            let seat = speak::seat(lang, m.seat);
            heads.push(t!(
                lang,
                "board-title-last",
                board = letter.as_str(),
                seat = seat,
                san = m.san.as_str()
            ));
            heads.push(t!(lang, "board-title-last-short", board = letter.as_str(), san = m.san.as_str()));
        }
        heads.push(t!(lang, "board-title", board = letter.as_str()));
        let head = fit::first_fitting(&heads, usize::from(half.width));
        let mut lines = vec![Line::from(Span::styled(head, Style::new().bold()))];
        lines.extend(player_lines(app, model, Seat::new(board, !bottom), clocks, me, half.width));
        lines.extend(board_lines(model.game().board(board), bottom, Marks { last, picks: &picks }));
        lines.extend(player_lines(app, model, Seat::new(board, bottom), clocks, me, half.width));
        frame.render_widget(Paragraph::new(lines), half);
    }
    frame.render_widget(Paragraph::new(status), status_area);
}

/// The latest moves of both boards in the order they were made, as BPGN numbers them
/// (`12A. Nf3`, `12b. N@e4`), newest at the bottom, under their count.
fn move_list(lang: Lang, model: &MatchModel, height: usize, cols: u16) -> Vec<Line<'static>> {
    let moves = model.moves();
    let shown = &moves[moves.len().saturating_sub(height.saturating_sub(1))..];
    let head = fit(&t!(lang, "moves-count", n = moves.len()), usize::from(cols));
    let mut lines = vec![Line::from(Span::styled(head, Style::new().bold()))];
    lines.extend(shown.iter().map(|m| {
        // Upper case for White, lower for Black, as BPGN writes it.
        let board = m.seat.board().to_string();
        let letter = if m.seat.index() % 2 == 0 { board } else { board.to_lowercase() };
        Line::from(fit(&format!("{}{letter}. {}", m.number, m.san), usize::from(cols)))
    }));
    lines
}

/// One player's lines under or over his board, for a panel `cols` wide: `▶ name (kind) (you)
/// seat  clock  flag ready  reserve: …`, wrapped onto a second line (indented) where the panel is
/// narrow, the name cut with `…` rather than anything else.
fn player_lines(
    app: &App,
    model: &MatchModel,
    seat: Seat,
    clocks: [std::time::Duration; 4],
    me: Option<SeatId>,
    cols: u16,
) -> Vec<Line<'static>> {
    let lang = app.lang;
    let cols = usize::from(cols);
    let id = SeatId::ALL[seat.index()];
    let state = model.state();
    let to_move = model.phase() == PhaseView::Running && model.game().to_move(seat.board) == seat;
    let marker = if to_move { "▶ " } else { "  " };
    let mut marks = String::new();
    if let Some(mark) = speak::kind_mark(lang, state.kinds[seat.index()]) {
        marks = format!(" {mark}");
    }
    if me == Some(id) {
        marks.push(' ');
        marks.push_str(&t!(lang, "you-mark"));
    }
    let name = match &state.seats[seat.index()] {
        Some(n) => fit(n, cols.saturating_sub(width(marker) + width(&marks)).max(4)),
        None => t!(lang, "seat-empty"),
    };
    let clock = speak::clock(lang, clocks[seat.index()]);
    let clock_style = match (state.running[seat.index()], clocks[seat.index()].as_millis() < 10_000) {
        (true, true) => Style::new().fg(Color::Black).bg(Color::Red).bold(),
        (true, false) => Style::new().fg(Color::Black).bg(Color::White).bold(),
        _ => Style::new(),
    };
    // The parts after the name, each kept whole on a line.
    let mut parts: Vec<Vec<Span<'static>>> =
        vec![vec![Span::raw(speak::seat(lang, id))], vec![Span::styled(format!(" {clock} "), clock_style)]];
    if model.flags()[seat.index()] {
        parts.push(vec![Span::styled(t!(lang, "flag-fell"), Style::new().fg(Color::Red))]);
    }
    // Ready or not, for a seat someone holds.
    if state.phase == PhaseView::Forming && state.seats[seat.index()].is_some() {
        let ready = if state.ready[seat.index()] { t!(lang, "ready") } else { t!(lang, "not-ready") };
        parts.push(vec![Span::raw(ready)]);
    }
    parts.push(vec![Span::raw(reserve_text(lang, model.game(), seat))]);
    let mut lines = Vec::new();
    let mut line = vec![
        Span::styled(marker, Style::new().fg(Color::Yellow).bold()),
        Span::raw(format!("{name}{marks}")),
    ];
    let line_width = |spans: &[Span<'_>]| spans.iter().map(|s| s.width()).sum::<usize>();
    for part in parts {
        if line_width(&line) + 1 + line_width(&part) > cols {
            lines.push(Line::from(std::mem::take(&mut line)));
            line.push(Span::raw("  "));
        } else {
            line.push(Span::raw(" "));
        }
        line.extend(part);
    }
    lines.push(Line::from(line));
    lines
}

/// The lines under the boards: the result, an offer, what the player is to do; wrapped to
/// `cols`.
fn status_lines(app: &App, model: &MatchModel, cols: u16) -> Vec<Line<'static>> {
    let lang = app.lang;
    let cols = usize::from(cols);
    let mut lines = Vec::new();
    if let Some(result) = model.result() {
        let mut text = speak::result(lang, result);
        if let Some(team) = result.winner {
            text = format!("{text} · {}", speak::team_with_seats(lang, team));
        }
        let text = format!("{text} · {}", t!(lang, "result-leave"));
        let style = Style::new().fg(Color::Black).bg(Color::Cyan).bold();
        lines.extend(wrap(&[Span::styled(text, style)], cols, 0));
    } else if model.phase() == PhaseView::Annulled {
        lines.extend(wrap(&[Span::raw(t!(lang, "annulled"))], cols, 0));
    } else if let Some(offer) = model.draw_offer() {
        lines.extend(wrap(&[Span::raw(t!(lang, "draw-offered", seat = speak::seat(lang, offer)))], cols, 0));
    } else if model.phase() == PhaseView::Forming && model.my_seat().is_some() {
        lines.extend(wrap(&[Span::raw(t!(lang, "ready-prompt"))], cols, 0));
    } else if model.phase() == PhaseView::Paused {
        lines.extend(wrap(&[Span::raw(t!(lang, "paused-for-arbiter"))], cols, 0));
    }
    if app.picking.is_some() {
        let style = Style::new().fg(Color::Red).bold();
        lines.extend(wrap(&[Span::styled(t!(lang, "promotion-prompt"), style)], cols, 0));
    }
    lines
}

/// A message pane line as spans (a chat line's writer and scope in colour).
fn log_spans(lang: Lang, line: &LogLine) -> Vec<Span<'static>> {
    match line {
        LogLine::Info(t) => vec![Span::raw(t.clone())],
        LogLine::Error(t) => vec![Span::styled(t.clone(), Style::new().fg(Color::Red))],
        LogLine::Chat { from, scope, text } => {
            let to = if *scope == ChatScope::Team { t!(lang, "chat-team") } else { t!(lang, "chat-all") };
            // The quick messages in the reader's language.
            let text = speak::quick(lang, text).unwrap_or_else(|| text.clone());
            vec![Span::styled(format!("[{to}] {from}: "), Style::new().fg(Color::Cyan)), Span::raw(text)]
        }
    }
}

fn render_log(frame: &mut Frame<'_>, area: Rect, app: &App) {
    let lang = app.lang;
    let height = usize::from(area.height.saturating_sub(1));
    let cols = usize::from(area.width);
    // Wrapped here, so that the newest lines are the ones shown, however long.
    let mut lines: Vec<Line<'static>> = Vec::new();
    for line in app.log.iter().rev() {
        let wrapped = wrap(&log_spans(lang, line), cols, 2);
        lines.splice(0..0, wrapped);
        if lines.len() >= height + app.log_back {
            break;
        }
    }
    let end = lines.len().saturating_sub(app.log_back).max(height.min(lines.len()));
    let start = end.saturating_sub(height);
    let mut heading = t!(lang, "messages");
    if app.log_back > 0 {
        heading = t!(lang, "messages-back", n = app.log_back);
    }
    let block =
        Block::new().borders(Borders::TOP).title(format!(" {} ", fit(&heading, cols.saturating_sub(2))));
    frame.render_widget(Paragraph::new(lines[start..end].to_vec()).block(block), area);
}

fn render_help(frame: &mut Frame<'_>, area: Rect, app: &App) {
    let lang = app.lang;
    let cols = usize::from(area.width);
    let lines: Vec<Line<'static>> =
        help_lines(lang).into_iter().flat_map(|l| wrap(&[Span::raw(l)], cols, 2)).collect();
    let height = usize::from(area.height.saturating_sub(1));
    let start = app.help_at.min(lines.len().saturating_sub(height));
    let block = Block::new()
        .borders(Borders::TOP)
        .title(format!(" {} ", fit(&t!(lang, "help-title"), cols.saturating_sub(2))));
    frame.render_widget(Paragraph::new(lines[start..].to_vec()).block(block), area);
}

/// The input area's lines: a seek or an invitation (wrapped), then the prompt.
fn input_lines(app: &App, now: Instant, cols: u16) -> Vec<Line<'static>> {
    let mut lines = Vec::new();
    if let Some(seek) = app.seek_line(now) {
        let style = Style::new().fg(Color::Black).bg(Color::Cyan);
        lines.extend(wrap(&[Span::styled(seek, style)], usize::from(cols), 2));
    }
    lines.push(Line::from(vec![
        Span::raw("> "),
        Span::raw(app.input.clone()),
        Span::styled("▏", Style::new().slow_blink()),
    ]));
    lines
}

fn render_input(frame: &mut Frame<'_>, area: Rect, app: &App, lines: Vec<Line<'static>>) {
    let lang = app.lang;
    let cols = usize::from(area.width).saturating_sub(2);
    let hints = match (app.help, app.screen) {
        (true, _) => vec![t!(lang, "hint-help")],
        (false, Screen::Lobby) => {
            let pools: Vec<String> =
                app.pools.iter().take(4).enumerate().map(|(i, tc)| format!("F{} {tc}", i + 1)).collect();
            vec![
                t!(lang, "hint-lobby", pools = pools.join(" ")),
                t!(lang, "hint-lobby-short"),
                t!(lang, "hint-help-only"),
            ]
        }
        (false, Screen::Match) if app.model.as_ref().is_some_and(|m| m.my_seat().is_none()) => {
            vec![t!(lang, "hint-watch"), t!(lang, "hint-help-only")]
        }
        (false, Screen::Match) => vec![t!(lang, "hint-match"), t!(lang, "hint-help-only")],
        (false, Screen::Review) => vec![t!(lang, "hint-review"), t!(lang, "hint-review-short")],
    };
    let hint = fit::first_fitting(&hints, cols);
    let block = Block::new().borders(Borders::TOP).title(format!(" {hint} "));
    frame.render_widget(Paragraph::new(lines).block(block), area);
}
