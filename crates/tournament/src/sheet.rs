//! Pairing sheets for over-the-board play: what the director pins up or reads out each round.

use std::fmt::Write as _;

use crate::text::columns;
use crate::{Fixture, Game, Outcome, Pairing, Seat, TeamNo, Tournament, TournamentError};

/// `HH:MM` of a match-time instant (Unix ms) in a zone `utc_offset_minutes` east of UTC.
pub(crate) fn clock_time(ms: u64, utc_offset_minutes: i32) -> String {
    let minutes =
        i64::try_from(ms / 60_000).unwrap_or(i64::MAX).saturating_add(i64::from(utc_offset_minutes));
    let of_day = minutes.rem_euclid(24 * 60);
    format!("{:02}:{:02}", of_day / 60, of_day % 60)
}

impl Tournament {
    /// The pairing sheet of a round as plain text: for each table, its number and both teams
    /// (the first-named first), and for each game who chose what and the four seats (board,
    /// colour, player, team), or "choices pending (due HH:MM)", and the result once known; byes
    /// last. Times are shown `utc_offset_minutes` east of UTC (the caller knows the hall's zone).
    ///
    /// # Errors
    /// [`TournamentError::UnknownRound`].
    pub fn pairing_sheet(&self, round: u32, utc_offset_minutes: i32) -> Result<String, TournamentError> {
        let r = self.round(round).ok_or(TournamentError::UnknownRound(round))?;
        let team_name = |t: TeamNo| self.team(t).map_or_else(|| t.to_string(), |t| t.name.clone());
        let mut out = String::new();
        let of = self.total_rounds().map(|n| format!(" of {n}")).unwrap_or_default();
        let _ = writeln!(out, "{} — round {round}{of}: pairings", self.name());
        let _ = writeln!(out, "Rules {}, time control {}", self.rules(), self.time_control());
        if let Some(note) = &r.note {
            let _ = writeln!(out, "Note: {note}");
        }
        for (table, fixture) in (1..).zip(&r.fixtures) {
            out.push('\n');
            match fixture {
                Fixture::Bye(t) => {
                    let _ = writeln!(out, "Bye: {}", team_name(*t));
                }
                Fixture::Pairing(p) => {
                    let repeat = if p.repeat { " (repeat pairing)" } else { "" };
                    let _ = writeln!(
                        out,
                        "Table {table}: {} – {}{repeat}",
                        team_name(p.first),
                        team_name(p.second)
                    );
                    for (n, game) in (1..).zip(&p.games) {
                        self.write_game(&mut out, p, n, game, utc_offset_minutes);
                    }
                }
            }
        }
        Ok(out)
    }

    fn write_game(&self, out: &mut String, p: &Pairing, n: u32, game: &Game, utc_offset_minutes: i32) {
        let team_name = |t: Option<TeamNo>| {
            t.map_or_else(String::new, |t| self.team(t).map_or_else(|| t.to_string(), |t| t.name.clone()))
        };
        let _ = write!(
            out,
            "  Game {n}: seating {}, colours {}",
            team_name(p.seating_team(n)),
            team_name(p.colour_team(n))
        );
        match game.seats {
            None => {
                let _ = writeln!(
                    out,
                    ": choices pending (due {})",
                    clock_time(game.choices_due_ms, utc_offset_minutes)
                );
            }
            Some(seats) => {
                out.push('\n');
                let rows: Vec<Vec<String>> = Seat::ALL
                    .iter()
                    .zip(seats)
                    .map(|(seat, player)| {
                        vec![
                            format!("    Board {}", seat.board()),
                            seat.colour().to_owned(),
                            self.player_name(player).unwrap_or("?").to_owned(),
                            format!("({})", team_name(Some(player.team))),
                        ]
                    })
                    .collect();
                out.push_str(&columns(&rows, &[false; 4]));
            }
        }
        if let Some(result) = &game.result {
            let what = match result.outcome {
                Outcome::FirstWins => format!("{} won", team_name(Some(p.first))),
                Outcome::SecondWins => format!("{} won", team_name(Some(p.second))),
                Outcome::Draw => "drawn".to_owned(),
            };
            // A reason is free text: keep the sheet's lines intact.
            let reason: String =
                result.reason.chars().map(|c| if c.is_control() { ' ' } else { c }).collect();
            let reason =
                if reason.trim().is_empty() { String::new() } else { format!(" ({})", reason.trim()) };
            let _ = writeln!(out, "    Result: {what}{reason}");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::clock_time;

    #[test]
    fn clock_time_wraps_days_and_offsets() {
        assert_eq!(clock_time(0, 0), "00:00");
        assert_eq!(clock_time((19 * 60 + 30) * 60_000, 0), "19:30");
        assert_eq!(clock_time((23 * 60 + 30) * 60_000, 180), "02:30");
        assert_eq!(clock_time(10 * 60_000, -60), "23:10");
        assert_eq!(clock_time(u64::MAX, i32::MIN).len(), 5);
    }
}
