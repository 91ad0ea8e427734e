//! Legal move generation.
//!
//! Moves are generated legal from the start, not generated pseudo-legally and filtered: the
//! generator knows the checkers, the pinned pieces and the squares that block a check, and only
//! en passant (which can uncover a rank attack through two pawns) is checked by playing it on the
//! occupancy. It reports moves in groups (a piece and its target set, or a whole shifted set of
//! pawns) to a [`Visitor`], so counting the moves (the leaves of perft) is a handful of popcounts
//! while listing them expands the same groups.

use crate::attacks::{self, between, bishop_attacks, king_attacks, knight_attacks, line, rook_attacks};
use crate::en_passant::ep_capturers;
use crate::{Bitboard, Board, CastlingSide, File, Move, MoveList, Position, Rank, Role, Square};

/// Receives the legal moves of a position in groups.
pub(crate) trait Visitor {
    /// A non-pawn piece on `from` may move to each of `targets`.
    fn piece(&mut self, role: Role, from: Square, targets: Bitboard);
    /// Pawns move to each of `targets` from the square `delta` index steps back; targets on the
    /// last rank are four promotions each.
    fn pawns(&mut self, targets: Bitboard, delta: i32);
    /// One pawn on `from` may move to each of `targets` (used for pinned pawns).
    fn pawn(&mut self, from: Square, targets: Bitboard);
    /// An en passant capture.
    fn en_passant(&mut self, from: Square, to: Square);
    /// Castling with the rook on `rook`.
    fn castle(&mut self, king: Square, rook: Square);
    /// The pocket piece `role` may be dropped on each of `targets`.
    fn drops(&mut self, role: Role, targets: Bitboard);
}

/// Counts moves without listing them.
pub(crate) struct Counter(pub(crate) usize);

impl Visitor for Counter {
    #[inline]
    fn piece(&mut self, _: Role, _: Square, targets: Bitboard) {
        self.0 += targets.count();
    }
    #[inline]
    fn pawns(&mut self, targets: Bitboard, _: i32) {
        self.0 += targets.count() + 3 * (targets & Bitboard::BACK_RANKS).count();
    }
    #[inline]
    fn pawn(&mut self, _: Square, targets: Bitboard) {
        self.0 += targets.count() + 3 * (targets & Bitboard::BACK_RANKS).count();
    }
    #[inline]
    fn en_passant(&mut self, _: Square, _: Square) {
        self.0 += 1;
    }
    #[inline]
    fn castle(&mut self, _: Square, _: Square) {
        self.0 += 1;
    }
    #[inline]
    fn drops(&mut self, _: Role, targets: Bitboard) {
        self.0 += targets.count();
    }
}

/// Lists moves.
pub(crate) struct Lister<'a> {
    pub(crate) board: &'a Board,
    pub(crate) moves: &'a mut MoveList,
}

impl Lister<'_> {
    #[inline]
    fn pawn_to(&mut self, from: Square, to: Square) {
        let capture = self.board.role_at(to);
        if Bitboard::BACK_RANKS.contains(to) {
            for promotion in Role::PROMOTION {
                self.moves.push(Move::Normal {
                    role: Role::Pawn,
                    from,
                    capture,
                    to,
                    promotion: Some(promotion),
                });
            }
        } else {
            self.moves.push(Move::Normal { role: Role::Pawn, from, capture, to, promotion: None });
        }
    }
}

impl Visitor for Lister<'_> {
    #[inline]
    fn piece(&mut self, role: Role, from: Square, targets: Bitboard) {
        for to in targets {
            let capture = self.board.role_at(to);
            self.moves.push(Move::Normal { role, from, capture, to, promotion: None });
        }
    }
    #[inline]
    fn pawns(&mut self, targets: Bitboard, delta: i32) {
        for to in targets {
            self.pawn_to(Square::from_index((to.index() as i32 - delta) as u32), to);
        }
    }
    #[inline]
    fn pawn(&mut self, from: Square, targets: Bitboard) {
        for to in targets {
            self.pawn_to(from, to);
        }
    }
    #[inline]
    fn en_passant(&mut self, from: Square, to: Square) {
        self.moves.push(Move::EnPassant { from, to });
    }
    #[inline]
    fn castle(&mut self, king: Square, rook: Square) {
        self.moves.push(Move::Castle { king, rook });
    }
    #[inline]
    fn drops(&mut self, role: Role, targets: Bitboard) {
        for to in targets {
            self.moves.push(Move::Drop { role, to });
        }
    }
}

/// Tells whether one given move is among the legal ones, without listing them: each group the
/// generator reports is a bitboard test, so checking a move costs the generation's set
/// arithmetic alone (a server checks every move it is sent, twice: reading it and playing it).
struct Finder<'a> {
    board: &'a Board,
    wanted: Move,
    found: bool,
}

impl Finder<'_> {
    /// Whether the wanted move is the pawn move `from`–`to` as the generator lists it: capturing
    /// what stands on `to`, promoting (to one of [`Role::PROMOTION`]) exactly on the last rank.
    #[inline]
    fn is_pawn_move(&self, from: Square, to: Square) -> bool {
        let Move::Normal { role: Role::Pawn, from: f, capture, to: t, promotion } = self.wanted else {
            return false;
        };
        f == from
            && t == to
            && capture == self.board.role_at(to)
            && match promotion {
                Some(role) => Bitboard::BACK_RANKS.contains(to) && Role::PROMOTION.contains(&role),
                None => !Bitboard::BACK_RANKS.contains(to),
            }
    }
}

impl Visitor for Finder<'_> {
    #[inline]
    fn piece(&mut self, role: Role, from: Square, targets: Bitboard) {
        if let Move::Normal { role: r, from: f, capture, to, promotion: None } = self.wanted
            && r == role
            && f == from
            && targets.contains(to)
            && capture == self.board.role_at(to)
        {
            self.found = true;
        }
    }
    #[inline]
    fn pawns(&mut self, targets: Bitboard, delta: i32) {
        if let Move::Normal { to, .. } = self.wanted
            && targets.contains(to)
        {
            let from = Square::from_index((to.index() as i32 - delta) as u32);
            self.found |= self.is_pawn_move(from, to);
        }
    }
    #[inline]
    fn pawn(&mut self, from: Square, targets: Bitboard) {
        if let Move::Normal { to, .. } = self.wanted
            && targets.contains(to)
        {
            self.found |= self.is_pawn_move(from, to);
        }
    }
    #[inline]
    fn en_passant(&mut self, from: Square, to: Square) {
        self.found |= self.wanted == Move::EnPassant { from, to };
    }
    #[inline]
    fn castle(&mut self, king: Square, rook: Square) {
        self.found |= self.wanted == Move::Castle { king, rook };
    }
    #[inline]
    fn drops(&mut self, role: Role, targets: Bitboard) {
        if let Move::Drop { role: r, to } = self.wanted
            && r == role
            && targets.contains(to)
        {
            self.found = true;
        }
    }
}

impl Position {
    /// Pieces of the side to move that are pinned to their king.
    pub(crate) fn pinned(&self, king: Square) -> Bitboard {
        let board = self.board();
        let us = self.turn();
        let snipers = board.by_color(!us)
            & ((rook_attacks(king, Bitboard::EMPTY) & board.rooks_and_queens())
                | (bishop_attacks(king, Bitboard::EMPTY) & board.bishops_and_queens()));
        let mut pinned = Bitboard::EMPTY;
        for sniper in snipers {
            let blockers = between(king, sniper) & board.occupied();
            if !blockers.more_than_one() {
                pinned |= blockers & board.by_color(us);
            }
        }
        pinned
    }

    /// Reports every legal move to the visitor.
    pub(crate) fn visit_legal<V: Visitor>(&self, v: &mut V) {
        let board = self.board();
        let us = self.turn();
        let them = !us;
        let Some(king) = board.king_of(us) else { return };
        let occupied = board.occupied();
        let ours = board.by_color(us);
        let theirs = board.by_color(them);
        let checkers = self.checkers();

        // King steps: never onto an attacked square (the king itself does not block).
        let without_king = occupied.without(king);
        let mut king_targets = Bitboard::EMPTY;
        for to in king_attacks(king) - ours {
            if !board.is_attacked(to, them, without_king) {
                king_targets |= to;
            }
        }
        v.piece(Role::King, king, king_targets);

        if checkers.more_than_one() {
            return;
        }
        let target = match checkers.first() {
            Some(checker) => between(king, checker).with(checker),
            None => !ours,
        };

        // Pieces other than pawns and the king.
        let pinned = self.pinned(king);
        for from in board.by_role(Role::Knight) & (ours - pinned) {
            v.piece(Role::Knight, from, knight_attacks(from) & target);
        }
        for from in board.bishops_and_queens() & ours {
            let mut t = bishop_attacks(from, occupied) & target;
            if pinned.contains(from) {
                t &= line(king, from);
            }
            let role = if board.by_role(Role::Queen).contains(from) { Role::Queen } else { Role::Bishop };
            v.piece(role, from, t);
        }
        for from in board.by_role(Role::Rook) & ours {
            let mut t = rook_attacks(from, occupied) & target;
            if pinned.contains(from) {
                t &= line(king, from);
            }
            v.piece(Role::Rook, from, t);
        }
        // Queens got their diagonal moves above; add their straight moves.
        for from in board.by_role(Role::Queen) & ours {
            let mut t = rook_attacks(from, occupied) & target;
            if pinned.contains(from) {
                t &= line(king, from);
            }
            v.piece(Role::Queen, from, t);
        }

        // Pawns: unpinned ones set-wise, pinned ones one by one.
        let pawns = board.by_role(Role::Pawn) & ours;
        let forward: i32 = us.fold(8, -8);
        let empty = !occupied;
        let third = Bitboard::rank(Rank::new(2).expect("rank 3").relative_to(us));
        let free = pawns - pinned;
        let single = free.shift(forward) & empty;
        let double = (single & third).shift(forward) & empty & target;
        v.pawns(single & target, forward);
        v.pawns(double, 2 * forward);
        let not_a = !Bitboard::file(File::A);
        let not_h = !Bitboard::file(File::H);
        // A capture towards the a-file shifts by forward − 1 and must not start on the a-file.
        v.pawns((free & not_a).shift(forward - 1) & theirs & target, forward - 1);
        v.pawns((free & not_h).shift(forward + 1) & theirs & target, forward + 1);
        if checkers.is_empty() {
            for from in pawns & pinned {
                let pin_line = line(king, from);
                let mut t = attacks::pawn_attacks(us, from) & theirs;
                if let Some(one) = from.offset(forward).filter(|&s| empty.contains(s)) {
                    t |= one;
                    if third.contains(one)
                        && let Some(two) = one.offset(forward).filter(|&s| empty.contains(s))
                    {
                        t |= two;
                    }
                }
                v.pawn(from, t & pin_line);
            }
        }
        if let Some(ep) = self.ep_candidate() {
            for from in ep_capturers(board, us, ep) {
                if self.is_safe_en_passant(king, from, ep) {
                    v.en_passant(from, ep);
                }
            }
        }

        // Castling (never out of check).
        if checkers.is_empty() {
            for rook in self.castling().rooks_of(us) {
                let side = CastlingSide::of(king, rook);
                let (king_to, rook_to) = (side.king_to(us), side.rook_to(us));
                let king_path = between(king, king_to).with(king_to);
                let must_be_empty =
                    (king_path | between(rook, rook_to).with(rook_to)).without(king).without(rook);
                if (must_be_empty & occupied).is_nonempty() {
                    continue;
                }
                let after = occupied.without(king).without(rook);
                if king_path.into_iter().all(|sq| !board.is_attacked(sq, them, after)) {
                    v.castle(king, rook);
                }
            }
        }

        // Drops on empty squares that do not leave the king in check.
        if let Some(pockets) = self.pockets() {
            let pocket = pockets.of(us);
            if !pocket.is_empty() {
                let drop_target = match checkers.first() {
                    Some(checker) => between(king, checker),
                    None => empty,
                };
                for role in Role::POCKET {
                    if pocket.count(role) > 0 {
                        let mut t = drop_target;
                        if role == Role::Pawn {
                            t &= self.drop_rules().pawn_drop_squares(us);
                        }
                        v.drops(role, t);
                    }
                }
            }
        }
    }

    /// All legal moves.
    pub fn legal_moves(&self) -> MoveList {
        let mut moves = MoveList::new();
        self.visit_legal(&mut Lister { board: self.board(), moves: &mut moves });
        moves
    }

    /// The number of legal moves, computed without listing them.
    pub fn count_legal(&self) -> usize {
        let mut counter = Counter(0);
        self.visit_legal(&mut counter);
        counter.0
    }

    /// Whether the side to move has at least one legal move.
    pub fn has_legal_move(&self) -> bool {
        self.count_legal() > 0
    }

    /// Whether a move is legal in this position.
    pub fn is_legal(&self, m: &Move) -> bool {
        let mut finder = Finder { board: self.board(), wanted: *m, found: false };
        self.visit_legal(&mut finder);
        finder.found
    }
}
