//! Search speed beside Fairy-Stockfish's, for `shvedka bench-strength`: on the same positions and
//! the same time, how many nodes each engine searches per second and how deep it gets.
//!
//! Why it is here: strength at equal time is speed times knowledge, and the two are improved by
//! different work. The figure to compare between runs is the ratio in the same run (the machine is
//! shared), and depth at equal time is the number that decides games. Nodes are each engine's own
//! count (Fairy-Stockfish counts quiescence nodes too, as shvedka does), so the ratio is indicative,
//! not exact.

use std::io::Write;
use std::time::{Duration, Instant};

use anyhow::{Context, anyhow};
use bughouse::{BoardId, Game, RuleOptions};
use shvedka_engine::{Engine, Limits};
use shvedka_uci::{Go, UciEngine};

/// Board A of each position is searched; board B is only there to make a bughouse position.
const POSITIONS: [(&str, &str); 6] = [
    ("start", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1"),
    ("full-reserves", "r1bq1rk1/ppp2ppp/2np1n2/2b1p3/2B1P3/2NP1N2/PPP2PPP/R1BQ1RK1[QRBNPqrbnp] w - - 0 8"),
    ("open-kings", "r4rk1/pp3ppp/8/3q4/8/2P5/PP3PPP/R2Q1RK1[NNBPPnbppp] w - - 0 16"),
    ("attack", "r1b2rk1/pp3p1p/6p1/4q3/8/3B4/PPP2PPP/R2Q1RK1[QNPPbnpp] w - - 0 18"),
    ("pawns-in-hand", "r1bqk2r/pppp1ppp/2n2n2/2b1p3/2B1P3/2N2N2/PPPP1PPP/R1BQK2R[PPpp] w KQkq - 0 5"),
    ("defence", "r1b1k2r/ppp2ppp/2n5/3q4/3P4/5N2/PP3PPP/R1BQ1RK1[BNPrnpp] b kq - 0 10"),
];

/// One engine's figures on one position.
#[derive(Clone, Copy, Debug)]
struct Speed {
    nodes: u64,
    depth: u32,
    elapsed: Duration,
}

impl Speed {
    fn nps(&self) -> f64 {
        self.nodes as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }
}

/// Searches each position for `per_position` with shvedka's engine at `level` and with `engine`,
/// and prints a table: nodes per second and depth of each, and the ratio of the speeds.
pub(crate) async fn compare(
    engine: &mut UciEngine,
    level: u8,
    per_position: Duration,
    out: &mut dyn Write,
) -> anyhow::Result<()> {
    let rules = RuleOptions::classic().rules().map_err(|e| anyhow!("{e}"))?;
    writeln!(
        out,
        "\nsearch speed, {} ms a position, level {level} against the engine:",
        per_position.as_millis()
    )?;
    writeln!(out, "| position | shvedka nodes/s | depth | engine nodes/s | depth | engine ÷ shvedka |")?;
    writeln!(out, "|---|---|---|---|---|---|")?;
    let (mut ours_total, mut theirs_total) = (0.0, 0.0);
    for (name, a) in POSITIONS {
        let game = Game::from_bfen(
            &format!("{a} | rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1"),
            rules,
        )
        .map_err(|e| anyhow!("position {name}: {e}"))?;
        let ours = own(&game, level, per_position).with_context(|| format!("position {name}"))?;
        engine.new_game().await?;
        let started = Instant::now();
        let answer = engine
            .best_move(&game, BoardId::A, Go::MoveTime(per_position))
            .await?
            .with_context(|| format!("the engine has no move in {name}"))?;
        let theirs = Speed {
            nodes: answer.info.nodes.unwrap_or(0),
            depth: answer.info.depth.unwrap_or(0),
            elapsed: started.elapsed(),
        };
        ours_total += ours.nps();
        theirs_total += theirs.nps();
        writeln!(
            out,
            "| {name} | {:.0} | {} | {:.0} | {} | {:.1} |",
            ours.nps(),
            ours.depth,
            theirs.nps(),
            theirs.depth,
            theirs.nps() / ours.nps().max(1.0)
        )?;
    }
    writeln!(
        out,
        "| mean | {:.0} | | {:.0} | | {:.1} |",
        ours_total / POSITIONS.len() as f64,
        theirs_total / POSITIONS.len() as f64,
        theirs_total / ours_total.max(1.0)
    )?;
    Ok(())
}

/// shvedka's engine on board A for `time` (a fresh engine: no table from an earlier position).
fn own(game: &Game, level: u8, time: Duration) -> anyhow::Result<Speed> {
    let mut engine = Engine::new(level);
    let started = Instant::now();
    let choice = engine
        .choose(game, BoardId::A, Limits { time: Some(time), nodes: None, depth: None })
        .context("shvedka has no move")?;
    Ok(Speed { nodes: choice.nodes, depth: u32::from(choice.depth), elapsed: started.elapsed() })
}
