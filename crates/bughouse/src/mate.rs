//! Mate on board (RULES.md M1): checkmate that no drop could parry, whatever the reserve holds.

use chess_core::{Pockets, Position, Role};

/// Whether the side to move in `pos` is in *mate on board*: in check, and still without a legal
/// move if it held one piece of every kind in reserve. So a single check from a distance with an
/// empty square between checker and king is never mate on board (M1, M2); a contact, knight, pawn
/// or double check can be.
///
/// Board moves are the chess core's, where a promotion counts as the piece it becomes (see
/// ARCHITECTURE.md on promotions without removal).
pub fn is_mate_on_board(pos: &Position) -> bool {
    if !pos.is_check() {
        return false;
    }
    let mut full = *pos;
    let mover = pos.turn();
    if full.pockets().is_none() {
        full.enable_pockets();
    }
    let held = full.pockets().copied().unwrap_or_else(Pockets::default);
    for role in Role::POCKET {
        if held.count(role.of(mover)) == 0 {
            // Cannot fail: the pocket lacks this role, so it is below the maximum.
            let _ = full.add_to_pocket(role.of(mover));
        }
    }
    !full.has_legal_move()
}
