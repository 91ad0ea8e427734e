//! Standard algebraic notation per FIDE appendix C (`Nbd7`, `exd5`, `e8=Q`, `O-O`, `+`, `#`),
//! extended with drops (`N@f3`, `P@e4`).

use std::fmt;

use crate::{CastlingSide, File, Move, Position, Rank, Role, Square};

/// A SAN move read without a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum San {
    /// A piece or pawn move, with whatever disambiguation was written.
    Normal {
        /// The moving role (pawn when no piece letter is given).
        role: Role,
        /// The origin file, if written.
        file: Option<File>,
        /// The origin rank, if written.
        rank: Option<Rank>,
        /// Whether `x` was written.
        capture: bool,
        /// The destination.
        to: Square,
        /// The promotion role, if written.
        promotion: Option<Role>,
    },
    /// `O-O` or `O-O-O` (zeros accepted).
    Castle(CastlingSide),
    /// `N@f3`; `P@e4` or `@e4` for a pawn.
    Drop {
        /// The dropped role.
        role: Role,
        /// Where.
        to: Square,
    },
}

/// SAN that could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseSanError {
    /// The rejected text.
    pub input: String,
    /// Character offset of the problem.
    pub offset: usize,
    /// What was expected there.
    pub expected: &'static str,
}

impl fmt::Display for ParseSanError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "invalid SAN {:?}: expected {} at character {}", self.input, self.expected, self.offset + 1)
    }
}

impl std::error::Error for ParseSanError {}

/// SAN that does not name exactly one legal move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SanError {
    /// The text is not SAN.
    Parse(ParseSanError),
    /// No legal move matches.
    Illegal {
        /// The rejected text.
        input: String,
    },
    /// Several legal moves match; more disambiguation is needed.
    Ambiguous {
        /// The rejected text.
        input: String,
        /// The moves it could mean, in SAN.
        candidates: Vec<String>,
    },
}

impl fmt::Display for SanError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SanError::Parse(e) => e.fmt(f),
            SanError::Illegal { input } => write!(f, "illegal move {input:?} in this position"),
            SanError::Ambiguous { input, candidates } => {
                write!(f, "ambiguous move {input:?}: could be {}", candidates.join(" or "))
            }
        }
    }
}

impl std::error::Error for SanError {}

impl From<ParseSanError> for SanError {
    fn from(e: ParseSanError) -> SanError {
        SanError::Parse(e)
    }
}

struct Reader<'a> {
    input: &'a str,
    chars: Vec<char>,
    at: usize,
}

impl Reader<'_> {
    fn peek(&self) -> Option<char> {
        self.chars.get(self.at).copied()
    }
    fn peek_at(&self, n: usize) -> Option<char> {
        self.chars.get(self.at + n).copied()
    }
    fn fail(&self, expected: &'static str) -> ParseSanError {
        ParseSanError { input: self.input.to_owned(), offset: self.at, expected }
    }
    fn eat(&mut self, c: char) -> bool {
        if self.peek() == Some(c) {
            self.at += 1;
            true
        } else {
            false
        }
    }
    fn square(&mut self) -> Result<Square, ParseSanError> {
        let file = self.peek().and_then(File::from_char).ok_or_else(|| self.fail("a square a1-h8"))?;
        let rank = self.peek_at(1).and_then(Rank::from_char).ok_or_else(|| self.fail("a square a1-h8"))?;
        self.at += 2;
        Ok(Square::from_coords(file, rank))
    }
}

impl San {
    /// Reads SAN, allowing a trailing `+`, `#`, `!` or `?` annotation.
    ///
    /// # Errors
    /// [`ParseSanError`] with the offset of the problem.
    pub fn parse(s: &str) -> Result<San, ParseSanError> {
        let (san, used) = San::parse_prefix(s)?;
        let rest: String = s.chars().skip(used).collect();
        if let Some(bad) = rest.chars().position(|c| !matches!(c, '+' | '#' | '!' | '?')) {
            return Err(ParseSanError {
                input: s.to_owned(),
                offset: used + bad,
                expected: "the end of the move",
            });
        }
        Ok(san)
    }

    /// Reads SAN at the start of `s`; returns the move and how many characters it used (check and
    /// annotation marks are not consumed).
    ///
    /// # Errors
    /// [`ParseSanError`] with the offset of the problem.
    pub fn parse_prefix(s: &str) -> Result<(San, usize), ParseSanError> {
        let mut r = Reader { input: s, chars: s.chars().collect(), at: 0 };
        let first = r.peek().ok_or_else(|| r.fail("a move"))?;
        if first == 'O' || first == '0' {
            let castle: String = r.chars.iter().take_while(|c| matches!(c, 'O' | '0' | '-')).collect();
            let side = match castle.as_str() {
                "O-O" | "0-0" => CastlingSide::KingSide,
                "O-O-O" | "0-0-0" => CastlingSide::QueenSide,
                _ => return Err(r.fail("O-O or O-O-O")),
            };
            return Ok((San::Castle(side), castle.chars().count()));
        }
        if first == '@' || r.peek_at(1) == Some('@') {
            let role = if first == '@' {
                Role::Pawn
            } else {
                let role = Role::from_char(first)
                    .filter(|role| first.is_ascii_uppercase() && *role != Role::King)
                    .ok_or_else(|| r.fail("a piece letter P, N, B, R or Q"))?;
                r.at += 1;
                role
            };
            r.at += 1;
            let to = r.square()?;
            return Ok((San::Drop { role, to }, r.at));
        }
        let role = match first {
            'N' | 'B' | 'R' | 'Q' | 'K' => {
                r.at += 1;
                Role::from_char(first).expect("piece letter")
            }
            'a'..='h' => Role::Pawn,
            _ => return Err(r.fail("a piece letter, a file, O-O or a drop")),
        };
        // Disambiguation and destination: collect up to two squares' worth of file/rank marks.
        let mut file = None;
        let mut rank = None;
        let mut capture = false;
        let to = loop {
            match r.peek() {
                Some('a'..='h') if r.peek_at(1).and_then(Rank::from_char).is_some() => {
                    let sq = r.square()?;
                    // A square followed by another square or 'x' was the origin.
                    let more = matches!(r.peek(), Some('x'))
                        || (matches!(r.peek(), Some('a'..='h'))
                            && r.peek_at(1).and_then(Rank::from_char).is_some());
                    if more {
                        file = Some(sq.file());
                        rank = Some(sq.rank());
                    } else {
                        break sq;
                    }
                }
                Some(c @ 'a'..='h') if file.is_none() && !capture => {
                    file = File::from_char(c);
                    r.at += 1;
                }
                Some(c @ '1'..='8') if rank.is_none() && !capture => {
                    rank = Rank::from_char(c);
                    r.at += 1;
                }
                Some('x') if !capture => {
                    capture = true;
                    r.at += 1;
                }
                _ => return Err(r.fail("a destination square")),
            }
        };
        if role == Role::Pawn && (rank.is_some() || (capture && file.is_none())) {
            return Err(r.fail("a pawn capture written as exd5"));
        }
        let mut promotion = None;
        if role == Role::Pawn {
            let eq = r.eat('=');
            match r.peek().and_then(|c| Role::from_char(c).filter(|_| c.is_ascii_uppercase())) {
                Some(p) if !matches!(p, Role::Pawn | Role::King) => {
                    r.at += 1;
                    promotion = Some(p);
                }
                _ if eq => return Err(r.fail("a promotion piece Q, R, B or N")),
                _ => {}
            }
        }
        Ok((San::Normal { role, file, rank, capture, to, promotion }, r.at))
    }

    /// Whether a legal move is what this SAN describes.
    pub fn matches(&self, m: &Move) -> bool {
        match (*self, *m) {
            (San::Castle(side), Move::Castle { king, rook }) => CastlingSide::of(king, rook) == side,
            (San::Drop { role, to }, Move::Drop { role: r, to: t }) => role == r && to == t,
            (San::Normal { role, file, rank, capture, to, promotion }, _) => {
                let Some(from) = m.from() else { return false };
                !matches!(m, Move::Castle { .. })
                    && m.role() == role
                    && m.to() == to
                    && m.promotion() == promotion
                    && file.is_none_or(|f| f == from.file())
                    && rank.is_none_or(|r| r == from.rank())
                    && (!capture || m.is_capture())
            }
            _ => false,
        }
    }
}

impl Position {
    /// Finds the legal move that SAN names.
    ///
    /// # Errors
    /// [`SanError`]: malformed, illegal or ambiguous.
    pub fn parse_san(&self, s: &str) -> Result<Move, SanError> {
        let san = San::parse(s)?;
        self.resolve_san(&san, s)
    }

    /// The one legal move matching already read SAN (`input` is quoted in errors).
    ///
    /// # Errors
    /// [`SanError::Illegal`] or [`SanError::Ambiguous`].
    pub fn resolve_san(&self, san: &San, input: &str) -> Result<Move, SanError> {
        let mut found = self.legal_moves().into_iter().filter(|m| san.matches(m));
        let first = found.next().ok_or_else(|| SanError::Illegal { input: input.to_owned() })?;
        let rest: Vec<Move> = found.collect();
        if rest.is_empty() {
            Ok(first)
        } else {
            let candidates = std::iter::once(first).chain(rest).map(|m| self.san(&m)).collect();
            Err(SanError::Ambiguous { input: input.to_owned(), candidates })
        }
    }

    /// Writes a legal move in SAN with its check (`+`) or mate (`#`) mark.
    pub fn san(&self, m: &Move) -> String {
        let mut s = self.san_without_suffix(m);
        let mut after = *self;
        after.play_unchecked(*m);
        if after.is_checkmate() {
            s.push('#');
        } else if after.is_check() {
            s.push('+');
        }
        s
    }

    /// Writes a legal move in SAN without a check or mate mark.
    pub fn san_without_suffix(&self, m: &Move) -> String {
        match *m {
            Move::Castle { king, rook } => match CastlingSide::of(king, rook) {
                CastlingSide::KingSide => "O-O".to_owned(),
                CastlingSide::QueenSide => "O-O-O".to_owned(),
            },
            Move::Drop { role, to } => format!("{}@{to}", role.upper_char()),
            Move::EnPassant { from, to } => format!("{}x{to}", from.file()),
            Move::Normal { role: Role::Pawn, from, capture, to, promotion } => {
                let mut s = String::new();
                if capture.is_some() {
                    s.push(from.file().char());
                    s.push('x');
                }
                s.push_str(&to.to_string());
                if let Some(p) = promotion {
                    s.push('=');
                    s.push(p.upper_char());
                }
                s
            }
            Move::Normal { role, from, capture, to, .. } => {
                let mut s = String::new();
                s.push(role.upper_char());
                if role != Role::King {
                    let others: Vec<Square> = self
                        .legal_moves()
                        .into_iter()
                        .filter(|o| matches!(o, Move::Normal { .. }) && o.role() == role && o.to() == to)
                        .filter_map(|o| o.from())
                        .filter(|&f| f != from)
                        .collect();
                    if !others.is_empty() {
                        if others.iter().all(|o| o.file() != from.file()) {
                            s.push(from.file().char());
                        } else if others.iter().all(|o| o.rank() != from.rank()) {
                            s.push(from.rank().char());
                        } else {
                            s.push_str(&from.to_string());
                        }
                    }
                }
                if capture.is_some() {
                    s.push('x');
                }
                s.push_str(&to.to_string());
                s
            }
        }
    }
}
