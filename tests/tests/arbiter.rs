//! The arbiter over the wire (RULES.md A2, K5, A4): the role needs the server's secret; the acts
//! change the match for everyone and every one of them is in the record.

use shvedka_proto::{ArbiterRequest, Board, ErrorCode, EventView, MatchId, PhaseView, SeatId, TeamId};
use shvedka_tests::{TestServer, wait_event};

/// The acts of a record, each in a few words: `pause by (secret)`, `played 1a. e5`.
fn acts(r: &shvedka_records::Record) -> Vec<String> {
    use shvedka_records::ActKind;
    r.all_acts()
        .map(|a| {
            let what = match &a.kind {
                ActKind::Played(m) => format!("played {}", m.label()),
                ActKind::TakeBack { board, .. } => format!("takeback {board}"),
                ActKind::Adjust { seat, delta_ms } => format!("adjust {seat} {delta_ms:+}"),
                ActKind::SetPosition { .. } => "position".to_owned(),
                ActKind::Pause => "pause".to_owned(),
                ActKind::Resume => "resume".to_owned(),
                ActKind::Flag { seat } => format!("flag {seat}"),
                ActKind::Draw { board, cause } => format!("draw {board} {}", cause.code()),
                ActKind::Resign { seat } => format!("resign {seat}"),
                ActKind::Call { seat, replay } => {
                    format!("call {seat}{}", replay.map(|c| format!(" {}", c.code())).unwrap_or_default())
                }
                ActKind::Replay { cause, note } => format!("replay {} {note:?}", cause.code()),
                ActKind::Start => "start".to_owned(),
                ActKind::Result { outcome, note } => {
                    format!("result {} {note:?}", shvedka_records::RecordResult::new(*outcome).token())
                }
                ActKind::Annul { note } => format!("annul {note:?}"),
                ActKind::End => "end".to_owned(),
            };
            match &a.by {
                Some(by) => format!("{what} by {by}"),
                None => what,
            }
        })
        .collect()
}

/// Refused as no arbiter: `Needed`, or `WrongSecret` for a secret presented.
fn forbidden(e: shvedka_client::ClientError) -> bool {
    use shvedka_proto::{OfficialRefusal, OfficialRole::Arbiter};
    matches!(e, shvedka_client::ClientError::Server(m) if matches!(m.code,
        ErrorCode::Official(OfficialRefusal::Needed { role: Arbiter } | OfficialRefusal::WrongSecret { role: Arbiter })))
}

#[tokio::test]
async fn a2_the_arbiter_role_needs_the_secret_and_players_cannot_act() {
    let server = TestServer::start("arbiter_token = \"s3cret-whistle-of-arbiters\"").await;
    let (id, c) = server.seated_match("mgimo-2017", "blitz").await;
    assert!(
        forbidden(c[0].arbiter_act(id, ArbiterRequest::Pause).await.unwrap_err()),
        "a player is no arbiter"
    );
    assert!(forbidden(c[0].arbiter("guess").await.unwrap_err()), "a wrong secret is refused");
    assert!(forbidden(c[0].list_live().await.unwrap_err()));
    let arbiter = server.client("arbiter").await;
    arbiter.arbiter("s3cret-whistle-of-arbiters").await.unwrap();
    let unlisted = arbiter.create_match("classic", "1+0", false).await.unwrap();
    let live: Vec<MatchId> = arbiter.list_live().await.unwrap().iter().map(|m| m.match_id).collect();
    assert!(live.contains(&id) && live.contains(&unlisted), "the arbiter sees unlisted matches: {live:?}");
    let listed: Vec<MatchId> = c[0].list_matches().await.unwrap().iter().map(|m| m.match_id).collect();
    assert!(!listed.contains(&unlisted));
    // With no secret configured the role does not exist.
    let closed = TestServer::start("").await;
    let someone = closed.client("someone").await;
    assert!(forbidden(someone.arbiter("").await.unwrap_err()));
    server.stop().await;
    closed.stop().await;
}

#[tokio::test]
async fn a2_k5_pause_adjust_take_back_resume_declare_and_every_act_is_recorded() {
    let server = TestServer::start("arbiter_token = \"s3cret-whistle-of-arbiters\"").await;
    let (id, mut c) = server.seated_match("mgimo-2017", "blitz").await;
    let arbiter = server.client("arbiter").await;
    arbiter.arbiter("s3cret-whistle-of-arbiters").await.unwrap();
    c[0].play(Board::A, "e4", None).await.unwrap();
    c[1].play(Board::A, "e5", None).await.unwrap();

    arbiter.arbiter_act(id, ArbiterRequest::Pause).await.unwrap();
    let paused = wait_event(&mut c[2], |e| {
        matches!(&e.kind, EventView::ArbiterActed { act: ArbiterRequest::Pause, .. })
    })
    .await;
    assert_eq!(paused.running, [false; 4], "K5: all four clocks stop");
    assert!(c[0].play(Board::A, "Nf3", None).await.is_err(), "no move while paused");

    arbiter
        .arbiter_act(id, ArbiterRequest::AdjustClock { seat: SeatId::BlackA, delta_ms: 60_000 })
        .await
        .unwrap();
    let adjusted =
        wait_event(&mut c[2], |e| matches!(&e.kind, EventView::ArbiterActed { act: ArbiterRequest::AdjustClock { delta_ms, .. }, .. } if *delta_ms > 0))
            .await;
    assert!(adjusted.clocks_ms[1] > 180_000, "a minute added to black-A: {:?}", adjusted.clocks_ms);

    arbiter.arbiter_act(id, ArbiterRequest::TakeBack { board: Board::A }).await.unwrap();
    let back = wait_event(&mut c[2], |e| {
        matches!(&e.kind, EventView::ArbiterActed { act: ArbiterRequest::TakeBack { .. }, .. })
    })
    .await;
    assert!(
        back.bfen.as_deref().is_some_and(|b| b.starts_with("rnbqkbnr/pppppppp/8/8/4P3")),
        "{:?}",
        back.bfen
    );

    arbiter.arbiter_act(id, ArbiterRequest::Resume).await.unwrap();
    c[1].play(Board::A, "c5", None).await.expect("black-A plays again after the take-back");

    // Bad acts are refused with a reason and change nothing.
    let bad = arbiter.arbiter_act(id, ArbiterRequest::SetPosition { bfen: "not a position".into() }).await;
    assert!(bad.is_err());
    let bad =
        arbiter.arbiter_act(id, ArbiterRequest::DeclareResult { winner: None, reason: String::new() }).await;
    assert!(bad.is_err(), "a result needs a reason");

    arbiter
        .arbiter_act(
            id,
            ArbiterRequest::DeclareResult {
                winner: Some(TeamId::Two),
                reason: "A1 type 1 on board B".into(),
            },
        )
        .await
        .unwrap();
    let end = wait_event(&mut c[2], |e| matches!(e.kind, EventView::Ended(_))).await;
    let EventView::Ended(result) = end.kind else { unreachable!() };
    assert_eq!((result.winner, result.rule.as_str()), (Some(TeamId::Two), "A2"), "{result:?}");

    // A4: the record holds every act, the moves that stand, and the result.
    let bpgn = arbiter.record(id).await.unwrap();
    let records = shvedka_records::parse_bpgn(&bpgn).expect("the record is BPGN");
    let r = &records[0];
    let moves: Vec<&str> = r.moves.iter().map(|m| m.text.as_str()).collect();
    assert_eq!(moves, ["e4", "c5"], "the taken-back move is gone: {bpgn}");
    // Every act in order, the secret's saying so (issue 17); the taken-back move stays as played.
    assert_eq!(
        acts(r),
        [
            "played 1a. e5",
            "pause by (secret)",
            "adjust black-A +60000 by (secret)",
            "takeback A by (secret)",
            "resume by (secret)",
            "result 0-1 \"A1 type 1 on board B\" by (secret)",
            "end"
        ],
        "{bpgn}"
    );
    assert!(shvedka_records::check_record(r, r.rules().unwrap()).is_clean(), "{bpgn}");
    assert!(r.result.is_some());
    r.replay(r.rules().unwrap()).expect("the record replays");
    let summary = c[0].list_matches().await.unwrap();
    assert!(summary.iter().all(|m| m.match_id != id || m.phase == PhaseView::Ended));
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a4_a_decided_matchs_record_shows_an_arbiters_correction_made_after_it_was_read() {
    let server = TestServer::start("arbiter_token = \"s3cret-whistle-of-arbiters\"").await;
    let (id, mut c) = server.seated_match("mgimo-2017", "blitz").await;
    let arbiter = server.client("arbiter").await;
    arbiter.arbiter("s3cret-whistle-of-arbiters").await.unwrap();
    c[0].play(Board::A, "e4", None).await.unwrap();
    c[0].resign().await.unwrap();
    for client in &mut c {
        wait_event(client, |e| matches!(e.kind, EventView::Ended(_))).await;
    }
    // Read once (and kept rendered), then corrected: the record read again is the corrected one.
    let before = shvedka_records::parse_bpgn(&arbiter.record(id).await.unwrap()).unwrap()[0].result.clone();
    assert_eq!(
        before,
        arbiter.record(id).await.ok().and_then(|b| shvedka_records::parse_bpgn(&b).ok()).unwrap()[0].result
    );
    arbiter
        .arbiter_act(id, ArbiterRequest::DeclareResult { winner: None, reason: "a flag missed".into() })
        .await
        .expect("a decided match's result is corrected");
    // The corrected result, with the arbiter's words, reaches the players still on its end
    // screen (the match came back from its log for the act, its watchers with it).
    let corrected = wait_event(&mut c[1], |e| matches!(&e.kind, EventView::Ended(r) if r.rule == "A2")).await;
    let EventView::Ended(r) = corrected.kind else { unreachable!() };
    assert_eq!((r.winner, r.note.as_deref()), (None, Some("a flag missed")));
    // A page that reviews the match after the correction reads the result with the arbiter's
    // words (the stored log's last event).
    let reader = server.client("reader").await;
    let review =
        reader.request(shvedka_proto::ClientMsg::Review { match_id: id, after: None }).await.unwrap();
    let shvedka_proto::Reply::Review { events, .. } = review else { panic!("a review: {review:?}") };
    let Some(EventView::Ended(r)) = events.last().map(|e| e.kind.clone()) else { panic!("{events:?}") };
    assert_eq!((r.winner, r.rule.as_str(), r.note.as_deref()), (None, "A2", Some("a flag missed")));
    let bpgn = arbiter.record(id).await.unwrap();
    let after = shvedka_records::parse_bpgn(&bpgn).unwrap()[0].result.clone();
    assert_ne!(after, before, "the kept record was stale:\n{bpgn}");
    let r = &shvedka_records::parse_bpgn(&bpgn).unwrap()[0];
    // The first end (the resignation), then the correction and the end it makes.
    assert_eq!(
        acts(r),
        ["resign white-A", "end", "result 1/2-1/2 \"a flag missed\" by (secret)", "end"],
        "{bpgn}"
    );
}

/// The start position of both boards, as the server writes it.
const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1 | \
                     rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1";

/// A5: after 1A. e4 1a. e5 1B. d4 the players find the pieces stood wrongly. The arbiter orders
/// a replay: all four players see both boards back at the start with four full clocks, then the
/// start; the same four play the game again in the same seats. The record is the game played
/// again, the annulled one's moves kept as played before the act with who made it; and the
/// match restored from its log after a restart is the same.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a5_an_arbiter_replays_a_live_match_and_all_four_players_see_the_fresh_start() {
    use shvedka_proto::{OfficialView, ReplayReason, ServerMsg};
    let server = TestServer::start("arbiter_token = \"s3cret-whistle-of-arbiters\"").await;
    let (id, mut c) = server.seated_match("mgimo-2017", "blitz").await;
    let arbiter = server.client("arbiter").await;
    arbiter.arbiter("s3cret-whistle-of-arbiters").await.unwrap();
    c[0].play(Board::A, "e4", None).await.unwrap();
    c[1].play(Board::A, "e5", None).await.unwrap();
    c[2].play(Board::B, "d4", None).await.unwrap();

    let replay = ArbiterRequest::Replay { reason: ReplayReason::WrongSetup, note: String::new() };
    arbiter.arbiter_act(id, replay.clone()).await.unwrap();
    for player in &mut c {
        let fresh =
            wait_event(player, |e| matches!(&e.kind, EventView::ArbiterActed { act, .. } if *act == replay))
                .await;
        assert_eq!(fresh.bfen.as_deref(), Some(START), "both boards back at the start");
        assert_eq!(fresh.clocks_ms, [180_000; 4], "four full clocks");
        let EventView::ArbiterActed { by, .. } = &fresh.kind else { unreachable!() };
        assert_eq!(by, &Some(OfficialView::Secret), "who made it");
        let start = wait_event(player, |e| matches!(e.kind, EventView::Started)).await;
        assert_eq!(start.running, [true, false, true, false], "both White clocks start together (K1)");
    }
    assert!(c[1].play(Board::A, "e5", None).await.is_err(), "White moves first again");
    c[0].play(Board::A, "d4", None).await.expect("the same white-A plays the game again");

    let bpgn = arbiter.record(id).await.unwrap();
    let r = &shvedka_records::parse_bpgn(&bpgn).expect("the record is BPGN")[0];
    let moves: Vec<&str> = r.moves.iter().map(|m| m.text.as_str()).collect();
    assert_eq!(moves, ["d4"], "the record is the game played again:\n{bpgn}");
    assert_eq!(
        acts(r),
        ["played 1A. e4", "played 1a. e5", "played 1B. d4", "replay wrong-setup \"\" by (secret)", "start"],
        "the annulled game stays as played before the act:\n{bpgn}"
    );
    r.replay(r.rules().unwrap()).expect("the record replays");

    // A4: the match comes back from its log after a restart as it was: the game played again.
    drop(c);
    let server = server.restart().await;
    let spectator = server.client("spectator").await;
    spectator.watch(id).await.unwrap();
    let mut spectator = spectator;
    let ServerMsg::State(state) =
        shvedka_tests::wait_msg(&mut spectator, |m| matches!(m, ServerMsg::State(_))).await
    else {
        unreachable!()
    };
    let sans: Vec<&str> = state.moves.iter().map(|m| m.san.as_str()).collect();
    assert_eq!(sans, ["d4"]);
    assert!(state.bfen.starts_with("rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR"), "{}", state.bfen);
    assert!(
        state.bfen.ends_with("| rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1"),
        "{}",
        state.bfen
    );
    server.stop().await;
}

/// A6, K5: a player who asks for a replay calls the arbiter with the reason: the clocks stop, and
/// the arbiter watching the match reads who asks and why. A replay is refused before the start
/// and after the end, and a call without a reason stays a plain call.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a6_a_players_call_for_a_replay_reaches_the_arbiter_with_its_reason() {
    use shvedka_proto::ReplayReason;
    let server = TestServer::start("arbiter_token = \"s3cret-whistle-of-arbiters\"").await;
    let (id, mut c) = server.seated_match("mgimo-2017", "blitz").await;
    let mut arbiter = server.client("arbiter").await;
    arbiter.arbiter("s3cret-whistle-of-arbiters").await.unwrap();
    arbiter.watch(id).await.unwrap();
    c[0].play(Board::A, "e4", None).await.unwrap();
    c[3].call_arbiter(Some(ReplayReason::OutsideHint)).await.unwrap();
    let call = wait_event(&mut arbiter, |e| matches!(e.kind, EventView::ArbiterCalled { .. })).await;
    assert_eq!(
        call.kind,
        EventView::ArbiterCalled { seat: SeatId::BlackB, replay: Some(ReplayReason::OutsideHint) }
    );
    assert_eq!(call.running, [false; 4], "K5: the call stops all four clocks");
    let seen = wait_event(&mut c[1], |e| matches!(e.kind, EventView::ArbiterCalled { .. })).await;
    assert_eq!(seen.kind, call.kind, "every player reads the call with its reason");
    // An arbiter who opens the match later reads who called and why from its state.
    let late = server.client("late-arbiter").await;
    late.arbiter("s3cret-whistle-of-arbiters").await.unwrap();
    late.watch(id).await.unwrap();
    let mut late = late;
    let shvedka_proto::ServerMsg::State(state) =
        shvedka_tests::wait_msg(&mut late, |m| matches!(m, shvedka_proto::ServerMsg::State(_))).await
    else {
        unreachable!()
    };
    assert_eq!(
        state.called,
        Some(shvedka_proto::CallView { seat: SeatId::BlackB, replay: Some(ReplayReason::OutsideHint) })
    );
    let live = arbiter.list_live().await.unwrap();
    assert!(live.iter().any(|m| m.match_id == id && m.phase == PhaseView::Paused));

    // The arbiter decides otherwise (A6): he resumes, and the game goes on.
    arbiter.arbiter_act(id, ArbiterRequest::Resume).await.unwrap();
    c[1].play(Board::A, "e5", None).await.unwrap();
    c[2].call_arbiter(None).await.unwrap();
    let plain =
        wait_event(&mut arbiter, |e| matches!(e.kind, EventView::ArbiterCalled { seat: SeatId::WhiteB, .. }))
            .await;
    assert_eq!(plain.kind, EventView::ArbiterCalled { seat: SeatId::WhiteB, replay: None });
    let bpgn = arbiter.record(id).await.unwrap();
    let r = &shvedka_records::parse_bpgn(&bpgn).unwrap()[0];
    assert_eq!(acts(r), ["call black-B outside-hint", "resume by (secret)", "call white-B"], "{bpgn}");

    // A bad note is refused and changes nothing; a decided match cannot be replayed.
    let long = ArbiterRequest::Replay { reason: ReplayReason::Other, note: "x".repeat(501) };
    assert!(arbiter.arbiter_act(id, long).await.is_err());
    c[0].resign().await.unwrap();
    wait_event(&mut arbiter, |e| matches!(e.kind, EventView::Ended(_))).await;
    let over = ArbiterRequest::Replay { reason: ReplayReason::OutsideHint, note: String::new() };
    assert!(arbiter.arbiter_act(id, over).await.is_err(), "a decided match is over");
    server.stop().await;
}

/// A2 after a restart: a player still on a decided match's end screen whose connection was lost
/// (here the server restarted) names the match when his client resumes, and a correction of the
/// result made afterwards reaches his new connection (before, the kept watchers were only the
/// connections of the moment the match was decided: "no update within 10 s").
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a2_a_corrected_result_reaches_an_end_screen_that_came_back_after_a_restart() {
    let server = TestServer::start("arbiter_token = \"s3cret-whistle-of-arbiters\"").await;
    let (id, mut c) = server.seated_match("mgimo-2017", "blitz").await;
    c[0].play(Board::A, "e4", None).await.unwrap();
    c[0].resign().await.unwrap();
    for client in &mut c {
        wait_event(client, |e| matches!(e.kind, EventView::Ended(_))).await;
    }
    let server = server.restart().await;
    c[1].resume_at(server.addr).await.expect("the session resumes on the restarted server");
    // A request answered on the resumed connection: its resumption has been handled.
    c[1].list_matches().await.unwrap();
    let arbiter = server.client("arbiter").await;
    arbiter.arbiter("s3cret-whistle-of-arbiters").await.unwrap();
    arbiter
        .arbiter_act(id, ArbiterRequest::DeclareResult { winner: None, reason: "a flag missed".into() })
        .await
        .expect("a decided match's result is corrected after the restart");
    let corrected = wait_event(&mut c[1], |e| matches!(&e.kind, EventView::Ended(r) if r.rule == "A2")).await;
    let EventView::Ended(r) = corrected.kind else { unreachable!() };
    assert_eq!((r.winner, r.note.as_deref()), (None, Some("a flag missed")));
    server.stop().await;
}
