//! Private matches by invitation (issue 17): never listed, never reached by counting ids, a
//! wrong code refused; the code, the players and the arbiters reach the match and its record,
//! also after a restart.

use shvedka_client::{Client, ClientError};
use shvedka_proto::{ClientMsg, ErrorCode, ErrorMsg, EventView, SeatId};
use shvedka_tests::{TestServer, wait_event};

fn refusal<T: std::fmt::Debug>(r: Result<T, ClientError>) -> ErrorMsg {
    match r {
        Err(ClientError::Server(e)) => e,
        other => panic!("expected a refusal, got {other:?}"),
    }
}

/// Every way to reach match `id` by its id is refused as for an id that does not exist.
async fn finds_nothing(c: &Client, id: shvedka_proto::MatchId, absent: shvedka_proto::MatchId) {
    for (probe, label) in [(id, "the private match"), (absent, "a match that does not exist")] {
        let watch = refusal(c.watch(probe).await);
        let seat = refusal(c.take_seat(probe, SeatId::WhiteA).await);
        let record = refusal(c.record(probe).await);
        let bots = refusal(c.request(ClientMsg::FillWithBots { match_id: probe, level: 1 }).await);
        let rematch = refusal(c.rematch(probe, None).await);
        assert_eq!(
            rematch.message.replace(&probe.to_string(), "N"),
            "match N has no rematch offer",
            "{label}"
        );
        for e in [&watch, &seat, &record, &bots, &rematch] {
            assert_eq!(e.code, ErrorCode::NoSuchMatch, "{label}: {e:?}");
        }
        let shown = |e: &ErrorMsg| e.message.replace(&probe.to_string(), "N");
        assert_eq!(shown(&watch), "no live match N", "{label}: the same words for both");
        assert_eq!(shown(&record), "no match N", "{label}: the same words for both");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn guessing_private_match_ids_finds_nothing_and_a_wrong_code_is_refused() {
    let server = TestServer::start("arbiter_token = \"s3cret-whistle-of-arbiters\"").await;
    let anna = server.client("anna").await;
    let listed = anna.create_match("classic", "1+0", true).await.unwrap();
    let (id, code) = anna.create_private("classic", "1+0").await.expect("a private match");
    let (id_part, secret) = code.split_once('.').expect("id.secret");
    assert_eq!(id_part, id.to_string());
    assert!(secret.len() * 4 >= 96 && secret.bytes().all(|b| b.is_ascii_hexdigit()), "{code}");
    anna.take_seat(id, SeatId::WhiteA).await.expect("its creator reaches it");

    // Not listed; counting ids finds only the listed match.
    let boris = server.client("boris").await;
    let list = boris.list_matches().await.unwrap();
    assert_eq!(list.iter().map(|m| m.match_id).collect::<Vec<_>>(), vec![listed]);
    boris.watch(listed).await.expect("a listed match is reached by its id");
    finds_nothing(&boris, id, shvedka_proto::MatchId(id.0 + 100)).await;

    // A wrong code, a code of the right match with another secret, a malformed one: refused.
    let other_secret = format!("{id}.{}", "0".repeat(32));
    for wrong in [other_secret.as_str(), "garbage", &format!("{}.{secret}", listed.0), ""] {
        assert_eq!(refusal(boris.redeem(wrong).await).code, ErrorCode::NoSuchMatch, "{wrong:?}");
    }
    finds_nothing(&boris, id, shvedka_proto::MatchId(id.0 + 100)).await;

    // The code reaches it: watch, sit, read the record.
    assert_eq!(boris.redeem(&code).await.expect("the right code"), id);
    boris.take_seat(id, SeatId::BlackA).await.expect("a seat with the code");
    assert!(boris.record(id).await.unwrap().contains("[Event"), "its record");
    // The arbiters reach every match.
    let arbiter = server.client("arbiter").await;
    arbiter.arbiter("s3cret-whistle-of-arbiters").await.unwrap();
    assert!(arbiter.record(id).await.is_ok());
    arbiter.watch(id).await.expect("an arbiter watches it");

    // Its creator fills a private match with the server's bots: they sit with its code.
    let (with_bots, _) = anna.create_private("classic", "1+0").await.unwrap();
    anna.request(ClientMsg::FillWithBots { match_id: with_bots, level: 1 }).await.expect("bots asked");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    loop {
        let live = arbiter.list_live().await.unwrap();
        let seats = live.iter().find(|m| m.match_id == with_bots).map(|m| m.seats.iter().flatten().count());
        if seats == Some(4) {
            break;
        }
        assert!(std::time::Instant::now() < deadline, "four bots sit in the private match: {seats:?}");
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }

    // After a restart the match is still private and the code still reaches it.
    drop((anna, boris, arbiter));
    let server = server.restart().await;
    let vera = server.client("vera").await;
    finds_nothing(&vera, id, shvedka_proto::MatchId(id.0 + 100)).await;
    assert_eq!(vera.redeem(&code).await.expect("the code survives a restart"), id);
    vera.watch(id).await.expect("and reaches the match");
    assert!(vera.record(id).await.is_ok());
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_decided_private_matchs_rematch_offer_is_answered_to_a_stranger_as_no_offer_at_all() {
    let server = TestServer::start("").await;
    let mut players = Vec::new();
    for seat in SeatId::ALL {
        players.push(server.client(seat.name()).await);
    }
    let (id, code) = players[0].create_private("classic", "1+0").await.expect("a private match");
    for (c, seat) in players.iter().zip(SeatId::ALL) {
        if seat != SeatId::WhiteA {
            c.redeem(&code).await.expect("the code");
        }
        c.take_seat(id, seat).await.expect("a seat");
    }
    for c in &players {
        c.ready(true).await.expect("ready");
    }
    for c in &mut players {
        wait_event(c, |e| matches!(e.kind, EventView::Started)).await;
    }
    players[1].resign().await.expect("black-A resigns");
    // Its players see the offer once the task has ended; a stranger sees none, as for a match
    // that never was.
    players[0].rematch(id, None).await.expect("a player sees the offer");
    let stranger = server.client("stranger").await;
    let absent = shvedka_proto::MatchId(id.0 + 100);
    for (probe, label) in [(id, "the private match"), (absent, "a match that does not exist")] {
        let e = refusal(stranger.rematch(probe, Some(true)).await);
        assert_eq!(e.code, ErrorCode::NoSuchMatch, "{label}");
        assert_eq!(e.message.replace(&probe.to_string(), "N"), "match N has no rematch offer", "{label}");
    }
    server.stop().await;
}
