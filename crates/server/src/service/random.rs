//! The server's one random draw about a match: its Chess960 start (the match machine reads no
//! randomness; it is handed the number when the match is created, and fixes it at its countdown).

/// A Chess960 position number drawn at random (the match fixes it at its countdown).
pub(crate) fn chess960() -> u16 {
    let mut bytes = [0u8; 4];
    getrandom::fill(&mut bytes).expect("the system random source works");
    (u32::from_le_bytes(bytes) % u32::from(bughouse::CHESS960_POSITIONS)) as u16
}
