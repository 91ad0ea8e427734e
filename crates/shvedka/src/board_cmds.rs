//! `shvedka moves`, `status` and `apply`: the bughouse rules on a BFEN, for arbiters and scripts.

use std::io::Write;

use bughouse::{BoardId, Game, MoveTextError, RuleOptions};

use crate::Failure;

fn bad_input(message: impl std::fmt::Display) -> anyhow::Error {
    Failure { code: 2, message: message.to_string() }.into()
}

/// The position and rules every board command takes.
#[derive(Debug, clap::Args)]
pub(crate) struct GameArgs {
    /// The position: two FENs with reserves, joined by ` | ` (see README).
    #[arg(long)]
    bfen: String,
    /// The rules preset.
    #[arg(long, default_value = "mgimo-2017")]
    rules: String,
}

impl GameArgs {
    fn game(&self) -> anyhow::Result<Game> {
        let options = RuleOptions::preset(&self.rules).map_err(bad_input)?;
        let rules = options.rules().map_err(bad_input)?;
        Game::from_bfen(&self.bfen, rules).map_err(bad_input)
    }
}

fn parse_board(s: &str) -> Result<BoardId, String> {
    let mut chars = s.chars();
    match (chars.next().and_then(BoardId::from_char), chars.next()) {
        (Some(b), None) => Ok(b),
        _ => Err(format!("expected a or b, found {s:?}")),
    }
}

/// Arguments of `shvedka moves`.
#[derive(Debug, clap::Args)]
pub(crate) struct MovesArgs {
    #[command(flatten)]
    game: GameArgs,
    /// The board: a or b.
    #[arg(long, value_parser = parse_board)]
    board: BoardId,
}

/// Arguments of `shvedka status`.
#[derive(Debug, clap::Args)]
pub(crate) struct StatusArgs {
    #[command(flatten)]
    game: GameArgs,
}

/// Arguments of `shvedka apply`.
#[derive(Debug, clap::Args)]
pub(crate) struct ApplyArgs {
    #[command(flatten)]
    game: GameArgs,
    /// Moves in order, each `board:move` (long notation or SAN), e.g. `a:e2e4 b:Nf3 a:e7e8qd1`.
    moves: Vec<String>,
}

pub(crate) fn moves(args: &MovesArgs, out: &mut dyn Write) -> anyhow::Result<()> {
    let game = args.game.game()?;
    let mut list: Vec<String> = game.legal_moves(args.board).iter().map(|m| game.uci(m)).collect();
    list.sort();
    for m in list {
        writeln!(out, "{m}")?;
    }
    Ok(())
}

pub(crate) fn status(args: &StatusArgs, out: &mut dyn Write) -> anyhow::Result<()> {
    let game = args.game.game()?;
    let board = |b: BoardId| {
        let s = game.status(b);
        serde_json::json!({
            "turn": s.turn.name(),
            "in_check": s.in_check,
            "mate_on_board": s.mate_on_board,
            "legal_moves": s.legal_moves,
            "waiting": s.waiting,
        })
    };
    let json = serde_json::json!({ "a": board(BoardId::A), "b": board(BoardId::B) });
    writeln!(out, "{json}")?;
    Ok(())
}

pub(crate) fn apply(args: &ApplyArgs, out: &mut dyn Write) -> anyhow::Result<()> {
    let mut game = args.game.game()?;
    for (i, item) in args.moves.iter().enumerate() {
        let n = i + 1;
        let (board, text) = item
            .split_once(':')
            .and_then(|(b, m)| Some((parse_board(b).ok()?, m)))
            .ok_or_else(|| bad_input(format!("move {n} {item:?}: expected board:move, e.g. a:e2e4")))?;
        let m = game.parse_move(board, text).map_err(|e| match e {
            MoveTextError::Illegal { .. } => {
                anyhow::Error::from(Failure { code: 1, message: format!("move {n} {item:?}: {e}") })
            }
            _ => bad_input(format!("move {n} {item:?}: {e}")),
        })?;
        game.play_unchecked(m);
    }
    writeln!(out, "{}", game.bfen())?;
    Ok(())
}
