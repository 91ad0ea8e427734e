//! What happened in a match besides its moves: the arbiter's acts (RULES.md A2, K5), a player's
//! call, a flag's fall, the clocks' start and the end, and the moves that were played but later
//! taken back or annulled. A record carries them so that every reader replays the match the
//! players had, not only its moves (docs/bpgn.md gives the written form, `{[%act …]}`). A move
//! ([`RecordMove`]) is here too: it carries the acts after it, and a taken-back move is an act.

use bughouse::{BoardId, MatchResult, Seat};

use chess_core::Color;

/// Why a game was played again (RULES.md A2, A5, A6).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ReplayCause {
    /// A5: the pieces were set up wrongly.
    WrongSetup,
    /// A6: a hint from outside the game.
    OutsideHint,
    /// A2: another reason the arbiter accepted.
    Other,
}

impl ReplayCause {
    /// The code the record writes: `wrong-setup`, `outside-hint`, `other`.
    pub const fn code(self) -> &'static str {
        match self {
            ReplayCause::WrongSetup => "wrong-setup",
            ReplayCause::OutsideHint => "outside-hint",
            ReplayCause::Other => "other",
        }
    }

    /// The rule the replay rests on.
    pub const fn rule(self) -> &'static str {
        match self {
            ReplayCause::WrongSetup => "A5",
            ReplayCause::OutsideHint => "A6",
            ReplayCause::Other => "A2",
        }
    }

    /// Reads a code.
    pub fn from_code(code: &str) -> Option<ReplayCause> {
        [ReplayCause::WrongSetup, ReplayCause::OutsideHint, ReplayCause::Other]
            .into_iter()
            .find(|c| c.code() == code)
    }
}

/// Why a board drew (RULES.md E3–E5, M3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DrawCause {
    /// E3: its players agreed.
    Agreed,
    /// E4: repetition, claimed or fivefold.
    Repetition,
    /// E5: fifty moves claimed, or seventy-five.
    MoveRule,
    /// M3: a stalemate the preset makes a draw.
    Stalemate,
}

impl DrawCause {
    const ALL: [DrawCause; 4] =
        [DrawCause::Agreed, DrawCause::Repetition, DrawCause::MoveRule, DrawCause::Stalemate];

    /// The code the record writes: `agreed`, `repetition`, `move-rule`, `stalemate`.
    pub const fn code(self) -> &'static str {
        match self {
            DrawCause::Agreed => "agreed",
            DrawCause::Repetition => "repetition",
            DrawCause::MoveRule => "move-rule",
            DrawCause::Stalemate => "stalemate",
        }
    }

    /// The rule the draw rests on.
    pub const fn rule(self) -> &'static str {
        match self {
            DrawCause::Agreed => "E3",
            DrawCause::Repetition => "E4",
            DrawCause::MoveRule => "E5",
            DrawCause::Stalemate => "M3",
        }
    }

    /// Reads a code.
    pub fn from_code(code: &str) -> Option<DrawCause> {
        DrawCause::ALL.into_iter().find(|c| c.code() == code)
    }
}

/// What happened.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum ActKind {
    /// A move that was played here and later taken back or annulled with its game: it is not
    /// among the record's moves, but the match went through it.
    Played(Box<RecordMove>),
    /// A2: the last move on a board taken back; `position` is the two boards after it (a record
    /// written before positions were recorded has none: its move is simply missing).
    TakeBack {
        /// The board.
        board: BoardId,
        /// The BFEN after the take-back.
        position: Option<String>,
    },
    /// A2: time added to (positive) or taken from (negative) one clock.
    Adjust {
        /// Whose clock.
        seat: Seat,
        /// Milliseconds added; negative removes (the reading stops at zero).
        delta_ms: i64,
    },
    /// A2: a corrected two-board position.
    SetPosition {
        /// The BFEN.
        position: String,
    },
    /// K5: the arbiter (or the server: a restart, an outage) stopped all four clocks.
    Pause,
    /// The clocks run again.
    Resume,
    /// K4: a clock reached zero.
    Flag {
        /// Whose.
        seat: Seat,
    },
    /// A draw on one board recorded while a flag's grace window was open (K4): it ended nothing
    /// by itself but is weighed with everything else the window holds (E8, E9). A draw that
    /// ends the match at once is the record's result and needs no act.
    Draw {
        /// The board.
        board: BoardId,
        /// Why.
        cause: DrawCause,
    },
    /// E10: a player resigned (the end and the result follow; inside a flag's window what the
    /// window held is weighed first).
    Resign {
        /// Who.
        seat: Seat,
    },
    /// K5: a player stopped the clocks and called the arbiter; with a cause when he asked for a
    /// replay.
    Call {
        /// Who called.
        seat: Seat,
        /// The replay asked for, if any.
        replay: Option<ReplayCause>,
    },
    /// A2, A5, A6: the game played so far is annulled (its moves are [`ActKind::Played`] before
    /// this) and played again from the start with full clocks, which start at [`ActKind::Start`].
    Replay {
        /// Why.
        cause: ReplayCause,
        /// The arbiter's words (may be empty).
        note: String,
    },
    /// K1: the clocks start again after a replay's countdown (the first start is match time 0).
    Start,
    /// A2: the arbiter declared (or corrected) the result.
    Result {
        /// The result.
        outcome: MatchResult,
        /// Why, in the arbiter's words.
        note: String,
    },
    /// A2: the match is annulled.
    Annul {
        /// Why.
        note: String,
    },
    /// The match ended (its result is the record's); no clock runs after it.
    End,
}

/// One act, at its place among the moves.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Act {
    /// What happened.
    pub kind: ActKind,
    /// Match time in milliseconds from the start of the clocks (negative before it), if known.
    pub at_ms: Option<i64>,
    /// Who acted: an arbiter's account name, `(secret)` for the arbiters' secret, `(server)` for
    /// the server itself; `None` when not recorded (a player's call names its seat instead).
    pub by: Option<String>,
    /// The four clocks just after it, in milliseconds, in [`Seat::ALL`] order, if recorded.
    pub clocks: Option<[u64; 4]>,
}

impl Act {
    /// An act with no time, author or clocks.
    pub fn new(kind: ActKind) -> Act {
        Act { kind, at_ms: None, by: None, clocks: None }
    }

    /// Whether the act changes the position on the boards.
    pub fn moves_pieces(&self) -> bool {
        matches!(
            self.kind,
            ActKind::Played(_)
                | ActKind::TakeBack { position: Some(_), .. }
                | ActKind::SetPosition { .. }
                | ActKind::Replay { .. }
        )
    }
}

/// One move as the record writes it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct RecordMove {
    /// The board it was made on (the letter of its move number).
    pub board: BoardId,
    /// The mover's colour (the case of that letter: `1A.` White, `1a.` Black).
    pub color: Color,
    /// The full-move number on its board, as written.
    pub number: u32,
    /// The move as written: SAN (`Nf3`, `N@f3`, `e8=Qd1`) or long notation.
    pub text: String,
    /// The mover's remaining time after the move, in milliseconds, if recorded.
    pub clock_ms: Option<u64>,
    /// Commentary after the move (`{C:...}` in BPGN), whitespace collapsed.
    pub comment: Option<String>,
    /// The match time it was made, in milliseconds from the start of the clocks (`{[%mt …]}`),
    /// if recorded.
    pub at_ms: Option<i64>,
    /// The lag credit its mover was given (K3), in milliseconds, when the record says so
    /// (`{[%mt 30.600 lag=0.380]}`) and it is not zero.
    pub credit_ms: Option<u64>,
    /// What happened after it, before the next move of the record (`{[%act …]}`), in order.
    pub acts: Vec<Act>,
}

impl RecordMove {
    /// A move without clock or comment.
    pub fn new(board: BoardId, color: Color, number: u32, text: impl Into<String>) -> RecordMove {
        RecordMove {
            board,
            color,
            number,
            text: text.into(),
            clock_ms: None,
            comment: None,
            at_ms: None,
            credit_ms: None,
            acts: Vec::new(),
        }
    }

    /// The seat that made the move.
    pub fn seat(&self) -> Seat {
        Seat::new(self.board, self.color)
    }

    /// The move number as BPGN writes it: `14a.` (board letter upper case for White).
    pub fn number_label(&self) -> String {
        let letter = self.board.char();
        let letter = if self.color == Color::White { letter.to_ascii_uppercase() } else { letter };
        format!("{}{letter}.", self.number)
    }

    /// The move as a person names it: `14a. Q@g8`.
    pub fn label(&self) -> String {
        format!("{} {}", self.number_label(), self.text)
    }
}
