//! Long notation (`e2e4`, `e7e8q`, `N@f3`), as UCI engines write it.

use std::fmt;

use crate::{Bitboard, CastlingSide, Move, Position, Role, Square};

/// Long notation that could not be read or names no legal move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseUciError {
    /// The text is not long notation; `offset` is the character where it stops making sense.
    Syntax {
        /// The rejected text.
        input: String,
        /// Character offset of the problem.
        offset: usize,
        /// What was expected there.
        expected: &'static str,
    },
    /// The text is well formed but no legal move matches it in this position.
    Illegal {
        /// The rejected text.
        input: String,
    },
}

impl fmt::Display for ParseUciError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseUciError::Syntax { input, offset, expected } => {
                write!(f, "invalid move {input:?}: expected {expected} at character {}", offset + 1)
            }
            ParseUciError::Illegal { input } => write!(f, "illegal move {input:?} in this position"),
        }
    }
}

impl std::error::Error for ParseUciError {}

/// Long notation read without a position: a move from a square to a square, or a drop.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UciMove {
    /// `e2e4`, `e7e8q`.
    Normal {
        /// Origin.
        from: Square,
        /// Destination.
        to: Square,
        /// Promotion role.
        promotion: Option<Role>,
    },
    /// `N@f3`, `P@e4`.
    Drop {
        /// The dropped role.
        role: Role,
        /// Where.
        to: Square,
    },
}

fn square_at(s: &str, chars: &[char], at: usize) -> Result<Square, ParseUciError> {
    let text: String = chars.iter().skip(at).take(2).collect();
    text.parse().map_err(|_| ParseUciError::Syntax {
        input: s.to_owned(),
        offset: at,
        expected: "a square a1-h8",
    })
}

impl UciMove {
    /// Reads long notation; the rest of the text after what was read must be empty, except that
    /// a variant may ask for a longer form with [`UciMove::parse_prefix`].
    ///
    /// # Errors
    /// [`ParseUciError::Syntax`] with the offset of the problem.
    pub fn parse(s: &str) -> Result<UciMove, ParseUciError> {
        let (m, used) = UciMove::parse_prefix(s)?;
        if used != s.chars().count() {
            return Err(ParseUciError::Syntax {
                input: s.to_owned(),
                offset: used,
                expected: "the end of the move",
            });
        }
        Ok(m)
    }

    /// Reads long notation at the start of `s`; returns the move and how many characters it used.
    ///
    /// # Errors
    /// [`ParseUciError::Syntax`] with the offset of the problem.
    pub fn parse_prefix(s: &str) -> Result<(UciMove, usize), ParseUciError> {
        let chars: Vec<char> = s.chars().collect();
        let syntax = |offset, expected| ParseUciError::Syntax { input: s.to_owned(), offset, expected };
        if chars.get(1) == Some(&'@') || chars.first() == Some(&'@') {
            let (role, at) = match chars[0] {
                '@' => (Role::Pawn, 1),
                c => match Role::from_char(c).filter(|r| c.is_ascii_uppercase() && *r != Role::King) {
                    Some(r) => (r, 2),
                    None => return Err(syntax(0, "a piece letter P, N, B, R or Q")),
                },
            };
            let to = square_at(s, &chars, at)?;
            return Ok((UciMove::Drop { role, to }, at + 2));
        }
        let from = square_at(s, &chars, 0)?;
        let to = square_at(s, &chars, 2)?;
        let promotion = match chars.get(4) {
            Some(&c) if c.is_ascii_alphabetic() => {
                match Role::from_char(c).filter(|r| !matches!(r, Role::Pawn | Role::King)) {
                    Some(r) => Some(r),
                    None => return Err(syntax(4, "a promotion letter q, r, b or n")),
                }
            }
            _ => None,
        };
        let used = 4 + usize::from(promotion.is_some());
        Ok((UciMove::Normal { from, to, promotion }, used))
    }
}

impl Position {
    /// Finds the legal move that long notation names. Castling may be written as the king's
    /// two-square step (`e1g1`) or as the king taking its rook (`e1h1`, the Chess960 form).
    ///
    /// # Errors
    /// [`ParseUciError`]: malformed text, or no legal move matches.
    pub fn parse_uci(&self, s: &str) -> Result<Move, ParseUciError> {
        let uci = UciMove::parse(s)?;
        self.resolve_uci(&uci).ok_or_else(|| ParseUciError::Illegal { input: s.to_owned() })
    }

    /// The legal move matching an already read long-notation move, if any.
    pub fn resolve_uci(&self, uci: &UciMove) -> Option<Move> {
        // The one move of each kind the text can name, each checked alone (a server resolves
        // every move it is sent): the piece's move, en passant, or castling with a rook on the
        // king's rank.
        let board = self.board();
        let legal = |m: Move| self.is_legal(&m).then_some(m);
        match *uci {
            UciMove::Drop { role, to } => legal(Move::Drop { role, to }),
            UciMove::Normal { from, to, promotion } => {
                let role = board.role_at(from)?;
                let normal = Move::Normal { role, from, capture: board.role_at(to), to, promotion };
                if promotion.is_some() {
                    return legal(normal);
                }
                legal(normal).or_else(|| legal(Move::EnPassant { from, to })).or_else(|| {
                    let rooks = board.by_piece(Role::Rook.of(self.turn())) & Bitboard::rank(from.rank());
                    rooks.into_iter().find_map(|rook| {
                        let names = to == rook
                            || (!self.castling().is_chess960()
                                && to == CastlingSide::of(from, rook).king_to(self.turn()));
                        if names { legal(Move::Castle { king: from, rook }) } else { None }
                    })
                })
            }
        }
    }

    /// Writes a move in long notation: castling as the king's step in standard chess, as king
    /// takes rook in Chess960.
    pub fn uci(&self, m: &Move) -> String {
        match *m {
            Move::Castle { king, rook } if !self.castling().is_chess960() => {
                format!("{king}{}", CastlingSide::of(king, rook).king_to(self.turn()))
            }
            _ => m.to_string(),
        }
    }
}
