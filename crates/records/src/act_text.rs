//! The written form of acts and match times inside BPGN comments (docs/bpgn.md): PGN's embedded
//! command syntax, `[%name …]`, which every PGN and BPGN reader skips as part of a comment.
//!
//! - `{[%mt 12.345]}` after a move: the match time it was made, in seconds from the start of the
//!   clocks;
//! - `{[%act VERB key=value …]}` at its place among the moves: an act ([`Act`]). The keys `t`
//!   (match time), `by` (who) and `clocks` (the four readings after it, in seat order) may come
//!   with every verb; the others belong to one verb. A value with a space, a quote or a `]` is
//!   quoted, `"…"`, with `\"` and `\\` inside.
//!
//! Reading is strict: an `[%act]` that does not read is an error naming what was expected, so a
//! record never silently loses an act. Other commands (`[%clk …]`, `[%eval …]`) stay commentary.

use bughouse::{BoardId, Seat};
use chess_core::Color;

use crate::act::RecordMove;
use crate::act::{Act, ActKind, DrawCause, ReplayCause};
use crate::clock::{format_seconds, parse_seconds};
use crate::result::{outcome_token, parse_token};

/// `12345` → `12.345`, `-1500` → `-1.500`.
pub(crate) fn format_signed(ms: i64) -> String {
    let sign = if ms < 0 { "-" } else { "" };
    format!("{sign}{}", format_seconds(ms.unsigned_abs()))
}

/// Reads `12.345`, `-1.5`, `+60`.
pub(crate) fn parse_signed(text: &str) -> Option<i64> {
    let (negative, digits) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text.strip_prefix('+').unwrap_or(text)),
    };
    let ms = i64::try_from(parse_seconds(digits)?).ok()?;
    Some(if negative { -ms } else { ms })
}

/// A value as written: bare when it can be, else quoted.
fn value(text: &str) -> String {
    let bare =
        !text.is_empty() && !text.chars().any(|c| c.is_whitespace() || matches!(c, '"' | ']' | '\\' | '='));
    if bare { text.to_owned() } else { format!("\"{}\"", text.replace('\\', "\\\\").replace('"', "\\\"")) }
}

/// `white-A` … `black-B`.
pub(crate) fn parse_seat(text: &str) -> Option<Seat> {
    Seat::ALL.into_iter().find(|s| s.to_string() == text)
}

/// The command for a move's match time, and its lag credit when it has one.
pub(crate) fn write_mt(ms: i64, credit_ms: Option<u64>) -> String {
    match credit_ms {
        Some(c) => format!("[%mt {} lag={}]", format_signed(ms), format_seconds(c)),
        None => format!("[%mt {}]", format_signed(ms)),
    }
}

/// The command for an act.
pub(crate) fn write_act(act: &Act) -> String {
    let mut words = vec!["[%act".to_owned(), verb(&act.kind).to_owned()];
    if let Some(t) = act.at_ms {
        words.push(format!("t={}", format_signed(t)));
    }
    if let Some(by) = &act.by {
        words.push(format!("by={}", value(by)));
    }
    let mut key = |k: &str, v: String| words.push(format!("{k}={v}"));
    match &act.kind {
        ActKind::Played(m) => {
            key("move", value(&m.label()));
            if let Some(ms) = m.clock_ms {
                key("clock", format_seconds(ms));
            }
            if let Some(ms) = m.at_ms {
                key("mt", format_signed(ms));
            }
            if let Some(ms) = m.credit_ms {
                key("lag", format_seconds(ms));
            }
            if let Some(c) = &m.comment {
                key("note", value(c));
            }
        }
        ActKind::TakeBack { board, position } => {
            key("board", board.to_string());
            if let Some(p) = position {
                key("position", value(p));
            }
        }
        ActKind::Adjust { seat, delta_ms } => {
            key("seat", seat.to_string());
            let sign = if *delta_ms >= 0 { "+" } else { "" };
            key("delta", format!("{sign}{}", format_signed(*delta_ms)));
        }
        ActKind::SetPosition { position } => key("position", value(position)),
        ActKind::Flag { seat } | ActKind::Resign { seat } => key("seat", seat.to_string()),
        ActKind::Draw { board, cause } => {
            key("board", board.to_string());
            key("reason", cause.code().to_owned());
        }
        ActKind::Call { seat, replay } => {
            key("seat", seat.to_string());
            if let Some(c) = replay {
                key("replay", c.code().to_owned());
            }
        }
        ActKind::Replay { cause, note } => {
            key("reason", cause.code().to_owned());
            if !note.is_empty() {
                key("note", value(note));
            }
        }
        ActKind::Result { outcome, note } => {
            key("result", outcome_token(*outcome).to_owned());
            if !note.is_empty() {
                key("note", value(note));
            }
        }
        ActKind::Annul { note } => {
            if !note.is_empty() {
                key("note", value(note));
            }
        }
        ActKind::Pause | ActKind::Resume | ActKind::Start | ActKind::End => {}
    }
    if let Some(c) = act.clocks {
        words.push(format!("clocks={}", c.map(format_seconds).join(",")));
    }
    format!("{}]", words.join(" "))
}

/// The verb an act is written with: `takeback`, `position`.
pub(crate) fn verb(kind: &ActKind) -> &'static str {
    match kind {
        ActKind::Played(_) => "played",
        ActKind::TakeBack { .. } => "takeback",
        ActKind::Adjust { .. } => "adjust",
        ActKind::SetPosition { .. } => "position",
        ActKind::Pause => "pause",
        ActKind::Resume => "resume",
        ActKind::Flag { .. } => "flag",
        ActKind::Draw { .. } => "draw",
        ActKind::Resign { .. } => "resign",
        ActKind::Call { .. } => "call",
        ActKind::Replay { .. } => "replay",
        ActKind::Start => "start",
        ActKind::Result { .. } => "result",
        ActKind::Annul { .. } => "annul",
        ActKind::End => "end",
    }
}

/// What a comment holds: its commands read, and the rest as commentary.
#[derive(Debug, Default, PartialEq, Eq)]
pub(crate) struct CommentParts {
    /// The `[%mt]` time, if any.
    pub(crate) mt: Option<i64>,
    /// The `[%mt]` lag credit, if any.
    pub(crate) lag: Option<u64>,
    /// The acts, in order.
    pub(crate) acts: Vec<Act>,
    /// The rest, whitespace collapsed (other commands included); empty if none.
    pub(crate) text: String,
}

/// Splits a comment (whitespace already collapsed) into its commands and its text. `Err` names
/// what an `[%act]` or `[%mt]` lacked.
pub(crate) fn read_comment(comment: &str) -> Result<CommentParts, String> {
    let mut parts = CommentParts::default();
    let mut rest = Vec::new();
    let mut s = comment;
    while let Some(open) = s.find("[%") {
        rest.push(&s[..open]);
        let body_start = open + 2;
        let close = command_end(&s[body_start..])
            .ok_or_else(|| format!("a ']' closing the command {:?}", truncate(&s[open..])))?;
        let body = &s[body_start..body_start + close];
        let whole = &s[open..body_start + close + 1];
        let (name, args) = body.split_once(' ').unwrap_or((body, ""));
        match name {
            "mt" => {
                let mut words = args.split_whitespace();
                let time = words.next().unwrap_or("");
                parts.mt =
                    Some(parse_signed(time).ok_or_else(|| format!("seconds after [%mt, found {time:?}"))?);
                for word in words {
                    let lag = word.strip_prefix("lag=").and_then(parse_seconds);
                    parts.lag = Some(lag.ok_or_else(|| format!("lag=SECONDS in [%mt], found {word:?}"))?);
                }
            }
            "act" => parts.acts.push(read_act(args)?),
            _ => rest.push(whole),
        }
        s = &s[body_start + close + 1..];
    }
    rest.push(s);
    parts.text = crate::lexer::normalize(&rest.concat());
    Ok(parts)
}

fn truncate(s: &str) -> String {
    s.chars().take(40).collect()
}

/// Where a command's body ends (the byte offset of its `]`), quotes respected.
fn command_end(body: &str) -> Option<usize> {
    let mut quoted = false;
    let mut escaped = false;
    for (i, c) in body.char_indices() {
        match c {
            _ if escaped => escaped = false,
            '\\' if quoted => escaped = true,
            '"' => quoted = !quoted,
            ']' if !quoted => return Some(i),
            _ => {}
        }
    }
    None
}

/// Splits `verb k=v k="v w"` into the verb and its pairs.
fn words(args: &str) -> Result<(String, Vec<(String, String)>), String> {
    let mut chars = args.trim().chars().peekable();
    let mut verb = String::new();
    while let Some(&c) = chars.peek() {
        if c == ' ' {
            break;
        }
        verb.push(c);
        chars.next();
    }
    let mut pairs = Vec::new();
    loop {
        while chars.peek() == Some(&' ') {
            chars.next();
        }
        if chars.peek().is_none() {
            break;
        }
        let mut key = String::new();
        while let Some(&c) = chars.peek() {
            if c == '=' || c == ' ' {
                break;
            }
            key.push(c);
            chars.next();
        }
        if chars.next() != Some('=') {
            return Err(format!("key=value after [%act {verb}, found {key:?}"));
        }
        let mut val = String::new();
        if chars.peek() == Some(&'"') {
            chars.next();
            loop {
                match chars.next() {
                    Some('\\') => val.extend(chars.next()),
                    Some('"') => break,
                    Some(c) => val.push(c),
                    None => return Err(format!("a closing quote for {key}= in [%act {verb}")),
                }
            }
        } else {
            while let Some(&c) = chars.peek() {
                if c == ' ' {
                    break;
                }
                val.push(c);
                chars.next();
            }
        }
        pairs.push((key, val));
    }
    Ok((verb, pairs))
}

/// The value of a key an act needs.
fn need<'a>(pairs: &'a [(String, String)], verb: &str, key: &str) -> Result<&'a str, String> {
    find(pairs, key).ok_or_else(|| format!("{key}= in [%act {verb}]"))
}

fn find<'a>(pairs: &'a [(String, String)], key: &str) -> Option<&'a str> {
    pairs.iter().find(|(k, _)| k == key).map(|(_, v)| v.as_str())
}

fn bad(verb: &str, key: &str, expected: &str, found: &str) -> String {
    format!("{expected} as {key}= of [%act {verb}], found {found:?}")
}

/// Reads the arguments of `[%act …]`.
fn read_act(args: &str) -> Result<Act, String> {
    let (verb, pairs) = words(args)?;
    let v = verb.as_str();
    let seat = |key: &str| -> Result<Seat, String> {
        let text = need(&pairs, v, key)?;
        parse_seat(text).ok_or_else(|| bad(v, key, "a seat white-A, black-A, white-B or black-B", text))
    };
    let note = || find(&pairs, "note").unwrap_or("").to_owned();
    let board = || -> Result<BoardId, String> {
        let text = need(&pairs, v, "board")?;
        match text {
            "A" => Ok(BoardId::A),
            "B" => Ok(BoardId::B),
            _ => Err(bad(v, "board", "a board A or B", text)),
        }
    };
    let kind = match v {
        "played" => ActKind::Played(Box::new(read_played(&pairs)?)),
        "takeback" => {
            ActKind::TakeBack { board: board()?, position: find(&pairs, "position").map(str::to_owned) }
        }
        "draw" => {
            let text = need(&pairs, v, "reason")?;
            let cause = DrawCause::from_code(text)
                .ok_or_else(|| bad(v, "reason", "agreed, repetition, move-rule or stalemate", text))?;
            ActKind::Draw { board: board()?, cause }
        }
        "adjust" => {
            let text = need(&pairs, v, "delta")?;
            let delta_ms =
                parse_signed(text).ok_or_else(|| bad(v, "delta", "signed seconds (+60.000)", text))?;
            ActKind::Adjust { seat: seat("seat")?, delta_ms }
        }
        "position" => ActKind::SetPosition { position: need(&pairs, v, "position")?.to_owned() },
        "pause" => ActKind::Pause,
        "resume" => ActKind::Resume,
        "start" => ActKind::Start,
        "end" => ActKind::End,
        "flag" => ActKind::Flag { seat: seat("seat")? },
        "resign" => ActKind::Resign { seat: seat("seat")? },
        "call" => {
            let replay = match find(&pairs, "replay") {
                None => None,
                Some(text) => Some(
                    ReplayCause::from_code(text)
                        .ok_or_else(|| bad(v, "replay", "wrong-setup, outside-hint or other", text))?,
                ),
            };
            ActKind::Call { seat: seat("seat")?, replay }
        }
        "replay" => {
            let text = need(&pairs, v, "reason")?;
            let cause = ReplayCause::from_code(text)
                .ok_or_else(|| bad(v, "reason", "wrong-setup, outside-hint or other", text))?;
            ActKind::Replay { cause, note: note() }
        }
        "result" => {
            let text = need(&pairs, v, "result")?;
            let outcome = parse_token(text)
                .flatten()
                .ok_or_else(|| bad(v, "result", "a result 1-0, 0-1 or 1/2-1/2", text))?;
            ActKind::Result { outcome, note: note() }
        }
        "annul" => ActKind::Annul { note: note() },
        _ => {
            return Err(format!(
                "an act played, takeback, adjust, position, pause, resume, flag, draw, resign, call, replay, start, result, annul or end after [%act, found {verb:?}"
            ));
        }
    };
    let at_ms = match find(&pairs, "t") {
        None => None,
        Some(text) => Some(parse_signed(text).ok_or_else(|| bad(v, "t", "seconds of match time", text))?),
    };
    let clocks = match find(&pairs, "clocks") {
        None => None,
        Some(text) => {
            let read: Option<Vec<u64>> = text.split(',').map(parse_seconds).collect();
            let four: Option<[u64; 4]> = read.and_then(|r| r.try_into().ok());
            Some(four.ok_or_else(|| bad(v, "clocks", "four readings in seconds, joined by ','", text))?)
        }
    };
    Ok(Act { kind, at_ms, by: find(&pairs, "by").map(str::to_owned), clocks })
}

/// `move="5B. P@d5" clock=170.000 mt=107.837 note="…"`.
fn read_played(pairs: &[(String, String)]) -> Result<RecordMove, String> {
    let text = need(pairs, "played", "move")?;
    let expected = "a move with its number (5B. P@d5)";
    let (number, mv) = text.split_once(' ').ok_or_else(|| bad("played", "move", expected, text))?;
    let digits = number.bytes().take_while(u8::is_ascii_digit).count();
    let n: u32 = number[..digits].parse().map_err(|_| bad("played", "move", expected, text))?;
    let (board, color) = match &number[digits..] {
        "A." => (BoardId::A, Color::White),
        "a." => (BoardId::A, Color::Black),
        "B." => (BoardId::B, Color::White),
        "b." => (BoardId::B, Color::Black),
        _ => return Err(bad("played", "move", expected, text)),
    };
    if !crate::notation::is_move_text(mv) {
        return Err(bad("played", "move", expected, text));
    }
    let mut m = RecordMove::new(board, color, n, mv);
    if let Some(c) = find(pairs, "clock") {
        m.clock_ms = Some(parse_seconds(c).ok_or_else(|| bad("played", "clock", "seconds", c))?);
    }
    if let Some(t) = find(pairs, "mt") {
        m.at_ms = Some(parse_signed(t).ok_or_else(|| bad("played", "mt", "seconds", t))?);
    }
    if let Some(l) = find(pairs, "lag") {
        m.credit_ms = Some(parse_seconds(l).ok_or_else(|| bad("played", "lag", "seconds", l))?);
    }
    m.comment = find(pairs, "note").map(str::to_owned);
    Ok(m)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_act_reads_back_as_written() {
        let mut played = RecordMove::new(BoardId::B, Color::White, 5, "P@d5");
        played.clock_ms = Some(170_000);
        played.at_ms = Some(107_837);
        played.credit_ms = Some(120);
        played.comment = Some("a \"quoted\" note ] here".to_owned());
        let kinds = [
            ActKind::Played(Box::new(played)),
            ActKind::TakeBack {
                board: BoardId::B,
                position: Some("8/8 w - - 0 1 | 8/8[Pp] b - - 0 1".into()),
            },
            ActKind::TakeBack { board: BoardId::A, position: None },
            ActKind::Adjust { seat: Seat::ALL[2], delta_ms: -1_500 },
            ActKind::Adjust { seat: Seat::ALL[0], delta_ms: 60_000 },
            ActKind::SetPosition { position: "x | y".into() },
            ActKind::Pause,
            ActKind::Resume,
            ActKind::Flag { seat: Seat::ALL[3] },
            ActKind::Draw { board: BoardId::A, cause: DrawCause::Agreed },
            ActKind::Resign { seat: Seat::ALL[2] },
            ActKind::Draw { board: BoardId::B, cause: DrawCause::MoveRule },
            ActKind::Call { seat: Seat::ALL[1], replay: Some(ReplayCause::OutsideHint) },
            ActKind::Call { seat: Seat::ALL[1], replay: None },
            ActKind::Replay { cause: ReplayCause::WrongSetup, note: String::new() },
            ActKind::Start,
            ActKind::Result { outcome: bughouse::MatchResult::Draw, note: "agreed\\".into() },
            ActKind::Annul { note: "x=y".into() },
            ActKind::End,
        ];
        for kind in kinds {
            let act = Act {
                kind,
                at_ms: Some(-250),
                by: Some("arbiter alice".into()),
                clocks: Some([1, 2, 3, 180_000]),
            };
            let text = format!("before {} after", write_act(&act));
            let parts = read_comment(&text).unwrap_or_else(|e| panic!("{text}: {e}"));
            assert_eq!(parts.acts, vec![act], "{text}");
            assert_eq!(parts.text, "before after");
        }
    }

    #[test]
    fn a_bad_act_is_an_error_and_other_commands_stay_text() {
        assert!(read_comment("[%act adjust seat=white-C delta=+1]").unwrap_err().contains("a seat"));
        assert!(read_comment("[%act jump]").unwrap_err().contains("found \"jump\""));
        assert!(read_comment("[%act pause").unwrap_err().contains("']'"));
        assert!(read_comment("[%mt soon]").is_err());
        let parts = read_comment("[%clk 0:02:59] [%mt 1.5] fine").expect("reads");
        assert_eq!(parts.mt, Some(1_500));
        assert_eq!(parts.text, "[%clk 0:02:59] fine");
        let lagged = read_comment(&write_mt(30_600, Some(380))).expect("reads");
        assert_eq!((lagged.mt, lagged.lag), (Some(30_600), Some(380)));
        assert!(read_comment("[%mt 1.5 lag=x]").is_err());
    }
}
