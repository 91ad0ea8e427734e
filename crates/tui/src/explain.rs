//! A ruling explained in the reader's language (`shvedka arbiter explain`): the records crate's
//! [`shvedka_records::Explanation`] — codes and parameters — said line by line from the
//! catalogues, each rule id with its title.

use shvedka_records::{Explanation, Happening, Line, Weighing};

use crate::i18n::{Lang, t};
use crate::speak;

/// `95300` → `1:35.300`; `None` → `?:??`.
fn time(at_ms: Option<i64>) -> String {
    match at_ms {
        Some(ms) => {
            let sign = if ms < 0 { "-" } else { "" };
            let ms = ms.unsigned_abs();
            format!("{sign}{}:{:02}.{:03}", ms / 60_000, ms / 1000 % 60, ms % 1000)
        }
        None => "?:??".to_owned(),
    }
}

/// Who made an act, as the record names him.
pub(crate) fn who(lang: Lang, by: Option<&str>) -> String {
    match by {
        None => t!(lang, "explain-who-arbiter"),
        Some("(secret)") => t!(lang, "explain-who-secret"),
        Some("(server)") => t!(lang, "explain-who-server"),
        Some(name) => t!(lang, "explain-who-named", name = name),
    }
}

pub(crate) fn seat(lang: Lang, seat: bughouse::Seat) -> String {
    speak::seat(lang, speak_seat(seat))
}

/// The wire's seat for a rules seat.
pub(crate) fn speak_seat(seat: bughouse::Seat) -> shvedka_proto::SeatId {
    shvedka_proto::SeatId::ALL[seat.index()]
}

pub(crate) fn team(lang: Lang, team: bughouse::Team) -> String {
    speak::team(
        lang,
        if team == bughouse::Team::One { shvedka_proto::TeamId::One } else { shvedka_proto::TeamId::Two },
    )
}

/// Why a board drew: `repetition, E4`.
pub(crate) fn draw_cause(lang: Lang, cause: shvedka_records::DrawCause) -> String {
    use shvedka_records::DrawCause;
    match cause {
        DrawCause::Agreed => t!(lang, "draw-agreed"),
        DrawCause::Repetition => t!(lang, "draw-repetition"),
        DrawCause::MoveRule => t!(lang, "draw-move-rule"),
        DrawCause::Stalemate => t!(lang, "draw-stalemate"),
    }
}

/// One line of what happened.
fn line(lang: Lang, l: &Line) -> String {
    let at = time(l.at_ms);
    let text = match &l.what {
        Happening::Mate { mated, by } => {
            t!(lang, "explain-mate", at = at, by = by.as_str(), seat = seat(lang, *mated))
        }
        Happening::Resigned { seat: s } => t!(lang, "explain-resigned", at = at, seat = seat(lang, *s)),
        Happening::Draw { board, cause } => {
            t!(lang, "explain-draw", at = at, board = board.to_string(), why = draw_cause(lang, *cause))
        }
        Happening::Flag { seat: s } => {
            t!(lang, "explain-flag", at = at, seat = speak::seat_of(lang, speak_seat(*s)))
        }
        Happening::FlagWithdrawnByCredit { seat: s, by, credit_ms } => t!(
            lang,
            "explain-flag-credit",
            at = at,
            by = by.as_str(),
            seat = speak::seat_of(lang, speak_seat(*s)),
            credit = format!("{}.{:03}", credit_ms / 1000, credit_ms % 1000)
        ),
        Happening::FlagWithdrawnByArbiter { seat: s, by } => {
            t!(lang, "explain-flag-arbiter", at = at, who = who(lang, by.as_deref()), seat = seat(lang, *s))
        }
        Happening::Declared { outcome: bughouse::MatchResult::Win(w), note, by } => t!(
            lang,
            "explain-declared-win",
            at = at,
            who = who(lang, by.as_deref()),
            team = team(lang, *w),
            note = note.as_str()
        ),
        Happening::Declared { outcome: bughouse::MatchResult::Draw, note, by } => {
            t!(lang, "explain-declared-draw", at = at, who = who(lang, by.as_deref()), note = note.as_str())
        }
        Happening::Annulled { note, by } => {
            t!(lang, "explain-annulled", at = at, who = who(lang, by.as_deref()), note = note.as_str())
        }
        Happening::Ended => t!(lang, "explain-ended", at = at),
    };
    if l.in_window { t!(lang, "explain-in-window", line = text) } else { text }
}

/// A rule id with its title: `E6 (a flag counts only without a mate)`.
fn rule(lang: Lang, id: &str) -> String {
    match speak::rule_title(lang, id) {
        Some(title) => format!("{id} ({title})"),
        None => id.to_owned(),
    }
}

/// The explanation, line by line: the result, what happened, how it was weighed, the rules.
pub fn explanation(lang: Lang, e: &Explanation) -> Vec<String> {
    let mut out = Vec::new();
    let rule_id = e.rule.as_deref().unwrap_or("?");
    out.push(match e.outcome {
        Some(bughouse::MatchResult::Win(w)) => {
            t!(lang, "explain-result-win", team = team(lang, w), rule = rule_id)
        }
        Some(bughouse::MatchResult::Draw) => t!(lang, "explain-result-draw", rule = rule_id),
        None => t!(lang, "explain-no-result"),
    });
    if e.lines.is_empty() {
        out.push(t!(lang, "explain-nothing"));
    }
    out.extend(e.lines.iter().map(|l| line(lang, l)));
    for w in &e.weighing {
        out.push(match w {
            Weighing::MateOverFlag => t!(lang, "explain-weigh-mate-flag"),
            Weighing::MateOverDraw => t!(lang, "explain-weigh-mate-draw"),
            Weighing::MatesOfBothTeams => t!(lang, "explain-weigh-mates"),
            Weighing::DrawOverFlag => t!(lang, "explain-weigh-draw-flag"),
            Weighing::FlagsOfBothTeams => t!(lang, "explain-weigh-flags-both"),
            Weighing::FlagsOfOneTeam => t!(lang, "explain-weigh-flags-one"),
        });
    }
    if !e.rules.is_empty() {
        let rules: Vec<String> = e.rules.iter().map(|r| rule(lang, r)).collect();
        out.push(t!(lang, "explain-rules", rules = rules.join(", ")));
    }
    out
}
