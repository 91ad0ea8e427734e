//! One board as lines of text: ranks from the viewer's side, pieces as letters (upper case White,
//! lower case Black) on coloured squares, the last move and removable pieces highlighted.

use chess_core::{Color as Side, File, Rank, Square};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};

const LIGHT: Color = Color::Rgb(150, 150, 172);
const DARK: Color = Color::Rgb(98, 98, 126);
const LAST: Color = Color::Rgb(176, 160, 64);
const PICK: Color = Color::Rgb(200, 80, 80);

/// What to draw on a board besides the pieces.
#[derive(Clone, Copy, Debug, Default)]
pub struct Marks<'a> {
    /// The last move's squares (from, to).
    pub last: [Option<Square>; 2],
    /// Squares of pieces the player may remove.
    pub picks: &'a [Square],
}

/// The board's lines: eight ranks and the file letters, `bottom` nearest the viewer.
pub fn board_lines(pos: &chess_core::Position, bottom: Side, marks: Marks<'_>) -> Vec<Line<'static>> {
    let ranks: Vec<Rank> = match bottom {
        Side::White => Rank::all().rev().collect(),
        Side::Black => Rank::all().collect(),
    };
    let files: Vec<File> = match bottom {
        Side::White => File::all().collect(),
        Side::Black => File::all().rev().collect(),
    };
    let mut lines = Vec::with_capacity(9);
    for &rank in &ranks {
        let mut spans = vec![Span::raw(format!("{} ", rank.char()))];
        for &file in &files {
            let sq = Square::from_coords(file, rank);
            let mut bg = if sq.is_light() { LIGHT } else { DARK };
            if marks.last.contains(&Some(sq)) {
                bg = LAST;
            }
            if let Some(i) = marks.picks.iter().position(|&p| p == sq) {
                let label = format!("{:^3}", i + 1);
                spans.push(Span::styled(label, Style::new().bg(PICK).fg(Color::White)));
                continue;
            }
            let (text, fg) = match pos.board().piece_at(sq) {
                Some(p) => {
                    (p.char().to_string(), if p.color == Side::White { Color::White } else { Color::Black })
                }
                None => (" ".to_owned(), Color::Reset),
            };
            spans.push(Span::styled(
                format!(" {text} "),
                Style::new().bg(bg).fg(fg).add_modifier(Modifier::BOLD),
            ));
        }
        lines.push(Line::from(spans));
    }
    let letters: String = files.iter().map(|f| format!(" {} ", f.char())).collect();
    lines.push(Line::from(format!("  {letters}")));
    lines
}

/// The squares of a move in long notation (`e2e4` → e2, e4; `N@f3` → f3).
pub fn move_squares(uci: &str) -> [Option<Square>; 2] {
    let square = |i: usize| uci.get(i..i + 2).and_then(|s| s.parse::<Square>().ok());
    if uci.contains('@') { [None, square(2)] } else { [square(0), square(2)] }
}
