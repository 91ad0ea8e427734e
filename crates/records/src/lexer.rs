//! Splits BPGN text into tag pairs, comments and symbols, each with its line and column (both
//! 1-based, columns counted in characters). `;` comments to the end of a line are skipped; `\r`
//! is whitespace, so CRLF files read like LF files.

use std::fmt;
use std::iter::Peekable;
use std::str::Chars;

/// BPGN text that could not be read: where, what was expected there, and what was found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseBpgnError {
    /// The line, from 1.
    pub line: usize,
    /// The column in characters, from 1.
    pub column: usize,
    /// What would have been read there.
    pub expected: String,
    /// What was found instead; `None` at the end of the input.
    pub found: Option<String>,
}

impl fmt::Display for ParseBpgnError {
    /// `line 3, column 14: expected a move after 2A., found "1-0"`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}, column {}: expected {}, found ", self.line, self.column, self.expected)?;
        match &self.found {
            Some(found) => write!(f, "{found:?}"),
            None => f.write_str("the end of the input"),
        }
    }
}

impl std::error::Error for ParseBpgnError {}

/// Collapses whitespace runs to one space and trims.
pub(crate) fn normalize(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// One lexical element of a BPGN file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Token {
    /// `[Name "value"]`, the value unescaped.
    Tag { name: String, value: String },
    /// `{...}`, the text inside the braces as written.
    Comment(String),
    /// Anything else up to whitespace or a delimiter: move numbers, moves, results, NAGs; or one
    /// stray delimiter character (`(`, `)`, `]`, `}`, `"`), which the parser rejects.
    Symbol(String),
}

/// A token and where it starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Spanned {
    pub(crate) token: Token,
    pub(crate) line: usize,
    pub(crate) column: usize,
}

pub(crate) struct Lexer<'a> {
    chars: Peekable<Chars<'a>>,
    line: usize,
    column: usize,
}

const DELIMITERS: &[char] = &['{', '}', '[', ']', '(', ')', ';', '"'];

impl<'a> Lexer<'a> {
    pub(crate) fn new(text: &'a str) -> Lexer<'a> {
        Lexer { chars: text.chars().peekable(), line: 1, column: 1 }
    }

    /// Where the next character is (line, column).
    pub(crate) fn position(&self) -> (usize, usize) {
        (self.line, self.column)
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.chars.next()?;
        if c == '\n' {
            self.line += 1;
            self.column = 1;
        } else {
            self.column += 1;
        }
        Some(c)
    }

    fn error(&self, line: usize, column: usize, expected: &str, found: Option<String>) -> ParseBpgnError {
        ParseBpgnError { line, column, expected: expected.to_owned(), found }
    }

    fn skip_space(&mut self) {
        while let Some(&c) = self.chars.peek() {
            if c.is_whitespace() || c == '\u{feff}' {
                self.bump();
            } else if c == ';' {
                while self.chars.peek().is_some_and(|&c| c != '\n') {
                    self.bump();
                }
            } else {
                break;
            }
        }
    }

    fn skip_inline_space(&mut self) {
        while self.chars.peek().is_some_and(|c| c.is_whitespace()) {
            self.bump();
        }
    }

    /// The next token, `None` at the end of the input.
    pub(crate) fn next_token(&mut self) -> Result<Option<Spanned>, ParseBpgnError> {
        self.skip_space();
        let (line, column) = (self.line, self.column);
        let Some(&c) = self.chars.peek() else { return Ok(None) };
        let token = match c {
            '[' => {
                self.bump();
                self.tag(line, column)?
            }
            '{' => {
                self.bump();
                let mut text = String::new();
                loop {
                    match self.bump() {
                        Some('}') => break,
                        Some(c) => text.push(c),
                        None => {
                            return Err(self.error(
                                line,
                                column,
                                "'}' to close the comment that starts here",
                                None,
                            ));
                        }
                    }
                }
                Token::Comment(text)
            }
            '}' | ']' | '(' | ')' | '"' => {
                self.bump();
                Token::Symbol(c.to_string())
            }
            _ => {
                let mut text = String::new();
                while let Some(&c) = self.chars.peek() {
                    if c.is_whitespace() || DELIMITERS.contains(&c) {
                        break;
                    }
                    text.push(c);
                    self.bump();
                }
                Token::Symbol(text)
            }
        };
        Ok(Some(Spanned { token, line, column }))
    }

    /// A tag pair after its `[`.
    fn tag(&mut self, line: usize, column: usize) -> Result<Token, ParseBpgnError> {
        self.skip_inline_space();
        let mut name = String::new();
        while let Some(&c) = self.chars.peek() {
            if c.is_ascii_alphanumeric() || c == '_' {
                name.push(c);
                self.bump();
            } else {
                break;
            }
        }
        if name.is_empty() {
            let found = self.chars.peek().map(|c| c.to_string());
            return Err(self.error(self.line, self.column, "a tag name after '['", found));
        }
        self.skip_inline_space();
        if self.chars.peek() != Some(&'"') {
            let found = self.chars.peek().map(|c| c.to_string());
            return Err(self.error(self.line, self.column, "a quoted tag value", found));
        }
        let (value_line, value_column) = (self.line, self.column);
        self.bump();
        let mut value = String::new();
        loop {
            match self.bump() {
                Some('"') => break,
                Some('\\') if self.chars.peek().is_some() => {
                    value.extend(self.bump());
                }
                Some(c) => value.push(c),
                None => {
                    return Err(self.error(
                        value_line,
                        value_column,
                        "'\"' to close the tag value that starts here",
                        None,
                    ));
                }
            }
        }
        self.skip_inline_space();
        let (end_line, end_column) = (self.line, self.column);
        match self.bump() {
            Some(']') => Ok(Token::Tag { name, value }),
            found => Err(self.error(
                end_line,
                end_column,
                &format!("']' to close the tag [{name} that starts at line {line}, column {column}"),
                found.map(|c| c.to_string()),
            )),
        }
    }
}
