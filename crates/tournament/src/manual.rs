//! The director overrules the computer: he sees the pairing the computer proposes for the next
//! round before anything is published ([`Tournament::propose_next_round`]), and may pair the
//! round by hand instead — swap two teams, fix a pairing, give a bye — with
//! [`Tournament::pair_next_round_by_hand`]. The round remembers who paired it by hand
//! ([`crate::Round::by_hand`]); the server logs the act with its author.

use std::collections::BTreeSet;

use crate::history::History;
use crate::tournament::new_pairing;
use crate::{Director, Fixture, Round, TeamNo, Tournament, TournamentError};

impl Tournament {
    /// The round the computer would pair next (as [`Tournament::pair_next_round`]), without
    /// pairing it.
    ///
    /// # Errors
    /// As [`Tournament::pair_next_round`].
    pub fn propose_next_round(&self, now_ms: u64, choice_window_ms: u64) -> Result<Round, TournamentError> {
        let mut copy = self.clone();
        copy.pair_next_round(now_ms, choice_window_ms)?;
        copy.rounds.pop().ok_or(TournamentError::NotStarted)
    }

    /// Pairs the next round as the director says: `tables` in table order (who is named first
    /// in each follows the history, as in the computer's pairings, so the S3 choices still
    /// alternate), then `byes` (each scores a bye). Teams of the round's field placed nowhere
    /// are [`Round::absent`]: not paired, no points. A pairing of teams that met before is
    /// allowed (the director's word) and marked as a repeat. Returns the round's number.
    ///
    /// # Errors
    /// The errors of [`Tournament::pair_next_round`]; [`TournamentError::UnknownTeam`];
    /// [`TournamentError::NotInField`] for a team withdrawn or not checked in;
    /// [`TournamentError::PlacedTwice`] for a team placed twice or against itself.
    pub fn pair_next_round_by_hand(
        &mut self,
        now_ms: u64,
        choice_window_ms: u64,
        tables: &[(TeamNo, TeamNo)],
        byes: &[TeamNo],
        by: Director,
    ) -> Result<u32, TournamentError> {
        let (number, field) = self.next_field()?;
        let mut placed = BTreeSet::new();
        for &team in tables.iter().flat_map(|(a, b)| [a, b]).chain(byes) {
            if self.team(team).is_none() {
                return Err(TournamentError::UnknownTeam(team));
            }
            if !field.contains(&team) {
                return Err(TournamentError::NotInField(team));
            }
            if !placed.insert(team) {
                return Err(TournamentError::PlacedTwice(team));
            }
        }
        let history = History::of(&self.rounds);
        let due = now_ms.saturating_add(choice_window_ms);
        let mut fixtures: Vec<Fixture> = tables
            .iter()
            .map(|&(a, b)| new_pairing(&history, (a, b), history.met(a, b).is_some(), due))
            .collect();
        fixtures.extend(byes.iter().map(|&t| Fixture::Bye(t)));
        let absent = self.active_teams().into_iter().filter(|t| !placed.contains(t)).collect();
        self.rounds.push(Round { number, fixtures, note: None, absent, by_hand: Some(by), choice_window_ms });
        self.checked_in.clear();
        Ok(number)
    }
}
