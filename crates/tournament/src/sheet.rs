//! Pairing sheets for over-the-board play: what the director pins up or reads out each round.

use std::fmt::Write as _;

use crate::text::columns;
use crate::words::{Language, number, say, text, word};
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
    /// colour, player, team), or "choices pending (due HH:MM)" while undecided, and the result once known; byes
    /// last. Times are shown `utc_offset_minutes` east of UTC (the caller knows the hall's zone).
    ///
    /// # Errors
    /// [`TournamentError::UnknownRound`].
    pub fn pairing_sheet(&self, round: u32, utc_offset_minutes: i32) -> Result<String, TournamentError> {
        self.pairing_sheet_in(round, utc_offset_minutes, Language::English)
    }

    /// [`Tournament::pairing_sheet`] in `language` (the director's).
    ///
    /// # Errors
    /// [`TournamentError::UnknownRound`].
    pub fn pairing_sheet_in(
        &self,
        round: u32,
        utc_offset_minutes: i32,
        language: Language,
    ) -> Result<String, TournamentError> {
        let l = language;
        let r = self.round(round).ok_or(TournamentError::UnknownRound(round))?;
        let team_name = |t: TeamNo| self.team(t).map_or_else(|| t.to_string(), |t| t.name.clone());
        let mut out = String::new();
        let name = text(self.name());
        let title = match self.total_rounds() {
            Some(total) => say(
                l,
                "sheet-title-of",
                &[("name", name), ("round", number(round)), ("total", number(total))],
            ),
            None => say(l, "sheet-title", &[("name", name), ("round", number(round))]),
        };
        let _ = writeln!(out, "{title}");
        let rules = [("rules", text(self.rules())), ("tc", text(self.time_control()))];
        let _ = writeln!(out, "{}", say(l, "sheet-rules", &rules));
        if let Some(note) = &r.note {
            let _ = writeln!(out, "{}", say(l, "note", &[("note", text(note))]));
        }
        for (table, fixture) in (1..).zip(&r.fixtures) {
            out.push('\n');
            match fixture {
                Fixture::Bye(t) => {
                    let _ = writeln!(out, "{}", say(l, "bye", &[("team", text(&team_name(*t)))]));
                }
                Fixture::Pairing(p) => {
                    let (first, second) = (team_name(p.first), team_name(p.second));
                    let args = [("table", number(table)), ("first", text(&first)), ("second", text(&second))];
                    let _ =
                        writeln!(out, "{}", say(l, if p.repeat { "table-repeat" } else { "table" }, &args));
                    for (n, game) in (1..).zip(&p.games) {
                        self.write_game(&mut out, p, n, game, utc_offset_minutes, l);
                    }
                }
            }
        }
        Ok(out)
    }

    fn write_game(
        &self,
        out: &mut String,
        p: &Pairing,
        n: u32,
        game: &Game,
        utc_offset_minutes: i32,
        l: Language,
    ) {
        let team_name = |t: Option<TeamNo>| {
            t.map_or_else(String::new, |t| self.team(t).map_or_else(|| t.to_string(), |t| t.name.clone()))
        };
        let (seating, colours) = (team_name(p.seating_team(n)), team_name(p.colour_team(n)));
        let args = [("game", number(n)), ("seating", text(&seating)), ("colours", text(&colours))];
        let _ = write!(out, "  {}", say(l, "game", &args));
        match game.seats {
            // Decided without seats chosen here (over the board, or entered): no choice pending.
            None if game.result.is_some() => out.push('\n'),
            None => {
                let due = clock_time(game.choices_due_ms, utc_offset_minutes);
                let _ = writeln!(out, ": {}", say(l, "pending", &[("due", text(&due))]));
            }
            Some(seats) => {
                out.push('\n');
                let rows: Vec<Vec<String>> = Seat::ALL
                    .iter()
                    .zip(seats)
                    .map(|(seat, player)| {
                        vec![
                            format!("    {}", say(l, "board", &[("board", text(&seat.board().to_string()))])),
                            word(l, if seat.colour() == "White" { "white" } else { "black" }),
                            self.player_name(player).unwrap_or("?").to_owned(),
                            format!("({})", team_name(Some(player.team))),
                        ]
                    })
                    .collect();
                out.push_str(&columns(&rows, &[false; 4]));
            }
        }
        if let Some(result) = &game.result {
            let won = |t| say(l, "result-won", &[("team", text(&team_name(Some(t))))]);
            let what = match result.outcome {
                Outcome::FirstWins => won(p.first),
                Outcome::SecondWins => won(p.second),
                Outcome::Draw => word(l, "result-drawn"),
            };
            // A reason is free text: keep the sheet's lines intact.
            let reason: String =
                result.reason.chars().map(|c| if c.is_control() { ' ' } else { c }).collect();
            let reason =
                if reason.trim().is_empty() { String::new() } else { format!(" ({})", reason.trim()) };
            let _ = writeln!(out, "    {what}{reason}");
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
