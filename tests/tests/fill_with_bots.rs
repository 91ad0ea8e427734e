//! `FillWithBots`: a player fills the empty seats of his forming match with the server's own bots,
//! which sit, say ready, play at a human pace (never under `bot_pace_ms` a move), answer a draw
//! offer (E3), ask their partner for a piece without repeating themselves; who may ask, and the
//! `max_bots` bound.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use shvedka_client::{ClientError, Update};
use shvedka_proto::{Board, ChatScope, ClientMsg, ErrorCode, EventView, Limit, PhaseView, SeatId, ServerMsg};
use shvedka_tests::{TestServer, next, wait_event};

const PACE_MS: u64 = 400;

fn code(r: Result<shvedka_proto::Reply, ClientError>) -> ErrorCode {
    match r {
        Err(ClientError::Server(e)) => e.code,
        other => panic!("expected a refusal, got {other:?}"),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn e3_bots_fill_the_empty_seats_play_at_a_human_pace_and_answer_a_draw_offer() {
    let server = TestServer::start(&format!("max_bots = 3\nbot_pace_ms = {PACE_MS}")).await;
    let mut anna = server.client("anna").await;
    let id = anna.create_match("mgimo-2017", "1+0", true).await.expect("create");
    let stranger = server.client("stranger").await;
    let fill = |level| ClientMsg::FillWithBots { match_id: id, level };
    assert_eq!(code(stranger.request(fill(1)).await), ErrorCode::Forbidden, "only the creator or a player");
    assert_eq!(
        code(anna.request(fill(9)).await),
        ErrorCode::Invalid(shvedka_proto::Invalid::BotLevel { min: 1, max: 5 }),
        "levels are 1 to 5"
    );

    anna.take_seat(id, SeatId::WhiteA).await.expect("sit");
    anna.request(fill(1)).await.expect("filled");
    // The three bots sit and say ready; anna's ready starts the match.
    anna.ready(true).await.expect("ready");
    wait_event(&mut anna, |e| matches!(e.kind, EventView::Started)).await;

    // A second match cannot have bots while three run (max_bots = 3).
    let other = stranger.create_match("classic", "3+0", true).await.expect("create");
    stranger.take_seat(other, SeatId::BlackB).await.expect("sit");
    let refused = stranger.request(ClientMsg::FillWithBots { match_id: other, level: 1 }).await;
    assert_eq!(code(refused), ErrorCode::Limit(Limit::Bots));

    // E3: anna offers a draw; the bot opposite her (Black-A) answers (declines: the game is young).
    anna.offer_draw().await.expect("offer");
    let answer = wait_event(&mut anna, |e| {
        matches!(e.kind, EventView::DrawDeclined { .. } | EventView::DrawOffered { seat: SeatId::BlackA })
    })
    .await;
    assert!(matches!(answer.kind, EventView::DrawDeclined { seat: SeatId::BlackA }), "{answer:?}");

    // anna moves; the bots' moves on both boards each take at least the pace, as the server
    // measured them.
    anna.play(Board::A, "e2e4", None).await.expect("e4");
    let mut bot_moves = 0;
    let mut asks: HashMap<String, Vec<Instant>> = HashMap::new();
    let deadline = Instant::now() + Duration::from_secs(20);
    while bot_moves < 4 && Instant::now() < deadline {
        let Update::Server(msg) = next(&mut anna).await else { panic!("disconnected") };
        match msg {
            ServerMsg::Event(e) => {
                if let EventView::Moved { seat, charged_ms, credit_ms, .. } = e.kind
                    && seat != SeatId::WhiteA
                {
                    assert!(
                        charged_ms + credit_ms >= PACE_MS,
                        "{seat} moved after {charged_ms} ms (+{credit_ms} credit), under the pace"
                    );
                    bot_moves += 1;
                }
            }
            ServerMsg::Chat { scope: ChatScope::Team, text, .. } => {
                asks.entry(text).or_default().push(Instant::now());
            }
            _ => {}
        }
    }
    assert!(bot_moves >= 4, "the bots play: {bot_moves} moves in 20 s");
    for (text, at) in &asks {
        assert_eq!(at.len(), 1, "the partner asked {text:?} {} times", at.len());
    }

    // anna resigns; the bots leave with the match and their permits come back.
    anna.resign().await.expect("resign");
    wait_event(&mut anna, |e| matches!(e.kind, EventView::Ended(_))).await;
    let mut refill = Err(String::new());
    for _ in 0..50 {
        match stranger.request(ClientMsg::FillWithBots { match_id: other, level: 1 }).await {
            Ok(_) => {
                refill = Ok(());
                break;
            }
            Err(e) => refill = Err(e.to_string()),
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    refill.expect("the bots' permits are released when their match ends");
    let mut seats = Vec::new();
    for _ in 0..50 {
        let list = stranger.list_matches().await.expect("list");
        let m = list.iter().find(|m| m.match_id == other).expect("listed");
        seats = m.seats.to_vec();
        if m.seats.iter().all(Option::is_some) {
            assert_eq!(m.phase, PhaseView::Forming, "the bots wait for the stranger's ready");
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(seats.iter().all(Option::is_some), "three bots sat beside the stranger: {seats:?}");
    assert!(seats.iter().flatten().filter(|n| n.starts_with("bot-")).count() == 3, "{seats:?}");
    server.stop().await;
}

/// Anna at white-A of a match at `time_control` that she filled with three of the server's bots
/// (level 1), started, her `e4` played.
async fn anna_with_three_bots(
    server: &TestServer,
    time_control: &str,
) -> (shvedka_client::Client, shvedka_proto::MatchId) {
    let mut anna = server.client("anna").await;
    let id = anna.create_match("classic", time_control, true).await.expect("create");
    anna.take_seat(id, SeatId::WhiteA).await.expect("sit");
    anna.request(ClientMsg::FillWithBots { match_id: id, level: 1 }).await.expect("filled");
    anna.ready(true).await.expect("ready");
    wait_event(&mut anna, |e| matches!(e.kind, EventView::Started)).await;
    anna.play(Board::A, "e2e4", None).await.expect("e4");
    (anna, id)
}

/// The next event matching `f`, across the lost connection of a restart (within `limit`).
async fn event_within(
    c: &mut shvedka_client::Client,
    limit: Duration,
    f: impl Fn(&EventView) -> bool,
) -> shvedka_proto::MatchEvent {
    let deadline = Instant::now() + limit;
    loop {
        assert!(Instant::now() < deadline, "no such event within {limit:?}");
        if let Update::Server(ServerMsg::Event(e)) = next(c).await
            && f(&e.kind)
        {
            return e;
        }
    }
}

/// A guest fills his match with three of the server's bots and plays; the server stops and
/// starts again on the same data; he resumes. The bots are part of the match's durable state:
/// the restarted server starts them again in their seats (within `max_bots`), the clocks run
/// again as soon as they are back (not after `restart_wait_s`), they move, and the match ends
/// with a result. A guest may not pass himself off as one of them.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn k6_the_servers_bots_sit_again_after_a_restart_and_play_the_match_to_its_end() {
    let server = TestServer::start("max_bots = 3\nbot_pace_ms = 100").await;
    let (mut anna, id) = anna_with_three_bots(&server, "10s+0").await;
    let bot_moved = |k: &EventView| matches!(k, EventView::Moved { seat, .. } if *seat != SeatId::WhiteA);
    event_within(&mut anna, Duration::from_secs(20), bot_moved).await;

    let server = server.restart().await;
    anna.resume_at(server.addr).await.expect("anna resumes");
    // Back within seconds: the restart's wait (120 s by default) is not what restarts the clocks.
    let resumed =
        event_within(&mut anna, Duration::from_secs(30), |k| matches!(k, EventView::Resumed { .. })).await;
    assert_eq!(resumed.kind, EventView::Resumed { reason: shvedka_proto::PauseReason::Restart });
    event_within(&mut anna, Duration::from_secs(20), bot_moved).await;
    // anna stops moving: her flag, a mate or a draw on board B (the bots' repetition) ends it.
    let ended = event_within(&mut anna, Duration::from_secs(60), |k| matches!(k, EventView::Ended(_))).await;
    let EventView::Ended(result) = ended.kind else { unreachable!() };
    assert!(
        ["E1", "E4", "E5", "E7", "E8"].contains(&result.rule.as_str()),
        "a result by the rules: {result:?}"
    );
    let record = anna.record(id).await.expect("the record");
    assert!(record.contains("[Result"), "{record}");

    // The star is the server's: a guest's name may not hold it.
    let named = shvedka_client::Client::connect(
        server.addr,
        shvedka_client::Trust::Fingerprint(server.pin),
        "bot-1 ★",
    )
    .await;
    match named {
        Err(ClientError::Refused(e)) => {
            assert_eq!(e.code, ErrorCode::Invalid(shvedka_proto::Invalid::GuestName { max: 32 }), "{e:?}")
        }
        Err(other) => panic!("refused otherwise: {other}"),
        Ok(_) => panic!("a guest took the name of a server's bot"),
    }
    server.stop().await;
}

/// The same after a cluster node's take-over: the match and its three bots run on node a, which
/// stops; node b takes the match over from its log and starts the bots again there; anna
/// resumes on node b, the clocks run again as soon as the bots are back, and a bot moves.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn k6_after_a_cluster_take_over_the_servers_bots_sit_again_on_the_node_that_runs_the_match() {
    let (_pg, _nats, a, b) = crate::cluster::two_nodes().await;
    let (mut anna, _) = anna_with_three_bots(&a, "1+0").await;
    let bot_moved = |k: &EventView| matches!(k, EventView::Moved { seat, .. } if *seat != SeatId::WhiteA);
    event_within(&mut anna, Duration::from_secs(20), bot_moved).await;

    a.stop().await;
    crate::cluster::eventually("node b runs the match", || b.stats.live_matches() == 1).await;
    anna.resume_at(b.addr).await.expect("anna resumes on node b");
    let resumed =
        event_within(&mut anna, Duration::from_secs(30), |k| matches!(k, EventView::Resumed { .. })).await;
    assert_eq!(resumed.kind, EventView::Resumed { reason: shvedka_proto::PauseReason::Restart });
    event_within(&mut anna, Duration::from_secs(20), bot_moved).await;
    b.stop().await;
}

/// A bot that cannot sit again is said, with its reason: the server restarts with `max_bots`
/// lowered to one, so two of the three seats have no bot. The state anna resumes to names them
/// (`MaxBots`); the match does not wait for them longer than `restart_wait_s` (K6).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn k6_a_bot_that_cannot_sit_again_is_told_with_its_reason_and_waited_for_only_the_restart_wait() {
    let server = TestServer::start("max_bots = 3\nbot_pace_ms = 100\nrestart_wait_s = 5").await;
    let (mut anna, _) = anna_with_three_bots(&server, "1+0").await;

    let server = server.restart_with("max_bots = 1\nbot_pace_ms = 100\nrestart_wait_s = 5").await;
    anna.resume_at(server.addr).await.expect("anna resumes");
    let deadline = Instant::now() + Duration::from_secs(20);
    let missing = loop {
        assert!(Instant::now() < deadline, "never told that two bots are missing");
        if let Update::Server(ServerMsg::State(s)) = next(&mut anna).await
            && s.bots_missing.len() == 2
        {
            break s.bots_missing;
        }
    };
    assert!(missing.iter().all(|b| b.reason == shvedka_proto::BotTrouble::MaxBots), "{missing:?}");
    assert!(missing.iter().all(|b| b.seat != SeatId::WhiteA), "anna's is no bot's seat: {missing:?}");
    // The wait is over after five seconds: the clocks run without them.
    let resumed =
        event_within(&mut anna, Duration::from_secs(20), |k| matches!(k, EventView::Resumed { .. })).await;
    assert!(resumed.running.iter().any(|&r| r));
    server.stop().await;
}

/// The server's bots never play faster than a match's bonus: under `5s+300ms` each bot move takes
/// at least the increment and a quarter (375 ms; the bot's own pacing), above `bot_pace_ms` (50),
/// so every move costs its mover time and a match of the server's bots alone ends on the clocks
/// (its creator need not sit).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn k2_the_servers_bots_take_more_than_the_increment_a_move() {
    let server = TestServer::start("max_bots = 4\nbot_pace_ms = 50").await;
    let mut host = server.client("host").await;
    let id = host.create_match("classic", "5s+300ms", true).await.expect("create");
    host.request(ClientMsg::FillWithBots { match_id: id, level: 1 }).await.expect("four bots");
    host.watch(id).await.expect("watch");
    let mut timed = 0;
    let deadline = Instant::now() + Duration::from_secs(30);
    while timed < 4 {
        assert!(Instant::now() < deadline, "the bots made {timed} moves in 30 s");
        if let Update::Server(ServerMsg::Event(e)) = next(&mut host).await
            && let EventView::Moved { seat, charged_ms, credit_ms, .. } = e.kind
        {
            assert!(
                charged_ms + credit_ms >= 375,
                "{seat} moved after {charged_ms} ms (+{credit_ms} credit)"
            );
            timed += 1;
        }
    }
    // Every move costs time: the match ends on the clocks (or by mate or a draw) well within
    // a minute.
    let ended = event_within(&mut host, Duration::from_secs(60), |k| matches!(k, EventView::Ended(_))).await;
    assert!(matches!(ended.kind, EventView::Ended(_)));
    server.stop().await;
}
