//! The check of every match after the run, against its log in PostgreSQL: one log with no gap or
//! fork (seqs 0, 1, 2, ... and every event a player was told is the log's event at that seq); each
//! acknowledged move is among its seat's moves in the log, in order, at the place the player
//! counted or later (else it was lost); no move stored
//! twice (a board's moves alternate between its two seats, so a move stored again shows as two in
//! a row by one seat); and the longest stall: the longest a match went without an acknowledged
//! move while it was live.

use std::time::{Duration, Instant};

use shvedka_proto::{EventView, MatchEvent, SeatId};
use shvedka_storage::{PgStore, Store};

use crate::driver::Played;

/// What the check found, summed over the matches.
#[derive(Default)]
pub(crate) struct Found {
    pub(crate) matches: u64,
    pub(crate) acknowledged: u64,
    pub(crate) lost: u64,
    pub(crate) duplicated: u64,
    pub(crate) forks: u64,
    pub(crate) repeats: u64,
    pub(crate) gaps: u64,
    pub(crate) went_back: u64,
    pub(crate) behind: u64,
    pub(crate) resumes: u64,
    pub(crate) elsewhere: u64,
    pub(crate) resume_failures: u64,
    pub(crate) longest_resume: Duration,
    /// The longest gap between acknowledged moves of one live match: how long, which match, from
    /// when (seconds into the run).
    pub(crate) stall: (Duration, u64, f64),
    /// The longest a player waited from wanting to move to an acknowledgement.
    pub(crate) wait: (Duration, u64, f64),
    pub(crate) moves_in_logs: u64,
    /// Acknowledged moves found later in the log than the player's own count said.
    pub(crate) stale_view: u64,
    pub(crate) closed: u64,
    /// Moves refused or unanswered, by why.
    pub(crate) refusals: std::collections::BTreeMap<String, u64>,
    pub(crate) errors: Vec<String>,
}

/// Checks every match played against its log; `moving_until` is when the players stopped moving.
pub(crate) async fn check(
    url: &str,
    played: &[std::sync::Arc<Played>],
    start: Instant,
    moving_until: Instant,
) -> Found {
    let store = PgStore::connect_tool(url).await.expect("the database");
    let mut found = Found::default();
    for p in played {
        found.matches += 1;
        let id = p.id.0;
        let rows = store.events(id).await.expect("a match's events");
        let log: Vec<MatchEvent> = rows
            .iter()
            .map(|r| serde_json::from_str(&r.view).expect("a stored view is a MatchEvent"))
            .collect();
        for (i, row) in rows.iter().enumerate() {
            if row.seq != i as u64 {
                found.forks += 1;
                found.errors.push(format!("match {id}: the log's event {i} has seq {}", row.seq));
                break;
            }
        }
        // Each seat's moves in the log, and moves twice in a row by one seat on one board.
        let mut by_seat: [Vec<&str>; 4] = Default::default();
        let mut last_on_board: [Option<SeatId>; 2] = [None; 2];
        for e in &log {
            if let EventView::Moved { seat, uci, .. } = &e.kind {
                found.moves_in_logs += 1;
                by_seat[seat.index()].push(uci);
                let board = seat.index() / 2;
                if last_on_board[board] == Some(*seat) {
                    found.duplicated += 1;
                    found
                        .errors
                        .push(format!("match {id}: {seat} moved twice in a row at seq {} ({uci})", e.seq));
                }
                last_on_board[board] = Some(*seat);
            }
        }
        let mut acked_at: Vec<Instant> = Vec::new();
        for (seat, record) in SeatId::ALL.into_iter().zip(&p.seats) {
            let seen = record.lock().unwrap();
            // In order, each at its ordinal or later: a player whose events lag (its session
            // not told them for a while) counts fewer own moves than it has made, so its ordinal
            // is a lower bound; two acknowledgements never match one stored move.
            let own = &by_seat[seat.index()];
            let mut next = 0;
            for ack in &seen.acks {
                found.acknowledged += 1;
                acked_at.push(ack.at);
                let from = next.max(ack.ordinal);
                match (from..own.len()).find(|&i| own[i] == ack.uci) {
                    Some(i) => {
                        if i != ack.ordinal {
                            found.stale_view += 1;
                        }
                        next = i + 1;
                    }
                    None => {
                        found.lost += 1;
                        found.errors.push(format!(
                            "match {id}: {seat}'s acknowledged move {} (its move {} or later, at {:.3} s) is not in the log: {:?}",
                            ack.uci,
                            ack.ordinal,
                            (ack.at - start).as_secs_f64(),
                            own.get(from..)
                        ));
                    }
                }
            }
            for (seq, kind) in &seen.told {
                if log.get(*seq as usize).map(|e| &e.kind) != Some(kind) {
                    found.forks += 1;
                    found.errors.push(format!(
                        "match {id}: {seat} was told {kind:?} at seq {seq}, the log has {:?}",
                        log.get(*seq as usize).map(|e| &e.kind)
                    ));
                }
            }
            let last = log.last().map(|e| e.seq);
            if seen.last_seq.is_some() && seen.last_seq != last {
                found.behind += 1;
                found.errors.push(format!(
                    "match {id}: {seat} was told up to {:?}, the log ends at {last:?}",
                    seen.last_seq
                ));
            }
            for (why, n) in &seen.refusals {
                *found.refusals.entry(why.clone()).or_default() += n;
            }
            found.repeats += seen.repeats;
            found.closed += seen.closed;
            found.gaps += seen.gaps;
            found.went_back += seen.went_back;
            found.resumes += seen.resumes;
            found.elsewhere += seen.elsewhere;
            found.resume_failures += seen.resume_failures;
            found.longest_resume = found.longest_resume.max(seen.longest_resume);
            if let (wait, Some(from)) = seen.longest_wait
                && wait > found.wait.0
            {
                found.wait = (wait, id, (from - start).as_secs_f64());
            }
            found.errors.extend(seen.anomalies.iter().map(|a| format!("match {id}: {a}")));
        }
        // The stall: gaps between acknowledged moves while the match was live.
        let Some(started) = *p.started.lock().unwrap() else { continue };
        let ended = p.ended.lock().unwrap().unwrap_or(moving_until).min(moving_until);
        acked_at.retain(|t| *t >= started && *t <= ended);
        acked_at.sort();
        let mut from = started;
        for t in acked_at.into_iter().chain([ended]) {
            if t.saturating_duration_since(from) > found.stall.0 {
                found.stall = (t - from, id, (from - start).as_secs_f64());
            }
            from = from.max(t);
        }
    }
    found
}
