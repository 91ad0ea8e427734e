//! The `shvedka` command line, as a library so tests can run it in-process: one subcommand per
//! job, each thin over the rules and server crates.

use std::ffi::OsString;
use std::io::Write;

use clap::{Parser, Subcommand};

mod admin_cmd;
mod arbiter_cmd;
mod attack;
mod board_cmds;
mod cert_cmd;
mod client_cmds;
mod demo_cmd;
mod elo;
mod load_cmd;
mod load_crowd;
mod load_end;
mod load_figures;
mod load_server;
mod load_verdict;
mod login_args;
mod perft_cmd;
mod secret_args;
mod serve_cmd;
mod strength_cmd;
mod strength_match;
mod strength_speed;
mod td_cmd;

/// Swedish chess (bughouse): server, clients and arbiter tools.
#[derive(Debug, Parser)]
#[command(name = "shvedka", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Run the match server (QUIC) on embedded defaults, or with --config FILE.
    Serve(serve_cmd::ServeArgs),
    /// Watch four bots play a match on an in-process server, then print the result and the record.
    Demo(demo_cmd::DemoArgs),
    /// Play in the terminal: lobby, both boards, clocks, chat.
    Play(client_cmds::PlayArgs),
    /// A bot that takes a seat (or creates a match and waits) and plays it to the end.
    Bot(client_cmds::BotArgs),
    /// Size a server: random legal moves in N matches of four connections, with latency and a
    /// verdict; on a server of its own unless --server … --running-server.
    Load(load_cmd::LoadArgs),
    /// One attack of the suite of issue 32, from one loopback address, bounded in time, with an
    /// honest probe beside it (tools/attack.py runs the suite).
    Attack(attack::AttackArgs),
    /// The tournament director's tools: create, register, start, pair, results, standings.
    Td(td_cmd::TdArgs),
    /// Count the leaf nodes of the legal move tree (move generator check).
    Perft(perft_cmd::PerftArgs),
    /// Measure shvedka's engine against Fairy-Stockfish: team matches of the classic preset at an
    /// equal time per move, a table of scores and Elo differences (docs/benchmarks.md).
    BenchStrength(strength_cmd::StrengthArgs),
    /// List the legal moves on one board of a bughouse position, in long notation.
    Moves(board_cmds::MovesArgs),
    /// Print the state of both boards of a bughouse position as JSON.
    Status(board_cmds::StatusArgs),
    /// Play moves on a bughouse position and print the resulting BFEN.
    Apply(board_cmds::ApplyArgs),
    /// Arbiter tools: check an over-the-board record (A1), show a record at an instant (A4).
    Arbiter(arbiter_cmd::ArbiterArgs),
    /// Accounts and roles on the server's database: list, grant, revoke, disable, enable,
    /// reset-password.
    Admin(admin_cmd::AdminArgs),
    /// Make the certificate and key every node of a cluster serves (self-signed, P-256).
    Cert(cert_cmd::CertArgs),
}

/// A failure with the exit status the command should end with: 1 for a refused move, 2 for bad
/// input (arguments, BFEN, preset, move text).
#[derive(Debug)]
pub struct Failure {
    /// The exit status.
    pub code: u8,
    /// The one-line message.
    pub message: String,
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Failure {}

/// The exit status for an error returned by [`run`].
pub fn exit_code(error: &anyhow::Error) -> u8 {
    if let Some(f) = error.downcast_ref::<Failure>() {
        return f.code;
    }
    // The server's refusal (a wrong password, a name taken) is 1, as a refused move.
    match error.downcast_ref::<shvedka_client::ClientError>() {
        Some(shvedka_client::ClientError::Server(_) | shvedka_client::ClientError::Refused(_)) => 1,
        _ => 2,
    }
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
        Err(e) => {
            // One line, as every other bad-input error: clap's first line says what is wrong.
            let text = e.to_string();
            let first = text.lines().next().unwrap_or("invalid arguments");
            let message = first.strip_prefix("error: ").unwrap_or(first).to_owned();
            return Err(Failure { code: 2, message: format!("{message} (see shvedka --help)") }.into());
        }
    };
    match cli.command {
        Command::Serve(args) => serve_cmd::run(&args, out),
        Command::Demo(args) => demo_cmd::run(&args, out),
        Command::Play(args) => client_cmds::play(&args, out),
        Command::Bot(args) => client_cmds::bot(&args, out),
        Command::Load(args) => load_cmd::run(&args, out),
        Command::Attack(args) => attack::run(&args, out),
        Command::Td(args) => td_cmd::run(&args, out),
        Command::Perft(args) => perft_cmd::run(&args, out),
        Command::BenchStrength(args) => strength_cmd::run(&args, out),
        Command::Moves(args) => board_cmds::moves(&args, out),
        Command::Status(args) => board_cmds::status(&args, out),
        Command::Apply(args) => board_cmds::apply(&args, out),
        Command::Arbiter(args) => arbiter_cmd::run(&args, out),
        Command::Admin(args) => admin_cmd::run(&args, out),
        Command::Cert(args) => cert_cmd::run(&args, out),
    }
}
