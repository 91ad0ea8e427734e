//! The two-board game: both positions with their reserves, and playing a move with every transfer
//! the rules prescribe.

use chess_core::{Bitboard, Captured, Color, Move, Position, Role, Square};

use crate::mate::is_mate_on_board;
use crate::options::{DropMate, Promotion, Rules, Stalemate};
use crate::{BoardId, Illegal, PlayError, Seat};

/// A move on one board of a bughouse game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct BughouseMove {
    /// The board it is played on.
    pub board: BoardId,
    /// The chess move. A promotion by removal carries the removed piece's role as its promotion
    /// role; a promotion without removal (R4) has no promotion role.
    pub mv: Move,
    /// For a promotion by removal (R1): the square of the removed piece on the other board.
    pub removal: Option<Square>,
}

impl BughouseMove {
    /// Whether this is a pawn reaching the last rank.
    pub fn is_promotion(&self) -> bool {
        matches!(self.mv, Move::Normal { role: Role::Pawn, to, .. } if Bitboard::BACK_RANKS.contains(to))
    }
}

/// Two boards, each position carrying the reserves of its two players: the White pocket of board A
/// is White-A's reserve, and so on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Game {
    pub(crate) boards: [Position; 2],
    pub(crate) rules: Rules,
}

/// What one board looks like to its players right now.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BoardStatus {
    /// The side to move.
    pub turn: Color,
    /// Whether it is in check.
    pub in_check: bool,
    /// Mate on board (M1): the game is over.
    pub mate_on_board: bool,
    /// How many legal moves it has.
    pub legal_moves: usize,
    /// No legal move and no mate on board: it waits (M2, M3).
    pub waiting: bool,
}

impl Game {
    /// The standard start on both boards, empty reserves.
    pub fn new(rules: Rules) -> Game {
        Game::from_positions(Position::new(), Position::new(), rules)
    }

    /// A game from two positions (their pockets are the reserves).
    pub fn from_positions(a: Position, b: Position, rules: Rules) -> Game {
        let mut boards = [a, b];
        for pos in &mut boards {
            pos.enable_pockets();
            pos.set_drop_rules(rules.drops);
        }
        Game { boards, rules }
    }

    /// The rules in force.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// One board's position.
    pub fn board(&self, board: BoardId) -> &Position {
        &self.boards[board.index()]
    }

    /// The seat to move on a board.
    pub fn to_move(&self, board: BoardId) -> Seat {
        Seat::new(board, self.board(board).turn())
    }

    /// How many pieces of a role a player holds (S4: every reserve is public).
    pub fn reserve(&self, seat: Seat, role: Role) -> u8 {
        self.board(seat.board).pockets().map_or(0, |p| p.count(role.of(seat.color)))
    }

    /// Mate on board (M1) on a board: its side to move has lost.
    pub fn is_mate_on_board(&self, board: BoardId) -> bool {
        is_mate_on_board(self.board(board))
    }

    /// The repetition key of a board (E4): placement, side to move, castling and en passant
    /// rights, and both reserves of that board.
    pub fn repetition_key(&self, board: BoardId) -> u64 {
        self.board(board).zobrist()
    }

    /// Halfmoves since the last capture, pawn move or drop on a board (E5: 100 may be claimed,
    /// 150 draws by itself).
    pub fn halfmoves(&self, board: BoardId) -> u32 {
        self.board(board).halfmoves()
    }

    /// The status of a board.
    pub fn status(&self, board: BoardId) -> BoardStatus {
        let pos = self.board(board);
        let legal = self.legal_moves(board).len();
        let mate = self.is_mate_on_board(board);
        BoardStatus {
            turn: pos.turn(),
            in_check: pos.is_check(),
            mate_on_board: mate,
            legal_moves: legal,
            waiting: legal == 0 && !mate,
        }
    }

    /// Whether a board is stalemated and the rules make that a draw (M3, option `draw`).
    pub fn is_stalemate_draw(&self, board: BoardId) -> bool {
        self.rules.stalemate == Stalemate::Draw
            && !self.board(board).is_check()
            && self.legal_moves(board).is_empty()
    }

    /// The pieces of `seat` on its board that may be removed for a promotion of its crosswise
    /// player (R1, R3): knights, bishops, rooks and queens whose removal leaves a legal position
    /// (the side not to move there is not in check; `seat` is not mated on board when it is his
    /// turn).
    pub fn removable(&self, seat: Seat) -> Vec<Square> {
        let pos = self.board(seat.board);
        let board = pos.board();
        let pieces = board.by_color(seat.color) - board.by_role(Role::Pawn) - board.by_role(Role::King);
        pieces.filter(|&sq| removal_is_legal(pos, seat.color, sq)).collect()
    }

    /// Every legal move on a board: the chess core's moves, with drops that would give mate on
    /// board removed (P3, when forbidden) and promotions expanded into one move per removable
    /// piece, or into the single promotion without removal (R1–R4).
    pub fn legal_moves(&self, board: BoardId) -> Vec<BughouseMove> {
        let pos = self.board(board);
        let mover = pos.turn();
        let mut out = Vec::new();
        let mut removable: Option<Vec<Square>> = None;
        for mv in pos.legal_moves() {
            let bm = BughouseMove { board, mv, removal: None };
            match mv {
                Move::Normal { promotion: Some(role), from, capture, to, .. }
                    if self.rules.promotion == Promotion::Removal =>
                {
                    // The core lists four promotions per target; expand once, from the queen's.
                    if role != Role::Queen {
                        continue;
                    }
                    let squares =
                        removable.get_or_insert_with(|| self.removable(Seat::new(board.other(), mover)));
                    if squares.is_empty() {
                        let plain = Move::Normal { role: Role::Pawn, from, capture, to, promotion: None };
                        if vanishing_promotion_is_safe(pos, mv) {
                            out.push(BughouseMove { board, mv: plain, removal: None });
                        }
                    } else {
                        let other = self.board(board.other()).board();
                        for &sq in squares.iter() {
                            let removed = other.role_at(sq).expect("removable square holds a piece");
                            let mv = Move::Normal {
                                role: Role::Pawn,
                                from,
                                capture,
                                to,
                                promotion: Some(removed),
                            };
                            out.push(BughouseMove { board, mv, removal: Some(sq) });
                        }
                    }
                }
                Move::Drop { role, to } if self.rules.drop_mate == DropMate::Forbidden => {
                    if !drop_mates(pos, role, to) {
                        out.push(bm);
                    }
                }
                _ => out.push(bm),
            }
        }
        out
    }

    /// Whether a move is legal now: exactly whether [`Game::legal_moves`] lists it, decided for
    /// this move alone (the core's check of one move, the drop-mate and removal rules applied to
    /// it only), so checking a move does not list and filter every move of the board.
    pub fn is_legal(&self, m: &BughouseMove) -> bool {
        let pos = self.board(m.board);
        match m.mv {
            Move::Normal { role: Role::Pawn, from, capture, to, promotion }
                if self.rules.promotion == Promotion::Removal && Bitboard::BACK_RANKS.contains(to) =>
            {
                // The core's queen promotion stands for the move (R1–R4, as `legal_moves`).
                let as_queen =
                    Move::Normal { role: Role::Pawn, from, capture, to, promotion: Some(Role::Queen) };
                if !pos.is_legal(&as_queen) {
                    return false;
                }
                let squares = self.removable(Seat::new(m.board.other(), pos.turn()));
                match m.removal {
                    None => {
                        squares.is_empty()
                            && promotion.is_none()
                            && vanishing_promotion_is_safe(pos, as_queen)
                    }
                    Some(sq) => {
                        squares.contains(&sq) && promotion == self.board(m.board.other()).board().role_at(sq)
                    }
                }
            }
            _ if m.removal.is_some() => false,
            Move::Drop { role, to } if self.rules.drop_mate == DropMate::Forbidden => {
                pos.is_legal(&m.mv) && !drop_mates(pos, role, to)
            }
            _ => pos.is_legal(&m.mv),
        }
    }

    /// Plays a move on its board with every transfer: a capture goes to the capturer's partner
    /// (C1; a promoted piece as a pawn under R6); a promotion by removal takes the piece from the
    /// crosswise player's board and gives him the pawn (R1, R2); one without removal gives him the
    /// pawn and leaves the square empty (R4). The board a removal changes keeps no right from
    /// before it: check and the en passant right are those of the position as it now stands
    /// (RULES.md section 10, "Rights after a removal").
    ///
    /// # Errors
    /// A [`PlayError`] naming the rule the move breaks; the game is unchanged.
    pub fn play(&mut self, m: BughouseMove) -> Result<(), PlayError> {
        if !self.is_legal(&m) {
            return Err(self.explain_illegal(&m));
        }
        self.play_unchecked(m);
        Ok(())
    }

    /// Plays a move known to be legal (from [`Game::legal_moves`]).
    pub fn play_unchecked(&mut self, m: BughouseMove) {
        let (b, o) = (m.board.index(), m.board.other().index());
        let mover = self.boards[b].turn();
        let captured: Option<Captured>;
        match (m.mv, m.removal) {
            (Move::Normal { role: Role::Pawn, to, promotion: Some(_), .. }, Some(removal)) => {
                captured = self.boards[b].play_unchecked(m.mv);
                // The removed piece stands on the promotion square as an ordinary piece (R5).
                if let Some(piece) = self.boards[b].remove_piece_at(to) {
                    let _ = self.boards[b].put_piece_at(to, piece.piece, false);
                }
                let _ = self.boards[o].remove_piece_at(removal);
                self.give(o, Role::Pawn.of(mover));
            }
            (Move::Normal { role: Role::Pawn, from, capture, to, promotion: None }, None)
                if m.is_promotion() =>
            {
                let as_queen =
                    Move::Normal { role: Role::Pawn, from, capture, to, promotion: Some(Role::Queen) };
                captured = self.boards[b].play_unchecked(as_queen);
                let _ = self.boards[b].remove_piece_at(to);
                self.give(o, Role::Pawn.of(mover));
            }
            _ => captured = self.boards[b].play_unchecked(m.mv),
        }
        if let Some(c) = captured {
            let role = if c.promoted && self.rules.promotion == Promotion::Upgrade {
                Role::Pawn
            } else {
                c.piece.role
            };
            // The captured piece keeps its colour: that is the colour of the capturer's partner.
            self.give(o, role.of(c.piece.color));
        }
    }

    fn give(&mut self, board: usize, piece: chess_core::Piece) {
        // A reserve holds up to 64 of a role; with 32 units per colour it never fills.
        let _ = self.boards[board].add_to_pocket(piece);
    }

    /// How many units (pieces on both boards plus reserves) a colour owns; 32 in any position
    /// reached from the start (C2).
    pub fn units(&self, color: Color) -> u32 {
        self.boards
            .iter()
            .map(|p| {
                p.board().by_color(color).count() as u32 + p.pockets().map_or(0, |k| k.of(color).total())
            })
            .sum()
    }

    /// Explains why a move is not legal, naming the rule.
    fn explain_illegal(&self, m: &BughouseMove) -> PlayError {
        let pos = self.board(m.board);
        let seat = self.to_move(m.board);
        let why = match m.mv {
            Move::Drop { role, to } => {
                if self.reserve(seat, role) == 0 {
                    Illegal::NotInReserve { seat, role }
                } else if pos.board().occupied().contains(to) {
                    Illegal::Occupied(to)
                } else if role == Role::Pawn && !self.rules.drops.pawn_drop_squares(seat.color).contains(to) {
                    let r = self.rules.drops.pawn_ranks();
                    Illegal::PawnRank { first: *r.start(), last: *r.end() }
                } else if pos.is_legal(&m.mv) {
                    Illegal::DropMates
                } else {
                    Illegal::DropLeavesCheck
                }
            }
            _ if m.is_promotion() && self.rules.promotion == Promotion::Removal => self.explain_promotion(m),
            _ => illegal_chess(pos),
        };
        PlayError::new(m.board, why)
    }

    fn explain_promotion(&self, m: &BughouseMove) -> Illegal {
        let seat = self.to_move(m.board);
        let cross = seat.crosswise();
        let (from, to, capture) = match m.mv {
            Move::Normal { from, to, capture, .. } => (from, to, capture),
            _ => return illegal_chess(self.board(m.board)),
        };
        let as_queen = Move::Normal { role: Role::Pawn, from, capture, to, promotion: Some(Role::Queen) };
        if !self.board(m.board).is_legal(&as_queen) {
            return illegal_chess(self.board(m.board));
        }
        match m.removal {
            None if !self.removable(cross).is_empty() => Illegal::MustRemove { crosswise: cross },
            None => Illegal::VanishingLeavesCheck,
            Some(square) => match self.board(cross.board).board().piece_at(square) {
                Some(p) if p.color == cross.color && !matches!(p.role, Role::Pawn | Role::King) => {
                    if Some(p.role) != m.mv.promotion() {
                        Illegal::WrongPiece { square, board: cross.board, role: p.role }
                    } else {
                        Illegal::RemovalLeavesIllegal { square, board: cross.board, role: p.role }
                    }
                }
                _ => Illegal::NotRemovable { square, crosswise: cross },
            },
        }
    }
}

/// R3: whether removing the piece on `sq` (of `owner`) leaves the board legal: the side not to
/// move there is not in check (whichever side that is: removing one of `owner`'s pieces can
/// uncover his own attack on the other king), and when `owner` is to move he is not mated on
/// board.
fn removal_is_legal(pos: &Position, owner: Color, sq: Square) -> bool {
    let mut after = *pos;
    if after.remove_piece_at(sq).is_none() {
        return false;
    }
    let waiting = !after.turn();
    let king = after.board().king_of(waiting).expect("a legal setup has both kings");
    if after.board().is_attacked(king, !waiting, after.board().occupied()) {
        return false;
    }
    after.turn() != owner || !is_mate_on_board(&after)
}

/// R4: a pawn that promotes and vanishes must not uncover its own king.
/// P3: whether dropping `role` on `to` (a legal drop in chess terms) mates on the board. A drop
/// only blocks lines, so it checks only by its own attack; most drops give no check and need no
/// closer look.
fn drop_mates(pos: &Position, role: Role, to: Square) -> bool {
    let mover = pos.turn();
    let occupied = pos.board().occupied().with(to);
    let checks = pos
        .board()
        .king_of(!mover)
        .is_some_and(|k| chess_core::attacks::attacks(role, mover, to, occupied).contains(k));
    checks && {
        let mut after = *pos;
        after.play_unchecked(Move::Drop { role, to });
        is_mate_on_board(&after)
    }
}

fn vanishing_promotion_is_safe(pos: &Position, as_queen: Move) -> bool {
    let mover = pos.turn();
    let mut after = *pos;
    after.play_unchecked(as_queen);
    let _ = after.remove_piece_at(as_queen.to());
    let king = after.board().king_of(mover).expect("a legal setup has both kings");
    !after.board().is_attacked(king, !mover, after.board().occupied())
}

/// Why a move is illegal in ordinary chess: in check, that first.
pub(crate) fn illegal_chess(pos: &Position) -> Illegal {
    Illegal::Chess { in_check: pos.is_check() }
}
