//! Zobrist keys, computed at compile time from a fixed seed so hashes are stable across builds and
//! machines (they may be stored and compared).

use crate::{Color, Piece, Role, Square};

const fn splitmix(state: u64) -> (u64, u64) {
    let state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (state, z ^ (z >> 31))
}

const POCKET_SLOTS: usize = 65;
const PIECE_KEYS: usize = 2 * 6 * 64;
const CASTLE_KEYS: usize = 64;
const KING_MOVED_KEYS: usize = 2;
const EP_KEYS: usize = 8;
const POCKET_KEYS: usize = 2 * 5 * POCKET_SLOTS;
const TOTAL: usize = PIECE_KEYS + CASTLE_KEYS + KING_MOVED_KEYS + EP_KEYS + POCKET_KEYS + 1;

static KEYS: [u64; TOTAL] = {
    let mut keys = [0u64; TOTAL];
    let mut state = 0x5348_5645_444B_4121; // "SHVEDKA!"
    let mut i = 0;
    while i < TOTAL {
        let (s, k) = splitmix(state);
        state = s;
        keys[i] = k;
        i += 1;
    }
    keys
};

#[inline]
pub(crate) fn piece(p: Piece, sq: Square) -> u64 {
    KEYS[(p.color.index() * 6 + p.role.index()) * 64 + sq.index()]
}

#[inline]
pub(crate) fn castling_rook(sq: Square) -> u64 {
    KEYS[PIECE_KEYS + sq.index()]
}

#[inline]
pub(crate) fn king_moved(color: Color) -> u64 {
    KEYS[PIECE_KEYS + CASTLE_KEYS + color.index()]
}

#[inline]
pub(crate) fn en_passant(sq: Square) -> u64 {
    KEYS[PIECE_KEYS + CASTLE_KEYS + KING_MOVED_KEYS + sq.file().index()]
}

/// The key of holding exactly `count` pieces of a kind (0 has a key of 0, so empty pockets leave
/// the hash of standard chess unchanged).
#[inline]
pub(crate) fn pocket(color: Color, role: Role, count: u8) -> u64 {
    if count == 0 {
        return 0;
    }
    let slot = (color.index() * 5 + role.index()) * POCKET_SLOTS + usize::from(count).min(64);
    KEYS[PIECE_KEYS + CASTLE_KEYS + KING_MOVED_KEYS + EP_KEYS + slot]
}

#[inline]
pub(crate) fn black_to_move() -> u64 {
    KEYS[TOTAL - 1]
}
