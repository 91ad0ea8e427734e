//! Move text (long notation `e7e8qd1`, SAN `e8=Qd1`, drops `N@f3`) in a position: the input is
//! a BFEN line and a move line (a single line is a move in the starting position). Whatever
//! reads is legal in the position, plays, and reads back from the notation the game writes for
//! it; the rules core's own SAN and long-notation readers only ever give legal moves.
#![no_main]

use bughouse::{BoardId, Game, RuleOptions};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let (position, move_text) = text.split_once('\n').unwrap_or(("", text));
    for options in [RuleOptions::mgimo_2017(), RuleOptions::classic()] {
        let rules = options.rules().expect("the presets are valid");
        let game = if position.is_empty() {
            Game::new(rules)
        } else {
            match Game::from_bfen(position, rules) {
                Ok(game) => game,
                Err(_) => return,
            }
        };
        for board in [BoardId::A, BoardId::B] {
            let pos = game.board(board);
            if let Ok(m) = pos.parse_san(move_text) {
                assert!(pos.is_legal(&m), "core SAN {move_text:?} gave illegal {m:?}");
            }
            if let Ok(m) = pos.parse_uci(move_text) {
                assert!(pos.is_legal(&m), "core long notation {move_text:?} gave illegal {m:?}");
            }
            let Ok(m) = game.parse_move(board, move_text) else { continue };
            assert!(game.is_legal(&m), "{move_text:?} on {board} gave illegal {m:?}");
            assert!(game.legal_moves(board).contains(&m), "{move_text:?} on {board}: {m:?} not listed");
            let uci = game.uci(&m);
            assert_eq!(game.parse_move(board, &uci).ok(), Some(m), "{move_text:?} written {uci:?}");
            let san = game.san(&m);
            assert_eq!(game.parse_move(board, &san).ok(), Some(m), "{move_text:?} written {san:?}");
            let mut after = game;
            after.play(m).unwrap_or_else(|e| panic!("{move_text:?} read but refused: {e}"));
        }
    }
});
