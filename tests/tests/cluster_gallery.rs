//! Spectators on a node that does not run their match (issue 34, cluster mode): the node serves
//! all of them from one follower of the match, so the match's node relays it one copy of each
//! event however many watch there, and each spectator still sees every event once, in order.

use std::time::Duration;

use futures_util::StreamExt;
use shvedka_client::{Client, Update};
use shvedka_proto::{Board, ChatScope, EventView, MatchId, PhaseView, SeatId, ServerMsg};
use shvedka_tests::{TestServer, next, wait_event, wait_msg};

use crate::cluster::{metric, nats_client, two_nodes};

/// Spectators in the crowd on node b.
const CROWD: usize = 40;

/// Takes a seat through whichever node the client is on (a session just made on node b is
/// known to node a once its row is written: bounded retries).
async fn sit(c: &Client, id: MatchId, seat: SeatId) {
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    while let Err(e) = c.take_seat(id, seat).await {
        assert!(std::time::Instant::now() < deadline, "never seated: {e}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// The whole state a client is sent.
async fn state(c: &mut Client) -> shvedka_proto::MatchState {
    match wait_msg(c, |m| matches!(m, ServerMsg::State(_))).await {
        ServerMsg::State(s) => s,
        _ => unreachable!(),
    }
}

/// Every event a spectator is sent up to the `moves`-th move, and anything else but events that
/// it is sent meanwhile (a state would say it was given a snapshot instead).
async fn events_to_move(c: &mut Client, moves: usize) -> (Vec<shvedka_proto::MatchEvent>, Vec<ServerMsg>) {
    let (mut events, mut other) = (Vec::new(), Vec::new());
    while events
        .iter()
        .filter(|e: &&shvedka_proto::MatchEvent| matches!(e.kind, EventView::Moved { .. }))
        .count()
        < moves
    {
        match next(c).await {
            Update::Server(ServerMsg::Event(e)) => events.push(e),
            Update::Server(m) => other.push(m),
            Update::Disconnected(why) => panic!("a spectator was disconnected: {why}"),
        }
    }
    (events, other)
}

/// Messages that reached the subscription within `quiet` of the last one.
async fn count(sub: &mut async_nats::Subscriber, quiet: Duration) -> usize {
    let mut n = 0;
    while let Ok(Some(_)) = tokio::time::timeout(quiet, sub.next()).await {
        n += 1;
    }
    n
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn spectators_on_another_node_are_served_from_one_follower_with_one_copy_of_each_event() {
    let (_pg, nats, a, b) = two_nodes().await;
    // Three players on node a, where the match runs; Black-B on node b.
    let mut players = vec![
        a.client("white-a").await,
        a.client("black-a").await,
        a.client("white-b").await,
        b.client("black-b").await,
    ];
    let id = players[0].create_match("classic", "blitz", true).await.unwrap();
    for (p, seat) in players.iter().zip(SeatId::ALL) {
        sit(p, id, seat).await;
    }
    for p in &players {
        p.ready(true).await.unwrap();
    }
    for p in &mut players {
        wait_event(p, |e| matches!(e.kind, EventView::Started)).await;
    }
    // What node a relays to node b, heard beside node b with the nodes' credentials.
    let monitor = nats_client(&nats, Some(("node", &nats.password))).await.expect("the nodes' credentials");
    let mut relayed = monitor
        .subscribe(format!("shvedka.{}.node.node-b.relay", shvedka_server::cluster_wire_version()))
        .await
        .unwrap();
    monitor.flush().await.unwrap();

    let mut crowd = Vec::new();
    for n in 0..CROWD {
        let c = b.client(&format!("fan-{n}")).await;
        c.watch(id).await.expect("a spectator on node b watches");
        crowd.push(c);
    }
    let mut from = Vec::new();
    for c in &mut crowd {
        let s = state(c).await;
        assert_eq!((s.your_seat, s.phase), (None, PhaseView::Running), "a spectator's state first");
        from.push(s.last_seq.expect("the match has events"));
    }
    // The player on node b who watches his own match is followed as the player he is.
    players[3].watch(id).await.unwrap();
    assert_eq!(state(&mut players[3]).await.your_seat, Some(SeatId::BlackB));
    let page = a.http_get("/metrics").await;
    assert_eq!(
        metric(&page, "shvedka_cluster_relayed_followers"),
        Some(2),
        "node a relays to two followers on node b, the player and the crowd's one:\n{page}"
    );
    let before = count(&mut relayed, Duration::from_millis(300)).await;
    println!("{before} messages relayed to node b while {CROWD} spectators came");

    let moves = [(0, Board::A, "e4"), (2, Board::B, "d4"), (1, Board::A, "e5"), (3, Board::B, "d5")];
    for (p, board, san) in moves {
        players[p].play(board, san, None).await.expect("the move is played");
    }
    for (c, from) in crowd.iter_mut().zip(from) {
        let (events, other) = events_to_move(c, moves.len()).await;
        assert!(other.iter().all(|m| !matches!(m, ServerMsg::State(_))), "no snapshot was needed: {other:?}");
        let seqs: Vec<u64> = events.iter().map(|e| e.seq).collect();
        assert_eq!(seqs, (from + 1..=from + seqs.len() as u64).collect::<Vec<_>>(), "each once, in order");
        let sans: Vec<&str> = events
            .iter()
            .filter_map(|e| match &e.kind {
                EventView::Moved { san, .. } => Some(san.as_str()),
                _ => None,
            })
            .collect();
        assert_eq!(sans, ["e4", "d4", "e5", "d5"]);
    }
    let copies = count(&mut relayed, Duration::from_millis(500)).await;
    println!("{copies} messages relayed to node b for {} moves watched by {CROWD} spectators", moves.len());
    // One copy of each event for the crowd and one for the player on node b; relayed one by one
    // it would be a copy per spectator (160 and more).
    assert!(copies <= 2 * moves.len() + 2, "{copies} messages relayed for {} moves", moves.len());

    // A spectator's word to the match's spectators (RULES.md A3: the players do not hear it in
    // play) reaches the whole crowd through its one follower, and makes no follower of him.
    crowd[0].chat(ChatScope::Match, "bravo").await.expect("a spectator chats");
    for fan in &mut crowd {
        let heard = wait_msg(fan, |m| matches!(m, ServerMsg::Chat { .. })).await;
        assert!(
            matches!(heard, ServerMsg::Chat { ref text, ref from, .. } if text == "bravo" && from == "fan-0")
        );
    }
    let page = a.http_get("/metrics").await;
    assert_eq!(metric(&page, "shvedka_cluster_relayed_followers"), Some(2), "{page}");

    // The crowd goes: its follower on node a goes with it, and the player's stays.
    for c in &mut crowd {
        c.drop_connection();
    }
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    loop {
        let page = a.http_get("/metrics").await;
        if metric(&page, "shvedka_cluster_relayed_followers") == Some(1) {
            break;
        }
        if std::time::Instant::now() > deadline {
            let b_page = b.http_get("/metrics").await;
            let b_line = b_page
                .lines()
                .filter(|l| l.contains("forwarded_followers") || l.contains("connections"))
                .collect::<Vec<_>>()
                .join("\n");
            panic!("the crowd's follower stays:\n{b_line}");
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    players[0].play(Board::A, "Nf3", None).await.expect("play goes on");
    a.stop().await;
    b.stop().await;
}

/// The events a spectator is sent until the move `san`, checked on the way: each event follows
/// the one before it (or the last state he was given), none missing, none twice. The states he
/// was given on the way, and what he was sent.
async fn follows_until(c: &mut Client, mut last: u64, san: &str) -> (usize, Vec<String>) {
    let (mut states, mut told) = (0, Vec::new());
    loop {
        match next(c).await {
            Update::Server(ServerMsg::State(s)) => {
                // A snapshot (the match moved, or he fell behind): he goes on from it.
                states += 1;
                last = s.last_seq.expect("the match has events");
                told.push(format!("state {last}"));
            }
            Update::Server(ServerMsg::Event(e)) => {
                assert_eq!(e.seq, last + 1, "after {last} ({told:?}), {e:?}");
                last = e.seq;
                told.push(format!("event {last} {:?}", e.kind));
                if matches!(&e.kind, EventView::Moved { san: s, .. } if s == san) {
                    return (states, told);
                }
            }
            Update::Server(m) => told.push(format!("{m:?}")),
            Update::Disconnected(why) => panic!("a spectator was disconnected: {why}"),
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn spectators_served_from_one_follower_follow_the_match_to_the_node_that_takes_it_over() {
    use crate::cluster::node;
    use testkit::nats::TempNats;
    use testkit::postgres::TempPostgres;
    let (pg, nats) = (TempPostgres::start(), TempNats::start());
    let a = TestServer::start(&node(&pg, &nats, "node-a", None)).await;
    let b = TestServer::start(&node(&pg, &nats, "node-b", Some(&a))).await;
    let c = TestServer::start(&node(&pg, &nats, "node-c", Some(&a))).await;
    // The match runs on node a; its players are on node c, its spectators on node b.
    let id = a.client("creator").await.create_match("classic", "blitz", true).await.unwrap();
    let mut players = Vec::new();
    for seat in SeatId::ALL {
        let p = c.client(seat.name()).await;
        sit(&p, id, seat).await;
        players.push(p);
    }
    for p in &players {
        p.ready(true).await.unwrap();
    }
    for p in &mut players {
        wait_event(p, |e| matches!(e.kind, EventView::Started)).await;
    }
    let mut crowd = Vec::new();
    for n in 0..8 {
        let fan = b.client(&format!("fan-{n}")).await;
        fan.watch(id).await.expect("a spectator on node b watches");
        crowd.push(fan);
    }
    let mut last = Vec::new();
    for fan in &mut crowd {
        last.push(state(fan).await.last_seq.expect("the match has events"));
    }
    players[0].play(Board::A, "e4", None).await.unwrap();
    for (fan, last) in crowd.iter_mut().zip(&mut last) {
        let (states, told) = follows_until(fan, *last, "e4").await;
        assert_eq!(states, 0, "no snapshot while nothing moved: {told:?}");
        *last += 1;
    }

    // Node a stops; node b or c takes the match over, and the players on c follow it there.
    a.stop().await;
    let runs = || b.stats.live_matches() + c.stats.live_matches() == 1;
    crate::cluster::eventually("another node runs the match", runs).await;
    println!("taken over by node {}", if b.stats.live_matches() == 1 { "b" } else { "c" });
    for p in &mut players {
        wait_event(p, |e| matches!(e.kind, EventView::Resumed { .. })).await;
    }
    players[1].play(Board::A, "e5", None).await.expect("play goes on");
    for (fan, last) in crowd.iter_mut().zip(&last) {
        let (states, _) = follows_until(fan, *last, "e5").await;
        println!("a spectator saw the pause, the take-over and the move with {states} snapshot(s)");
    }
    b.stop().await;
    c.stop().await;
}
