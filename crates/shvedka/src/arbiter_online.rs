//! The arbiter's online tools: `shvedka arbiter list|pause|resume|adjust|take-back|set-position|
//! declare|annul|replay|export` against a running server, as an arbiter session: an account with the
//! arbiter role (`--account`), or the server's `arbiter_token` (`SHVEDKA_ARBITER_TOKEN` or
//! `--token-file`, never on the command line), the way to bootstrap. Every act is in the match
//! record (RULES.md A2, A4).

use std::io::Write;

use anyhow::Context;
use clap::Args;
use shvedka_client::Client;
use shvedka_proto::{ArbiterRequest, Board, MatchId, ReplayReason, SeatId, TeamId};
use shvedka_tui::{Lang, speak};

use crate::Failure;
use crate::client_cmds::ConnectArgs;
use crate::login_args::LoginArgs;
use crate::secret_args::SecretArgs;

/// A server and the arbiters' secret.
#[derive(Debug, Args)]
pub(crate) struct Online {
    #[command(flatten)]
    pub(crate) connect: ConnectArgs,
    #[command(flatten)]
    login: LoginArgs,
    #[command(flatten)]
    secret: SecretArgs,
}

/// Where the arbiters' secret may come from.
const ARBITER_TOKEN_ENV: &str = "SHVEDKA_ARBITER_TOKEN";

/// A match on a server.
#[derive(Debug, Args)]
pub(crate) struct OnMatch {
    #[command(flatten)]
    online: Online,
    /// The match id.
    #[arg(value_name = "MATCH")]
    match_id: u64,
}

/// Arguments of `shvedka arbiter adjust`.
#[derive(Debug, Args)]
pub(crate) struct AdjustArgs {
    #[command(flatten)]
    on: OnMatch,
    /// Whose clock: white-A, black-A, white-B or black-B.
    seat: String,
    /// Seconds to add (`+60`, `30.5`) or remove (`-15`).
    #[arg(allow_hyphen_values = true)]
    seconds: String,
}

/// Arguments of `shvedka arbiter take-back`.
#[derive(Debug, Args)]
pub(crate) struct TakeBackArgs {
    #[command(flatten)]
    on: OnMatch,
    /// The board: a or b.
    board: String,
}

/// Arguments of `shvedka arbiter set-position`.
#[derive(Debug, Args)]
pub(crate) struct SetPositionArgs {
    #[command(flatten)]
    on: OnMatch,
    /// The corrected position as BFEN (every colour keeps its units, C2).
    bfen: String,
}

/// Arguments of `shvedka arbiter declare`.
#[derive(Debug, Args)]
pub(crate) struct DeclareArgs {
    #[command(flatten)]
    on: OnMatch,
    /// team1 (white-A + black-B), team2 (black-A + white-B) or draw.
    result: String,
    /// Why, in words.
    #[arg(required = true, num_args = 1..)]
    reason: Vec<String>,
}

/// Arguments of `shvedka arbiter annul`.
#[derive(Debug, Args)]
pub(crate) struct AnnulArgs {
    #[command(flatten)]
    on: OnMatch,
    /// Why, in words.
    #[arg(required = true, num_args = 1..)]
    reason: Vec<String>,
}

/// Arguments of `shvedka arbiter replay`.
#[derive(Debug, Args)]
pub(crate) struct ReplayArgs {
    #[command(flatten)]
    on: OnMatch,
    /// Why: setup (a wrong initial setup, A5), hint (a hint from outside, A6) or other (A2).
    reason: String,
    /// The arbiter's words, if any.
    note: Vec<String>,
}

/// Arguments of `shvedka arbiter export`.
#[derive(Debug, Args)]
pub(crate) struct ExportArgs {
    #[command(flatten)]
    on: OnMatch,
    /// One board as ordinary PGN (a or b) instead of the BPGN of both.
    #[arg(long)]
    pgn: Option<String>,
}

fn bad(message: String) -> anyhow::Error {
    Failure { code: 2, message }.into()
}

fn board(text: &str) -> anyhow::Result<Board> {
    match text.to_ascii_lowercase().as_str() {
        "a" => Ok(Board::A),
        "b" => Ok(Board::B),
        _ => Err(bad(format!("board {text:?}: expected a or b"))),
    }
}

/// Opens an arbiter session and runs `f` with it; a refused secret is said in `lang`, from its
/// code.
fn with_arbiter<T>(
    online: &Online,
    lang: Lang,
    f: impl AsyncFnOnce(&Client) -> anyhow::Result<T>,
) -> anyhow::Result<T> {
    let token = online.secret.secret(ARBITER_TOKEN_ENV, online.login.has_account())?;
    let runtime = tokio::runtime::Runtime::new().context("cannot start the async runtime")?;
    runtime.block_on(async {
        let client = online.connect.connect_login(&online.login, "", false).await?;
        if let Some(token) = &token {
            client
                .arbiter(token)
                .await
                .map_err(|e| Failure { code: 1, message: speak::client_error(lang, &e) })?;
        }
        let result = f(&client).await;
        client.close().await;
        result
    })
}

/// Where the arbiter's commands write, and in which language (`--lang`, else the locale).
pub(crate) struct Said<'a> {
    pub(crate) out: &'a mut dyn Write,
    pub(crate) lang: Lang,
}

impl Write for Said<'_> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.out.write(buf)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.out.flush()
    }
}

/// One act on one match; prints what was done, in the reader's language. A refusal is said in
/// it too, from its code (exit 1).
fn act(on: &OnMatch, req: ArbiterRequest, out: &mut Said) -> anyhow::Result<()> {
    let id = MatchId(on.match_id);
    let lang = out.lang;
    let done = speak::arbiter_done(lang, &req, id);
    with_arbiter(&on.online, lang, async |c: &Client| {
        c.arbiter_act(id, req)
            .await
            .map_err(|e| Failure { code: 1, message: speak::client_error(lang, &e) })?;
        Ok(())
    })?;
    writeln!(out, "{done}")?;
    Ok(())
}

pub(crate) fn list(online: &Online, out: &mut Said) -> anyhow::Result<()> {
    let lang = out.lang;
    let matches = with_arbiter(online, lang, async |c: &Client| {
        c.list_live().await.map_err(|e| Failure { code: 1, message: speak::client_error(lang, &e) }.into())
    })?;
    if matches.is_empty() {
        writeln!(out, "no live matches")?;
    }
    for m in matches {
        let seats: Vec<String> = SeatId::ALL
            .iter()
            .map(|s| format!("{s}={}", m.seats[s.index()].as_deref().unwrap_or("-")))
            .collect();
        let phase = speak::phase(out.lang, m.phase);
        writeln!(out, "{} {} {} {phase} {}", m.match_id, m.rules, m.time_control, seats.join(" "))?;
    }
    Ok(())
}

pub(crate) fn pause(on: &OnMatch, out: &mut Said) -> anyhow::Result<()> {
    act(on, ArbiterRequest::Pause, out)
}

pub(crate) fn resume(on: &OnMatch, out: &mut Said) -> anyhow::Result<()> {
    act(on, ArbiterRequest::Resume, out)
}

pub(crate) fn adjust(args: &AdjustArgs, out: &mut Said) -> anyhow::Result<()> {
    let seat = speak::parse_seat(&args.seat).ok_or_else(|| bad(speak::bad_seat(out.lang, &args.seat)))?;
    let seconds: f64 = args
        .seconds
        .trim_start_matches('+')
        .parse()
        .ok()
        .filter(|s: &f64| s.is_finite() && s.abs() <= 86_400.0)
        .ok_or_else(|| bad(format!("{:?}: expected seconds such as +60 or -15", args.seconds)))?;
    let delta_ms = (seconds * 1000.0).round() as i64;
    act(&args.on, ArbiterRequest::AdjustClock { seat, delta_ms }, out)
}

pub(crate) fn take_back(args: &TakeBackArgs, out: &mut Said) -> anyhow::Result<()> {
    act(&args.on, ArbiterRequest::TakeBack { board: board(&args.board)? }, out)
}

pub(crate) fn set_position(args: &SetPositionArgs, out: &mut Said) -> anyhow::Result<()> {
    act(&args.on, ArbiterRequest::SetPosition { bfen: args.bfen.clone() }, out)
}

pub(crate) fn declare(args: &DeclareArgs, out: &mut Said) -> anyhow::Result<()> {
    let winner = match args.result.as_str() {
        "team1" | "1" => Some(TeamId::One),
        "team2" | "2" => Some(TeamId::Two),
        "draw" => None,
        other => return Err(bad(format!("result {other:?}: expected team1, team2 or draw"))),
    };
    act(&args.on, ArbiterRequest::DeclareResult { winner, reason: args.reason.join(" ") }, out)
}

pub(crate) fn annul(args: &AnnulArgs, out: &mut Said) -> anyhow::Result<()> {
    act(&args.on, ArbiterRequest::Annul { reason: args.reason.join(" ") }, out)
}

pub(crate) fn replay(args: &ReplayArgs, out: &mut Said) -> anyhow::Result<()> {
    let reason = match args.reason.to_ascii_lowercase().as_str() {
        "setup" => ReplayReason::WrongSetup,
        "hint" => ReplayReason::OutsideHint,
        "other" => ReplayReason::Other,
        other => return Err(bad(format!("reason {other:?}: expected setup, hint or other"))),
    };
    act(&args.on, ArbiterRequest::Replay { reason, note: args.note.join(" ") }, out)
}

/// The record of a match on a server, as BPGN text.
pub(crate) fn fetch_record(online: &Online, id: u64) -> anyhow::Result<String> {
    let lang = Lang::from_env();
    with_arbiter(online, lang, async |c: &Client| {
        c.record(MatchId(id))
            .await
            .map_err(|e| Failure { code: 1, message: speak::client_error(lang, &e) }.into())
    })
}

/// The record of a match on a server, fetched by an ordinary session (records are public, as
/// the matches are to spectators).
pub(crate) fn fetch_public_record(connect: &ConnectArgs, id: u64) -> anyhow::Result<String> {
    let runtime = tokio::runtime::Runtime::new().context("cannot start the async runtime")?;
    runtime.block_on(async {
        let client = connect.connect("").await?;
        let text = client.record(MatchId(id)).await.map_err(|e| Failure { code: 1, message: e.to_string() });
        client.close().await;
        Ok(text?)
    })
}

pub(crate) fn export(args: &ExportArgs, out: &mut dyn Write) -> anyhow::Result<()> {
    let text = fetch_record(&args.on.online, args.on.match_id)?;
    match &args.pgn {
        None => write!(out, "{text}")?,
        Some(b) => {
            let b = match board(b)? {
                Board::A => bughouse::BoardId::A,
                Board::B => bughouse::BoardId::B,
            };
            let records =
                shvedka_records::parse_bpgn(&text).map_err(|e| bad(format!("the server's record: {e}")))?;
            for r in records {
                write!(out, "{}", r.to_pgn(b))?;
            }
        }
    }
    Ok(())
}
