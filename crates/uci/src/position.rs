//! Between shvedka's rules and a bughouse UCI engine's: which rule sets the engine can play, a
//! board as the FEN the engine reads, and the engine's answer as a shvedka move.
//!
//! Fairy-Stockfish's `bughouse` is crazyhouse on one board whose captures do not go to the
//! capturer's hand: the driver tells it the holdings with every position. What it assumes, held
//! against shvedka's `classic` preset (RULES.md section 9):
//! - promotion upgrades (R6), and a promoted piece is marked `~` in the FEN, as shvedka's FEN
//!   writes it; where a captured promoted piece goes (back as a pawn, to the partner) is shvedka's
//!   business, since the engine never moves material between boards;
//! - pawns are dropped on ranks 2–7 (P2) and a drop may mate (P3);
//! - castling follows the rights in the FEN, which shvedka gives a dropped rook only under P5 (off
//!   in `classic`); Chess960 would need other castling rights and is refused;
//! - the engine's mate is the FIDE mate with the holdings as they are, while shvedka's is mate on
//!   board (M1): a check from a distance with a square to drop on is not mate but waiting (M2).
//!   The legal moves are the same either way; only the engine's judgement differs (it plays for,
//!   and fears, "mates" after which shvedka's game goes on), and when it has no move it answers
//!   `bestmove (none)`, which the driver reads as waiting.
//!
//! So the MGIMO preset (promotion by removal R1–R5, pawn drops 2–6, no drop mate, a dropped rook
//! castling) is refused: those are different legal moves, not a different judgement.

use std::fmt;

use bughouse::{BoardId, BughouseMove, DropMate, Game, Promotion, Rules};
use chess_core::{DropRules, UciMove};

/// A rule of shvedka's where a bughouse UCI engine would play other moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Difference {
    /// R1–R6: promotion by removal (the engine upgrades).
    PromotionByRemoval,
    /// P2: pawn drops on other ranks than 2–7 (the ranks given, counted from the dropper).
    PawnDropRanks(u8, u8),
    /// P3: drops may not mate (the engine drops to mate).
    NoDropMate,
    /// P5: a dropped rook may castle (the engine castles by the FEN's rights only).
    CastleWithDroppedRook,
    /// A Chess960 start (the engine would need X-FEN castling).
    Chess960,
}

impl fmt::Display for Difference {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Difference::PromotionByRemoval => f.write_str("promotion by removal (R1-R5)"),
            Difference::PawnDropRanks(lo, hi) => write!(f, "pawn drops on ranks {lo}-{hi}, not 2-7 (P2)"),
            Difference::NoDropMate => f.write_str("no drop that mates (P3)"),
            Difference::CastleWithDroppedRook => f.write_str("castling with a dropped rook (P5)"),
            Difference::Chess960 => f.write_str("a Chess960 start"),
        }
    }
}

/// Rules a bughouse UCI engine cannot play: every difference from the `classic` preset that
/// changes the legal moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Incompatible(pub Vec<Difference>);

impl fmt::Display for Incompatible {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let list: Vec<String> = self.0.iter().map(ToString::to_string).collect();
        write!(
            f,
            "a bughouse UCI engine plays the classic preset only; these rules differ: {}",
            list.join(", ")
        )
    }
}

impl std::error::Error for Incompatible {}

/// An engine's move that shvedka does not accept in the position it was asked about.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RefusedMove {
    /// What the engine said.
    pub text: String,
    /// Why it is refused (unreadable as long notation, or illegal naming the rule).
    pub reason: String,
}

impl fmt::Display for RefusedMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "the engine's move {:?} is refused: {}", self.text, self.reason)
    }
}

impl std::error::Error for RefusedMove {}

/// Whether a bughouse UCI engine plays by `rules` (those of the `classic` preset, as far as they
/// decide the legal moves; stalemate, draw agreement and flags are the match's business).
///
/// # Errors
/// [`Incompatible`] listing every difference.
pub fn check_rules(rules: &Rules) -> Result<(), Incompatible> {
    let mut differences = Vec::new();
    if rules.promotion == Promotion::Removal {
        differences.push(Difference::PromotionByRemoval);
    }
    let engine = DropRules::default();
    let ranks = rules.drops.pawn_ranks();
    if ranks != engine.pawn_ranks() {
        differences.push(Difference::PawnDropRanks(*ranks.start(), *ranks.end()));
    }
    if rules.drop_mate == DropMate::Forbidden {
        differences.push(Difference::NoDropMate);
    }
    if rules.drops.castle_with_dropped_rook() {
        differences.push(Difference::CastleWithDroppedRook);
    }
    if differences.is_empty() { Ok(()) } else { Err(Incompatible(differences)) }
}

/// Board `board` of `game` as the FEN a bughouse UCI engine reads: the placement with `~` after
/// promoted pieces, both players' reserves in brackets (`[QPpp]`), side to move, castling rights,
/// en passant square and move counters.
///
/// # Errors
/// [`Incompatible`] when the game's rules or a Chess960 start differ from what the engine plays.
pub fn engine_fen(game: &Game, board: BoardId) -> Result<String, Incompatible> {
    check_rules(game.rules())?;
    let position = game.board(board);
    if position.castling().is_chess960() {
        return Err(Incompatible(vec![Difference::Chess960]));
    }
    // The chess core writes exactly this: `~` marks and brackets come with the pockets, and its
    // castling field has no BFEN `U` (that is added by the bughouse crate's BFEN writer only).
    Ok(position.fen())
}

/// The engine's long-notation answer (`e2e4`, `e7e8q`, `P@e4`, `e1g1`) as a legal shvedka move
/// on `board`.
///
/// # Errors
/// [`RefusedMove`] when the text is not long notation or names no legal move here.
pub fn read_move(game: &Game, board: BoardId, text: &str) -> Result<BughouseMove, RefusedMove> {
    let refuse = |reason: String| RefusedMove { text: text.to_owned(), reason };
    // Long notation only: `Game::parse_move` would also take SAN, which no UCI engine writes.
    UciMove::parse(text).map_err(|e| refuse(e.to_string()))?;
    game.parse_move(board, text).map_err(|e| refuse(e.to_string()))
}

#[cfg(test)]
mod tests {
    use bughouse::RuleOptions;
    use chess_core::{Move, Role, Square};

    use super::*;

    fn classic(bfen: &str) -> Game {
        Game::from_bfen(bfen, RuleOptions::classic().rules().unwrap()).unwrap()
    }

    #[test]
    fn r6_p2_p3_p5_the_classic_preset_is_what_the_engine_plays() {
        assert_eq!(check_rules(&RuleOptions::classic().rules().unwrap()), Ok(()));
    }

    #[test]
    fn r1_p2_p3_p5_the_mgimo_preset_is_refused_with_every_difference_named() {
        let err = check_rules(&RuleOptions::mgimo_2017().rules().unwrap()).unwrap_err();
        assert_eq!(
            err.0,
            [
                Difference::PromotionByRemoval,
                Difference::PawnDropRanks(2, 6),
                Difference::NoDropMate,
                Difference::CastleWithDroppedRook
            ]
        );
        let text = err.to_string();
        assert!(text.contains("classic") && text.contains("P2") && text.contains("R1"), "{text}");
    }

    #[test]
    fn p2_a_classic_preset_with_other_pawn_ranks_is_refused() {
        let mut options = RuleOptions::classic();
        options.pawn_drop_ranks = [2, 6];
        assert_eq!(
            check_rules(&options.rules().unwrap()),
            Err(Incompatible(vec![Difference::PawnDropRanks(2, 6)]))
        );
    }

    #[test]
    fn s4_r6_the_fen_carries_both_reserves_in_brackets_and_promoted_pieces_with_a_tilde() {
        // Board A: White holds a queen and a pawn, Black two pawns; a promoted white queen on d8
        // (R6: captured, it returns as a pawn). Board B as at the start.
        let game = classic(
            "r2Q~kb1r/ppp2ppp/2n2n2/8/8/8/PPP2PPP/RNB1KBNR[QPpp] b KQkq - 0 9 | \
             rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1",
        );
        assert_eq!(
            engine_fen(&game, BoardId::A).unwrap(),
            "r2Q~kb1r/ppp2ppp/2n2n2/8/8/8/PPP2PPP/RNB1KBNR[QPpp] b KQkq - 0 9"
        );
        assert_eq!(
            engine_fen(&game, BoardId::B).unwrap(),
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1"
        );
    }

    #[test]
    fn p5a_the_unmoved_king_mark_of_bfen_never_reaches_the_engine() {
        // BFEN's `U` (P5a) is shvedka's own: the engine gets plain FEN castling rights.
        let game = classic("4k3/8/8/8/8/8/8/4K3[R] w U - 0 1 | 4k3/8/8/8/8/8/8/4K3[] w - - 0 1");
        assert_eq!(engine_fen(&game, BoardId::A).unwrap(), "4k3/8/8/8/8/8/8/4K3[R] w - - 0 1");
    }

    #[test]
    fn chess960_a_chess960_start_is_refused() {
        let game = Game::chess960(0, RuleOptions::classic().rules().unwrap());
        assert_eq!(engine_fen(&game, BoardId::A), Err(Incompatible(vec![Difference::Chess960])));
    }

    #[test]
    fn p3_an_mgimo_game_has_no_engine_fen() {
        let game = Game::new(RuleOptions::mgimo_2017().rules().unwrap());
        assert!(engine_fen(&game, BoardId::A).is_err());
    }

    #[test]
    fn p1_r6_drops_promotions_and_castling_are_read_as_shvedka_moves() {
        let game = classic(
            "8/2k1P3/8/8/8/8/8/R3K2R[Pn] w KQ - 0 20 | rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1",
        );
        let drop = read_move(&game, BoardId::A, "P@e4").unwrap();
        assert_eq!(drop.mv, Move::Drop { role: Role::Pawn, to: "e4".parse::<Square>().unwrap() });
        let promotion = read_move(&game, BoardId::A, "e7e8q").unwrap();
        assert_eq!(promotion.mv.promotion(), Some(Role::Queen));
        let under = read_move(&game, BoardId::A, "e7e8n").unwrap();
        assert_eq!(under.mv.promotion(), Some(Role::Knight));
        let castle = read_move(&game, BoardId::A, "e1g1").unwrap();
        assert!(matches!(castle.mv, Move::Castle { .. }), "{castle:?}");
    }

    #[test]
    fn p2_a_pawn_drop_on_the_eighth_rank_is_refused_naming_the_rule() {
        let game = classic(
            "4k3/8/8/8/8/8/8/4K3[P] w - - 0 1 | rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1",
        );
        let err = read_move(&game, BoardId::A, "P@a8").unwrap_err();
        assert_eq!(err.text, "P@a8");
        assert!(err.reason.contains("P2"), "{err}");
    }

    #[test]
    fn p1_a_drop_of_a_piece_not_held_and_san_and_garbage_are_refused() {
        let game = classic(
            "4k3/8/8/8/8/8/4P3/4K3[] w - - 0 1 | rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1",
        );
        for text in ["N@f3", "e4", "e2e4e5", "", "zz"] {
            assert!(read_move(&game, BoardId::A, text).is_err(), "{text:?} accepted");
        }
        assert!(read_move(&game, BoardId::A, "e2e4").is_ok());
    }
}
