//! Guests and bots are marked as such wherever names are shown (issue 17): the kind of each
//! player travels as a fact beside the name — in the lobby's summaries, the match state, the
//! `SeatTaken` event and chat — and the record's tags say which seats a guest or a program held.
//! The server's own bots (`FillWithBots`) and `shvedka-bot` players say they are bots.

use std::time::{Duration, Instant};

use shvedka_proto::{ChatScope, ClientMsg, EventView, PlayerKind, SeatId, ServerMsg};
use shvedka_tests::{TestServer, wait_event, wait_msg};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn guests_accounts_and_bots_are_told_apart_on_the_wire_and_in_the_record() {
    let server = TestServer::start("max_bots = 2\nbot_pace_ms = 0").await;
    let gus = server.client("gus").await;
    let id = gus.create_match("mgimo-2017", "1+0", true).await.unwrap();
    let mut watcher = server.client("watcher").await;
    watcher.watch(id).await.unwrap();
    gus.take_seat(id, SeatId::WhiteA).await.unwrap();
    let seat = wait_event(&mut watcher, |e| matches!(e.kind, EventView::SeatTaken { .. })).await;
    assert_eq!(
        seat.kind,
        EventView::SeatTaken { seat: SeatId::WhiteA, name: "gus".into(), kind: PlayerKind::Guest }
    );
    let anna = server.account("anna").await;
    anna.take_seat(id, SeatId::BlackA).await.unwrap();
    gus.request(ClientMsg::FillWithBots { match_id: id, level: 1 }).await.expect("two server bots");

    let deadline = Instant::now() + Duration::from_secs(10);
    let summary = loop {
        let m = gus.list_matches().await.unwrap().into_iter().find(|m| m.match_id == id).unwrap();
        if m.seats.iter().all(Option::is_some) {
            break m;
        }
        assert!(Instant::now() < deadline, "the bots sit: {m:?}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    let bot = Some(PlayerKind::Bot);
    assert_eq!(summary.kinds, [Some(PlayerKind::Guest), Some(PlayerKind::Account), bot, bot]);

    // A whole state carries them (a late watcher's); chat says who wrote, as a fact.
    let mut late = server.client("late").await;
    late.watch(id).await.unwrap();
    let state = match wait_msg(&mut late, |m| matches!(m, ServerMsg::State(_))).await {
        ServerMsg::State(s) => s,
        _ => unreachable!(),
    };
    assert_eq!(state.kinds, summary.kinds);
    gus.chat(ChatScope::Match, "hello").await.unwrap();
    let chat = wait_msg(&mut watcher, |m| matches!(m, ServerMsg::Chat { .. })).await;
    assert!(matches!(chat, ServerMsg::Chat { kind: PlayerKind::Guest, .. }), "{chat:?}");

    // A program playing says so, and an account registered as a bot is one.
    let mut robo = server.client("").await;
    robo.register("robo", "robot password", true).await.unwrap();
    let program = server.client("script").await;
    program.declare_bot().await.expect("a guest program says it is a bot");
    let other = program.create_match("classic", "1+0", true).await.unwrap();
    program.take_seat(other, SeatId::WhiteA).await.unwrap();
    robo.take_seat(other, SeatId::BlackA).await.unwrap();
    assert!(program.declare_bot().await.is_err(), "not once seated");
    let m = program.list_matches().await.unwrap().into_iter().find(|m| m.match_id == other).unwrap();
    assert_eq!(m.kinds, [bot, bot, None, None]);

    // The record: PGN's player-type tags per seat, for the seats held by no account.
    let bpgn = gus.record(id).await.unwrap();
    let record = &shvedka_records::parse_bpgn(&bpgn).unwrap()[0];
    let tag = |name: &str| record.tags.iter().find(|t| t.name == name).map(|t| t.value.clone());
    assert_eq!(tag("WhiteAType").as_deref(), Some("guest"), "{bpgn}");
    assert_eq!(tag("BlackAType"), None, "an account's seat needs no tag: {bpgn}");
    assert_eq!(tag("WhiteBType").as_deref(), Some("program"), "{bpgn}");
    assert_eq!(tag("BlackBType").as_deref(), Some("program"), "{bpgn}");
    server.stop().await;
}
