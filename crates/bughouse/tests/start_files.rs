//! The files a Chess960 position's rooks started on survive play, BFEN and every start (RULES.md
//! P5, P5a, section 9): without them a rook dropped on its start square could not castle once
//! both rights were gone, and one dropped on the standard corner could.

mod common;

use bughouse::{BoardId::*, Game, RuleOptions, Rules, chess960_back_rank};
use chess_core::{Color, File, Move, Piece, Rank, Role, Square};
use common::*;
use testkit::SplitMix;

/// Chess960 position 342 (`NRBKQBRN`) thinned out: kings on d1/d8, rooks on their start squares
/// b and g, all four rights. White holds a rook.
const RIGHTS: &str = "1r1k2r1/8/8/8/8/8/8/1R1K2R1[R] w GBgb - 0 1";
/// A filler for board B.
const KINGS: &str = "3k4/8/8/8/8/8/8/3K4[] w - - 0 1";
/// [`RIGHTS`] after 1. Rb2 Rb7 2. Rg2 Rg7: every right lost, neither king moved.
const LOST: &str = "3k4/1r4r1/8/8/8/8/1R4R1/3K4[R] w Uu(bg) - 4 3";

fn rights_lost_in_play() -> Game {
    let mut g = game(&bfen(RIGHTS, KINGS));
    for text in ["b1b2", "b8b7", "g1g2", "g8g7"] {
        play(&mut g, A, text);
    }
    g
}

/// White drops the rook on `square` with every right gone, Black answers, and White tries to
/// castle queen side (king d1 to c1, the rook to d1).
fn castles_after_dropping_on(mut g: Game, square: &str) -> bool {
    play(&mut g, A, &format!("R@{square}"));
    play(&mut g, A, "b7b6");
    let castles = g.parse_move(A, "O-O-O").is_ok();
    assert_eq!(castles, moves(&g, A).contains(&format!("d1{square}")), "{}", g.bfen());
    if castles {
        play(&mut g, A, "O-O-O");
        // Black's king never moved: its start files still count.
        assert_eq!(g.bfen(), bfen("3k4/6r1/1r6/8/8/8/1R4R1/2KR4[] b u(bg) - 2 4", KINGS));
    }
    castles
}

#[test]
fn p5_chess960_rights_lost_in_play_a_rook_dropped_on_b1_castles_on_a1_not() {
    let g = rights_lost_in_play();
    assert!(castles_after_dropping_on(g, "b1"), "b1 is the queen-side rook's start square");
    assert!(!castles_after_dropping_on(g, "a1"), "a1 is no start square in this array");
}

#[test]
fn p5_chess960_start_files_survive_a_bfen_round_trip() {
    let played = rights_lost_in_play();
    assert_eq!(played.bfen(), bfen(LOST, KINGS), "BFEN writes the start files");
    let read = game(&bfen(LOST, KINGS));
    assert_eq!(read, played, "the same position, start files and all");
    assert_eq!(read.bfen(), bfen(LOST, KINGS));
    assert!(castles_after_dropping_on(read, "b1"));
    assert!(!castles_after_dropping_on(read, "a1"));
}

#[test]
fn p5_standard_positions_write_as_before_and_castle_from_the_corners() {
    // The same placement from a standard start: no start files are written, a and h are meant.
    let standard = "3k4/1r4r1/8/8/8/8/1R4R1/3K4[R] w Uu - 4 3";
    let g = game(&bfen(standard, KINGS));
    assert_eq!(g.bfen(), bfen(standard, KINGS));
    assert_eq!(Game::new(*g.rules()).bfen(), bfen(START, START));
    let mut a1 = g;
    play(&mut a1, A, "R@a1");
    play(&mut a1, A, "b7b6");
    assert!(a1.parse_move(A, "O-O-O").is_ok(), "{}", a1.bfen());
    let mut b1 = g;
    play(&mut b1, A, "R@b1");
    play(&mut b1, A, "b7b6");
    assert!(b1.parse_move(A, "O-O-O").is_err(), "{}", b1.bfen());
}

fn rules() -> Rules {
    RuleOptions::mgimo_2017().rules().unwrap()
}

/// The back-rank square of `color` on `file`.
fn home(color: Color, file: File) -> Square {
    Square::from_coords(file, Rank::FIRST.relative_to(color))
}

#[test]
fn p5_every_chess960_start_with_rights_removed_round_trips_bfen_and_castles_from_its_files() {
    let rules = rules();
    for n in 0..960 {
        let array = chess960_back_rank(n);
        let files_of = |role: Role| -> Vec<File> {
            (0..8).filter(|&i| array[i] == role).map(|i| File::new(i as u32).unwrap()).collect()
        };
        let (rooks, knights) = (files_of(Role::Rook), files_of(Role::Knight));
        let start = *Game::chess960(n, rules).board(A);
        // Bits 0-3: the rook (White a-side, White h-side, Black a-side, Black h-side) loses its
        // right; bits 4-5: White's, Black's king has moved (taking that side's rights with it).
        for mask in (0u32..16).chain([16, 32, 48]) {
            let mut pos = start;
            for (bit, (color, file)) in [Color::White, Color::Black]
                .into_iter()
                .flat_map(|c| rooks.iter().map(move |&f| (c, f)))
                .enumerate()
            {
                if mask & (1 << bit) != 0 {
                    let sq = home(color, file);
                    pos.remove_piece_at(sq).unwrap();
                    pos.put_piece_at(sq, Role::Rook.of(color), false).unwrap();
                }
            }
            for (bit, color) in [(4, Color::White), (5, Color::Black)] {
                if mask & (1 << bit) != 0 {
                    pos.set_king_moved(color, true);
                }
            }
            let g = Game::from_positions(pos, start, rules);
            let text = g.bfen();
            // The files are written where FEN's rights would read back others: a side no right
            // names reads as a or h, and without any right the position is not Chess960.
            let lost = |bit: u32, king: u32| mask & (1 << bit | 1 << king) != 0;
            let named = [!lost(0, 4) || !lost(2, 5), !lost(1, 4) || !lost(3, 5)];
            let written = named == [false, false]
                || (!named[0] && rooks[0] != File::A)
                || (!named[1] && rooks[1] != File::H);
            assert_eq!(text.contains('('), written, "{n}/{mask}: {text}");
            let read = Game::from_bfen(&text, rules).unwrap_or_else(|e| panic!("{n}/{mask}: {text}: {e}"));
            assert_eq!(read.bfen(), text, "{n}/{mask}");
            assert_eq!(read, g, "{n}/{mask}: {text}");
        }
        // No rights left and White's king unmoved: after a round trip, a rook dropped on an empty
        // back-rank square gains a right exactly on the two start squares (a knight's is not one).
        let mut pos = start;
        for file in [rooks[0], rooks[1], knights[0]] {
            pos.remove_piece_at(home(Color::White, file)).unwrap();
        }
        for file in [rooks[0], rooks[1]] {
            let sq = home(Color::Black, file);
            pos.remove_piece_at(sq).unwrap();
            pos.put_piece_at(sq, Role::Rook.of(Color::Black), false).unwrap();
        }
        pos.add_to_pocket(Piece { color: Color::White, role: Role::Rook }).unwrap();
        let text = Game::from_positions(pos, start, rules).bfen();
        let read = *Game::from_bfen(&text, rules).unwrap().board(A);
        for file in [rooks[0], rooks[1], knights[0]] {
            let mut after = read;
            let to = home(Color::White, file);
            after.play(Move::Drop { role: Role::Rook, to }).unwrap();
            let right = after.castling().rooks_of(Color::White).contains(to);
            assert_eq!(right, file != knights[0], "{n}: a rook dropped on {to} after {text}");
        }
    }
}

#[test]
fn p5_random_chess960_games_round_trip_bfen_exactly() {
    let rules = rules();
    let (base, _say) = testkit::seeded(0);
    let mut rng = SplitMix(base ^ 960);
    let mut without_rights = 0;
    for _game in 0..12 {
        let mut g = Game::chess960(rng.below(960) as u16, rules);
        for _ply in 0..160 {
            let boards: Vec<_> = [A, B].into_iter().filter(|&b| !g.legal_moves(b).is_empty()).collect();
            if boards.is_empty() {
                break;
            }
            let board = boards[rng.below(boards.len())];
            let moves = g.legal_moves(board);
            g.play(moves[rng.below(moves.len())]).unwrap();
            let text = g.bfen();
            let read = Game::from_bfen(&text, rules).unwrap_or_else(|e| panic!("{text}: {e}"));
            assert_eq!(read.bfen(), text);
            assert_eq!(read, g, "{text}");
            without_rights += usize::from([A, B].iter().any(|&b| g.board(b).castling().is_empty()));
        }
    }
    assert!(without_rights > 100, "{without_rights} positions without castling rights");
}

#[test]
fn p5a_bfen_start_files_that_cannot_be_are_clear_errors() {
    let board = "1r1k2r1/8/8/8/8/8/8/1R1K2R1[R] w";
    for (castling, says) in [
        ("Uu(gb)", "the queen-side start file (g) must lie left of the king-side one (b)"),
        ("Uu(bg", "'(' without a closing ')'"),
        ("Uu(b)", "expected two files in '(b)'"),
        ("Uu(bgh)", "expected two files in '(bgh)'"),
        ("Uu(bz)", "'z' is not a file"),
        ("(bg)Uu", "the start files must end the castling field"),
        ("(bg)", "expected castling rights or '-' before the start files"),
        ("Bu(ag)", "a castling rook stands on b1, but the queen-side rooks start on the a-file"),
    ] {
        let text = bfen(&format!("{board} {castling} - 0 1"), KINGS);
        let e = Game::from_bfen(&text, rules()).unwrap_err();
        assert_eq!(e.board, Some(A), "{text}");
        assert!(e.message.contains(says), "{text}: {e}");
    }
}
