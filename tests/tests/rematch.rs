//! Rematch over the protocol: after a match is decided its four players agree a rematch
//! (`ClientMsg::Rematch`), each hears of the others' answers (`ServerMsg::Rematch`), and the
//! fourth acceptance creates the new match with the same rules and clock, the four seated in
//! it with the other colour on the same board, ready, so it starts; a decline ends the offer;
//! only the players may answer, and a live match has no offer yet.

use shvedka_client::ClientError;
use shvedka_proto::{ClientMsg, ErrorCode, EventView, MatchId, PhaseView, SeatId, ServerMsg};
use shvedka_tests::{TestServer, wait_event, wait_msg};

fn code<T: std::fmt::Debug>(r: Result<T, ClientError>) -> ErrorCode {
    match r {
        Err(ClientError::Server(e)) => e.code,
        other => panic!("expected a refusal, got {other:?}"),
    }
}

/// A 3+2 match of the four seats (`SeatId::ALL` order) decided by White-A's resignation.
async fn decided(server: &TestServer) -> (MatchId, Vec<shvedka_client::Client>) {
    let (id, mut clients) = server.seated_match("classic", "3+2").await;
    assert_eq!(
        code(clients[1].rematch(id, Some(true)).await),
        ErrorCode::Busy(shvedka_proto::Busy::NotOver),
        "a match in play has no rematch yet"
    );
    clients[0].resign().await.expect("resign");
    for c in &mut clients {
        wait_event(c, |e| matches!(e.kind, EventView::Ended(_))).await;
    }
    (id, clients)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn all_four_accept_and_play_again_with_colours_swapped_on_each_board() {
    let server = TestServer::start("").await;
    let (id, mut c) = decided(&server).await;
    let stranger = server.client("stranger").await;
    // Asked the moment the match is decided: the offer opens as its task ends.
    let view = c[0].rematch(id, Some(true)).await.expect("the offer opens once the match is over");
    assert_eq!(view.accepted, [true, false, false, false]);
    assert_eq!(view.players, SeatId::ALL.map(|s| s.name().to_owned()), "named by seat");
    assert_eq!(code(stranger.rematch(id, Some(true)).await), ErrorCode::Forbidden, "only its players");
    assert_eq!(code(stranger.rematch(MatchId(999), None).await), ErrorCode::NoSuchMatch);

    // Black-A listens, then White-B and Black-A accept: each change reaches those who asked.
    c[1].rematch(id, None).await.expect("listen");
    c[2].rematch(id, Some(true)).await.expect("accept");
    for who in [0, 1] {
        let m = wait_msg(&mut c[who], |m| matches!(m, ServerMsg::Rematch(_))).await;
        let ServerMsg::Rematch(v) = m else { unreachable!() };
        assert_eq!(v.accepted, [true, false, true, false], "seen by {who}");
    }
    c[1].rematch(id, Some(true)).await.expect("accept");
    let last = c[3].rematch(id, Some(true)).await.expect("the fourth acceptance");
    let new_id = last.rematch.expect("the new match");
    assert_ne!(new_id, id);
    assert_eq!(last.accepted, [true; 4]);

    // Each player gets the new match's state with the other colour on the same board, and it
    // starts by itself: all four are ready.
    let swapped = [SeatId::BlackA, SeatId::WhiteA, SeatId::BlackB, SeatId::WhiteB];
    for (client, seat) in c.iter_mut().zip(swapped) {
        let state = wait_msg(
            client,
            |m| matches!(m, ServerMsg::State(s) if s.match_id == new_id && s.your_seat.is_some()),
        )
        .await;
        let ServerMsg::State(s) = state else { unreachable!() };
        assert_eq!(s.your_seat, Some(seat));
        assert_eq!((s.rules.as_str(), s.time_control.as_str()), ("classic", "3+2"));
        wait_event(client, |e| e.match_id == new_id && matches!(e.kind, EventView::Started)).await;
    }
    let list = stranger.list_matches().await.expect("list");
    let summary = list.iter().find(|m| m.match_id == new_id).expect("listed as the old one was");
    assert_eq!(summary.phase, PhaseView::Running);
    assert_eq!(
        summary.seats[0].as_deref(),
        Some(SeatId::BlackA.name()),
        "White-A of the rematch is Black-A of the match"
    );
    // The new match plays: White (the old Black-A) moves on board A.
    c[1].play(shvedka_proto::Board::A, "e4", None).await.expect("a move in the rematch");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_decline_ends_the_offer() {
    let server = TestServer::start("").await;
    let (id, mut c) = decided(&server).await;
    c[0].rematch(id, Some(true)).await.expect("accept");
    let v = c[3].rematch(id, Some(false)).await.expect("decline");
    assert_eq!(v.declined, [false, false, false, true]);
    let m = wait_msg(&mut c[0], |m| matches!(m, ServerMsg::Rematch(_))).await;
    assert!(matches!(m, ServerMsg::Rematch(v) if v.declined[3] && v.rematch.is_none()));
    assert_eq!(
        code(c[1].rematch(id, Some(true)).await),
        ErrorCode::Busy(shvedka_proto::Busy::RematchDeclined),
        "declined: no rematch"
    );
    let r =
        c[2].request(ClientMsg::Rematch { match_id: id, accept: None }).await.expect("listening still works");
    assert!(matches!(r, shvedka_proto::Reply::Rematch(v) if v.rematch.is_none()));
}
