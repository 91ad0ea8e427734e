//! `shvedka td`: the tournament director's command line against a running server, as a director
//! session: an account with the director role (`--account`), or the server's `director_token`
//! (`SHVEDKA_DIRECTOR_TOKEN` or `--token-file`, never on the command line), the way to bootstrap.

use std::io::Write;

use anyhow::Context;
use clap::{Args, Subcommand};
use shvedka_proto::{Reply, TdExport, TdOutcome, TdRequest};

use crate::Failure;
use crate::client_cmds::ConnectArgs;
use crate::login_args::LoginArgs;
use crate::secret_args::SecretArgs;

/// Arguments of `shvedka td`.
#[derive(Debug, Args)]
pub(crate) struct TdArgs {
    #[command(flatten)]
    connect: ConnectArgs,
    #[command(flatten)]
    login: LoginArgs,
    #[command(flatten)]
    secret: SecretArgs,
    #[command(subcommand)]
    command: TdCommand,
}

/// The director's subcommands.
#[derive(Debug, Subcommand)]
enum TdCommand {
    /// Create a tournament; prints its id.
    Create {
        /// Its name.
        name: String,
        /// Rule preset.
        #[arg(long, default_value = "mgimo-2017")]
        rules: String,
        /// Time control of every game.
        #[arg(long, default_value = "3+0")]
        time_control: String,
        /// round-robin or swiss.
        #[arg(long, default_value = "round-robin")]
        format: String,
        /// Rounds of a Swiss.
        #[arg(long)]
        rounds: Option<u32>,
        /// Played over the board: no online matches; print pairing sheets and enter results.
        #[arg(long)]
        over_the_board: bool,
        /// Teams check in before each round; only the teams checked in are paired.
        #[arg(long)]
        check_in: bool,
        /// Every game starts from a Chess960 position, drawn for its match.
        #[arg(long)]
        chess960: bool,
    },
    /// Open or close registration to players (a director still registers teams).
    Registration {
        /// The tournament.
        tournament: u64,
        /// open or close.
        open: String,
    },
    /// Check a team in for the next round.
    CheckIn {
        /// The tournament.
        tournament: u64,
        /// The team's number.
        team: u32,
    },
    /// Print the pairing the computer proposes for the next round (nothing is paired).
    Preview {
        /// The tournament.
        tournament: u64,
    },
    /// Pair the next round by hand; prints its number. Teams placed nowhere are absent.
    PairByHand {
        /// The tournament.
        tournament: u64,
        /// A pairing of two team numbers, `1-4`; once per table, in table order.
        #[arg(long = "table")]
        tables: Vec<String>,
        /// A team given a bye.
        #[arg(long = "bye")]
        byes: Vec<u32>,
        /// Seconds the teams have for their seating and colour choices (S3).
        #[arg(long, default_value_t = 120)]
        choices_s: u64,
    },
    /// Register a team and its two players (their names as they connect); prints its number.
    Register {
        /// The tournament.
        tournament: u64,
        /// The team's name.
        team: String,
        /// The first player.
        player1: String,
        /// The second player.
        player2: String,
    },
    /// Withdraw a team (its unplayed games are forfeited).
    Withdraw {
        /// The tournament.
        tournament: u64,
        /// The team's number.
        team: u32,
    },
    /// Seed the registered teams by their players' mean rating in the tournament's category
    /// (before the start): the draw and a Swiss's ties follow it.
    SeedByRating {
        /// The tournament.
        tournament: u64,
    },
    /// Close registration and start.
    Start {
        /// The tournament.
        tournament: u64,
    },
    /// Pair the next round; prints its number.
    Pair {
        /// The tournament.
        tournament: u64,
        /// Seconds the teams have for their seating and colour choices (S3).
        #[arg(long, default_value_t = 120)]
        choices_s: u64,
    },
    /// Enter a game's result (over the board, or for a game in play with --end-game), or correct
    /// one with --correct.
    Result {
        /// The tournament.
        tournament: u64,
        /// The round.
        round: u32,
        /// The table.
        table: u32,
        /// The game, 1 or 2.
        game: u32,
        /// first (the team named first won), second, or draw.
        outcome: String,
        /// Why, in words.
        #[arg(required = true, num_args = 1..)]
        reason: Vec<String>,
        /// Replace an existing result.
        #[arg(long)]
        correct: bool,
        /// The game is in play: end its match with this result (its players are told).
        #[arg(long)]
        end_game: bool,
    },
    /// Clear a result entered by mistake (a game not played online: an online game's result is
    /// its match's, corrected with `result --correct`).
    ClearResult {
        /// The tournament.
        tournament: u64,
        /// The round.
        round: u32,
        /// The table.
        table: u32,
        /// The game, 1 or 2.
        game: u32,
    },
    /// Publish: standings, standings-csv, crosstable, crosstable-csv, html, sheet (with
    /// --round), games (every game as one BPGN file; with --round, that round's), state (JSON).
    Publish {
        /// The tournament.
        tournament: u64,
        /// What.
        what: String,
        /// The round of a pairing sheet, or of the games.
        #[arg(long)]
        round: Option<u32>,
        /// The language of an export a person reads (standings, crosstable, html, sheet): `ru`
        /// or `en`; by default the terminal's (LC_ALL, LC_MESSAGES, LANG).
        #[arg(long)]
        lang: Option<String>,
    },
}

/// The language the locale environment names (`ru_RU.UTF-8` → `ru`), as POSIX ranks it.
fn locale_language() -> String {
    ["LC_ALL", "LC_MESSAGES", "LANG"]
        .iter()
        .filter_map(|v| std::env::var(v).ok())
        .find(|v| !v.trim().is_empty())
        .map(|v| v.split(['_', '.', '@']).next().unwrap_or_default().to_lowercase())
        .unwrap_or_default()
}

fn bad(message: String) -> anyhow::Error {
    Failure { code: 2, message }.into()
}

fn request(command: &TdCommand) -> anyhow::Result<TdRequest> {
    Ok(match command {
        TdCommand::Create {
            name,
            rules,
            time_control,
            format,
            rounds,
            over_the_board,
            check_in,
            chess960,
        } => TdRequest::Create {
            online: !over_the_board,
            check_in: *check_in,
            chess960: *chess960,
            name: name.clone(),
            rules: rules.clone(),
            time_control: time_control.clone(),
            swiss_rounds: match (format.as_str(), rounds) {
                ("round-robin", None) => None,
                ("swiss", Some(n)) => Some(*n),
                ("swiss", None) => return Err(bad("a Swiss needs --rounds".into())),
                ("round-robin", Some(_)) => {
                    return Err(bad("a round robin has as many rounds as it needs".into()));
                }
                (other, _) => {
                    return Err(bad(format!("format {other:?}: expected round-robin or swiss")));
                }
            },
        },
        TdCommand::Register { tournament, team, player1, player2 } => TdRequest::Register {
            tournament: *tournament,
            team: team.clone(),
            players: [player1.clone(), player2.clone()],
        },
        TdCommand::Withdraw { tournament, team } => {
            TdRequest::Withdraw { tournament: *tournament, team: *team }
        }
        TdCommand::Start { tournament } => TdRequest::Start { tournament: *tournament },
        TdCommand::Registration { tournament, open } => TdRequest::Registration {
            tournament: *tournament,
            open: match open.as_str() {
                "open" => true,
                "close" => false,
                other => return Err(bad(format!("registration {other:?}: expected open or close"))),
            },
        },
        TdCommand::CheckIn { tournament, team } => {
            TdRequest::CheckIn { tournament: *tournament, team: *team }
        }
        TdCommand::Preview { tournament } => TdRequest::Preview { tournament: *tournament },
        TdCommand::PairByHand { tournament, tables, byes, choices_s } => TdRequest::PairByHand {
            tournament: *tournament,
            choice_window_ms: choices_s.saturating_mul(1000),
            tables: tables.iter().map(|t| table(t)).collect::<anyhow::Result<_>>()?,
            byes: byes.clone(),
        },
        TdCommand::SeedByRating { tournament } => TdRequest::SeedByRating { tournament: *tournament },
        TdCommand::Pair { tournament, choices_s } => {
            TdRequest::PairNext { tournament: *tournament, choice_window_ms: choices_s.saturating_mul(1000) }
        }
        TdCommand::ClearResult { tournament, round, table, game } => {
            TdRequest::ClearResult { tournament: *tournament, round: *round, table: *table, game: *game }
        }
        TdCommand::Result { tournament, round, table, game, outcome, reason, correct, end_game } => {
            TdRequest::Result {
                tournament: *tournament,
                round: *round,
                table: *table,
                game: *game,
                outcome: match outcome.as_str() {
                    "first" => TdOutcome::FirstWins,
                    "second" => TdOutcome::SecondWins,
                    "draw" => TdOutcome::Draw,
                    other => return Err(bad(format!("outcome {other:?}: expected first, second or draw"))),
                },
                reason: reason.join(" "),
                correct: *correct,
                end_game: *end_game,
            }
        }
        TdCommand::Publish { tournament, what, round, lang } => TdRequest::Publish {
            tournament: *tournament,
            language: lang.clone().unwrap_or_else(locale_language),
            what: match (what.as_str(), round) {
                ("standings", _) => TdExport::Standings,
                ("standings-csv", _) => TdExport::StandingsCsv,
                ("crosstable", _) => TdExport::Crosstable,
                ("crosstable-csv", _) => TdExport::CrosstableCsv,
                ("html", _) => TdExport::Html,
                ("sheet", Some(r)) => TdExport::Sheet { round: *r },
                ("sheet", None) => return Err(bad("a pairing sheet needs --round".into())),
                // Page by page: a night's games do not fit one frame (`run` asks on).
                ("games", r) => TdExport::GamesPage { round: r.unwrap_or(0), from: 0 },
                ("state", _) => TdExport::State,
                (other, _) => return Err(bad(format!("publish {other:?}: see shvedka td publish --help"))),
            },
        },
    })
}

/// A table written `1-4`: two team numbers.
fn table(text: &str) -> anyhow::Result<[u32; 2]> {
    let parse = |n: &str| n.trim().parse::<u32>().ok();
    match text.split_once('-').map(|(a, b)| (parse(a), parse(b))) {
        Some((Some(a), Some(b))) => Ok([a, b]),
        _ => Err(bad(format!("table {text:?}: expected two team numbers, like 1-4"))),
    }
}

/// A proposed round as lines: `table 1: 3 - 1`, `bye: 5`, `absent: 2`.
fn round_text(round: &shvedka_proto::RoundView) -> String {
    let mut text = format!("round {}\n", round.round);
    for t in &round.tables {
        match t {
            shvedka_proto::TableView::Pairing(p) => {
                let repeat = if p.repeat { " (met before)" } else { "" };
                text.push_str(&format!("table {}: {} - {}{repeat}\n", p.table, p.first, p.second));
            }
            shvedka_proto::TableView::Bye { team, .. } => text.push_str(&format!("bye: {team}\n")),
        }
    }
    for team in &round.absent {
        text.push_str(&format!("absent: {team}\n"));
    }
    text
}

/// Every game of a tournament (or of one round) as one BPGN text, asked page by page
/// (`TdExport::GamesPage`) until the server says there is no next page.
async fn games(
    client: &shvedka_client::Client,
    tournament: u64,
    round: u32,
    language: String,
) -> Result<Reply, shvedka_client::ClientError> {
    let mut all = String::new();
    let mut from = 0u32;
    loop {
        let what = TdExport::GamesPage { round, from };
        match client.td(TdRequest::Publish { tournament, what, language: language.clone() }).await? {
            Reply::Games { bpgn, next, .. } => {
                all.push_str(&bpgn);
                match next {
                    Some(n) if n > from => from = n,
                    _ => return Ok(Reply::Text(all)),
                }
            }
            other => return Ok(other),
        }
    }
}

pub(crate) fn run(args: &TdArgs, out: &mut dyn Write) -> anyhow::Result<()> {
    let req = request(&args.command)?;
    let token = args.secret.secret("SHVEDKA_DIRECTOR_TOKEN", args.login.has_account())?;
    let runtime = tokio::runtime::Runtime::new().context("cannot start the async runtime")?;
    let reply = runtime.block_on(async {
        let client = args.connect.connect_login(&args.login, "", false).await?;
        // A refusal in the reader's words (the locale's), from its code.
        let lang = shvedka_tui::Lang::from_env();
        let refused = |e: shvedka_client::ClientError| Failure {
            code: 1,
            message: shvedka_tui::speak::client_error(lang, &e),
        };
        if let Some(token) = &token {
            client.director(token).await.map_err(refused)?;
        }
        let reply = match req {
            TdRequest::Publish { tournament, what: TdExport::GamesPage { round, .. }, language } => {
                games(&client, tournament, round, language).await.map_err(refused)
            }
            req => client.td(req).await.map_err(refused),
        };
        client.close().await;
        anyhow::Ok(reply?)
    })?;
    match reply {
        Reply::Id(id) => writeln!(out, "{id}")?,
        Reply::Text(text) => write!(out, "{text}")?,
        Reply::TournamentRound(round) => write!(out, "{}", round_text(&round))?,
        _ => writeln!(out, "done")?,
    }
    Ok(())
}
