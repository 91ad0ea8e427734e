//! Files, ranks and squares. Square indices run a1 = 0, b1 = 1, …, h8 = 63.

use std::fmt;
use std::str::FromStr;

use crate::Color;

/// A file (column), `a` to `h`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct File(u8);

/// A rank (row), `1` to `8`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Rank(u8);

/// One of the 64 squares.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl File {
    /// The a-file.
    pub const A: File = File(0);
    /// The c-file (where the king lands when castling queen-side).
    pub const C: File = File(2);
    /// The d-file (where the rook lands when castling queen-side).
    pub const D: File = File(3);
    /// The e-file (the king's file in standard chess).
    pub const E: File = File(4);
    /// The f-file (where the rook lands when castling king-side).
    pub const F: File = File(5);
    /// The g-file (where the king lands when castling king-side).
    pub const G: File = File(6);
    /// The h-file.
    pub const H: File = File(7);

    /// The file with index 0–7, if in range.
    pub const fn new(index: u32) -> Option<File> {
        if index < 8 { Some(File(index as u8)) } else { None }
    }

    /// The file from its letter `a`–`h`.
    pub const fn from_char(c: char) -> Option<File> {
        match c {
            'a'..='h' => Some(File(c as u8 - b'a')),
            _ => None,
        }
    }

    /// The letter of the file, `a`–`h`.
    pub const fn char(self) -> char {
        (b'a' + self.0) as char
    }

    /// The index, 0 for a to 7 for h.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// All files, a to h.
    pub fn all() -> impl DoubleEndedIterator<Item = File> {
        (0..8).map(File)
    }
}

impl Rank {
    /// The first rank.
    pub const FIRST: Rank = Rank(0);
    /// The second rank.
    pub const SECOND: Rank = Rank(1);
    /// The seventh rank.
    pub const SEVENTH: Rank = Rank(6);
    /// The eighth rank.
    pub const EIGHTH: Rank = Rank(7);

    /// The rank with index 0–7, if in range.
    pub const fn new(index: u32) -> Option<Rank> {
        if index < 8 { Some(Rank(index as u8)) } else { None }
    }

    /// The rank from its digit `1`–`8`.
    pub const fn from_char(c: char) -> Option<Rank> {
        match c {
            '1'..='8' => Some(Rank(c as u8 - b'1')),
            _ => None,
        }
    }

    /// The digit of the rank, `1`–`8`.
    pub const fn char(self) -> char {
        (b'1' + self.0) as char
    }

    /// The index, 0 for the first rank to 7 for the eighth.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// This rank seen from `color`'s side: White's rank 1 is Black's rank 8.
    #[inline]
    pub const fn relative_to(self, color: Color) -> Rank {
        match color {
            Color::White => self,
            Color::Black => Rank(7 - self.0),
        }
    }

    /// All ranks, 1 to 8.
    pub fn all() -> impl DoubleEndedIterator<Item = Rank> {
        (0..8).map(Rank)
    }
}

impl Square {
    /// Square a1.
    pub const A1: Square = Square(0);
    /// Square h8.
    pub const H8: Square = Square(63);

    /// The square with index 0–63, if in range.
    pub const fn new(index: u32) -> Option<Square> {
        if index < 64 { Some(Square(index as u8)) } else { None }
    }

    /// The square with index 0–63; the index must be in range (masked to 0–63).
    #[inline]
    pub(crate) const fn from_index(index: u32) -> Square {
        Square((index & 63) as u8)
    }

    /// The square on a file and a rank.
    #[inline]
    pub const fn from_coords(file: File, rank: Rank) -> Square {
        Square(rank.0 * 8 + file.0)
    }

    /// The file of the square.
    #[inline]
    pub const fn file(self) -> File {
        File(self.0 & 7)
    }

    /// The rank of the square.
    #[inline]
    pub const fn rank(self) -> Rank {
        Rank(self.0 >> 3)
    }

    /// The index, 0 (a1) to 63 (h8).
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The square `delta` steps away in index order, if still on the board.
    #[inline]
    pub const fn offset(self, delta: i32) -> Option<Square> {
        let i = self.0 as i32 + delta;
        if i >= 0 && i < 64 { Some(Square(i as u8)) } else { None }
    }

    /// The same square seen from the other side (a1 ↔ a8).
    #[inline]
    pub const fn flip_vertical(self) -> Square {
        Square(self.0 ^ 56)
    }

    /// Whether the square is a light square (h1 is light).
    pub const fn is_light(self) -> bool {
        (self.0 / 8 + self.0 % 8) % 2 == 1
    }

    /// All 64 squares, a1 to h8.
    pub fn all() -> impl DoubleEndedIterator<Item = Square> {
        (0..64).map(Square)
    }
}

impl fmt::Display for File {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.char())
    }
}

impl fmt::Display for Rank {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.char())
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.file().char(), self.rank().char())
    }
}

/// A square name that is not two characters `a`–`h` then `1`–`8`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseSquareError {
    /// The rejected text.
    pub input: String,
}

impl fmt::Display for ParseSquareError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "invalid square {:?}: expected a file a-h then a rank 1-8", self.input)
    }
}

impl std::error::Error for ParseSquareError {}

impl FromStr for Square {
    type Err = ParseSquareError;

    fn from_str(s: &str) -> Result<Square, ParseSquareError> {
        let mut chars = s.chars();
        match (chars.next().and_then(File::from_char), chars.next().and_then(Rank::from_char), chars.next()) {
            (Some(file), Some(rank), None) => Ok(Square::from_coords(file, rank)),
            _ => Err(ParseSquareError { input: s.to_owned() }),
        }
    }
}

/// A square travels by its name (`"e4"`), so stored records stay readable and no index outside
/// the board can be read back.
#[cfg(feature = "serde")]
impl serde::Serialize for Square {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

#[cfg(feature = "serde")]
impl<'de> serde::Deserialize<'de> for Square {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Square, D::Error> {
        let name = <std::borrow::Cow<'de, str>>::deserialize(d)?;
        name.parse().map_err(serde::de::Error::custom)
    }
}
