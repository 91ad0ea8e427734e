//! A round of the draw: its tables, each a pairing of two teams (two games) or a bye.

use serde::{Deserialize, Serialize};

use crate::{Game, Outcome, TeamNo};

/// One round. Tables are numbered from 1 in the order of `fixtures`: pairings first (the
/// strongest at table 1), byes last.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Round {
    /// The round's number, from 1.
    pub number: u32,
    /// The tables.
    pub fixtures: Vec<Fixture>,
    /// Set when the Swiss pairing could not avoid repeating an earlier meeting, saying what was
    /// allowed; the repeated pairings have [`Pairing::repeat`] set.
    pub note: Option<String>,
    /// The active teams this round does not pair because they had not checked in when it was
    /// paired (a tournament that asks for check-in), or that a director's pairing by hand left
    /// out: they score nothing this round.
    #[serde(default)]
    pub absent: Vec<TeamNo>,
    /// The director who paired the round by hand (overruling the computer's pairing), if one did.
    #[serde(default)]
    pub by_hand: Option<crate::Director>,
    /// How long a game's choices stay open: game 1's from the pairing, and online game 2's from
    /// game 1's result ([`crate::Tournament::open_game_two`]). 0 in rounds stored before it was
    /// kept (game 2's window then opens and closes at once, as before).
    #[serde(default)]
    pub choice_window_ms: u64,
}

impl Round {
    /// The fixture at a table (from 1).
    pub fn fixture(&self, table: u32) -> Option<&Fixture> {
        self.fixtures.get(usize::try_from(table).ok()?.checked_sub(1)?)
    }

    /// The pairings of the round with their table numbers.
    pub fn pairings(&self) -> impl Iterator<Item = (u32, &Pairing)> {
        (1..).zip(&self.fixtures).filter_map(|(table, f)| match f {
            Fixture::Pairing(p) => Some((table, &**p)),
            Fixture::Bye(_) => None,
        })
    }

    /// The teams with a bye this round.
    pub fn byes(&self) -> impl Iterator<Item = TeamNo> + '_ {
        self.fixtures.iter().filter_map(|f| match f {
            Fixture::Bye(t) => Some(*t),
            Fixture::Pairing(_) => None,
        })
    }

    /// Whether every game of every pairing has a result.
    pub fn is_complete(&self) -> bool {
        self.pairings().all(|(_, p)| p.games.iter().all(|g| g.result.is_some()))
    }

    /// The table and pairing of a team, if it is paired this round.
    pub fn pairing_of(&self, team: TeamNo) -> Option<(u32, &Pairing)> {
        self.pairings().find(|(_, p)| p.first == team || p.second == team)
    }
}

/// A table of a round.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Fixture {
    /// Two teams meet: two games.
    Pairing(Box<Pairing>),
    /// The team sits out and scores the bye (two points, see the crate docs).
    Bye(TeamNo),
}

/// Two teams meeting in a round: two games (RULES.md S3).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pairing {
    /// The team named first in the draw: it chooses the seating of game 1 and the colours of game 2.
    pub first: TeamNo,
    /// The team named second: it chooses the colours of game 1 and the seating of game 2.
    pub second: TeamNo,
    /// Games 1 and 2.
    pub games: [Game; 2],
    /// Whether these teams had met before (only when the Swiss pairing had to fall back).
    pub repeat: bool,
}

impl Pairing {
    /// The game with this number (1 or 2).
    pub fn game(&self, game: u32) -> Option<&Game> {
        self.games.get(usize::try_from(game).ok()?.checked_sub(1)?)
    }

    /// The team choosing the seating of a game (1 or 2): the first-named in game 1, the other in
    /// game 2 (S3).
    pub fn seating_team(&self, game: u32) -> Option<TeamNo> {
        match game {
            1 => Some(self.first),
            2 => Some(self.second),
            _ => None,
        }
    }

    /// The team choosing the colours of a game (1 or 2): the second-named in game 1, the
    /// first-named in game 2 (S3).
    pub fn colour_team(&self, game: u32) -> Option<TeamNo> {
        match game {
            1 => Some(self.second),
            2 => Some(self.first),
            _ => None,
        }
    }

    /// The other team of the pairing, if `team` is in it.
    pub fn opponent(&self, team: TeamNo) -> Option<TeamNo> {
        if team == self.first {
            Some(self.second)
        } else if team == self.second {
            Some(self.first)
        } else {
            None
        }
    }

    /// The outcome saying that `team` won, if `team` is in the pairing: what the server passes
    /// on when it knows which team won an online match.
    pub fn win_for(&self, team: TeamNo) -> Option<Outcome> {
        if team == self.first {
            Some(Outcome::FirstWins)
        } else if team == self.second {
            Some(Outcome::SecondWins)
        } else {
            None
        }
    }
}
