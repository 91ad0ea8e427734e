//! `shvedka demo`: a server on loopback, four bots, and the match shown live — full screen on a
//! terminal, plain lines otherwise — then the result, its reason and where the record was written.

use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::time::{Duration, Instant};

use anyhow::Context;
use clap::Args;
use shvedka_bot::{BotConfig, play_match};
use shvedka_client::{Client, MatchModel, SeenMove, Trust, Update, parse_fingerprint};
use shvedka_proto::{EventView, MatchEvent, MatchId, ResultView, SeatId, ServerMsg, TeamId};
use shvedka_server::{Server, ServerConfig};
use shvedka_tui::Mode;
use tokio::sync::oneshot;

use crate::Failure;

/// Arguments of `shvedka demo`.
#[derive(Debug, Args)]
pub(crate) struct DemoArgs {
    /// Time control: base minutes + increment seconds (`1+0`, `3+2`, `30s+0`).
    #[arg(long, default_value = "1+0")]
    time_control: String,
    /// Rule preset: mgimo-2017 or classic.
    #[arg(long, default_value = "mgimo-2017")]
    rules: String,
    /// Both boards start from the same Chess960 position, drawn for the match.
    #[arg(long)]
    chess960: bool,
    /// The bots' search level, 1 to 5.
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u8).range(1..=5))]
    level: u8,
    /// The least time a bot takes per move, in milliseconds (above it a human's time from its clock
    /// and the position); 0 plays as fast as the search.
    #[arg(long, default_value_t = 300)]
    pace_ms: u64,
    /// Plain lines even on a terminal.
    #[arg(long)]
    plain: bool,
    /// A TOML file overriding server settings (its data directory holds the record). Without
    /// it the demo keeps its certificate, database and records in its own per-user directory
    /// (`$XDG_DATA_HOME/shvedka/demo`, else `~/.local/share/shvedka/demo`), not in `./data`.
    #[arg(long)]
    config: Option<PathBuf>,
    #[command(flatten)]
    lang: crate::client_cmds::LangArg,
}

/// Where the demo keeps its state without `--config`: a per-user directory, so running it from
/// any directory leaves nothing there; the system's temporary directory if there is no home.
fn demo_data_dir() -> PathBuf {
    let base = std::env::var_os("XDG_DATA_HOME").filter(|v| !v.is_empty()).map(PathBuf::from).or_else(|| {
        std::env::var_os("HOME").filter(|v| !v.is_empty()).map(|h| PathBuf::from(h).join(".local/share"))
    });
    match base {
        Some(base) => base.join("shvedka").join("demo"),
        None => std::env::temp_dir().join("shvedka-demo"),
    }
}

pub(crate) fn run(args: &DemoArgs, out: &mut dyn Write) -> anyhow::Result<()> {
    let mut config = ServerConfig::load(args.config.as_deref())?;
    if args.config.is_none() {
        config.data_dir = demo_data_dir();
    }
    config.listen = "127.0.0.1:0".parse().expect("a valid address");
    // The demo needs no web side (and must not take its ports).
    config.http_listen = String::new();
    config.webtransport_listen = String::new();
    let records = config.data_dir.join("records");
    let full_screen = !args.plain && std::io::stdout().is_terminal();
    let runtime = tokio::runtime::Runtime::new().context("cannot start the async runtime")?;
    runtime.block_on(async {
        let server = Server::bind(config).await?;
        let addr = server.local_addr()?;
        let trust = Trust::Fingerprint(parse_fingerprint(server.fingerprint()).map_err(anyhow::Error::msg)?);
        let (stop, stopped) = oneshot::channel::<()>();
        let server_task = tokio::spawn(server.run(async {
            let _ = stopped.await;
        }));
        let host = Client::connect(addr, trust.clone(), "demo").await?;
        let id = host
            .create_match_with(&args.rules, &args.time_control, true, args.chess960)
            .await
            .map_err(|e| Failure { code: 2, message: format!("cannot create the match: {e}") })?;
        if !full_screen {
            writeln!(
                out,
                "demo: match {id}, {}{} {}, four bots at level {} on {addr}",
                args.rules,
                if args.chess960 { " chess960" } else { "" },
                args.time_control,
                args.level
            )?;
            out.flush()?;
        }
        let mut bots = Vec::new();
        for seat in SeatId::ALL {
            let mut client = Client::connect(addr, trust.clone(), &format!("bot-{seat}")).await?;
            let config =
                BotConfig { level: args.level, chat: true, pace: Duration::from_millis(args.pace_ms) };
            bots.push(tokio::spawn(async move { play_match(&mut client, id, seat, &config).await }));
        }
        // The language the full screen spoke last, for the lines after it (plain lines stay English).
        let mut spoke = None;
        let model = if full_screen {
            let spectator = Client::connect(addr, trust.clone(), "spectator").await?;
            // The terminal view follows the match to its end; the record comes from a quiet
            // follower of its own so the view stays free to leave early.
            let recorder = tokio::spawn(follow(host, id, None::<&mut std::io::Sink>));
            let (_, lang) =
                shvedka_tui::run(spectator, "spectator", Mode::Spectate(id), args.lang.settings())
                    .await
                    .context("terminal")?;
            spoke = Some(lang);
            recorder.await.context("the recorder stopped")??
        } else {
            follow(host, id, Some(out)).await?
        };
        for bot in bots {
            match tokio::time::timeout(Duration::from_secs(10), bot).await {
                Ok(Ok(Ok(_))) => {}
                Ok(Ok(Err(e))) => writeln!(out, "a bot stopped: {e}")?,
                Ok(Err(e)) => writeln!(out, "a bot failed: {e}")?,
                Err(_) => writeln!(out, "a bot did not finish")?,
            }
        }
        // The server writes the record of a decided match before it announces the end.
        let path = records.join(format!("match-{id}.bpgn"));
        let _ = stop.send(());
        let _ = server_task.await;
        let path = std::path::absolute(&path).unwrap_or(path);
        if let Some(lang) = spoke {
            for line in shvedka_tui::speak::demo_end(lang, model.result(), &path.display().to_string()) {
                writeln!(out, "{line}")?;
            }
            return Ok(());
        }
        match model.result() {
            Some(r) => writeln!(out, "result: {}", result_line(r))?,
            None => writeln!(out, "result: the match was annulled")?,
        }
        writeln!(out, "record: {}", path.display())?;
        Ok(())
    })
}

/// Follows match `id` to its end, printing each move as a line to `out` when given.
async fn follow<W: Write + ?Sized>(
    mut client: Client,
    id: MatchId,
    mut out: Option<&mut W>,
) -> anyhow::Result<MatchModel> {
    client.watch(id).await?;
    let mut model: Option<MatchModel> = None;
    // Bounded: no match of the demo's time controls lasts an hour.
    let deadline = tokio::time::Instant::now() + Duration::from_secs(3600);
    loop {
        let update = tokio::time::timeout_at(deadline, client.next_update())
            .await
            .map_err(|_| anyhow::anyhow!("the match did not end within an hour"))?;
        match update {
            Some(Update::Server(msg)) => {
                MatchModel::follow(&mut model, &msg, Instant::now(), Duration::ZERO)?;
                if let (ServerMsg::Event(e), Some(out)) = (&msg, out.as_deref_mut()) {
                    print_event(out, e, model.as_ref().and_then(|m| m.moves().last()))?;
                }
            }
            Some(Update::Disconnected(why)) => {
                tracing::info!("demo follower lost its connection ({why}); resuming");
                client.resume().await?;
            }
            None => anyhow::bail!("the connection ended"),
        }
        if let Some(m) = &model
            && matches!(m.phase(), shvedka_proto::PhaseView::Ended | shvedka_proto::PhaseView::Annulled)
        {
            client.close().await;
            return Ok(model.expect("checked"));
        }
    }
}

/// One plain line for a move (board, number, SAN, seat, clock) or a fallen flag.
fn print_event<W: Write + ?Sized>(
    out: &mut W,
    e: &MatchEvent,
    last: Option<&SeenMove>,
) -> std::io::Result<()> {
    let at = e.at_ms as f64 / 1000.0;
    match (&e.kind, last) {
        (EventView::Moved { seat, san, .. }, Some(m)) => {
            let dots = if seat.index() % 2 == 0 { "." } else { "..." };
            let number = format!("{}{dots}", m.number);
            let clock = shvedka_tui::view::format_clock(Duration::from_millis(m.clock_ms));
            writeln!(out, "{at:>8.1}s  board {}  {number:<5} {san:<9} {seat:<8} {clock:>5}", seat.board())?;
        }
        (EventView::FlagFell { seat }, _) => writeln!(out, "{at:>8.1}s  {seat}'s flag fell")?,
        _ => return Ok(()),
    }
    out.flush()
}

/// `team 1 wins: mate on board by white-A (E1) [team 1 = white-A + black-B]`.
pub(crate) fn result_line(r: &ResultView) -> String {
    let team = match r.winner {
        Some(TeamId::One) => " [team 1 = white-A + black-B]",
        Some(TeamId::Two) => " [team 2 = black-A + white-B]",
        None => "",
    };
    format!("{}{team}", r.reason)
}
