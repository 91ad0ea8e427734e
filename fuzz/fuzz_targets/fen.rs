//! FEN (X-FEN and Shredder castling, pockets, promoted marks): a position that reads writes back
//! to a FEN that reads as the same position, and is one the rules core can play from: every legal
//! move plays, and a spread of them (at most eight: reading one back generates the moves again)
//! reads back from its SAN and its long notation.
#![no_main]

use chess_core::Position;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let Ok(pos) = Position::from_fen(text) else { return };
    let fen = pos.fen();
    let again = Position::from_fen(&fen)
        .unwrap_or_else(|e| panic!("{fen:?} (from {text:?}) does not read back: {e}"));
    assert_eq!(again.fen(), fen);
    assert_eq!(again, pos, "{text:?} and its FEN {fen:?} read as different positions");
    let moves = pos.legal_moves();
    for m in &moves {
        let mut after = pos;
        after.play_unchecked(*m);
        let _ = after.fen();
    }
    for &m in moves.iter().step_by(moves.len().div_ceil(8).max(1)) {
        let san = pos.san(&m);
        assert_eq!(pos.parse_san(&san).ok(), Some(m), "SAN {san} in {fen}");
        let uci = pos.uci(&m);
        assert_eq!(pos.parse_uci(&uci).ok(), Some(m), "{uci} in {fen}");
        let mut after = pos;
        after.play(m).unwrap_or_else(|e| panic!("legal {uci} refused in {fen}: {e}"));
    }
});
