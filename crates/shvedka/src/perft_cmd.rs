//! `shvedka perft`: node counts of the legal move tree, optionally split by first move.

use std::io::Write;
use std::time::Instant;

use anyhow::Context as _;
use chess_core::Position;

/// Arguments of `shvedka perft`.
#[derive(Debug, clap::Args)]
pub(crate) struct PerftArgs {
    /// Start position as FEN (pockets in brackets enable drops); default: the initial position.
    #[arg(long)]
    fen: Option<String>,
    /// Depth in plies.
    #[arg(long)]
    depth: u32,
    /// Print the count below each first move (sorted by long notation) before the total.
    #[arg(long)]
    divide: bool,
}

pub(crate) fn run(args: &PerftArgs, out: &mut dyn Write) -> anyhow::Result<()> {
    let pos = match &args.fen {
        Some(fen) => Position::from_fen(fen).context("reading --fen")?,
        None => Position::new(),
    };
    let start = Instant::now();
    let nodes = if args.divide {
        let mut lines: Vec<(String, u64)> =
            chess_core::divide(&pos, args.depth).into_iter().map(|(m, n)| (pos.uci(&m), n)).collect();
        lines.sort();
        for (m, n) in &lines {
            writeln!(out, "{m}: {n}")?;
        }
        writeln!(out)?;
        lines.iter().map(|(_, n)| n).sum()
    } else {
        chess_core::perft(&pos, args.depth)
    };
    let secs = start.elapsed().as_secs_f64();
    eprintln!("perft {} in {secs:.3} s ({:.0} nodes/s)", args.depth, nodes as f64 / secs.max(1e-9));
    writeln!(out, "{nodes}")?;
    Ok(())
}
