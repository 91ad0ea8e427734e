//! The arbiter's check of a record entered from an over-the-board game (RULES.md A1).
//!
//! [`check_record`] replays the record and reports every impossible move, each classified as if
//! it had been noticed at once (its type, rule and consequence), and with what A1 says when it is
//! noticed only later: it stands if the position on the board is then legal, otherwise the
//! arbiter decides. The end of the record is the moment it is noticed. So the check carries each
//! impossible move out as it was made (`aftermath.rs`), even when that leaves a board in no legal
//! position, follows the record on from there and judges the boards after every later move: the
//! move stands ([`Later::Stands`]) if its board is legal right after it, or
//! ([`Later::LegalAgain`]) once a later move makes it legal again — the check names that move.
//! A board still illegal when the record ends goes to the arbiter. Only a move that cannot be
//! carried out at all stops the check: the arbiter decides there, and on every impossible move
//! whose board is still illegal at that point.
//!
//! Each move is first held against ordinary chess (the chess core on the board as it stands, the
//! variant's filters lifted); failing there makes it type 1. Passing there but refused by the
//! variant makes it type 2, and so does the king and rook changing places, which chess never has
//! (A1a). The table (also in docs/RULES.md, section 10):
//!
//! | the move                                                    | type | rule |
//! |-------------------------------------------------------------|------|------|
//! | made by the side not to move on its board                   | 1    | FIDE |
//! | names a piece that is not there, or one that cannot move so | 1    | FIDE |
//! | leaves the mover's king in check                            | 1    | FIDE |
//! | captures the king                                           | 1    | M4   |
//! | castling that ordinary chess forbids (its reason named)     | 1    | FIDE |
//! | pawn reaching the last rank unpromoted (upgrade preset)     | 1    | FIDE |
//! | `e8` whose vanishing pawn (R4) leaves the king in check     | 1    | FIDE |
//! | drop on an occupied square                                  | 1    | P1   |
//! | drop that leaves the mover's king in check                  | 1    | P1   |
//! | drop of a piece not in the mover's reserve                  | 1    | P1   |
//! | pawn drop on a rank the preset forbids (1, 8; 7 in MGIMO)   | 2    | P2   |
//! | drop giving mate on board where the preset forbids it       | 2    | P3   |
//! | castling with a dropped rook where the preset forbids it    | 2    | P5   |
//! | king and own rook on his first rank exchange squares (A1a)  | 2    | A1a  |
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

use bughouse::{BoardId, Game, Rules};
use chess_core::DropRules;

use crate::aftermath::{carry_out, illegal};
use crate::classify::{Verdict, judge};
use crate::record::Record;
use crate::start::start_game;
use crate::timeline::act_position;
use crate::wrong::{CheckEnd, ImpossibleKind, NotRead, Undecided, Wrong};

/// What A1 says of an impossible move noticed only later: it stands if the position on the board
/// is legal when it is noticed, otherwise the arbiter decides. The check takes the end of the
/// record as the moment it is noticed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Later {
    /// The position it produced is legal: the move stands.
    Stands,
    /// The position it produced is not legal, but a later move made the board legal again and it
    /// stayed followable: the move stands («заигран»), and the check went on from there.
    LegalAgain {
        /// The index in [`Record::moves`] of the move after which the board is legal again.
        index: usize,
        /// That move as written, `3A. Nf3`.
        label: String,
    },
    /// The board is still no legal position when the record ends, or the record cannot be
    /// followed past this point: the arbiter decides.
    ArbiterDecides {
        /// Why the position is not legal, or why the record cannot be followed.
        why: Undecided,
    },
}

impl Later {
    /// Whether the move stands when noticed later.
    pub fn stands(&self) -> bool {
        matches!(self, Later::Stands | Later::LegalAgain { .. })
    }
}

impl fmt::Display for Later {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Later::Stands => f.write_str("the move stands, the position after it is legal (A1)"),
            Later::LegalAgain { label, .. } => {
                write!(f, "the move stands, the position is legal again after {label} (A1)")
            }
            Later::ArbiterDecides { why } => write!(f, "the arbiter decides, {why} (A1)"),
        }
    }
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
    /// What is wrong.
    pub why: Wrong,
    /// What A1 prescribes had it been noticed at once, e.g. `the team of black-A loses the game
    /// (A1)`.
    pub consequence: String,
    /// What A1 says had it been noticed later.
    pub later: Later,
}

impl fmt::Display for Impossible {
    /// One line: `14a. Q@g8: type 2 (P3): <reason>; <consequence>; noticed later: <later>`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Impossible { label, kind, rule, why, consequence, later, .. } = self;
        write!(f, "{label}: type {} ({rule}): {why}; {consequence}; noticed later: {later}", kind.number())
    }
}

/// A move (or the start position) the check cannot read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unreadable {
    /// The move's index in [`Record::moves`], `None` for the start position.
    pub index: Option<usize>,
    /// The move as written, or `BFEN tag`.
    pub label: String,
    /// What could not be read.
    pub what: NotRead,
    /// Why, in the parser's (English) words.
    pub reason: String,
}

/// What the check of a record found: every impossible move in the order played, and the move it
/// could not read, if any (the check stops there).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CheckReport {
    /// The impossible moves. The check follows the record past each of them, also through a
    /// stretch where a board is no legal position; it stops only at a move it cannot carry out
    /// (that move's [`Later::ArbiterDecides`] says so) or cannot read.
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

/// An impossible move whose board has not been legal since (its index in the report's list), and
/// the boards it made illegal.
struct Open {
    entry: usize,
    boards: Vec<BoardId>,
}

/// Replays a record under `rules` and reports its impossible moves (RULES.md A1).
pub fn check_record(record: &Record, rules: Rules) -> CheckReport {
    let mut report = CheckReport::default();
    let unreadable_start = |e: crate::ReplayError| Unreadable {
        index: None,
        label: "BFEN tag".to_owned(),
        what: NotRead::Start,
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
    let (start, shadow_start) = (game, shadow);
    // The acts after a move (or before the first) change the boards the next move is judged on:
    // a take-back, a corrected position, a replay (A2). `false` when one cannot be applied.
    let acts = |report: &mut CheckReport, game: &mut Game, shadow: &mut Game, index: Option<usize>| {
        let list = index.map_or(&record.acts, |i| &record.moves[i].acts);
        for act in list {
            let after = (act_position(act, game, &start), act_position(act, shadow, &shadow_start));
            match after {
                (Some(Ok(g)), Some(Ok(s))) => (*game, *shadow) = (g, s),
                (Some(Err(why)), _) | (_, Some(Err(why))) => {
                    let after = index.map_or_else(|| "the start".to_owned(), |i| record.moves[i].label());
                    report.unreadable = Some(Unreadable {
                        index,
                        label: format!("the act after {after}"),
                        reason: why.to_string(),
                        what: NotRead::Act { after: index, why },
                    });
                    return false;
                }
                _ => {}
            }
        }
        true
    };
    if !acts(&mut report, &mut game, &mut shadow, None) {
        return report;
    }
    let mut open: Vec<Open> = Vec::new();
    for (index, rm) in record.moves.iter().enumerate() {
        match judge(&game, &shadow, rm) {
            Verdict::Legal(m) => {
                game.play_unchecked(m);
                shadow.play_unchecked(m);
            }
            Verdict::Impossible { kind, rule, why } => {
                let seat = rm.seat();
                let consequence = match kind {
                    ImpossibleKind::Type1 => format!("the team of {seat} loses the game (A1)"),
                    ImpossibleKind::Type2 => format!(
                        "the move is taken back and {} receives one minute on each of its two clocks (A1)",
                        seat.team().other()
                    ),
                };
                let label = rm.label();
                let after = carry_out(&game, &shadow, rm);
                let later = match &after {
                    Ok(_) => Later::Stands,
                    Err(stuck) => Later::ArbiterDecides { why: Undecided::Stuck(*stuck) },
                };
                report.impossible.push(Impossible {
                    index,
                    label: label.clone(),
                    kind,
                    rule,
                    why,
                    consequence,
                    later,
                });
                let Ok((g, s)) = after else {
                    settle(&mut report, open, &game, &CheckEnd::Stuck(label));
                    return report;
                };
                // The boards it left illegal: its own, and the other one if it broke that one too.
                let boards: Vec<BoardId> = BoardId::ALL
                    .into_iter()
                    .filter(|&b| illegal(&g, b).is_some() && (b == rm.board || illegal(&game, b).is_none()))
                    .collect();
                (game, shadow) = (g, s);
                if !boards.is_empty() {
                    open.push(Open { entry: report.impossible.len() - 1, boards });
                }
            }
            Verdict::Unreadable { ambiguous, detail } => {
                settle(&mut report, open, &game, &CheckEnd::Unreadable(rm.label()));
                report.unreadable = Some(Unreadable {
                    index: Some(index),
                    label: rm.label(),
                    what: NotRead::Move { index, ambiguous },
                    reason: detail,
                });
                return report;
            }
        }
        if !acts(&mut report, &mut game, &mut shadow, Some(index)) {
            return report;
        }
        // The impossible moves whose boards are all legal again stand.
        open.retain(|o| {
            let legal = o.boards.iter().all(|&b| illegal(&game, b).is_none());
            if legal {
                report.impossible[o.entry].later = Later::LegalAgain { index, label: rm.label() };
            }
            !legal
        });
    }
    settle(&mut report, open, &game, &CheckEnd::RecordEnds);
    report
}

/// The impossible moves still open where the check ends (at `end`): the arbiter decides, told
/// which board is not legal and why (their boards are illegal in `game`).
fn settle(report: &mut CheckReport, open: Vec<Open>, game: &Game, end: &CheckEnd) {
    for o in open {
        let found = o.boards.iter().find_map(|&b| illegal(game, b).map(|now| (b, now)));
        if let Some((board, now)) = found {
            let why = Undecided::StillIllegal { board, now, end: end.clone() };
            report.impossible[o.entry].later = Later::ArbiterDecides { why };
        }
    }
}
