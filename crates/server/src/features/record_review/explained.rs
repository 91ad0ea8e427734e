//! A record's explanation (the records crate's [`Explanation`]) as the wire carries it
//! (`ExplanationView`, version 13): the same codes `shvedka arbiter explain` says, for the web
//! reviews to say in the reader's language.

use bughouse::{MatchResult, Team};
use shvedka_proto::{ExplainedLine, ExplanationView, HappeningView, Outcome, TeamId, WeighingView};
use shvedka_records::{Explanation, Happening, Weighing};

use crate::service::convert::{seat_id, wire_board};

/// The most lines an explanation carries; past it the last ones (the end) are kept.
pub(crate) const MOST_LINES: usize = 40;

/// The most characters of an arbiter's note an explanation carries (the record has it whole):
/// with [`MOST_LINES`] the explanation stays a small part of the first page's frame.
pub(crate) const MOST_NOTE_CHARS: usize = 200;

fn note(text: &str) -> String {
    match text.char_indices().nth(MOST_NOTE_CHARS) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text.to_owned(),
    }
}

fn team(t: Team) -> TeamId {
    if t == Team::One { TeamId::One } else { TeamId::Two }
}

fn winner(outcome: MatchResult) -> Option<TeamId> {
    match outcome {
        MatchResult::Win(t) => Some(team(t)),
        MatchResult::Draw => None,
    }
}

fn happening(h: &Happening) -> HappeningView {
    match h {
        Happening::Mate { mated, by } => HappeningView::Mate { mated: seat_id(*mated), by: by.clone() },
        Happening::Flag { seat } => HappeningView::Flag { seat: seat_id(*seat) },
        Happening::Resigned { seat } => HappeningView::Resigned { seat: seat_id(*seat) },
        Happening::FlagWithdrawnByCredit { seat, by, credit_ms } => HappeningView::FlagWithdrawnByCredit {
            seat: seat_id(*seat),
            by: by.clone(),
            credit_ms: *credit_ms,
        },
        Happening::FlagWithdrawnByArbiter { seat, by } => {
            HappeningView::FlagWithdrawnByArbiter { seat: seat_id(*seat), by: by.clone() }
        }
        Happening::Draw { board, cause } => {
            HappeningView::Draw { board: wire_board(*board), rule: cause.rule().to_owned() }
        }
        Happening::Declared { outcome, note, by } => {
            HappeningView::Declared { winner: winner(*outcome), note: self::note(note), by: by.clone() }
        }
        Happening::Annulled { note, by } => {
            HappeningView::Annulled { note: self::note(note), by: by.clone() }
        }
        Happening::Ended => HappeningView::Ended,
    }
}

fn weighing(w: Weighing) -> WeighingView {
    match w {
        Weighing::MateOverFlag => WeighingView::MateOverFlag,
        Weighing::MateOverDraw => WeighingView::MateOverDraw,
        Weighing::MatesOfBothTeams => WeighingView::MatesOfBothTeams,
        Weighing::DrawOverFlag => WeighingView::DrawOverFlag,
        Weighing::FlagsOfBothTeams => WeighingView::FlagsOfBothTeams,
        Weighing::FlagsOfOneTeam => WeighingView::FlagsOfOneTeam,
    }
}

/// The wire's view of `e`.
pub(crate) fn view(e: &Explanation) -> ExplanationView {
    let skip = e.lines.len().saturating_sub(MOST_LINES);
    ExplanationView {
        outcome: e.outcome.map(|o| match o {
            MatchResult::Win(t) => Outcome::Win(team(t)),
            MatchResult::Draw => Outcome::Draw,
        }),
        rule: e.rule.clone(),
        lines: e.lines[skip..]
            .iter()
            .map(|l| ExplainedLine { at_ms: l.at_ms, in_window: l.in_window, what: happening(&l.what) })
            .collect(),
        weighing: e.weighing.iter().copied().map(weighing).collect(),
        rules: e.rules.clone(),
    }
}
