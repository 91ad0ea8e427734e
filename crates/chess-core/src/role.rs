//! Piece kinds (roles) and pieces (a role of a colour).

use std::fmt;

use crate::Color;

/// The kind of a piece, independent of its colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Role {
    /// Pawn.
    Pawn = 0,
    /// Knight.
    Knight = 1,
    /// Bishop.
    Bishop = 2,
    /// Rook.
    Rook = 3,
    /// Queen.
    Queen = 4,
    /// King.
    King = 5,
}

impl Role {
    /// All roles, pawn first.
    pub const ALL: [Role; 6] = [Role::Pawn, Role::Knight, Role::Bishop, Role::Rook, Role::Queen, Role::King];
    /// The roles a pocket can hold (every role but the king).
    pub const POCKET: [Role; 5] = [Role::Pawn, Role::Knight, Role::Bishop, Role::Rook, Role::Queen];
    /// The roles a pawn may promote to, strongest first.
    pub const PROMOTION: [Role; 4] = [Role::Queen, Role::Rook, Role::Bishop, Role::Knight];

    /// The role from its lower-case letter (`p n b r q k`), either case accepted.
    pub const fn from_char(c: char) -> Option<Role> {
        match c.to_ascii_lowercase() {
            'p' => Some(Role::Pawn),
            'n' => Some(Role::Knight),
            'b' => Some(Role::Bishop),
            'r' => Some(Role::Rook),
            'q' => Some(Role::Queen),
            'k' => Some(Role::King),
            _ => None,
        }
    }

    /// The lower-case letter of the role.
    pub const fn char(self) -> char {
        match self {
            Role::Pawn => 'p',
            Role::Knight => 'n',
            Role::Bishop => 'b',
            Role::Rook => 'r',
            Role::Queen => 'q',
            Role::King => 'k',
        }
    }

    /// The upper-case letter of the role, as SAN writes it.
    pub const fn upper_char(self) -> char {
        self.char().to_ascii_uppercase()
    }

    /// The index of the role (pawn 0 … king 5).
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// A role that is of some colour.
    pub const fn of(self, color: Color) -> Piece {
        Piece { color, role: self }
    }

    /// The name of the role in English, lower case.
    pub const fn name(self) -> &'static str {
        match self {
            Role::Pawn => "pawn",
            Role::Knight => "knight",
            Role::Bishop => "bishop",
            Role::Rook => "rook",
            Role::Queen => "queen",
            Role::King => "king",
        }
    }
}

impl fmt::Display for Role {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A piece: a role of a colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Piece {
    /// Whose piece it is.
    pub color: Color,
    /// What kind of piece it is.
    pub role: Role,
}

impl Piece {
    /// The piece from its FEN letter (upper case White, lower case Black).
    pub const fn from_char(c: char) -> Option<Piece> {
        match Role::from_char(c) {
            Some(role) => {
                let color = if c.is_ascii_uppercase() { Color::White } else { Color::Black };
                Some(Piece { color, role })
            }
            None => None,
        }
    }

    /// The FEN letter of the piece (upper case White, lower case Black).
    pub const fn char(self) -> char {
        match self.color {
            Color::White => self.role.upper_char(),
            Color::Black => self.role.char(),
        }
    }
}

impl fmt::Display for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.char())
    }
}
