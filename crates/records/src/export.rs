//! BPGN export.
//!
//! The layout: the record's tags in order, then `Result` (`1-0` team 1 won, `0-1` team 2 won,
//! `1/2-1/2`, `*`), `Termination` (the reason) and `TerminationRule` (its RULES.md id); a blank
//! line; the moves of both boards in the order they were made, each followed by the mover's
//! clock with milliseconds and its commentary, `1A. e4 {179.870} {C:a fine move} 1a. Nc6
//! {178.002}`, the match time it was made (`{[%mt 0.912]}`) and the acts after it (`{[%act …]}`,
//! docs/bpgn.md); the reason again as a plain comment, and the result token. Lines are wrapped at 80
//! columns between words.

use crate::act_text::{write_act, write_mt};
use crate::clock::format_seconds;
use crate::lexer::normalize;
use crate::record::Record;
use crate::result::token_of;

/// Where export wraps lines.
const WIDTH: usize = 80;

impl Record {
    /// The record as BPGN. [`crate::parse_bpgn`] reads it back to an equal record, provided its
    /// comments are already as import leaves them (whitespace collapsed, no `}`, none empty) and
    /// its `tags` hold no `Result` (the result lives in [`Record::result`]).
    pub fn to_bpgn(&self) -> String {
        let mut out = String::new();
        let has_result = self.result.is_some();
        for tag in &self.tags {
            let derived = tag.name == "Result"
                || (has_result && (tag.name == "Termination" || tag.name == "TerminationRule"));
            if !derived {
                write_tag(&mut out, &tag.name, &tag.value);
            }
        }
        write_tag(&mut out, "Result", token_of(self.result.as_ref()));
        if let Some(r) = &self.result {
            if let Some(reason) = &r.reason {
                write_tag(&mut out, "Termination", reason);
            }
            if let Some(rule) = &r.rule {
                write_tag(&mut out, "TerminationRule", rule);
            }
        }
        out.push('\n');
        let mut text = Wrapper::default();
        if let Some(c) = &self.comment {
            text.comment(&format!("C:{}", note_text(c)));
        }
        for act in &self.acts {
            text.comment(&comment_text(&write_act(act)));
        }
        for m in &self.moves {
            text.word(&format!("{} {}", m.number_label(), m.text));
            if let Some(ms) = m.clock_ms {
                text.word(&format!("{{{}}}", format_seconds(ms)));
            }
            if let Some(ms) = m.at_ms {
                text.comment(&write_mt(ms, m.credit_ms));
            }
            if let Some(c) = m.comment.as_deref().filter(|c| !c.is_empty()) {
                text.comment(&format!("C:{}", note_text(c)));
            }
            for act in &m.acts {
                text.comment(&comment_text(&write_act(act)));
            }
        }
        if let Some(reason) = self.result.as_ref().and_then(|r| r.reason.as_deref())
            && is_plain_comment(reason)
        {
            text.comment(reason);
        }
        text.word(token_of(self.result.as_ref()));
        out.push_str(&text.finish());
        out.push('\n');
        out
    }
}

/// Whether a reason can be written as the game-end comment and read back as one: not empty, not
/// a number (a clock), not `C:` commentary, nothing import would change.
fn is_plain_comment(text: &str) -> bool {
    !text.is_empty()
        && !text.starts_with("C:")
        && crate::clock::parse_seconds(text).is_none()
        && !text.contains("[%")
        && normalize(text) == text
        && !text.contains('}')
}

/// Comment text that cannot end its comment early: whitespace collapsed, `}` written `)`.
pub(crate) fn comment_text(text: &str) -> String {
    normalize(&text.replace('}', ")"))
}

/// Commentary as written: as [`comment_text`], and never read back as a command (`[%` is written
/// `[ %`).
fn note_text(text: &str) -> String {
    comment_text(&text.replace("[%", "[ %"))
}

/// `[Name "value"]` with PGN escapes; characters a tag name may not hold become `_`.
pub(crate) fn write_tag(out: &mut String, name: &str, value: &str) {
    let mut name: String =
        name.chars().map(|c| if c.is_ascii_alphanumeric() || c == '_' { c } else { '_' }).collect();
    if name.is_empty() {
        name.push('_');
    }
    let value = value.replace('\\', "\\\\").replace('"', "\\\"");
    out.push_str(&format!("[{name} \"{value}\"]\n"));
}

/// Greedy word wrapping of movetext.
#[derive(Default)]
pub(crate) struct Wrapper {
    out: String,
    line: usize,
}

impl Wrapper {
    /// Adds a word that must not be broken.
    pub(crate) fn word(&mut self, word: &str) {
        let len = word.chars().count();
        if self.line > 0 {
            if self.line + 1 + len > WIDTH {
                self.out.push('\n');
                self.line = 0;
            } else {
                self.out.push(' ');
                self.line += 1;
            }
        }
        self.out.push_str(word);
        self.line += len;
    }

    /// Adds `{text}`, which may be broken between its words.
    pub(crate) fn comment(&mut self, text: &str) {
        self.comment_after(None, text);
    }

    /// Adds `{lead text}`, broken between the words of `text` but never inside `lead` (a PGN
    /// command such as `[%clk 0:02:59.870]`).
    pub(crate) fn comment_after(&mut self, lead: Option<&str>, text: &str) {
        let mut words: Vec<String> = lead.into_iter().map(str::to_owned).collect();
        words.extend(text.split(' ').filter(|w| !w.is_empty()).map(str::to_owned));
        let last = words.len().saturating_sub(1);
        if words.is_empty() {
            words.push(String::new());
        }
        for (i, word) in words.iter().enumerate() {
            let open = if i == 0 { "{" } else { "" };
            let close = if i == last { "}" } else { "" };
            self.word(&format!("{open}{word}{close}"));
        }
    }

    pub(crate) fn finish(self) -> String {
        self.out
    }
}
