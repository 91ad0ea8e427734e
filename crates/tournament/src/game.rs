//! One game of a pairing: the two S3 choices, the seats they give, the online match and the result.
//!
//! RULES.md S3: a round between two teams is two games. In game 1 the team named first in the
//! draw chooses the *seating* and the other team the *colours*; in game 2 the roles swap. The two
//! choices are made independently (neither needs the other), and together they fix the four seats:
//!
//! * the seating team decides which of its players faces which opponent
//!   ([`SeatingChoice`]); **board A is the board of the seating team's first player**, board B
//!   holds the other two players;
//! * the colour team decides on which board it has White ([`ColourChoice`]); by S1 it then has
//!   Black on the other board, and the seating team the opposite colours.
//!
//! A choice, once made, is final. A choice still missing at the deadline is filled with the
//! default by [`crate::Tournament::apply_defaults`]: seating [`SeatingChoice::Straight`] and
//! colours [`ColourChoice::WhiteOnA`]. These are the choices that need no thought and favour
//! nobody: players meet in registration order (teams conventionally register their board-one
//! player first), and the colour team takes the colours S1 gives "team 1". A team that lets its
//! deadline pass simply gets the plainest seating, so the round is never held up.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::TeamNo;

/// Which player of the seating team faces which player of the other team.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum SeatingChoice {
    /// First player faces first player, second faces second. The default.
    Straight,
    /// First player faces the other team's second player, second faces its first.
    Crossed,
}

/// On which board the colour-choosing team plays White (and so Black on the other board, S1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ColourChoice {
    /// White on board A, Black on board B: the colours of S1's "team 1". The default.
    WhiteOnA,
    /// White on board B, Black on board A.
    WhiteOnB,
}

/// One of the four seats of a game, in the order of a seats array: White-A, Black-A, White-B,
/// Black-B. Partners are White-A with Black-B and Black-A with White-B (S1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Seat {
    /// White on board A.
    WhiteA,
    /// Black on board A.
    BlackA,
    /// White on board B.
    WhiteB,
    /// Black on board B.
    BlackB,
}

impl Seat {
    /// The four seats in the order of a seats array.
    pub const ALL: [Seat; 4] = [Seat::WhiteA, Seat::BlackA, Seat::WhiteB, Seat::BlackB];

    /// `'A'` or `'B'`.
    pub fn board(self) -> char {
        match self {
            Seat::WhiteA | Seat::BlackA => 'A',
            Seat::WhiteB | Seat::BlackB => 'B',
        }
    }

    /// `"White"` or `"Black"`.
    pub fn colour(self) -> &'static str {
        match self {
            Seat::WhiteA | Seat::WhiteB => "White",
            Seat::BlackA | Seat::BlackB => "Black",
        }
    }
}

/// A player: the team and the index (0 or 1) into [`crate::Team::players`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct PlayerRef {
    /// The player's team.
    pub team: TeamNo,
    /// 0 for the team's first player, 1 for its second.
    pub index: usize,
}

/// How a game ended, seen from the pairing: the team named first won, the second won, or a draw.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Outcome {
    /// The team named first in the pairing won.
    FirstWins,
    /// The team named second won.
    SecondWins,
    /// Drawn.
    Draw,
}

/// Where a result came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ResultSource {
    /// Played over the board and entered by the director.
    OverTheBoard,
    /// Played online, reported by the server.
    Online,
    /// Played online, entered or corrected by the director (the match itself ended, or was
    /// corrected, with the same result).
    Director,
    /// Not played: a team withdrew or did not turn up. Scores like a win for the team present,
    /// but is not counted as a game won in the tie-breaks.
    Forfeit,
}

/// The result of one game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameResult {
    /// Who won.
    pub outcome: Outcome,
    /// Where the result came from.
    pub source: ResultSource,
    /// Why, in words ("mate on board A", "flag on board B", "forfeit: Alpha withdrew").
    pub reason: String,
    /// The director who entered (or corrected) it; `None` for a result the server or the
    /// tournament itself recorded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub by: Option<crate::Director>,
}

impl GameResult {
    /// A result.
    pub fn new(outcome: Outcome, source: ResultSource, reason: impl Into<String>) -> GameResult {
        GameResult { outcome, source, reason: reason.into(), by: None }
    }

    /// The same result, entered by `director`.
    pub fn by(self, director: crate::Director) -> GameResult {
        GameResult { by: Some(director), ..self }
    }

    /// The points of the first and second team, in quarter points (1, ½, 0 per game).
    pub(crate) fn quarters(&self) -> (u32, u32) {
        match self.outcome {
            Outcome::FirstWins => (4, 0),
            Outcome::SecondWins => (0, 4),
            Outcome::Draw => (2, 2),
        }
    }
}

/// One of the two games of a pairing.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Game {
    /// The seating team's choice, once made or defaulted.
    pub seating: Option<SeatingChoice>,
    /// The colour team's choice, once made or defaulted.
    pub colours: Option<ColourChoice>,
    /// Whether the seating is the default, the seating team not having chosen in time (S3).
    #[serde(default)]
    pub seating_defaulted: bool,
    /// Whether the colours are the default, the colour team not having chosen in time (S3).
    #[serde(default)]
    pub colours_defaulted: bool,
    /// The four seats in the order of [`Seat::ALL`], once both choices are known.
    pub seats: Option<[PlayerRef; 4]>,
    /// When the choices are due (match-time ms, as passed in by the caller). A choice is accepted
    /// while `now < choices_due_ms`; from then on the defaults apply.
    pub choices_due_ms: u64,
    /// The online match playing this game, set by the server. A game with a match has started.
    pub match_id: Option<u64>,
    /// The result, once known.
    pub result: Option<GameResult>,
}

impl Game {
    /// A game with no choices made, due at `choices_due_ms`.
    pub(crate) fn new(choices_due_ms: u64) -> Game {
        Game {
            seating: None,
            colours: None,
            seating_defaulted: false,
            colours_defaulted: false,
            seats: None,
            choices_due_ms,
            match_id: None,
            result: None,
        }
    }

    /// Whether the game has started: an online match is linked or it has a result.
    pub fn is_started(&self) -> bool {
        self.match_id.is_some() || self.result.is_some()
    }

    /// Fills the seats once both choices are known.
    pub(crate) fn derive_seats(&mut self, seating_team: TeamNo, colour_team: TeamNo) {
        if let (Some(seating), Some(colours)) = (self.seating, self.colours) {
            self.seats = Some(seats(seating_team, colour_team, seating, colours));
        }
    }
}

/// The four seats (White-A, Black-A, White-B, Black-B) that two choices give. Board A holds the
/// seating team's first player and the opponent the seating chose for him.
pub fn seats(
    seating_team: TeamNo,
    colour_team: TeamNo,
    seating: SeatingChoice,
    colours: ColourChoice,
) -> [PlayerRef; 4] {
    let (opp_a, opp_b) = match seating {
        SeatingChoice::Straight => (0, 1),
        SeatingChoice::Crossed => (1, 0),
    };
    let seat_a = PlayerRef { team: seating_team, index: 0 };
    let seat_b = PlayerRef { team: seating_team, index: 1 };
    let colour_a = PlayerRef { team: colour_team, index: opp_a };
    let colour_b = PlayerRef { team: colour_team, index: opp_b };
    match colours {
        ColourChoice::WhiteOnA => [colour_a, seat_a, seat_b, colour_b],
        ColourChoice::WhiteOnB => [seat_a, colour_a, colour_b, seat_b],
    }
}

/// A game of the tournament: round number, table number and game number (1 or 2), all from 1 as
/// printed on the pairing sheets.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct GameRef {
    /// The round, from 1.
    pub round: u32,
    /// The table, from 1.
    pub table: u32,
    /// The game, 1 or 2.
    pub game: u32,
}

impl fmt::Display for GameRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "round {} table {} game {}", self.round, self.table, self.game)
    }
}
