//! A Chess960 match end to end over the protocol (docs/RULES.md section 9): created from the
//! lobby with the option, both boards from the same position fixed at the countdown and
//! announced with it, played, recorded with `SetUp`/`FEN` tags, and restored from the database
//! at the same position.

use std::time::Duration;

use bughouse::{Game, RuleOptions};
use shvedka_proto::{Board, EventView, MatchId, SeatId, ServerMsg};
use shvedka_tests::*;

/// The Chess960 number of a start BFEN whose two boards are alike.
fn chess960_number(bfen: &str) -> Option<u16> {
    let rules = RuleOptions::mgimo_2017().rules().unwrap();
    let game = Game::from_bfen(bfen, rules).ok()?;
    (0..960).find(|&n| Game::chess960(n, rules) == game)
}

#[tokio::test]
async fn chess960_match_over_the_protocol_from_lobby_to_record_and_restart() {
    let server = TestServer::start("").await;
    let mut c = Vec::new();
    for seat in SeatId::ALL {
        c.push(server.client(seat.name()).await);
    }
    let id: MatchId = c[0].create_match_with("mgimo-2017", "blitz", true, true).await.unwrap();
    let plain = c[0].create_match("mgimo-2017", "blitz", true).await.unwrap();
    let lobby = c[0].list_matches().await.unwrap();
    let flags: Vec<(MatchId, bool)> = lobby.iter().map(|m| (m.match_id, m.chess960)).collect();
    assert_eq!(flags, [(id, true), (plain, false)], "the lobby says which match is Chess960");
    for (client, seat) in c.iter().zip(SeatId::ALL) {
        client.take_seat(id, seat).await.unwrap();
    }
    for client in &c {
        client.ready(true).await.unwrap();
    }
    // The countdown fixes the position and announces it, the same for everyone.
    let mut starts = Vec::new();
    for client in &mut c {
        let e = wait_event(client, |e| matches!(e.kind, EventView::CountdownStarted { .. })).await;
        starts.push(e.bfen.expect("the countdown carries the Chess960 position"));
    }
    assert!(starts.iter().all(|b| *b == starts[0]));
    let n = chess960_number(&starts[0]).expect("both boards at one Chess960 position");
    for client in &mut c {
        wait_event(client, |e| matches!(e.kind, EventView::Started)).await;
    }
    // Pawns stand on their usual squares in every Chess960 array.
    for (i, (board, text)) in
        [(Board::A, "e4"), (Board::A, "e5"), (Board::B, "d4"), (Board::B, "d5")].into_iter().enumerate()
    {
        c[i].play(board, text, Some(Duration::from_millis(20))).await.unwrap();
    }
    let last =
        wait_event(&mut c[0], |e| matches!(&e.kind, EventView::Moved { uci, .. } if uci == "d7d5")).await;
    let bfen = last.bfen.expect("a move carries the position");

    // The record names the start in SetUp/FEN tags and replays to the same position.
    let bpgn = c[0].record(id).await.unwrap();
    let fen = bughouse::chess960_fen(n).replacen("[]", "", 1);
    assert!(bpgn.contains("[SetUp \"1\"]") && bpgn.contains(&format!("[FEN \"{fen}\"]")), "{bpgn}");
    let record = shvedka_records::parse_bpgn(&bpgn).unwrap().remove(0);
    let replay = record.replay(record.rules().unwrap()).unwrap();
    assert_eq!(replay.final_game().bfen(), bfen);

    // Restarted from the database, the match stands where it stood.
    drop(c);
    let server = server.restart().await;
    let mut watcher = server.client("watcher").await;
    watcher.watch(id).await.unwrap();
    let ServerMsg::State(state) = wait_msg(&mut watcher, |m| matches!(m, ServerMsg::State(_))).await else {
        unreachable!()
    };
    assert_eq!(state.bfen, bfen, "the restored match replays from its Chess960 start");
    server.stop().await;
}
