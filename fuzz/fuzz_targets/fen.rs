//! FEN (X-FEN and Shredder castling, pockets, promoted marks): a position that reads writes back
//! to a FEN that reads as the same position (but for a double step whose en passant capture is
//! illegal now: a FEN writes the right, not that fact), and is one the rules core can play from: every legal
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
    assert_eq!(again.zobrist(), pos.zobrist(), "{text:?} and its FEN {fen:?} hash apart");
    // A double step whose capture is illegal now is kept as a fact, but a FEN writes only the
    // right: read back, it is the input without that fact.
    let expected = if pos.ep_target().is_some() && pos.ep_square().is_none() {
        let mut fields: Vec<&str> = text.split_ascii_whitespace().collect();
        fields[3] = "-";
        Position::from_fen(&fields.join(" ")).expect("the input with no en passant square reads")
    } else {
        pos
    };
    assert_eq!(again, expected, "{text:?} and its FEN {fen:?} read as different positions");
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
