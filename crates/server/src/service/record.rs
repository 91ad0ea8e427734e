//! A match's record as BPGN (RULES.md A4), built from the machine's own log: every move with the
//! mover's clock after it, in the order the moves happened on both boards, the arbiter's acts as
//! commentary, and the result with its reason and rule. A game the arbiter had played again
//! (A2, A5, A6) is the record's game; the annulled one is named in the comment before its first
//! move.

use bughouse::Game;
use bughouse_match::{ArbiterAct, EventKind, Match, Official, Ruling};
use shvedka_proto::PlayerKind;
use shvedka_records::{Record, RecordResult};

/// Writes a decided match's BPGN file, `match-N.bpgn` in `dir`: a convenience beside the
/// database, which stays the record of truth, so a failure is logged and nothing more.
pub(crate) fn write_file(dir: &std::path::Path, id: u64, bpgn: &str) {
    let path = dir.join(format!("match-{id}.bpgn"));
    match std::fs::create_dir_all(dir).and_then(|()| std::fs::write(&path, bpgn)) {
        Ok(()) => tracing::info!(match_id = id, path = %path.display(), "match record written"),
        Err(e) => tracing::warn!(match_id = id, error = %e, "cannot write the match record"),
    }
}

/// The tags that say a seat's kind of player, in seat order.
const TYPE_TAGS: [&str; 4] = ["WhiteAType", "BlackAType", "WhiteBType", "BlackBType"];

/// The record of `m` (match `id`), players named by `names` in seat order, of the kinds `kinds`
/// (a guest's or a bot's seat says so in a tag `WhiteAType` … `BlackBType`: `guest`, `program`,
/// after PGN's `WhiteType`/`BlackType`, whose values are `human` and `program`).
pub(crate) fn record(
    id: u64,
    m: &Match,
    names: &[Option<String>; 4],
    kinds: &[Option<PlayerKind>; 4],
    date: &str,
) -> Record {
    let config = m.config();
    let mut r = Record::new();
    r.set_tag("Event", format!("shvedka match {id}"));
    r.set_tag("Site", "shvedka");
    r.set_tag("Date", date);
    for (seat, name) in bughouse::Seat::ALL.into_iter().zip(names) {
        r.set_player(seat, name.clone().unwrap_or_else(|| "?".into()));
    }
    for (tag, kind) in TYPE_TAGS.into_iter().zip(kinds) {
        match kind {
            Some(PlayerKind::Guest) => r.set_tag(tag, "guest"),
            Some(PlayerKind::Bot) => r.set_tag(tag, "program"),
            Some(PlayerKind::Account) | None => {}
        }
    }
    r.set_tag("TimeControl", config.time_control.pgn());
    r.set_tag("Rules", config.rules.name.clone());
    if let Some(start) = &config.start {
        r.set_start_bfen(start.clone());
    }
    if let Some(n) = m.chess960_start() {
        r.set_chess960_start(n);
    }
    let start = m.start_game();
    let mut game = start;
    for e in m.events() {
        match &e.kind {
            EventKind::Moved { seat, mv, .. } => {
                r.push_played(&game, mv, Some(e.clocks[seat.index()].as_millis() as u64));
                game.play_unchecked(*mv);
            }
            EventKind::Arbiter(Ruling { act, by }) => {
                let mut text =
                    format!("{}: {}", arbiter_label(by), crate::service::convert::describe_act(act));
                if let ArbiterAct::TakeBack { board } = act
                    && let Some(i) = r.moves.iter().rposition(|mv| mv.board == *board)
                {
                    // The move leaves the record; what was said about it stays, with its label.
                    let removed = r.moves.remove(i);
                    text = format!("{text} ({})", removed.label());
                    if let Some(c) = removed.comment {
                        comment(&mut r, &c);
                    }
                    game = replayed(&start, &r).unwrap_or(game);
                }
                if let ArbiterAct::Replay { .. } = act {
                    // A2, A5, A6: the annulled game leaves the record, which goes on with the
                    // game played again from the start; its moves (and what was said about
                    // them) are named in the comment before the first move.
                    let annulled: Vec<String> = r
                        .moves
                        .drain(..)
                        .map(|m| match &m.comment {
                            Some(c) => format!("{} ({c})", m.label()),
                            None => m.label(),
                        })
                        .collect();
                    if !annulled.is_empty() {
                        text = format!("{text}; the annulled game: {}", annulled.join(" "));
                    }
                    game = start;
                }
                comment(&mut r, &text);
            }
            EventKind::ArbiterCalled { seat, replay: None, .. } => {
                comment(&mut r, &format!("{seat} called the arbiter"))
            }
            EventKind::ArbiterCalled { seat, replay: Some(why), .. } => comment(
                &mut r,
                &format!("{seat} called the arbiter asking for a replay ({why}, {})", why.rule()),
            ),
            EventKind::Ended(adj) => {
                r.result = Some(RecordResult {
                    outcome: adj.result,
                    reason: Some(adj.to_string()),
                    rule: Some(adj.reason.rule().to_owned()),
                });
            }
            _ => {}
        }
    }
    r
}

/// Who made an act, as the record's comment names him: `arbiter alice`, `arbiter (secret)`.
fn arbiter_label(by: &Official) -> String {
    match by {
        Official::Account(name) => format!("arbiter {name}"),
        Official::Secret => "arbiter (secret)".to_owned(),
        Official::Server => "server".to_owned(),
        Official::Unrecorded => "arbiter".to_owned(),
    }
}

/// The game after the record's moves (after a take-back shortened them).
fn replayed(start: &Game, r: &Record) -> Option<Game> {
    let mut game = *start;
    for mv in &r.moves {
        let m = game.parse_move(mv.board, &mv.text).ok()?;
        game.play_unchecked(m);
    }
    Some(game)
}

fn comment(r: &mut Record, text: &str) {
    let slot = match r.moves.last_mut() {
        Some(m) => &mut m.comment,
        None => &mut r.comment,
    };
    let joined = match slot.take() {
        Some(old) => format!("{old}; {text}"),
        None => text.to_owned(),
    };
    *slot = Some(joined.replace('}', ")"));
}
