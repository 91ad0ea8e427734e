//! Points, tie-breaks and the crosstable on small tournaments computed by hand.

mod common;

use common::{pairs, round_robin_of_four, score, started};
use shvedka_tournament::{Format, GameResult, ResultSource, Score, StandingRow, TeamNo, Tournament};

/// A row as (rank, team, points, DE, Buchholz, SB, wins), scores as decimals.
fn line(r: &StandingRow) -> (u32, u32, String, String, String, String, u32) {
    (
        r.rank,
        r.team.0,
        r.points.to_string(),
        r.direct.to_string(),
        r.buchholz.to_string(),
        r.sonneborn_berger.to_string(),
        r.wins,
    )
}

fn lines(t: &Tournament) -> Vec<(u32, u32, String, String, String, String, u32)> {
    t.standings().rows.iter().map(line).collect()
}

fn row(
    rank: u32,
    team: u32,
    pts: &str,
    de: &str,
    buch: &str,
    sb: &str,
    wins: u32,
) -> (u32, u32, String, String, String, String, u32) {
    (rank, team, pts.into(), de.into(), buch.into(), sb.into(), wins)
}

#[test]
fn round_robin_standings_direct_encounter_then_sonneborn_berger() {
    let t = round_robin_of_four();
    // Buchholz (sum of the opponents' points): A = B 3½ + C 2 + D 2 = 7½; B = 4½ + 2 + 2 = 8½;
    // C = 4½ + 3½ + 2 = 10; D = 10 (a complete round robin: equal for equal points).
    // Sonneborn–Berger (points against each opponent × its points):
    //   A = 2×2 (D) + 1½×3½ (B) + 1×2 (C) = 4 + 5.25 + 2 = 11.25
    //   B = 2×2 (C) + ½×4½ (A) + 1×2 (D) = 4 + 2.25 + 2 = 8.25
    //   C = 0×3½ (B) + 1×2 (D) + 1×4½ (A) = 6.5
    //   D = 0×4½ (A) + 1×2 (C) + 1×3½ (B) = 5.5
    // C and D tie on 2 points; they drew their pairing 1–1 (direct encounter 1 each) and have
    // the same Buchholz; Sonneborn–Berger puts C ahead. Games won: A 2+1+1, B 2, C 1+1, D 1.
    assert_eq!(
        lines(&t),
        [
            row(1, 1, "4.5", "0", "7.5", "11.25", 4),
            row(2, 2, "3.5", "0", "8.5", "8.25", 2),
            row(3, 3, "2", "1", "10", "6.5", 2),
            row(4, 4, "2", "1", "10", "5.5", 1),
        ]
    );
}

#[test]
fn crosstable_holds_each_teams_score_against_each_opponent() {
    let t = round_robin_of_four();
    let c = t.crosstable();
    let cells: Vec<Vec<String>> = c
        .rows
        .iter()
        .map(|r| r.cells.iter().map(|s| s.map_or("-".to_owned(), Score::fraction)).collect())
        .collect();
    assert_eq!(
        cells,
        [
            ["-", "1½", "1", "2"], // A: ½ lost to B, drew C, beat D
            ["½", "-", "2", "1"],  // B
            ["1", "0", "-", "1"],  // C
            ["0", "1", "1", "-"],  // D
        ]
    );
    assert_eq!(c.rows.iter().map(|r| r.team.0).collect::<Vec<_>>(), [1, 2, 3, 4]);
    // Each pair's cells add up to the 2 points of a pairing.
    for i in 0..4 {
        for j in 0..4 {
            if i != j {
                let sum = c.rows[i].cells[j].unwrap().0 + c.rows[j].cells[i].unwrap().0;
                assert_eq!(sum, 8);
            }
        }
    }
}

#[test]
fn direct_encounter_decides_between_teams_that_met_and_corrections_recompute() {
    // The director corrects game 2 of R3 C–A to a win for C (C–A 2–0):
    // A = 2 + 1½ + 0 = 3½, B = 2 + ½ + 1 = 3½, C = 0 + 1 + 2 = 3, D = 0 + 1 + 1 = 2.
    let mut t = round_robin_of_four();
    let table = t.round(3).unwrap().pairing_of(TeamNo(3)).unwrap().0;
    let c_wins = t.pairing_at(3, table).unwrap().win_for(TeamNo(3)).unwrap();
    t.correct_result(3, table, 2, GameResult::new(c_wins, ResultSource::OverTheBoard, "corrected")).unwrap();
    // A and B tie on 3½. They met: A scored 1½ to B's ½, so direct encounter puts A first,
    // though Buchholz is equal (A: B 3½ + C 3 + D 2 = 8½; B: A 3½ + C 3 + D 2 = 8½) and
    // Sonneborn–Berger would favour B (A: 2×2 + 1½×3½ + 0×3 = 9.25; B: 2×3 + ½×3½ + 1×2 = 9.75).
    // C: Buchholz 3½ + 3½ + 2 = 9, SB 0×3½ + 1×2 + 2×3½ = 9, won 1 + 2.
    // D: Buchholz 3½ + 3 + 3½ = 10, SB 0×3½ + 1×3 + 1×3½ = 6.5, won 1.
    assert_eq!(
        lines(&t),
        [
            row(1, 1, "3.5", "1.5", "8.5", "9.25", 3),
            row(2, 2, "3.5", "0.5", "8.5", "9.75", 2),
            row(3, 3, "3", "0", "9", "9", 3),
            row(4, 4, "2", "0", "10", "6.5", 1),
        ]
    );
}

#[test]
fn direct_encounter_comes_before_buchholz() {
    // Round robin of four after two rounds: R1 A–D ½–1½ (draw, loss), B–C 1½–½ (win, draw);
    // R2 D–C 0–2, A–B 1½–½ (win, draw). Points: A 2, B 2, C 2½, D 1½.
    let mut t = started(Format::RoundRobin, 4);
    t.pair_next_round(0, 1).unwrap();
    score(&mut t, 1, 1, 4, ['D', 'L']);
    score(&mut t, 1, 2, 3, ['W', 'D']);
    t.pair_next_round(0, 1).unwrap();
    score(&mut t, 2, 4, 3, ['L', 'L']);
    score(&mut t, 2, 1, 2, ['W', 'D']);
    // A and B tie on 2 and met: A scored 1½, B ½. Buchholz would put B first (B: C 2½ + A 2 =
    // 4½; A: D 1½ + B 2 = 3½), direct encounter puts A first.
    // SB: A = ½×1½ + 1½×2 = 3.75; B = 1½×2½ + ½×2 = 4.75; C = ½×2 + 2×1½ = 4; D = 1½×2 + 0 = 3.
    assert_eq!(
        lines(&t),
        [
            row(1, 3, "2.5", "0", "3.5", "4", 2),
            row(2, 1, "2", "1.5", "3.5", "3.75", 1),
            row(3, 2, "2", "0.5", "4.5", "4.75", 1),
            row(4, 4, "1.5", "0", "4.5", "3", 1),
        ]
    );
}

#[test]
fn swiss_standings_buchholz_with_a_bye_counting_zero() {
    // Five teams, two rounds (pairings checked in tests/swiss.rs):
    // R1: 1–3 2–0, 2–4 1½–½ (win, draw), bye 5 (2 points).
    // R2: 1–2 ½–1½ (2 wins one, draws one), 4–5 1–1 (two draws), bye 3. (4 is named first:
    // it was named second in round 1, while 5 had the bye.)
    // Points: 1 = 2+½ = 2½, 2 = 1½+1½ = 3, 3 = 0+2 = 2, 4 = ½+1 = 1½, 5 = 2+1 = 3.
    let mut t = started(Format::Swiss { rounds: 2 }, 5);
    t.pair_next_round(0, 1).unwrap();
    score(&mut t, 1, 1, 3, ['W', 'W']);
    score(&mut t, 1, 2, 4, ['W', 'D']);
    t.pair_next_round(0, 1).unwrap();
    assert_eq!(pairs(t.round(2).unwrap()), [(TeamNo(1), TeamNo(2)), (TeamNo(4), TeamNo(5))]);
    score(&mut t, 2, 2, 1, ['W', 'D']);
    score(&mut t, 2, 4, 5, ['D', 'D']);
    // 2 and 5 tie on 3 and have not met (direct encounter 0). Buchholz, a bye adding 0:
    //   2 = 4 (1½) + 1 (2½) = 4;  5 = bye 0 + 4 (1½) = 1½  → 2 ahead.
    //   1 = 3 (2) + 2 (3) = 5;  3 = 1 (2½) + bye = 2½;  4 = 2 (3) + 5 (3) = 6.
    // Sonneborn–Berger:
    //   2 = (1 + ½)×1½ + (1 + ½)×2½ = 2.25 + 3.75 = 6;  5 = (½ + ½)×1½ = 1.5
    //   1 = 2×2 + ½×3 = 5.5;  3 = 0;  4 = ½×3 + 1×3 = 4.5
    // Games won (byes are not games): 2: 2, 5: 0, 1: 2, 3: 0, 4: 0.
    assert_eq!(
        lines(&t),
        [
            row(1, 2, "3", "0", "4", "6", 2),
            row(2, 5, "3", "0", "1.5", "1.5", 0),
            row(3, 1, "2.5", "0", "5", "5.5", 2),
            row(4, 3, "2", "0", "2.5", "0", 0),
            row(5, 4, "1.5", "0", "6", "4.5", 0),
        ]
    );
}

/// Issue 57: the crosstable shows the byes, so a row adds up to its points (a team with a bye
/// and a drawn pairing read 2 points against a row summing 1).
#[test]
fn swiss_crosstable_rows_add_up_to_their_points_with_the_byes_shown() {
    let mut t = started(Format::Swiss { rounds: 2 }, 5);
    t.pair_next_round(0, 1).unwrap();
    score(&mut t, 1, 1, 3, ['W', 'W']);
    score(&mut t, 1, 2, 4, ['W', 'D']);
    t.pair_next_round(0, 1).unwrap();
    score(&mut t, 2, 2, 1, ['W', 'D']);
    score(&mut t, 2, 4, 5, ['D', 'D']);
    let cross = t.crosstable();
    assert!(cross.has_byes());
    for r in &cross.rows {
        let met: u32 = r.cells.iter().flatten().map(|s| s.0).sum();
        assert_eq!(met + r.byes.0, r.points.0, "team {}: cells and byes add up to its points", r.team.0);
    }
    let byes: Vec<(u32, String)> = cross.rows.iter().map(|r| (r.team.0, r.byes.to_string())).collect();
    let expected = [(2, "0"), (5, "2"), (1, "0"), (3, "2"), (4, "0")].map(|(t, b)| (t, b.to_owned()));
    assert_eq!(byes, expected);
    let text = cross.to_text_in(shvedka_tournament::Language::Russian);
    assert!(text.lines().next().unwrap().contains("Без пары"), "{text}");
    let csv = cross.to_csv();
    assert!(csv.starts_with("No,Team,1,2,3,4,5,Byes,Points"), "{csv}");
    let html = t.to_html();
    assert!(html.contains("<th>Byes</th>"), "the page shows the byes too");
}

#[test]
fn teams_equal_on_everything_share_a_rank() {
    let t = started(Format::RoundRobin, 3);
    assert!(t.standings().rows.iter().all(|r| r.rank == 1));
    let mut t = started(Format::RoundRobin, 4);
    t.pair_next_round(0, 1).unwrap();
    score(&mut t, 1, 1, 4, ['D', 'D']);
    score(&mut t, 1, 2, 3, ['D', 'D']);
    assert_eq!(
        t.standings().rows.iter().map(|r| (r.rank, r.team.0)).collect::<Vec<_>>(),
        [(1, 1), (1, 2), (1, 3), (1, 4)]
    );
    // A split pairing (a win each) beats two draws on games won.
    let mut t = started(Format::RoundRobin, 4);
    t.pair_next_round(0, 1).unwrap();
    score(&mut t, 1, 1, 4, ['D', 'D']);
    score(&mut t, 1, 2, 3, ['W', 'L']);
    assert_eq!(
        t.standings().rows.iter().map(|r| (r.rank, r.team.0)).collect::<Vec<_>>(),
        [(1, 2), (1, 3), (3, 1), (3, 4)]
    );
}

#[test]
fn forfeits_score_like_wins_but_are_not_games_won() {
    let mut t = started(Format::RoundRobin, 4);
    t.pair_next_round(0, 1).unwrap();
    t.withdraw(TeamNo(4)).unwrap(); // R1 1–4: both games forfeited to 1
    score(&mut t, 1, 2, 3, ['W', 'W']);
    let rows = t.standings().rows;
    let one = rows.iter().find(|r| r.team == TeamNo(1)).unwrap();
    let two = rows.iter().find(|r| r.team == TeamNo(2)).unwrap();
    assert_eq!((one.points.to_string(), one.wins), ("2".to_owned(), 0));
    assert_eq!((two.points.to_string(), two.wins), ("2".to_owned(), 2));
    assert_eq!(rows[0].team, TeamNo(2), "games won separate a played 2–0 from a forfeit");
    let four = rows.iter().find(|r| r.team == TeamNo(4)).unwrap();
    assert!(four.withdrawn);
    assert_eq!(four.points, Score::ZERO);
}
