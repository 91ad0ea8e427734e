//! A tournament night must never lose a game: the server process is killed (SIGKILL) in the middle
//! of a match, restarted on the same database, the four clients resume, and the match is finished
//! — with no acknowledged move lost and every clock restored to no less than its reading at the
//! last recorded event (the outage is charged to nobody).

use std::path::Path;

use bughouse::{BoardId, Game, RuleOptions};
use shvedka_client::{Client, Trust, Update};
use shvedka_proto::{Board, EventView, MatchEvent, MatchState, PauseReason, PhaseView, SeatId, ServerMsg};
use shvedka_tests::process::{self, Served};
use shvedka_tests::{next, wait_event};
use testkit::postgres::TempPostgres;

/// `shvedka serve` on `listen` (`127.0.0.1:0` for a first start: the kernel's choice, read back;
/// the address it printed to start it again where its clients knew it) with `dir` as its data
/// directory.
pub(crate) fn serve(dir: &Path, listen: &str, database_url: &str) -> Served {
    serve_with(dir, listen, database_url, "")
}

/// As [`serve`], with `extra` (top-level TOML settings: `max_bots = 40` …) added to its
/// configuration.
pub(crate) fn serve_with(dir: &Path, listen: &str, database_url: &str, extra: &str) -> Served {
    let config = dir.join("server.toml");
    std::fs::write(dir.join("clock.toml"), shvedka_tests::TEST_CLOCK).unwrap();
    std::fs::write(
        &config,
        format!(
            "listen = \"{listen}\"\nhttp_listen = \"127.0.0.1:0\"\nwebtransport_listen = \"127.0.0.1:0\"\ndata_dir = {:?}\nclock = {:?}\ndatabase_url = {database_url:?}\n{extra}",
            dir.join("data"),
            dir.join("clock.toml")
        ),
    )
    .unwrap();
    process::serve(env!("CARGO_BIN_EXE_shvedka"), &config, &dir.join("stderr.log"))
}

/// Resumes after the restart: the events missed (the restart pause), then the whole state.
async fn resumed(c: &mut Client, id: shvedka_proto::MatchId) -> (MatchEvent, MatchState) {
    c.resume().await.expect("the session resumes after the restart");
    let pause = wait_event(c, |e| e.kind == EventView::Paused { reason: PauseReason::Restart }).await;
    c.watch(id).await.unwrap();
    loop {
        if let Update::Server(ServerMsg::State(s)) = next(c).await {
            return (pause, s);
        }
    }
}

async fn killed_and_restarted(database_url: &str) {
    let dir = tempfile::tempdir().unwrap();
    let Served { child: mut server, addr, pin, .. } = serve(dir.path(), "127.0.0.1:0", database_url);
    let mut c = Vec::new();
    for seat in SeatId::ALL {
        c.push(Client::connect(addr, Trust::Fingerprint(pin), seat.name()).await.unwrap());
    }
    let id = c[0].create_match("mgimo-2017", "blitz", true).await.unwrap();
    for (client, seat) in c.iter().zip(SeatId::ALL) {
        client.take_seat(id, seat).await.unwrap();
        client.ready(true).await.unwrap();
    }
    // Acknowledged moves: the server replied Ok to each. White-A's scholar's mate, interrupted.
    let rules = RuleOptions::mgimo_2017().rules().unwrap();
    let mut expected = Game::new(rules);
    let moves: [(usize, Board, &str); 7] = [
        (0, Board::A, "e4"),
        (1, Board::A, "e5"),
        (2, Board::B, "d4"),
        (0, Board::A, "Bc4"),
        (3, Board::B, "d5"),
        (1, Board::A, "Nc6"),
        (0, Board::A, "Qh5"),
    ];
    for (who, board, text) in moves {
        c[who].play(board, text, None).await.expect("the move is acknowledged");
        let b = if board == Board::A { BoardId::A } else { BoardId::B };
        let mv = expected.parse_move(b, text).unwrap();
        expected.play(mv).unwrap();
    }
    // The last recorded event's clocks, as the clients were told them.
    let last =
        wait_event(&mut c[1], |e| matches!(&e.kind, EventView::Moved { san, .. } if san == "Qh5")).await;

    // SIGKILL: no chance to flush or say goodbye.
    server.kill().unwrap();
    server.wait().unwrap();
    let Served { child: mut server, pin: pin_again, .. } = serve(dir.path(), &addr.to_string(), database_url);
    assert_eq!(pin_again, pin, "the same certificate after the restart");

    let mut states = Vec::new();
    for client in &mut c {
        let (pause, state) = resumed(client, id).await;
        assert_eq!(pause.seq, last.seq + 1, "the restart pause follows the last recorded event");
        for (i, (&now, &then)) in pause.clocks_ms.iter().zip(&last.clocks_ms).enumerate() {
            assert!(now >= then, "clock {i} restored to {now} ms, no less than {then} ms at the last event");
        }
        states.push(state);
    }
    assert_eq!(states[0].bfen, expected.bfen(), "no acknowledged move is lost");
    // All four are back: the clocks restart by themselves, and the match goes on to its end.
    let restart =
        wait_event(&mut c[1], |e| e.kind == EventView::Resumed { reason: PauseReason::Restart }).await;
    assert!(restart.running.iter().any(|r| *r), "clocks run again");
    c[1].play(Board::A, "Nf6", None).await.unwrap();
    c[0].play(Board::A, "Qxf7#", None).await.unwrap();
    for client in &mut c {
        let end = wait_event(client, |e| matches!(e.kind, EventView::Ended(_))).await;
        let EventView::Ended(result) = end.kind else { unreachable!() };
        assert_eq!(result.rule, "E1", "{result:?}");
    }
    assert_eq!(states[0].phase, PhaseView::Paused, "restored paused until all four are back");

    // A4: after yet another restart the decided match's record still comes from the database.
    server.kill().unwrap();
    server.wait().unwrap();
    let Served { child: mut server, .. } = serve(dir.path(), &addr.to_string(), database_url);
    let reader = Client::connect(addr, Trust::Fingerprint(pin), "reader").await.unwrap();
    let bpgn = reader.record(id).await.expect("the record of a decided match");
    let record = &shvedka_records::parse_bpgn(&bpgn).unwrap()[0];
    let sans: Vec<&str> = record.moves.iter().map(|m| m.text.as_str()).collect();
    assert_eq!(sans, ["e4", "e5", "d4", "Bc4", "d5", "Nc6", "Qh5", "Nf6", "Qxf7#"], "{bpgn}");
    assert_eq!(record.result.as_ref().and_then(|r| r.rule.as_deref()), Some("E1"));
    assert_eq!(record.player(bughouse::Seat::ALL[0]), Some("white-A"));
    server.kill().unwrap();
    server.wait().unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a4_k5_sigkill_mid_match_loses_no_acknowledged_move_sqlite() {
    killed_and_restarted("").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a4_k5_sigkill_mid_match_loses_no_acknowledged_move_postgres() {
    let pg = TempPostgres::start();
    killed_and_restarted(&pg.url).await;
}

/// A server killed and restarted on its data directory ends its old connections at once: the
/// first packet a client sends to the new process is answered with a stateless reset (the key is
/// kept in the data directory), so the client learns it must resume within a round trip, not
/// when its idle timeout runs out (10 s; 30 s before, the longest stalls of the fault benchmark).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_of_a_killed_server_is_reset_by_the_restarted_one_at_its_next_request() {
    let dir = tempfile::tempdir().unwrap();
    let Served { child: mut server, addr, pin, .. } = serve(dir.path(), "127.0.0.1:0", "");
    let mut c = Client::connect(addr, Trust::Fingerprint(pin), "reset").await.unwrap();
    c.ping().await.expect("connected");
    server.kill().unwrap();
    server.wait().unwrap();
    let Served { child: mut server, .. } = serve(dir.path(), &addr.to_string(), "");
    let asked = std::time::Instant::now();
    let refused = c.ping().await;
    let took = asked.elapsed();
    assert!(refused.is_err(), "the old connection is gone");
    assert!(took < std::time::Duration::from_secs(2), "the client learned it in {took:?}: {refused:?}");
    let lost = tokio::time::timeout(std::time::Duration::from_secs(2), async {
        loop {
            if let Update::Disconnected(_) = next(&mut c).await {
                break;
            }
        }
    })
    .await;
    assert!(lost.is_ok(), "the client was told its connection is lost");
    c.resume().await.expect("and resumes on the restarted server");
    c.ping().await.expect("connected again");
    server.kill().unwrap();
    server.wait().unwrap();
}

/// Issue 56 (K6): SIGKILL with three of the server's own bots seated beside a guest; the server
/// starts again on the same data and the guest resumes. The bots are part of the match's stored
/// state: the restarted process starts them again in their seats, the clocks run again as soon
/// as they are back, they move within seconds, and the match ends with a result.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn k6_after_sigkill_the_servers_bots_sit_again_and_the_match_ends() {
    let dir = tempfile::tempdir().unwrap();
    let Served { child: mut server, addr, pin, .. } = serve(dir.path(), "127.0.0.1:0", "");
    let mut anna = Client::connect(addr, Trust::Fingerprint(pin), "anna").await.unwrap();
    let id = anna.create_match("classic", "10s+0", true).await.unwrap();
    anna.take_seat(id, SeatId::WhiteA).await.unwrap();
    anna.request(shvedka_proto::ClientMsg::FillWithBots { match_id: id, level: 1 }).await.unwrap();
    anna.ready(true).await.unwrap();
    wait_event(&mut anna, |e| e.kind == EventView::Started).await;
    anna.play(Board::A, "e4", None).await.unwrap();
    let bot_moved =
        |e: &MatchEvent| matches!(e.kind, EventView::Moved { seat, .. } if seat != SeatId::WhiteA);
    wait_event(&mut anna, bot_moved).await;

    server.kill().unwrap();
    server.wait().unwrap();
    let Served { child: mut server, .. } = serve(dir.path(), &addr.to_string(), "");
    anna.resume().await.expect("anna resumes after the restart");
    let restart =
        wait_event(&mut anna, |e| e.kind == EventView::Resumed { reason: PauseReason::Restart }).await;
    assert!(restart.running.iter().any(|r| *r), "the clocks run again with the bots back");
    wait_event(&mut anna, bot_moved).await;
    // anna moves no more: her flag, a mate or a draw the bots make ends it.
    let ended = loop {
        let e =
            wait_event(&mut anna, |e| matches!(e.kind, EventView::Ended(_) | EventView::Moved { .. })).await;
        if let EventView::Ended(result) = e.kind {
            break result;
        }
    };
    assert!(["E1", "E4", "E5", "E7", "E8"].contains(&ended.rule.as_str()), "{ended:?}");
    server.kill().unwrap();
    server.wait().unwrap();
}
