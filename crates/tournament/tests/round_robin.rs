//! Round robin by Berger tables: every team meets every other once, one pairing of two games.

mod common;

use std::collections::{BTreeMap, BTreeSet};

use common::{appearances, byes, key, pairs, random_results, started};
use shvedka_tournament::{Format, GameResult, Outcome, ResultSource, State, TeamNo, TournamentError};
use testkit::SplitMix;

#[test]
fn round_robin_of_four_is_three_rounds_everyone_meets_once_both_games() {
    let mut t = started(Format::RoundRobin, 4);
    assert_eq!(t.total_rounds(), Some(3));
    let mut rng = SplitMix(4);
    let mut met = BTreeSet::new();
    for round in 1..=3 {
        assert_eq!(t.pair_next_round(0, 60_000), Ok(round));
        let r = t.round(round).unwrap();
        assert!(byes(r).is_empty());
        assert_eq!(appearances(r), (1..=4).map(TeamNo).collect::<Vec<_>>(), "round {round}");
        for (a, b) in pairs(r) {
            assert!(met.insert(key(a, b)), "{a} and {b} meet twice");
        }
        // One game decided is not enough: a round is both games of every pairing (S3).
        let table_games = r.pairings().count();
        assert_eq!(table_games, 2);
        t.record_result(round, 1, 1, GameResult::new(Outcome::Draw, ResultSource::OverTheBoard, "")).unwrap();
        assert!(!t.is_round_complete(round));
        assert_eq!(t.pair_next_round(0, 60_000), Err(TournamentError::RoundIncomplete(round)));
        random_results(&mut t, round, &mut rng);
        assert!(t.is_round_complete(round));
        assert_eq!(t.is_finished(), round == 3);
    }
    assert_eq!(met.len(), 6, "every pair of 4 teams met");
    assert_eq!(t.pair_next_round(0, 60_000), Err(TournamentError::NoRoundsLeft(3)));
    // Every pairing scored its two games: 2 points a pairing, 12 in all.
    let total: u32 = t.standings().rows.iter().map(|r| r.points.0).sum();
    assert_eq!(total, 12 * 4);
}

#[test]
fn round_robin_of_five_is_five_rounds_with_one_bye_each() {
    let mut t = started(Format::RoundRobin, 5);
    assert_eq!(t.total_rounds(), Some(5));
    let mut rng = SplitMix(5);
    let mut met = BTreeSet::new();
    let mut bye_count: BTreeMap<TeamNo, u32> = BTreeMap::new();
    for round in 1..=5 {
        t.pair_next_round(0, 60_000).unwrap();
        let r = t.round(round).unwrap();
        assert_eq!(byes(r).len(), 1, "round {round}");
        *bye_count.entry(byes(r)[0]).or_default() += 1;
        assert_eq!(appearances(r), (1..=5).map(TeamNo).collect::<Vec<_>>(), "round {round}");
        for (a, b) in pairs(r) {
            assert!(met.insert(key(a, b)));
        }
        random_results(&mut t, round, &mut rng);
    }
    assert_eq!(met.len(), 10);
    assert_eq!(bye_count.len(), 5);
    assert!(bye_count.values().all(|&n| n == 1), "{bye_count:?}");
    assert!(t.is_finished());
}

#[test]
fn berger_order_and_named_first_alternate_fairly() {
    for n in [4, 6, 8] {
        let mut t = started(Format::RoundRobin, n);
        let mut rng = SplitMix(u64::from(n));
        let mut first: BTreeMap<TeamNo, u32> = BTreeMap::new();
        while !t.is_finished() {
            let round = t.pair_next_round(0, 1).unwrap();
            for (a, _) in pairs(t.round(round).unwrap()) {
                *first.entry(a).or_default() += 1;
            }
            random_results(&mut t, round, &mut rng);
        }
        let (min, max) = (first.values().min().copied().unwrap_or(0), first.values().max().copied().unwrap());
        assert!(max - min <= 1, "{n} teams: named first {first:?}");
    }
}

#[test]
fn withdrawal_forfeits_open_games_and_gives_the_scheduled_opponent_a_bye() {
    let mut t = started(Format::RoundRobin, 4);
    t.pair_next_round(0, 1).unwrap();
    // Round 1 (Berger): 1–4 and 2–3. Team 4 withdraws after game 1 of its pairing was played.
    let (table, p) = t.round(1).unwrap().pairing_of(TeamNo(4)).unwrap();
    let win_4 = p.win_for(TeamNo(4)).unwrap();
    t.record_result(1, table, 1, GameResult::new(win_4, ResultSource::OverTheBoard, "mate")).unwrap();
    t.withdraw(TeamNo(4)).unwrap();
    let p = t.pairing_at(1, table).unwrap();
    assert_eq!(
        p.games[0].result.as_ref().unwrap().source,
        ResultSource::OverTheBoard,
        "played results stand"
    );
    let forfeit = p.games[1].result.as_ref().unwrap();
    assert_eq!(forfeit.source, ResultSource::Forfeit);
    assert_eq!(Some(forfeit.outcome), p.win_for(TeamNo(1)));
    assert_eq!(t.withdraw(TeamNo(4)), Err(TournamentError::AlreadyWithdrawn(TeamNo(4))));
    common::score(&mut t, 1, 2, 3, ['W', 'W']);
    // Round 2 (Berger): 4–3 and 1–2: team 3 gets a bye instead of meeting the withdrawn team.
    t.pair_next_round(0, 1).unwrap();
    let r = t.round(2).unwrap();
    assert_eq!(byes(r), [TeamNo(3)]);
    assert_eq!(appearances(r), [TeamNo(1), TeamNo(2), TeamNo(3)]);
    let points = |team| t.standings().rows.iter().find(|r| r.team == TeamNo(team)).unwrap().points;
    // Team 1: a lost game and a forfeit win = 1; team 3: lost 0–2 then the bye = 2.
    assert_eq!(points(1).to_string(), "1");
    assert_eq!(points(3).to_string(), "2");
    assert_eq!(points(4).to_string(), "1");
    let State::Started { draw, .. } = t.state() else { panic!() };
    assert_eq!(draw.len(), 4, "a team withdrawn after the start stays in the standings");
    assert!(t.standings().rows.iter().any(|r| r.team == TeamNo(4) && r.withdrawn));
}
