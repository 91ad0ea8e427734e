//! Round-robin schedules by the Berger tables (FIDE Handbook C.05, annex 1).
//!
//! With an even number of seats `N`, round 1 pairs seat `i` with seat `N + 1 − i`; each next round
//! adds `N / 2` to every seat but `N` (counting round modulo `N − 1`), and seat `N` changes side
//! every round. For `N = 4` this gives 1–4 2–3 / 4–3 1–2 / 2–4 3–1, the FIDE table. An odd
//! number of teams gets a dummy seat `N = n + 1`: its opponent has the bye.

/// The pairs of round `round` (from 1) for `n` teams, as 0-based seats, left seat first. Seat `n`
/// (only when `n` is odd) is the bye. Empty for a round outside the schedule.
pub(crate) fn berger_round(n: usize, round: u32) -> Vec<(usize, usize)> {
    let seats = if n.is_multiple_of(2) { n } else { n + 1 };
    let rounds = seats.saturating_sub(1);
    let Some(r) = usize::try_from(round).ok().and_then(|r| r.checked_sub(1)) else { return Vec::new() };
    if seats < 2 || r >= rounds {
        return Vec::new();
    }
    let shift = r.checked_mul(seats / 2).map_or(0, |s| s % rounds);
    // Seats numbered from 1 as in the tables; returned from 0.
    let seat = |x: usize| if x == seats { seats - 1 } else { (x - 1 + shift) % rounds };
    let mut pairs = Vec::with_capacity(seats / 2);
    for i in 1..=seats / 2 {
        let (a, b) = (seat(i), seat(seats + 1 - i));
        pairs.push(if i == 1 && r % 2 == 1 { (b, a) } else { (a, b) });
    }
    pairs
}

#[cfg(test)]
mod tests {
    use super::berger_round;

    #[test]
    fn four_and_six_teams_match_the_fide_tables() {
        let one_based = |n, r| -> Vec<(usize, usize)> {
            berger_round(n, r).into_iter().map(|(a, b)| (a + 1, b + 1)).collect()
        };
        assert_eq!(one_based(4, 1), [(1, 4), (2, 3)]);
        assert_eq!(one_based(4, 2), [(4, 3), (1, 2)]);
        assert_eq!(one_based(4, 3), [(2, 4), (3, 1)]);
        assert_eq!(one_based(6, 2), [(6, 4), (5, 3), (1, 2)]);
        assert_eq!(one_based(6, 5), [(3, 6), (4, 2), (5, 1)]);
        assert!(berger_round(4, 4).is_empty());
        assert!(berger_round(4, 0).is_empty());
        assert_eq!(berger_round(1, 1), [(0, 1)], "one team: the bye");
        assert!(berger_round(0, 1).is_empty());
    }
}
