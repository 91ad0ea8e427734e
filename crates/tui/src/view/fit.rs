//! Fitting text to the terminal's cells: cutting a name with `…` to a column, choosing the longest
//! wording that fits, and wrapping styled text at spaces, so that nothing is cut at the edge of a
//! pane whatever the width and the language (Russian words are longer).

use ratatui::style::Style;
use ratatui::text::{Line, Span};
use unicode_width::{UnicodeWidthChar, UnicodeWidthStr};

/// The terminal cells `text` takes.
pub fn width(text: &str) -> usize {
    UnicodeWidthStr::width(text)
}

/// `text` cut to at most `cols` cells, ending in `…` where it was cut.
pub fn fit(text: &str, cols: usize) -> String {
    if width(text) <= cols {
        return text.to_owned();
    }
    if cols == 0 {
        return String::new();
    }
    let mut out = String::new();
    let mut used = 0;
    for c in text.chars() {
        let w = c.width().unwrap_or(0);
        if used + w + 1 > cols {
            break;
        }
        out.push(c);
        used += w;
    }
    out.push('…');
    out
}

/// `text` cut or padded with spaces to exactly `cols` cells (a table's column).
pub(super) fn column(text: &str, cols: usize) -> String {
    let mut out = fit(text, cols);
    let pad = cols.saturating_sub(width(&out));
    out.extend(std::iter::repeat_n(' ', pad));
    out
}

/// The same, aligned to the right.
pub(super) fn column_right(text: &str, cols: usize) -> String {
    let out = fit(text, cols);
    format!("{}{out}", " ".repeat(cols.saturating_sub(width(&out))))
}

/// The first of `candidates` (longest wording first) that fits in `cols`; else the last, cut.
pub(super) fn first_fitting(candidates: &[String], cols: usize) -> String {
    candidates
        .iter()
        .find(|c| width(c) <= cols)
        .cloned()
        .unwrap_or_else(|| fit(candidates.last().map_or("", String::as_str), cols))
}

/// Styled text wrapped into lines of at most `cols` cells, broken at spaces where a line allows
/// (a word longer than a line is broken where it must); the lines after the first start with
/// `indent` spaces.
pub fn wrap(spans: &[Span<'_>], cols: usize, indent: usize) -> Vec<Line<'static>> {
    let cols = cols.max(1);
    let indent = if indent * 2 >= cols { 0 } else { indent };
    let cells: Vec<(char, Style)> =
        spans.iter().flat_map(|s| s.content.chars().map(move |c| (c, s.style))).collect();
    let mut lines = Vec::new();
    let mut line: Vec<(char, Style)> = Vec::new();
    let mut used = 0;
    let mut i = 0;
    while i < cells.len() {
        let (c, style) = cells[i];
        let w = c.width().unwrap_or(0);
        if used + w > cols && c == ' ' {
            // A space at the end of a line breaks it, and goes.
            lines.push(styled(&line));
            line = vec![(' ', Style::new()); indent];
            used = indent;
            i += 1;
            continue;
        }
        // The indent of this line: a line holding only it takes the next character whatever.
        let start = if lines.is_empty() { 0 } else { indent };
        if used + w > cols && line.len() > start {
            // Break at the last space of the line (past the indent), else here.
            match line.iter().rposition(|(c, _)| *c == ' ').filter(|&p| p > start) {
                Some(space) => {
                    let rest: Vec<(char, Style)> = line.split_off(space + 1);
                    line.pop();
                    lines.push(styled(&line));
                    line = vec![(' ', Style::new()); indent];
                    line.extend(rest);
                }
                None => {
                    lines.push(styled(&line));
                    line = vec![(' ', Style::new()); indent];
                }
            }
            used = line.iter().map(|(c, _)| c.width().unwrap_or(0)).sum();
            continue;
        }
        line.push((c, style));
        used += w;
        i += 1;
    }
    if !line.is_empty() || lines.is_empty() {
        lines.push(styled(&line));
    }
    lines
}

/// Cells back into spans, one per run of a style.
fn styled(cells: &[(char, Style)]) -> Line<'static> {
    let mut spans: Vec<Span<'static>> = Vec::new();
    let mut text = String::new();
    let mut current: Option<Style> = None;
    for &(c, style) in cells {
        if current.is_some_and(|s| s != style) {
            spans.push(Span::styled(std::mem::take(&mut text), current.unwrap_or_default()));
        }
        current = Some(style);
        text.push(c);
    }
    if !text.is_empty() {
        spans.push(Span::styled(text, current.unwrap_or_default()));
    }
    Line::from(spans)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plain(lines: &[Line<'_>]) -> Vec<String> {
        lines.iter().map(|l| l.spans.iter().map(|s| s.content.as_ref()).collect()).collect()
    }

    #[test]
    fn a_long_name_is_cut_with_an_ellipsis_and_a_short_one_kept() {
        assert_eq!(fit("alice", 8), "alice");
        assert_eq!(fit("александра_великая", 8), "алексан…");
        assert_eq!(width(&fit("александра_великая", 8)), 8);
        assert_eq!(column("bob", 5), "bob  ");
        assert_eq!(column_right("7", 3), "  7");
        assert_eq!(fit("abc", 0), "");
    }

    #[test]
    fn text_wraps_at_spaces_and_keeps_its_styles() {
        let red = Style::new().fg(ratatui::style::Color::Red);
        let spans = [Span::styled("[team] dave: ", red), Span::raw("нужен конь, срочно нужен конь")];
        let lines = wrap(&spans, 20, 2);
        assert_eq!(plain(&lines), ["[team] dave: нужен", "  конь, срочно нужен", "  конь"]);
        assert_eq!(lines[0].spans[0].style, red);
        assert!(lines.iter().all(|l| l.width() <= 20));
        // A word longer than the line is broken where it must.
        assert_eq!(plain(&wrap(&[Span::raw("abcdefghij")], 4, 0)), ["abcd", "efgh", "ij"]);
        assert_eq!(plain(&wrap(&[Span::raw("")], 4, 0)), [""]);
        assert_eq!(first_fitting(&["a long one".into(), "short".into()], 6), "short");
    }
}
