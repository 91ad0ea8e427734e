//! Static evaluation, in centipawns from the side to move's view: material on the board and in
//! reserve, king safety (see `king_safety`), mobility, a little piece placement, and a tempo.
//!
//! One pass over the pieces computes each piece's attacks once and feeds three terms with them:
//! mobility, the squares each side controls, and the attack units against each king.

use chess_core::attacks::{self, king_attacks};
use chess_core::{Bitboard, ByColor, Color, File, Position, Role, Square};

use crate::king_safety::{self, Control};
use crate::values::{BOARD_VALUE, HAND_VALUE, relative_rank};

/// Per square a piece attacks that is not its own side's.
const MOBILITY: [i32; 6] = [0, 4, 4, 2, 1, 0];

/// Attack units a piece adds per square of the enemy king's zone it hits (at most two counted).
const ATTACK_WEIGHT: [i32; 6] = [1, 2, 2, 3, 5, 0];

/// A pawn's bonus by relative rank: advanced pawns threaten promotion (a piece from the other
/// board under the removal rules).
const PAWN_ADVANCE: [i32; 8] = [0, 0, 4, 10, 20, 35, 60, 0];

/// Bonus for knights and bishops per step towards the centre (0 to 3).
const CENTRE: [i32; 6] = [0, 6, 3, 0, 0, 0];

/// For the side to move.
const TEMPO: i32 = 15;

/// The position's score for the side to move.
pub(crate) fn evaluate(pos: &Position) -> i32 {
    let board = pos.board();
    let occupied = board.occupied();
    let zone = ByColor::new_with(|c| board.king_of(c).map_or(Bitboard::EMPTY, king_attacks));
    let pawn_control = ByColor::new_with(|c| pawn_attacks(board.by_piece(Role::Pawn.of(c)), c));
    let mut control = Control {
        attacked: pawn_control,
        units: ByColor::new_with(|c| (pawn_control[!c] & zone[c]).count() as i32),
        zone,
    };
    let mut score = ByColor { white: 0, black: 0 };
    for color in Color::ALL {
        let own = board.by_color(color);
        for sq in board.by_piece(Role::Pawn.of(color)) {
            let rank = relative_rank(sq, color);
            score[color] += BOARD_VALUE[0] + PAWN_ADVANCE[rank];
        }
        for role in [Role::Knight, Role::Bishop, Role::Rook, Role::Queen] {
            let r = role.index();
            for sq in board.by_piece(role.of(color)) {
                let att = attacks::attacks(role, color, sq, occupied);
                control.attacked[color] |= att;
                score[color] += BOARD_VALUE[r] + MOBILITY[r] * (att - own).count() as i32;
                score[color] += CENTRE[r] * centrality(sq);
                let hits = (att & zone[!color]).count().min(2) as i32;
                control.units[!color] += ATTACK_WEIGHT[r] * hits;
            }
        }
        if let Some(pockets) = pos.pockets() {
            let pocket = pockets.of(color);
            for role in Role::POCKET {
                score[color] += HAND_VALUE[role.index()] * i32::from(pocket.count(role));
            }
        }
    }
    for color in Color::ALL {
        score[color] -= king_safety::danger(pos, color, &control);
    }
    let white = score.white - score.black;
    TEMPO + if pos.turn() == Color::White { white } else { -white }
}

/// The squares a set of pawns of a colour attacks.
fn pawn_attacks(pawns: Bitboard, color: Color) -> Bitboard {
    let west = pawns - Bitboard::file(File::A);
    let east = pawns - Bitboard::file(File::H);
    match color {
        Color::White => west.shift(7) | east.shift(9),
        Color::Black => west.shift(-9) | east.shift(-7),
    }
}

/// 0 on the rim to 3 in the four centre squares.
fn centrality(sq: Square) -> i32 {
    let f = sq.file().index() as i32;
    let r = sq.rank().index() as i32;
    let edge = f.min(7 - f).min(r).min(7 - r);
    edge.min(3)
}
