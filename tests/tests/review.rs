//! Review over the protocol (`ClientMsg::Review`): a match's stored events with the position and
//! clocks after each, for a match in play (its spectator reads as far as it is stored) and a
//! decided one (read from the database after its task ended), in pages of a hundred (the decided
//! match has more than one); a private match is refused to a session without its code as if it
//! did not exist. A player's recent matches (`RecentMatches`) list the decided match with its
//! players and result.

use shvedka_client::ClientError;
use shvedka_proto::{Board, ClientMsg, ErrorCode, EventView, MatchEvent, MatchId, Reply, SeatId};
use shvedka_tests::{TestServer, wait_event};

/// The server's page of review (`REVIEW_PAGE` in crates/server/src/features/review.rs).
const PAGE: usize = 100;

/// Every event of the match for review, page by page, and each page's length.
async fn review(c: &shvedka_client::Client, id: MatchId) -> (String, Vec<MatchEvent>, Vec<usize>) {
    let mut after = None;
    let mut all = Vec::new();
    let mut pages = Vec::new();
    loop {
        match c.request(ClientMsg::Review { match_id: id, after }).await.expect("review") {
            Reply::Review { match_id, time_control, events, next, .. } => {
                assert_eq!(match_id, id);
                pages.push(events.len());
                all.extend(events);
                match next {
                    Some(n) => after = Some(n),
                    None => return (time_control, all, pages),
                }
            }
            other => panic!("expected Review, got {other:?}"),
        }
    }
}

/// Board B's moves from Black-B's first, played by Black-B and White-B in turn: twelve rounds
/// of two knight shuffles (no position is seen more than three times) and a pawn step each, so
/// 120 moves and no ending (no capture, no check, a pawn moved every ten plies).
fn long_board_b() -> Vec<(usize, &'static str)> {
    const BLACK_PAWNS: [&str; 12] = ["a6", "a5", "b6", "b5", "c6", "c5", "e6", "e5", "g6", "g5", "h6", "h5"];
    const WHITE_PAWNS: [&str; 12] = ["a3", "a4", "b3", "b4", "c3", "c4", "e3", "e4", "g3", "g4", "h3", "h4"];
    let mut moves = Vec::new();
    for (black, white) in BLACK_PAWNS.into_iter().zip(WHITE_PAWNS) {
        for _ in 0..2 {
            moves.extend([(3, "Nf6"), (2, "Nf3"), (3, "Ng8"), (2, "Ng1")]);
        }
        moves.extend([(3, black), (2, white)]);
    }
    moves
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a4_a_match_is_reviewed_move_by_move_in_play_and_after_it_is_decided() {
    let server = TestServer::start("").await;
    let (id, mut c) = server.seated_match("mgimo-2017", "3+0").await;
    let spectator = server.client("spectator").await;
    for (who, board, mv) in
        [(0, Board::A, "e4"), (1, Board::A, "d5"), (2, Board::B, "d4"), (0, Board::A, "exd5")]
    {
        c[who].play(board, mv, None).await.expect("move");
    }
    // In play: a spectator reads every move so far, each with its position and clocks.
    let (tc, events, _) = review(&spectator, id).await;
    assert_eq!(tc, "3+0");
    let moves: Vec<_> = events
        .iter()
        .filter_map(|e| match &e.kind {
            EventView::Moved { san, .. } => {
                Some((san.clone(), e.bfen.clone().expect("a position after a move")))
            }
            _ => None,
        })
        .collect();
    assert_eq!(moves.iter().map(|m| m.0.as_str()).collect::<Vec<_>>(), ["e4", "d5", "d4", "exd5"]);
    let board_b = moves[3].1.split(" | ").nth(1).expect("board B");
    assert!(board_b.contains("[p]"), "the pawn taken on A reached Black-B's reserve: {board_b}");
    assert!(events.windows(2).all(|w| w[1].seq == w[0].seq + 1), "in order, no gap");

    // More than a page of events: board B goes on for 120 moves.
    let long = long_board_b();
    for &(who, mv) in &long {
        c[who].play(Board::B, mv, None).await.unwrap_or_else(|e| panic!("{mv}: {e}"));
    }

    // Decided, its task gone: read from the database in pages, the same events and the end.
    c[1].resign().await.expect("resign");
    for client in &mut c {
        wait_event(client, |e| matches!(e.kind, EventView::Ended(_))).await;
    }
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    while server.stats.live_matches() > 0 {
        assert!(std::time::Instant::now() < deadline, "the decided match's task never ended");
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    let (_, after, pages) = review(&spectator, id).await;
    assert_eq!(&after[..events.len()], &events[..], "the log does not change");
    assert!(matches!(after.last().map(|e| &e.kind), Some(EventView::Ended(_))));
    let moved = after.iter().filter(|e| matches!(e.kind, EventView::Moved { .. })).count();
    assert_eq!(moved, 4 + long.len(), "every move, across the pages");
    assert!(after.windows(2).all(|w| w[1].seq == w[0].seq + 1), "in order, no gap, none twice");
    assert_eq!(pages.len(), after.len().div_ceil(PAGE), "{pages:?}");
    assert!(pages[..pages.len() - 1].iter().all(|&n| n == PAGE), "full pages but the last: {pages:?}");

    // The match is among each player's recent matches, with its players and result.
    let recent = |name: &str| {
        let name = name.to_owned();
        let spectator = &spectator;
        async move {
            match spectator.request(ClientMsg::RecentMatches { name }).await.expect("recent") {
                Reply::Recent(list) => list,
                other => panic!("expected Recent, got {other:?}"),
            }
        }
    };
    // Noted as the match's task ends: awaited, not assumed.
    let list = loop {
        let list = recent(&SeatId::BlackA.name().to_uppercase()).await;
        if !list.is_empty() || std::time::Instant::now() > deadline {
            break list;
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    };
    assert_eq!(list.len(), 1, "{list:?}");
    assert_eq!(list[0].match_id, id);
    assert_eq!(list[0].players, SeatId::ALL.map(|s| s.name().to_owned()));
    assert_eq!(list[0].result.as_ref().map(|r| r.rule.as_str()), Some("E10"));
    assert!(recent("spectator").await.is_empty(), "a spectator played nothing");

    // A page after the last event is empty and ends the log.
    let last = after.last().unwrap().seq;
    let r = spectator.request(ClientMsg::Review { match_id: id, after: Some(last) }).await.unwrap();
    assert!(matches!(r, Reply::Review { ref events, next: None, .. } if events.is_empty()), "{r:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_private_match_is_not_reviewed_without_its_code() {
    let server = TestServer::start("").await;
    let anna = server.client("anna").await;
    let (id, _code) = anna.create_private("classic", "3+0").await.expect("create");
    let stranger = server.client("stranger").await;
    let refused = stranger.request(ClientMsg::Review { match_id: id, after: None }).await;
    let nothing = stranger.request(ClientMsg::Review { match_id: MatchId(999), after: None }).await;
    for r in [refused, nothing] {
        match r {
            Err(ClientError::Server(e)) => assert_eq!(e.code, ErrorCode::NoSuchMatch),
            other => panic!("expected NoSuchMatch, got {other:?}"),
        }
    }
    assert!(
        anna.request(ClientMsg::Review { match_id: id, after: None }).await.is_ok(),
        "its creator reviews it"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_guest_of_the_same_name_does_not_see_anothers_private_matches_among_recent_ones() {
    let server = TestServer::start("").await;
    let mut players = Vec::new();
    for seat in SeatId::ALL {
        players.push(server.client(seat.name()).await);
    }
    let (id, code) = players[0].create_private("classic", "3+0").await.expect("create");
    for (c, seat) in players.iter().zip(SeatId::ALL) {
        if c.request(ClientMsg::Invitation { code: code.clone() }).await.is_err() {
            panic!("the invitation is redeemed");
        }
        c.take_seat(id, seat).await.expect("seat");
    }
    for c in &players {
        c.ready(true).await.expect("ready");
    }
    for c in &mut players {
        wait_event(c, |e| matches!(e.kind, EventView::Started)).await;
    }
    players[1].resign().await.expect("resign");
    for c in &mut players {
        wait_event(c, |e| matches!(e.kind, EventView::Ended(_))).await;
    }
    async fn recent(c: &shvedka_client::Client, name: &str) -> Vec<MatchId> {
        match c.request(ClientMsg::RecentMatches { name: name.to_owned() }).await.expect("recent") {
            Reply::Recent(list) => list.iter().map(|m| m.match_id).collect(),
            other => panic!("expected Recent, got {other:?}"),
        }
    }
    let name = SeatId::WhiteB.name();
    // Its player, who holds the invitation, sees it once the match's task has noted its players
    // (after the end, not with it) …
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    while recent(&players[2], name).await != vec![id] {
        assert!(std::time::Instant::now() < deadline, "the player sees his private match within 10 s");
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    // … and another guest who took the same name sees nothing of it, though it is there.
    let impostor = server.client(name).await;
    assert_eq!(recent(&impostor, name).await, Vec::<MatchId>::new(), "a name is not an identity");
}
