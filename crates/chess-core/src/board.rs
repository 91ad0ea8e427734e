//! Piece placement: which piece stands on which square, as bitboards.

use crate::attacks;
use crate::{Bitboard, ByColor, Color, Piece, Role, Square};

/// The pieces on the 64 squares, plus which of them were promoted (variants with upgrade promotion
/// return a captured promoted piece as a pawn, so the mark travels with the piece).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Board {
    by_role: [Bitboard; 6],
    by_color: ByColor<Bitboard>,
    occupied: Bitboard,
    promoted: Bitboard,
}

impl Default for Board {
    fn default() -> Board {
        Board::empty()
    }
}

impl Board {
    /// A board without pieces.
    pub const fn empty() -> Board {
        Board {
            by_role: [Bitboard::EMPTY; 6],
            by_color: ByColor { white: Bitboard::EMPTY, black: Bitboard::EMPTY },
            occupied: Bitboard::EMPTY,
            promoted: Bitboard::EMPTY,
        }
    }

    /// The standard starting placement.
    pub fn standard() -> Board {
        let mut b = Board::empty();
        let back = [
            Role::Rook,
            Role::Knight,
            Role::Bishop,
            Role::Queen,
            Role::King,
            Role::Bishop,
            Role::Knight,
            Role::Rook,
        ];
        for (i, role) in back.into_iter().enumerate() {
            b.put(role.of(Color::White), Square::from_index(i as u32));
            b.put(role.of(Color::Black), Square::from_index(56 + i as u32));
            b.put(Role::Pawn.of(Color::White), Square::from_index(8 + i as u32));
            b.put(Role::Pawn.of(Color::Black), Square::from_index(48 + i as u32));
        }
        b
    }

    /// All occupied squares.
    #[inline]
    pub fn occupied(&self) -> Bitboard {
        self.occupied
    }

    /// The squares holding pieces of a colour.
    #[inline]
    pub fn by_color(&self, color: Color) -> Bitboard {
        self.by_color[color]
    }

    /// The squares holding pieces of a role (either colour).
    #[inline]
    pub fn by_role(&self, role: Role) -> Bitboard {
        self.by_role[role.index()]
    }

    /// The squares holding a given piece.
    #[inline]
    pub fn by_piece(&self, piece: Piece) -> Bitboard {
        self.by_role[piece.role.index()] & self.by_color[piece.color]
    }

    /// The squares of promoted pieces.
    #[inline]
    pub fn promoted(&self) -> Bitboard {
        self.promoted
    }

    /// Rooks and queens.
    #[inline]
    pub fn rooks_and_queens(&self) -> Bitboard {
        self.by_role(Role::Rook) | self.by_role(Role::Queen)
    }

    /// Bishops and queens.
    #[inline]
    pub fn bishops_and_queens(&self) -> Bitboard {
        self.by_role(Role::Bishop) | self.by_role(Role::Queen)
    }

    /// The square of the king of a colour, if there is one.
    #[inline]
    pub fn king_of(&self, color: Color) -> Option<Square> {
        self.by_piece(Role::King.of(color)).single()
    }

    /// The colour of the piece on a square, if any.
    #[inline]
    pub fn color_at(&self, sq: Square) -> Option<Color> {
        if self.by_color.white.contains(sq) {
            Some(Color::White)
        } else if self.by_color.black.contains(sq) {
            Some(Color::Black)
        } else {
            None
        }
    }

    /// The role of the piece on a square, if any.
    #[inline]
    pub fn role_at(&self, sq: Square) -> Option<Role> {
        if !self.occupied.contains(sq) {
            return None;
        }
        Role::ALL.into_iter().find(|r| self.by_role[r.index()].contains(sq))
    }

    /// The piece on a square, if any.
    #[inline]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        Some(Piece { color: self.color_at(sq)?, role: self.role_at(sq)? })
    }

    /// Puts a piece on an empty square.
    #[inline]
    pub(crate) fn put(&mut self, piece: Piece, sq: Square) {
        debug_assert!(!self.occupied.contains(sq));
        self.by_role[piece.role.index()] |= sq;
        self.by_color[piece.color] |= sq;
        self.occupied |= sq;
    }

    /// Removes a known piece from its square (and its promoted mark).
    #[inline]
    pub(crate) fn remove(&mut self, piece: Piece, sq: Square) {
        debug_assert!(self.by_piece(piece).contains(sq));
        self.by_role[piece.role.index()] ^= sq;
        self.by_color[piece.color] ^= sq;
        self.occupied ^= sq;
        self.promoted = self.promoted.without(sq);
    }

    /// Marks or unmarks a square's piece as promoted.
    #[inline]
    pub(crate) fn set_promoted(&mut self, sq: Square, promoted: bool) {
        self.promoted = if promoted { self.promoted.with(sq) } else { self.promoted.without(sq) };
    }

    /// Puts a piece on a square, replacing what stood there. Returns the piece that was removed.
    pub fn set_piece_at(&mut self, sq: Square, piece: Piece, promoted: bool) -> Option<Piece> {
        let old = self.remove_piece_at(sq);
        self.put(piece, sq);
        self.set_promoted(sq, promoted);
        old
    }

    /// Empties a square. Returns the piece that stood there.
    pub fn remove_piece_at(&mut self, sq: Square) -> Option<Piece> {
        let old = self.piece_at(sq)?;
        self.remove(old, sq);
        Some(old)
    }

    /// The pieces of `attacker` that attack `sq`, given an occupancy.
    #[inline]
    pub fn attackers_to(&self, sq: Square, attacker: Color, occupied: Bitboard) -> Bitboard {
        self.by_color[attacker]
            & ((attacks::rook_attacks(sq, occupied) & self.rooks_and_queens())
                | (attacks::bishop_attacks(sq, occupied) & self.bishops_and_queens())
                | (attacks::knight_attacks(sq) & self.by_role(Role::Knight))
                | (attacks::king_attacks(sq) & self.by_role(Role::King))
                | (attacks::pawn_attacks(!attacker, sq) & self.by_role(Role::Pawn)))
    }

    /// Whether any piece of `attacker` attacks `sq`, given an occupancy.
    #[inline]
    pub fn is_attacked(&self, sq: Square, attacker: Color, occupied: Bitboard) -> bool {
        self.attackers_to(sq, attacker, occupied).is_nonempty()
    }

    /// Iterates over all pieces with their squares, a1 to h8.
    pub fn pieces(&self) -> impl Iterator<Item = (Square, Piece)> + '_ {
        self.occupied.map(move |sq| (sq, self.piece_at(sq).expect("occupied square has a piece")))
    }
}
