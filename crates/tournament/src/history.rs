//! What the pairing of a new round needs to know about the rounds before it.

use std::collections::BTreeMap;

use crate::{Fixture, Round, TeamNo};

/// Meetings, byes and who was named first, from the rounds paired so far.
#[derive(Debug, Default)]
pub(crate) struct History {
    /// For each pair of teams that met (smaller number first), the last round they met in.
    last_met: BTreeMap<(TeamNo, TeamNo), u32>,
    byes: BTreeMap<TeamNo, u32>,
    named_first: BTreeMap<TeamNo, u32>,
    /// Whether the team was named first in its latest pairing.
    last_named_first: BTreeMap<TeamNo, bool>,
}

impl History {
    pub(crate) fn of(rounds: &[Round]) -> History {
        let mut h = History::default();
        for round in rounds {
            for fixture in &round.fixtures {
                match fixture {
                    Fixture::Bye(t) => *h.byes.entry(*t).or_default() += 1,
                    Fixture::Pairing(p) => {
                        h.last_met.insert(key(p.first, p.second), round.number);
                        *h.named_first.entry(p.first).or_default() += 1;
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

    /// Who of two teams is named first: the one named first fewer times so far; if equal, the one
    /// named second in its latest pairing (so a team alternates); if still equal, `a` (the
    /// higher-ranked team in a Swiss, the left team of the Berger table in a round robin).
    pub(crate) fn order(&self, a: TeamNo, b: TeamNo) -> (TeamNo, TeamNo) {
        let count = |t| self.named_first.get(&t).copied().unwrap_or(0);
        let last = |t| self.last_named_first.get(&t).copied();
        let b_first = match count(a).cmp(&count(b)) {
            std::cmp::Ordering::Greater => true,
            std::cmp::Ordering::Less => false,
            std::cmp::Ordering::Equal => last(a) == Some(true) && last(b) != Some(true),
        };
        if b_first { (b, a) } else { (a, b) }
    }
}

fn key(a: TeamNo, b: TeamNo) -> (TeamNo, TeamNo) {
    if a <= b { (a, b) } else { (b, a) }
}
