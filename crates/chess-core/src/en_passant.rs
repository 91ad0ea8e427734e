//! En passant: the fact a double step leaves, and the right derived from it.
//!
//! A position keeps only the fact — the square the last move's double step passed over — and
//! derives the right to capture onto it from the board as it stands whenever the right is needed
//! (move generation, the hash, FEN). The board of a bughouse game can change between two of its
//! moves (a removal for a promotion on the other board, RULES.md R1; a take-back putting a piece
//! back), and a right kept from the moment of the double step would then be stale: lost for good
//! when a pin that forbade it is lifted, or kept when a removal makes the capture illegal.

use crate::attacks::{self, bishop_attacks, knight_attacks, rook_attacks};
use crate::{Bitboard, Board, Color, Position, Rank, Role, Square};

impl Position {
    /// The en passant right: the square a pawn just passed over in a double step, when the side
    /// to move has a legal en passant capture onto it in the position as it stands (FIDE 3.7.4,
    /// 9.2.3). Derived at each call from [`Position::ep_target`] and the board, so a piece put or
    /// removed since the double step counts.
    pub fn ep_square(&self) -> Option<Square> {
        let ep = self.ep_candidate()?;
        let king = self.board.king_of(self.turn)?;
        ep_capturers(&self.board, self.turn, ep)
            .any(|from| self.is_safe_en_passant(king, from, ep))
            .then_some(ep)
    }

    /// The fact behind the en passant right: the square the last move's double step passed over,
    /// kept when a pawn of the side to move stood beside the pushed pawn, whether or not the
    /// capture is legal now (a pin may forbid it until a removal lifts the pinning piece). FEN
    /// writes only the right, [`Position::ep_square`]; this fact is not written when no legal
    /// capture exists.
    #[inline]
    pub fn ep_target(&self) -> Option<Square> {
        self.ep_target
    }

    /// [`Position::ep_target`] while the board still shows the double step: the pushed pawn of
    /// the side not to move on its square, the square it passed over empty. Each capture onto it
    /// must still be checked for the safety of the capturer's king.
    pub(crate) fn ep_candidate(&self) -> Option<Square> {
        let ep = self.ep_target?;
        let pushed = Square::from_coords(ep.file(), Rank::new(3).expect("rank").relative_to(!self.turn));
        (self.board.by_piece(Role::Pawn.of(!self.turn)).contains(pushed)
            && !self.board.occupied().contains(ep))
        .then_some(ep)
    }

    /// Keeps `ep` as the double step's fact if a pawn of the side to move stands beside the
    /// pushed pawn.
    pub(crate) fn set_ep_target(&mut self, ep: Square) {
        self.ep_target = ep_capturers(&self.board, self.turn, ep).is_nonempty().then_some(ep);
    }

    /// Whether an en passant capture from `from` to `to` leaves the mover's king safe.
    pub(crate) fn is_safe_en_passant(&self, king: Square, from: Square, to: Square) -> bool {
        let board = self.board();
        let captured = Square::from_coords(to.file(), from.rank());
        let occupied = (board.occupied() ^ from ^ captured) | to;
        let them = board.by_color(!self.turn()).without(captured);
        let attackers = them
            & ((rook_attacks(king, occupied) & board.rooks_and_queens())
                | (bishop_attacks(king, occupied) & board.bishops_and_queens())
                | (knight_attacks(king) & board.by_role(Role::Knight))
                | (attacks::pawn_attacks(self.turn(), king) & board.by_role(Role::Pawn)));
        attackers.is_empty()
    }
}

/// The squares from which a side's pawns could capture en passant onto `ep`.
pub(crate) fn ep_capturers(board: &Board, capturer: Color, ep: Square) -> Bitboard {
    attacks::pawn_attacks(!capturer, ep) & board.by_piece(Role::Pawn.of(capturer))
}
