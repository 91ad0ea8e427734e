//! Standings and crosstable as CSV (RFC 4180: comma-separated, CRLF line ends, a field holding a
//! comma, quote or line break in double quotes with its quotes doubled), for spreadsheets.

use crate::{Crosstable, Standings};

/// One field, quoted if it must be.
pub(crate) fn field(value: &str) -> String {
    if value.contains([',', '"', '\r', '\n']) {
        format!("\"{}\"", value.replace('"', "\"\""))
    } else {
        value.to_owned()
    }
}

fn record(fields: &[String]) -> String {
    let mut line = fields.iter().map(|f| field(f)).collect::<Vec<_>>().join(",");
    line.push_str("\r\n");
    line
}

impl Standings {
    /// The standings as CSV with a header row; scores as decimals (`1.5`).
    pub fn to_csv(&self) -> String {
        let header = [
            "Rank",
            "Team",
            "Points",
            "Direct encounter",
            "Buchholz",
            "Sonneborn-Berger",
            "Wins",
            "Withdrawn",
        ];
        let mut out = record(&header.map(str::to_owned));
        for r in &self.rows {
            out.push_str(&record(&[
                r.rank.to_string(),
                r.name.clone(),
                r.points.to_string(),
                r.direct.to_string(),
                r.buchholz.to_string(),
                r.sonneborn_berger.to_string(),
                r.wins.to_string(),
                if r.withdrawn { "yes" } else { "no" }.to_owned(),
            ]));
        }
        out
    }
}

impl Crosstable {
    /// The crosstable as CSV: header `No,Team,1,…,n,Byes,Points`; a cell is the score as a
    /// decimal, empty where the teams have not met and on the diagonal; `Byes` the points of the
    /// team's byes (0 without one), so that a row adds up to its points.
    pub fn to_csv(&self) -> String {
        let mut header = vec!["No".to_owned(), "Team".to_owned()];
        header.extend((1..=self.rows.len()).map(|j| j.to_string()));
        header.push("Byes".to_owned());
        header.push("Points".to_owned());
        let mut out = record(&header);
        for (i, r) in self.rows.iter().enumerate() {
            let mut fields = vec![(i + 1).to_string(), r.name.clone()];
            fields.extend(r.cells.iter().map(|c| c.map(|s| s.to_string()).unwrap_or_default()));
            fields.push(r.byes.to_string());
            fields.push(r.points.to_string());
            out.push_str(&record(&fields));
        }
        out
    }
}
