//! What a piece is worth on the board and in reserve, and a square's rank from a side's view:
//! the numbers the evaluation's terms share (`eval`, `king_safety`, the search's ordering and
//! wishes).

use chess_core::{Color, Position, Role, Square};

/// Value of a piece on the board, by role index (pawn, knight, bishop, rook, queen, king). Bughouse
/// values: minor pieces and the rook are worth less against the queen than in chess, because
/// drops make every piece a potential attacker and trades are cheap.
pub(crate) const BOARD_VALUE: [i32; 6] = [100, 300, 310, 460, 860, 0];

/// Value of a piece in reserve. A little more than on the board: it can be dropped on any empty
/// square, to attack or to block a check (a pawn in hand most of all). Dropping it must be paid for
/// by placement, mobility or an attack on the king.
pub(crate) const HAND_VALUE: [i32; 6] = [120, 320, 320, 470, 880, 0];

/// The value of the material a side holds in reserve.
pub(crate) fn hand_value(pos: &Position, color: Color) -> i32 {
    pos.pockets().map_or(0, |p| {
        Role::POCKET.iter().map(|r| HAND_VALUE[r.index()] * i32::from(p.of(color).count(*r))).sum()
    })
}

/// The rank of a square counted from a side's first rank, 0 to 7.
pub(crate) fn relative_rank(sq: Square, color: Color) -> usize {
    match color {
        Color::White => sq.rank().index(),
        Color::Black => 7 - sq.rank().index(),
    }
}
