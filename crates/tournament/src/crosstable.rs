//! The crosstable: each team's score against each other team.

use serde::{Deserialize, Serialize};

use crate::standings::{BYE_POINTS, tallies};
use crate::{Score, TeamNo, Tournament};

/// The crosstable, in standings order: `rows[i].cells[j]` is team `i`'s score against team `j`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Crosstable {
    /// One row per entrant, best first.
    pub rows: Vec<CrossRow>,
}

/// One team's row of the crosstable.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CrossRow {
    /// Its rank in the standings.
    pub rank: u32,
    /// The team.
    pub team: TeamNo,
    /// Its name.
    pub name: String,
    /// Its points.
    pub points: Score,
    /// Its score against each team of the table, in row order: the points of its decided games
    /// against that team (of 2 a pairing; summed if a Swiss fallback paired them twice); `None`
    /// if they have not met, and on the diagonal.
    pub cells: Vec<Option<Score>>,
    /// The points its byes gave it (a row adds up to its points: its cells and its byes).
    pub byes: Score,
}

impl Crosstable {
    /// Whether a team had a bye (the column is shown only then).
    pub fn has_byes(&self) -> bool {
        self.rows.iter().any(|r| r.byes > Score::default())
    }
}

impl Tournament {
    /// The crosstable now.
    pub fn crosstable(&self) -> Crosstable {
        let tallies = tallies(self);
        let standings = self.standings();
        let order: Vec<TeamNo> = standings.rows.iter().map(|r| r.team).collect();
        let rows = standings
            .rows
            .into_iter()
            .map(|row| {
                let meetings = tallies.get(&row.team).map(|t| t.meetings.as_slice()).unwrap_or_default();
                let cells = order
                    .iter()
                    .map(|&other| {
                        meetings
                            .iter()
                            .filter(|(o, _)| *o == other)
                            .flat_map(|(_, s)| s)
                            .fold(None, |acc: Option<Score>, s| Some(acc.unwrap_or_default().plus(*s)))
                    })
                    .collect();
                let byes = self
                    .rounds()
                    .iter()
                    .filter(|r| r.byes().any(|b| b == row.team))
                    .fold(Score::default(), |sum, _| sum.plus(BYE_POINTS));
                CrossRow { rank: row.rank, team: row.team, name: row.name, points: row.points, cells, byes }
            })
            .collect();
        Crosstable { rows }
    }
}
