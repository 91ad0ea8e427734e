//! `shvedka arbiter check-record` in the reader's language: each impossible move of a record
//! (RULES.md A1) said from the check's codes — its type, rule, what A1
//! prescribes and what it says when the move is noticed later, with what is wrong (`no pawn in
//! white-B's reserve`) said from the check's facts ([`crate::wrong_words`]).

use shvedka_records::{CheckReport, Impossible, ImpossibleKind, Later, Record};

use crate::explain::{speak_seat, team};
use crate::i18n::{Lang, t};
use crate::{speak, wrong_words};

/// The report, one line per finding, or one line saying there is none.
pub fn report(lang: Lang, record: &Record, report: &CheckReport) -> Vec<String> {
    if report.is_clean() {
        return vec![t!(lang, "check-clean")];
    }
    let mut lines: Vec<String> = report.impossible.iter().map(|i| finding(lang, record, i)).collect();
    if let Some(u) = &report.unreadable {
        let (label, why) = wrong_words::not_read(lang, record, &u.what);
        lines.push(t!(lang, "check-unreadable", label = label, why = why));
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
        Later::ArbiterDecides { why } => {
            t!(lang, "check-later-arbiter", why = wrong_words::undecided(lang, why))
        }
    };
    t!(
        lang,
        "check-impossible",
        label = i.label.as_str(),
        kind = i.kind.number(),
        rule = i.rule.as_str(),
        reason = wrong_words::wrong(lang, &i.why),
        consequence = consequence,
        later = later
    )
}
