//! A real server on 127.0.0.1:0 with four real clients: matches played to their end over QUIC,
//! a lost connection resumed, spectators and chat (RULES.md E1, K4, A3, S4).

use std::time::Duration;

use shvedka_client::Update;
use shvedka_proto::{Board, ChatScope, EventView, PhaseView, SeatId, ServerMsg, TeamId};
use shvedka_tests::*;

const WA: usize = 0;
const BA: usize = 1;
const WB: usize = 2;
const BB: usize = 3;

#[tokio::test]
async fn e1_a_match_played_to_mate_on_board() {
    let server = TestServer::start("").await;
    let (_, mut c) = server.seated_match("mgimo-2017", "blitz").await;
    for (i, text) in ["e4", "e5", "Qh5", "Nc6", "Bc4", "Nf6"].into_iter().enumerate() {
        let who = if i % 2 == 0 { WA } else { BA };
        c[who].play(Board::A, text, Some(Duration::from_millis(50))).await.unwrap();
    }
    c[WA].play(Board::A, "Qxf7", None).await.unwrap();
    for client in &mut c {
        let e = wait_event(client, |e| matches!(e.kind, EventView::Ended(_))).await;
        let EventView::Ended(result) = e.kind else { unreachable!() };
        assert_eq!((result.winner, result.rule.as_str()), (Some(TeamId::One), "E1"));
        assert_eq!(&*result.rules, ["E1"], "a mate with no flag in the air: E1 alone decided it");
    }
    // Nothing is played after the end.
    let after = c[BB].play(Board::B, "e5", None).await.unwrap_err();
    assert!(after.to_string().contains("is over"), "{after}");
    server.stop().await;
}

#[tokio::test]
async fn k4_a_match_ended_by_flag() {
    let server = TestServer::start("").await;
    let (_, mut c) = server.seated_match("classic", "1s+0").await;
    let e = wait_event(&mut c[BB], |e| matches!(e.kind, EventView::Ended(_))).await;
    let EventView::Ended(result) = e.kind else { unreachable!() };
    assert_eq!(result.rule, "E7");
    assert_eq!(result.winner, None, "both White clocks fell: crosswise flags draw");
    // Every rule that decided it: the flags, and the grace window that held them both (K4).
    assert_eq!(&*result.rules, ["E7", "K4"]);
    assert_eq!(e.clocks_ms[0], 0);
    server.stop().await;
}

// Two workers, as a server runs: on one thread, White-A's disconnect (his session's row written
// in a transaction through sqlx) and Black-A's e5 (appended by SQLite on the committing thread,
// whose busy handler spins there) can hold each other up to the 10 s busy timeout, and the
// match task fails ("database is locked"; seen under load).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a4_a_dropped_connection_resumes_without_missing_or_repeating_an_event() {
    let server = TestServer::start("").await;
    let (_, mut c) = server.seated_match("mgimo-2017", "blitz").await;
    c[WA].play(Board::A, "e4", None).await.unwrap();
    wait_event(&mut c[WA], |e| matches!(e.kind, EventView::Moved { .. })).await;
    drain(&mut c[WA]);
    let seen = c[WA].last_seq().unwrap();
    c[WA].drop_connection();
    // While White-A is away the match goes on; his clock is not paused by the disconnect.
    c[BA].play(Board::A, "e5", None).await.unwrap();
    c[WB].play(Board::B, "d4", None).await.unwrap();
    c[BB].play(Board::B, "d5", None).await.unwrap();
    c[BB].chat(ChatScope::Match, "where did he go").await.unwrap();
    // Not an ordering: the time he is away, which his clock must be charged.
    const AWAY: Duration = Duration::from_millis(300);
    tokio::time::sleep(AWAY).await;
    c[WA].resume().await.unwrap();
    let mut seqs = Vec::new();
    let mut his_turn_from = None;
    while seqs.len() < 3 {
        if let Update::Server(ServerMsg::Event(e)) = next(&mut c[WA]).await {
            seqs.push(e.seq);
            if e.seq == seen + 1 {
                assert!(e.running[0], "Black-A's e5 starts White-A's clock: {e:?}");
                his_turn_from = Some(e.clocks_ms[0]);
            }
        }
    }
    assert_eq!(seqs, vec![seen + 1, seen + 2, seen + 3], "exactly the missed events, in order");
    c[WA].play(Board::A, "Nf3", None).await.unwrap();
    let e = wait_event(&mut c[WA], |e| matches!(e.kind, EventView::Moved { .. })).await;
    assert_eq!(e.seq, seen + 4, "then live events, without a gap or a repeat");
    // 3+0 and no lag credit for a move that reports no thinking time: Nf3 is charged all the time
    // since e5, the time he was away included.
    let charged = his_turn_from.expect("e5 was among the missed events") - e.clocks_ms[0];
    assert!(
        charged >= AWAY.as_millis() as u64,
        "the absent player's clock kept running: charged {charged} ms for at least {AWAY:?} away"
    );
    server.stop().await;
}

#[tokio::test]
async fn a3_spectators_see_everything_and_no_chat_of_theirs_reaches_a_player() {
    let server = TestServer::start("").await;
    let (id, mut c) = server.seated_match("mgimo-2017", "blitz").await;
    let mut spectator = server.client("kibitzer").await;
    spectator.watch(id).await.unwrap();
    let ServerMsg::State(state) = wait_msg(&mut spectator, |m| matches!(m, ServerMsg::State(_))).await else {
        unreachable!()
    };
    assert_eq!(state.phase, PhaseView::Running);
    assert_eq!(state.your_seat, None);
    assert_eq!(state.seats[BB].as_deref(), Some("black-B"));
    c[WA].play(Board::A, "e4", None).await.unwrap();
    let e = wait_event(&mut spectator, |e| matches!(e.kind, EventView::Moved { .. })).await;
    assert!(matches!(e.kind, EventView::Moved { seat: SeatId::WhiteA, ref san, .. } if san == "e4"));
    assert!(e.bfen.unwrap().contains("4P3"));

    spectator.chat(ChatScope::Match, "play Qh5!").await.unwrap();
    let team = spectator.chat(ChatScope::Team, "psst").await.unwrap_err();
    assert!(team.to_string().contains("team chat is for the players"), "{team}");
    c[WA].chat(ChatScope::Team, "need a knight").await.unwrap();
    c[BA].chat(ChatScope::Match, "good luck").await.unwrap();
    // A marker everyone follows, so nothing is still in flight when we look.
    c[WB].play(Board::B, "d4", None).await.unwrap();
    let mut seen: Vec<Vec<String>> = Vec::new();
    for client in c.iter_mut().chain(std::iter::once(&mut spectator)) {
        let msgs =
            collect_until(client, |e| matches!(e.kind, EventView::Moved { seat: SeatId::WhiteB, .. })).await;
        seen.push(
            msgs.into_iter()
                .filter_map(|m| match m {
                    ServerMsg::Chat { text, .. } => Some(text),
                    _ => None,
                })
                .collect(),
        );
    }
    assert_eq!(seen[WA], ["need a knight", "good luck"]);
    assert_eq!(seen[BB], ["need a knight", "good luck"], "the partner reads team chat");
    assert_eq!(seen[BA], ["good luck"], "team chat is invisible to opponents");
    assert_eq!(seen[WB], ["good luck"]);
    assert_eq!(seen[4], ["play Qh5!", "good luck"], "the spectator's words reach spectators only");
    server.stop().await;
}

#[tokio::test]
async fn e3_e4_e10_k5_draws_claims_resignation_and_calling_the_arbiter_over_the_wire() {
    let server = TestServer::start("arbiter_token = \"s3cret-whistle-of-arbiters\"").await;
    let (_, mut c) = server.seated_match("mgimo-2017", "blitz").await;
    let claim = c[BA].claim(shvedka_proto::ClaimKind::Repetition).await.unwrap_err();
    assert!(claim.to_string().contains("(E4)"), "{claim}");
    c[WA].offer_draw().await.unwrap();
    c[BA].decline_draw().await.unwrap();
    c[WB].call_arbiter(None).await.unwrap();
    let e = wait_event(&mut c[BB], |e| matches!(e.kind, EventView::ArbiterCalled { .. })).await;
    assert_eq!(e.running, [false; 4], "K5: all four clocks stop");
    let paused = c[WA].play(Board::A, "e4", None).await.unwrap_err();
    assert!(paused.to_string().contains("(K5)"), "{paused}");
    c[WA].offer_draw().await.unwrap();
    c[BA].offer_draw().await.unwrap();
    let e = wait_event(&mut c[WB], |e| matches!(e.kind, EventView::Ended(_))).await;
    assert!(matches!(e.kind, EventView::Ended(ref r) if r.winner.is_none() && r.rule == "E3"));

    let (_, mut d) = server.seated_match("classic", "blitz").await;
    d[WB].resign().await.unwrap();
    let e = wait_event(&mut d[WA], |e| matches!(e.kind, EventView::Ended(_))).await;
    assert!(matches!(e.kind, EventView::Ended(ref r) if r.winner == Some(TeamId::One) && r.rule == "E10"));
    server.stop().await;
}

#[tokio::test]
async fn s1_a_watcher_who_takes_a_seat_is_told_his_seat_in_a_fresh_state() {
    let server = TestServer::start("").await;
    let mut c = server.client("watcher").await;
    let id = c.create_match("mgimo-2017", "blitz", true).await.unwrap();
    c.watch(id).await.unwrap();
    let first = wait_msg(&mut c, |m| matches!(m, ServerMsg::State(_))).await;
    assert!(matches!(first, ServerMsg::State(s) if s.your_seat.is_none()));
    c.take_seat(id, SeatId::BlackB).await.unwrap();
    let seated = wait_msg(&mut c, |m| matches!(m, ServerMsg::State(_))).await;
    let ServerMsg::State(state) = seated else { unreachable!() };
    assert_eq!(state.your_seat, Some(SeatId::BlackB));
    assert_eq!(state.seats[SeatId::BlackB.index()].as_deref(), Some("watcher"));
    server.stop().await;
}

/// A4: a spectator who comes in mid-match gets every move so far in the state itself (no record
/// to read, no notation to parse), in the order played on both boards, as the record numbers them.
#[tokio::test]
async fn a4_the_state_carries_the_move_list() {
    let server = TestServer::start("").await;
    let (id, mut c) = server.seated_match("mgimo-2017", "3+0").await;
    for (i, board, text) in [(WA, Board::A, "e2e4"), (WB, Board::B, "d2d4"), (BA, Board::A, "Nc6")] {
        c[i].play(board, text, None).await.expect("a legal move");
    }
    wait_event(&mut c[WA], |e| matches!(&e.kind, EventView::Moved { san, .. } if san == "Nc6")).await;
    let mut late = server.client("late").await;
    late.watch(id).await.expect("watch");
    let ServerMsg::State(state) = wait_msg(&mut late, |m| matches!(m, ServerMsg::State(_))).await else {
        unreachable!()
    };
    let moves: Vec<(SeatId, u32, &str)> =
        state.moves.iter().map(|m| (m.seat, m.number, m.san.as_str())).collect();
    assert_eq!(moves, [(SeatId::WhiteA, 1, "e4"), (SeatId::WhiteB, 1, "d4"), (SeatId::BlackA, 1, "Nc6")]);
    server.stop().await;
}
