//! A Chess960 record (A4, docs/RULES.md section 9): the start travels as `SetUp`/`FEN` tags, the
//! record round-trips, replays to the same position (Chess960 castling included), passes the A1
//! check, and each board's PGN names its start.

mod common;

use bughouse::{BoardId, Game};
use common::{one, rules};
use shvedka_records::{CheckReport, Record, check_record};

const FEN_0: &str = "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1";

fn played() -> (Record, Game) {
    let mut game = Game::chess960(0, rules("mgimo-2017"));
    let mut record = Record::new();
    record.set_chess960_start(0);
    let moves = [
        (BoardId::A, "Nc3"),
        (BoardId::B, "e4"),
        (BoardId::A, "Nc6"),
        (BoardId::A, "Nf3"),
        (BoardId::A, "Nf6"),
        (BoardId::A, "d3"),
        (BoardId::A, "d6"),
        (BoardId::A, "Qd2"),
        (BoardId::A, "Qd7"),
        (BoardId::A, "O-O-O"),
    ];
    for (board, text) in moves {
        let m = game.parse_move(board, text).unwrap_or_else(|e| panic!("{text}: {e}"));
        record.push_played(&game, &m, None);
        game.play(m).unwrap();
    }
    (record, game)
}

#[test]
fn a4_chess960_record_carries_its_start_in_setup_and_fen_tags() {
    let (record, game) = played();
    let text = record.to_bpgn();
    assert!(text.contains("[SetUp \"1\"]\n"), "{text}");
    assert!(text.contains(&format!("[FEN \"{FEN_0}\"]\n")), "{text}");
    let back = one(&text);
    assert_eq!(back, record);
    let replay = back.replay(rules("mgimo-2017")).unwrap();
    assert_eq!(replay.final_game(), &game);
    let rank1 = game.board(BoardId::A).fen();
    assert!(rank1.contains("/BBKR3R"), "castled the Chess960 way: {rank1}");
    assert_eq!(check_record(&back, rules("mgimo-2017")), CheckReport::default());
    let pgn = back.to_pgn(BoardId::B);
    assert!(pgn.contains(&format!("[FEN \"{FEN_0}\"]")), "{pgn}");
}
