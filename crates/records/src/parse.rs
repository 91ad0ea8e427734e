//! BPGN import: a file of one or more games, as we export them or as bughousedb.com and the
//! internet servers do.
//!
//! What is read:
//! - tag pairs `[Name "value"]` (PGN escapes `\"` and `\\`); a tag after a game's moves starts
//!   the next game;
//! - move numbers `12A.` (White on board A), `12a.` (Black on A), `12B.`, `12b.`, each followed by
//!   its move (a number may be glued to its move, `1A.e4`);
//! - after a move, comments: the first one that is a number of seconds (`{179}`, `{179.870}`) is
//!   the mover's clock; `{C:...}` and any other comments are commentary, joined by a space;
//! - comments before the first move (the record's own commentary);
//! - a result token `1-0`, `0-1`, `1/2-1/2` or `*`; a plain comment just before a decisive one
//!   (`{BlackA checkmated} 1-0`) is the reason, unless a `Termination` tag gives it;
//! - NAGs (`$1`) and `;` comments, ignored; CRLF line ends; blank lines.
//!
//! Comments are read with their whitespace collapsed to single spaces. Variations `( ... )` are
//! not part of BPGN and are refused. Moves are checked for their form only; whether they are legal
//! is for [`crate::Record::replay`] and [`crate::check_record`] to say.

use std::mem;

use bughouse::{BoardId, MatchResult};
use chess_core::Color;

use crate::act::Act;
use crate::act::RecordMove;
use crate::act_text;
use crate::clock::parse_seconds;
use crate::lexer::{Lexer, ParseBpgnError, Token, normalize};
use crate::notation::{MOVE_EXPECTED, is_move_text};
use crate::prose;
use crate::record::{Record, Tag};
use crate::result::{RecordResult, outcome_token, parse_token};

/// Reads every game of a BPGN file, in order. Text without any game gives an empty list.
///
/// # Errors
/// [`ParseBpgnError`] at the first thing that cannot be read.
pub fn parse_bpgn(text: &str) -> Result<Vec<Record>, ParseBpgnError> {
    let mut lexer = Lexer::new(text);
    let mut games = Vec::new();
    let mut draft = Draft::default();
    // After a result token, stray comments belong to no game and are dropped.
    let mut after_result = false;
    while let Some(sp) = lexer.next_token()? {
        let at = |column_offset: usize, expected: &str, found: &str| ParseBpgnError {
            line: sp.line,
            column: sp.column + column_offset,
            expected: expected.to_owned(),
            found: Some(found.to_owned()),
        };
        match sp.token {
            Token::Tag { name, value } => {
                after_result = false;
                if draft.in_movetext() {
                    games.push(mem::take(&mut draft).finish(None)?);
                }
                if name == "Result" {
                    let outcome = parse_token(&value)
                        .ok_or_else(|| at(0, "a Result tag value 1-0, 0-1, 1/2-1/2 or *", &value))?;
                    draft.tag_result.get_or_insert(outcome);
                } else {
                    draft.tags.push(Tag { name, value });
                }
            }
            Token::Comment(raw) if !after_result => {
                draft.pending.push(Pending { text: normalize(&raw), line: sp.line, column: sp.column })
            }
            Token::Comment(_) => {}
            Token::Symbol(sym) => match read_symbol(&sym).map_err(|(off, exp)| at(off, &exp, &sym))? {
                Symbol::Nag => {}
                Symbol::Result(outcome) => {
                    if let Some(number) = &draft.awaiting {
                        return Err(at(0, &format!("a move after {}", number.label), &sym));
                    }
                    let token = TokenResult { outcome, text: sym.clone(), line: sp.line, column: sp.column };
                    games.push(mem::take(&mut draft).finish(Some(token))?);
                    after_result = true;
                }
                Symbol::Number { number, board, color, rest_at } => {
                    after_result = false;
                    if let Some(prev) = &draft.awaiting {
                        return Err(at(0, &format!("a move after {}", prev.label), &sym));
                    }
                    draft.flush()?;
                    let label = sym[..rest_at].to_owned();
                    draft.awaiting = Some(Awaiting { number, board, color, label });
                    let rest = &sym[rest_at..];
                    if !rest.is_empty() {
                        draft
                            .push_move(rest)
                            .map_err(|e| e.at(|t| at(sym[..rest_at].chars().count(), t, rest)))?;
                    }
                }
                Symbol::Move => {
                    draft.push_move(&sym).map_err(|e| e.at(|t| at(0, t, &sym)))?;
                }
            },
        }
    }
    if let Some(number) = &draft.awaiting {
        let (line, column) = lexer.position();
        return Err(ParseBpgnError {
            line,
            column,
            expected: format!("a move after {}", number.label),
            found: None,
        });
    }
    if !draft.is_empty() {
        games.push(draft.finish(None)?);
    }
    Ok(games)
}

enum Symbol {
    Nag,
    Result(Option<MatchResult>),
    /// A move number; the move may follow in the same symbol from byte `rest_at`.
    Number {
        number: u32,
        board: BoardId,
        color: Color,
        rest_at: usize,
    },
    Move,
}

/// Classifies a symbol; on error, the character offset of the problem and what was expected.
fn read_symbol(sym: &str) -> Result<Symbol, (usize, String)> {
    if let Some(outcome) = parse_token(sym) {
        return Ok(Symbol::Result(outcome));
    }
    if sym.starts_with('$') {
        return Ok(Symbol::Nag);
    }
    if matches!(sym, "(" | ")" | "]" | "}" | "\"") {
        return Err((0, "a move number, a move, a comment or a result".to_owned()));
    }
    if !sym.starts_with(|c: char| c.is_ascii_digit()) || sym.starts_with("0-0") {
        return Ok(Symbol::Move);
    }
    let digits = sym.bytes().take_while(u8::is_ascii_digit).count();
    let number: u32 = sym[..digits].parse().map_err(|_| (0, "a move number below 4294967296".to_owned()))?;
    let letter = sym[digits..].chars().next();
    let (board, color) = match letter {
        Some(c @ ('A' | 'B')) => (BoardId::from_char(c), Color::White),
        Some(c @ ('a' | 'b')) => (BoardId::from_char(c), Color::Black),
        _ => return Err((digits, "a board letter A, a, B or b after the move number".to_owned())),
    };
    let board = board.ok_or((digits, "a board letter".to_owned()))?;
    let dots = sym[digits + 1..].bytes().take_while(|&b| b == b'.').count();
    if dots == 0 {
        return Err((digits + 1, format!("'.' after {}", &sym[..=digits])));
    }
    Ok(Symbol::Number { number, board, color, rest_at: digits + 1 + dots })
}

/// A move number read, its move not yet.
struct Awaiting {
    number: u32,
    board: BoardId,
    color: Color,
    /// As written, `12A.`.
    label: String,
}

/// A result token and where it stood.
struct TokenResult {
    outcome: Option<MatchResult>,
    text: String,
    line: usize,
    column: usize,
}

/// A game being read.
#[derive(Default)]
struct Draft {
    tags: Vec<Tag>,
    tag_result: Option<Option<MatchResult>>,
    intro: Vec<String>,
    intro_acts: Vec<Act>,
    moves: Vec<RecordMove>,
    /// Comments since the last move (or since the start).
    pending: Vec<Pending>,
    awaiting: Option<Awaiting>,
}

impl Draft {
    fn in_movetext(&self) -> bool {
        !self.moves.is_empty() || self.awaiting.is_some()
    }

    fn is_empty(&self) -> bool {
        self.tags.is_empty() && self.tag_result.is_none() && self.moves.is_empty()
    }

    fn push_move(&mut self, text: &str) -> Result<(), PushError> {
        let Some(number) = self.awaiting.take() else {
            return Err(PushError::Text("a move number like 12A. or 12b. before the move"));
        };
        if !is_move_text(text) {
            return Err(PushError::Text(MOVE_EXPECTED));
        }
        self.flush().map_err(PushError::Comment)?;
        self.moves.push(RecordMove::new(number.board, number.color, number.number, text));
        Ok(())
    }

    /// Gives the pending comments to the last move, or to the record before any move: a clock,
    /// a match time and acts (`[%mt]`, `[%act]`, or the old prose), commentary.
    fn flush(&mut self) -> Result<(), ParseBpgnError> {
        let group = mem::take(&mut self.pending);
        for c in group {
            let mut parts = act_text::read_comment(&c.text).map_err(|expected| ParseBpgnError {
                line: c.line,
                column: c.column,
                expected,
                found: Some(format!("{{{}}}", c.text)),
            })?;
            if parts.acts.is_empty() && parts.mt.is_none() {
                let (acts, rest) = prose::read(commentary(&parts.text));
                if !acts.is_empty() {
                    parts.acts = acts;
                    parts.text = rest;
                }
            }
            let acts = match self.moves.last_mut() {
                Some(m) => &mut m.acts,
                None => &mut self.intro_acts,
            };
            acts.extend(parts.acts);
            match self.moves.last_mut() {
                Some(m) => {
                    if parts.mt.is_some() {
                        m.at_ms = parts.mt;
                        m.credit_ms = parts.lag;
                    }
                    if m.clock_ms.is_none()
                        && let Some(ms) = parse_seconds(&parts.text)
                    {
                        m.clock_ms = Some(ms);
                    } else {
                        append(&mut m.comment, commentary(&parts.text));
                    }
                }
                None => self.intro.push(commentary(&parts.text).to_owned()),
            }
        }
        Ok(())
    }

    fn finish(mut self, token: Option<TokenResult>) -> Result<Record, ParseBpgnError> {
        // A plain comment right before a decisive result token is the game-end comment.
        let decisive_token = token.as_ref().is_some_and(|t| t.outcome.is_some());
        let end_comment = match self.pending.last() {
            Some(last)
                if decisive_token
                    && !last.text.starts_with("C:")
                    && !last.text.contains("[%")
                    && parse_seconds(&last.text).is_none() =>
            {
                self.pending.pop().map(|p| p.text)
            }
            _ => None,
        };
        self.flush()?;
        let tagged = self.tag_result.flatten();
        let outcome = match (&token, tagged) {
            (Some(t), Some(tag)) if t.outcome.is_some_and(|o| o != tag) => {
                return Err(ParseBpgnError {
                    line: t.line,
                    column: t.column,
                    expected: format!("{} as the Result tag says", outcome_token(tag)),
                    found: Some(t.text.clone()),
                });
            }
            (Some(TokenResult { outcome: Some(o), .. }), _) => Some(*o),
            (_, tag) => tag,
        };
        let result = outcome.map(|outcome| {
            let reason = take_tag(&mut self.tags, "Termination");
            let rule = take_tag(&mut self.tags, "TerminationRule");
            RecordResult { outcome, reason, rule }
        });
        let mut result = result;
        if let Some(end) = end_comment.filter(|e| !e.is_empty()) {
            match result.as_mut() {
                Some(r) if r.reason.is_none() => r.reason = Some(end),
                Some(r) if r.reason.as_deref().map(normalize).as_deref() == Some(end.as_str()) => {}
                _ => match self.moves.last_mut() {
                    Some(m) => append(&mut m.comment, &end),
                    None => self.intro.push(end),
                },
            }
        }
        let mut comment = None;
        for c in &self.intro {
            append(&mut comment, c);
        }
        Ok(Record { tags: self.tags, comment, acts: self.intro_acts, moves: self.moves, result })
    }
}

/// A comment not yet given to a move, and where it stood.
struct Pending {
    text: String,
    line: usize,
    column: usize,
}

/// Why a move could not be added.
enum PushError {
    /// The move's text: what was expected instead.
    Text(&'static str),
    /// A comment before it did not read.
    Comment(ParseBpgnError),
}

impl PushError {
    /// The error, a text one placed by `at`.
    fn at(self, at: impl FnOnce(&str) -> ParseBpgnError) -> ParseBpgnError {
        match self {
            PushError::Text(expected) => at(expected),
            PushError::Comment(e) => e,
        }
    }
}

/// The commentary of a comment: its text without a leading `C:`.
fn commentary(comment: &str) -> &str {
    comment.strip_prefix("C:").map_or(comment, str::trim)
}

fn append(to: &mut Option<String>, text: &str) {
    if text.is_empty() {
        return;
    }
    match to {
        Some(s) => {
            s.push(' ');
            s.push_str(text);
        }
        None => *to = Some(text.to_owned()),
    }
}

/// Removes every tag of that name; the first one's value.
fn take_tag(tags: &mut Vec<Tag>, name: &str) -> Option<String> {
    let first = tags.iter().position(|t| t.name == name).map(|i| tags[i].value.clone());
    tags.retain(|t| t.name != name);
    first
}
