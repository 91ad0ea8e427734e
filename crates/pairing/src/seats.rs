//! Two teams onto the four seats. Partners always sit on different boards in opposite colours
//! (S1: team 1 is White on A and Black on B); which team is team 1, and which partner of each
//! team plays on board A, are drawn at random — the server supplies the number and records the
//! seats, so the draw can be shown and replayed.

use crate::Seeker;

/// Seats in the protocol's order (White A, Black A, White B, Black B) for `teams`, by the lowest
/// three bits of `random`.
#[must_use]
pub fn assign(teams: [[Seeker; 2]; 2], random: u64) -> [Seeker; 4] {
    let (first, second) = if random & 1 == 0 { (teams[0], teams[1]) } else { (teams[1], teams[0]) };
    let pick = |team: [Seeker; 2], bit: u64| if random >> bit & 1 == 0 { team } else { [team[1], team[0]] };
    let [first_on_a, first_on_b] = pick(first, 1);
    let [second_on_a, second_on_b] = pick(second, 2);
    [first_on_a, second_on_a, second_on_b, first_on_b]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(account: u64) -> Seeker {
        Seeker::person(account, 1500.0)
    }

    #[test]
    fn s1_partners_sit_on_different_boards_in_opposite_colours_and_every_arrangement_can_be_drawn() {
        let teams = [[s(1), s(2)], [s(3), s(4)]];
        let mut seen = std::collections::HashSet::new();
        for random in 0..8 {
            let seats = assign(teams, random).map(|p| p.account);
            // Team 1 is White A and Black B (seats 0 and 3), team 2 Black A and White B.
            let team_of = |a: u64| if a <= 2 { 0 } else { 1 };
            assert_eq!(team_of(seats[0]), team_of(seats[3]), "{seats:?}");
            assert_eq!(team_of(seats[1]), team_of(seats[2]), "{seats:?}");
            assert_ne!(team_of(seats[0]), team_of(seats[1]), "{seats:?}");
            seen.insert(seats);
        }
        assert_eq!(seen.len(), 8, "two sides times two boards for each team");
    }
}
