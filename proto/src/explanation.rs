//! Why a match ended as it did (version 13), as codes: what `shvedka arbiter explain` says, for
//! the web reviews — which endings happened at which match times (mates, flags, a flag lag credit
//! or the arbiter withdrew, a draw a flag's window held, the arbiter's results and annulment, the
//! end), which of them a flag's grace window held, how E1–E9 weighed it, and every rule that
//! decided the result. The reader's language says it; the only words here are the arbiter's own.

use serde::{Deserialize, Serialize};

use crate::{Board, SeatId, TeamId};

/// A record's result explained.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ExplanationView {
    /// The record's result; `None` when it has none yet.
    pub outcome: Option<Outcome>,
    /// The rule the result names (its `TerminationRule`), if any.
    pub rule: Option<String>,
    /// What happened, in order (at most 40 lines: the last ones are kept; an arbiter's note at
    /// most 200 characters, cut with `…`).
    pub lines: Vec<ExplainedLine>,
    /// How the deciding window was weighed, when one decided the match.
    pub weighing: Vec<WeighingView>,
    /// Every rule that decided the result, each once, the result's own first.
    pub rules: Vec<String>,
}

/// A result.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Outcome {
    /// A team won.
    Win(TeamId),
    /// Drawn.
    Draw,
}

/// One happening at its match time.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ExplainedLine {
    /// Match time in milliseconds from the start of the clocks, if the record gives it.
    pub at_ms: Option<i64>,
    /// Whether the grace window that decided the match held it (K4).
    pub in_window: bool,
    /// What happened.
    pub what: HappeningView,
}

/// Something that ended, or could have ended, the match.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum HappeningView {
    /// M1, E1: `mated` is mated on board by the move `by` (as the record writes it).
    Mate {
        /// The mated player.
        mated: SeatId,
        /// The move, `4A. Qxf7#`.
        by: String,
    },
    /// E10: a player resigned.
    Resigned {
        /// Who.
        seat: SeatId,
    },
    /// K4: a clock reached zero.
    Flag {
        /// Whose.
        seat: SeatId,
    },
    /// K3: the flagged player's move, its lag credit counted, came inside his time.
    FlagWithdrawnByCredit {
        /// Whose flag.
        seat: SeatId,
        /// The move.
        by: String,
        /// The credit, milliseconds.
        credit_ms: u64,
    },
    /// A2: the arbiter gave the flagged player time.
    FlagWithdrawnByArbiter {
        /// Whose flag.
        seat: SeatId,
        /// Who acted (an arbiter's account, `(secret)`, `(server)`), if recorded.
        by: Option<String>,
    },
    /// E3–E5, M3: a board drew while a flag's window was open.
    Draw {
        /// The board.
        board: Board,
        /// The rule: `E3` agreed, `E4` repetition, `E5` the move rule, `M3` stalemate.
        rule: String,
    },
    /// A2: the arbiter declared (or corrected) the result.
    Declared {
        /// The winner; `None` a draw.
        winner: Option<TeamId>,
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

/// How E1–E9 weighed what the deciding window held.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum WeighingView {
    /// E6, E9: a mate on board counts, a flag in the same window does not.
    MateOverFlag,
    /// E9: a mate on board beats a draw in the same window.
    MateOverDraw,
    /// E2, E9: mates by both teams in one window draw.
    MatesOfBothTeams,
    /// E8, E9: a draw beats a flag in the same window.
    DrawOverFlag,
    /// E7: flags of both teams draw.
    FlagsOfBothTeams,
    /// E7: flags of one team only lose for it.
    FlagsOfOneTeam,
}
