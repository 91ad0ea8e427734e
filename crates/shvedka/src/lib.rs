//! The `shvedka` command line, as a library so tests can run it in-process: one subcommand per
//! job, each thin over the rules and server crates.

use std::ffi::OsString;
use std::io::Write;

use clap::{Parser, Subcommand};

mod perft_cmd;

/// Swedish chess (bughouse): server, clients and arbiter tools.
#[derive(Debug, Parser)]
#[command(name = "shvedka", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Count the leaf nodes of the legal move tree (move generator check).
    Perft(perft_cmd::PerftArgs),
}

/// Runs the command line `args` (the first item is the program name), writing to `out`.
///
/// # Errors
/// Bad arguments or input (with clap's usage message or the parser's error), or a failed write.
pub fn run<I, T>(args: I, out: &mut dyn Write) -> anyhow::Result<()>
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    let cli = match Cli::try_parse_from(args) {
        Ok(cli) => cli,
        Err(e)
            if matches!(
                e.kind(),
                clap::error::ErrorKind::DisplayHelp | clap::error::ErrorKind::DisplayVersion
            ) =>
        {
            write!(out, "{e}")?;
            return Ok(());
        }
        Err(e) => return Err(anyhow::anyhow!("{e}")),
    };
    match cli.command {
        Command::Perft(args) => perft_cmd::run(&args, out),
    }
}
