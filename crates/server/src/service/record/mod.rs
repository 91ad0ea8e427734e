//! A match's record as BPGN (RULES.md A4), built from the machine's own log: every move with the
//! mover's clock after it and its match time, in the order the moves happened on both boards;
//! every act a reader must replay — the arbiter's (with who made it), a player's call, a flag's
//! fall, the clocks' start after a replay, the end — at its place with its time and the four
//! clocks after it (docs/bpgn.md); and the result with its reason and rule. A move taken back,
//! or of a game the arbiter had played again (A2, A5, A6), is among the acts as played, not
//! among the moves: the record's moves are the game as it stands.

use std::time::Duration;

use bughouse::{DrawKind, EndingEvent};
use bughouse_match::{ArbiterAct, EventKind, Match, Official, ReplayReason, Ruling};
use shvedka_proto::PlayerKind;
use shvedka_records::{Act, ActKind, DrawCause, Record, RecordResult, ReplayCause};

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
    // The record's time axis starts with the clocks (K1); what came before is negative.
    let origin = m.events().iter().find(|e| e.kind == EventKind::Started).map(|e| e.at);
    let at_ms = |at: Duration| -> Option<i64> {
        let origin = origin?;
        let ms = |d: Duration| i64::try_from(d.as_millis()).unwrap_or(i64::MAX);
        Some(if at >= origin { ms(at - origin) } else { -ms(origin - at) })
    };
    let clocks = |e: &bughouse_match::Event| e.clocks.map(|c| c.as_millis() as u64);
    // The match driven again input by input, for the boards before each move and after each
    // act (the same replay as `Match::replay`).
    let mut again = Match::new(config.clone()).expect("the match's own config starts a match");
    if let Some(n) = m.chess960_start() {
        again.choose_chess960(n);
    }
    let mut started = false;
    for e in m.events() {
        let before = *again.game();
        let held = again.held_endings().len();
        if let Some(input) = e.kind.input() {
            // The log replays to itself (`Match::replay`); a refusal would leave the boards as
            // they were, which the record then shows.
            let _ = again.handle_input(e.at, input);
        }
        let act =
            |kind: ActKind, by: Option<String>| Act { kind, at_ms: at_ms(e.at), by, clocks: Some(clocks(e)) };
        // A draw a flag's window now holds (K4): the match goes on, and E9 weighs it at the
        // window's close. It follows the event that made it (a move, an agreement, a claim).
        let draws: Vec<Act> = again
            .held_endings()
            .get(held..)
            .unwrap_or_default()
            .iter()
            .filter_map(|ending| match *ending {
                EndingEvent::Draw { board, kind } => {
                    draw_cause(kind).map(|cause| act(ActKind::Draw { board, cause }, None))
                }
                _ => None,
            })
            .collect();
        match &e.kind {
            EventKind::Moved { seat, mv, credit, .. } => {
                r.push_played(&before, mv, Some(e.clocks[seat.index()].as_millis() as u64));
                if let Some(last) = r.moves.last_mut() {
                    last.at_ms = at_ms(e.at);
                    last.credit_ms = Some(credit.as_millis() as u64).filter(|&c| c > 0);
                }
            }
            EventKind::Arbiter(Ruling { act: done, by }) => {
                let by = official_label(by);
                let kind = match done {
                    ArbiterAct::Pause => ActKind::Pause,
                    ArbiterAct::Resume => ActKind::Resume,
                    ArbiterAct::AdjustClock { seat, delta_ms } => {
                        ActKind::Adjust { seat: *seat, delta_ms: *delta_ms }
                    }
                    ArbiterAct::TakeBack { board } => {
                        // The move leaves the record's moves and stays, played, among its acts.
                        if let Some(i) = r.moves.iter().rposition(|mv| mv.board == *board) {
                            r.unplay(i);
                        }
                        ActKind::TakeBack { board: *board, position: Some(again.game().bfen()) }
                    }
                    ArbiterAct::SetPosition { .. } => ActKind::SetPosition { position: again.game().bfen() },
                    ArbiterAct::DeclareResult { result, note } => {
                        ActKind::Result { outcome: *result, note: note.clone() }
                    }
                    ArbiterAct::Annul { note } => ActKind::Annul { note: note.clone() },
                    ArbiterAct::Replay { reason, note } => {
                        // A2, A5, A6: the annulled game's moves stay, played, before the act;
                        // the record's moves are the game played again.
                        while !r.moves.is_empty() {
                            r.unplay(0);
                        }
                        ActKind::Replay { cause: cause(*reason), note: note.clone() }
                    }
                };
                r.push_act(act(kind, by));
            }
            EventKind::ArbiterCalled { seat, replay, .. } => {
                r.push_act(act(ActKind::Call { seat: *seat, replay: replay.map(cause) }, None));
            }
            EventKind::FlagFell { seat } => r.push_act(act(ActKind::Flag { seat: *seat }, None)),
            EventKind::Resigned { seat, .. } => r.push_act(act(ActKind::Resign { seat: *seat }, None)),
            EventKind::Started => {
                if started {
                    r.push_act(act(ActKind::Start, None));
                }
                started = true;
            }
            EventKind::Ended(adj) => {
                r.push_act(act(ActKind::End, None));
                r.result = Some(RecordResult {
                    outcome: adj.result,
                    reason: Some(adj.to_string()),
                    rule: Some(adj.reason.rule().to_owned()),
                });
            }
            _ => {}
        }
        for draw in draws {
            r.push_act(draw);
        }
    }
    r
}

/// The record's cause of a draw held in a window; the arbiter's draw is his result act.
fn draw_cause(kind: DrawKind) -> Option<DrawCause> {
    match kind {
        DrawKind::Agreement => Some(DrawCause::Agreed),
        DrawKind::Repetition => Some(DrawCause::Repetition),
        DrawKind::MoveRule => Some(DrawCause::MoveRule),
        DrawKind::Stalemate => Some(DrawCause::Stalemate),
        DrawKind::Arbiter => None,
    }
}

/// The record's cause of a replay.
fn cause(reason: ReplayReason) -> ReplayCause {
    match reason {
        ReplayReason::WrongSetup => ReplayCause::WrongSetup,
        ReplayReason::OutsideHint => ReplayCause::OutsideHint,
        ReplayReason::Other => ReplayCause::Other,
    }
}

/// Who made an act, as the record names him (`by=`): the arbiter's account, `(secret)`,
/// `(server)`; nobody when the log did not record it.
fn official_label(by: &Official) -> Option<String> {
    match by {
        Official::Account(name) => Some(name.clone()),
        Official::Secret => Some("(secret)".to_owned()),
        Official::Server => Some("(server)".to_owned()),
        Official::Unrecorded => None,
    }
}

#[cfg(test)]
mod tests;
