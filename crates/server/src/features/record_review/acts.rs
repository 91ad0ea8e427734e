//! A reviewed record's acts as the wire carries them (`ReviewedAct`, version 13): each with the
//! boards, clocks and running clocks after it, so the web review steps through the record as the
//! players had it — a move later taken back, the take-back, a corrected position, a pause — the
//! same replay as `shvedka arbiter show`.

use shvedka_proto::{ActView, ArbiterRequest, ReplayReason, ReviewedAct, TeamId};
use shvedka_records::{ActKind, ReplayCause, Step, StepKind, Timeline};

use super::count;
use crate::service::convert::{seat_id, wire_board};

fn view(kind: &ActKind, bfen: &str) -> Option<ActView> {
    let arbiter = |r| Some(ActView::Arbiter(r));
    match kind {
        ActKind::Played(m) => Some(ActView::Played { seat: seat_id(m.seat()), text: m.text.clone() }),
        ActKind::TakeBack { board, .. } => arbiter(ArbiterRequest::TakeBack { board: wire_board(*board) }),
        ActKind::Adjust { seat, delta_ms } => {
            arbiter(ArbiterRequest::AdjustClock { seat: seat_id(*seat), delta_ms: *delta_ms })
        }
        ActKind::SetPosition { .. } => arbiter(ArbiterRequest::SetPosition { bfen: bfen.to_owned() }),
        ActKind::Pause => arbiter(ArbiterRequest::Pause),
        ActKind::Resume => arbiter(ArbiterRequest::Resume),
        ActKind::Result { outcome, note } => arbiter(ArbiterRequest::DeclareResult {
            winner: match outcome {
                bughouse::MatchResult::Win(bughouse::Team::One) => Some(TeamId::One),
                bughouse::MatchResult::Win(bughouse::Team::Two) => Some(TeamId::Two),
                bughouse::MatchResult::Draw => None,
            },
            reason: note.clone(),
        }),
        ActKind::Annul { note } => arbiter(ArbiterRequest::Annul { reason: note.clone() }),
        ActKind::Replay { cause, note } => arbiter(ArbiterRequest::Replay {
            reason: match cause {
                ReplayCause::WrongSetup => ReplayReason::WrongSetup,
                ReplayCause::OutsideHint => ReplayReason::OutsideHint,
                ReplayCause::Other => ReplayReason::Other,
            },
            note: note.clone(),
        }),
        ActKind::Flag { seat } => Some(ActView::Flag { seat: seat_id(*seat) }),
        ActKind::Call { seat, .. } => Some(ActView::Call { seat: seat_id(*seat) }),
        ActKind::Draw { board, .. } => Some(ActView::Draw { board: wire_board(*board) }),
        ActKind::Resign { seat } => Some(ActView::Resign { seat: seat_id(*seat) }),
        ActKind::Start => Some(ActView::Start),
        ActKind::End => Some(ActView::End),
    }
}

/// The act steps of `timeline`, each with how many of the record's moves came before it.
pub(super) fn act_steps(timeline: &Timeline) -> Vec<(usize, &Step)> {
    timeline
        .steps()
        .iter()
        .filter(|s| matches!(s.kind, StepKind::Act(_)))
        .map(|s| (s.moves_made, s))
        .collect()
}

/// The wire's view of an act step.
pub(super) fn reviewed(after_moves: usize, step: &Step) -> Option<ReviewedAct> {
    let StepKind::Act(act) = &step.kind else { return None };
    let bfen = step.game.bfen();
    Some(ReviewedAct {
        after_moves: count(after_moves),
        at_ms: step.at_ms,
        what: view(&act.kind, &bfen)?,
        bfen,
        clocks_ms: step.clocks.0,
        running: step.running,
    })
}
