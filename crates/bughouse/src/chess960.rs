//! Chess960 start positions (FIDE appendix F), numbered 0–959 as Scharnagl numbers them (518 is
//! the standard array). A bughouse match on Chess960 starts both boards from the same position
//! (docs/RULES.md, section 9); castling rights are written the Shredder way (`HAha`), so the
//! position plays by the Chess960 castling rules whatever its array.

use chess_core::{Position, Role};

use crate::Game;
use crate::options::Rules;

/// How many Chess960 start positions there are.
pub const CHESS960_POSITIONS: u16 = 960;

/// The number of the standard array among them.
pub const STANDARD_CHESS960: u16 = 518;

/// The White back rank of Chess960 position `n` (0–959; taken modulo 960), from file a to h.
pub fn chess960_back_rank(n: u16) -> [Role; 8] {
    let n = n % CHESS960_POSITIONS;
    let mut rank: [Option<Role>; 8] = [None; 8];
    let (n, light) = (n / 4, n % 4);
    rank[usize::from(2 * light + 1)] = Some(Role::Bishop);
    let (n, dark) = (n / 4, n % 4);
    rank[usize::from(2 * dark)] = Some(Role::Bishop);
    let (knights, queen) = (n / 6, n % 6);
    place(&mut rank, usize::from(queen), Role::Queen);
    // The ten ways of putting two knights on the five squares left, in Scharnagl's order.
    const KNIGHTS: [(usize, usize); 10] =
        [(0, 1), (0, 2), (0, 3), (0, 4), (1, 2), (1, 3), (1, 4), (2, 3), (2, 4), (3, 4)];
    let (first, second) = KNIGHTS[usize::from(knights)];
    // The second index counts among the squares left after the first knight.
    place(&mut rank, second, Role::Knight);
    place(&mut rank, first, Role::Knight);
    for role in [Role::Rook, Role::King, Role::Rook] {
        place(&mut rank, 0, role);
    }
    rank.map(|r| r.expect("every square is filled"))
}

/// Puts `role` on the `nth` empty square (0-based) of the rank.
fn place(rank: &mut [Option<Role>; 8], nth: usize, role: Role) {
    let sq = rank.iter().enumerate().filter(|(_, r)| r.is_none()).nth(nth).map(|(i, _)| i);
    rank[sq.expect("the square exists")] = Some(role);
}

/// The FEN of Chess960 position `n`, with empty reserves and full Shredder castling rights.
pub fn chess960_fen(n: u16) -> String {
    let rank = chess960_back_rank(n);
    let white: String = rank.iter().map(|r| r.char().to_ascii_uppercase()).collect();
    let rooks: String = rank
        .iter()
        .enumerate()
        .filter(|(_, r)| **r == Role::Rook)
        .map(|(i, _)| char::from(b'a' + i as u8))
        .rev()
        .collect();
    format!(
        "{}/pppppppp/8/8/8/8/PPPPPPPP/{white}[] w {}{rooks} - 0 1",
        white.to_ascii_lowercase(),
        rooks.to_ascii_uppercase()
    )
}

impl Game {
    /// Both boards at Chess960 position `n` (0–959), empty reserves.
    pub fn chess960(n: u16, rules: Rules) -> Game {
        let fen = chess960_fen(n);
        let pos = Position::from_fen(&fen).expect("every Chess960 start position is a legal setup");
        Game::from_positions(pos, pos, rules)
    }
}
