//! Boards, seats (players) and teams (RULES.md S1, S2).

use std::fmt;

use chess_core::Color;

/// One of the two boards.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
pub enum BoardId {
    /// Board A: team 1 plays White here.
    A,
    /// Board B: team 1 plays Black here.
    B,
}

impl BoardId {
    /// Both boards.
    pub const ALL: [BoardId; 2] = [BoardId::A, BoardId::B];

    /// The other board.
    pub const fn other(self) -> BoardId {
        match self {
            BoardId::A => BoardId::B,
            BoardId::B => BoardId::A,
        }
    }

    /// 0 for A, 1 for B.
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The board from its letter, `a` or `b` (either case).
    pub fn from_char(c: char) -> Option<BoardId> {
        match c.to_ascii_lowercase() {
            'a' => Some(BoardId::A),
            'b' => Some(BoardId::B),
            _ => None,
        }
    }

    /// The lower-case letter.
    pub const fn char(self) -> char {
        match self {
            BoardId::A => 'a',
            BoardId::B => 'b',
        }
    }
}

impl fmt::Display for BoardId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.char().to_ascii_uppercase())
    }
}

/// A team (S1): team 1 plays White on A and Black on B.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
pub enum Team {
    /// White-A and Black-B.
    One,
    /// Black-A and White-B.
    Two,
}

impl Team {
    /// The other team.
    pub const fn other(self) -> Team {
        match self {
            Team::One => Team::Two,
            Team::Two => Team::One,
        }
    }
}

impl fmt::Display for Team {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Team::One => "team 1",
            Team::Two => "team 2",
        })
    }
}

/// A player's seat: a board and a colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
pub struct Seat {
    /// The board.
    pub board: BoardId,
    /// The colour played there.
    pub color: Color,
}

impl Seat {
    /// The four seats: White-A, Black-A, White-B, Black-B.
    pub const ALL: [Seat; 4] = [
        Seat { board: BoardId::A, color: Color::White },
        Seat { board: BoardId::A, color: Color::Black },
        Seat { board: BoardId::B, color: Color::White },
        Seat { board: BoardId::B, color: Color::Black },
    ];

    /// A seat.
    pub const fn new(board: BoardId, color: Color) -> Seat {
        Seat { board, color }
    }

    /// 0 to 3, in the order of [`Seat::ALL`].
    pub const fn index(self) -> usize {
        self.board.index() * 2 + self.color as usize
    }

    /// The team of the seat (S1).
    pub fn team(self) -> Team {
        match (self.board, self.color) {
            (BoardId::A, Color::White) | (BoardId::B, Color::Black) => Team::One,
            _ => Team::Two,
        }
    }

    /// The partner: the other colour on the other board (S1).
    pub fn partner(self) -> Seat {
        Seat { board: self.board.other(), color: !self.color }
    }

    /// The crosswise player: the same colour on the other board (S2).
    pub fn crosswise(self) -> Seat {
        Seat { board: self.board.other(), color: self.color }
    }

    /// The opponent on the same board.
    pub fn opponent(self) -> Seat {
        Seat { board: self.board, color: !self.color }
    }
}

impl fmt::Display for Seat {
    /// `white-A`, `black-B`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{}", self.color, self.board)
    }
}
