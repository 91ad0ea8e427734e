//! One self-contained HTML page of the standings and crosstable, for a projector in the hall:
//! inline CSS, no scripts, no external resources, large type; every name HTML-escaped.

use std::fmt::Write as _;

use crate::text::shown_name;
use crate::words::{Language, number, say, text, word};
use crate::{State, Tournament};

/// Escapes text for HTML element content and attribute values.
pub(crate) fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

const STYLE: &str = "\
body{font-family:system-ui,sans-serif;font-size:28px;margin:1em 2em;background:#fff;color:#111}
h1{font-size:2em;margin:0 0 .2em}
h2{font-size:1.4em;margin:1.2em 0 .4em}
p.round{font-size:1.3em;margin:0}
p.meta{color:#555;margin:.2em 0 0}
table{border-collapse:collapse}
th,td{padding:.25em .6em;border-bottom:1px solid #ccc;text-align:right}
th{background:#222;color:#fff}
td.name,th.name{text-align:left}
tr:nth-child(even) td{background:#f2f2f2}
td.self{background:#999 !important}
td.withdrawn{color:#888;text-decoration:line-through}";

impl Tournament {
    /// The page: the tournament's name, "Round k of n", the standings and the crosstable.
    pub fn to_html(&self) -> String {
        self.to_html_in(Language::English)
    }

    /// [`Tournament::to_html`] in `language` (the director's).
    pub fn to_html_in(&self, language: Language) -> String {
        let l = language;
        let name = escape(self.name());
        let round = match self.state() {
            State::Registration => say(
                l,
                "registration",
                &[("count", number(u32::try_from(self.active_teams().len()).unwrap_or(u32::MAX)))],
            ),
            State::Started { total_rounds, .. } => say(
                l,
                if self.is_finished() { "round-of-final" } else { "round-of" },
                &[("round", number(self.current_round())), ("total", number(*total_rounds))],
            ),
        };
        let meta = say(l, "rules-line", &[("rules", text(self.rules())), ("tc", text(self.time_control()))]);
        let mut page = String::new();
        let _ = write!(
            page,
            "<!DOCTYPE html>\n<html lang=\"{}\">\n<head>\n<meta charset=\"utf-8\">\n<title>{name}</title>\n\
             <style>\n{STYLE}\n</style>\n</head>\n<body>\n<h1>{name}</h1>\n<p class=\"round\">{}</p>\n\
             <p class=\"meta\">{}</p>\n",
            l.code(),
            escape(&round),
            escape(&meta),
        );
        let th = |id: &str| escape(&word(l, id));
        let _ = write!(
            page,
            "<h2>{}</h2>\n<table>\n<tr><th>{}</th><th class=\"name\">{}</th><th>{}</th>",
            th("standings"),
            th("rank"),
            th("team"),
            th("points")
        );
        let _ = writeln!(
            page,
            "<th>{}</th><th>{}</th><th>{}</th><th>{}</th></tr>",
            th("direct-short"),
            th("buchholz"),
            th("sb"),
            th("wins")
        );
        for r in &self.standings().rows {
            let class = if r.withdrawn { "name withdrawn" } else { "name" };
            let _ = writeln!(
                page,
                "<tr><td>{}</td><td class=\"{class}\">{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td>\
                 <td>{}</td></tr>",
                r.rank,
                escape(&shown_name(&r.name, r.withdrawn, l)),
                r.points.fraction(),
                r.direct.fraction(),
                r.buchholz.fraction(),
                r.sonneborn_berger,
                r.wins,
            );
        }
        let _ = write!(
            page,
            "</table>\n<h2>{}</h2>\n<table>\n<tr><th>#</th><th class=\"name\">{}</th>",
            th("crosstable"),
            th("team")
        );
        let cross = self.crosstable();
        for j in 1..=cross.rows.len() {
            let _ = write!(page, "<th>{j}</th>");
        }
        let byes = cross.has_byes();
        if byes {
            let _ = write!(page, "<th>{}</th>", th("byes-short"));
        }
        let _ = writeln!(page, "<th>{}</th></tr>", th("points"));
        for (i, r) in cross.rows.iter().enumerate() {
            let _ = write!(page, "<tr><td>{}</td><td class=\"name\">{}</td>", i + 1, escape(&r.name));
            for (j, cell) in r.cells.iter().enumerate() {
                match cell {
                    _ if i == j => page.push_str("<td class=\"self\"></td>"),
                    Some(s) => {
                        let _ = write!(page, "<td>{}</td>", s.fraction());
                    }
                    None => page.push_str("<td></td>"),
                }
            }
            if byes {
                let shown = if r.byes > crate::Score::default() { r.byes.fraction() } else { String::new() };
                let _ = write!(page, "<td>{shown}</td>");
            }
            let _ = writeln!(page, "<td>{}</td></tr>", r.points.fraction());
        }
        page.push_str("</table>\n</body>\n</html>\n");
        page
    }
}
