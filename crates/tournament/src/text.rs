//! Standings and crosstable as plain text with aligned columns, for a terminal or a printout.

use crate::words::{Language, say, text, word};
use crate::{Crosstable, Score, Standings};

/// Lays out rows as columns separated by two spaces, each as wide as its widest cell (counted in
/// characters); columns marked in `right` are right-aligned. Trailing spaces are trimmed.
pub(crate) fn columns(rows: &[Vec<String>], right: &[bool]) -> String {
    let width = |c: usize| rows.iter().filter_map(|r| r.get(c)).map(|s| s.chars().count()).max().unwrap_or(0);
    let count = rows.iter().map(Vec::len).max().unwrap_or(0);
    let widths: Vec<usize> = (0..count).map(width).collect();
    let mut out = String::new();
    for row in rows {
        let mut line = String::new();
        for (c, cell) in row.iter().enumerate() {
            if c > 0 {
                line.push_str("  ");
            }
            let pad = widths.get(c).copied().unwrap_or(0).saturating_sub(cell.chars().count());
            if right.get(c).copied().unwrap_or(false) {
                line.extend(std::iter::repeat_n(' ', pad));
                line.push_str(cell);
            } else {
                line.push_str(cell);
                line.extend(std::iter::repeat_n(' ', pad));
            }
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

/// A team's name as the exports show it.
pub(crate) fn shown_name(name: &str, withdrawn: bool, language: Language) -> String {
    if withdrawn { say(language, "withdrawn", &[("name", text(name))]) } else { name.to_owned() }
}

impl Standings {
    /// The standings as aligned text: rank, team, points, direct encounter, Buchholz,
    /// Sonneborn–Berger, games won.
    pub fn to_text(&self) -> String {
        self.to_text_in(Language::English)
    }

    /// [`Standings::to_text`] in `language`.
    pub fn to_text_in(&self, language: Language) -> String {
        let header = ["rank", "team", "points-short", "direct-short", "buchholz-short", "sb", "wins"];
        let mut rows = vec![header.map(|id| word(language, id)).to_vec()];
        for r in &self.rows {
            rows.push(vec![
                r.rank.to_string(),
                shown_name(&r.name, r.withdrawn, language),
                r.points.to_string(),
                r.direct.to_string(),
                r.buchholz.to_string(),
                r.sonneborn_berger.to_string(),
                r.wins.to_string(),
            ]);
        }
        columns(&rows, &[true, false, true, true, true, true, true])
    }
}

impl Crosstable {
    /// The crosstable as aligned text: each row a team in standings order, numbered; column `j`
    /// its score against team `j` (`1½` is 1.5 of 2), `·` where they have not met, `X` on the
    /// diagonal; then the points of its byes, when a team had one.
    pub fn to_text(&self) -> String {
        self.to_text_in(Language::English)
    }

    /// [`Crosstable::to_text`] in `language`.
    pub fn to_text_in(&self, language: Language) -> String {
        let n = self.rows.len();
        let mut header = vec!["#".to_owned(), word(language, "team")];
        header.extend((1..=n).map(|j| j.to_string()));
        let byes = self.has_byes();
        if byes {
            header.push(word(language, "byes-short"));
        }
        header.push(word(language, "points-short"));
        let mut rows = vec![header];
        for (i, r) in self.rows.iter().enumerate() {
            let mut row = vec![(i + 1).to_string(), r.name.clone()];
            row.extend(r.cells.iter().enumerate().map(|(j, c)| match c {
                _ if i == j => "X".to_owned(),
                Some(s) => s.fraction(),
                None => "·".to_owned(),
            }));
            if byes {
                row.push(if r.byes > Score::default() { r.byes.fraction() } else { "·".to_owned() });
            }
            row.push(r.points.to_string());
            rows.push(row);
        }
        let mut right = vec![true, false];
        right.extend(std::iter::repeat_n(true, n + 1 + usize::from(byes)));
        columns(&rows, &right)
    }
}
