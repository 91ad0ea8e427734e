//! BFEN (two FENs joined by `|`, with the `U`/`u` and `(bg)` castling extensions): a game that
//! reads under either preset writes back to a BFEN that reads as the same game (but for a double
//! step whose en passant capture is illegal now: a BFEN writes the right, not that fact), every
//! legal move of both boards plays, and a spread of them (at most eight a board: reading one back
//! generates the moves again) reads back from its long notation and its SAN.
#![no_main]

use bughouse::{BoardId, Game, RuleOptions};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    for options in [RuleOptions::mgimo_2017(), RuleOptions::classic()] {
        let rules = options.rules().expect("the presets are valid");
        let Ok(game) = Game::from_bfen(text, rules) else { return };
        let bfen = game.bfen();
        let again = Game::from_bfen(&bfen, rules)
            .unwrap_or_else(|e| panic!("{bfen:?} (from {text:?}) does not read back: {e}"));
        assert_eq!(again.bfen(), bfen);
        let expected = Game::from_bfen(&without_unwritten_ep(text, &game), rules)
            .expect("the input with fewer en passant squares reads");
        assert_eq!(again, expected, "{text:?} and its BFEN {bfen:?} read as different games");
        for board in [BoardId::A, BoardId::B] {
            let moves = game.legal_moves(board);
            for m in &moves {
                let mut after = game;
                after.play_unchecked(*m);
                let _ = after.bfen();
            }
            for &m in moves.iter().step_by(moves.len().div_ceil(8).max(1)) {
                let uci = game.uci(&m);
                assert_eq!(game.parse_move(board, &uci).ok(), Some(m), "{uci} on {board} in {bfen}");
                let san = game.san(&m);
                assert_eq!(game.parse_move(board, &san).ok(), Some(m), "{san} on {board} in {bfen}");
                let mut after = game;
                after.play(m).unwrap_or_else(|e| panic!("legal {uci} refused in {bfen}: {e}"));
            }
        }
    }
});

/// `text` with the en passant field cleared on each board whose double step has no legal capture
/// now: the position keeps that fact, but a BFEN writes only the right.
fn without_unwritten_ep(text: &str, game: &Game) -> String {
    let parts: Vec<String> = text
        .split('|')
        .zip(BoardId::ALL)
        .map(|(part, board)| {
            let pos = game.board(board);
            // Split as `Game::from_bfen` does.
            let mut fields: Vec<&str> = part.split_whitespace().collect();
            if pos.ep_target().is_some() && pos.ep_square().is_none() {
                fields[3] = "-";
            }
            fields.join(" ")
        })
        .collect();
    parts.join(" | ")
}
