//! Finding a game (issue 18): which seeks make a match, with which teams and seats.

use shvedka_pairing::{Party, Pool, Refusal, Seeker, Terms, Window};

fn terms(tc: &str, rated: bool) -> Terms {
    Terms { time_control: tc.into(), rules: "mgimo-2017".into(), rated }
}

fn single(account: u64, rating: f64) -> Party {
    Party::Single(Seeker::person(account, rating))
}

fn pair(a: u64, b: u64, rating: f64) -> Party {
    Party::Pair([Seeker::person(a, rating), Seeker::person(b, rating)])
}

fn no_random() -> impl FnMut() -> u64 {
    || 0
}

fn teams_of(seats: &[Seeker; 4]) -> [[u64; 2]; 2] {
    // Team 1: White A and Black B; team 2: Black A and White B (S1).
    let mut one = [seats[0].account, seats[3].account];
    let mut two = [seats[1].account, seats[2].account];
    one.sort_unstable();
    two.sort_unstable();
    let mut teams = [one, two];
    teams.sort_unstable();
    teams
}

#[test]
fn four_singles_make_one_match_with_the_strongest_beside_the_weakest() {
    let mut pool = Pool::new(100);
    let t = terms("3+0", true);
    for (account, rating) in [(1, 1500.0), (2, 1600.0), (3, 1450.0), (4, 1550.0)] {
        pool.add(single(account, rating), t.clone(), Window::fixed(200.0), 0).unwrap();
        if account < 4 {
            assert!(pool.form(0, no_random()).is_empty(), "not yet four");
        }
    }
    let formed = pool.form(0, no_random());
    assert_eq!(formed.len(), 1);
    assert_eq!(formed[0].terms, t);
    // 1600 + 1450 against 1550 + 1500: team means 1525 and 1525.
    assert_eq!(teams_of(&formed[0].seats), [[1, 4], [2, 3]]);
    assert!(pool.seeks().is_empty(), "the four seeks are taken");
}

#[test]
fn a_pair_and_two_singles_make_a_match_the_singles_a_team() {
    let mut pool = Pool::new(100);
    let t = terms("2+0", false);
    pool.add(single(5, 1500.0), t.clone(), Window::fixed(300.0), 0).unwrap();
    pool.add(pair(1, 2, 1500.0), t.clone(), Window::fixed(300.0), 0).unwrap();
    assert!(pool.form(0, no_random()).is_empty());
    pool.add(single(6, 1500.0), t.clone(), Window::fixed(300.0), 0).unwrap();
    let formed = pool.form(0, no_random());
    assert_eq!(formed.len(), 1);
    assert_eq!(teams_of(&formed[0].seats), [[1, 2], [5, 6]], "the partners stay together");
}

#[test]
fn two_pairs_make_a_match() {
    let mut pool = Pool::new(100);
    let t = terms("1+0", true);
    pool.add(pair(1, 2, 1500.0), t.clone(), Window::fixed(100.0), 0).unwrap();
    pool.add(pair(3, 4, 1550.0), t.clone(), Window::fixed(100.0), 0).unwrap();
    let formed = pool.form(0, no_random());
    assert_eq!(teams_of(&formed[0].seats), [[1, 2], [3, 4]]);
}

#[test]
fn incompatible_seeks_stay_apart() {
    let mut pool = Pool::new(100);
    // Different time controls, rated against casual, different rules: never together.
    pool.add(single(1, 1500.0), terms("3+0", true), Window::quick(), 0).unwrap();
    pool.add(single(2, 1500.0), terms("5+0", true), Window::quick(), 0).unwrap();
    pool.add(single(3, 1500.0), terms("3+0", false), Window::quick(), 0).unwrap();
    let other_rules = Terms { rules: "classic".into(), ..terms("3+0", true) };
    pool.add(single(4, 1500.0), other_rules, Window::quick(), 0).unwrap();
    assert!(pool.form(3_600_000, no_random()).is_empty(), "an hour later still apart");
    // Out of each other's rating range: apart while the windows are fixed.
    let mut pool = Pool::new(100);
    let t = terms("3+0", true);
    for (account, rating) in [(1, 1200.0), (2, 1250.0), (3, 1900.0), (4, 1950.0)] {
        pool.add(single(account, rating), t.clone(), Window::fixed(200.0), 0).unwrap();
    }
    assert!(pool.form(3_600_000, no_random()).is_empty());
    assert_eq!(pool.seeks().len(), 4, "nothing taken");
}

#[test]
fn a_quick_window_widens_until_far_apart_players_meet() {
    let mut pool = Pool::new(100);
    let t = terms("3+0", true);
    for (account, rating) in [(1, 1200.0), (2, 1250.0), (3, 1700.0), (4, 1750.0)] {
        pool.add(single(account, rating), t.clone(), Window::quick(), 0).unwrap();
    }
    // 550 points apart at most: ± 150 + 25/s reaches 550 after 16 s.
    assert!(pool.form(15_000, no_random()).is_empty(), "too far apart after 15 s");
    let formed = pool.form(16_000, no_random());
    assert_eq!(formed.len(), 1, "together after 16 s");
    assert_eq!(teams_of(&formed[0].seats), [[1, 4], [2, 3]], "1750 + 1200 against 1700 + 1250");
}

#[test]
fn the_longest_waiting_are_matched_first() {
    let mut pool = Pool::new(100);
    let t = terms("3+0", false);
    for account in 1..=6 {
        pool.add(single(account, 1500.0), t.clone(), Window::fixed(100.0), account * 1000).unwrap();
    }
    let formed = pool.form(10_000, no_random());
    assert_eq!(formed.len(), 1);
    let mut players: Vec<u64> = formed[0].seats.iter().map(|s| s.account).collect();
    players.sort_unstable();
    assert_eq!(players, vec![1, 2, 3, 4]);
    assert_eq!(pool.seeks().iter().map(|s| s.party.members()[0].account).collect::<Vec<_>>(), vec![5, 6]);
}

#[test]
fn many_seeks_form_as_many_matches_as_they_make() {
    let mut pool = Pool::new(1000);
    let t = terms("1+0", true);
    for account in 0..402 {
        let rating = 1000.0 + (account % 20) as f64 * 50.0;
        pool.add(single(account, rating), t.clone(), Window::quick(), 0).unwrap();
    }
    let formed = pool.form(120_000, no_random());
    assert_eq!(formed.len(), 100, "402 singles make 100 matches");
    assert_eq!(pool.seeks().len(), 2);
    let mut seen = std::collections::HashSet::new();
    for m in &formed {
        for s in m.seats {
            assert!(seen.insert(s.account), "a player in one match only");
        }
    }
}

#[test]
fn a_player_seeks_once_a_pair_is_two_players_and_the_pool_is_bounded() {
    let mut pool = Pool::new(3);
    let t = terms("3+0", true);
    let first = pool.add(single(1, 1500.0), t.clone(), Window::quick(), 0).unwrap();
    assert_eq!(pool.add(single(1, 1500.0), t.clone(), Window::quick(), 0), Err(Refusal::AlreadySeeking(1)));
    assert_eq!(pool.add(pair(2, 1, 1500.0), t.clone(), Window::quick(), 0), Err(Refusal::AlreadySeeking(1)));
    assert_eq!(pool.add(pair(7, 7, 1500.0), t.clone(), Window::quick(), 0), Err(Refusal::SamePartner));
    pool.add(pair(2, 3, 1500.0), t.clone(), Window::quick(), 0).unwrap();
    pool.add(single(4, 1500.0), terms("5+0", true), Window::quick(), 0).unwrap();
    assert_eq!(pool.add(single(5, 1500.0), t.clone(), Window::quick(), 0), Err(Refusal::Full(3)));
    // Cancel and disconnect take seeks back.
    assert!(pool.cancel(first).is_some());
    assert!(pool.cancel(first).is_none(), "once");
    let gone = pool.withdraw(3);
    assert_eq!(gone.len(), 1, "a pair's seek goes with either partner");
    assert!(!pool.seeking(2) && !pool.seeking(3));
    assert_eq!(pool.seeks().len(), 1);
}

#[test]
fn seats_are_drawn_from_the_number_the_server_gives() {
    let t = terms("3+0", false);
    let mut arrangements = std::collections::HashSet::new();
    for random in 0..8u64 {
        let mut pool = Pool::new(10);
        pool.add(pair(1, 2, 1500.0), t.clone(), Window::quick(), 0).unwrap();
        pool.add(pair(3, 4, 1500.0), t.clone(), Window::quick(), 0).unwrap();
        let formed = pool.form(0, || random);
        arrangements.insert(formed[0].seats.map(|s| s.account));
    }
    assert_eq!(arrangements.len(), 8, "both sides and both boards for each team");
}

#[test]
fn bots_answer_a_person_but_never_make_a_match_among_themselves() {
    let mut pool = Pool::new(100);
    let t = terms("3+0", false);
    for bot in [11, 12, 13, 14] {
        pool.add(Party::Single(Seeker::bot(bot, 1500.0)), t.clone(), Window::quick(), 0).unwrap();
    }
    assert!(pool.form(0, no_random()).is_empty(), "four bots wait");
    pool.add(single(1, 1500.0), t.clone(), Window::quick(), 1_000).unwrap();
    let formed = pool.form(1_000, no_random());
    assert_eq!(formed.len(), 1);
    let players: Vec<u64> = formed[0].seats.iter().map(|s| s.account).collect();
    assert!(players.contains(&1), "the person plays: {players:?}");
    assert_eq!(players.iter().filter(|&&a| a > 10).count(), 3, "with three of the bots");
    assert_eq!(pool.seeks().len(), 1, "the fourth bot waits on");
}
