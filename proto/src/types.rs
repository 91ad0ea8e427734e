//! Small values shared by both directions.

use std::fmt;

use serde::{Deserialize, Serialize};

/// A match on the server.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct MatchId(pub u64);

impl fmt::Display for MatchId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// One of the two boards.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Board {
    /// Board A.
    A,
    /// Board B.
    B,
}

impl fmt::Display for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Board::A => "A",
            Board::B => "B",
        })
    }
}

/// One of the four seats (team 1 is White-A and Black-B).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum SeatId {
    /// White on board A.
    WhiteA,
    /// Black on board A.
    BlackA,
    /// White on board B.
    WhiteB,
    /// Black on board B.
    BlackB,
}

impl SeatId {
    /// The four seats, in the order of every per-seat array in the protocol.
    pub const ALL: [SeatId; 4] = [SeatId::WhiteA, SeatId::BlackA, SeatId::WhiteB, SeatId::BlackB];

    /// 0 to 3, the position in [`SeatId::ALL`].
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The one spelling of a seat in every view, text and command line: `white-A`, `black-B`
    /// (as the rules' and the records' texts write it).
    pub const fn name(self) -> &'static str {
        match self {
            SeatId::WhiteA => "white-A",
            SeatId::BlackA => "black-A",
            SeatId::WhiteB => "white-B",
            SeatId::BlackB => "black-B",
        }
    }

    /// The seat's team (RULES.md S1): team 1 plays White on A and Black on B.
    pub const fn team(self) -> TeamId {
        match self {
            SeatId::WhiteA | SeatId::BlackB => TeamId::One,
            SeatId::BlackA | SeatId::WhiteB => TeamId::Two,
        }
    }

    /// The seat's board.
    pub const fn board(self) -> Board {
        match self {
            SeatId::WhiteA | SeatId::BlackA => Board::A,
            SeatId::WhiteB | SeatId::BlackB => Board::B,
        }
    }

    /// Reads [`SeatId::name`] in any case; the older command-line spelling `a-white` too, so
    /// scripts written for it keep working.
    pub fn from_name(name: &str) -> Option<SeatId> {
        SeatId::ALL.into_iter().find(|s| {
            let (colour, board) = s.name().split_once('-').unwrap_or_default();
            name.eq_ignore_ascii_case(s.name()) || name.eq_ignore_ascii_case(&format!("{board}-{colour}"))
        })
    }
}

impl fmt::Display for SeatId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A team.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum TeamId {
    /// White-A and Black-B.
    One,
    /// Black-A and White-B.
    Two,
}

/// What kind of player a name belongs to, shown beside the name wherever names are shown.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum PlayerKind {
    /// A registered account (a person).
    Account,
    /// A guest: an unregistered name, held by nobody.
    #[default]
    Guest,
    /// A program playing: a bot account, a session that said it is a bot (`ClientMsg::Bot`), or
    /// one of the server's own bots.
    Bot,
}

#[cfg(test)]
mod tests {
    use super::SeatId;

    #[test]
    fn one_seat_spelling_read_back_and_the_older_one_still_read() {
        let names = SeatId::ALL.map(SeatId::name);
        assert_eq!(names, ["white-A", "black-A", "white-B", "black-B"]);
        for seat in SeatId::ALL {
            assert_eq!(SeatId::from_name(seat.name()), Some(seat));
            assert_eq!(SeatId::from_name(&seat.to_string().to_uppercase()), Some(seat));
        }
        assert_eq!(SeatId::from_name("b-black"), Some(SeatId::BlackB), "the older command-line spelling");
        assert_eq!(SeatId::from_name("white"), None);
    }
}
