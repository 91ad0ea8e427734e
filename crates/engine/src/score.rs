//! Search scores: centipawns from the side to move's view, with mate scores near [`MATE`] that
//! count the plies to the mate, so a shorter mate scores higher.

/// Larger than any score.
pub(crate) const INF: i32 = 32_000;

/// The score of mate on board (RULES.md M1) delivered now; a mate `n` plies away scores
/// `MATE - n` for the mating side and `-(MATE - n)` for the mated side.
pub const MATE: i32 = 30_000;

/// Scores beyond this (either sign) are mate scores.
pub(crate) const MATE_BOUND: i32 = MATE - 1_000;

/// What waiting costs (RULES.md M2, M3): a side with no legal move that is not mated cannot move
/// until its partner sends material while its clock runs — clearly bad, but not a loss.
pub(crate) const WAIT_PENALTY: i32 = 400;

/// Whether a score says mate (for either side).
pub(crate) fn is_mate(score: i32) -> bool {
    score.abs() > MATE_BOUND
}

/// A score as the transposition table stores it: mate scores counted from the stored node rather
/// than from the root, so they stay right when the node is reached at another ply.
pub(crate) fn to_table(score: i32, ply: usize) -> i32 {
    let ply = ply as i32;
    if score > MATE_BOUND {
        score + ply
    } else if score < -MATE_BOUND {
        score - ply
    } else {
        score
    }
}

/// The inverse of [`to_table`] at the probing node's ply.
pub(crate) fn from_table(score: i32, ply: usize) -> i32 {
    let ply = ply as i32;
    if score > MATE_BOUND {
        score - ply
    } else if score < -MATE_BOUND {
        score + ply
    } else {
        score
    }
}
