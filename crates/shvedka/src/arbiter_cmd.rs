//! `shvedka arbiter`: the arbiter's tools. The offline ones work on a BPGN record entered from an
//! over-the-board game (RULES.md A1, A4): `check-record` finds every impossible move of each
//! game, `show` reviews a game at an instant (after a move, or at a match time placed by the
//! clock comments).
//!
//! Exit status, as the other subcommands: 0 when all is well, 1 when `check-record` found an
//! impossible move (the finding itself goes to stdout, so scripts can read it), 2 for input that
//! cannot be read (a missing file, text that is not UTF-8 or not BPGN, a bad preset, a move number
//! or time outside the record).

use std::io::Write;
use std::path::{Path, PathBuf};

use bughouse::{RuleOptions, Rules};
use shvedka_records::{Record, check_record, parse_bpgn};

use crate::Failure;

#[path = "arbiter_analysis.rs"]
mod analysis;
#[path = "arbiter_online.rs"]
mod online;
#[path = "arbiter_show.rs"]
mod show;

pub(crate) fn bad_input(message: impl std::fmt::Display) -> anyhow::Error {
    Failure { code: 2, message: message.to_string() }.into()
}

/// Arguments of `shvedka arbiter`.
#[derive(Debug, clap::Args)]
pub(crate) struct ArbiterArgs {
    #[command(subcommand)]
    command: ArbiterCommand,
    /// The language of what the acts print: ru or en. Without it: the one chosen with /lang in
    /// the terminal client, else the locale (LC_ALL, LC_MESSAGES, LANG).
    #[arg(long, global = true, value_name = "ru|en", value_parser = parse_lang)]
    lang: Option<shvedka_tui::Lang>,
}

fn parse_lang(text: &str) -> Result<shvedka_tui::Lang, String> {
    shvedka_tui::Lang::from_code(text).ok_or_else(|| format!("{text:?}: expected ru or en"))
}

/// The arbiter's subcommands.
#[derive(Debug, clap::Subcommand)]
pub(crate) enum ArbiterCommand {
    /// Check a record for impossible moves (RULES.md A1), each on the boards as the arbiter's
    /// acts before it left them: prints `no impossible move` (exit 0) or every one, its type,
    /// rule and consequence (exit 1); exit 2 when a game cannot be checked to its end.
    CheckRecord(CheckRecordArgs),
    /// Review a record at an instant (by default its end): both boards, reserves, clocks, turns,
    /// mate on board, the acts so far, BFEN.
    Show(show::ShowArgs),
    /// The same instant with the engine's analysis of both boards: evaluation, best move, the
    /// line after it, the piece the side to move wants from its partner, time trouble.
    Analyse(show::AnalyseArgs),
    /// Why a decided match ended as it did (RULES.md E1–E10, K3, K4): the endings at their match
    /// times, what a flag's grace window held, how E1–E9 weighed it, every rule that decided it.
    Explain(show::Source),
    /// List the server's live matches, listed or not.
    List(online::Online),
    /// Stop all four clocks of a match (K5).
    Pause(online::OnMatch),
    /// Restart the clocks of a match.
    Resume(online::OnMatch),
    /// Add or remove time on one clock: `adjust MATCH black-B +60`.
    Adjust(online::AdjustArgs),
    /// Take back the last move on a board, with its reserve transfers: `take-back MATCH a`.
    TakeBack(online::TakeBackArgs),
    /// Set a corrected position (BFEN).
    SetPosition(online::SetPositionArgs),
    /// Declare the result with a reason: `declare MATCH team2 impossible move 14a. Q@g8`.
    Declare(online::DeclareArgs),
    /// Annul a match so that its players may play a new one, with a reason.
    Annul(online::AnnulArgs),
    /// Annul the game in play and start the same match again at once (A2, A5, A6): `replay MATCH
    /// setup|hint|other [WORDS]`.
    Replay(online::ReplayArgs),
    /// Print a match's record: BPGN, or one board as PGN (`--pgn a`).
    Export(online::ExportArgs),
}

/// Arguments of `shvedka arbiter check-record`.
#[derive(Debug, clap::Args)]
pub(crate) struct CheckRecordArgs {
    /// The BPGN file. Every game in it is checked, one line each.
    file: PathBuf,
    /// The rules preset (mgimo-2017 or classic); by default each game's `Rules` tag, or
    /// mgimo-2017 when it has none.
    #[arg(long)]
    rules: Option<String>,
}

pub(crate) fn run(args: &ArbiterArgs, out: &mut dyn Write) -> anyhow::Result<()> {
    let lang = shvedka_tui::Settings::resolve(args.lang).lang;
    let out = &mut online::Said { out, lang };
    match &args.command {
        ArbiterCommand::CheckRecord(args) => check(args, lang, out),
        ArbiterCommand::Show(args) => show::run(args, lang, out),
        ArbiterCommand::Analyse(args) => show::analyse(args, lang, out),
        ArbiterCommand::Explain(args) => show::explain(args, lang, out),
        ArbiterCommand::List(args) => online::list(args, out),
        ArbiterCommand::Pause(args) => online::pause(args, out),
        ArbiterCommand::Resume(args) => online::resume(args, out),
        ArbiterCommand::Adjust(args) => online::adjust(args, out),
        ArbiterCommand::TakeBack(args) => online::take_back(args, out),
        ArbiterCommand::SetPosition(args) => online::set_position(args, out),
        ArbiterCommand::Declare(args) => online::declare(args, out),
        ArbiterCommand::Annul(args) => online::annul(args, out),
        ArbiterCommand::Replay(args) => online::replay(args, out),
        ArbiterCommand::Export(args) => online::export(args, out),
    }
}

/// Reads every game of a BPGN file; exit 2 with the file named for anything unreadable (and the
/// line and column of a parse error).
pub(crate) fn read_records(path: &Path) -> anyhow::Result<Vec<Record>> {
    let name = path.display();
    let bytes = std::fs::read(path).map_err(|e| bad_input(format!("{name}: cannot read: {e}")))?;
    let text = String::from_utf8(bytes).map_err(|e| {
        bad_input(format!("{name}: not UTF-8 text (invalid byte at offset {})", e.utf8_error().valid_up_to()))
    })?;
    let records = parse_bpgn(&text).map_err(|e| bad_input(format!("{name}: not BPGN: {e}")))?;
    if records.is_empty() {
        return Err(bad_input(format!("{name}: no game in the file")));
    }
    Ok(records)
}

/// The rules for a record: the `--rules` preset, else its `Rules` tag (mgimo-2017 without one).
pub(crate) fn record_rules(record: &Record, preset: Option<&str>) -> anyhow::Result<Rules> {
    match preset {
        Some(name) => RuleOptions::preset(name).and_then(|o| o.rules()).map_err(bad_input),
        None => record.rules().map_err(|e| bad_input(format!("Rules tag: {e}"))),
    }
}

/// `check-record`: one line per impossible move, or `no impossible move` (prefixed `game K: `
/// when the file has several games), then the exit status of the worst finding: 1 for an impossible move, 2 for a game that cannot be
/// checked to the end (a bad start position, a move that does not read as one move).
fn check(args: &CheckRecordArgs, lang: shvedka_tui::Lang, out: &mut dyn Write) -> anyhow::Result<()> {
    let records = read_records(&args.file)?;
    let several = records.len() > 1;
    let mut worst = 0u8;
    for (i, record) in records.iter().enumerate() {
        let prefix = if several { format!("game {}: ", i + 1) } else { String::new() };
        let rules = record_rules(record, args.rules.as_deref()).map_err(|e| {
            if several { bad_input(format!("{}: game {}: {e}", args.file.display(), i + 1)) } else { e }
        })?;
        let report = check_record(record, rules);
        for line in shvedka_tui::check_words::report(lang, record, &report) {
            writeln!(out, "{prefix}{line}")?;
        }
        worst = worst.max(if report.unreadable.is_some() {
            2
        } else if report.impossible.is_empty() {
            0
        } else {
            1
        });
    }
    match worst {
        0 => Ok(()),
        1 => Err(Failure { code: 1, message: shvedka_tui::check_words::found(lang) }.into()),
        _ => Err(bad_input(format!("{}: the record cannot be checked to the end", args.file.display()))),
    }
}
