//! What the pairing of a new round needs to know about the rounds before it.

use std::collections::BTreeMap;

use crate::{Fixture, Round, TeamNo};

/// Meetings, byes and who was named first, from the rounds paired so far.
#[derive(Debug, Default)]
pub(crate) struct History {
    /// For each pair of teams that met (smaller number first), the last round they met in.
    last_met: BTreeMap<(TeamNo, TeamNo), u32>,
    byes: BTreeMap<TeamNo, u32>,
    /// Times named first minus times named second (FIDE's colour difference).
    balance: BTreeMap<TeamNo, i64>,
    /// Whether the team was named first in its latest pairing.
    last_named_first: BTreeMap<TeamNo, bool>,
}

impl History {
    pub(crate) fn of(rounds: &[Round]) -> History {
        let mut h = History::default();
        for round in rounds {
            for fixture in &round.fixtures {
                match fixture {
                    Fixture::Bye(t) => bump(h.byes.entry(*t).or_default()),
                    Fixture::Pairing(p) => {
                        h.last_met.insert(key(p.first, p.second), round.number);
                        *h.balance.entry(p.first).or_default() += 1;
                        *h.balance.entry(p.second).or_default() -= 1;
                        h.last_named_first.insert(p.first, true);
                        h.last_named_first.insert(p.second, false);
                    }
                }
            }
        }
        h
    }

    /// The last round two teams met in.
    pub(crate) fn met(&self, a: TeamNo, b: TeamNo) -> Option<u32> {
        self.last_met.get(&key(a, b)).copied()
    }

    /// How many byes a team has had.
    pub(crate) fn byes(&self, team: TeamNo) -> u32 {
        self.byes.get(&team).copied().unwrap_or(0)
    }

    /// Who of two teams is named first: the one named first less often than second so far (the
    /// smaller first-minus-second; counting only times named first would favour a team that had
    /// a bye, which has played fewer pairings); if equal, the one named second in its latest
    /// pairing (so a team alternates), a team not yet paired ranking between that and one named
    /// first last time; if still equal, `a` (the higher-ranked team in a Swiss, the left team of
    /// the Berger table in a round robin).
    pub(crate) fn order(&self, a: TeamNo, b: TeamNo) -> (TeamNo, TeamNo) {
        // Lower goes first: the smaller balance; then named second last time, then not paired
        // before, then named first last time.
        let claim = |t| {
            let last = match self.last_named_first.get(&t) {
                Some(false) => 0,
                None => 1,
                Some(true) => 2,
            };
            (self.balance.get(&t).copied().unwrap_or(0), last)
        };
        if claim(b) < claim(a) { (b, a) } else { (a, b) }
    }
}

fn key(a: TeamNo, b: TeamNo) -> (TeamNo, TeamNo) {
    if a <= b { (a, b) } else { (b, a) }
}

fn bump(count: &mut u32) {
    *count = count.saturating_add(1);
}
