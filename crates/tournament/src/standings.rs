//! Points and tie-breaks (the order and its reasons are in the crate docs).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::{Fixture, ResultSource, Score, TeamNo, Tournament};

/// What a bye scores: two points, as two games won.
pub const BYE_POINTS: Score = Score(8);

/// The standings, best first.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Standings {
    /// One row per entrant.
    pub rows: Vec<StandingRow>,
}

/// One team's line in the standings.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StandingRow {
    /// Its rank, from 1; teams equal on points and every tie-break share a rank.
    pub rank: u32,
    /// The team.
    pub team: TeamNo,
    /// Its name.
    pub name: String,
    /// Whether it has withdrawn.
    pub withdrawn: bool,
    /// Game points (1, ½, 0 a game; a bye 2; a forfeit 1 to the team present).
    pub points: Score,
    /// Points scored in games against the other teams on the same points, when all of them have
    /// met each other; 0 otherwise.
    pub direct: Score,
    /// Buchholz: the sum of the points of the opponents met, one term per pairing.
    pub buchholz: Score,
    /// Sonneborn–Berger: for each game, the points scored in it times the opponent's points.
    pub sonneborn_berger: Score,
    /// Games won at the board or online (not by forfeit, not byes).
    pub wins: u32,
}

/// One team's record: its points and whom it scored them against.
#[derive(Debug, Default)]
pub(crate) struct Tally {
    pub(crate) points: Score,
    pub(crate) wins: u32,
    /// Per pairing with at least one result: the opponent and the team's points in each decided
    /// game.
    pub(crate) meetings: Vec<(TeamNo, Vec<Score>)>,
}

/// The tallies of the entrants.
pub(crate) fn tallies(t: &Tournament) -> BTreeMap<TeamNo, Tally> {
    let mut tallies: BTreeMap<TeamNo, Tally> =
        t.entrants().into_iter().map(|e| (e, Tally::default())).collect();
    for round in t.rounds() {
        for fixture in &round.fixtures {
            let p = match fixture {
                Fixture::Bye(team) => {
                    if let Some(tally) = tallies.get_mut(team) {
                        tally.points = tally.points.plus(BYE_POINTS);
                    }
                    continue;
                }
                Fixture::Pairing(p) => p,
            };
            let decided: Vec<_> = p.games.iter().filter_map(|g| g.result.as_ref()).collect();
            if decided.is_empty() {
                continue;
            }
            for (me, opponent, mine) in [(p.first, p.second, true), (p.second, p.first, false)] {
                let Some(tally) = tallies.get_mut(&me) else { continue };
                let mut scores = Vec::new();
                for result in &decided {
                    let (q1, q2) = result.quarters();
                    let q = Score(if mine { q1 } else { q2 });
                    tally.points = tally.points.plus(q);
                    if q == Score::points(1) && result.source != ResultSource::Forfeit {
                        tally.wins = tally.wins.saturating_add(1);
                    }
                    scores.push(q);
                }
                tally.meetings.push((opponent, scores));
            }
        }
    }
    tallies
}

impl Tournament {
    /// The standings now, from the results recorded so far: points, then direct encounter,
    /// Buchholz, Sonneborn–Berger and games won; then team number for the order of teams sharing
    /// a rank.
    pub fn standings(&self) -> Standings {
        let tallies = tallies(self);
        let points = |t: &TeamNo| tallies.get(t).map_or(Score::ZERO, |x| x.points);
        let mut rows: Vec<StandingRow> = tallies
            .iter()
            .map(|(&team, tally)| {
                let mut buchholz = Score::ZERO;
                let mut sb = Score::ZERO;
                for (opponent, scores) in &tally.meetings {
                    let opp = points(opponent);
                    buchholz = buchholz.plus(opp);
                    for s in scores {
                        // Quarters times quarters over 4: game points (0, 2, 4) × opp / 4, exact
                        // because opponents' points are whole or half (even quarters).
                        sb = sb.plus(Score(s.0.saturating_mul(opp.0) / 4));
                    }
                }
                let team_ref = self.team(team);
                StandingRow {
                    rank: 0,
                    team,
                    name: team_ref.map(|t| t.name.clone()).unwrap_or_default(),
                    withdrawn: team_ref.is_some_and(|t| t.withdrawn),
                    points: tally.points,
                    direct: Score::ZERO,
                    buchholz,
                    sonneborn_berger: sb,
                    wins: tally.wins,
                }
            })
            .collect();
        // Direct encounter among exactly the teams tied on points, if they have all met.
        for row in &mut rows {
            let group: Vec<TeamNo> =
                tallies.iter().filter(|(_, x)| x.points == row.points).map(|(t, _)| *t).collect();
            if group.len() < 2 {
                continue;
            }
            let met = |a: &TeamNo, b: &TeamNo| {
                tallies.get(a).is_some_and(|x| x.meetings.iter().any(|(o, _)| o == b))
            };
            let all_met = group.iter().all(|a| group.iter().all(|b| a == b || met(a, b)));
            if all_met && let Some(tally) = tallies.get(&row.team) {
                row.direct = tally
                    .meetings
                    .iter()
                    .filter(|(o, _)| group.contains(o))
                    .flat_map(|(_, s)| s)
                    .fold(Score::ZERO, |a, s| a.plus(*s));
            }
        }
        let key = |r: &StandingRow| (r.points, r.direct, r.buchholz, r.sonneborn_berger, r.wins);
        rows.sort_by(|a, b| key(b).cmp(&key(a)).then(a.team.cmp(&b.team)));
        let mut rank = 0;
        for i in 0..rows.len() {
            if i == 0 || key(&rows[i]) != key(&rows[i - 1]) {
                rank = u32::try_from(i + 1).unwrap_or(u32::MAX);
            }
            rows[i].rank = rank;
        }
        Standings { rows }
    }
}
