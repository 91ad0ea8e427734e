//! The engine's analysis over the protocol (`ClientMsg::Analyse`, PROTOCOL.md item 23): a
//! spectator has a live position analysed on both boards while its players are refused (the
//! engine is for review); a flood of analyses is refused past the server's queue with
//! `Limit(Analyses)`, and the match's moves are answered as fast as before while the engine is
//! busy (its thread runs at the lowest priority, off the runtime that carries the matches).

use std::time::{Duration, Instant};

use shvedka_client::ClientError;
use shvedka_proto::{AnalysisRequest, Board, Busy, ClientMsg, ErrorCode, Evaluation, Limit, Reply};
use shvedka_tests::TestServer;

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1";

fn analyse(bfen: &str) -> ClientMsg {
    ClientMsg::Analyse(AnalysisRequest { bfen: bfen.into(), rules: "mgimo-2017".into(), clocks_ms: None })
}

fn refused(result: Result<Reply, ClientError>) -> ErrorCode {
    match result {
        Err(ClientError::Server(e)) => e.code,
        other => panic!("expected a refusal, got {other:?}"),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a4_a_spectator_has_a_live_position_analysed_and_its_players_are_refused() {
    // A small search: what is checked is that one runs and answers, not its depth. With 20,000
    // nodes the unoptimised test build took 0.5–2.5 s alone and 11.7 s on a machine also
    // building a release, past the client's 10 s wait for a reply.
    let server = TestServer::start("analysis_nodes = 5000").await;
    let (_, c) = server.seated_match("mgimo-2017", "3+0").await;
    c[0].play(Board::A, "e4", None).await.expect("move");
    let spectator = server.client("spectator").await;
    let bfen = format!("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR[] b KQkq - 0 1 | {START}");
    let Reply::Analysis(view) = spectator.request(analyse(&bfen)).await.expect("analysis") else {
        panic!("expected Analysis")
    };
    assert_eq!(view.bfen, bfen);
    for (board, name) in view.boards.iter().zip([Board::A, Board::B]) {
        assert_eq!(board.board, name);
        assert!(
            matches!(board.evaluation, Evaluation::Centipawns { white } if white.abs() < 300),
            "{board:?}"
        );
        assert!(board.best.is_some() && board.depth > 0 && board.nodes > 0, "{board:?}");
    }
    // A player of a match in play asks the engine nothing (B: Busy(Playing)).
    assert_eq!(refused(c[1].request(analyse(&bfen)).await), ErrorCode::Busy(Busy::Playing));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_flood_of_analyses_is_refused_past_the_queue_and_moves_are_answered_meanwhile() {
    // One search that runs for minutes, two waiting; four addresses' worth of askers.
    let server =
        TestServer::start("analysis_nodes = 500000000\nmax_analyses_queued = 2\nanalyses_per_address = 1")
            .await;
    let (_, c) = server.seated_match("mgimo-2017", "3+0").await;
    // Moves before the flood: the reference.
    let mut before = Vec::new();
    for (who, board, mv) in
        [(0, Board::A, "e4"), (1, Board::A, "e5"), (2, Board::B, "d4"), (3, Board::B, "d5")]
    {
        let t = Instant::now();
        c[who].play(board, mv, None).await.expect("move");
        before.push(t.elapsed());
    }
    let mut waiting = Vec::new();
    for n in 0..3u8 {
        let asker = server.client_from([127, 0, 0, 10 + n].into(), &format!("asker{n}")).await;
        // Positions differ (a pawn in a reserve more each), so none comes from the cache.
        let bfen = format!(
            "{START} | rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[{}] w KQkq - 0 1",
            "P".repeat(usize::from(n) + 1)
        );
        waiting.push(tokio::spawn(async move { asker.request(analyse(&bfen)).await }));
        // Taken by the engine or its queue before the next is asked (not a guess of how long
        // that takes: the server's own count).
        server.until_metric(&format!("shvedka_analyses_pending {}", n + 1)).await;
    }
    // The queue is full: a fourth address is refused at once, and so is a second ask from a
    // busy address.
    let fourth = server.client_from([127, 0, 0, 20].into(), "asker3").await;
    let start = format!("{START} | {START}");
    assert_eq!(refused(fourth.request(analyse(&start)).await), ErrorCode::Limit(Limit::Analyses));
    let again = server.client_from([127, 0, 0, 10].into(), "asker0-again").await;
    let other = format!("{START} | rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[N] w KQkq - 0 1");
    assert_eq!(refused(again.request(analyse(&other)).await), ErrorCode::Limit(Limit::Analyses));
    // The match goes on while the engine is busy.
    let mut during = Vec::new();
    for (who, board, mv) in
        [(0, Board::A, "Nf3"), (1, Board::A, "Nc6"), (2, Board::B, "c4"), (3, Board::B, "e6")]
    {
        let t = Instant::now();
        tokio::time::timeout(Duration::from_secs(2), c[who].play(board, mv, None))
            .await
            .expect("a move is answered while the engine searches")
            .expect("move");
        during.push(t.elapsed());
    }
    println!("moves' round trips before the flood {before:?}, during it {during:?}");
    for w in &waiting {
        assert!(!w.is_finished(), "the analyses are still searched or waiting");
    }
    for w in waiting {
        w.abort();
    }
}
