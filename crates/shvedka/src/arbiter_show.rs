//! `shvedka arbiter show`: a record reviewed at an instant (RULES.md A4) — both boards, the four
//! reserves and clocks, whose turn it is, mate on board (M1), the acts so far and the BFEN.
//!
//! The instant is read on the records crate's one replay of moves and acts
//! ([`shvedka_records::Timeline`]): the same match time (from the start of the clocks) and the
//! same move count (the record's moves; one taken back is an act, not a move) as every other
//! review. Without an instant, the end of the record is shown. An impossible move is shown as it
//! was made and marked, and the record can be followed to its end.

use std::io::Write;
use std::path::PathBuf;

use bughouse::{BoardId, Game, Seat};
use chess_core::{File, Rank, Role, Square};
use shvedka_records::{ActKind, Record, StepKind};
use shvedka_tui::Lang;
use shvedka_tui::record_words::{
    self as words, Untimed, clock as format_clock, signed_clock as format_signed_clock,
};

use super::{bad_input, read_records, record_rules};

/// Arguments of `shvedka arbiter show`.
#[derive(Debug, clap::Args)]
#[command(group(clap::ArgGroup::new("instant").args(["after_move", "at"])))]
pub(crate) struct ShowArgs {
    #[command(flatten)]
    source: Source,
    /// Show the game after its first N moves (both boards counted together in record order;
    /// 0 is the start; a move taken back is not counted).
    #[arg(long, value_name = "N", allow_hyphen_values = true)]
    after_move: Option<usize>,
    /// Show the game at a match time from the start of the clocks: seconds (`95.3`, `95.3s`) or
    /// minutes and seconds (`1:35.3`). Without --after-move or --at, the end of the record.
    #[arg(long, value_name = "TIME", allow_hyphen_values = true, value_parser = parse_match_time)]
    at: Option<u64>,
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

pub(crate) fn run(args: &ShowArgs, lang: Lang, out: &mut dyn Write) -> anyhow::Result<()> {
    show(args, lang, out, None)
}

/// `analyse`: the instant as `show` prints it, then the engine's view of both boards (the same
/// analysis the server gives the review, computed here).
pub(crate) fn analyse(args: &AnalyseArgs, lang: Lang, out: &mut dyn Write) -> anyhow::Result<()> {
    show(&args.show, lang, out, Some(args.nodes))
}

/// Where a record comes from: a file, or a match of a server.
#[derive(Debug, clap::Args)]
pub(crate) struct Source {
    /// The BPGN file; with `--server`, the id of a match on that server.
    #[arg(value_name = "MATCH|FILE.bpgn")]
    file: PathBuf,
    /// Review a match of this server (HOST:PORT) instead of a file.
    #[arg(long)]
    server: Option<String>,
    /// The server certificate's SHA-256 (with `--server`).
    #[arg(long, requires = "server")]
    fingerprint: Option<String>,
    /// The rules preset (mgimo-2017 or classic); by default the record's `Rules` tag, or
    /// mgimo-2017 when it has none.
    #[arg(long)]
    rules: Option<String>,
    /// Which game of the file, from 1.
    #[arg(long, default_value_t = 1, value_name = "K")]
    game: usize,
}

impl Source {
    /// The record and its rules.
    pub(crate) fn load(&self) -> anyhow::Result<(Record, bughouse::Rules)> {
        let name = self.file.display();
        let mut records = match &self.server {
            None => read_records(&self.file)?,
            Some(server) => {
                let id: u64 = self
                    .file
                    .to_str()
                    .and_then(|s| s.parse().ok())
                    .ok_or_else(|| bad_input(format!("{name}: with --server, give a match id")))?;
                let connect = crate::client_cmds::ConnectArgs::new(server.clone(), self.fingerprint.clone());
                let text = super::online::fetch_public_record(&connect, id)?;
                shvedka_records::parse_bpgn(&text).map_err(|e| bad_input(format!("match {id}: {e}")))?
            }
        };
        let count = records.len();
        if self.game == 0 || self.game > count {
            let games = if count == 1 { "1 game" } else { &format!("{count} games") };
            return Err(bad_input(format!("{name}: no game {} (the file has {games})", self.game)));
        }
        let record = records.swap_remove(self.game - 1);
        let rules = record_rules(&record, self.rules.as_deref())?;
        Ok((record, rules))
    }
}

/// `explain`: why the match ended as it did, in the reader's language.
pub(crate) fn explain(source: &Source, lang: shvedka_tui::Lang, out: &mut dyn Write) -> anyhow::Result<()> {
    let (record, rules) = source.load()?;
    let e = record.explain(rules).map_err(|e| bad_input(format!("{}: {e}", source.file.display())))?;
    for line in shvedka_tui::explain::explanation(lang, &e) {
        writeln!(out, "{line}")?;
    }
    Ok(())
}

fn show(args: &ShowArgs, lang: Lang, out: &mut dyn Write, analysis: Option<u64>) -> anyhow::Result<()> {
    let name = args.source.file.display();
    let (record, rules) = args.source.load()?;
    let timeline = match record.timeline(rules) {
        Ok(t) => t,
        Err(e) => return Err(bad_input(format!("{name}: {e}"))),
    };
    let total = record.moves.len();
    let tc = record.tag("TimeControl").unwrap_or("-").to_owned();
    let no_clock = record.moves.iter().find(|m| m.clock_ms.is_none()).map(|m| m.label());
    let untimed = || {
        if shvedka_records::time_control_ms(&tc).is_none() {
            Untimed::NoBase(&tc)
        } else if let Some(label) = &no_clock {
            Untimed::NoClock(label)
        } else {
            Untimed::Incomplete
        }
    };

    let labels: Vec<String> = record.moves.iter().map(|m| m.label()).collect();
    let at_text;
    let (index, clocks, instant, header) = match (args.after_move, args.at) {
        (Some(n), _) => {
            let Some(index) = timeline.after_move(n) else {
                return Err(bad_input(format!(
                    "{name}: no move {n}: the record has {total} move{}; use --after-move 0 to {total}",
                    if total == 1 { "" } else { "s" }
                )));
            };
            let label = if n == 0 { "" } else { labels[n - 1].as_str() };
            let step = &timeline.steps()[index];
            (index, step.clocks.0, step.at_ms, words::header(lang, &words::Instant::AfterMove(n, label)))
        }
        (None, Some(at)) => {
            let t = i64::try_from(at).unwrap_or(i64::MAX);
            let instant = timeline
                .at(t)
                .ok_or_else(|| bad_input(words::at_needs_times(lang, &name.to_string(), &untimed())))?;
            at_text = format_clock(at);
            (instant.index, instant.clocks.0, Some(t), words::header(lang, &words::Instant::At(&at_text)))
        }
        (None, None) => {
            let index = timeline.steps().len() - 1;
            let step = timeline.end();
            (index, step.clocks.0, step.at_ms, words::header(lang, &words::Instant::End))
        }
    };
    let steps = &timeline.steps()[..=index];
    let step = &steps[index];
    let game = &step.game;
    let n = step.moves_made;

    writeln!(out, "{header}")?;
    let last = n.checked_sub(1).map(|i| labels[i].as_str());
    writeln!(out, "{}", words::moves_made(lang, n, total, last))?;
    // What happened up to the instant: what was said about the moves, the acts with who made
    // them and when, and every move the rules refuse (shown as it was made).
    // Why it ended, in the reader's language from the rule the record names (its `Termination`
    // tag is English for other readers); the tag's words only for a rule without a title.
    let ending = record.result.as_ref().and_then(|r| {
        r.rule
            .as_deref()
            .and_then(|rule| shvedka_tui::speak::rule_reason(lang, rule))
            .or_else(|| r.reason.clone())
    });
    for s in steps {
        match &s.kind {
            StepKind::Move(i) => {
                let mv = &record.moves[*i];
                if let Some(why) = &s.impossible {
                    writeln!(out, "{}", words::impossible(lang, &labels[*i], why))?;
                }
                if let Some(c) = &mv.comment {
                    writeln!(out, "{}", words::note(lang, &labels[*i], c))?;
                }
            }
            StepKind::Act(act) => {
                let at = s.at_ms.map(format_signed_clock);
                writeln!(out, "{}", words::act(lang, at.as_deref(), act, ending.as_deref()))?;
                if let Some(why) = &s.impossible {
                    writeln!(out, "{}", words::act_failed(lang, why))?;
                }
            }
            StepKind::Start => {}
        }
    }
    let mut running = step.running;
    match instant {
        Some(t) => {
            let t = u64::try_from(t).unwrap_or(0);
            // Why the clocks stand still, if they do: a mate on board in a record with no end
            // (E1), the end, a pause or a call.
            let no_end = !record.all_acts().any(|a| a.kind == ActKind::End);
            let mate = no_end
                .then(|| steps.iter().find(|s| BoardId::ALL.iter().any(|&b| s.game.is_mate_on_board(b))))
                .flatten();
            let since = |kind: fn(&shvedka_records::Step) -> bool| {
                steps.iter().rev().take_while(|s| kind(s)).last().and_then(|s| s.at_ms)
            };
            let at;
            let stopped = if let Some(m) = mate {
                at = format_clock(u64::try_from(m.at_ms.unwrap_or(0)).unwrap_or(0));
                words::Stopped::Mate(&at)
            } else if step.ended {
                at = format_signed_clock(since(|s| s.ended).unwrap_or(0));
                words::Stopped::Ended(&at)
            } else if step.paused {
                at = format_signed_clock(since(|s| s.paused).unwrap_or(0));
                words::Stopped::Paused(&at)
            } else {
                words::Stopped::No
            };
            writeln!(out, "{}", words::match_time(lang, &format_clock(t), &stopped))?;
        }
        None => {
            writeln!(out, "{}", words::match_time_unknown(lang, &untimed()))?;
            running = [false; 4];
        }
    }
    for board in BoardId::ALL {
        write_board(out, lang, game, board)?;
    }
    for seat in Seat::ALL {
        let player = record.player(seat).filter(|p| !p.is_empty() && *p != "?");
        let clock = clocks[seat.index()].map_or_else(|| "?".to_owned(), format_clock);
        let fallen = clocks[seat.index()] == Some(0);
        let line =
            words::seat_line(lang, seat, player, &clock, running[seat.index()], fallen, &reserve(game, seat));
        writeln!(out, "{line}")?;
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
fn write_board(out: &mut dyn Write, lang: Lang, game: &Game, board: BoardId) -> std::io::Result<()> {
    let line = words::board_line(lang, board, game.to_move(board), game.is_mate_on_board(board));
    writeln!(out, "{line}")?;
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
