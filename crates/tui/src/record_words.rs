//! What `shvedka arbiter show` prints, in the reader's language: the instant, the moves made,
//! the acts with who made them, the match time and why the clocks stand, the boards and the
//! seats. The facts come from the records crate's timeline; the words from the catalogues.

use shvedka_records::{Act, ActKind, Wrong};

use crate::explain::{draw_cause, seat, speak_seat, who};
use crate::i18n::{Lang, t};
use crate::speak;

fn seat_of(lang: Lang, s: bughouse::Seat) -> String {
    speak::seat_of(lang, speak_seat(s))
}

/// The instant shown: after a move, at a time, or the end.
pub enum Instant<'a> {
    /// `--after-move N`.
    AfterMove(usize, &'a str),
    /// `--at TIME`, formatted.
    At(&'a str),
    /// No instant: the end.
    End,
}

/// The first line.
pub fn header(lang: Lang, i: &Instant) -> String {
    match i {
        Instant::AfterMove(0, _) => t!(lang, "show-after-start"),
        Instant::AfterMove(n, label) => t!(lang, "show-after-move", n = *n, label = *label),
        Instant::At(time) => t!(lang, "show-at", time = *time),
        Instant::End => t!(lang, "show-end"),
    }
}

/// `moves made: 6 of 8, the last 2a. Qxd5`.
pub fn moves_made(lang: Lang, n: usize, total: usize, last: Option<&str>) -> String {
    match last {
        Some(label) => t!(lang, "show-moves-made", n = n, total = total, last = label),
        None => t!(lang, "show-no-moves-made", total = total),
    }
}

/// A move the rules refuse, shown as it was made.
pub fn impossible(lang: Lang, label: &str, why: &Wrong) -> String {
    t!(lang, "show-impossible", label = label, why = crate::wrong_words::wrong(lang, why))
}

/// The record's commentary after a move.
pub fn note(lang: Lang, label: &str, text: &str) -> String {
    t!(lang, "show-note", label = label, text = text)
}

/// An act the timeline could not apply.
pub fn act_failed(lang: Lang, why: &Wrong) -> String {
    t!(lang, "show-act-failed", why = crate::wrong_words::wrong(lang, why))
}

/// An act with its time: `act at 0:12.228: arbiter alice added 1:00.000 on white-A's clock (A2)`.
pub fn act(lang: Lang, at: Option<&str>, act: &Act, ending: Option<&str>) -> String {
    let what = describe(lang, act, ending);
    match at {
        Some(at) => t!(lang, "show-act-at", at = at, what = what),
        None => t!(lang, "show-act", what = what),
    }
}

/// `1:00.000`.
fn amount(ms: u64) -> String {
    format!("{}:{:02}.{:03}", ms / 60_000, ms / 1000 % 60, ms % 1000)
}

/// An act in words; `ending` is the record's reason for the end.
fn describe(lang: Lang, act: &Act, ending: Option<&str>) -> String {
    let w = who(lang, act.by.as_deref());
    match &act.kind {
        ActKind::Played(m) => t!(lang, "show-act-played", label = m.label()),
        ActKind::TakeBack { board, .. } => t!(lang, "show-act-takeback", who = w, board = board.to_string()),
        ActKind::Adjust { seat: s, delta_ms } if *delta_ms >= 0 => {
            t!(
                lang,
                "show-act-added",
                who = w,
                amount = amount(delta_ms.unsigned_abs()),
                seat = seat_of(lang, *s)
            )
        }
        ActKind::Adjust { seat: s, delta_ms } => {
            t!(
                lang,
                "show-act-removed",
                who = w,
                amount = amount(delta_ms.unsigned_abs()),
                seat = seat_of(lang, *s)
            )
        }
        ActKind::SetPosition { position } => {
            t!(lang, "show-act-position", who = w, position = position.as_str())
        }
        // The server's own pause is no arbiter's act (A2): a restart or a take-over (K6).
        ActKind::Pause if act.by.as_deref() == Some("(server)") => t!(lang, "show-act-pause-server"),
        ActKind::Pause => t!(lang, "show-act-pause", who = w),
        ActKind::Resume => t!(lang, "show-act-resume", who = w),
        ActKind::Flag { seat: s } => t!(lang, "show-act-flag", seat = seat_of(lang, *s)),
        ActKind::Resign { seat: s } => t!(lang, "show-act-resign", seat = seat(lang, *s)),
        ActKind::Draw { board, cause } => {
            t!(lang, "show-act-draw", board = board.to_string(), why = draw_cause(lang, *cause))
        }
        ActKind::Call { seat: s, replay: None } => t!(lang, "show-act-call", seat = seat(lang, *s)),
        ActKind::Call { seat: s, replay: Some(cause) } => {
            t!(lang, "show-act-call-replay", seat = seat(lang, *s), rule = cause.rule())
        }
        ActKind::Replay { cause, note } if note.is_empty() => {
            t!(lang, "show-act-replay", who = w, rule = cause.rule())
        }
        ActKind::Replay { cause, note } => {
            t!(lang, "show-act-replay-note", who = w, rule = cause.rule(), note = note.as_str())
        }
        ActKind::Start => t!(lang, "show-act-start"),
        ActKind::Result { outcome, note } if note.is_empty() => {
            t!(
                lang,
                "show-act-result",
                who = w,
                result = shvedka_records::RecordResult::new(*outcome).token()
            )
        }
        ActKind::Result { outcome, note } => t!(
            lang,
            "show-act-result-note",
            who = w,
            result = shvedka_records::RecordResult::new(*outcome).token(),
            note = note.as_str()
        ),
        ActKind::Annul { note } if note.is_empty() => t!(lang, "show-act-annul", who = w),
        ActKind::Annul { note } => t!(lang, "show-act-annul-note", who = w, note = note.as_str()),
        ActKind::End => match ending {
            Some(reason) => t!(lang, "show-act-end-why", why = reason),
            None => t!(lang, "show-act-end"),
        },
    }
}

/// Why the clocks stand at the instant, if they do.
pub enum Stopped<'a> {
    /// They run.
    No,
    /// By a mate on board at this time (E1; a record with no end).
    Mate(&'a str),
    /// The match ended at this time.
    Ended(&'a str),
    /// A pause or a call since this time (K5).
    Paused(&'a str),
}

/// `match time: 0:12.300 (clocks stopped at 0:10.115: paused, K5)`.
pub fn match_time(lang: Lang, time: &str, stopped: &Stopped) -> String {
    match stopped {
        Stopped::No => t!(lang, "show-time", time = time),
        Stopped::Mate(at) => t!(lang, "show-time-mate", time = time, at = *at),
        Stopped::Ended(at) => t!(lang, "show-time-ended", time = time, at = *at),
        Stopped::Paused(at) => t!(lang, "show-time-paused", time = time, at = *at),
    }
}

/// Why a record gives no match times.
pub enum Untimed<'a> {
    /// The `TimeControl` tag, which gives no base time.
    NoBase(&'a str),
    /// A move without its clock comment.
    NoClock(&'a str),
    /// Some moves or acts have their times, others not.
    Incomplete,
}

/// The words for [`Untimed`].
pub fn untimed(lang: Lang, why: &Untimed) -> String {
    match why {
        Untimed::NoBase(tc) => t!(lang, "show-untimed-no-base", tc = format!("{tc:?}")),
        Untimed::NoClock(label) => t!(lang, "show-untimed-no-clock", label = *label),
        Untimed::Incomplete => t!(lang, "show-untimed-incomplete"),
    }
}

/// `match time: unknown (…); clocks as last recorded`.
pub fn match_time_unknown(lang: Lang, why: &Untimed) -> String {
    t!(lang, "show-time-unknown", why = untimed(lang, why))
}

/// `--at` without times.
pub fn at_needs_times(lang: Lang, file: &str, why: &Untimed) -> String {
    t!(lang, "show-at-needs-times", file = file, why = untimed(lang, why))
}

/// `board A: white-A to move, mate on board: no`.
pub fn board_line(lang: Lang, board: bughouse::BoardId, to_move: bughouse::Seat, mated: bool) -> String {
    let b = board.to_string();
    if mated {
        t!(lang, "show-board-mated", board = b, seat = seat(lang, to_move))
    } else {
        t!(lang, "show-board", board = b, seat = seat(lang, to_move))
    }
}

/// `white-A (Anna): clock 2:59.750 running, reserve -`.
pub fn seat_line(
    lang: Lang,
    s: bughouse::Seat,
    player: Option<&str>,
    clock: &str,
    running: bool,
    fallen: bool,
    reserve: &str,
) -> String {
    let state = match (running, fallen) {
        (_, true) => t!(lang, "show-clock-fallen"),
        (true, false) => t!(lang, "show-clock-running"),
        (false, false) => String::new(),
    };
    let who = match player {
        Some(p) => t!(lang, "show-seat-player", seat = seat(lang, s), player = p),
        None => seat(lang, s),
    };
    t!(lang, "show-seat", who = who, clock = clock, state = state, reserve = reserve)
}

/// `95300` → `1:35.300`: a clock or a match time as every record reader writes it (minutes,
/// seconds, milliseconds; minutes are not wrapped into hours).
pub fn clock(ms: u64) -> String {
    format!("{}:{:02}.{:03}", ms / 60_000, ms / 1000 % 60, ms % 1000)
}

/// `-1500` → `-0:01.500`: a match time, negative before the clocks start.
pub fn signed_clock(ms: i64) -> String {
    let sign = if ms < 0 { "-" } else { "" };
    format!("{sign}{}", clock(ms.unsigned_abs()))
}
