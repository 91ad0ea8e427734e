//! `shvedka arbiter check-record` in the reader's language: each impossible move of a record
//! (RULES.md A1) said from the check's codes — its type, rule (with the rule's title), what A1
//! prescribes and what it says when the move is noticed later. The check's own detail of what is
//! wrong (`no pawn in white-B's reserve`) is English from the rules crates; the English catalogue
//! says it, the Russian one names the rule's title instead.

use shvedka_records::{CheckReport, Impossible, ImpossibleKind, Later, Record};

use crate::explain::{speak_seat, team};
use crate::i18n::{Lang, t};
use crate::speak;

/// The report, one line per finding, or one line saying there is none.
pub fn report(lang: Lang, record: &Record, report: &CheckReport) -> Vec<String> {
    if report.is_clean() {
        return vec![t!(lang, "check-clean")];
    }
    let mut lines: Vec<String> = report.impossible.iter().map(|i| finding(lang, record, i)).collect();
    if let Some(u) = &report.unreadable {
        lines.push(t!(lang, "check-unreadable", label = u.label.as_str(), why = u.reason.as_str()));
    }
    lines
}

/// The exit's message when the check found an impossible move.
pub fn found(lang: Lang) -> String {
    t!(lang, "check-found")
}

/// One impossible move.
fn finding(lang: Lang, record: &Record, i: &Impossible) -> String {
    let seat = record.moves.get(i.index).map(|m| m.seat());
    let consequence = match (i.kind, seat) {
        (ImpossibleKind::Type1, Some(s)) => {
            t!(lang, "check-type1-loses", seat = speak::seat_of(lang, speak_seat(s)))
        }
        (ImpossibleKind::Type2, Some(s)) => {
            t!(lang, "check-type2-taken-back", team = team(lang, s.team().other()))
        }
        (_, None) => i.consequence.clone(),
    };
    let later = match &i.later {
        Later::Stands => t!(lang, "check-later-stands"),
        Later::LegalAgain { label, .. } => t!(lang, "check-later-legal-again", label = label.as_str()),
        Later::ArbiterDecides { why } => t!(lang, "check-later-arbiter", why = why.as_str()),
    };
    let title = speak::rule_title(lang, &i.rule).unwrap_or_else(|| i.rule.clone());
    t!(
        lang,
        "check-impossible",
        label = i.label.as_str(),
        kind = i.kind.number(),
        rule = i.rule.as_str(),
        title = title,
        reason = i.reason.as_str(),
        consequence = consequence,
        later = later
    )
}
