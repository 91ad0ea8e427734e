//! `shvedka play` (the terminal client) and `shvedka bot` (a bot in one seat, a tournament's
//! games, or answering seeks with `--seek`; with `--uci` its moves come from a bughouse UCI
//! engine such as Fairy-Stockfish, in one match of the `classic` preset).

use std::io::Write;
use std::net::{SocketAddr, ToSocketAddrs};
use std::time::Duration;

use anyhow::Context;
use clap::Args;
use shvedka_bot::{BotConfig, BotError, Chooser, SeekConfig, answer_seeks, play_match_with, play_tournament};
use shvedka_client::{Client, Trust, parse_fingerprint};
use shvedka_proto::{MatchId, SeatId};
use shvedka_tui::{Lang, Mode, Settings};

use crate::Failure;
use crate::login_args::LoginArgs;

/// Where the server is and how its certificate is checked.
#[derive(Debug, Args)]
pub(crate) struct ConnectArgs {
    /// The server, as HOST:PORT; or the nodes of a cluster, as HOST:PORT,HOST:PORT,…: the client
    /// connects to the first that answers and, when its connection is lost, resumes on the next.
    #[arg(long, value_name = "HOST:PORT[,HOST:PORT…]")]
    pub(crate) server: String,
    /// The server certificate's SHA-256, as `shvedka serve` prints it (the nodes of a cluster
    /// share one); without it the certificate must be valid for the (first) HOST in the web PKI.
    #[arg(long)]
    fingerprint: Option<String>,
}

impl ConnectArgs {
    pub(crate) fn new(server: String, fingerprint: Option<String>) -> ConnectArgs {
        ConnectArgs { server, fingerprint }
    }

    /// The server (or servers) as given.
    pub(crate) fn server(&self) -> &str {
        &self.server
    }

    /// The first server address (the one a load generator targets), and how to trust it.
    pub(crate) fn target(&self) -> anyhow::Result<(SocketAddr, Trust)> {
        let (addrs, trust) = self.targets()?;
        Ok((addrs[0], trust))
    }

    /// The server addresses, in the order given (at least one), and how to trust them.
    pub(crate) fn targets(&self) -> anyhow::Result<(Vec<SocketAddr>, Trust)> {
        let bad = |m: String| Failure { code: 2, message: m };
        let mut first_host = None;
        let mut addrs = Vec::new();
        for server in self.server.split(',').map(str::trim) {
            let (host, _) = server
                .rsplit_once(':')
                .filter(|(host, _)| !host.is_empty())
                .ok_or_else(|| bad(format!("--server {server:?}: expected HOST:PORT")))?;
            first_host.get_or_insert(host);
            let addr = server
                .to_socket_addrs()
                .map_err(|e| bad(format!("--server {server:?}: {e}")))?
                .next()
                .ok_or_else(|| bad(format!("--server {server:?}: no address")))?;
            addrs.push(addr);
        }
        let host = first_host.unwrap_or_default();
        let trust = match &self.fingerprint {
            Some(text) => {
                Trust::Fingerprint(parse_fingerprint(text).map_err(|e| bad(format!("--fingerprint: {e}")))?)
            }
            None => Trust::WebPki { server_name: host.trim_matches(['[', ']']).to_owned() },
        };
        Ok((addrs, trust))
    }

    pub(crate) async fn connect(&self, name: &str) -> anyhow::Result<Client> {
        let (addrs, trust) = self.targets()?;
        Client::connect_any(&addrs, trust, name)
            .await
            .with_context(|| format!("cannot open a session with {}{}", self.server, self.hint()))
    }

    /// What to do about a certificate the client cannot verify.
    fn hint(&self) -> &'static str {
        if self.fingerprint.is_none() {
            " (without --fingerprint the server's certificate must be valid for its name in the web PKI; \
             a server with its own certificate prints its fingerprint at start, on the line \
             `certificate sha256 …`: pass it as --fingerprint)"
        } else {
            ""
        }
    }

    /// Connects logged in as `login` says, else as the guest `guest`.
    pub(crate) async fn connect_login(
        &self,
        login: &LoginArgs,
        guest: &str,
        bot: bool,
    ) -> anyhow::Result<Client> {
        let (addrs, trust) = self.targets()?;
        login
            .connect(&addrs, trust, guest, bot, &|name| format!("password of {name}: "))
            .await
            .with_context(|| format!("cannot open a session with {}{}", self.server, self.hint()))
    }

    /// The session of `token`, kept from an earlier run, resumed on the first server that
    /// answers; `None` when none knows it any more (or none answers: logging in says why).
    async fn resume_kept(&self, token: &str) -> Option<Client> {
        let (addrs, trust) = self.targets().ok()?;
        Client::resume_token(&addrs, trust, token).await.ok().flatten()
    }

    /// As [`ConnectArgs::connect_login`], asking and failing in `lang` (`shvedka play`, whose
    /// reader may not read English): a refusal is said from its code, never in the server's words.
    async fn connect_login_in(
        &self,
        login: &LoginArgs,
        guest: &str,
        lang: shvedka_tui::Lang,
    ) -> anyhow::Result<Client> {
        let (addrs, trust) = self.targets()?;
        let question = |name: &str| shvedka_tui::speak::password_prompt(lang, name);
        match login.connect(&addrs, trust, guest, false, &question).await {
            Ok(client) => Ok(client),
            Err(e) => {
                let Some(failed) = e.downcast_ref::<shvedka_client::ClientError>() else { return Err(e) };
                let fingerprint = self.fingerprint.is_some();
                let message = shvedka_tui::speak::session_failed(lang, &self.server, failed, fingerprint);
                Err(crate::Failure { code: crate::exit_code(&e), message }.into())
            }
        }
    }
}

/// Arguments of `shvedka play`.
#[derive(Debug, Args)]
pub(crate) struct PlayArgs {
    #[command(flatten)]
    connect: ConnectArgs,
    #[command(flatten)]
    login: LoginArgs,
    /// Your name as a guest (at most 32 characters, not a registered name).
    #[arg(long, required_unless_present = "account", conflicts_with = "account")]
    name: Option<String>,
    #[command(flatten)]
    lang: LangArg,
}

/// The interface's language.
#[derive(Debug, Args)]
pub(crate) struct LangArg {
    /// The interface's language: ru or en. Without it: the one chosen with /lang in the client
    /// (remembered in $XDG_CONFIG_HOME/shvedka/language), else the locale (LC_ALL, LC_MESSAGES,
    /// LANG: ru_RU.UTF-8 is Russian, anything else English).
    #[arg(long, value_name = "ru|en", value_parser = parse_lang)]
    lang: Option<Lang>,
}

impl LangArg {
    /// The client's settings: this flag, else the remembered choice, else the locale.
    pub(crate) fn settings(&self) -> Settings {
        Settings::resolve(self.lang)
    }
}

fn parse_lang(text: &str) -> Result<Lang, String> {
    Lang::from_code(text).ok_or_else(|| format!("{text:?}: expected ru or en"))
}

pub(crate) fn play(args: &PlayArgs, out: &mut dyn Write) -> anyhow::Result<()> {
    let runtime = tokio::runtime::Runtime::new().context("cannot start the async runtime")?;
    runtime.block_on(async {
        let guest = args.name.clone().unwrap_or_default();
        let settings = args.lang.settings();
        // An account's session is kept between runs, as a browser keeps its tab's: a player
        // whose terminal closed mid-match comes back to his seat, not as a new player.
        let kept = match (&args.login.account, &settings.store) {
            (Some(account), Some(store)) if !args.login.registers() => {
                Some((account, shvedka_tui::prefs::session_path(store, &args.connect.server, account)))
            }
            _ => None,
        };
        let token = kept.as_ref().and_then(|(account, path)| shvedka_tui::prefs::read_session(path, account));
        let resumed = match &token {
            Some(token) => args.connect.resume_kept(token).await,
            None => None,
        };
        let client = match resumed {
            Some(client) => client,
            None => args.connect.connect_login_in(&args.login, &guest, settings.lang).await?,
        };
        if let Some((account, path)) = &kept {
            // Not kept: the next run asks for the password again, nothing worse.
            let _ = shvedka_tui::prefs::write_session(path, account, client.token());
        }
        let name = args.login.account.clone().unwrap_or(guest);
        let (result, lang) =
            shvedka_tui::run(client, &name, Mode::Play, settings).await.context("terminal")?;
        if let Some(r) = result {
            writeln!(out, "{}", shvedka_tui::speak::last_match(lang, &r))?;
        }
        Ok(())
    })
}

/// Arguments of `shvedka bot`.
#[derive(Debug, Args)]
pub(crate) struct BotArgs {
    #[command(flatten)]
    connect: ConnectArgs,
    #[command(flatten)]
    login: LoginArgs,
    /// The match to join; without it the bot creates one and waits for three more players.
    #[arg(long = "match")]
    match_id: Option<u64>,
    /// The seat: white-A, black-A, white-B or black-B (the first free one if not given).
    #[arg(long)]
    seat: Option<String>,
    /// Search level, 1 (fast, weak) to 5 (slow, strong).
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u8).range(1..=5))]
    level: u8,
    /// The bot's name as a guest (with --account, the account's).
    #[arg(long, conflicts_with = "account")]
    name: Option<String>,
    /// Rule preset of a match the bot creates: mgimo-2017 (the default), or classic (the default
    /// with --uci, and the only preset it plays).
    #[arg(long)]
    rules: Option<String>,
    /// Time control of a match the bot creates.
    #[arg(long, default_value = "3+0")]
    time_control: String,
    /// Do not ask the partner for pieces.
    #[arg(long)]
    no_chat: bool,
    /// The least time a move takes, in milliseconds; above it the bot takes a human's time from
    /// its clock and the position. 0 plays as fast as the search.
    #[arg(long, default_value_t = shvedka_bot::DEFAULT_PACE.as_millis() as u64)]
    pace_ms: u64,
    /// Play every game of this tournament assigned to the bot's --account, until it is over.
    #[arg(long, conflicts_with_all = ["match_id", "seat"], requires = "account")]
    tournament: Option<u64>,
    /// Answer seeks: join a pool where a person has waited --patience-s, on his terms (casual
    /// unless --rated), and play the match the server forms; match after match, so a lone
    /// player on a quiet server always gets a game.
    #[arg(long, conflicts_with_all = ["match_id", "seat", "tournament"])]
    seek: bool,
    /// With --seek: how many bots, each its own session (one with --account).
    #[arg(long, default_value_t = 3, requires = "seek", value_parser = clap::value_parser!(u8).range(1..=16))]
    bots: u8,
    /// With --seek: how long a person must have waited before the bots join him, seconds.
    #[arg(long, default_value_t = 10, requires = "seek")]
    patience_s: u64,
    /// With --seek: answer rated seeks too (the server must allow rated bots).
    #[arg(long, requires = "seek")]
    rated: bool,
    /// With --seek: stop after each bot has played this many matches.
    #[arg(long, requires = "seek")]
    games: Option<usize>,
    /// Choose the moves with this UCI engine, which must know bughouse (Fairy-Stockfish:
    /// /usr/games/fairy-stockfish), run as a separate process. One match of the classic preset
    /// only; a move the engine cannot give is played by the own search at --level.
    #[arg(long, value_name = "PATH", conflicts_with_all = ["tournament", "seek"])]
    uci: Option<std::path::PathBuf>,
    /// With --uci: the engine's time per move in milliseconds (at most a tenth of the clock);
    /// without it the engine is given both clocks and shares them out itself.
    #[arg(long, requires = "uci", value_parser = clap::value_parser!(u64).range(1..=60_000))]
    uci_movetime_ms: Option<u64>,
    /// With --uci: the engine's hash table in MiB.
    #[arg(long, default_value_t = 16, requires = "uci", value_parser = clap::value_parser!(u32).range(1..=4096))]
    uci_hash_mb: u32,
}

/// The rule preset a UCI engine plays (Fairy-Stockfish's `bughouse`).
const UCI_PRESET: &str = "classic";

pub(crate) fn bot(args: &BotArgs, out: &mut dyn Write) -> anyhow::Result<()> {
    let wanted = match &args.seat {
        Some(s) => Some(SeatId::from_name(s).ok_or_else(|| Failure {
            code: 2,
            message: format!("--seat {s:?}: expected white-A, black-A, white-B or black-B"),
        })?),
        None => None,
    };
    let rules = match (&args.rules, &args.uci) {
        (Some(rules), Some(_)) if rules != UCI_PRESET => {
            return Err(Failure {
                code: 2,
                message: format!(
                    "--uci plays the {UCI_PRESET} preset only (standard bughouse, as Fairy-Stockfish knows \
                     it), not --rules {rules}"
                ),
            }
            .into());
        }
        (Some(rules), _) => rules.clone(),
        (None, Some(_)) => UCI_PRESET.to_owned(),
        (None, None) => "mgimo-2017".to_owned(),
    };
    let runtime = tokio::runtime::Runtime::new().context("cannot start the async runtime")?;
    runtime.block_on(async {
        let name = match (&args.login.account, &args.name) {
            (Some(account), _) => account.clone(),
            (None, Some(name)) => name.clone(),
            (None, None) => format!("bot-{}", std::process::id() % 10_000),
        };
        if args.seek {
            return seek(args, &name, out).await;
        }
        let mut client = args.connect.connect_login(&args.login, &name, true).await?;
        if let Some(t) = args.tournament {
            let config = BotConfig {
                level: args.level,
                chat: !args.no_chat,
                pace: Duration::from_millis(args.pace_ms),
            };
            // A tournament night lasts hours; the bot waits between its games until it is over.
            let played =
                play_tournament(&mut client, t, &config, std::time::Duration::from_secs(6 * 3600)).await?;
            writeln!(out, "{name} played {} games in tournament {t}", played.len())?;
            client.close().await;
            return Ok(());
        }
        let match_id = match args.match_id {
            Some(id) => MatchId(id),
            None => {
                let id = client.create_match(&rules, &args.time_control, true).await?;
                writeln!(
                    out,
                    "created match {id} ({rules} {}); waiting for three more players",
                    args.time_control
                )?;
                id
            }
        };
        let config =
            BotConfig { level: args.level, chat: !args.no_chat, pace: Duration::from_millis(args.pace_ms) };
        if args.uci.is_some() {
            uci_match(&client, match_id).await?;
        }
        // Another player may take the free seat first: then try the next free one. The lobby
        // list may not show that seat taken yet (another node's match is listed as its node
        // last said, within a heartbeat): a seat refused is not tried again, and a list that
        // names no other free seat is asked again a moment later.
        let mut attempts = 0;
        let mut refused: Vec<SeatId> = Vec::new();
        let outcome = loop {
            let seat = match wanted {
                Some(seat) => seat,
                None => first_free(&client, match_id, &refused).await?,
            };
            let chooser = match &args.uci {
                Some(path) => uci_chooser(args, path).await?,
                None => Chooser::search(args.level),
            };
            match play_match_with(&mut client, match_id, seat, &config, chooser).await {
                Err(BotError::Seat(why)) if wanted.is_none() && attempts < SEAT_ATTEMPTS => {
                    tracing::info!("{seat} was taken meanwhile ({why}); trying another");
                    refused.push(seat);
                    attempts += 1;
                }
                other => break other?,
            }
        };
        writeln!(out, "{name} played {} in match {match_id}", outcome.seat)?;
        if let Some(path) = &args.uci {
            writeln!(
                out,
                "moves chosen by {}; {} played by the own search instead",
                path.display(),
                outcome.fallbacks
            )?;
        }
        match &outcome.result {
            Some(r) => {
                writeln!(out, "match {match_id} over after {} moves of mine: {}", outcome.moves, r.reason)?
            }
            None => writeln!(out, "match {match_id} annulled")?,
        }
        client.close().await;
        Ok(())
    })
}

/// `shvedka bot --seek`: `--bots` sessions answering seeks, until each has played `--games`.
async fn seek(args: &BotArgs, name: &str, out: &mut dyn Write) -> anyhow::Result<()> {
    let count = if args.login.account.is_some() { 1 } else { usize::from(args.bots) };
    let config =
        BotConfig { level: args.level, chat: !args.no_chat, pace: Duration::from_millis(args.pace_ms) };
    let seeking = SeekConfig {
        patience: Duration::from_secs(args.patience_s),
        rated: args.rated,
        ..SeekConfig::default()
    };
    let mut tasks = tokio::task::JoinSet::new();
    for i in 1..=count {
        let name = if count == 1 { name.to_owned() } else { format!("{name}-{i}") };
        let mut client = args.connect.connect_login(&args.login, &name, true).await?;
        let (config, seeking, games) = (config.clone(), seeking.clone(), args.games);
        tasks.spawn(async move {
            let played = answer_seeks(&mut client, &config, &seeking, games).await;
            client.close().await;
            (name, played)
        });
    }
    writeln!(out, "{count} bots answer seeks after {} s of a person's waiting", args.patience_s)?;
    while let Some(done) = tasks.join_next().await {
        let (name, played) = done.context("a bot task failed")?;
        let played = played?;
        writeln!(out, "{name} played {} matches", played.len())?;
    }
    Ok(())
}

/// Checks, before taking a seat, that a match a UCI engine is to play is of its preset.
async fn uci_match(client: &Client, id: MatchId) -> anyhow::Result<()> {
    let list = client.list_matches().await?;
    let Some(summary) = list.iter().find(|m| m.match_id == id) else {
        // Not in the lobby list (a private match, say): the bot checks the rules once seated.
        return Ok(());
    };
    if summary.rules != UCI_PRESET || summary.chess960 {
        let what = if summary.chess960 {
            format!("{} from a Chess960 start", summary.rules)
        } else {
            summary.rules.clone()
        };
        return Err(Failure {
            code: 1,
            message: format!(
                "match {id} is {what}: --uci plays the {UCI_PRESET} preset from the standard start only"
            ),
        }
        .into());
    }
    Ok(())
}

/// Starts the UCI engine at `path` for one match.
async fn uci_chooser(args: &BotArgs, path: &std::path::Path) -> anyhow::Result<Chooser> {
    let settings =
        shvedka_uci::UciSettings { hash_mb: args.uci_hash_mb, ..shvedka_uci::UciSettings::default() };
    let engine = shvedka_uci::UciEngine::start(path, &[], &settings)
        .await
        .map_err(|e| Failure { code: 2, message: format!("--uci: {e}") })?;
    Ok(Chooser::uci(engine, args.uci_movetime_ms.map(Duration::from_millis), args.level))
}

/// How many seats a bot without `--seat` tries before it gives up (there are four).
const SEAT_ATTEMPTS: u32 = 8;

/// How long a bot waits before it reads the lobby list again when it shows no free seat it has
/// not tried: a cluster's list of another node's match is at most a heartbeat old.
const LIST_AGAIN_AFTER: Duration = Duration::from_millis(300);

/// The first seat of match `id` the lobby list shows free, other than those `refused` already;
/// the list is read again (up to three times) while it shows only those.
async fn first_free(client: &Client, id: MatchId, refused: &[SeatId]) -> anyhow::Result<SeatId> {
    for again in 0..4 {
        if again > 0 {
            tokio::time::sleep(LIST_AGAIN_AFTER).await;
        }
        let list = client.list_matches().await?;
        let summary = list.iter().find(|m| m.match_id == id).ok_or_else(|| Failure {
            code: 1,
            message: format!("match {id} is not in the lobby list; name a --seat"),
        })?;
        let free: Vec<SeatId> =
            SeatId::ALL.into_iter().filter(|s| summary.seats[s.index()].is_none()).collect();
        if free.is_empty() {
            break;
        }
        if let Some(seat) = free.into_iter().find(|s| !refused.contains(s)) {
            return Ok(seat);
        }
    }
    Err(Failure { code: 1, message: format!("match {id} has no free seat") }.into())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn targets(server: &str, fingerprint: Option<&str>) -> anyhow::Result<(Vec<SocketAddr>, Trust)> {
        ConnectArgs::new(server.into(), fingerprint.map(String::from)).targets()
    }

    #[test]
    fn server_takes_one_address_or_a_comma_separated_list_in_order() {
        let (one, trust) = targets("127.0.0.1:4433", None).unwrap();
        assert_eq!(one, ["127.0.0.1:4433".parse::<SocketAddr>().unwrap()]);
        assert_eq!(trust, Trust::WebPki { server_name: "127.0.0.1".into() });
        let (list, trust) = targets("127.0.0.2:1, [::1]:2,127.0.0.1:3", None).unwrap();
        let want: Vec<SocketAddr> =
            ["127.0.0.2:1", "[::1]:2", "127.0.0.1:3"].iter().map(|a| a.parse().unwrap()).collect();
        assert_eq!(list, want);
        // One certificate for the cluster: checked for the first name without a fingerprint.
        assert_eq!(trust, Trust::WebPki { server_name: "127.0.0.2".into() });
        let pin = "ab".repeat(32);
        let (_, trust) = targets("127.0.0.1:1,127.0.0.1:2", Some(&pin)).unwrap();
        assert_eq!(trust, Trust::Fingerprint([0xab; 32]));
        let (first, _) = ConnectArgs::new("127.0.0.2:1,127.0.0.1:3".into(), None).target().unwrap();
        assert_eq!(first, want[0]);
    }

    #[test]
    fn r1_p3_bot_uci_refuses_a_preset_other_than_classic_before_connecting() {
        let mut out = Vec::new();
        let args = [
            "shvedka",
            "bot",
            "--server",
            "127.0.0.1:9",
            "--name",
            "fs",
            "--uci",
            "/usr/games/fairy-stockfish",
        ];
        let err = crate::run(args.iter().chain(&["--rules", "mgimo-2017"]), &mut out).unwrap_err();
        assert_eq!(crate::exit_code(&err), 2);
        assert!(err.to_string().contains("--uci plays the classic preset only"), "{err}");
        // Options of the engine need --uci.
        let err =
            crate::run(["shvedka", "bot", "--server", "127.0.0.1:9", "--uci-movetime-ms", "100"], &mut out)
                .unwrap_err();
        assert_eq!(crate::exit_code(&err), 2, "{err}");
    }

    #[test]
    fn a_bad_entry_in_the_server_list_is_named() {
        for (server, named) in
            [("127.0.0.1:1,", "\"\""), ("127.0.0.1:1,nowhere", "\"nowhere\""), (":1", "\":1\"")]
        {
            let err = targets(server, None).unwrap_err().to_string();
            assert!(err.contains(named) && err.contains("expected HOST:PORT"), "{server}: {err}");
        }
    }
}
