//! Swiss pairing: score groups, no repeats, byes in rotation, the fallback for tiny fields.

mod common;

use std::collections::{BTreeMap, BTreeSet};

use common::{appearances, byes, key, pairs, random_results, score, started};
use shvedka_tournament::{Format, TeamNo, Tournament};
use testkit::SplitMix;

/// Checks one round against the rounds before it: every active team plays or has the bye exactly
/// once, withdrawn teams are absent, a bye only for an odd field and never a second bye while
/// another active team has none, and no repeated pairing unless the round says so.
fn check_round(
    t: &Tournament,
    round: u32,
    met: &mut BTreeSet<(TeamNo, TeamNo)>,
    bye_count: &mut BTreeMap<TeamNo, u32>,
) {
    let r = t.round(round).unwrap();
    let active = t.active_teams();
    assert_eq!(appearances(r), active, "round {round}: each active team exactly once");
    let round_byes = byes(r);
    assert_eq!(round_byes.len(), active.len() % 2, "round {round}: a bye only for an odd field");
    for b in &round_byes {
        let fewest = active.iter().map(|a| bye_count.get(a).copied().unwrap_or(0)).min().unwrap();
        assert_eq!(
            bye_count.get(b).copied().unwrap_or(0),
            fewest,
            "round {round}: {b} has a second bye too soon"
        );
        *bye_count.entry(*b).or_default() += 1;
    }
    for (_, p) in r.pairings() {
        let new = met.insert(key(p.first, p.second));
        assert_eq!(p.repeat, !new, "round {round}: repeat flag of {} – {}", p.first, p.second);
        if !new {
            assert!(r.note.is_some(), "round {round}: a repeat without the fallback note");
        }
    }
}

#[test]
fn swiss_of_seven_over_three_rounds_never_repeats_and_rotates_the_bye() {
    let (base, _say) = testkit::seeded(0);
    for seed in 0..30 {
        let mut t = started(Format::Swiss { rounds: 3 }, 7);
        let mut rng = SplitMix(base.wrapping_add(seed));
        let (mut met, mut bye_count) = (BTreeSet::new(), BTreeMap::new());
        for round in 1..=3 {
            assert_eq!(t.pair_next_round(0, 1), Ok(round));
            check_round(&t, round, &mut met, &mut bye_count);
            assert!(
                t.round(round).unwrap().note.is_none(),
                "seed {seed} round {round}: 7 teams need no repeat"
            );
            random_results(&mut t, round, &mut rng);
        }
        assert_eq!(bye_count.len(), 3, "seed {seed}: three different teams had the byes");
        assert!(t.is_finished());
    }
}

#[test]
fn swiss_score_groups_leaders_meet_and_the_lowest_team_gets_the_bye() {
    let mut t = started(Format::Swiss { rounds: 3 }, 7);
    t.pair_next_round(0, 1).unwrap();
    // Round 1: all on 0, ranked by number; the lowest (7) has the bye; the group of six pairs
    // top half against bottom half: 1–4, 2–5, 3–6.
    let r1 = t.round(1).unwrap();
    assert_eq!(pairs(r1), [(TeamNo(1), TeamNo(4)), (TeamNo(2), TeamNo(5)), (TeamNo(3), TeamNo(6))]);
    assert_eq!(byes(r1), [TeamNo(7)]);
    score(&mut t, 1, 1, 4, ['W', 'W']);
    score(&mut t, 1, 2, 5, ['W', 'L']);
    score(&mut t, 1, 3, 6, ['D', 'D']);
    // Now 1 and 7 lead on 2; 2, 5, 3, 6 have 1 (2 and 5 ahead on games won); 4 has 0.
    t.pair_next_round(0, 1).unwrap();
    let r2 = t.round(2).unwrap();
    let (_, top) = r2.pairings().next().unwrap();
    assert_eq!(key(top.first, top.second), (TeamNo(1), TeamNo(7)), "the leaders meet at table 1");
    let rest: BTreeSet<_> = pairs(r2).into_iter().skip(1).map(|(a, b)| key(a, b)).collect();
    assert_eq!(rest, BTreeSet::from([(TeamNo(2), TeamNo(3)), (TeamNo(5), TeamNo(6))]), "the 1-point group");
    assert_eq!(byes(r2), [TeamNo(4)], "the lowest-ranked team without a bye");
}

#[test]
fn swiss_floats_the_odd_team_down_and_backtracks_around_repeats() {
    // Five teams. Round 1: 1–3, 2–4, bye 5. Results leave 1 and 5 on 2, 2 on 1½, 4 on ½, 3 on 0.
    let mut t = started(Format::Swiss { rounds: 2 }, 5);
    t.pair_next_round(0, 1).unwrap();
    assert_eq!(pairs(t.round(1).unwrap()), [(TeamNo(1), TeamNo(3)), (TeamNo(2), TeamNo(4))]);
    score(&mut t, 1, 1, 3, ['W', 'W']);
    score(&mut t, 1, 2, 4, ['W', 'D']);
    // Round 2: 3 (lowest without a bye) sits out. 1–5 would leave 2–4, a repeat: the search
    // backtracks to 1–2 and 5–4 (5 floats down to 4).
    t.pair_next_round(0, 1).unwrap();
    let r2 = t.round(2).unwrap();
    assert_eq!(byes(r2), [TeamNo(3)]);
    let got: BTreeSet<_> = pairs(r2).into_iter().map(|(a, b)| key(a, b)).collect();
    assert_eq!(got, BTreeSet::from([(TeamNo(1), TeamNo(2)), (TeamNo(4), TeamNo(5))]));
    assert!(r2.note.is_none());
}

#[test]
fn swiss_tiny_field_falls_back_to_the_least_recent_repeat() {
    // Three teams, four rounds: after three rounds every pair has met once (1–2, then the other
    // two pairs) and every team has had one bye. Round 4 must repeat: the oldest meeting, 1–2.
    let mut t = started(Format::Swiss { rounds: 4 }, 3);
    let mut rng = SplitMix(3);
    let (mut met, mut bye_count) = (BTreeSet::new(), BTreeMap::new());
    for round in 1..=3 {
        t.pair_next_round(0, 1).unwrap();
        check_round(&t, round, &mut met, &mut bye_count);
        assert!(t.round(round).unwrap().note.is_none());
        random_results(&mut t, round, &mut rng);
    }
    assert_eq!(pairs(t.round(1).unwrap()), [(TeamNo(1), TeamNo(2))]);
    t.pair_next_round(0, 1).unwrap();
    check_round(&t, 4, &mut met, &mut bye_count);
    let r4 = t.round(4).unwrap();
    let (_, p) = r4.pairings().next().unwrap();
    assert_eq!(key(p.first, p.second), (TeamNo(1), TeamNo(2)));
    assert!(p.repeat);
    assert!(r4.note.as_deref().unwrap().contains("round 1 or earlier"), "{:?}", r4.note);
    assert!(t.pairing_sheet(4, 0).unwrap().contains("(repeat pairing)"));
}

#[test]
fn swiss_of_two_teams_repeats_with_a_note() {
    let mut t = started(Format::Swiss { rounds: 2 }, 2);
    let mut rng = SplitMix(2);
    t.pair_next_round(0, 1).unwrap();
    random_results(&mut t, 1, &mut rng);
    t.pair_next_round(0, 1).unwrap();
    let r2 = t.round(2).unwrap();
    assert!(r2.note.is_some());
    assert!(r2.pairings().all(|(_, p)| p.repeat));
}

#[test]
fn swiss_of_nine_over_five_rounds_with_random_results_and_a_withdrawal() {
    let mut fallbacks = 0;
    let (base, _say) = testkit::seeded(0);
    for seed in 0..40 {
        let mut t = started(Format::Swiss { rounds: 5 }, 9);
        let mut rng = SplitMix(base.wrapping_add(1000 + seed));
        let (mut met, mut bye_count) = (BTreeSet::new(), BTreeMap::new());
        for round in 1..=5 {
            if round == 3 && seed % 2 == 0 {
                // A random team withdraws between rounds: eight remain, no more byes.
                let team = TeamNo(1 + u32::try_from(rng.below(9)).unwrap());
                t.withdraw(team).unwrap();
                bye_count.remove(&team);
            }
            assert_eq!(t.pair_next_round(0, 1), Ok(round));
            check_round(&t, round, &mut met, &mut bye_count);
            fallbacks += usize::from(t.round(round).unwrap().note.is_some());
            random_results(&mut t, round, &mut rng);
        }
        assert!(t.is_finished());
    }
    assert_eq!(fallbacks, 0, "nine teams over five rounds never need a repeat");
}

#[test]
fn named_first_alternates_fairly_in_a_swiss() {
    // The team named first fewer times is named first; on equal counts the one named second last
    // time. Over a Swiss every team is named first about half the time it plays.
    let (base, _say) = testkit::seeded(0);
    for seed in 0..20 {
        let mut t = started(Format::Swiss { rounds: 6 }, 8);
        let mut rng = SplitMix(base.wrapping_add(seed));
        let mut balance: BTreeMap<TeamNo, i32> = BTreeMap::new();
        for round in 1..=6 {
            t.pair_next_round(0, 1).unwrap();
            for (first, second) in pairs(t.round(round).unwrap()) {
                *balance.entry(first).or_default() += 1;
                *balance.entry(second).or_default() -= 1;
            }
            random_results(&mut t, round, &mut rng);
        }
        assert!(balance.values().all(|b| b.abs() <= 2), "seed {seed}: first minus second {balance:?}");
    }
}

#[test]
fn swiss_seeded_by_rating_pairs_the_first_round_by_seed_and_breaks_ties_by_it() {
    let mut t = Tournament::new("Seeded", "mgimo-2017", "3+0", Format::Swiss { rounds: 3 }).unwrap();
    for (i, players) in
        [["a1", "a2"], ["b1", "b2"], ["c1", "c2"], ["d1", "d2"], ["e1", "e2"]].iter().enumerate()
    {
        t.register(&format!("team {i}"), [players[0], players[1]]).unwrap();
    }
    let seeds = [TeamNo(4), TeamNo(2), TeamNo(5), TeamNo(1), TeamNo(3)];
    assert!(t.seed(&seeds[..4]).is_err(), "a seeding leaves no team out");
    assert!(t.seed(&[TeamNo(4), TeamNo(4), TeamNo(5), TeamNo(1), TeamNo(3)]).is_err(), "nor lists one twice");
    t.seed(&seeds).unwrap();
    assert_eq!(t.seeds(), Some(&seeds[..]));
    t.start().unwrap();
    assert!(t.seed(&seeds).is_err(), "the seeding is fixed at the start");
    t.pair_next_round(0, 1).unwrap();
    // All on 0: ranked by seed (4, 2, 5, 1, 3); the lowest seed (3) has the bye; top half
    // against bottom half of the other four: 4–5, 2–1.
    let r1 = t.round(1).unwrap();
    assert_eq!(pairs(r1), [(TeamNo(4), TeamNo(5)), (TeamNo(2), TeamNo(1))]);
    assert_eq!(byes(r1), [TeamNo(3)]);
    // The seeding survives a save and a load.
    let back: Tournament = serde_json::from_str(&serde_json::to_string(&t).unwrap()).unwrap();
    assert_eq!(back, t);
}

#[test]
fn swiss_floater_is_chosen_so_the_group_below_pairs_at_home() {
    // Found by the random-tournament property test (swiss_property.rs, I5). Six teams; after two
    // rounds 3 leads alone on 3, 1 and 2 share 2½, 5 has 2, 4 and 6 have 1; 2 has met 5.
    let mut t = started(Format::Swiss { rounds: 3 }, 6);
    t.pair_next_round(0, 1).unwrap();
    assert_eq!(
        pairs(t.round(1).unwrap()),
        [(TeamNo(1), TeamNo(4)), (TeamNo(2), TeamNo(5)), (TeamNo(3), TeamNo(6))]
    );
    score(&mut t, 1, 1, 4, ['L', 'W']);
    score(&mut t, 1, 2, 5, ['W', 'W']);
    score(&mut t, 1, 3, 6, ['W', 'L']);
    t.pair_next_round(0, 1).unwrap();
    let r2: BTreeSet<_> = pairs(t.round(2).unwrap()).into_iter().map(|(a, b)| key(a, b)).collect();
    assert_eq!(r2, BTreeSet::from([(TeamNo(1), TeamNo(2)), (TeamNo(3), TeamNo(4)), (TeamNo(5), TeamNo(6))]));
    score(&mut t, 2, 1, 2, ['W', 'D']);
    score(&mut t, 2, 3, 4, ['W', 'W']);
    score(&mut t, 2, 5, 6, ['W', 'W']);
    // 3 floats into the 2½ group. Taking 1 (the top of that group) would leave 2 to float past 5
    // (met) to 6, and 5 down to 4: two pairs across the 2 / 1 cut. Taking 2 lets 1 meet 5 and
    // 4 meet 6 at home, as FIDE's Dutch system has it.
    t.pair_next_round(0, 1).unwrap();
    let r3: BTreeSet<_> = pairs(t.round(3).unwrap()).into_iter().map(|(a, b)| key(a, b)).collect();
    assert_eq!(r3, BTreeSet::from([(TeamNo(2), TeamNo(3)), (TeamNo(1), TeamNo(5)), (TeamNo(4), TeamNo(6))]));
    assert!(t.round(3).unwrap().note.is_none());
}

#[test]
fn named_first_goes_by_first_minus_second_so_a_bye_does_not_count() {
    // Found by the random-tournament property test (swiss_property.rs, I6). Five teams: 5 has
    // had the bye and been named first once (first minus second +1); 3 has been named second,
    // then first (0). Counting only times named first, both have 1 and both were first last
    // time, so the higher-ranked 5 would be first again, at +2. By first minus second, 3 is.
    let mut t = started(Format::Swiss { rounds: 3 }, 5);
    t.pair_next_round(0, 1).unwrap();
    assert_eq!(pairs(t.round(1).unwrap()), [(TeamNo(1), TeamNo(3)), (TeamNo(2), TeamNo(4))]);
    assert_eq!(byes(t.round(1).unwrap()), [TeamNo(5)]);
    score(&mut t, 1, 1, 3, ['D', 'L']);
    score(&mut t, 1, 2, 4, ['L', 'W']);
    t.pair_next_round(0, 1).unwrap();
    assert_eq!(pairs(t.round(2).unwrap()), [(TeamNo(5), TeamNo(2)), (TeamNo(3), TeamNo(4))]);
    assert_eq!(byes(t.round(2).unwrap()), [TeamNo(1)]);
    score(&mut t, 2, 5, 2, ['W', 'D']);
    score(&mut t, 2, 3, 4, ['D', 'D']);
    // 5 leads on 3½, then 3 and 1 on 2½.
    t.pair_next_round(0, 1).unwrap();
    let (_, p) = t.round(3).unwrap().pairing_of(TeamNo(5)).unwrap();
    assert_eq!((p.first, p.second), (TeamNo(3), TeamNo(5)));
}
