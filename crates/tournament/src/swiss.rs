//! The Swiss pairing of one round.
//!
//! 1. The active teams are ranked by the standings of the rounds so far (points, then the
//!    tie-breaks, then team number).
//! 2. With an odd number of teams one gets the bye: the lowest-ranked among the teams with the
//!    fewest byes — so no team has a second bye while another has none.
//! 3. The others are paired in rank order by backtracking. The highest unpaired team takes, in
//!    order of preference: the members of its own score group, starting from the one half the
//!    group below it (top half meets bottom half, as in the Dutch system: in a group of 5, 1–3 and
//!    2–4, and 5 floats); then the teams of the lower groups, highest first (the floater goes
//!    down to the top of the next group). Any pair that met before is forbidden. When the
//!    choice made for a team leaves the rest unpairable, the next candidate is tried.
//! 4. The first pairing found can float more teams out of a group than necessary (a choice at
//!    the top can strand a team below). So, from the top cut between score groups down, the
//!    search is run again, bounding the pairs that cross each cut, until each cut is crossed by
//!    as few pairs as any pairing (with the cuts above kept) allows: as FIDE's Dutch system
//!    does, each score group, highest first, keeps as many of its teams at home as it can, and
//!    floaters go where the group below can still be paired. This tightening shares the step
//!    budget; when it runs out, the best pairing found so far stands.
//! 5. If no pairing without a repeat exists (a tiny field, a late round) — or the search exceeds
//!    its step budget — the bye candidates and pairings are tried again allowing repeats of
//!    meetings from round 1 only, then from rounds 1–2, and so on: the least recent meetings are
//!    repeated first, and within a search a new opponent is always preferred to a repeat. The
//!    round's note says how far this went and each repeated pairing is marked.

use std::collections::HashSet;

use crate::{Score, TeamNo, history::History};

/// Steps the backtracking may take in one pairing of a round, over all its attempts.
const BUDGET: u32 = 200_000;

/// The outcome of pairing a round.
#[derive(Debug)]
pub(crate) struct SwissRound {
    /// The pairs, the higher-ranked team first, in rank order of that team.
    pub(crate) pairs: Vec<(TeamNo, TeamNo)>,
    pub(crate) bye: Option<TeamNo>,
    /// If repeats had to be allowed: meetings up to this round (`u32::MAX`: any).
    pub(crate) repeats_upto: Option<u32>,
}

/// Pairs `ranked` (the active teams with their points, best first).
pub(crate) fn pair_swiss(ranked: &[(TeamNo, Score)], history: &History, latest_round: u32) -> SwissRound {
    let bye_candidates: Vec<Option<usize>> = if ranked.len().is_multiple_of(2) {
        vec![None]
    } else {
        let fewest = ranked.iter().map(|(t, _)| history.byes(*t)).min().unwrap_or(0);
        (0..ranked.len()).rev().filter(|&i| history.byes(ranked[i].0) == fewest).map(Some).collect()
    };
    let mut budget = BUDGET;
    let levels = std::iter::once(None).chain((1..=latest_round).map(Some)).chain([Some(u32::MAX)]);
    for level in levels {
        for &bye in &bye_candidates {
            let field: Vec<(TeamNo, Score)> =
                ranked.iter().enumerate().filter(|(i, _)| Some(*i) != bye).map(|(_, e)| *e).collect();
            // The last level allows every pair: always pairable, and greedy, so no budget needed.
            let mut steps = if level == Some(u32::MAX) { u32::MAX } else { budget };
            if let Some(pairs) = search(&field, history, level, &mut steps, &[]) {
                let mut spare = steps.min(BUDGET);
                let pairs = fewest_floaters(&field, history, level, &mut spare, pairs);
                return SwissRound {
                    pairs: pairs.into_iter().map(|(i, j)| (field[i].0, field[j].0)).collect(),
                    bye: bye.and_then(|i| ranked.get(i)).map(|e| e.0),
                    repeats_upto: level,
                };
            }
            if level != Some(u32::MAX) {
                budget = steps;
            }
        }
    }
    // Unreachable (the last level pairs any even field), but never panic: pair neighbours.
    let bye = bye_candidates.first().copied().flatten();
    let field: Vec<TeamNo> =
        ranked.iter().enumerate().filter(|(i, _)| Some(*i) != bye).map(|(_, e)| e.0).collect();
    let pairs = field.chunks_exact(2).map(|c| (c[0], c[1])).collect();
    SwissRound { pairs, bye: bye.and_then(|i| ranked.get(i)).map(|e| e.0), repeats_upto: Some(u32::MAX) }
}

/// The score group of each team of `field` (0: the top group) and the number of cuts between
/// groups: cut `k` lies below group `k`.
fn groups(field: &[(TeamNo, Score)]) -> (Vec<usize>, usize) {
    let mut points: Vec<Score> = field.iter().map(|e| e.1).collect();
    points.sort_unstable_by(|a, b| b.cmp(a));
    points.dedup();
    let group = field.iter().map(|e| points.iter().position(|p| *p == e.1).unwrap_or(0)).collect();
    (group, points.len().saturating_sub(1))
}

/// The cuts a pair of teams in groups `a` and `b` crosses.
fn crossed(a: usize, b: usize) -> std::ops::Range<usize> {
    a.min(b)..a.max(b)
}

/// Step 4 of the module docs: from the top cut down, lowers the number of pairs crossing each cut
/// to the least any pairing allows with the cuts above kept, searching again with bounds.
fn fewest_floaters(
    field: &[(TeamNo, Score)],
    history: &History,
    level: Option<u32>,
    steps: &mut u32,
    mut best: Vec<(usize, usize)>,
) -> Vec<(usize, usize)> {
    let (group, cuts) = groups(field);
    let crossings = |pairs: &[(usize, usize)]| {
        let mut c = vec![0; cuts];
        for &(i, j) in pairs {
            crossed(group[i], group[j]).for_each(|k| c[k] += 1);
        }
        c
    };
    let mut now = crossings(&best);
    let mut limits = vec![usize::MAX; cuts];
    for k in 0..cuts {
        // The teams above a cut pair among themselves but for those crossing it: the parity of
        // their number is the least that can cross, and crossings change by two.
        let mut limit = group.iter().filter(|&&g| g <= k).count() % 2;
        while limit < now[k] {
            limits[k] = limit;
            if let Some(pairs) = search(field, history, level, steps, &limits) {
                now = crossings(&pairs);
                best = pairs;
            } else if *steps == 0 {
                return best;
            } else {
                limit += 2;
            }
        }
        limits[k] = now[k];
    }
    best
}

/// Pairs the whole field (as indices into it) with at most `limits[k]` pairs crossing cut `k`
/// (no bound past the end of `limits`), or returns `None` (also when the steps run out).
fn search(
    field: &[(TeamNo, Score)],
    history: &History,
    level: Option<u32>,
    steps: &mut u32,
    limits: &[usize],
) -> Option<Vec<(usize, usize)>> {
    let (group, cuts) = groups(field);
    let mut s = Search {
        field,
        history,
        level,
        group,
        limits: (0..cuts).map(|k| limits.get(k).copied().unwrap_or(usize::MAX)).collect(),
        crossing: vec![0; cuts],
        used: vec![false; field.len()],
        pairs: Vec::with_capacity(field.len() / 2),
        steps: *steps,
        failed: HashSet::new(),
    };
    let found = s.extend();
    *steps = s.steps;
    found.then_some(s.pairs)
}

/// The state of one backtracking search.
struct Search<'a> {
    field: &'a [(TeamNo, Score)],
    history: &'a History,
    level: Option<u32>,
    group: Vec<usize>,
    /// The most pairs that may cross each cut, and how many do so far.
    limits: Vec<usize>,
    crossing: Vec<usize>,
    used: Vec<bool>,
    pairs: Vec<(usize, usize)>,
    steps: u32,
    /// The states already shown to have no completion: the teams used and the crossings of the
    /// cuts the rest can still cross. Without it, proving that a bound cannot be met would
    /// pair the teams above a cut in every order again and again.
    failed: HashSet<(Vec<u64>, Vec<usize>)>,
}

impl Search<'_> {
    fn extend(&mut self) -> bool {
        let Some(top) = self.used.iter().position(|u| !u) else { return true };
        // Every team left is in `top`'s group or below: the cuts above it are settled.
        let mut bits = vec![0u64; self.used.len().div_ceil(64)];
        for (i, _) in self.used.iter().enumerate().filter(|(_, u)| **u) {
            bits[i / 64] |= 1 << (i % 64);
        }
        let state = (bits, self.crossing[self.group[top]..].to_vec());
        if self.failed.contains(&state) {
            return false;
        }
        self.used[top] = true;
        for j in candidates(self.field, self.history, top, &self.used) {
            if self.steps == 0 {
                break;
            }
            self.steps -= 1;
            let allowed = match (self.history.met(self.field[top].0, self.field[j].0), self.level) {
                (None, _) => true,
                (Some(round), Some(upto)) => round <= upto,
                (Some(_), None) => false,
            };
            let cuts = crossed(self.group[top], self.group[j]);
            if !allowed || cuts.clone().any(|k| self.crossing[k] >= self.limits[k]) {
                continue;
            }
            cuts.clone().for_each(|k| self.crossing[k] += 1);
            self.used[j] = true;
            self.pairs.push((top, j));
            if self.extend() {
                return true;
            }
            self.pairs.pop();
            self.used[j] = false;
            cuts.for_each(|k| self.crossing[k] -= 1);
        }
        self.used[top] = false;
        if self.steps > 0 {
            self.failed.insert(state);
        }
        false
    }
}

/// The opponents for `top` in order of preference (see the module docs): its score group from
/// half the group down, then the group's upper part, then lower groups in rank order; teams it
/// has not met before ahead of repeats, and repeats least recent first.
fn candidates(field: &[(TeamNo, Score)], history: &History, top: usize, used: &[bool]) -> Vec<usize> {
    let free = |i: &usize| !used[*i];
    let points = field[top].1;
    let group: Vec<usize> = (0..field.len()).filter(free).filter(|&i| field[i].1 == points).collect();
    // `top` is the first of its group, so the group is `top` plus `group`.
    let half = group.len().div_ceil(2);
    let start = half.saturating_sub(1).min(group.len());
    let mut order: Vec<usize> = group[start..].to_vec();
    order.extend(group[..start].iter().rev());
    order.extend((0..field.len()).filter(free).filter(|&i| field[i].1 != points));
    // Stable: keeps the preference order among new opponents and among repeats of one age.
    order.sort_by_key(|&j| history.met(field[top].0, field[j].0).map_or(0, |r| u64::from(r) + 1));
    order
}
