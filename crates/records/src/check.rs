//! The arbiter's check of a record entered from an over-the-board game (RULES.md A1).
//!
//! [`check_record`] replays the record and reports every impossible move, each classified as if
//! it had been noticed at once (its type, rule and consequence), and with what A1 says when it is
//! noticed only later: it stands if the position it produced is legal, otherwise the arbiter
//! decides. A move that stands is carried out as it was made (`aftermath.rs`) and the check goes
//! on from the position it left; where the arbiter must decide, the record cannot be followed
//! further and the check stops there.
//!
//! Each move is first held against ordinary chess (the chess core on the board as it stands, the
//! variant's filters lifted); failing there makes it type 1. Passing there but refused by the
//! variant makes it type 2. The table (also in docs/RULES.md, section 10):
//!
//! | the move                                                    | type | rule |
//! |-------------------------------------------------------------|------|------|
//! | made by the side not to move on its board                   | 1    | FIDE |
//! | names a piece that is not there, or one that cannot move so | 1    | FIDE |
//! | leaves the mover's king in check                            | 1    | FIDE |
//! | captures the king                                           | 1    | M4   |
//! | castling that ordinary chess forbids                        | 1    | FIDE |
//! | pawn reaching the last rank unpromoted (upgrade preset)     | 1    | FIDE |
//! | `e8` whose vanishing pawn (R4) leaves the king in check     | 1    | FIDE |
//! | drop on an occupied square                                  | 1    | P1   |
//! | drop that leaves the mover's king in check                  | 1    | P1   |
//! | drop of a piece not in the mover's reserve                  | 1    | P1   |
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

use crate::aftermath::carry_out;
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

/// What A1 says of an impossible move noticed only later.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Later {
    /// The position it produced is legal: the move stands and the game could go on.
    Stands,
    /// It produced no legal position (or cannot be carried out): the arbiter decides, and the
    /// record is not checked past it.
    ArbiterDecides {
        /// Why the position is not legal.
        why: String,
    },
}

/// One impossible move of a record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Impossible {
    /// Its index in [`Record::moves`].
    pub index: usize,
    /// The move as written, `14a. Q@g8`.
    pub label: String,
    /// Type 1 or type 2.
    pub kind: ImpossibleKind,
    /// The rule id it breaks (`P3`, `R1`, …), or `FIDE` for ordinary chess.
    pub rule: String,
    /// What is wrong, in words.
    pub reason: String,
    /// What A1 prescribes had it been noticed at once, e.g. `the team of black-A loses the game
    /// (A1)`.
    pub consequence: String,
    /// What A1 says had it been noticed later.
    pub later: Later,
}

impl fmt::Display for Impossible {
    /// One line: `14a. Q@g8: type 2 (P3): <reason>; <consequence>; noticed later: <later>`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Impossible { label, kind, rule, reason, consequence, .. } = self;
        write!(f, "{label}: type {} ({rule}): {reason}; {consequence}; noticed later: ", kind.number())?;
        match &self.later {
            Later::Stands => f.write_str("the move stands, the position after it is legal (A1)"),
            Later::ArbiterDecides { why } => {
                write!(f, "the arbiter decides, {why} (A1); the record is not checked further")
            }
        }
    }
}

/// A move (or the start position) the check cannot read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unreadable {
    /// The move's index in [`Record::moves`], `None` for the start position.
    pub index: Option<usize>,
    /// The move as written, or `BFEN tag`.
    pub label: String,
    /// Why.
    pub reason: String,
}

/// What the check of a record found: every impossible move in the order played, and the move it
/// could not read, if any (the check stops there).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CheckReport {
    /// The impossible moves; after one the arbiter must decide, nothing further is checked.
    pub impossible: Vec<Impossible>,
    /// A bad start position, or a move that does not read as one move (malformed, ambiguous).
    pub unreadable: Option<Unreadable>,
}

impl CheckReport {
    /// No impossible move, and read to the end.
    pub fn is_clean(&self) -> bool {
        self.impossible.is_empty() && self.unreadable.is_none()
    }
}

impl fmt::Display for CheckReport {
    /// One line per finding, or `no impossible move`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_clean() {
            return f.write_str("no impossible move");
        }
        let mut lines: Vec<String> = self.impossible.iter().map(ToString::to_string).collect();
        if let Some(Unreadable { label, reason, .. }) = &self.unreadable {
            lines.push(format!("{label}: cannot be checked: {reason}"));
        }
        f.write_str(&lines.join("\n"))
    }
}

/// Replays a record under `rules` and reports its impossible moves (RULES.md A1).
pub fn check_record(record: &Record, rules: Rules) -> CheckReport {
    let mut report = CheckReport::default();
    let unreadable_start = |e: crate::ReplayError| Unreadable {
        index: None,
        label: "BFEN tag".to_owned(),
        reason: e.to_string(),
    };
    // The same game under rules that let a dropped rook castle: ordinary castling rights (P5).
    let shadow_rules =
        Rules { drops: DropRules::new(rules.drops.pawn_ranks(), true).unwrap_or(rules.drops), ..rules };
    let (mut game, mut shadow) = match (start_game(record, rules), start_game(record, shadow_rules)) {
        (Ok(g), Ok(s)) => (g, s),
        (Err(e), _) | (_, Err(e)) => {
            report.unreadable = Some(unreadable_start(e));
            return report;
        }
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
                let after = carry_out(&game, &shadow, rm).and_then(|g| {
                    let s = Game::from_bfen(&g.bfen(), shadow_rules).map_err(|e| e.to_string())?;
                    Ok((g, s))
                });
                let later = match &after {
                    Ok(_) => Later::Stands,
                    Err(why) => Later::ArbiterDecides { why: why.clone() },
                };
                report.impossible.push(Impossible {
                    index,
                    label: rm.label(),
                    kind,
                    rule,
                    reason,
                    consequence,
                    later,
                });
                match after {
                    Ok((g, s)) => (game, shadow) = (g, s),
                    Err(_) => return report,
                }
            }
            Verdict::Unreadable(reason) => {
                report.unreadable = Some(Unreadable { index: Some(index), label: rm.label(), reason });
                return report;
            }
        }
    }
    report
}
