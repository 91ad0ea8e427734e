//! A seat belongs to its account (issue 56): a phone dies mid-match, its player logs in again on a
//! laptop, watches the match (or takes his seat) and plays on; the phone's session is told that
//! its seat was taken over and can move there no more. A guest has only his session.

use shvedka_proto::{Board, ClosedReason, ErrorCode, EventView, SeatId, ServerMsg};
use shvedka_tests::{TestServer, wait_event, wait_msg};

/// Four accounts, anna, boris, vera and gleb, seated in that order and started.
async fn seated_accounts(server: &TestServer) -> (shvedka_proto::MatchId, Vec<shvedka_client::Client>) {
    let mut players = Vec::new();
    for name in ["anna", "boris", "vera", "gleb"] {
        players.push(server.account(name).await);
    }
    let id = players[0].create_match("mgimo-2017", "3+0", true).await.expect("create");
    for (c, seat) in players.iter().zip(SeatId::ALL) {
        c.take_seat(id, seat).await.expect("take seat");
    }
    for c in &players {
        c.ready(true).await.expect("ready");
    }
    for c in &mut players {
        wait_event(c, |e| matches!(e.kind, EventView::Started)).await;
    }
    (id, players)
}

/// S1 with the account's seat: the seats stay fixed, the account's newest session holds it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn s1_a_new_session_of_the_account_takes_its_seat_over_and_the_old_one_is_told() {
    let server = TestServer::start("").await;
    let (id, mut players) = seated_accounts(&server).await;
    // Anna's phone is lost; she logs in on her laptop: a new session of her account.
    let mut laptop = server.account("anna").await;
    let refused = laptop.play(Board::A, "e4", None).await.expect_err("the laptop follows no match yet");
    assert!(
        matches!(refused, shvedka_client::ClientError::Server(ref e) if e.code == ErrorCode::NotInMatch),
        "{refused:?}"
    );
    laptop.watch(id).await.expect("watch");
    let state = wait_msg(&mut laptop, |m| matches!(m, ServerMsg::State(_))).await;
    let ServerMsg::State(state) = state else { unreachable!() };
    assert_eq!(state.your_seat, Some(SeatId::WhiteA), "the laptop sits at anna's seat");
    // The phone is told, with the typed reason.
    let told = wait_msg(&mut players[0], |m| matches!(m, ServerMsg::MatchClosed { .. })).await;
    assert_eq!(told, ServerMsg::MatchClosed { match_id: id, reason: ClosedReason::TakenOver });
    // The laptop moves; everyone sees it.
    laptop.play(Board::A, "e4", None).await.expect("the laptop moves for white-A");
    let moved = wait_event(&mut players[1], |e| matches!(e.kind, EventView::Moved { .. })).await;
    assert!(matches!(moved.kind, EventView::Moved { seat: SeatId::WhiteA, .. }), "{moved:?}");
    // The phone's session can no longer move there.
    players[1].play(Board::A, "e5", None).await.expect("black-A answers");
    let refused = players[0].play(Board::A, "d4", None).await.expect_err("the phone's move is refused");
    assert!(
        matches!(refused, shvedka_client::ClientError::Server(ref e) if e.code == ErrorCode::NotInMatch),
        "{refused:?}"
    );
    // A third session takes the seat by taking it: the laptop is told in turn.
    let third = server.account("anna").await;
    third.take_seat(id, SeatId::WhiteA).await.expect("anna's own seat, taken over");
    let told = wait_msg(&mut laptop, |m| matches!(m, ServerMsg::MatchClosed { .. })).await;
    assert_eq!(told, ServerMsg::MatchClosed { match_id: id, reason: ClosedReason::TakenOver });
    third.play(Board::A, "d4", None).await.expect("the third session moves");
    let refused = laptop.play(Board::A, "Nf3", None).await.expect_err("the laptop no longer moves");
    assert!(
        matches!(refused, shvedka_client::ClientError::Server(ref e) if e.code == ErrorCode::NotInMatch),
        "{refused:?}"
    );
    // Another account cannot take anna's seat, nor can a guest.
    let other = server.account("zoe").await;
    assert!(other.take_seat(id, SeatId::WhiteA).await.is_err(), "zoe may not take anna's seat");
    server.stop().await;
}

/// K5 after a restart: the match waits, paused, for its four players; the fourth never resumes
/// his old session but logs in anew and watches — that counts as his return, and play goes on.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn k5_after_a_restart_a_new_session_of_the_account_brings_its_player_back() {
    use shvedka_client::Update;
    let server = TestServer::start("").await;
    let (id, mut players) = seated_accounts(&server).await;
    players[0].play(Board::A, "e4", None).await.expect("e4");
    let server = server.restart().await;
    for c in &mut players[..3] {
        c.resume_at(server.addr).await.expect("resume");
    }
    // Gleb's old session never comes back: he logs in again and watches his match.
    let mut gleb = server.account("gleb").await;
    gleb.watch(id).await.expect("watch");
    let ServerMsg::State(state) = wait_msg(&mut gleb, |m| matches!(m, ServerMsg::State(_))).await else {
        unreachable!()
    };
    assert_eq!(state.your_seat, Some(SeatId::BlackB));
    // The match sees all four back and the clocks run again.
    loop {
        match shvedka_tests::next(&mut players[1]).await {
            Update::Server(ServerMsg::Event(e)) if matches!(e.kind, EventView::Resumed { .. }) => break,
            _ => {}
        }
    }
    players[1].play(Board::A, "e5", None).await.expect("play goes on");
    players[2].play(Board::B, "d4", None).await.expect("white-B moves");
    gleb.play(Board::B, "d5", None).await.expect("gleb's new session plays black-B");
    server.stop().await;
}

/// S1, private matches: a seat belongs to its account there too. Anna's phone dies in a private
/// match (reached by its code only); her laptop, a new session that never held the code, finds
/// the match in its own lobby list, watches it, holds her seat and moves. A stranger's list and
/// watch still do not show it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn s1_a_private_match_is_in_its_players_own_list_and_a_new_device_takes_its_seat_there() {
    let server = TestServer::start("").await;
    let mut players = Vec::new();
    for name in ["anna", "boris", "vera", "gleb"] {
        players.push(server.account(name).await);
    }
    let (id, code) = players[0].create_private("mgimo-2017", "3+0").await.expect("create");
    for (c, seat) in players.iter().zip(SeatId::ALL) {
        if seat != SeatId::WhiteA {
            c.redeem(&code).await.expect("the code");
        }
        c.take_seat(id, seat).await.expect("take seat");
    }
    for c in &players {
        c.ready(true).await.expect("ready");
    }
    for c in &mut players {
        wait_event(c, |e| matches!(e.kind, EventView::Started)).await;
    }
    let stranger = server.account("stranger").await;
    assert!(
        !stranger.list_matches().await.unwrap().iter().any(|m| m.match_id == id),
        "a private match is in nobody else's list"
    );
    assert!(stranger.watch(id).await.is_err(), "nor may anyone else watch it without its code");
    // Anna's laptop: no code, a new session of her account.
    let mut laptop = server.account("anna").await;
    let listed = laptop.list_matches().await.unwrap();
    let mine = listed.iter().find(|m| m.match_id == id).expect("her private match is in her own list");
    assert_eq!(mine.seats[0].as_deref(), Some("anna"), "{mine:?}");
    laptop.watch(id).await.expect("her own match, without the code");
    let state = wait_msg(&mut laptop, |m| matches!(m, ServerMsg::State(_))).await;
    let ServerMsg::State(state) = state else { unreachable!() };
    assert_eq!(state.your_seat, Some(SeatId::WhiteA), "the laptop holds anna's seat");
    laptop.play(Board::A, "e4", None).await.expect("the laptop moves for white-A");
    let moved = wait_event(&mut players[1], |e| matches!(e.kind, EventView::Moved { .. })).await;
    assert!(matches!(moved.kind, EventView::Moved { seat: SeatId::WhiteA, .. }), "{moved:?}");
    server.stop().await;
}

/// S1 across the nodes of a cluster: the match runs on node a; anna's phone dies there and she
/// logs in on node b. Her new session, relayed to node a as a player (not served as a spectator
/// by node b's follower), takes her seat over and moves; the phone is told.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn s1_a_new_session_on_another_node_of_a_cluster_takes_the_seat_over_and_moves() {
    let (_pg, _nats, a, b) = crate::cluster::two_nodes().await;
    let (id, mut players) = seated_accounts(&a).await;
    let logged_in = std::time::Instant::now();
    let mut laptop = b.account("anna").await;
    laptop.watch(id).await.expect("watch, from node b");
    let state = wait_msg(&mut laptop, |m| matches!(m, ServerMsg::State(_))).await;
    let ServerMsg::State(state) = state else { unreachable!() };
    assert_eq!(state.your_seat, Some(SeatId::WhiteA), "node b's session holds anna's seat");
    let told = wait_msg(&mut players[0], |m| matches!(m, ServerMsg::MatchClosed { .. })).await;
    assert_eq!(told, ServerMsg::MatchClosed { match_id: id, reason: ClosedReason::TakenOver });
    laptop.play(Board::A, "e4", None).await.expect("the laptop moves for white-A, through node b");
    let moved = wait_event(&mut players[1], |e| matches!(e.kind, EventView::Moved { .. })).await;
    assert!(matches!(moved.kind, EventView::Moved { seat: SeatId::WhiteA, .. }), "{moved:?}");
    println!("seat taken over across nodes: moved {} ms after logging in", logged_in.elapsed().as_millis());
    let refused = players[0].play(Board::A, "d4", None).await.expect_err("the phone's move is refused");
    assert!(
        matches!(refused, shvedka_client::ClientError::Server(ref e) if e.code == ErrorCode::NotInMatch),
        "{refused:?}"
    );
    a.stop().await;
    b.stop().await;
}

/// S1, a tournament game: a seat reserved for an account is the account's whichever session sat
/// down. Team 1's first player sits in his game of round 1 and his phone dies; his laptop finds
/// the game in its own list and takes the seat by taking it (his card's «take your seat»): it
/// holds it, and the phone is told.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn s1_a_new_device_takes_its_players_seat_in_a_tournament_game() {
    use crate::tournament::{SECRET, create, director, id_of, player};
    let server = TestServer::start(SECRET).await;
    let td = director(&server).await;
    let id = create(&server, &td, "Club night", 2, None).await;
    id_of(td.td(shvedka_proto::TdRequest::PairNext { tournament: id, choice_window_ms: 300 }).await).await;
    let mut seated = Vec::new();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    for team in 1..=2 {
        for i in 0..2 {
            let c = server.account(&player(team, i)).await;
            let (m, seat) = loop {
                assert!(std::time::Instant::now() < deadline, "no game assigned");
                if let (Some(game), _) = c.assignment(id).await.expect("assignment") {
                    break game;
                }
                tokio::time::sleep(std::time::Duration::from_millis(100)).await;
            };
            c.take_seat(m, seat).await.expect("the reserved seat");
            c.ready(true).await.expect("ready");
            seated.push((c, m, seat));
        }
    }
    let (match_id, seat) = (seated[0].1, seated[0].2);
    for (c, _, _) in &mut seated {
        wait_event(c, |e| matches!(e.kind, EventView::Started)).await;
    }
    let mut laptop = server.account(&player(1, 0)).await;
    let listed = laptop.list_matches().await.unwrap();
    assert!(listed.iter().any(|m| m.match_id == match_id), "the game is in its player's own list");
    laptop.take_seat(match_id, seat).await.expect("his own seat, taken over");
    let state = wait_msg(&mut laptop, |m| matches!(m, ServerMsg::State(_))).await;
    let ServerMsg::State(state) = state else { unreachable!() };
    assert_eq!(state.your_seat, Some(seat), "the laptop holds the reserved seat");
    let told = wait_msg(&mut seated[0].0, |m| matches!(m, ServerMsg::MatchClosed { .. })).await;
    assert_eq!(told, ServerMsg::MatchClosed { match_id, reason: ClosedReason::TakenOver });
    server.stop().await;
}
