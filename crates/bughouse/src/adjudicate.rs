//! Result adjudication (RULES.md E1–E10) as a pure function of the ending events observed in one
//! adjudication window.

use std::fmt;

use crate::{BoardId, Seat, Team};

/// Why a board is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum DrawKind {
    /// E3: the players agreed.
    Agreement,
    /// E4: threefold repetition claimed, or fivefold.
    Repetition,
    /// E5: 50 moves claimed, or 75.
    MoveRule,
    /// M3 with option `stalemate = draw`.
    Stalemate,
    /// Declared by the arbiter (A2).
    Arbiter,
}

/// Something that ends the match, observed on one board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EndingEvent {
    /// Mate on board (M1): `winner` gave it.
    MateOnBoard {
        /// The mating player.
        winner: Seat,
    },
    /// A draw on one board.
    Draw {
        /// The board.
        board: BoardId,
        /// Why.
        kind: DrawKind,
    },
    /// A flag fell (or, in claim mode, was claimed).
    Flag {
        /// The player whose time ran out.
        seat: Seat,
    },
    /// A player resigned (E10).
    Resign {
        /// Who resigned.
        seat: Seat,
    },
}

/// The result of a match game (never of one board).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum MatchResult {
    /// A team won.
    Win(Team),
    /// Drawn.
    Draw,
}

/// The reason given with a result.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Reason {
    /// E1: mate on board.
    MateOnBoard(Seat),
    /// E2: mates on board by both teams.
    MutualMate,
    /// E3–E5, M3: a draw on a board (E8/E9: it outranks any flag).
    BoardDrawn(BoardId, DrawKind),
    /// E6/E7: flags of one team only (the first flagged player named).
    Flag(Seat),
    /// E7: flags of both teams.
    FlagsOfBothTeams,
    /// E10: resignation.
    Resignation(Seat),
    /// A2: declared by the arbiter.
    Arbiter,
}

/// A decided match: result and reason.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Adjudication {
    /// Who won, or a draw.
    pub result: MatchResult,
    /// Why, with the rule.
    pub reason: Reason,
}

impl Reason {
    /// The rule id that decided it.
    pub fn rule(&self) -> &'static str {
        match self {
            Reason::MateOnBoard(_) => "E1",
            Reason::MutualMate => "E2",
            Reason::BoardDrawn(_, DrawKind::Agreement) => "E3",
            Reason::BoardDrawn(_, DrawKind::Repetition) => "E4",
            Reason::BoardDrawn(_, DrawKind::MoveRule) => "E5",
            Reason::BoardDrawn(_, DrawKind::Stalemate) => "M3",
            Reason::BoardDrawn(_, DrawKind::Arbiter) => "A2",
            Reason::Flag(_) => "E7",
            Reason::FlagsOfBothTeams => "E7",
            Reason::Resignation(_) => "E10",
            Reason::Arbiter => "A2",
        }
    }
}

impl fmt::Display for Adjudication {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.result {
            MatchResult::Win(team) => write!(f, "{team} wins")?,
            MatchResult::Draw => write!(f, "draw")?,
        }
        match self.reason {
            Reason::MateOnBoard(seat) => write!(f, ": mate on board by {seat}")?,
            Reason::MutualMate => write!(f, ": mate on board on both boards by both teams")?,
            Reason::BoardDrawn(board, kind) => write!(f, ": board {board} drawn ({kind:?})")?,
            Reason::Flag(seat) => write!(f, ": {seat} lost on time")?,
            Reason::FlagsOfBothTeams => write!(f, ": flags of both teams fell")?,
            Reason::Resignation(seat) => write!(f, ": {seat} resigned")?,
            Reason::Arbiter => write!(f, ": declared by the arbiter")?,
        }
        write!(f, " ({})", self.reason.rule())
    }
}

/// Decides the match from the ending events of one adjudication window, in the order observed.
/// Mate on board outranks a draw, which outranks a flag (E9; E1, E2, E6–E8). A resignation ends
/// the match at once (E10): events observed after it do not count, events before it in the window
/// are weighed first. Returns `None` when nothing ends the match.
pub fn adjudicate(events: &[EndingEvent]) -> Option<Adjudication> {
    let resign = events.iter().position(|e| matches!(e, EndingEvent::Resign { .. }));
    let window = &events[..resign.unwrap_or(events.len())];
    let decided = |result, reason| Some(Adjudication { result, reason });

    let mates: Vec<Seat> = window
        .iter()
        .filter_map(|e| match e {
            EndingEvent::MateOnBoard { winner } => Some(*winner),
            _ => None,
        })
        .collect();
    if let Some((first, both_teams)) = first_and_both_teams(&mates) {
        return if both_teams {
            decided(MatchResult::Draw, Reason::MutualMate)
        } else {
            decided(MatchResult::Win(first.team()), Reason::MateOnBoard(first))
        };
    }
    if let Some((board, kind)) = window.iter().find_map(|e| match e {
        EndingEvent::Draw { board, kind } => Some((*board, *kind)),
        _ => None,
    }) {
        return decided(MatchResult::Draw, Reason::BoardDrawn(board, kind));
    }
    let flags: Vec<Seat> = window
        .iter()
        .filter_map(|e| match e {
            EndingEvent::Flag { seat } => Some(*seat),
            _ => None,
        })
        .collect();
    if let Some((first, both_teams)) = first_and_both_teams(&flags) {
        return if both_teams {
            decided(MatchResult::Draw, Reason::FlagsOfBothTeams)
        } else {
            decided(MatchResult::Win(first.team().other()), Reason::Flag(first))
        };
    }
    match resign.map(|i| events[i]) {
        Some(EndingEvent::Resign { seat }) => {
            decided(MatchResult::Win(seat.team().other()), Reason::Resignation(seat))
        }
        _ => None,
    }
}

/// The first seat, and whether seats of both teams are present (E2 for mates, E7 for flags).
fn first_and_both_teams(seats: &[Seat]) -> Option<(Seat, bool)> {
    let first = *seats.first()?;
    Some((first, seats.iter().any(|s| s.team() != first.team())))
}
