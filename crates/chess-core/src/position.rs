//! The position: placement, pockets, side to move, castling, en passant, clocks; and playing a
//! move on it.
//!
//! # Facts and what is derived from them
//!
//! A bughouse board can change between two of its own moves: a promotion on the other board lifts
//! a piece off it (RULES.md R1), an arbiter's take-back puts one back. So the position stores
//! *facts* — what happened on the board — and derives every right that depends on how the board
//! stands at the moment it is asked:
//!
//! - **En passant** (module `en_passant`). The fact is the square the last move's double step
//!   passed over ([`Position::ep_target`]); the right ([`Position::ep_square`]) is derived whenever
//!   it is needed (move generation, the hash, FEN) from the board as it stands. A capture a pin forbade
//!   becomes legal when a removal lifts the pinning piece; one a removal forbids is gone, and
//!   comes back if a later removal makes it legal again before the board's next move.
//! - **Hash.** The stored hash covers the placement, side to move, castling, king-moved flags and
//!   pockets, all updated with every change; [`Position::zobrist`] adds the en passant key only
//!   when the derived right exists. Repetition counts (E4) therefore see the rights as they stand.
//! - **Checkers** are recomputed after every move and every edit. Pins and castling conditions
//!   (path empty and unattacked, not in check) are not stored: move generation computes them.
//! - **Castling rights** are facts, not derivations: a right is lost when its king or rook moves or
//!   the rook leaves its corner (captured, or removed, R5), and only a rook dropped on its corner
//!   under P5 gains one. Whether a king has ever moved is a fact too (P5a).
//! - **The halfmove clock** counts this board's moves since its last capture, pawn move or drop
//!   (E5); a removal is none of these on this board and leaves it alone.

use std::fmt;

use crate::{
    Bitboard, Board, ByColor, Captured, Castling, CastlingSide, Color, DropRules, Move, Piece, Pockets, Rank,
    Role, Square, zobrist,
};

/// A chess position, optionally with pockets (then drops are legal moves).
///
/// The position keeps its Zobrist hash and the pieces giving check up to date as moves are
/// played and pieces are put or removed, so both are cheap to read; the en passant right is
/// derived when asked (module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Position {
    pub(crate) board: Board,
    pub(crate) pockets: Option<Pockets>,
    pub(crate) turn: Color,
    pub(crate) castling: Castling,
    /// The square the last move's double step passed over, kept when a pawn of the side to move
    /// stands beside the pushed pawn (otherwise no capture could ever arise before the next move:
    /// nothing but a move adds a pawn). Whether the capture is legal is derived.
    pub(crate) ep_target: Option<Square>,
    pub(crate) halfmoves: u32,
    pub(crate) fullmoves: u32,
    pub(crate) drop_rules: DropRules,
    pub(crate) checkers: Bitboard,
    /// The hash of everything but the en passant right (see [`Position::zobrist`]).
    pub(crate) hash: u64,
}

impl Default for Position {
    fn default() -> Position {
        Position::new()
    }
}

impl Position {
    /// The standard starting position, without pockets.
    pub fn new() -> Position {
        let castling = Castling {
            rooks: Bitboard(0x8100_0000_0000_0081),
            king_moved: ByColor { white: false, black: false },
            ..Castling::default()
        };
        let mut pos = Position {
            board: Board::standard(),
            pockets: None,
            turn: Color::White,
            castling,
            ep_target: None,
            halfmoves: 0,
            fullmoves: 1,
            drop_rules: DropRules::default(),
            checkers: Bitboard::EMPTY,
            hash: 0,
        };
        pos.refresh();
        pos
    }

    /// Recomputes the derived state (checkers, hash) from scratch.
    pub(crate) fn refresh(&mut self) {
        self.checkers = self.compute_checkers();
        self.hash = self.compute_hash();
    }

    fn compute_checkers(&self) -> Bitboard {
        match self.board.king_of(self.turn) {
            Some(king) => self.board.attackers_to(king, !self.turn, self.board.occupied()),
            None => Bitboard::EMPTY,
        }
    }

    /// The stored part of the hash: everything but the en passant right, which is derived.
    pub(crate) fn compute_hash(&self) -> u64 {
        let mut h = 0;
        for (sq, piece) in self.board.pieces() {
            h ^= zobrist::piece(piece, sq);
        }
        if self.turn == Color::Black {
            h ^= zobrist::black_to_move();
        }
        for sq in self.castling.rooks {
            h ^= zobrist::castling_rook(sq);
        }
        for color in Color::ALL {
            if self.castling.king_moved[color] {
                h ^= self.king_moved_key(color);
            }
        }
        if let Some(pockets) = &self.pockets {
            for color in Color::ALL {
                for role in Role::POCKET {
                    h ^= zobrist::pocket(color, role, pockets.count(role.of(color)));
                }
            }
        }
        h
    }

    /// The piece placement.
    #[inline]
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The pockets, if this position has them.
    #[inline]
    pub fn pockets(&self) -> Option<&Pockets> {
        self.pockets.as_ref()
    }

    /// The side to move.
    #[inline]
    pub fn turn(&self) -> Color {
        self.turn
    }

    /// The castling state.
    #[inline]
    pub fn castling(&self) -> &Castling {
        &self.castling
    }

    /// Halfmoves since the last capture, pawn move or drop (FIDE 9.3; RULES.md E5).
    #[inline]
    pub fn halfmoves(&self) -> u32 {
        self.halfmoves
    }

    /// The move number, starting at 1 and incremented after Black's move.
    #[inline]
    pub fn fullmoves(&self) -> u32 {
        self.fullmoves
    }

    /// The drop rules in force.
    #[inline]
    pub fn drop_rules(&self) -> &DropRules {
        &self.drop_rules
    }

    /// Sets the drop rules.
    pub fn set_drop_rules(&mut self, rules: DropRules) {
        self.drop_rules = rules;
        self.hash = self.compute_hash();
    }

    /// Whether a king has moved is part of the position only where it can still matter: when a
    /// dropped rook may castle (RULES.md P5). Otherwise the castling rights say it all.
    #[inline]
    fn king_moved_key(&self, color: Color) -> u64 {
        if self.drop_rules.castle_with_dropped_rook() { zobrist::king_moved(color) } else { 0 }
    }

    /// The pieces giving check to the side to move.
    #[inline]
    pub fn checkers(&self) -> Bitboard {
        self.checkers
    }

    /// Whether the side to move is in check.
    #[inline]
    pub fn is_check(&self) -> bool {
        self.checkers.is_nonempty()
    }

    /// The Zobrist hash: placement, side to move, castling rights (and whether each king has moved,
    /// when a dropped rook may castle), the en passant right as it stands
    /// ([`Position::ep_square`]), and pocket contents. Equal positions (FIDE 9.2, with pockets)
    /// hash equal.
    #[inline]
    pub fn zobrist(&self) -> u64 {
        match self.ep_target {
            None => self.hash,
            Some(_) => self.hash ^ self.ep_square().map_or(0, zobrist::en_passant),
        }
    }

    /// Whether the side to move is checkmated: in check with no legal move (drops included).
    pub fn is_checkmate(&self) -> bool {
        self.is_check() && !self.has_legal_move()
    }

    /// Whether the side to move is stalemated: not in check and no legal move (drops included).
    pub fn is_stalemate(&self) -> bool {
        !self.is_check() && !self.has_legal_move()
    }

    /// Gives the position pockets (empty) if it has none, so that drops become possible.
    pub fn enable_pockets(&mut self) {
        if self.pockets.is_none() {
            self.pockets = Some(Pockets::default());
        }
    }

    /// Adds a piece to a side's pocket (giving the position pockets if it had none).
    ///
    /// # Errors
    /// Kings cannot be held, and a pocket holds at most [`Pockets::MAX_PER_ROLE`] of one role.
    pub fn add_to_pocket(&mut self, piece: Piece) -> Result<(), crate::PocketError> {
        let pockets = self.pockets.get_or_insert_with(Pockets::default);
        let before = pockets.count(piece);
        pockets.of_mut(piece.color).add(piece.role)?;
        self.hash ^= zobrist::pocket(piece.color, piece.role, before)
            ^ zobrist::pocket(piece.color, piece.role, before + 1);
        Ok(())
    }

    /// Takes a piece out of a side's pocket (not as a move: a variant's bookkeeping).
    ///
    /// # Errors
    /// When the pocket does not hold that piece.
    pub fn remove_from_pocket(&mut self, piece: Piece) -> Result<(), crate::PocketError> {
        let Some(pockets) = self.pockets.as_mut() else {
            return Err(crate::PocketError::Missing(piece.role));
        };
        let before = pockets.count(piece);
        pockets.of_mut(piece.color).remove(piece.role)?;
        self.hash ^= zobrist::pocket(piece.color, piece.role, before)
            ^ zobrist::pocket(piece.color, piece.role, before - 1);
        Ok(())
    }

    /// Removes the piece on a square (not as a move: a variant's removal, RULES.md R1). A rook
    /// removed from its corner loses its castling right (R5). Checkers and hash follow; the en
    /// passant right is re-derived from the board as it now stands. Returns what stood there.
    pub fn remove_piece_at(&mut self, sq: Square) -> Option<Captured> {
        let piece = self.board.piece_at(sq)?;
        let promoted = self.board.promoted().contains(sq);
        self.remove(piece, sq);
        self.remove_castling_rook(sq);
        self.after_edit();
        Some(Captured { piece, promoted, square: sq })
    }

    /// Puts a piece on an empty square (not as a move: a variant's bookkeeping, such as a
    /// take-back returning a removed piece). Checkers and hash follow; the en passant right is
    /// re-derived from the board as it now stands.
    ///
    /// # Errors
    /// When the square is occupied; then nothing changes.
    pub fn put_piece_at(&mut self, sq: Square, piece: Piece, promoted: bool) -> Result<(), Square> {
        if self.board.occupied().contains(sq) {
            return Err(sq);
        }
        self.put(piece, sq);
        self.board.set_promoted(sq, promoted);
        self.after_edit();
        Ok(())
    }

    /// After an edit outside a move: recompute the checkers. The hash was updated with the edit;
    /// the en passant right is derived when asked, so it follows the edit by itself (the fact,
    /// the double step, is unchanged: no move was played).
    fn after_edit(&mut self) {
        self.checkers = self.compute_checkers();
    }

    #[inline]
    fn put(&mut self, piece: Piece, sq: Square) {
        self.board.put(piece, sq);
        self.hash ^= zobrist::piece(piece, sq);
    }

    #[inline]
    fn remove(&mut self, piece: Piece, sq: Square) {
        self.board.remove(piece, sq);
        self.hash ^= zobrist::piece(piece, sq);
    }

    #[inline]
    fn remove_castling_rook(&mut self, sq: Square) {
        if self.castling.rooks.contains(sq) {
            self.castling.rooks ^= sq;
            self.hash ^= zobrist::castling_rook(sq);
        }
    }

    #[inline]
    fn king_has_moved(&mut self, color: Color) {
        for sq in self.castling.rooks_of(color) {
            self.remove_castling_rook(sq);
        }
        if !self.castling.king_moved[color] {
            self.castling.king_moved[color] = true;
            self.hash ^= self.king_moved_key(color);
        }
    }

    /// Plays a move after checking that it is legal. Returns the piece it captured, which the
    /// caller passes on as its variant requires (it joins no pocket here).
    ///
    /// # Errors
    /// When the move is not legal here; the position is unchanged.
    pub fn play(&mut self, m: Move) -> Result<Option<Captured>, IllegalMoveError> {
        if self.is_legal(&m) {
            Ok(self.play_unchecked(m))
        } else {
            Err(IllegalMoveError { m, fen: crate::fen::to_fen(self) })
        }
    }

    /// Plays a move known to be legal (one from [`Position::legal_moves`]). Returns the captured
    /// piece, if any. Playing an illegal move leaves the position in an unspecified (but memory
    /// safe) state.
    pub fn play_unchecked(&mut self, m: Move) -> Option<Captured> {
        let us = self.turn;
        let them = !us;
        self.ep_target = None;
        self.halfmoves = self.halfmoves.saturating_add(1);
        let mut captured = None;
        let mut double_push = None;
        match m {
            Move::Normal { role, from, to, promotion, .. } => {
                let was_promoted = self.board.promoted().contains(from);
                if self.board.by_color(them).contains(to) {
                    let piece_role = self.board.role_at(to).unwrap_or(Role::Pawn);
                    let piece = piece_role.of(them);
                    let promoted = self.board.promoted().contains(to);
                    self.remove(piece, to);
                    self.remove_castling_rook(to);
                    captured = Some(Captured { piece, promoted, square: to });
                    self.halfmoves = 0;
                }
                self.remove(role.of(us), from);
                match role {
                    Role::King => self.king_has_moved(us),
                    Role::Rook => self.remove_castling_rook(from),
                    Role::Pawn => {
                        self.halfmoves = 0;
                        if from.index().abs_diff(to.index()) == 16 {
                            double_push = Some(Square::from_index(((from.index() + to.index()) / 2) as u32));
                        }
                    }
                    _ => {}
                }
                self.put(promotion.unwrap_or(role).of(us), to);
                if (promotion.is_some() && self.pockets.is_some()) || was_promoted {
                    self.board.set_promoted(to, true);
                }
            }
            Move::EnPassant { from, to } => {
                let square = Square::from_coords(to.file(), from.rank());
                let piece = Role::Pawn.of(them);
                self.remove(piece, square);
                self.remove(Role::Pawn.of(us), from);
                self.put(Role::Pawn.of(us), to);
                captured = Some(Captured { piece, promoted: false, square });
                self.halfmoves = 0;
            }
            Move::Castle { king, rook } => {
                let side = CastlingSide::of(king, rook);
                let rook_promoted = self.board.promoted().contains(rook);
                self.remove(Role::King.of(us), king);
                self.remove(Role::Rook.of(us), rook);
                self.put(Role::King.of(us), side.king_to(us));
                self.put(Role::Rook.of(us), side.rook_to(us));
                self.board.set_promoted(side.rook_to(us), rook_promoted);
                self.king_has_moved(us);
            }
            Move::Drop { role, to } => {
                if let Some(pockets) = self.pockets.as_mut() {
                    let before = pockets.count(role.of(us));
                    if pockets.of_mut(us).remove(role).is_ok() {
                        self.hash ^=
                            zobrist::pocket(us, role, before) ^ zobrist::pocket(us, role, before - 1);
                    }
                }
                self.put(role.of(us), to);
                self.halfmoves = 0;
                if role == Role::Rook && self.drop_rules.castle_with_dropped_rook() {
                    // RULES.md P5: a rook dropped on its corner may castle if the king never moved.
                    self.grant_castling_right(us, to);
                }
            }
        }
        if us == Color::Black {
            self.fullmoves = self.fullmoves.saturating_add(1);
        }
        self.turn = them;
        self.hash ^= zobrist::black_to_move();
        self.checkers = self.compute_checkers();
        if let Some(ep) = double_push {
            self.set_ep_target(ep);
        }
        captured
    }

    /// Passes the turn without a move (a "null move"), for a search's null-move pruning: the side
    /// to move changes, the en passant right goes, nothing else does. Not a move of the game.
    ///
    /// Only meaningful when the side to move is not in check (the search never passes in check);
    /// in check the position afterwards has the old checkers forgotten, which is not a position of
    /// any game.
    pub fn play_null(&mut self) {
        self.ep_target = None;
        self.halfmoves = self.halfmoves.saturating_add(1);
        if self.turn == Color::Black {
            self.fullmoves = self.fullmoves.saturating_add(1);
        }
        self.turn = !self.turn;
        self.hash ^= zobrist::black_to_move();
        self.checkers = self.compute_checkers();
    }

    /// Gives the rook of `color` on `rook` a castling right where one can stand: the king never
    /// moved, king and rook on the back rank, the rook on the file its side's castling rooks start
    /// on. Returns whether the rook has the right afterwards.
    fn grant_castling_right(&mut self, color: Color, rook: Square) -> bool {
        if self.castling.king_moved[color]
            || rook.rank() != Rank::FIRST.relative_to(color)
            || !self.board.by_piece(Role::Rook.of(color)).contains(rook)
        {
            return false;
        }
        let Some(king) = self.board.king_of(color) else { return false };
        if king.rank() != rook.rank() || rook.file() != self.castling.rook_file(CastlingSide::of(king, rook))
        {
            return false;
        }
        if !self.castling.rooks.contains(rook) {
            self.castling.rooks |= rook;
            self.hash ^= zobrist::castling_rook(rook);
        }
        true
    }

    /// Gives back the castling right a removal took from a rook (RULES.md R5) when a take-back
    /// returns the rook to its corner: granted where the right can still stand — the rook's king
    /// never moved and the rook stands on the file its side's castling rooks start on. Returns
    /// whether the rook on `rook` now has the right (false for an empty square or another piece).
    pub fn restore_castling_right(&mut self, rook: Square) -> bool {
        match self.board.piece_at(rook) {
            Some(piece) if piece.role == Role::Rook => self.grant_castling_right(piece.color, rook),
            _ => false,
        }
    }

    /// Marks whether a side's king has ever moved (for notations that record it, RULES.md P5a).
    /// Marking it moved removes that side's castling rights.
    pub fn set_king_moved(&mut self, color: Color, moved: bool) {
        if moved {
            self.king_has_moved(color);
        } else if self.castling.king_moved[color] {
            self.castling.king_moved[color] = false;
            self.hash ^= self.king_moved_key(color);
        }
    }
}

/// A move that is not legal in the position it was played in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IllegalMoveError {
    /// The rejected move.
    pub m: Move,
    /// The position, as FEN.
    pub fen: String,
}

impl fmt::Display for IllegalMoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "illegal move {} in {}", self.m, self.fen)
    }
}

impl std::error::Error for IllegalMoveError {}
