//! Move notation on a board (RULES.md R7): long form `e2e4`, `N@f3`, `e7e8qd1` (promotion removing
//! the queen on d1 of the other board), `e7e8` (promotion without removal); SAN `e4`, `N@f3`,
//! `e8=Qd1`, `exd8=Nf3+`, `e8`. Upgrade promotions use the usual `e7e8q` / `e8=Q`.

use chess_core::{Bitboard, Move, Role, San, Square, UciMove};

use crate::options::Promotion;
use crate::{BoardId, BughouseMove, Game, MoveTextError, PlayError, Unreadable};

fn trailing_square(rest: &str) -> Result<Option<Square>, String> {
    let rest = rest.trim_end_matches(['+', '#', '!', '?']);
    if rest.is_empty() {
        return Ok(None);
    }
    rest.parse::<Square>().map(Some).map_err(|_| format!("unexpected {rest:?} after the move"))
}

impl Game {
    /// Reads a move for a board in long notation or SAN and checks it is legal.
    ///
    /// # Errors
    /// [`MoveTextError`]: unreadable, ambiguous, or illegal (naming the rule it breaks).
    pub fn parse_move(&self, board: BoardId, text: &str) -> Result<BughouseMove, MoveTextError> {
        let candidate = self.read_move(board, text)?;
        if self.is_legal(&candidate) {
            Ok(candidate)
        } else {
            Err(MoveTextError::Illegal { input: text.to_owned(), error: self.explain(&candidate) })
        }
    }

    fn explain(&self, m: &BughouseMove) -> PlayError {
        let mut copy = *self;
        copy.play(*m).expect_err("only called for illegal moves")
    }

    /// Reads the move the text names, legal or not (so an illegal one can be explained).
    fn read_move(&self, board: BoardId, text: &str) -> Result<BughouseMove, MoveTextError> {
        let syntax =
            |kind: Unreadable, reason: String| MoveTextError::Syntax { input: text.to_owned(), kind, reason };
        let illegal_chess = || MoveTextError::Illegal {
            input: text.to_owned(),
            error: PlayError::new(board, crate::game::illegal_chess(self.board(board))),
        };
        let pos = self.board(board);
        let removal_rules = self.rules.promotion == Promotion::Removal;
        // Long notation first; SAN when it is not long notation.
        if let Ok((uci, used)) = UciMove::parse_prefix(text) {
            let rest = &text[text.char_indices().nth(used).map_or(text.len(), |(i, _)| i)..];
            if let Ok(removal) = trailing_square(rest) {
                return match uci {
                    UciMove::Drop { role, to } => {
                        Ok(BughouseMove { board, mv: Move::Drop { role, to }, removal })
                    }
                    UciMove::Normal { from, to, promotion } => {
                        let is_pawn = pos.board().role_at(from) == Some(Role::Pawn);
                        if is_pawn && Bitboard::BACK_RANKS.contains(to) && removal_rules {
                            if promotion.is_some() && removal.is_none() {
                                return Err(syntax(
                                    Unreadable::RemovalSquareMissing,
                                    "a promotion by removal names the removed piece's square, as in e7e8qd1"
                                        .into(),
                                ));
                            }
                            let capture = pos.board().role_at(to);
                            Ok(BughouseMove {
                                board,
                                mv: Move::Normal { role: Role::Pawn, from, capture, to, promotion },
                                removal,
                            })
                        } else if removal.is_some() {
                            Err(syntax(
                                Unreadable::SquareAfterMove,
                                "only a promotion by removal ends with a square".into(),
                            ))
                        } else {
                            let mv = pos.resolve_uci(&uci).ok_or_else(illegal_chess)?;
                            Ok(BughouseMove { board, mv, removal: None })
                        }
                    }
                };
            }
        }
        let (san, used) = San::parse_prefix(text).map_err(|e| syntax(Unreadable::NotAMove, e.to_string()))?;
        let rest = &text[text.char_indices().nth(used).map_or(text.len(), |(i, _)| i)..];
        let removal = trailing_square(rest).map_err(|e| syntax(Unreadable::NotAMove, e))?;
        if let San::Normal { role: Role::Pawn, file, rank, capture, to, promotion } = san
            && Bitboard::BACK_RANKS.contains(to)
            && removal_rules
        {
            // Find the pawn move by its queen promotion, then put the removal on it.
            let as_queen =
                San::Normal { role: Role::Pawn, file, rank, capture, to, promotion: Some(Role::Queen) };
            let core = pos.resolve_san(&as_queen, text).map_err(|e| match e {
                chess_core::SanError::Ambiguous { .. } => MoveTextError::Ambiguous { input: text.to_owned() },
                _ => illegal_chess(),
            })?;
            if promotion.is_some() && removal.is_none() {
                return Err(syntax(
                    Unreadable::RemovalSquareMissing,
                    "a promotion by removal names the removed piece's square, as in e8=Qd1".into(),
                ));
            }
            let mv = match core {
                Move::Normal { from, capture, .. } => {
                    Move::Normal { role: Role::Pawn, from, capture, to, promotion }
                }
                other => other,
            };
            return Ok(BughouseMove { board, mv, removal });
        }
        if removal.is_some() {
            return Err(syntax(
                Unreadable::SquareAfterMove,
                "only a promotion by removal ends with a square".into(),
            ));
        }
        match pos.resolve_san(&san, text) {
            Ok(mv) => Ok(BughouseMove { board, mv, removal: None }),
            Err(chess_core::SanError::Ambiguous { .. }) => {
                Err(MoveTextError::Ambiguous { input: text.to_owned() })
            }
            Err(_) => match san {
                San::Drop { role, to } => {
                    Ok(BughouseMove { board, mv: Move::Drop { role, to }, removal: None })
                }
                _ => Err(illegal_chess()),
            },
        }
    }

    /// Writes a legal move in long notation.
    pub fn uci(&self, m: &BughouseMove) -> String {
        match (m.mv, m.removal) {
            (Move::Normal { from, to, promotion: Some(p), .. }, Some(sq)) => {
                format!("{from}{to}{}{sq}", p.char())
            }
            (Move::Normal { from, to, promotion: None, .. }, None) if m.is_promotion() => {
                format!("{from}{to}")
            }
            _ => self.board(m.board).uci(&m.mv),
        }
    }

    /// Writes a legal move in SAN, with `+` for check and `#` for mate on board.
    pub fn san(&self, m: &BughouseMove) -> String {
        let pos = self.board(m.board);
        let mut s = match (m.mv, m.removal) {
            (Move::Normal { role, from, capture, to, .. }, removal)
                if m.is_promotion() && role == Role::Pawn =>
            {
                let as_queen = Move::Normal { role, from, capture, to, promotion: Some(Role::Queen) };
                let base = pos.san_without_suffix(&as_queen);
                let base = base.trim_end_matches("=Q").to_owned();
                match (m.mv.promotion(), removal) {
                    (Some(p), Some(sq)) => format!("{base}={}{sq}", p.upper_char()),
                    (Some(p), None) => format!("{base}={}", p.upper_char()),
                    (None, _) => base,
                }
            }
            _ => pos.san_without_suffix(&m.mv),
        };
        let mut after = *self;
        after.play_unchecked(*m);
        if after.is_mate_on_board(m.board) {
            s.push('#');
        } else if after.board(m.board).is_check() {
            s.push('+');
        }
        s
    }
}
