//! Static evaluation, in centipawns from the side to move's view: material on the board and in
//! reserve, king safety (see `king_safety`), mobility, a little piece placement, and a tempo.
//!
//! One pass over the pieces computes each piece's attacks once and feeds three terms with them:
//! mobility, the squares each side controls, and the attack units against each king.

use chess_core::attacks::{self, king_attacks};
use chess_core::{Bitboard, ByColor, Color, File, Position, Role, Square};

use crate::king_safety;

/// Value of a piece on the board, by role index (pawn, knight, bishop, rook, queen, king). Bughouse
/// values: minor pieces and the rook are worth less against the queen than in chess, because
/// drops make every piece a potential attacker and trades are cheap.
pub(crate) const BOARD_VALUE: [i32; 6] = [100, 300, 310, 460, 860, 0];

/// Value of a piece in reserve. A little more than on the board: it can be dropped on any empty
/// square, to attack or to block a check (a pawn in hand most of all). Dropping it must be paid for
/// by placement, mobility or an attack on the king.
pub(crate) const HAND_VALUE: [i32; 6] = [120, 320, 320, 470, 880, 0];

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

/// The value of the material a side holds in reserve.
pub(crate) fn hand_value(pos: &Position, color: Color) -> i32 {
    pos.pockets().map_or(0, |p| {
        Role::POCKET.iter().map(|r| HAND_VALUE[r.index()] * i32::from(p.of(color).count(*r))).sum()
    })
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

/// The rank of a square counted from a side's first rank, 0 to 7.
pub(crate) fn relative_rank(sq: Square, color: Color) -> usize {
    match color {
        Color::White => sq.rank().index(),
        Color::Black => 7 - sq.rank().index(),
    }
}

/// 0 on the rim to 3 in the four centre squares.
fn centrality(sq: Square) -> i32 {
    let f = sq.file().index() as i32;
    let r = sq.rank().index() as i32;
    let edge = f.min(7 - f).min(r).min(7 - r);
    edge.min(3)
}
