//! Insufficient material (FIDE 5.2.2 / 9.6.2 approximated the usual way).

use crate::{Bitboard, Color, Position, Role};

impl Position {
    /// Whether `color` cannot possibly checkmate, by the usual material test: only a king; a king
    /// and one knight when the other side has nothing but king and queens to block with; or kings
    /// and bishops all on squares of one colour with no knights or pawns anywhere. Any piece in
    /// `color`'s pocket counts as mating material, and any piece in the other pocket counts as a
    /// possible blocker.
    pub fn has_insufficient_material(&self, color: Color) -> bool {
        let board = self.board();
        let ours = board.by_color(color);
        let theirs = board.by_color(!color);
        if let Some(pockets) = self.pockets()
            && !pockets.of(color).is_empty()
        {
            return false;
        }
        let their_pocket_blockers = self.pockets().is_some_and(|p| !p.of(!color).is_empty());
        if (ours & (board.by_role(Role::Pawn) | board.rooks_and_queens())).is_nonempty() {
            return false;
        }
        if (ours & board.by_role(Role::Knight)).is_nonempty() {
            return ours.count() <= 2
                && !their_pocket_blockers
                && (theirs - board.by_role(Role::King) - board.by_role(Role::Queen)).is_empty();
        }
        if (ours & board.by_role(Role::Bishop)).is_nonempty() {
            let bishops = board.by_role(Role::Bishop);
            let one_colour = (bishops & Bitboard::DARK_SQUARES).is_empty()
                || (bishops & Bitboard::LIGHT_SQUARES).is_empty();
            return one_colour
                && !their_pocket_blockers
                && (board.by_role(Role::Pawn) | board.by_role(Role::Knight)).is_empty();
        }
        true
    }

    /// Whether neither side can checkmate (a dead position by material).
    pub fn is_insufficient_material(&self) -> bool {
        Color::ALL.iter().all(|&c| self.has_insufficient_material(c))
    }
}
