//! Helpers shared by the tournament tests.
#![allow(dead_code)]

use shvedka_tournament::{Fixture, Format, GameResult, Outcome, ResultSource, Round, TeamNo, Tournament};
use testkit::SplitMix;

/// A file under tests/data.
pub(crate) fn data(name: &str) -> String {
    let path = format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// A tournament with `n` teams "Team 1".."Team n" (players "P1a", "P1b", …), not started.
pub(crate) fn registered(format: Format, n: u32) -> Tournament {
    let mut t = Tournament::new("Spring Bughouse Night", "mgimo-2017", "3+2", format).unwrap();
    for i in 1..=n {
        let (name, a, b) = (format!("Team {i}"), format!("P{i}a"), format!("P{i}b"));
        assert_eq!(t.register(&name, [&a, &b]).unwrap(), TeamNo(i));
    }
    t
}

/// A started tournament with `n` teams.
pub(crate) fn started(format: Format, n: u32) -> Tournament {
    let mut t = registered(format, n);
    t.start().unwrap();
    t
}

/// The state as JSON, to compare before and after a refused command.
pub(crate) fn json(t: &Tournament) -> String {
    serde_json::to_string(t).unwrap()
}

/// The pairs of a round as (first, second).
pub(crate) fn pairs(round: &Round) -> Vec<(TeamNo, TeamNo)> {
    round.pairings().map(|(_, p)| (p.first, p.second)).collect()
}

/// The teams with a bye in a round.
pub(crate) fn byes(round: &Round) -> Vec<TeamNo> {
    round.byes().collect()
}

/// Records both games of the pairing of teams `a` and `b` in `round`, from `a`'s side: each
/// char `W` (a won), `D` (drawn) or `L` (a lost).
pub(crate) fn score(t: &mut Tournament, round: u32, a: u32, b: u32, games: [char; 2]) {
    let (table, first) = {
        let r = t.round(round).unwrap();
        let (table, p) = r.pairing_of(TeamNo(a)).unwrap();
        assert_eq!(p.opponent(TeamNo(a)), Some(TeamNo(b)), "round {round}: {a} does not meet {b}");
        (table, p.first == TeamNo(a))
    };
    for (game, c) in (1..).zip(games) {
        let outcome = match (c, first) {
            ('D', _) => Outcome::Draw,
            ('W', true) | ('L', false) => Outcome::FirstWins,
            _ => Outcome::SecondWins,
        };
        t.record_result(round, table, game, GameResult::new(outcome, ResultSource::OverTheBoard, "test"))
            .unwrap();
    }
}

/// Records a random result for every undecided game of a round.
pub(crate) fn random_results(t: &mut Tournament, round: u32, rng: &mut SplitMix) {
    let tables: Vec<(u32, [bool; 2])> = t
        .round(round)
        .unwrap()
        .pairings()
        .map(|(table, p)| (table, [p.games[0].result.is_none(), p.games[1].result.is_none()]))
        .collect();
    for (table, open) in tables {
        for (game, open) in (1..).zip(open) {
            if !open {
                continue;
            }
            let outcome = [Outcome::FirstWins, Outcome::SecondWins, Outcome::Draw][rng.below(3)];
            t.record_result(round, table, game, GameResult::new(outcome, ResultSource::Online, "random"))
                .unwrap();
        }
    }
}

/// Every team appearing in a round's fixtures, with repetitions.
pub(crate) fn appearances(round: &Round) -> Vec<TeamNo> {
    let mut all = Vec::new();
    for f in &round.fixtures {
        match f {
            Fixture::Pairing(p) => all.extend([p.first, p.second]),
            Fixture::Bye(t) => all.push(*t),
        }
    }
    all.sort();
    all
}

/// The unordered key of a pair.
pub(crate) fn key(a: TeamNo, b: TeamNo) -> (TeamNo, TeamNo) {
    if a < b { (a, b) } else { (b, a) }
}

/// Round robin of four (A = 1, B = 2, C = 3, D = 4), Berger rounds:
/// R1 A–D 2–0, B–C 2–0; R2 D–C 1–1 (a win each), A–B 1½–½ (win, draw);
/// R3 B–D 1–1 (two draws), C–A 1–1 (a win each).
/// Points: A 2+1½+1 = 4½, B 2+½+1 = 3½, C 0+1+1 = 2, D 0+1+1 = 2.
pub(crate) fn round_robin_of_four() -> Tournament {
    let mut t = started(Format::RoundRobin, 4);
    t.pair_next_round(0, 1).unwrap();
    score(&mut t, 1, 1, 4, ['W', 'W']);
    score(&mut t, 1, 2, 3, ['W', 'W']);
    t.pair_next_round(0, 1).unwrap();
    score(&mut t, 2, 4, 3, ['W', 'L']);
    score(&mut t, 2, 1, 2, ['W', 'D']);
    t.pair_next_round(0, 1).unwrap();
    score(&mut t, 3, 2, 4, ['D', 'D']);
    score(&mut t, 3, 3, 1, ['W', 'L']);
    assert!(t.is_finished());
    t
}
