//! Random full games on both boards under both presets: colour conservation (C2) after every
//! move, BFEN round-trip of every position, every listed move playable, no panic.

mod common;

use bughouse::{BoardId, Game, RuleOptions};
use chess_core::Color;
use testkit::SplitMix;

#[test]
fn c2_random_games_conserve_colours_and_round_trip_bfen() {
    let mut checked = 0;
    let mut captures_seen = 0;
    let mut drops_seen = 0;
    let mut removals_seen = 0;
    let (base, _say) = testkit::seeded(0);
    for preset in bughouse::PRESETS {
        let rules = RuleOptions::preset(preset).unwrap().rules().unwrap();
        let mut rng = SplitMix(base.wrapping_add(preset.len() as u64));
        for _game in 0..40 {
            let mut g = Game::new(rules);
            for _ply in 0..300 {
                // Pick a board with a move; the match ends at mate on board or when both wait.
                let boards: Vec<BoardId> =
                    BoardId::ALL.into_iter().filter(|&b| !g.legal_moves(b).is_empty()).collect();
                if boards.is_empty() || BoardId::ALL.iter().any(|&b| g.is_mate_on_board(b)) {
                    break;
                }
                let board = boards[rng.below(boards.len())];
                let moves = g.legal_moves(board);
                let m = moves[rng.below(moves.len())];
                captures_seen += usize::from(m.mv.is_capture());
                drops_seen += usize::from(m.mv.is_drop());
                removals_seen += usize::from(m.removal.is_some());
                // Notation round-trips too.
                assert_eq!(g.parse_move(board, &g.uci(&m)), Ok(m), "{}", g.bfen());
                assert_eq!(g.parse_move(board, &g.san(&m)), Ok(m), "{} in {}", g.san(&m), g.bfen());
                g.play(m).unwrap();
                assert_eq!(
                    (g.units(Color::White), g.units(Color::Black)),
                    (32, 32),
                    "C2 after {}: {}",
                    g.uci(&m),
                    g.bfen()
                );
                let text = g.bfen();
                let back = Game::from_bfen(&text, rules).unwrap_or_else(|e| panic!("{text}: {e}"));
                assert_eq!(back.bfen(), text);
                assert_eq!(back.repetition_key(BoardId::A), g.repetition_key(BoardId::A), "{text}");
                assert_eq!(back.repetition_key(BoardId::B), g.repetition_key(BoardId::B), "{text}");
                checked += 1;
            }
        }
    }
    assert!(checked > 10_000, "{checked}");
    assert!(captures_seen > 1_000 && drops_seen > 1_000, "{captures_seen} captures, {drops_seen} drops");
    assert!(removals_seen > 0, "no promotion by removal was played");
}
