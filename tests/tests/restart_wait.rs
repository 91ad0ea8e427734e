//! K6: no match waits for ever. A match in play when its server stopped waits for its four
//! players, charged to nobody, at most `restart_wait_s`; the players who are back are told until
//! when; then the clocks start again without the missing one, whose clock runs, and his flag
//! decides the match as at the board.

use shvedka_client::{Client, Update};
use shvedka_proto::{Board, EventView, MatchState, PauseReason, PhaseView, ServerMsg, TeamId};
use shvedka_tests::*;

/// The next whole state the client is sent, across the lost connection of a restart.
async fn state(c: &mut Client) -> MatchState {
    loop {
        if let Update::Server(ServerMsg::State(s)) = next(c).await {
            return s;
        }
    }
}

/// The next event matching `f`, across the lost connection of a restart.
async fn event(c: &mut Client, f: impl Fn(&EventView) -> bool) -> shvedka_proto::MatchEvent {
    loop {
        if let Update::Server(ServerMsg::Event(e)) = next(c).await
            && f(&e.kind)
        {
            return e;
        }
    }
}

#[tokio::test]
async fn k6_a_player_who_never_comes_back_holds_the_match_only_for_the_restart_wait_then_his_flag_falls() {
    // An increment of 5 s: the three who are back gain time with each move, the absent one none.
    let server = TestServer::start("restart_wait_s = 5").await;
    let (id, mut c) = server.seated_match("classic", "5s+5").await;
    c[0].play(Board::A, "e4", None).await.unwrap();
    wait_event(&mut c[3], |e| matches!(e.kind, EventView::Moved { .. })).await;
    let server = server.restart().await;
    // Black-B's device is gone for good; the other three resume.
    for client in &mut c[..3] {
        client.resume_at(server.addr).await.unwrap();
    }
    // Told until when the clocks wait: at most the configured five seconds from now (long enough
    // for three clients to resume on a loaded machine before the wait is over).
    let told = state(&mut c[0]).await;
    assert_eq!(told.phase, PhaseView::Paused, "the restart paused the match");
    let by = told.restart_by_us.expect("the state says until when the clocks wait (K6)");
    let wait = by.saturating_sub(told.server_time_us);
    assert!(wait > 0 && wait <= 5_000_000, "the wait ends within restart_wait_s: {wait} µs left");
    // Then the clocks start again without him, charged to nobody.
    let resumed = event(&mut c[0], |k| matches!(k, EventView::Resumed { .. })).await;
    assert_eq!(resumed.kind, EventView::Resumed { reason: PauseReason::Restart });
    assert!(resumed.running.iter().any(|&r| r), "a clock runs again: {:?}", resumed.running);
    c[1].play(Board::A, "e5", None).await.expect("play goes on without the fourth");
    c[0].play(Board::A, "Nf3", None).await.unwrap();
    c[2].play(Board::B, "d4", None).await.unwrap();
    // Black-B's clock runs now, and nobody is there to stop it.
    let ended = event(&mut c[2], |k| matches!(k, EventView::Ended(_))).await;
    let EventView::Ended(result) = ended.kind else { unreachable!() };
    assert_eq!(result.rule, "E7", "his flag decides it: {result:?}");
    assert_eq!(result.winner, Some(TeamId::Two), "black-B's team (with white-A) loses: {result:?}");
    assert_eq!(ended.clocks_ms[3], 0, "black-B's clock ran out: {:?}", ended.clocks_ms);
    let record = c[0].record(id).await.unwrap();
    assert!(record.contains("1A. e4") && record.contains("1B. d4"), "{record}");
    server.stop().await;
}

#[tokio::test]
async fn k6_a_countdown_held_by_a_restart_goes_on_after_the_wait_without_the_missing_players() {
    // A countdown of five seconds, longer than a restart takes: it is still on when the server
    // stops.
    let clock = TEST_CLOCK.replace("countdown_ms = 0", "countdown_ms = 5000");
    assert_ne!(clock, TEST_CLOCK);
    let server = TestServer::start_with_clock("restart_wait_s = 5", &clock).await;
    let mut c = Vec::new();
    for seat in shvedka_proto::SeatId::ALL {
        c.push(server.client(seat.name()).await);
    }
    let id = c[0].create_match("classic", "5s+0", true).await.unwrap();
    for (client, seat) in c.iter().zip(shvedka_proto::SeatId::ALL) {
        client.take_seat(id, seat).await.unwrap();
    }
    for client in &c {
        client.ready(true).await.unwrap();
    }
    wait_event(&mut c[0], |e| matches!(e.kind, EventView::CountdownStarted { .. })).await;
    let server = server.restart().await;
    // One comes back; three never do. The countdown is held five seconds at most, then goes on, and the
    // match starts (held for all four, it never would).
    c[0].resume_at(server.addr).await.unwrap();
    let told = state(&mut c[0]).await;
    assert_eq!(told.phase, PhaseView::Countdown, "held where it was");
    assert!(told.restart_by_us.is_some(), "the held countdown says until when (K6)");
    let held = told.countdown_left_ms.expect("and how long it has left (K1)");
    assert!(held > 0 && held <= 5_000, "held where it was: {held} ms left");
    // When the wait is over the page is told the countdown goes on, and from where.
    let going = state(&mut c[0]).await;
    assert_eq!(going.phase, PhaseView::Countdown);
    assert_eq!(going.restart_by_us, None, "the wait is over");
    assert!(going.countdown_left_ms.is_some_and(|left| left <= held), "{going:?}");
    event(&mut c[0], |k| matches!(k, EventView::Started)).await;
    server.stop().await;
}
