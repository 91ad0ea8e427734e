//! The review screen (`/review N`, [`crate::review`]): where the record stands — after which
//! move, and at which match time, in `shvedka arbiter show`'s words — both boards with their
//! players, clocks (running or stopped, fallen) and reserves just after the step shown, and what
//! the record says happened up to it: the arbiter's acts with who made them and when, notes,
//! impossible moves.

use bughouse::{BoardId, Seat};
use chess_core::Color as Side;
use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph, Wrap};
use shvedka_proto::SeatId;
use shvedka_records::{ActKind, StepKind};

use super::board::{Marks, board_lines};
use super::fit;
use super::parts::{reserve_text, title};
use crate::app::App;
use crate::i18n::t;
use crate::record_words::{self as words, Instant, Stopped};
use crate::review::Review;
use crate::speak;

/// The happenings shown under the boards, the latest last.
const HAPPENINGS: usize = 6;

/// The rows the review needs: its title, two lines of where it is, the boards with their title,
/// players and reserves, and the happenings; never more than `available`.
pub(super) fn height(app: &App, r: &Review, cols: u16, available: u16) -> u16 {
    let said = happenings(app, r).len() as u16;
    let panel = (cols.saturating_sub(1) / 2).min(64);
    let boards = panels(app, r, panel).iter().map(Vec::len).max().unwrap_or(12) as u16;
    (1 + 2 + boards + said).min(available.saturating_sub(3))
}

pub(super) fn render(frame: &mut Frame<'_>, area: Rect, app: &App, r: &Review) {
    let lang = app.lang;
    let step = r.step();
    let n = step.moves_made;
    let label = r.label(n);
    let header = words::header(lang, &Instant::AfterMove(n, label.as_deref().unwrap_or("")));
    let what = [
        format!("{} · {header}", t!(lang, "review-title", id = r.match_id.0)),
        t!(lang, "review-title", id = r.match_id.0),
    ];
    let block = Block::new().borders(Borders::TOP).title(title(app, &what, area.width));
    let inner = block.inner(area);
    frame.render_widget(block, area);

    let mut top = vec![Line::from(words::moves_made(lang, n, r.total_moves(), label.as_deref()))];
    let stood = stopped(r);
    let why = match &stood {
        Some((true, at)) => Stopped::Ended(at),
        Some((false, at)) => Stopped::Paused(at),
        None => Stopped::No,
    };
    top.push(Line::from(match step.at_ms {
        Some(t) => words::match_time(lang, &words::signed_clock(t), &why),
        None => words::match_time_unknown(lang, &words::Untimed::Incomplete),
    }));
    let said = happenings(app, r);
    // No move list beside the boards: they share the width.
    let panel = (inner.width.saturating_sub(1) / 2).min(64);
    let panels = panels(app, r, panel);
    let boards_height = panels.iter().map(Vec::len).max().unwrap_or(12) as u16;
    let [where_area, boards, said_area] = Layout::vertical([
        Constraint::Length(top.len() as u16),
        Constraint::Length(boards_height),
        Constraint::Min(0),
    ])
    .areas(inner);
    frame.render_widget(Paragraph::new(top), where_area);
    let [left, right] =
        Layout::horizontal([Constraint::Length(panel), Constraint::Length(panel)]).spacing(1).areas(boards);
    for (half, lines) in [left, right].into_iter().zip(panels) {
        frame.render_widget(Paragraph::new(lines), half);
    }
    frame.render_widget(Paragraph::new(said).wrap(Wrap { trim: false }), said_area);
}

/// Both boards' lines, `cols` wide each: its title, the players over and under it. As a
/// spectator sees a match: board A with White below, board B with Black below.
fn panels(app: &App, r: &Review, cols: u16) -> [Vec<Line<'static>>; 2] {
    let lang = app.lang;
    let game = &r.step().game;
    [(BoardId::A, Side::White), (BoardId::B, Side::Black)].map(|(board, bottom)| {
        let mated = game.is_mate_on_board(board);
        let heads = [
            words::board_line(lang, board, game.to_move(board), mated),
            if mated {
                t!(lang, "review-board-mated", board = board.to_string())
            } else {
                t!(lang, "board-title", board = board.to_string())
            },
        ];
        let head = fit::first_fitting(&heads, usize::from(cols));
        let mut lines = vec![Line::from(Span::styled(head, Style::new().bold()))];
        lines.extend(player_lines(app, r, Seat::new(board, !bottom), cols));
        lines.extend(board_lines(game.board(board), bottom, Marks::default()));
        lines.extend(player_lines(app, r, Seat::new(board, bottom), cols));
        lines
    })
}

/// Why the clocks stand just after the step, if they do (as `show` says it): since when, and
/// whether by the end (else a pause or a call).
fn stopped(r: &Review) -> Option<(bool, String)> {
    let steps = &r.timeline.steps()[..=r.at];
    let since = |kind: fn(&shvedka_records::Step) -> bool| {
        steps.iter().rev().take_while(|s| kind(s)).last().and_then(|s| s.at_ms).unwrap_or(0)
    };
    let step = r.step();
    if step.ended {
        Some((true, words::signed_clock(since(|s| s.ended))))
    } else if step.paused {
        Some((false, words::signed_clock(since(|s| s.paused))))
    } else {
        None
    }
}

/// One player's line: `▶ anna · white-A  2:59.120` (the marker while his clock runs; a fallen
/// flag said), then his reserve, on the same line where the panel is wide enough.
fn player_lines(app: &App, r: &Review, seat: Seat, cols: u16) -> Vec<Line<'static>> {
    let lang = app.lang;
    let step = r.step();
    let i = seat.index();
    let running = step.running[i];
    let name = r.record.player(seat).filter(|p| !p.is_empty() && *p != "?").unwrap_or("—").to_owned();
    let clock = step.clocks.0[i].map_or_else(|| "?".to_owned(), words::clock);
    let marker = if running { "▶ " } else { "  " };
    let style = if running { Style::new().fg(Color::Black).bg(Color::White).bold() } else { Style::new() };
    let mut head = vec![
        Span::styled(marker, Style::new().fg(Color::Yellow).bold()),
        Span::raw(format!("{name} · {} ", speak::seat(lang, SeatId::ALL[i]))),
        Span::styled(format!(" {clock} "), style),
    ];
    if step.clocks.0[i] == Some(0) {
        head.push(Span::styled(format!(" {}", t!(lang, "flag-fell")), Style::new().fg(Color::Red)));
    }
    let reserve = reserve_text(lang, &step.game, seat);
    let wide = head.iter().map(Span::width).sum::<usize>() + 1 + reserve.chars().count() <= usize::from(cols);
    if wide {
        head.push(Span::raw(format!(" {reserve}")));
        vec![Line::from(head)]
    } else {
        vec![Line::from(head), Line::from(format!("    {reserve}"))]
    }
}

/// What the record says happened up to the step shown, the latest last, as `show` says it.
fn happenings(app: &App, r: &Review) -> Vec<Line<'static>> {
    let lang = app.lang;
    let ending = r.record.result.as_ref().and_then(|res| {
        res.rule.as_deref().and_then(|rule| speak::rule_reason(lang, rule)).or_else(|| res.reason.clone())
    });
    let mut lines = Vec::new();
    for s in r.happenings(HAPPENINGS) {
        match &s.kind {
            StepKind::Move(i) => {
                let label = r.record.moves[*i].label();
                if let Some(why) = &s.impossible {
                    lines.push(Line::from(Span::styled(
                        words::impossible(lang, &label, why),
                        Style::new().fg(Color::Red),
                    )));
                }
                if let Some(c) = &r.record.moves[*i].comment {
                    lines.push(Line::from(words::note(lang, &label, c)));
                }
            }
            StepKind::Act(act) => {
                let at = s.at_ms.map(words::signed_clock);
                let style = if matches!(act.kind, ActKind::Played(_)) {
                    Style::new().fg(Color::DarkGray)
                } else {
                    Style::new()
                };
                lines.push(Line::from(Span::styled(
                    words::act(lang, at.as_deref(), act, ending.as_deref()),
                    style,
                )));
                if let Some(why) = &s.impossible {
                    lines.push(Line::from(words::act_failed(lang, why)));
                }
            }
            StepKind::Start => {}
        }
    }
    if lines.is_empty() {
        lines.push(Line::from(t!(lang, "review-nothing-yet")));
    }
    lines
}
