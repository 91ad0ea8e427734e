//! A record reviewed from its text (`ClientMsg::ReviewRecord`, PROTOCOL.md item 24): the BPGN an
//! arbiter or a player pastes or uploads, replayed by the rules crates and checked for impossible
//! moves (RULES.md A1) — what `shvedka arbiter show` and `check-record` do on the command line,
//! for the web client's review. Nothing is stored: the answer is computed from the text each time,
//! in pages of [`PAGE`] moves so that it fits a frame.

use bughouse::{Game, RuleOptions};
use shvedka_proto::{
    ErrorCode, ErrorMsg, ImpossibleView, Invalid, LaterView, NamedMove, RecordReview, RecordReviewRequest,
    Reply, ReviewedMove, SeatId, UnreadableAt,
};
use shvedka_records::{Later, Record, Step, StepKind, Timeline, check_record, parse_bpgn};

use crate::service::convert::{error, seat_id};

mod acts;
mod explained;

/// Moves in one page of the answer (each carries a BFEN: the page stays well within a frame).
pub(crate) const PAGE: usize = 200;

/// The most impossible moves one answer lists.
pub(crate) const MOST_FINDINGS: usize = 100;

/// The longest record text taken, in bytes (a frame carries at most 64 KiB).
pub(crate) const MOST_TEXT: usize = 60 * 1024;

/// The review of `req`'s record: one page of its moves from `req.from`, and the check of A1.
///
/// # Errors
/// `TooLarge`, `Invalid(Record)`, `Invalid(RulePreset)`.
pub(crate) fn review(req: &RecordReviewRequest) -> Result<Reply, ErrorMsg> {
    if req.bpgn.len() > MOST_TEXT {
        return Err(error(ErrorCode::TooLarge, format!("a record of at most {MOST_TEXT} bytes")));
    }
    let bad = |why: String| error(ErrorCode::Invalid(Invalid::Record), why);
    let mut records = parse_bpgn(&req.bpgn).map_err(|e| {
        let at = Invalid::RecordAt { line: count(e.line), column: count(e.column) };
        error(ErrorCode::Invalid(at), format!("not BPGN: {e}"))
    })?;
    let games = records.len();
    if req.game == 0 || req.game as usize > games {
        let none = Invalid::NoSuchGame { games: count(games) };
        return Err(error(ErrorCode::Invalid(none), format!("no game {} (the text has {games})", req.game)));
    }
    let record = records.swap_remove(req.game as usize - 1);
    let preset = match &req.rules {
        Some(name) => name.clone(),
        None => record.tag("Rules").unwrap_or(bughouse::PRESETS[0]).to_owned(),
    };
    let rules = RuleOptions::preset(&preset)
        .and_then(|o| o.rules())
        .map_err(|_| error(ErrorCode::Invalid(Invalid::RulePreset), format!("no rules preset {preset:?}")))?;
    let timeline = record.timeline(rules).map_err(|e| bad(e.to_string()))?;
    // The step of each record move: the moves and acts replayed to the end (an impossible move
    // carried out as it was made, and marked by the check below).
    let at_move: Vec<&Step> =
        timeline.steps().iter().filter(|s| matches!(s.kind, StepKind::Move(_))).collect();
    let total = at_move.len();
    let from = (req.from as usize).min(total);
    // A page holds at most PAGE moves and acts together (a burst of acts between two moves
    // stays whole), and at least one move while any is left.
    let act_steps = acts::act_steps(&timeline);
    let acts_at = |n: usize| act_steps.iter().filter(|(m, _)| *m == n).count();
    let mut to = from;
    let mut size = if from == 0 { acts_at(0) } else { 0 };
    while to < total && (to == from || (to - from) + size < PAGE) {
        to += 1;
        size += acts_at(to);
    }
    let page_acts = act_steps
        .iter()
        .filter(|(m, _)| (*m > from || (from == 0 && *m == 0)) && *m <= to)
        .filter_map(|(m, step)| acts::reviewed(*m, step))
        .collect();
    let start_step = &timeline.steps()[0];
    let moves = (from..to).map(|i| reviewed(&record, previous(&timeline, i), at_move[i], i)).collect();
    // Since version 12 the review goes on past an impossible move; nothing stops it.
    let stopped: Option<usize> = None;
    let report = check_record(&record, rules);
    let impossible: Vec<ImpossibleView> = report.impossible.iter().take(MOST_FINDINGS).map(finding).collect();
    let unreadable = report.unreadable.map(|u| match u.index {
        Some(i) => UnreadableAt::Move { index: count(i) },
        None => UnreadableAt::Start,
    });
    let mut indices: Vec<u32> = impossible
        .iter()
        .flat_map(|f| match f.later {
            LaterView::LegalAgain { index } => vec![f.index, index],
            _ => vec![f.index],
        })
        .chain(stopped.map(count))
        .chain(match unreadable {
            Some(UnreadableAt::Move { index }) => Some(index),
            _ => None,
        })
        .collect();
    indices.sort_unstable();
    indices.dedup();
    let named = indices
        .into_iter()
        .filter_map(|i| record.moves.get(i as usize).map(|m| NamedMove { index: i, label: m.label() }))
        .collect();
    Ok(Reply::RecordReview(Box::new(RecordReview {
        games: count(games),
        rules: preset,
        time_control: record.tag("TimeControl").map(str::to_owned),
        players: SeatId::ALL.map(|seat| {
            record
                .player(crate::service::convert::seat(seat))
                .filter(|p| !p.is_empty() && *p != "?")
                .map(str::to_owned)
        }),
        start: start_step.game.bfen(),
        start_clocks_ms: start_step.clocks.0,
        total: count(record.moves.len()),
        moves,
        stopped: stopped.map(count),
        next: (to < total).then(|| count(to)),
        impossible,
        unreadable,
        named,
        acts: page_acts,
        explained: (from == 0).then(|| record.explain(rules).ok()).flatten().map(|e| explained::view(&e)),
    })))
}

/// The game just before the record's move `i` (after the acts before it).
fn previous(timeline: &Timeline, i: usize) -> &Game {
    let index = timeline.after_move(i).unwrap_or(0);
    &timeline.steps()[index].game
}

/// Move `i` of the record, from the boards before it and its step: the position, clocks and
/// match time after it.
fn reviewed(record: &Record, before: &Game, step: &Step, i: usize) -> ReviewedMove {
    let rm = &record.moves[i];
    let legal = before.parse_move(rm.board, &rm.text).ok().filter(|_| step.impossible.is_none());
    let (san, uci) = match legal {
        Some(m) => (before.san(&m), before.uci(&m)),
        None => (rm.text.clone(), String::new()),
    };
    ReviewedMove {
        seat: seat_id(rm.seat()),
        number: rm.number,
        text: rm.text.clone(),
        san,
        uci,
        bfen: step.game.bfen(),
        clocks_ms: step.clocks.0,
        comment: rm.comment.clone(),
        at_ms: step.at_ms,
        running: step.running,
    }
}

fn finding(f: &shvedka_records::Impossible) -> ImpossibleView {
    ImpossibleView {
        index: count(f.index),
        kind: f.kind.number(),
        rule: f.rule.clone(),
        later: match &f.later {
            Later::Stands => LaterView::Stands,
            Later::LegalAgain { index, .. } => LaterView::LegalAgain { index: count(*index) },
            Later::ArbiterDecides { .. } => LaterView::ArbiterDecides,
        },
    }
}

fn count(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

#[cfg(test)]
mod tests;
