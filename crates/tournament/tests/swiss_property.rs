//! Random Swiss tournaments checked, round by round, against the FIDE Swiss principles that apply
//! to teams of two (issue 30, "Pairing quality").
//!
//! Why: the examples in swiss.rs pin a few draws by hand; a pairing rule can be right on those and
//! wrong on the draw a real night produces. Here thousands of random tournaments (3–40 teams, up
//! to 11 rounds, random results with draws, seeded or not, withdrawals before the start, between
//! rounds and in the middle of a round) are played, and after every round each principle is
//! checked against oracles written in this file — its own history of meetings, byes and who was
//! named first, its own tally of points, and its own exhaustive matchers — never the crate's
//! pairing code.
//!
//! The invariants, after every round `r` (the standings, byes and meetings are those before `r`;
//! the *field* is the active teams, *ranked* by the standings' rank and then the draw's seed
//! order, as the crate's docs say; a pairing is *allowed* if the two teams have not met, or, in a
//! round that repeats meetings, if they last met no later than the round's most recent repeated
//! meeting):
//!
//! * **I1 field**: every active team appears exactly once, paired or with the bye; withdrawn
//!   teams never appear; no team is paired with itself.
//! * **I2 bye**: a bye exactly when the field is odd, one; it goes to a team with the fewest byes
//!   so far; and every such team ranked below it (a better claim to the bye) could not have had
//!   it without the rest of the field needing a repeat, or a more recent repeat, than this round
//!   has (exhaustive matcher).
//! * **I3 repeats**: a round repeats a meeting only if, for every team that could have had the
//!   bye, the rest has no pairing without one; more exactly, no bye choice and pairing repeats
//!   only meetings older than this round's most recent repeated one (exhaustive matcher, every
//!   field size).
//! * **I4 flags**: [`Pairing::repeat`] is set exactly for teams that met before; the round's
//!   [`Round::note`] is there exactly when some pairing repeats, and names the round of the most
//!   recent repeated meeting.
//! * **I5 score groups**: number the score groups of the teams paired this round from the top;
//!   cut `k` lies between groups `k` and `k + 1`, and `c_k` counts the pairs with one team above
//!   the cut and one below (so `c_k` is at least, and has the parity of, the number of teams above
//!   it). The vector `(c_1, c_2, …)` is the lexicographically smallest among all allowed pairings
//!   of those teams: from the top group down, each group keeps as many of its teams at home as
//!   any allowed pairing can — the FIDE "maximise the pairs in the bracket, minimise the
//!   floaters", highest bracket first. Checked exhaustively (a dynamic programme over subsets)
//!   for up to 16 paired teams; the Dutch order within a group is not checked.
//! * **I6 named first**: with `b` = times named first − times named second so far: the team
//!   named first has the smaller `b`; if equal, it was named second in its latest pairing, or not
//!   paired before while the other was named first last time (alternation); if still equal, it
//!   is the higher-ranked. The bound this gives: a pairing never takes either team further from
//!   balance than the worse of the two was, except when both had the same `b`, when one of them
//!   must go one further (`max |b'| ≤ max(|b_x|, |b_y|) + [b_x = b_y]`); so `|b| ≤ 1` for every
//!   team whenever its opponents allow it.
//! * **I7 scores**: every team's points are the sum of its games (1, ½, 0; a forfeit 1 to the
//!   team present) and byes (2); ranks start at 1, never go down as points do, and are shared
//!   only by teams on equal points. A team withdrawing mid-round forfeits exactly its unplayed
//!   games to its opponent.
//!
//! Replay a failure: every message names the tournament's seed;
//! `SHVEDKA_SEED=<seed> cargo test -p shvedka-tournament --test swiss_property` plays that
//! tournament first. `SHVEDKA_TOURNAMENTS=<n>` changes how many are played.

mod common;

use std::collections::{HashMap, HashSet};

use common::{appearances, key, registered};
use shvedka_tournament::{
    Fixture, Format, GameResult, Outcome, ResultSource, Round, Score, Standings, State, TeamNo, Tournament,
};
use testkit::SplitMix;

/// The first tournament's seed when `SHVEDKA_SEED` is not set (so CI is reproducible).
const BASE_SEED: u64 = 0x5348_5645_444B_4130;
/// How many tournaments, when `SHVEDKA_TOURNAMENTS` is not set.
const TOURNAMENTS: u64 = 2000;
/// The largest number of paired teams for the exhaustive score-group oracle (I5).
const EXHAUSTIVE: usize = 16;

/// Which tournament and round a check is about, for every assertion message.
#[derive(Clone, Copy)]
struct Ctx {
    seed: u64,
    round: u32,
}

macro_rules! ensure {
    ($cond:expr, $ctx:expr, $inv:literal, $($msg:tt)+) => {
        if !$cond {
            panic!(
                "[{}] seed {} round {}: {} (replay: SHVEDKA_SEED={} cargo test -p shvedka-tournament --test swiss_property)",
                $inv, $ctx.seed, $ctx.round, format!($($msg)+), $ctx.seed
            );
        }
    };
}

/// What was seen, to report and to prove the random tournaments reach every case.
#[derive(Debug, Default)]
struct Coverage {
    tournaments: u64,
    rounds: u64,
    byes: u64,
    byes_passed_over: u64,
    withdrawals_before_start: u64,
    withdrawals_between_rounds: u64,
    withdrawals_mid_round: u64,
    fallbacks: u64,
    repeated_pairings: u64,
    exhaustive_score_checks: u64,
    rounds_with_floaters: u64,
    extra_floaters: u64,
    seeded: u64,
    max_imbalance: i32,
}

/// The rounds before one, as this test reads them (independently of the crate's own history).
#[derive(Default)]
struct Book {
    /// The latest round each pair met in.
    met: HashMap<(TeamNo, TeamNo), u32>,
    byes: HashMap<TeamNo, u32>,
    /// Times named first minus times named second.
    balance: HashMap<TeamNo, i32>,
    /// 0: named second in its latest pairing, 1: not paired yet, 2: named first.
    last: HashMap<TeamNo, u8>,
}

impl Book {
    fn of(rounds: &[Round]) -> Book {
        let mut b = Book::default();
        for r in rounds {
            for f in &r.fixtures {
                match f {
                    Fixture::Bye(t) => *b.byes.entry(*t).or_default() += 1,
                    Fixture::Pairing(p) => {
                        b.met.insert(key(p.first, p.second), r.number);
                        *b.balance.entry(p.first).or_default() += 1;
                        *b.balance.entry(p.second).or_default() -= 1;
                        b.last.insert(p.first, 2);
                        b.last.insert(p.second, 0);
                    }
                }
            }
        }
        b
    }
    fn met(&self, a: TeamNo, b: TeamNo) -> Option<u32> {
        self.met.get(&key(a, b)).copied()
    }
    fn byes(&self, t: TeamNo) -> u32 {
        self.byes.get(&t).copied().unwrap_or(0)
    }
    fn balance(&self, t: TeamNo) -> i32 {
        self.balance.get(&t).copied().unwrap_or(0)
    }
    fn last(&self, t: TeamNo) -> u8 {
        self.last.get(&t).copied().unwrap_or(1)
    }
}

/// Whether `teams` can all be paired using only pairs `ok` allows: exhaustive backtracking (the
/// most constrained team first), remembering the sets already shown unpairable.
fn pairable(teams: &[TeamNo], ok: &dyn Fn(TeamNo, TeamNo) -> bool) -> bool {
    fn go(free: u64, adj: &[u64], failed: &mut HashSet<u64>) -> bool {
        if free == 0 {
            return true;
        }
        if failed.contains(&free) {
            return false;
        }
        let mut pick = None;
        let mut bits = free;
        while bits != 0 {
            let i = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            let d = (adj[i] & free).count_ones();
            if pick.is_none_or(|(_, best)| d < best) {
                pick = Some((i, d));
            }
        }
        let Some((i, _)) = pick else { return true };
        let mut options = adj[i] & free;
        while options != 0 {
            let j = options.trailing_zeros() as usize;
            options &= options - 1;
            if go(free & !(1 << i) & !(1 << j), adj, failed) {
                return true;
            }
        }
        failed.insert(free);
        false
    }
    assert!(teams.len() <= 64);
    if teams.len() % 2 == 1 {
        return false;
    }
    let adj: Vec<u64> = teams
        .iter()
        .map(|&a| (0..teams.len()).filter(|&j| teams[j] != a && ok(a, teams[j])).fold(0, |m, j| m | (1 << j)))
        .collect();
    let all = if teams.is_empty() { 0 } else { u64::MAX >> (64 - teams.len()) };
    go(all, &adj, &mut HashSet::new())
}

/// The score group (0 = top) of each of `field`'s teams, and the number of groups.
fn groups(field: &[(TeamNo, Score)]) -> (Vec<usize>, usize) {
    let mut points: Vec<Score> = field.iter().map(|e| e.1).collect();
    points.sort_unstable_by(|a, b| b.cmp(a));
    points.dedup();
    let g = field.iter().map(|e| points.iter().position(|p| *p == e.1).unwrap_or(0)).collect();
    (g, points.len())
}

/// The cut vector (I5) of pairs of field indices, one digit of base 16 per cut, the top cut
/// most significant, so the numbers compare as the vectors do lexicographically (a cut is
/// crossed by at most 8 pairs of a field of 16).
fn cut_cost(g: &[usize], cuts: usize, i: usize, j: usize) -> u64 {
    let (lo, hi) = (g[i].min(g[j]), g[i].max(g[j]));
    (lo..hi).map(|k| 16u64.pow(u32::try_from(cuts - 1 - k).unwrap())).sum()
}

fn cut_vector(cost: u64, cuts: usize) -> Vec<u64> {
    (0..cuts).map(|k| (cost >> (4 * (cuts - 1 - k))) & 15).collect()
}

/// The smallest cut cost of an allowed pairing of `field` (at most 16 teams), if any: a dynamic
/// programme over the sets of teams paired, always pairing the first unpaired team.
fn min_cut_cost(field: &[(TeamNo, Score)], ok: &dyn Fn(TeamNo, TeamNo) -> bool) -> Option<u64> {
    const UNKNOWN: u64 = u64::MAX;
    const NONE: u64 = u64::MAX - 1;
    fn go(mask: usize, full: usize, cost: &[Vec<Option<u64>>], memo: &mut [u64]) -> u64 {
        if mask == full {
            return 0;
        }
        if memo[mask] != UNKNOWN {
            return memo[mask];
        }
        let i = (!mask).trailing_zeros() as usize;
        let mut best = NONE;
        for j in i + 1..cost.len() {
            if mask & (1 << j) != 0 {
                continue;
            }
            let Some(c) = cost[i][j] else { continue };
            let rest = go(mask | (1 << i) | (1 << j), full, cost, memo);
            if rest != NONE {
                best = best.min(rest + c);
            }
        }
        memo[mask] = best;
        best
    }
    let n = field.len();
    assert!(n <= EXHAUSTIVE && n.is_multiple_of(2));
    let (g, count) = groups(field);
    let cuts = count.max(1);
    let cost: Vec<Vec<Option<u64>>> = (0..n)
        .map(|i| (0..n).map(|j| ok(field[i].0, field[j].0).then(|| cut_cost(&g, cuts, i, j))).collect())
        .collect();
    let mut memo = vec![UNKNOWN; 1 << n];
    let best = go(0, (1 << n) - 1, &cost, &mut memo);
    (best != NONE).then_some(best)
}

/// The standings' rows of the active teams in the crate's documented pairing order: rank, then
/// seed (the draw's order).
fn ranked(t: &Tournament, standings: &Standings) -> Vec<(TeamNo, Score)> {
    let State::Started { draw, .. } = t.state() else { panic!("not started") };
    let active = t.active_teams();
    let seed = |team: TeamNo| draw.iter().position(|d| *d == team).unwrap_or(usize::MAX);
    let mut rows: Vec<_> = standings.rows.iter().filter(|r| active.contains(&r.team)).collect();
    rows.sort_by_key(|r| (r.rank, seed(r.team)));
    rows.iter().map(|r| (r.team, r.points)).collect()
}

/// I1–I6 for the round just paired. `ranked` and `book` are from before it.
fn check_pairing(ctx: Ctx, t: &Tournament, ranked: &[(TeamNo, Score)], book: &Book, cov: &mut Coverage) {
    let r = t.round(ctx.round).unwrap();
    let mut active = t.active_teams();
    active.sort();

    // I1 field.
    ensure!(
        appearances(r) == active,
        ctx,
        "I1 field",
        "appearances {:?}, active {:?}",
        appearances(r),
        active
    );
    for (_, p) in r.pairings() {
        ensure!(p.first != p.second, ctx, "I1 field", "{} paired with itself", p.first);
    }
    let rank_of = |team: TeamNo| ranked.iter().position(|e| e.0 == team).unwrap();

    // I4 flags, and the round's level: the most recent repeated meeting.
    let mut worst: Option<u32> = None;
    for (_, p) in r.pairings() {
        let met = book.met(p.first, p.second);
        ensure!(
            p.repeat == met.is_some(),
            ctx,
            "I4 flags",
            "{}–{} repeat {} but met in {met:?}",
            p.first,
            p.second,
            p.repeat
        );
        if let Some(m) = met {
            worst = Some(worst.map_or(m, |w| w.max(m)));
            cov.repeated_pairings += 1;
        }
    }
    ensure!(
        r.note.is_some() == worst.is_some(),
        ctx,
        "I4 flags",
        "note {:?} but most recent repeat {worst:?}",
        r.note
    );
    if let (Some(note), Some(w)) = (&r.note, worst) {
        ensure!(
            note.contains(&format!("round {w} or earlier")),
            ctx,
            "I4 flags",
            "note {note:?} does not name round {w}, the most recent repeated meeting"
        );
        cov.fallbacks += 1;
    }
    // The pairs the round's level allows, and those of the level below.
    let allowed = |a: TeamNo, b: TeamNo| book.met(a, b).is_none_or(|m| worst.is_some_and(|w| m <= w));
    let stricter = |a: TeamNo, b: TeamNo| book.met(a, b).is_none_or(|m| worst.is_some_and(|w| m < w));

    // I2 bye.
    let byes: Vec<TeamNo> = r.byes().collect();
    ensure!(byes.len() == active.len() % 2, ctx, "I2 bye", "byes {byes:?} for a field of {}", active.len());
    let fewest = active.iter().map(|&a| book.byes(a)).min().unwrap_or(0);
    // Lowest-ranked first: the order of the claims to the bye.
    let claims: Vec<TeamNo> =
        ranked.iter().rev().map(|e| e.0).filter(|&team| book.byes(team) == fewest).collect();
    let without = |out: Option<TeamNo>| -> Vec<TeamNo> {
        ranked.iter().map(|e| e.0).filter(|&team| Some(team) != out).collect()
    };
    if let Some(&bye) = byes.first() {
        cov.byes += 1;
        ensure!(
            book.byes(bye) == fewest,
            ctx,
            "I2 bye",
            "{bye} has {} byes, another team {fewest}",
            book.byes(bye)
        );
        let at = claims.iter().position(|&c| c == bye).unwrap();
        for &c in &claims[..at] {
            ensure!(
                !pairable(&without(Some(c)), &allowed),
                ctx,
                "I2 bye",
                "the bye went to {bye}, but {c} (lower-ranked, as few byes) could have had it with no more repeats"
            );
        }
        cov.byes_passed_over += u64::from(at > 0);
    }

    // I3 repeats: nothing less recent would have done, whoever had the bye.
    if worst.is_some() {
        let choices: Vec<Option<TeamNo>> =
            if active.len() % 2 == 1 { claims.iter().copied().map(Some).collect() } else { vec![None] };
        for out in choices {
            ensure!(
                !pairable(&without(out), &stricter),
                ctx,
                "I3 repeats",
                "repeats up to round {worst:?}, but with bye {out:?} a pairing repeating only older meetings exists"
            );
        }
    }

    // I5 score groups.
    let field: Vec<(TeamNo, Score)> = ranked.iter().copied().filter(|e| !byes.contains(&e.0)).collect();
    let (g, count) = groups(&field);
    let cuts = count.max(1);
    let index = |team: TeamNo| field.iter().position(|e| e.0 == team).unwrap();
    let pairs: Vec<(usize, usize)> = r.pairings().map(|(_, p)| (index(p.first), index(p.second))).collect();
    let got = if count > 1 && field.len() <= EXHAUSTIVE {
        pairs.iter().map(|&(i, j)| cut_cost(&g, cuts, i, j)).sum::<u64>()
    } else {
        0
    };
    let floaters = pairs.iter().filter(|&&(i, j)| g[i] != g[j]).count();
    cov.rounds_with_floaters += u64::from(floaters > 0);
    if count > 1 && field.len() <= EXHAUSTIVE {
        cov.exhaustive_score_checks += 1;
        let best = min_cut_cost(&field, &allowed);
        ensure!(
            best.is_some(),
            ctx,
            "I5 score groups",
            "the oracle finds no allowed pairing, yet one was made"
        );
        let best = best.unwrap();
        ensure!(
            got == best,
            ctx,
            "I5 score groups",
            "cut vector {:?}, but an allowed pairing has {:?}; field {:?}, pairs {:?}",
            cut_vector(got, cuts),
            cut_vector(best, cuts),
            field,
            r.pairings().map(|(_, p)| (p.first, p.second)).collect::<Vec<_>>()
        );
        // How many floated beyond the parity minimum (the evidence that the oracle bites).
        let parity: u64 =
            (0..cuts.saturating_sub(1)).map(|k| (g.iter().filter(|&&x| x <= k).count() % 2) as u64).sum();
        let crossings: u64 = cut_vector(got, cuts).iter().sum();
        cov.extra_floaters += u64::from(crossings > parity);
    }

    // I6 named first.
    for (_, p) in r.pairings() {
        let (x, y) = (p.first, p.second);
        let (bx, by) = (book.balance(x), book.balance(y));
        let rule = (bx, book.last(x), rank_of(x)) < (by, book.last(y), rank_of(y));
        ensure!(
            rule,
            ctx,
            "I6 named first",
            "{x} named first before {y}: balances {bx} and {by}, latest {} and {}, ranks {} and {}",
            book.last(x),
            book.last(y),
            rank_of(x),
            rank_of(y)
        );
        let after = (bx + 1).abs().max((by - 1).abs());
        let bound = bx.abs().max(by.abs()) + i32::from(bx == by);
        ensure!(after <= bound, ctx, "I6 named first", "{x}–{y}: imbalance {after} beyond {bound}");
        cov.max_imbalance = cov.max_imbalance.max(after);
    }
}

/// I7: the points of every entrant from this test's own tally, and the ranks.
fn check_scores(ctx: Ctx, t: &Tournament) {
    let mut points: HashMap<TeamNo, u32> = HashMap::new();
    for r in t.rounds() {
        for f in &r.fixtures {
            match f {
                Fixture::Bye(team) => *points.entry(*team).or_default() += 8,
                Fixture::Pairing(p) => {
                    for g in p.games.iter().filter_map(|g| g.result.as_ref()) {
                        let (a, b) = match g.outcome {
                            Outcome::FirstWins => (4, 0),
                            Outcome::SecondWins => (0, 4),
                            Outcome::Draw => (2, 2),
                        };
                        *points.entry(p.first).or_default() += a;
                        *points.entry(p.second).or_default() += b;
                    }
                }
            }
        }
    }
    let s = t.standings();
    ensure!(
        s.rows.len() == t.entrants().len(),
        ctx,
        "I7 scores",
        "{} rows for {} entrants",
        s.rows.len(),
        t.entrants().len()
    );
    for (i, row) in s.rows.iter().enumerate() {
        let want = Score(points.get(&row.team).copied().unwrap_or(0));
        ensure!(
            row.points == want,
            ctx,
            "I7 scores",
            "{} has {} points, its games and byes make {}",
            row.team,
            row.points,
            want
        );
        if i == 0 {
            ensure!(row.rank == 1, ctx, "I7 scores", "the top row has rank {}", row.rank);
            continue;
        }
        let prev = &s.rows[i - 1];
        ensure!(
            prev.points >= row.points,
            ctx,
            "I7 scores",
            "{} ({}) listed above {} ({})",
            prev.team,
            prev.points,
            row.team,
            row.points
        );
        let shared = row.rank == prev.rank;
        let fresh = row.rank == u32::try_from(i + 1).unwrap();
        ensure!(
            shared || fresh,
            ctx,
            "I7 scores",
            "row {} has rank {} after rank {}",
            i + 1,
            row.rank,
            prev.rank
        );
        ensure!(
            !shared || prev.points == row.points,
            ctx,
            "I7 scores",
            "{} and {} share rank {} on different points",
            prev.team,
            row.team,
            row.rank
        );
    }
}

/// A random result: a win either way or a draw.
fn random_result(rng: &mut SplitMix) -> GameResult {
    let outcome = [Outcome::FirstWins, Outcome::SecondWins, Outcome::Draw][rng.below(3)];
    GameResult::new(outcome, ResultSource::OverTheBoard, "random")
}

/// Records results for the round's open games, each with probability `share` (1: all).
fn play(t: &mut Tournament, round: u32, rng: &mut SplitMix, share: f64) {
    let open: Vec<(u32, u32)> = t
        .round(round)
        .unwrap()
        .pairings()
        .flat_map(|(table, p)| {
            (1..=2).filter(|&g| p.games[g as usize - 1].result.is_none()).map(move |g| (table, g))
        })
        .collect();
    for (table, game) in open {
        if share >= 1.0 || (rng.next_u64() % 1000) as f64 / 1000.0 < share {
            t.record_result(round, table, game, random_result(rng)).unwrap();
        }
    }
}

/// A random active team.
fn some_active(t: &Tournament, rng: &mut SplitMix) -> TeamNo {
    let active = t.active_teams();
    active[rng.below(active.len())]
}

/// Withdraws a team in the middle of round `round` and checks its unplayed games were forfeited to
/// its opponent and nothing else changed (I7).
fn withdraw_mid_round(ctx: Ctx, t: &mut Tournament, rng: &mut SplitMix) {
    let team = some_active(t, rng);
    let before = t.round(ctx.round).unwrap().clone();
    t.withdraw(team).unwrap();
    let after = t.round(ctx.round).unwrap();
    for ((_, was), (_, now)) in before.pairings().zip(after.pairings()) {
        for (g0, g1) in was.games.iter().zip(&now.games) {
            let mine = was.first == team || was.second == team;
            match (&g0.result, mine) {
                (Some(_), _) | (None, false) => {
                    ensure!(
                        g0.result == g1.result,
                        ctx,
                        "I7 scores",
                        "withdrawing {team} changed a result it should not"
                    )
                }
                (None, true) => {
                    let win = if was.first == team { Outcome::SecondWins } else { Outcome::FirstWins };
                    let ok = g1
                        .result
                        .as_ref()
                        .is_some_and(|r| r.outcome == win && r.source == ResultSource::Forfeit);
                    ensure!(
                        ok,
                        ctx,
                        "I7 scores",
                        "{team} withdrew; its unplayed game is {:?}, not a forfeit",
                        g1.result
                    );
                }
            }
        }
    }
}

/// Plays one random tournament, checking every round.
fn tournament(seed: u64, cov: &mut Coverage) {
    let mut rng = SplitMix(seed);
    // Half the tournaments small enough for the exhaustive score-group oracle.
    let n = if rng.coin() { 3 + rng.below(14) } else { 3 + rng.below(38) };
    let n = u32::try_from(n).unwrap();
    let rounds = 1 + u32::try_from(rng.below(11.min(n as usize + 1))).unwrap();
    let mut t = registered(Format::Swiss { rounds }, n);
    let ctx0 = Ctx { seed, round: 0 };
    if rng.below(3) == 0 {
        let mut order: Vec<TeamNo> = (1..=n).map(TeamNo).collect();
        for i in (1..order.len()).rev() {
            order.swap(i, rng.below(i + 1));
        }
        t.seed(&order).unwrap();
        cov.seeded += 1;
    }
    if n > 3 && rng.below(10) == 0 {
        t.withdraw(TeamNo(1 + u32::try_from(rng.below(n as usize)).unwrap())).unwrap();
        cov.withdrawals_before_start += 1;
    }
    t.start().unwrap();
    check_scores(ctx0, &t);
    for round in 1..=rounds {
        let ctx = Ctx { seed, round };
        if round > 1 && t.active_teams().len() > 2 && rng.below(6) == 0 {
            let team = some_active(&t, &mut rng);
            t.withdraw(team).unwrap();
            cov.withdrawals_between_rounds += 1;
        }
        let standings = t.standings();
        let order = ranked(&t, &standings);
        let book = Book::of(t.rounds());
        ensure!(t.pair_next_round(0, 1) == Ok(round), ctx, "I1 field", "round not paired");
        check_pairing(ctx, &t, &order, &book, cov);
        if t.active_teams().len() > 2 && rng.below(8) == 0 {
            play(&mut t, round, &mut rng, 0.5);
            withdraw_mid_round(ctx, &mut t, &mut rng);
            cov.withdrawals_mid_round += 1;
        }
        play(&mut t, round, &mut rng, 1.0);
        check_scores(ctx, &t);
        cov.rounds += 1;
    }
    ensure!(t.is_finished(), Ctx { seed, round: rounds }, "I1 field", "not finished after the last round");
    cov.tournaments += 1;
}

#[test]
fn random_swiss_tournaments_keep_the_fide_principles() {
    let env = |name: &str| {
        std::env::var(name).ok().map(|v| v.parse::<u64>().unwrap_or_else(|e| panic!("{name}={v}: {e}")))
    };
    let base = env("SHVEDKA_SEED").unwrap_or(BASE_SEED);
    let count = env("SHVEDKA_TOURNAMENTS").unwrap_or(TOURNAMENTS);
    let mut cov = Coverage::default();
    for i in 0..count {
        tournament(base.wrapping_add(i), &mut cov);
    }
    eprintln!("swiss_property: base seed {base}: {cov:?}");
    if count >= TOURNAMENTS {
        // The random tournaments reach every case the invariants are about.
        for (what, n) in [
            ("byes", cov.byes),
            ("byes passed over the lowest-ranked", cov.byes_passed_over),
            ("withdrawals before the start", cov.withdrawals_before_start),
            ("withdrawals between rounds", cov.withdrawals_between_rounds),
            ("withdrawals mid-round", cov.withdrawals_mid_round),
            ("fallback rounds", cov.fallbacks),
            ("repeated pairings", cov.repeated_pairings),
            ("exhaustive score-group checks", cov.exhaustive_score_checks),
            ("rounds with floaters", cov.rounds_with_floaters),
            ("rounds with floaters beyond parity", cov.extra_floaters),
            ("seeded tournaments", cov.seeded),
        ] {
            assert!(n > 0, "base seed {base}: no {what} in {count} tournaments: {cov:?}");
        }
        assert!(cov.max_imbalance >= 2, "base seed {base}: no team ever named first twice more than second");
    }
}
