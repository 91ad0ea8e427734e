//! Why a match ended as it did (RULES.md E1–E10, K3, K4), from its record alone: which endings
//! happened at which match times — mates on board, flags, a flag that lag credit or the arbiter
//! took back, the arbiter's results and annulment, the end — what a flag's grace window held,
//! how E1–E9 weighed it, and every rule that decided the result. Codes and parameters only: the
//! words are the reader's language's (`shvedka_tui::explain`).

use bughouse::{BoardId, MatchResult, Rules, Seat};

use crate::act::{ActKind, DrawCause};
use crate::record::Record;
use crate::start::ReplayError;
use crate::timeline::StepKind;

/// The longest a flag's grace window stays open (K4, section 10: the flagged player's remaining
/// lag quota, at most 2 s).
pub const MOST_WINDOW_MS: i64 = 2_000;

/// Something that ended, or could have ended, the match.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Happening {
    /// M1, E1: a mate on board; `mated` is the side to move, `by` the move that gave it.
    Mate {
        /// The mated player.
        mated: Seat,
        /// The move, as written (`4A. Qxf7#`).
        by: String,
    },
    /// K4: a clock reached zero.
    Flag {
        /// Whose.
        seat: Seat,
    },
    /// K3: a move of the flagged player, its lag credit counted, came inside his time: the
    /// flag is withdrawn.
    FlagWithdrawnByCredit {
        /// Whose flag.
        seat: Seat,
        /// The move, as written.
        by: String,
        /// The credit, milliseconds.
        credit_ms: u64,
    },
    /// E3–E5, M3: a board drew while a flag's window was open; weighed at its close (E8, E9).
    Draw {
        /// The board.
        board: BoardId,
        /// Why.
        cause: DrawCause,
    },
    /// E10: a player resigned.
    Resigned {
        /// Who.
        seat: Seat,
    },
    /// A2: the arbiter gave the flagged player time: the flag is withdrawn.
    FlagWithdrawnByArbiter {
        /// Whose flag.
        seat: Seat,
        /// Who acted.
        by: Option<String>,
    },
    /// A2: the arbiter declared (or corrected) the result.
    Declared {
        /// The result.
        outcome: MatchResult,
        /// His words.
        note: String,
        /// Who.
        by: Option<String>,
    },
    /// A2: the match was annulled.
    Annulled {
        /// His words.
        note: String,
        /// Who.
        by: Option<String>,
    },
    /// The match ended with the record's result.
    Ended,
}

/// One happening at its match time.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// Match time, milliseconds, if known.
    pub at_ms: Option<i64>,
    /// What.
    pub what: Happening,
    /// Whether it came inside the grace window that decided the match (K4).
    pub in_window: bool,
}

/// How E1–E9 weighed what the deciding window held.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Weighing {
    /// E6, E9: a mate on board counts, a flag in the same window does not.
    MateOverFlag,
    /// E9: a mate on board beats a draw in the same window.
    MateOverDraw,
    /// E2: mates by both teams in one window draw.
    MatesOfBothTeams,
    /// E8, E9: a draw and a flag in one window make a draw (a draw beats a flag).
    DrawOverFlag,
    /// E7: flags of both teams draw.
    FlagsOfBothTeams,
    /// E7: flags of one team only lose for it.
    FlagsOfOneTeam,
}

impl Weighing {
    /// The rules it applies.
    pub const fn rules(self) -> &'static [&'static str] {
        match self {
            Weighing::MateOverFlag => &["E6", "E9"],
            Weighing::MateOverDraw => &["E9"],
            Weighing::MatesOfBothTeams => &["E2", "E9"],
            Weighing::DrawOverFlag => &["E8", "E9"],
            Weighing::FlagsOfBothTeams | Weighing::FlagsOfOneTeam => &["E7"],
        }
    }
}

/// The explanation of a record's ending.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Explanation {
    /// What happened, in order.
    pub lines: Vec<Line>,
    /// The record's result, if it has one.
    pub outcome: Option<MatchResult>,
    /// The rule the result names (`TerminationRule`).
    pub rule: Option<String>,
    /// How the deciding window was weighed, when one decided the match (a mate may outrank
    /// both a flag and a draw).
    pub weighing: Vec<Weighing>,
    /// Every rule that decided the result, each once: the result's own, K4 for a window, those
    /// of the weighing, K3 for a flag lag credit withdrew, A2 for the arbiter's acts.
    pub rules: Vec<String>,
}

/// The draws a result's rule names (E3 agreed, E4 repetition, E5 fifty moves, M3 stalemate).
const DRAW_RULES: [&str; 4] = ["E3", "E4", "E5", "M3"];

impl Record {
    /// Why the match ended as it did (see the module documentation).
    ///
    /// # Errors
    /// Only a start position that does not read.
    pub fn explain(&self, rules: Rules) -> Result<Explanation, ReplayError> {
        let timeline = self.timeline(rules)?;
        let mut lines = Vec::new();
        let mut mated = [false; 2];
        // The flags still standing: seat and the index of their line.
        let mut standing: Vec<(Seat, usize)> = Vec::new();
        for step in timeline.steps() {
            let at_ms = step.at_ms;
            let line = |what| Line { at_ms, what, in_window: false };
            match &step.kind {
                StepKind::Start => {}
                StepKind::Move(i) => {
                    let rm = &self.moves[*i];
                    let seat = rm.seat();
                    if let Some(k) = standing.iter().position(|(s, _)| *s == seat)
                        && step.clocks.get(seat).is_some_and(|c| c > 0)
                        && let Some(credit_ms) = rm.credit_ms
                    {
                        standing.remove(k);
                        lines.push(line(Happening::FlagWithdrawnByCredit {
                            seat,
                            by: rm.label(),
                            credit_ms,
                        }));
                    }
                    for board in BoardId::ALL {
                        let mate = step.game.is_mate_on_board(board);
                        if mate && !mated[board.index()] {
                            lines.push(line(Happening::Mate {
                                mated: step.game.to_move(board),
                                by: rm.label(),
                            }));
                        }
                        mated[board.index()] = mate;
                    }
                }
                StepKind::Act(act) => match &act.kind {
                    ActKind::Draw { board, cause } => {
                        lines.push(line(Happening::Draw { board: *board, cause: *cause }))
                    }
                    ActKind::Resign { seat } => lines.push(line(Happening::Resigned { seat: *seat })),
                    ActKind::Flag { seat } => {
                        standing.push((*seat, lines.len()));
                        lines.push(line(Happening::Flag { seat: *seat }));
                    }
                    ActKind::Adjust { seat, delta_ms } if *delta_ms > 0 => {
                        if let Some(k) = standing.iter().position(|(s, _)| s == seat) {
                            standing.remove(k);
                            let by = act.by.clone();
                            lines.push(line(Happening::FlagWithdrawnByArbiter { seat: *seat, by }));
                        }
                    }
                    ActKind::Result { outcome, note } => lines.push(line(Happening::Declared {
                        outcome: *outcome,
                        note: note.clone(),
                        by: act.by.clone(),
                    })),
                    ActKind::Annul { note } => {
                        lines.push(line(Happening::Annulled { note: note.clone(), by: act.by.clone() }))
                    }
                    ActKind::End => lines.push(line(Happening::Ended)),
                    ActKind::Replay { .. } => {
                        // The annulled game's flags and mates decided nothing.
                        standing.clear();
                        mated = [false; 2];
                    }
                    _ => {}
                },
            }
        }
        let rule = self.result.as_ref().and_then(|r| r.rule.clone());
        // The window that decided the match: the first standing flag the end came within
        // its longest window of.
        let end = lines.iter().rposition(|l| l.what == Happening::Ended);
        let window = end.and_then(|e| {
            let end_at = lines[e].at_ms?;
            standing
                .iter()
                .map(|&(_, i)| i)
                .filter(|&i| i < e && lines[i].at_ms.is_some_and(|t| end_at - t <= MOST_WINDOW_MS))
                .min()
                .map(|first| (first, e))
        });
        let mut weighing = Vec::new();
        if let Some((first, e)) = window {
            for l in &mut lines[first..=e] {
                l.in_window = true;
            }
            let held = &lines[first..=e];
            let flags: Vec<Seat> = held
                .iter()
                .filter_map(|l| match l.what {
                    Happening::Flag { seat } => Some(seat),
                    _ => None,
                })
                .filter(|s| standing.iter().any(|(x, _)| x == s))
                .collect();
            let drew = held.iter().any(|l| matches!(l.what, Happening::Draw { .. }));
            match rule.as_deref() {
                Some("E1") => {
                    if !flags.is_empty() {
                        weighing.push(Weighing::MateOverFlag);
                    }
                    if drew {
                        weighing.push(Weighing::MateOverDraw);
                    }
                }
                Some("E2") => weighing.push(Weighing::MatesOfBothTeams),
                Some(r) if DRAW_RULES.contains(&r) && !flags.is_empty() => {
                    weighing.push(Weighing::DrawOverFlag)
                }
                Some("E7") => {
                    let teams: Vec<_> = flags.iter().map(|s| s.team()).collect();
                    weighing.push(if teams.windows(2).any(|w| w[0] != w[1]) {
                        Weighing::FlagsOfBothTeams
                    } else {
                        Weighing::FlagsOfOneTeam
                    });
                }
                _ => {}
            }
        }
        let mut rules_used: Vec<String> = rule.iter().cloned().collect();
        if window.is_some() {
            rules_used.push("K4".into());
        }
        for w in &weighing {
            rules_used.extend(w.rules().iter().map(|r| (*r).to_owned()));
        }
        if lines.iter().any(|l| matches!(l.what, Happening::FlagWithdrawnByCredit { .. })) {
            rules_used.push("K3".into());
        }
        if lines.iter().any(|l| {
            matches!(
                l.what,
                Happening::FlagWithdrawnByArbiter { .. }
                    | Happening::Declared { .. }
                    | Happening::Annulled { .. }
            )
        }) {
            rules_used.push("A2".into());
        }
        let mut seen = std::collections::BTreeSet::new();
        rules_used.retain(|r| seen.insert(r.clone()));
        Ok(Explanation {
            lines,
            outcome: self.result.as_ref().map(|r| r.outcome),
            rule,
            weighing,
            rules: rules_used,
        })
    }
}
