//! `shvedka arbiter show`: a record reviewed at an instant (RULES.md A4) — both boards, the four
//! reserves and clocks, whose turn it is, mate on board (M1) and the BFEN.
//!
//! # Placing moves in time
//!
//! A BPGN record gives each move the mover's remaining time after it (its clock comment) and the
//! time control (tag `TimeControl`, `B+I`: base time B and Fischer increment I, in seconds; the
//! base is read by the records crate, as [`shvedka_records::Replay::clocks_after`]`(0)`). From
//! these the match time of every move follows, board by board (K1):
//!
//! - both boards start at match time 0 (the two White clocks start together; from a `BFEN` tag
//!   with Black to move, Black's clock starts then);
//! - on one board the clocks of its two players run in turn, so the board's moves follow one
//!   another: a move is completed at the completion time of the board's previous move (0 for the
//!   first) plus the mover's thinking time;
//! - thinking time = the mover's remaining before the move (B for his first move, else his
//!   previous clock comment) + I − his clock comment after it; a clock that went up by more than
//!   the increment (an arbiter's added minute, a rounding) counts as no thinking at all;
//! - the record lists moves in the order they were made, so a move is never placed before the
//!   move written before it (on either board): its time is the larger of the two, and the board
//!   goes on from there. For a consistent record this changes nothing; it keeps the times in
//!   record order, so the moves made by an instant are always a prefix of the record.
//!
//! The clocks at an instant: each seat's remaining after its last move by then (B before its
//! first), and the player to move on each board loses the time since that board's last move
//! (never below zero). Mate on board ends the match (E1): from the move that gave it, no clock
//! runs. Without a base time or with a move that has no clock comment, moves cannot be placed:
//! `--at` is refused, and `--after-move` shows the clocks as last recorded.

use std::io::Write;
use std::path::PathBuf;

use bughouse::{BoardId, Game, Seat};
use chess_core::{File, Rank, Role, Square};
use shvedka_records::{Record, Replay, ReplayError};

use super::{bad_input, read_records, record_rules};

/// Arguments of `shvedka arbiter show`.
#[derive(Debug, clap::Args)]
#[command(group(clap::ArgGroup::new("instant").args(["after_move", "at"])))]
pub(crate) struct ShowArgs {
    /// The BPGN file; with `--server`, the id of a match on that server.
    #[arg(value_name = "MATCH|FILE.bpgn")]
    file: PathBuf,
    /// Review a match of this server (HOST:PORT) instead of a file.
    #[arg(long)]
    server: Option<String>,
    /// The server certificate's SHA-256 (with `--server`).
    #[arg(long, requires = "server")]
    fingerprint: Option<String>,
    /// Show the game after its first N moves (both boards counted together in record order;
    /// 0 is the start).
    #[arg(long, value_name = "N", allow_hyphen_values = true)]
    after_move: Option<usize>,
    /// Show the game at a match time: seconds (`95.3`, `95.3s`) or minutes and seconds
    /// (`1:35.3`), placed by the clock comments.
    #[arg(long, value_name = "TIME", allow_hyphen_values = true, value_parser = parse_match_time)]
    at: Option<u64>,
    /// The rules preset (mgimo-2017 or classic); by default the record's `Rules` tag, or
    /// mgimo-2017 when it has none.
    #[arg(long)]
    rules: Option<String>,
    /// Which game of the file, from 1.
    #[arg(long, default_value_t = 1, value_name = "K")]
    game: usize,
}

/// Arguments of `shvedka arbiter analyse`: an instant as `show` takes it, and the search.
#[derive(Debug, clap::Args)]
pub(crate) struct AnalyseArgs {
    #[command(flatten)]
    show: ShowArgs,
    /// Nodes the engine searches on each board (the server's `analysis_nodes` by default).
    #[arg(long, default_value_t = 300_000, value_parser = clap::value_parser!(u64).range(1..=100_000_000))]
    nodes: u64,
}

/// `--at`: `95.3`, `95.3s`, `1:35.3` or `1:01:35.3`, in milliseconds.
fn parse_match_time(text: &str) -> Result<u64, String> {
    let t = text.trim();
    if t.starts_with('-') {
        return Err("a match time cannot be negative".to_owned());
    }
    let expected = || "expected seconds (95.3, 95.3s) or minutes and seconds (1:35.3)".to_owned();
    let t = t.strip_suffix('s').unwrap_or(t);
    let parts: Vec<&str> = t.split(':').collect();
    let (last, higher) = parts.split_last().ok_or_else(expected)?;
    let mut ms = shvedka_records::parse_seconds(last).ok_or_else(expected)?;
    if !higher.is_empty() && ms >= 60_000 {
        return Err(format!("{last} seconds: expected fewer than 60 after a colon"));
    }
    if higher.len() > 2 {
        return Err(expected());
    }
    for (value, unit) in higher.iter().rev().zip([60_000u64, 3_600_000]) {
        if value.is_empty() || !value.bytes().all(|b| b.is_ascii_digit()) {
            return Err(expected());
        }
        let n: u64 = value.parse().map_err(|_| expected())?;
        if unit == 60_000 && higher.len() == 2 && n >= 60 {
            return Err(format!("{n} minutes: expected fewer than 60 after the hours"));
        }
        ms = n.checked_mul(unit).and_then(|x| x.checked_add(ms)).ok_or_else(expected)?;
    }
    Ok(ms)
}

/// `95300` → `1:35.300` (minutes, seconds, milliseconds; minutes are not wrapped into hours).
fn format_clock(ms: u64) -> String {
    format!("{}:{:02}.{:03}", ms / 60_000, ms / 1000 % 60, ms % 1000)
}

/// The match time at which each move of the record was completed, in milliseconds (see the
/// module documentation); `Err` says why the moves cannot be placed.
fn place_moves(record: &Record, start: [Option<u64>; 4]) -> Result<Vec<u64>, String> {
    let tc = record.tag("TimeControl").unwrap_or("-");
    if start.iter().any(Option::is_none) {
        return Err(format!("the TimeControl tag ({tc:?}) gives no base time"));
    }
    let (_, increment) = shvedka_records::time_control_ms(tc)
        .ok_or_else(|| format!("the TimeControl tag ({tc:?}) gives no readable increment"))?;
    let mut remaining = start.map(Option::unwrap_or_default);
    let mut board_time = [0u64; 2];
    let mut last = 0u64;
    let mut times = Vec::with_capacity(record.moves.len());
    for rm in &record.moves {
        let clock = rm.clock_ms.ok_or_else(|| format!("{} has no clock comment", rm.label()))?;
        let seat = rm.seat().index();
        let thinking = remaining[seat].saturating_add(increment).saturating_sub(clock);
        remaining[seat] = clock;
        let board = rm.board.index();
        let t = board_time[board].saturating_add(thinking).max(last);
        board_time[board] = t;
        last = t;
        times.push(t);
    }
    Ok(times)
}

/// Replays as much of the record as the rules allow: the replay, and the error that stopped it
/// early (a record with an impossible move can still be shown up to it).
fn replay_prefix(record: &Record, rules: bughouse::Rules) -> anyhow::Result<(Replay, Option<ReplayError>)> {
    match record.replay(rules) {
        Ok(replay) => Ok((replay, None)),
        Err(ReplayError::Start(e)) => Err(bad_input(format!("start position (BFEN tag): {e}"))),
        Err(error @ (ReplayError::Move { index, .. } | ReplayError::OutOfTurn { index, .. })) => {
            let mut prefix = record.clone();
            prefix.moves.truncate(index);
            let replay = prefix.replay(rules).map_err(bad_input)?;
            Ok((replay, Some(error)))
        }
    }
}

pub(crate) fn run(args: &ShowArgs, out: &mut dyn Write) -> anyhow::Result<()> {
    show(args, out, None)
}

/// `analyse`: the instant as `show` prints it, then the engine's view of both boards (the same
/// analysis the server gives the review, computed here).
pub(crate) fn analyse(args: &AnalyseArgs, out: &mut dyn Write) -> anyhow::Result<()> {
    show(&args.show, out, Some(args.nodes))
}

fn show(args: &ShowArgs, out: &mut dyn Write, analysis: Option<u64>) -> anyhow::Result<()> {
    let name = args.file.display();
    let mut records = match &args.server {
        None => read_records(&args.file)?,
        Some(server) => {
            let id: u64 = args
                .file
                .to_str()
                .and_then(|s| s.parse().ok())
                .ok_or_else(|| bad_input(format!("{name}: with --server, give a match id")))?;
            let connect = crate::client_cmds::ConnectArgs::new(server.clone(), args.fingerprint.clone());
            let text = super::online::fetch_public_record(&connect, id)?;
            shvedka_records::parse_bpgn(&text).map_err(|e| bad_input(format!("match {id}: {e}")))?
        }
    };
    let count = records.len();
    if args.game == 0 || args.game > count {
        let games = if count == 1 { "1 game" } else { &format!("{count} games") };
        return Err(bad_input(format!("{name}: no game {} (the file has {games})", args.game)));
    }
    let record = records.swap_remove(args.game - 1);
    let rules = record_rules(&record, args.rules.as_deref())?;
    let (replay, stopped) = replay_prefix(&record, rules)?;
    let total = record.moves.len();
    let times = place_moves(&record, replay.clocks_after(0).unwrap_or_default().0);

    let (n, instant, header) = match (args.after_move, args.at) {
        (Some(n), _) => {
            if n > total {
                return Err(bad_input(format!(
                    "{name}: no move {n}: the record has {total} move{}; use --after-move 0 to {total}",
                    if total == 1 { "" } else { "s" }
                )));
            }
            let label = if n == 0 { "the start".to_owned() } else { record.moves[n - 1].label() };
            let instant = times.as_ref().ok().map(|t| if n == 0 { 0 } else { t[n - 1] });
            (n, instant, format!("after move {n} ({label})"))
        }
        (None, Some(at)) => {
            let times = times.as_ref().map_err(|why| {
                bad_input(format!(
                    "{name}: --at needs every move's clock comment and a base time: {why}; use --after-move N instead"
                ))
            })?;
            (times.partition_point(|&t| t <= at), Some(at), format!("at {}", format_clock(at)))
        }
        (None, None) => return Err(bad_input("show needs an instant: --after-move N or --at TIME")),
    };
    if n > replay.len() {
        let why = stopped.map_or_else(String::new, |e| format!(": {e}"));
        return Err(bad_input(format!(
            "{name}: the record cannot be replayed past move {}{why}; it can be shown up to --after-move {}",
            replay.len(),
            replay.len()
        )));
    }
    let game = replay.game_after(n).expect("n is within the replay");

    writeln!(out, "{header}")?;
    match n {
        0 => writeln!(out, "moves made: 0 of {total}")?,
        _ => writeln!(out, "moves made: {n} of {total}, the last {}", record.moves[n - 1].label())?,
    }
    // What the record says after the moves made: the arbiters' acts, each naming who made it
    // (`arbiter alice: …`, `arbiter (secret): …`), and calls of the arbiter.
    for mv in &record.moves[..n] {
        if let Some(c) = &mv.comment {
            writeln!(out, "note after {}: {c}", mv.label())?;
        }
    }
    let mut clocks = replay.clocks_after(n).unwrap_or_default().0;
    let mut running = [false; 4];
    match (instant, &times) {
        (Some(instant), Ok(times)) => {
            // Mate on board stops every clock from the move that gave it (E1).
            let mate_at = (0..=n).find(|&k| {
                let g = replay.game_after(k).expect("k is within the replay");
                BoardId::ALL.iter().any(|&b| g.is_mate_on_board(b))
            });
            let stop = match mate_at {
                Some(k) => {
                    let at = if k == 0 { 0 } else { times[k - 1] };
                    writeln!(
                        out,
                        "match time: {} (clocks stopped at {} by mate on board, E1)",
                        format_clock(instant),
                        format_clock(at)
                    )?;
                    at.min(instant)
                }
                None => {
                    writeln!(out, "match time: {}", format_clock(instant))?;
                    instant
                }
            };
            for board in BoardId::ALL {
                let seat = game.to_move(board);
                let since = (0..n).rev().find(|&i| record.moves[i].board == board).map_or(0, |i| times[i]);
                let clock = &mut clocks[seat.index()];
                *clock = clock.map(|c| c.saturating_sub(stop.saturating_sub(since)));
                running[seat.index()] = mate_at.is_none();
            }
        }
        (_, Err(why)) => writeln!(out, "match time: unknown ({why}); clocks as last recorded")?,
        (None, Ok(_)) => unreachable!("an instant is known whenever the moves are placed"),
    }
    for board in BoardId::ALL {
        write_board(out, game, board)?;
    }
    for seat in Seat::ALL {
        let player = match record.player(seat) {
            Some(p) if !p.is_empty() && p != "?" => format!(" ({p})"),
            _ => String::new(),
        };
        let clock = clocks[seat.index()].map_or_else(|| "?".to_owned(), format_clock);
        let running = if running[seat.index()] { " running" } else { "" };
        writeln!(out, "{seat}{player}: clock {clock}{running}, reserve {}", reserve(game, seat))?;
    }
    writeln!(out, "bfen: {}", game.bfen())?;
    if let Some(nodes) = analysis {
        let clocks = clocks.iter().copied().collect::<Option<Vec<u64>>>().and_then(|c| c.try_into().ok());
        for view in shvedka_server::analyse_here(game, nodes, clocks) {
            super::analysis::write(out, &view)?;
        }
    }
    Ok(())
}

/// A player's reserve: `P2 N1` (upper case White, lower case Black), `-` when empty.
fn reserve(game: &Game, seat: Seat) -> String {
    let items: Vec<String> = Role::POCKET
        .iter()
        .filter_map(|&role| {
            let count = game.reserve(seat, role);
            (count > 0).then(|| format!("{}{count}", role.of(seat.color).char()))
        })
        .collect();
    if items.is_empty() { "-".to_owned() } else { items.join(" ") }
}

/// One board: its status line, then ranks 8 to 1 (`.` for an empty square) and the file letters.
fn write_board(out: &mut dyn Write, game: &Game, board: BoardId) -> std::io::Result<()> {
    let seat = game.to_move(board);
    let mate =
        if game.is_mate_on_board(board) { format!("yes, {seat} is mated (M1)") } else { "no".to_owned() };
    writeln!(out, "board {board}: {seat} to move, mate on board: {mate}")?;
    let pos = game.board(board).board();
    for rank in Rank::all().rev() {
        let squares: Vec<String> = File::all()
            .map(|file| pos.piece_at(Square::from_coords(file, rank)).map_or('.', |p| p.char()).to_string())
            .collect();
        writeln!(out, "{} {}", rank.char(), squares.join(" "))?;
    }
    writeln!(out, "  a b c d e f g h")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn match_times_read_seconds_and_minutes() {
        assert_eq!(parse_match_time("95.3"), Ok(95_300));
        assert_eq!(parse_match_time("95.3s"), Ok(95_300));
        assert_eq!(parse_match_time("1:35.3"), Ok(95_300));
        assert_eq!(parse_match_time("0:05"), Ok(5_000));
        assert_eq!(parse_match_time("1:01:35.3"), Ok(3_695_300));
        assert_eq!(parse_match_time("0.0015"), Ok(1));
        for bad in ["", "-5", "1:75", "x", "1.", ".5", "1::5", "1:2:3:4", ":5", "1:60:00"] {
            assert!(parse_match_time(bad).is_err(), "{bad}");
        }
        assert_eq!(format_clock(95_300), "1:35.300");
        assert_eq!(format_clock(180_000), "3:00.000");
    }
}
