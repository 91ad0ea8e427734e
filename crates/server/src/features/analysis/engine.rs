//! The analysis thread: the engine's search over both boards of a position, on a thread of its
//! own at the lowest scheduling priority, so that however many analyses wait, the match tasks
//! (and the runtime's threads that carry moves) are served first by the kernel.
//!
//! A fault of the engine on one position (a panic: a bug, never expected) must not end analysis
//! for everyone: the thread catches it, answers that position's asker with a failure, counts it
//! (`shvedka_analysis_failures_total`), logs the position, and goes on with a fresh engine.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;
use std::sync::mpsc::{Receiver, SyncSender, sync_channel};

use bughouse::{BoardId, BughouseMove, Game, Seat};
use chess_core::{CastlingSide, Color, Move};
use shvedka_engine::{Analysis, Engine, Limits, Verdict};
use shvedka_proto::{AnalysedMove, Board, BoardAnalysis, Evaluation};
use tokio::sync::oneshot;

use crate::service::metrics::Metrics;
use crate::service::refusal::{colour, kind};

/// The level of the analysing engine: the strongest (its depth cap is the search's own).
pub(super) const LEVEL: u8 = 5;

/// One position to analyse, and where its answer goes.
pub(super) struct Job {
    pub(super) game: Game,
    pub(super) reply: oneshot::Sender<Result<[BoardAnalysis; 2], Failed>>,
}

/// The engine failed on a position (it panicked); the thread goes on with a fresh one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Failed;

/// What the thread does with one position: an engine's analysis of both boards.
pub(super) type Work = Box<dyn FnMut(&Game) -> [BoardAnalysis; 2] + Send>;

/// Starts the analysis thread with room for `queue` waiting jobs; each board is searched to at
/// most `nodes` nodes. The thread ends when the sender is dropped.
pub(super) fn spawn(queue: usize, nodes: u64, metrics: Arc<Metrics>) -> std::io::Result<SyncSender<Job>> {
    spawn_with(queue, metrics, move || {
        let mut engine = Engine::new(LEVEL);
        let limits = Limits { time: None, nodes: Some(nodes), depth: None };
        Box::new(move |game: &Game| analyse_game(&mut engine, game, limits))
    })
}

/// [`spawn`] with the work made by `fresh` — once at the start and again after each failure.
pub(super) fn spawn_with(
    queue: usize,
    metrics: Arc<Metrics>,
    fresh: impl Fn() -> Work + Send + 'static,
) -> std::io::Result<SyncSender<Job>> {
    let (tx, rx) = sync_channel(queue.max(1));
    std::thread::Builder::new().name("analysis".into()).spawn(move || run(&rx, &fresh, &metrics))?;
    Ok(tx)
}

fn run(jobs: &Receiver<Job>, fresh: &dyn Fn() -> Work, metrics: &Metrics) {
    // The lowest priority (nice 19) for this thread alone: on Linux the nice value is per thread.
    if let Err(e) = rustix::process::nice(19) {
        tracing::warn!(error = %e, "the analysis thread cannot lower its priority");
    }
    let mut work = fresh();
    while let Ok(job) = jobs.recv() {
        metrics.analysing();
        let answer = catch_unwind(AssertUnwindSafe(|| work(&job.game))).map_err(|_| {
            tracing::error!(bfen = %job.game.bfen(), "the engine failed analysing a position; a fresh engine goes on");
            metrics.analysis_failed();
            Failed
        });
        if answer.is_err() {
            // Whatever the engine held when it failed is not trusted again.
            work = fresh();
        }
        // The asker may have gone (its connection closed): nothing to do then.
        let _ = job.reply.send(answer);
    }
}

/// What the engine finds on both boards of `game` (`short_of_time` is the caller's to set).
pub(super) fn analyse_game(engine: &mut Engine, game: &Game, limits: Limits) -> [BoardAnalysis; 2] {
    [BoardId::A, BoardId::B].map(|board| analyse_board(engine, game, board, limits))
}

/// What the engine finds on one board of `game`.
fn analyse_board(engine: &mut Engine, game: &Game, board: BoardId, limits: Limits) -> BoardAnalysis {
    let status = game.status(board);
    let to_move = status.turn;
    let mut view = BoardAnalysis {
        board: match board {
            BoardId::A => Board::A,
            BoardId::B => Board::B,
        },
        to_move: colour(to_move),
        evaluation: Evaluation::Waiting,
        best: None,
        line: Vec::new(),
        depth: 0,
        nodes: 0,
        wish: None,
        short_of_time: false,
    };
    if status.mate_on_board {
        view.evaluation = Evaluation::Mated { winner: colour(!to_move) };
        return view;
    }
    if game.is_stalemate_draw(board) {
        view.evaluation = Evaluation::Drawn;
        return view;
    }
    view.wish = engine.wish(game, Seat::new(board, to_move)).map(kind);
    let Some(found) = engine.analyse(game, board, limits) else {
        return view;
    };
    view.evaluation = evaluation(&found, to_move);
    view.line = line_san(game, &found);
    view.best = Some(arrow(game, &found.best));
    view.depth = found.depth;
    view.nodes = found.nodes;
    view
}

/// The score for White.
fn evaluation(found: &Analysis, to_move: Color) -> Evaluation {
    let white = |n: i32| if to_move == Color::White { n } else { -n };
    match found.verdict() {
        Verdict::Centipawns(cp) => Evaluation::Centipawns { white: white(cp) },
        Verdict::MateIn(moves) => Evaluation::MateIn { white: white(moves) },
    }
}

/// The line after the best move, in SAN, on the board alone.
fn line_san(game: &Game, found: &Analysis) -> Vec<String> {
    let mut after = *game;
    after.play_unchecked(found.best);
    let mut pos = *after.board(found.best.board);
    found
        .line
        .iter()
        .map(|mv| {
            let san = pos.san(mv);
            pos.play_unchecked(*mv);
            san
        })
        .collect()
}

/// The move as an arrow: castling goes to the king's square, not the rook's.
fn arrow(game: &Game, best: &BughouseMove) -> AnalysedMove {
    let index = |sq: chess_core::Square| u8::try_from(sq.index()).unwrap_or(u8::MAX);
    let to = match best.mv {
        Move::Castle { king, rook } => CastlingSide::of(king, rook).king_to(game.board(best.board).turn()),
        mv => mv.to(),
    };
    AnalysedMove {
        san: game.san(best),
        from: best.mv.from().map(index),
        to: index(to),
        drop: match best.mv {
            Move::Drop { role, .. } => Some(kind(role)),
            _ => None,
        },
        removal: best.removal.map(index),
    }
}
