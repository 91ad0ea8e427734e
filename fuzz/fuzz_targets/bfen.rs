//! BFEN (two FENs joined by `|`, with the `U`/`u` and `(bg)` castling extensions): a game that
//! reads under either preset writes back to a BFEN that reads as the same game, every legal move
//! of both boards plays, and a spread of them (at most eight a board: reading one back generates
//! the moves again) reads back from its long notation and its SAN.
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
        assert_eq!(again, game, "{text:?} and its BFEN {bfen:?} read as different games");
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
