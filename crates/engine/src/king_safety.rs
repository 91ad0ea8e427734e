//! King safety, the term that decides most bughouse games: a king is in danger when enemy pieces
//! hit the squares around it, and even more when the enemy holds pieces in reserve that can be
//! dropped next to it — on empty squares its own side does not defend, on knight-check squares, on
//! pawn-check squares. A pawn shield in front of a king on its first two ranks helps.
//!
//! Attack units add up (pieces hitting the zone, drop holes, drop checks) and the penalty grows
//! with their square, capped; the enemy's reserve scales it up to double.

use chess_core::attacks::{knight_attacks, pawn_attacks};
use chess_core::{Bitboard, ByColor, Color, Position, Rank, Role};

use crate::values::{hand_value, relative_rank};

/// What each side controls and how hard each king is attacked; the inputs of `king_safety`.
pub(crate) struct Control {
    /// Squares attacked by each side's pawns and pieces (kings excluded: a king does not defend
    /// its own zone against a supported drop).
    pub(crate) attacked: ByColor<Bitboard>,
    /// Attack units of the enemy's pieces and pawns against each side's king zone.
    pub(crate) units: ByColor<i32>,
    /// The squares next to each side's king.
    pub(crate) zone: ByColor<Bitboard>,
}

/// Units beyond this add nothing.
const MAX_UNITS: i32 = 40;
/// The penalty before the reserve scaling is at most this.
const MAX_DANGER: i32 = 1_200;
/// Per own pawn on the three squares in front of the king, and on the three beyond them.
const SHIELD: [i32; 2] = [14, 6];
/// Per rank the king has left its first rank (at most three counted).
const KING_ADVANCED: i32 = 20;

/// The king-safety penalty of `color`'s king (positive = bad for `color`).
pub(crate) fn danger(pos: &Position, color: Color, control: &Control) -> i32 {
    let board = pos.board();
    let Some(king) = board.king_of(color) else { return 0 };
    let them = !color;
    let zone = control.zone[color];
    let empty = !board.occupied();
    let defended = control.attacked[color];
    let mut units = control.units[color];

    let pocket = pos.pockets().map(|p| *p.of(them)).unwrap_or_default();
    if !pocket.is_empty() {
        // Empty squares next to the king its side does not defend: a dropped piece lands there
        // unopposed, and when an enemy piece supports the square the king cannot take it either.
        let holes = zone & empty & !defended;
        units += holes.count() as i32 + 2 * (holes & control.attacked[them]).count() as i32;
    }
    if pocket.count(Role::Knight) > 0 {
        units += 2 * (knight_attacks(king) & empty & !defended).count() as i32;
    }
    if pocket.count(Role::Pawn) > 0 {
        let checks = pawn_attacks(color, king) & empty & pos.drop_rules().pawn_drop_squares(them);
        units += checks.count() as i32;
    }

    let units = units.min(MAX_UNITS);
    let mut penalty = (units * units * 3 + units * 5).min(MAX_DANGER);
    penalty = penalty * (256 + hand_value(pos, them).min(2_560) / 10) / 256;

    let rank = relative_rank(king, color);
    if rank <= 1 {
        let ours = board.by_piece(Role::Pawn.of(color));
        let front =
            Rank::new(rank as u32 + 1).map_or(Bitboard::EMPTY, |r| Bitboard::rank(r.relative_to(color)));
        let first = zone & front;
        let second = first.shift(color.fold(8, -8));
        penalty -= SHIELD[0] * (ours & first).count() as i32 + SHIELD[1] * (ours & second).count() as i32;
    } else {
        penalty += KING_ADVANCED * (rank as i32).min(3);
    }
    penalty
}
