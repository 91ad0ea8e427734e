//! Between the match layer's types and the wire's.

use std::time::Duration;

use bughouse::{Adjudication, BoardId, DrawKind, MatchResult, Reason, Seat, Team};
use bughouse_match::{ArbiterAct, Claim, Official, Phase, ReplayReason};
use shvedka_proto::{
    ArbiterRequest, Board, ClaimKind, DrawHow, ErrorCode, ErrorMsg, OfficialView, PhaseView, ResultCause,
    ResultView, SeatId, TeamId,
};

/// The wire's replay reason as the match machine's (A5, A6).
pub(crate) fn replay_reason(r: shvedka_proto::ReplayReason) -> ReplayReason {
    match r {
        shvedka_proto::ReplayReason::WrongSetup => ReplayReason::WrongSetup,
        shvedka_proto::ReplayReason::OutsideHint => ReplayReason::OutsideHint,
        shvedka_proto::ReplayReason::Other => ReplayReason::Other,
    }
}

/// The match machine's replay reason as the wire's.
pub(crate) fn wire_replay_reason(r: ReplayReason) -> shvedka_proto::ReplayReason {
    match r {
        ReplayReason::WrongSetup => shvedka_proto::ReplayReason::WrongSetup,
        ReplayReason::OutsideHint => shvedka_proto::ReplayReason::OutsideHint,
        ReplayReason::Other => shvedka_proto::ReplayReason::Other,
    }
}

pub(crate) fn seat_id(seat: Seat) -> SeatId {
    SeatId::ALL[seat.index()]
}

pub(crate) fn seat(id: SeatId) -> Seat {
    Seat::ALL[id.index()]
}

pub(crate) fn claim(kind: ClaimKind) -> Claim {
    match kind {
        ClaimKind::Repetition => Claim::Repetition,
        ClaimKind::FiftyMoves => Claim::FiftyMoves,
        ClaimKind::Flag(s) => Claim::Flag(seat(s)),
    }
}

pub(crate) fn claim_kind(claim: Claim) -> ClaimKind {
    match claim {
        Claim::Repetition => ClaimKind::Repetition,
        Claim::FiftyMoves => ClaimKind::FiftyMoves,
        Claim::Flag(s) => ClaimKind::Flag(seat_id(s)),
    }
}

pub(crate) fn phase(p: &Phase) -> PhaseView {
    match p {
        Phase::Forming => PhaseView::Forming,
        Phase::Countdown { .. } => PhaseView::Countdown,
        Phase::Running => PhaseView::Running,
        Phase::Paused { .. } => PhaseView::Paused,
        Phase::Ended(_) => PhaseView::Ended,
        Phase::Annulled => PhaseView::Annulled,
    }
}

pub(crate) fn result(adj: &Adjudication) -> ResultView {
    let winner = match adj.result {
        MatchResult::Win(Team::One) => Some(TeamId::One),
        MatchResult::Win(Team::Two) => Some(TeamId::Two),
        MatchResult::Draw => None,
    };
    ResultView {
        winner,
        reason: adj.to_string(),
        rule: adj.reason.rule().to_owned(),
        cause: Some(cause(&adj.reason)),
        note: None,
        rules: Box::default(),
    }
}

/// The result of the `Ended` event at `seq` of `m`'s log, with the arbiter's words when his
/// declaration (the event before it) decided it (A2).
pub(crate) fn result_at(m: &bughouse_match::Match, seq: u64, adj: &Adjudication) -> ResultView {
    let mut view = result(adj);
    let before = seq.checked_sub(1).and_then(|i| m.events().get(usize::try_from(i).ok()?));
    if let Some(bughouse_match::Event {
        kind:
            bughouse_match::EventKind::Arbiter(bughouse_match::Ruling {
                act: ArbiterAct::DeclareResult { note, .. },
                ..
            }),
        ..
    }) = before
    {
        view.note = Some(note.as_str().into());
    }
    view
}

/// The result of a decided match (its last `Ended` event), with the arbiter's words.
pub(crate) fn match_result(m: &bughouse_match::Match) -> Option<ResultView> {
    let adj = m.result()?;
    let seq = m.events().iter().rposition(|e| matches!(e.kind, bughouse_match::EventKind::Ended(_)))?;
    Some(result_at(m, seq as u64, &adj))
}

/// K5: while a player's call keeps the clocks stopped, who called and why.
pub(crate) fn call_of(m: &bughouse_match::Match) -> Option<shvedka_proto::CallView> {
    let bughouse_match::Phase::Paused { by: Some(seat), .. } = m.phase() else { return None };
    let replay = m.events().iter().rev().find_map(|e| match &e.kind {
        bughouse_match::EventKind::ArbiterCalled { seat: s, replay, .. } if s == seat => Some(*replay),
        _ => None,
    });
    Some(shvedka_proto::CallView { seat: seat_id(*seat), replay: replay.flatten().map(wire_replay_reason) })
}

/// How a match was decided, as the wire says it.
fn cause(reason: &Reason) -> ResultCause {
    match *reason {
        Reason::MateOnBoard(seat) => ResultCause::MateOnBoard { seat: seat_id(seat) },
        Reason::MutualMate => ResultCause::MutualMate,
        Reason::BoardDrawn(board, kind) => ResultCause::BoardDrawn {
            board: wire_board(board),
            how: match kind {
                DrawKind::Agreement => DrawHow::Agreement,
                DrawKind::Repetition => DrawHow::Repetition,
                DrawKind::MoveRule => DrawHow::FiftyMoves,
                DrawKind::Stalemate => DrawHow::Stalemate,
                DrawKind::Arbiter => DrawHow::Arbiter,
            },
        },
        Reason::Flag(seat) => ResultCause::Flag { seat: seat_id(seat) },
        Reason::FlagsOfBothTeams => ResultCause::FlagsOfBothTeams,
        Reason::Resignation(seat) => ResultCause::Resignation { seat: seat_id(seat) },
        Reason::Arbiter => ResultCause::Arbiter,
    }
}

pub(crate) fn millis(d: Duration) -> u64 {
    d.as_millis() as u64
}

pub(crate) fn clocks(c: [Duration; 4]) -> [u64; 4] {
    c.map(millis)
}

pub(crate) fn board(b: Board) -> BoardId {
    match b {
        Board::A => BoardId::A,
        Board::B => BoardId::B,
    }
}

pub(crate) fn wire_board(b: BoardId) -> Board {
    match b {
        BoardId::A => Board::A,
        BoardId::B => Board::B,
    }
}

pub(crate) fn error(code: ErrorCode, message: impl Into<String>) -> ErrorMsg {
    ErrorMsg { code, rule: None, message: message.into() }
}

pub(crate) fn describe_act(act: &ArbiterAct) -> String {
    match act {
        ArbiterAct::Pause => "paused the clocks".to_owned(),
        ArbiterAct::Resume => "restarted the clocks".to_owned(),
        ArbiterAct::AdjustClock { seat, delta_ms } => {
            let verb = if *delta_ms >= 0 { "added" } else { "removed" };
            format!("{verb} {} ms on {seat}'s clock", delta_ms.unsigned_abs())
        }
        ArbiterAct::TakeBack { board } => format!("took back the last move on board {board}"),
        ArbiterAct::SetPosition { bfen } => format!("set the position {bfen}"),
        ArbiterAct::DeclareResult { note, .. } => format!("declared the result: {note}"),
        ArbiterAct::Annul { note } => format!("annulled the match: {note}"),
        ArbiterAct::Replay { reason, note } => {
            let said = if note.is_empty() { String::new() } else { format!(": {note}") };
            format!("replayed the match ({reason}, {}){said}", reason.rule())
        }
    }
}

/// Who made an arbiter's act, as the wire names him; `None` when the log did not record it.
pub(crate) fn official(by: &Official) -> Option<OfficialView> {
    match by {
        Official::Account(name) => Some(OfficialView::Account(name.clone())),
        Official::Secret => Some(OfficialView::Secret),
        Official::Server => Some(OfficialView::Server),
        Official::Unrecorded => None,
    }
}

/// The match machine's act as the wire's request (what `EventView::ArbiterActed` carries).
pub(crate) fn arbiter_request(act: &ArbiterAct) -> ArbiterRequest {
    match act {
        ArbiterAct::Pause => ArbiterRequest::Pause,
        ArbiterAct::Resume => ArbiterRequest::Resume,
        ArbiterAct::AdjustClock { seat, delta_ms } => {
            ArbiterRequest::AdjustClock { seat: seat_id(*seat), delta_ms: *delta_ms }
        }
        ArbiterAct::TakeBack { board } => ArbiterRequest::TakeBack { board: wire_board(*board) },
        ArbiterAct::SetPosition { bfen } => ArbiterRequest::SetPosition { bfen: bfen.clone() },
        ArbiterAct::DeclareResult { result, note } => ArbiterRequest::DeclareResult {
            winner: match result {
                MatchResult::Win(Team::One) => Some(TeamId::One),
                MatchResult::Win(Team::Two) => Some(TeamId::Two),
                MatchResult::Draw => None,
            },
            reason: note.clone(),
        },
        ArbiterAct::Annul { note } => ArbiterRequest::Annul { reason: note.clone() },
        ArbiterAct::Replay { reason, note } => {
            ArbiterRequest::Replay { reason: wire_replay_reason(*reason), note: note.clone() }
        }
    }
}

/// An arbiter's request as the match machine's act.
pub(crate) fn arbiter_act(req: ArbiterRequest) -> Result<ArbiterAct, String> {
    let note = |text: String| {
        let n = text.chars().count();
        if n == 0 || n > 500 || crate::service::text::hides(&text) {
            Err("a reason has 1 to 500 characters and no control, bidirectional or invisible characters"
                .to_owned())
        } else {
            Ok(text)
        }
    };
    Ok(match req {
        ArbiterRequest::Pause => ArbiterAct::Pause,
        ArbiterRequest::Resume => ArbiterAct::Resume,
        ArbiterRequest::AdjustClock { seat: s, delta_ms } => {
            if delta_ms.unsigned_abs() > 24 * 3_600_000 {
                return Err("a clock adjustment is at most a day".into());
            }
            ArbiterAct::AdjustClock { seat: seat(s), delta_ms }
        }
        ArbiterRequest::TakeBack { board: b } => ArbiterAct::TakeBack { board: board(b) },
        ArbiterRequest::SetPosition { bfen } => ArbiterAct::SetPosition { bfen },
        ArbiterRequest::DeclareResult { winner, reason } => ArbiterAct::DeclareResult {
            result: match winner {
                Some(TeamId::One) => MatchResult::Win(Team::One),
                Some(TeamId::Two) => MatchResult::Win(Team::Two),
                None => MatchResult::Draw,
            },
            note: note(reason)?,
        },
        ArbiterRequest::Annul { reason } => ArbiterAct::Annul { note: note(reason)? },
        // The arbiter's words are optional here: the reason is typed.
        ArbiterRequest::Replay { reason, note: words } => ArbiterAct::Replay {
            reason: replay_reason(reason),
            note: if words.is_empty() { words } else { note(words)? },
        },
    })
}
