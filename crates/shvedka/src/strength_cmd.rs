//! `shvedka bench-strength`: shvedka's engine against Fairy-Stockfish, an outside anchor for its
//! strength (issue 35). Not part of the test suite: it needs the engine installed and minutes of
//! play (docs/benchmarks.md, "Strength against Fairy-Stockfish").
//!
//! First it checks the real engine on positions whose answer is known (these are the real-engine
//! tests; the suite tests the driver against fake engines only): the handshake and the variant, a
//! drop that mates on board, a promotion, and a position shvedka calls waiting (M2), where the
//! engine must have no move either. Then, for each level and time per move, it plays team matches
//! of the classic preset: shvedka's engine in both seats of one team, Fairy-Stockfish (one process
//! per seat, one thread each, never pondering) in the other two, the same time per move for all
//! four, the teams — so the colours on each board — swapped from match to match. Matches run
//! in-process through the match machine on virtual time (`strength_match.rs`). It prints each
//! match, then a table per level: wins, draws, losses from shvedka's side, the score, and the Elo
//! difference with its 95 % interval (`elo.rs` gives the formula).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use anyhow::{Context, anyhow, bail};
use bughouse::{BoardId, Game, MatchResult, RuleOptions, Seat, Team};
use clap::Args;
use shvedka_bot::Chooser;
use shvedka_uci::{Go, UciEngine, UciSettings};

use crate::elo::{Tally, show};
use crate::strength_match::play;
use crate::strength_speed::compare;

/// Arguments of `shvedka bench-strength`.
#[derive(Debug, Args)]
pub(crate) struct StrengthArgs {
    /// The UCI engine that knows bughouse (Fairy-Stockfish).
    #[arg(long, value_name = "PATH", default_value = "/usr/games/fairy-stockfish")]
    uci: PathBuf,
    /// shvedka's engine levels to measure (1 to 5), comma-separated: one row each.
    #[arg(long, value_delimiter = ',', default_value = "3", value_parser = clap::value_parser!(u8).range(1..=5))]
    levels: Vec<u8>,
    /// The time per move of every player, in milliseconds; comma-separated for several rows.
    #[arg(long, value_delimiter = ',', default_value = "100", value_parser = clap::value_parser!(u64).range(1..=60_000))]
    movetime_ms: Vec<u64>,
    /// Matches per row (the teams swap colours each match, so an even number is fair).
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    matches: u32,
    /// Each clock's base time, as a number of moves at the time per move (no increment): a player
    /// only flags by waiting for material that long.
    #[arg(long, default_value_t = 200, value_parser = clap::value_parser!(u32).range(10..=100_000))]
    clock_moves: u32,
    /// Fairy-Stockfish's hash table per process, in MiB.
    #[arg(long, default_value_t = 16, value_parser = clap::value_parser!(u32).range(1..=4096))]
    hash_mb: u32,
    /// Before the matches, each level's search speed beside the engine's on fixed positions, this
    /// many milliseconds a position (0: no speed table).
    #[arg(long, default_value_t = 1_000, value_parser = clap::value_parser!(u64).range(0..=60_000))]
    speed_ms: u64,
    /// Matches played at once, each with its own four players (at most the machine's cores: every
    /// player thinks its full time per move, so more would starve them all alike).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=64))]
    jobs: u32,
    /// Only the speed table: no matches.
    #[arg(long)]
    speed_only: bool,
}

pub(crate) fn run(args: &StrengthArgs, out: &mut dyn Write) -> anyhow::Result<()> {
    let runtime = tokio::runtime::Runtime::new().context("cannot start the async runtime")?;
    runtime.block_on(async {
        let settings = UciSettings { hash_mb: args.hash_mb, ..UciSettings::default() };
        check_engine(&args.uci, &settings, out).await?;
        if args.speed_ms > 0 {
            let mut engine = UciEngine::start(&args.uci, &[], &settings).await?;
            for &level in &args.levels {
                compare(&mut engine, level, Duration::from_millis(args.speed_ms), out).await?;
            }
        }
        if args.speed_only {
            return Ok(());
        }
        let mut rows = Vec::new();
        for &level in &args.levels {
            for &ms in &args.movetime_ms {
                let per_move = Duration::from_millis(ms);
                let row = measure(args, &settings, level, per_move, out).await?;
                rows.push((level, per_move, row));
            }
        }
        writeln!(out)?;
        writeln!(
            out,
            "| level | time per move | matches | W | D | L | score | Elo | 95 % interval | engine fallbacks |"
        )?;
        writeln!(out, "|---|---|---|---|---|---|---|---|---|---|")?;
        for (level, per_move, (tally, fallbacks)) in rows {
            let (elo, low, high) = tally.elo().unwrap_or((0.0, 0.0, 0.0));
            writeln!(
                out,
                "| {level} | {} ms | {} | {} | {} | {} | {:.1} % | {} | {} .. {} | {fallbacks} |",
                per_move.as_millis(),
                tally.games(),
                tally.wins,
                tally.draws,
                tally.losses,
                100.0 * tally.score().unwrap_or(0.0),
                show(elo),
                show(low),
                show(high),
            )?;
        }
        Ok(())
    })
}

/// One row: `args.matches` matches of shvedka at `level` against the engine, `per_move` each move,
/// `args.jobs` at a time (each with its own players), printed as they end.
async fn measure(
    args: &StrengthArgs,
    settings: &UciSettings,
    level: u8,
    per_move: Duration,
    out: &mut dyn Write,
) -> anyhow::Result<(Tally, u32)> {
    writeln!(
        out,
        "\nlevel {level}, {} ms per move, {} matches, {} at a time",
        per_move.as_millis(),
        args.matches,
        args.jobs
    )?;
    let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel();
    let mut jobs = tokio::task::JoinSet::new();
    for job in 0..args.jobs {
        let share = Share {
            first: job,
            step: args.jobs,
            matches: args.matches,
            level,
            per_move,
            base: per_move * args.clock_moves,
        };
        let (uci, settings, tx) = (args.uci.clone(), settings.clone(), tx.clone());
        jobs.spawn(async move { share.play(&uci, &settings, &tx).await });
    }
    drop(tx);
    let mut tally = Tally::default();
    while let Some(ended) = rx.recv().await {
        let outcome = match ended.played.result.result {
            MatchResult::Win(winner) if winner == ended.team => {
                tally.wins += 1;
                "win"
            }
            MatchResult::Win(_) => {
                tally.losses += 1;
                "loss"
            }
            MatchResult::Draw => {
                tally.draws += 1;
                "draw"
            }
        };
        writeln!(
            out,
            "match {:>3}: shvedka as team {} — {outcome} ({} {:?}), {} moves, {:.1} s of match time, {:.1} s",
            ended.number,
            if ended.team == Team::One { "1 (White A, Black B)" } else { "2 (Black A, White B)" },
            ended.played.result.reason.rule(),
            ended.played.result.reason,
            ended.played.moves,
            ended.played.length.as_secs_f64(),
            ended.took.as_secs_f64(),
        )?;
    }
    let mut fallbacks = 0;
    while let Some(done) = jobs.join_next().await {
        fallbacks += done.context("a job of matches panicked")??;
    }
    Ok((tally, fallbacks))
}

/// The matches one job plays: numbers `first`, `first + step`, … below `matches`.
#[derive(Clone, Copy, Debug)]
struct Share {
    first: u32,
    step: u32,
    matches: u32,
    level: u8,
    per_move: Duration,
    base: Duration,
}

/// A match that ended, for the table.
#[derive(Debug)]
struct Ended {
    number: u32,
    /// shvedka's team.
    team: Team,
    played: crate::strength_match::Played,
    took: Duration,
}

impl Share {
    /// Plays the share, sending each match as it ends; returns the engine's fallbacks.
    async fn play(
        self,
        uci: &Path,
        settings: &UciSettings,
        tx: &tokio::sync::mpsc::UnboundedSender<Ended>,
    ) -> anyhow::Result<u32> {
        // Per board: shvedka's chooser and the engine's, kept from match to match.
        let mut ours = [Some(Chooser::search(self.level)), Some(Chooser::search(self.level))];
        let mut theirs = [None, None];
        for slot in &mut theirs {
            let engine = UciEngine::start(uci, &[], settings).await?;
            *slot = Some(Chooser::uci(engine, None, self.level));
        }
        for i in (self.first..self.matches).step_by(self.step as usize) {
            let team = if i % 2 == 0 { Team::One } else { Team::Two };
            for chooser in theirs.iter_mut().flatten() {
                chooser.new_game().await;
            }
            let mut seats: [Option<Chooser>; 4] = [None, None, None, None];
            for seat in Seat::ALL {
                let side = if seat.team() == team { &mut ours } else { &mut theirs };
                seats[seat.index()] = side[seat.board.index()].take();
            }
            let started = Instant::now();
            let played = play(&mut seats, self.per_move, self.base).await?;
            for seat in Seat::ALL {
                let side = if seat.team() == team { &mut ours } else { &mut theirs };
                side[seat.board.index()] = seats[seat.index()].take();
            }
            // The table is gone only when the run failed elsewhere: nothing left to report to.
            if tx.send(Ended { number: i + 1, team, played, took: started.elapsed() }).is_err() {
                break;
            }
        }
        Ok(theirs.iter().flatten().map(Chooser::fallbacks).sum())
    }
}

/// Checks the real engine on positions whose answers are known (on board A; B at its start).
async fn check_engine(path: &Path, settings: &UciSettings, out: &mut dyn Write) -> anyhow::Result<()> {
    let mut engine = UciEngine::start(path, &[], settings).await?;
    writeln!(out, "engine: {} ({})", engine.name(), path.display())?;
    let rules = RuleOptions::classic().rules().map_err(|e| anyhow!("{e}"))?;
    let game = |a: &str| {
        Game::from_bfen(&format!("{a} | rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1"), rules)
            .map_err(|e| anyhow!("{e}"))
    };
    let go = Go::MoveTime(Duration::from_millis(200));
    // P1/P3 (classic allows it): a knight dropped on f2 mates on board; nothing can interpose.
    let mate = game("6k1/5ppp/8/8/8/8/6PP/6RK[n] b - - 0 1")?;
    let answer = engine.best_move(&mate, BoardId::A, go).await?.context("no move where N@f2 mates")?;
    let mut after = mate;
    after.play(answer.mv).map_err(|e| anyhow!("{e}"))?;
    if !after.is_mate_on_board(BoardId::A) {
        bail!("the engine played {} where N@f2 mates on board", answer.text);
    }
    writeln!(out, "check: drop that mates on board: {} (M1 mate) ok", answer.text)?;
    // R6: an upgrade promotion.
    let promote = game("8/4P1k1/8/8/8/8/8/K7[] w - - 0 1")?;
    let answer = engine.best_move(&promote, BoardId::A, go).await?.context("no move where e7e8q wins")?;
    if !answer.mv.is_promotion() {
        bail!("the engine played {} where e7e8 promotes", answer.text);
    }
    writeln!(out, "check: promotion: {} ok", answer.text)?;
    // M1/M2: checked along the first rank with nothing to drop. shvedka: no legal move, waiting
    // (not mate on board); the engine, whose mate is FIDE's, must have no move either.
    let waiting = game("6k1/5ppp/8/8/8/8/6PP/r6K[] w - - 0 1")?;
    if let Some(answer) = engine.best_move(&waiting, BoardId::A, go).await? {
        bail!("the engine played {} where shvedka has no legal move", answer.text);
    }
    if waiting.is_mate_on_board(BoardId::A) || !waiting.legal_moves(BoardId::A).is_empty() {
        bail!("shvedka should call this waiting (M2)");
    }
    writeln!(out, "check: waiting (M2), no move for either: ok")?;
    Ok(())
}
