//! The arbiter's check of a record entered from an over-the-board game (RULES.md A1).
//!
//! [`check_record`] replays the record and stops at the first impossible move, classified as if
//! it had been noticed at once (A1: one noticed only moves later stands if the resulting position
//! is legal, which is the arbiter's call and not decided here).
//!
//! Each move is first held against ordinary chess (the chess core on the board as it stands, the
//! variant's filters lifted); failing there makes it type 1. Passing there but refused by the
//! variant makes it type 2. The table:
//!
//! | the move                                                    | type | rule |
//! |-------------------------------------------------------------|------|------|
//! | made by the side not to move on its board                   | 1    | FIDE |
//! | names a piece that is not there, or one that cannot move so | 1    | FIDE |
//! | leaves the mover's king in check                            | 1    | FIDE |
//! | captures the king                                           | 1    | M4   |
//! | castling that ordinary chess forbids                        | 1    | FIDE |
//! | pawn reaching the last rank unpromoted (upgrade preset)     | 1    | FIDE |
//! | drop on an occupied square                                  | 1    | P1   |
//! | drop that leaves the mover's king in check                  | 1    | P1   |
//! | drop of a piece not in the mover's reserve                  | 2    | P1   |
//! | pawn drop on a rank the preset forbids (1, 8; 7 in MGIMO)   | 2    | P2   |
//! | drop giving mate on board where the preset forbids it       | 2    | P3   |
//! | castling with a dropped rook where the preset forbids it    | 2    | P5   |
//! | promotion to a new piece (`e8=Q`) where removal is possible | 2    | R1   |
//! | removal of a piece that may not be removed (pawn, king, …)  | 2    | R1   |
//! | removal that leaves the other board illegal                 | 2    | R3   |
//! | promotion without removal (`e8`) where removal is possible  | 2    | R4   |
//! | `e8=Q` where nothing can be removed (the pawn must vanish)  | 2    | R4   |
//! | removal naming the wrong kind of piece (`e8=Nd1`, a queen)  | 2    | R7   |
//! | removal (`e8=Qd1`) under the upgrade preset                 | 2    | R6   |
//!
//! Consequences (A1): type 1, the mover's team loses the game; type 2, the move is taken back
//! and the other team receives one minute on each of its two clocks.

use std::fmt;

use bughouse::{Game, Rules};
use chess_core::DropRules;

use crate::classify::{Verdict, judge};
use crate::record::Record;
use crate::replay::start_game;

/// The two kinds of impossible move of RULES.md A1.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ImpossibleKind {
    /// Illegal in ordinary chess too: the mover's team loses.
    Type1,
    /// Illegal only in this variant: taken back, the other team gains a minute on both clocks.
    Type2,
}

impl ImpossibleKind {
    /// 1 or 2.
    pub const fn number(self) -> u8 {
        match self {
            ImpossibleKind::Type1 => 1,
            ImpossibleKind::Type2 => 2,
        }
    }
}

/// What the check of a record found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CheckOutcome {
    /// Every move is legal.
    Clean,
    /// The first impossible move.
    Impossible {
        /// Its index in [`Record::moves`].
        index: usize,
        /// The move as written, `14a. Q@g8`.
        label: String,
        /// Type 1 or type 2.
        kind: ImpossibleKind,
        /// The RULES.md id it breaks (`P3`, `R1`, …), or `FIDE` for ordinary chess.
        rule: String,
        /// What is wrong, in words.
        reason: String,
        /// What A1 prescribes, e.g. `the team of black-A loses the game (A1)`.
        consequence: String,
    },
    /// The record cannot be checked to the end: a bad start position, or a move that does not
    /// read as one move (malformed, or ambiguous SAN).
    Unreadable {
        /// The move's index in [`Record::moves`], `None` for the start position.
        index: Option<usize>,
        /// The move as written, or `BFEN tag`.
        label: String,
        /// Why.
        reason: String,
    },
}

impl fmt::Display for CheckOutcome {
    /// One line: `no impossible move`, or `14a. Q@g8: type 2 (P3): <reason>; <consequence>`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CheckOutcome::Clean => f.write_str("no impossible move"),
            CheckOutcome::Impossible { label, kind, rule, reason, consequence, .. } => {
                write!(f, "{label}: type {} ({rule}): {reason}; {consequence}", kind.number())
            }
            CheckOutcome::Unreadable { label, reason, .. } => {
                write!(f, "{label}: cannot be checked: {reason}")
            }
        }
    }
}

/// Replays a record under `rules` up to its first impossible move (RULES.md A1).
pub fn check_record(record: &Record, rules: Rules) -> CheckOutcome {
    let unreadable_start = |e: crate::ReplayError| CheckOutcome::Unreadable {
        index: None,
        label: "BFEN tag".to_owned(),
        reason: e.to_string(),
    };
    let mut game = match start_game(record, rules) {
        Ok(g) => g,
        Err(e) => return unreadable_start(e),
    };
    // The same game under rules that let a dropped rook castle: ordinary castling rights (P5).
    let shadow_rules =
        Rules { drops: DropRules::new(rules.drops.pawn_ranks(), true).unwrap_or(rules.drops), ..rules };
    let mut shadow: Game = match start_game(record, shadow_rules) {
        Ok(g) => g,
        Err(e) => return unreadable_start(e),
    };
    for (index, rm) in record.moves.iter().enumerate() {
        match judge(&game, &shadow, rm) {
            Verdict::Legal(m) => {
                game.play_unchecked(m);
                shadow.play_unchecked(m);
            }
            Verdict::Impossible { kind, rule, reason } => {
                let seat = rm.seat();
                let consequence = match kind {
                    ImpossibleKind::Type1 => format!("the team of {seat} loses the game (A1)"),
                    ImpossibleKind::Type2 => format!(
                        "the move is taken back and {} receives one minute on each of its two clocks (A1)",
                        seat.team().other()
                    ),
                };
                return CheckOutcome::Impossible {
                    index,
                    label: rm.label(),
                    kind,
                    rule,
                    reason,
                    consequence,
                };
            }
            Verdict::Unreadable(reason) => {
                return CheckOutcome::Unreadable { index: Some(index), label: rm.label(), reason };
            }
        }
    }
    CheckOutcome::Clean
}
