//! Pieces of the screen both the match and the review draw: the title line with the connection,
//! and a player's reserve.

use bughouse::Seat;
use chess_core::Role;
use ratatui::style::{Color, Style};
use ratatui::text::{Line, Span};

use super::fit::{fit, width};
use crate::app::{App, Link};
use crate::i18n::{Lang, t};

/// The title line: the connection first (a long title is cut at the right, and a lost connection
/// must show), then the program, the player and `what`, in the longest wording that fits.
pub(super) fn title(app: &App, what: &[String], cols: u16) -> Line<'static> {
    let lang = app.lang;
    let cols = usize::from(cols);
    let links: Vec<(String, Style)> = match &app.link {
        Link::Connected => {
            let green = Style::new().fg(Color::Green);
            let mut links = Vec::new();
            if let Some(server) = app.server {
                links.push((t!(lang, "link-connected-to", server = server.to_string()), green));
            }
            links.push((t!(lang, "link-connected"), green));
            links
        }
        Link::Reconnecting(n) => vec![(
            t!(lang, "link-reconnecting", attempt = *n),
            Style::new().fg(Color::Black).bg(Color::Yellow),
        )],
        Link::Ended => vec![(t!(lang, "link-ended"), Style::new().fg(Color::White).bg(Color::Red))],
    };
    // The longest wording that fits: the match's details go last, the server's address first.
    let choices: Vec<(&(String, Style), String)> = what
        .iter()
        .flat_map(|what| links.iter().map(move |link| (link, what)))
        .map(|(link, what)| (link, format!(" shvedka · {} · {what} ", app.name)))
        .collect();
    let fits = |(link, rest): &&(&(String, Style), String)| width(&link.0) + 2 + width(rest) <= cols;
    let Some(((link, style), rest)) = choices.iter().find(fits).or(choices.last()).cloned() else {
        return Line::default();
    };
    let link = format!(" {link} ");
    let rest = fit(&rest, cols.saturating_sub(width(&link)));
    Line::from(vec![Span::styled(link, *style), Span::styled(rest, Style::new().bold())])
}

/// A reserve as `reserve: Q1 N2 P3` for White, `reserve: q1 p2` for Black (the board's letters:
/// White upper case, Black lower, as the help says and `shvedka arbiter show` prints), or
/// `reserve: —` when empty.
pub(super) fn reserve_text(lang: Lang, game: &bughouse::Game, seat: Seat) -> String {
    let pieces = [Role::Queen, Role::Rook, Role::Bishop, Role::Knight, Role::Pawn]
        .into_iter()
        .filter_map(|role| {
            let n = game.reserve(seat, role);
            let letter = if seat.color == chess_core::Color::White { role.upper_char() } else { role.char() };
            (n > 0).then(|| format!("{letter}{n}"))
        })
        .collect::<Vec<_>>();
    if pieces.is_empty() { t!(lang, "reserve-empty") } else { t!(lang, "reserve", pieces = pieces.join(" ")) }
}
