//! The analyst's bounds and answers, without the network: what it says of a position, what it
//! refuses, and that one address cannot take the queue from the others.

use std::net::IpAddr;

use shvedka_proto::{AnalysisRequest, Colour, ErrorCode, Evaluation, Invalid, Limit, PieceKind};

use std::sync::Arc;

use super::{AnalysisLimits, Analyst};
use crate::service::metrics::Metrics;

/// White to move on A has a knight in reserve and N@f7 smothers the king on h8; B is the start.
const SMOTHER: &str =
    "6rk/6pp/8/8/8/8/5PPP/6K1[N] w - - 0 1 | rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1";
/// Board A: Black is mated (a contact mate no drop can block); B: the start.
const MATED: &str =
    "1k6/1Q6/1K6/8/8/8/8/8[] b - - 0 1 | rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1";

fn request(bfen: &str, rules: &str) -> AnalysisRequest {
    AnalysisRequest { bfen: bfen.into(), rules: rules.into(), clocks_ms: None }
}

fn ip(s: &str) -> IpAddr {
    s.parse().unwrap()
}

fn analyst(queued: usize, per_address: usize, nodes: u64) -> Analyst {
    Analyst::start(AnalysisLimits { queued, per_address, nodes }, Arc::new(Metrics::new())).unwrap()
}

/// Waits (a bounded while) until the analysis thread has taken `n` positions.
async fn taken(a: &Analyst, n: u64) {
    for _ in 0..500 {
        if a.metrics.analyses() >= n {
            return;
        }
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
    panic!("the analysis thread took {} positions, not {n}", a.metrics.analyses());
}

#[tokio::test]
async fn p3_a_drop_mate_is_mate_in_one_under_classic_and_not_under_mgimo() {
    let a = analyst(4, 4, 20_000);
    let classic = a.analyse(request(SMOTHER, "classic"), ip("10.0.0.1")).await.unwrap();
    let [board_a, board_b] = &classic.boards;
    assert_eq!(board_a.evaluation, Evaluation::MateIn { white: 1 });
    let best = board_a.best.as_ref().unwrap();
    assert_eq!(
        (best.san.as_str(), best.from, best.to, best.drop),
        ("N@f7#", None, 53, Some(PieceKind::Knight))
    );
    assert!(board_a.line.is_empty());
    assert_eq!(board_b.to_move, Colour::White);
    assert!(
        matches!(board_b.evaluation, Evaluation::Centipawns { white } if white.abs() < 200),
        "{board_b:?}"
    );
    assert!(board_b.best.as_ref().unwrap().from.is_some() && !board_b.line.is_empty());

    let mgimo = a.analyse(request(SMOTHER, "mgimo-2017"), ip("10.0.0.1")).await.unwrap();
    assert_ne!(mgimo.boards[0].evaluation, Evaluation::MateIn { white: 1 }, "P3 forbids the drop mate");
    assert_ne!(mgimo.boards[0].best.as_ref().unwrap().san, "N@f7#");
}

#[tokio::test]
async fn m1_a_board_already_mated_is_told_so_and_clocks_say_who_is_short_of_time() {
    let a = analyst(4, 4, 5_000);
    let mut req = request(MATED, "classic");
    // White-A, Black-A, White-B, Black-B: Black-A (mated, to move) has 5 s, White-B 9.999 s.
    req.clocks_ms = Some([60_000, 5_000, 9_999, 60_000]);
    let view = a.analyse(req, ip("10.0.0.1")).await.unwrap();
    assert_eq!(view.boards[0].evaluation, Evaluation::Mated { winner: Colour::White });
    assert_eq!((view.boards[0].best.clone(), view.boards[0].nodes), (None, 0));
    assert!(view.boards[0].short_of_time && view.boards[1].short_of_time);
    // The same position again is answered from the cache, with this request's clocks.
    let mut again = request(MATED, "classic");
    again.clocks_ms = Some([60_000, 60_000, 60_000, 60_000]);
    let view = a.analyse(again, ip("10.0.0.1")).await.unwrap();
    assert!(!view.boards[0].short_of_time && !view.boards[1].short_of_time);
}

#[tokio::test]
async fn bad_input_is_refused_with_what_was_wrong_and_the_thread_serves_on() {
    let a = analyst(4, 4, 2_000);
    let code = |r: Result<_, shvedka_proto::ErrorMsg>| r.unwrap_err().code;
    assert_eq!(
        code(a.analyse(request(SMOTHER, "blitz-9000"), ip("10.0.0.1")).await),
        ErrorCode::Invalid(Invalid::RulePreset)
    );
    for bad in [
        "",
        "not a position",
        "8/8/8/8/8/8/8/8[] w - - 0 1 | rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1",
    ] {
        assert_eq!(
            code(a.analyse(request(bad, "classic"), ip("10.0.0.1")).await),
            ErrorCode::Invalid(Invalid::Position),
            "{bad:?}"
        );
    }
    assert!(a.analyse(request(SMOTHER, "classic"), ip("10.0.0.1")).await.is_ok());
}

/// With the thread busy on a long search, the queue takes `queued` more; past it, and past an
/// address's share of it, a request is refused at once with `Limit(Analyses)` — and an address
/// that filled its share does not keep another address out.
#[tokio::test]
async fn a_flood_is_refused_past_the_queue_and_past_one_addresss_share() {
    let a = Arc::new(analyst(3, 2, 500_000_000));
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1";
    // Distinct positions (a different reserve each), so none is answered from the cache.
    let position = |n: usize| {
        format!("{start} | rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[{}] w KQkq - 0 1", "P".repeat(n))
    };
    let ask = |n: usize, from: &str| {
        let (a, req, from) = (a.clone(), request(&position(n), "classic"), ip(from));
        tokio::spawn(async move { a.analyse(req, from).await })
    };
    let flooder: Vec<_> = (1..=2).map(|n| ask(n, "10.0.0.1")).collect();
    taken(&a, 1).await;
    let refused = ask(3, "10.0.0.1").await.unwrap().unwrap_err();
    assert_eq!(refused.code, ErrorCode::Limit(Limit::Analyses), "the address's share is two");
    // Another address still gets in: one searched and two waiting at most, whoever asked.
    let other: Vec<_> = (4..=5).map(|n| ask(n, "10.0.0.2")).collect();
    // Both are in the queue (a refusal would have ended the task by now).
    for _ in 0..100 {
        tokio::task::yield_now().await;
    }
    let past = ask(6, "10.0.0.3").await.unwrap().unwrap_err();
    assert_eq!(past.code, ErrorCode::Limit(Limit::Analyses), "the queue holds three after the one searched");
    for task in flooder.into_iter().chain(other) {
        assert!(!task.is_finished(), "still waiting for the long search");
        task.abort();
    }
}

/// An analyst whose engine panics on the first `panics` positions, then analyses as the real one
/// does; with the count of engines made (one at the start, one after each failure).
fn failing_analyst(panics: usize) -> (Analyst, Arc<std::sync::atomic::AtomicUsize>) {
    use std::sync::atomic::{AtomicUsize, Ordering};
    let metrics = Arc::new(Metrics::new());
    let left = Arc::new(AtomicUsize::new(panics));
    let made = Arc::new(AtomicUsize::new(0));
    let fresh = {
        let made = made.clone();
        move || -> super::engine::Work {
            made.fetch_add(1, Ordering::SeqCst);
            let left = left.clone();
            let mut engine = shvedka_engine::Engine::new(super::engine::LEVEL);
            Box::new(move |game: &bughouse::Game| {
                if left.load(Ordering::SeqCst) > 0 {
                    left.fetch_sub(1, Ordering::SeqCst);
                    panic!("a fault of the engine, for the test");
                }
                let limits = shvedka_engine::Limits { time: None, nodes: Some(20_000), depth: None };
                super::engine::analyse_game(&mut engine, game, limits)
            })
        }
    };
    let jobs = super::engine::spawn_with(4, metrics.clone(), fresh).unwrap();
    let limits = AnalysisLimits { queued: 4, per_address: 4, nodes: 20_000 };
    (Analyst::with_thread(jobs, limits, metrics), made)
}

#[tokio::test]
async fn an_engine_that_fails_on_a_position_is_answered_unavailable_and_the_next_position_is_analysed() {
    let (a, made) = failing_analyst(1);
    let failed = a.analyse(request(SMOTHER, "classic"), ip("10.0.0.1")).await.unwrap_err();
    assert_eq!(failed.code, ErrorCode::Unavailable);
    assert_eq!(a.metrics.analysis_failures(), 1);
    // The same position again (a failure is not cached) and another one: both analysed.
    let again = a.analyse(request(SMOTHER, "classic"), ip("10.0.0.1")).await.unwrap();
    assert_eq!(again.boards[0].evaluation, Evaluation::MateIn { white: 1 });
    let other = a.analyse(request(MATED, "classic"), ip("10.0.0.2")).await.unwrap();
    assert_eq!(other.boards[0].evaluation, Evaluation::Mated { winner: Colour::White });
    assert_eq!(a.metrics.analysis_failures(), 1);
    assert_eq!(a.metrics.analyses(), 3);
    assert_eq!(made.load(std::sync::atomic::Ordering::SeqCst), 2, "a fresh engine after the failure");
}
