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
//! 4. If no pairing without a repeat exists (a tiny field, a late round) — or the search exceeds
//!    its step budget — the bye candidates and pairings are tried again allowing repeats of
//!    meetings from round 1 only, then from rounds 1–2, and so on: the least recent meetings are
//!    repeated first, and within a search a new opponent is always preferred to a repeat. The
//!    round's note says how far this went and each repeated pairing is marked.

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
            if let Some(pairs) = search(&field, history, level, &mut steps) {
                return SwissRound {
                    pairs,
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

/// Pairs the whole field or returns `None` (also when the steps run out).
fn search(
    field: &[(TeamNo, Score)],
    history: &History,
    level: Option<u32>,
    steps: &mut u32,
) -> Option<Vec<(TeamNo, TeamNo)>> {
    let mut used = vec![false; field.len()];
    let mut pairs = Vec::with_capacity(field.len() / 2);
    if extend(field, history, level, steps, &mut used, &mut pairs) {
        Some(pairs.into_iter().map(|(i, j)| (field[i].0, field[j].0)).collect())
    } else {
        None
    }
}

fn extend(
    field: &[(TeamNo, Score)],
    history: &History,
    level: Option<u32>,
    steps: &mut u32,
    used: &mut [bool],
    pairs: &mut Vec<(usize, usize)>,
) -> bool {
    let Some(top) = used.iter().position(|u| !u) else { return true };
    used[top] = true;
    for j in candidates(field, history, top, used) {
        if *steps == 0 {
            break;
        }
        *steps -= 1;
        let allowed = match (history.met(field[top].0, field[j].0), level) {
            (None, _) => true,
            (Some(round), Some(upto)) => round <= upto,
            (Some(_), None) => false,
        };
        if !allowed {
            continue;
        }
        used[j] = true;
        pairs.push((top, j));
        if extend(field, history, level, steps, used, pairs) {
            return true;
        }
        pairs.pop();
        used[j] = false;
    }
    used[top] = false;
    false
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
