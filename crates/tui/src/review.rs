//! A decided match stepped through in the terminal (`/review N`; RULES.md A4): the record's one
//! replay, [`shvedka_records::Timeline`] — its moves and the arbiter's acts in the order they
//! happened, with the same match times (from the start of the clocks), move counts and four
//! clocks as `shvedka arbiter show` and the web client's reviews give — one move at a time
//! (←/→, with the acts after it) or one step at a time, acts too (↑/↓). No IO: the runner fetches
//! the record and hands its text here.

use shvedka_proto::MatchId;
use shvedka_records::{Record, Step, StepKind, Timeline};

/// Why a record cannot be reviewed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReviewError {
    /// The text is not BPGN (the reader's words, with where).
    Unreadable(String),
    /// The text holds no game.
    NoGame,
    /// Its rules or its start position do not read.
    Unplayable(String),
}

/// A record being reviewed, and the step shown.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Review {
    /// The match.
    pub match_id: MatchId,
    /// Its record.
    pub record: Record,
    /// The record replayed.
    pub timeline: Timeline,
    /// The step shown, an index into the timeline's steps (the end at first).
    pub at: usize,
}

impl Review {
    /// The review of a match from its record's text, at its end.
    ///
    /// # Errors
    /// [`ReviewError`].
    pub fn from_bpgn(match_id: MatchId, text: &str) -> Result<Review, ReviewError> {
        let mut records =
            shvedka_records::parse_bpgn(text).map_err(|e| ReviewError::Unreadable(e.to_string()))?;
        if records.is_empty() {
            return Err(ReviewError::NoGame);
        }
        let record = records.swap_remove(0);
        let rules = record.rules().map_err(|e| ReviewError::Unplayable(e.to_string()))?;
        let timeline = record.timeline(rules).map_err(|e| ReviewError::Unplayable(e.to_string()))?;
        let at = timeline.steps().len() - 1;
        Ok(Review { match_id, record, timeline, at })
    }

    /// The step shown.
    pub fn step(&self) -> &Step {
        &self.timeline.steps()[self.at]
    }

    /// The record's moves (a move taken back or annulled is an act, not counted).
    pub fn total_moves(&self) -> usize {
        self.record.moves.len()
    }

    /// The label of the record's `n`-th move (from 1), `12A. Nf3`; `None` for 0.
    pub fn label(&self, n: usize) -> Option<String> {
        n.checked_sub(1).and_then(|i| self.record.moves.get(i)).map(|m| m.label())
    }

    /// Forward to just after the next move and the acts that follow it (the end past the last).
    pub fn next_move(&mut self) {
        let n = self.step().moves_made;
        self.at = self.timeline.after_move(n + 1).unwrap_or(self.timeline.steps().len() - 1);
    }

    /// Back to just after the previous move and the acts that follow it (the start before the
    /// first).
    pub fn previous_move(&mut self) {
        let n = self.step().moves_made;
        self.at = n.checked_sub(1).and_then(|k| self.timeline.after_move(k)).unwrap_or(0);
    }

    /// One step forward (a move or an act).
    pub fn next_step(&mut self) {
        self.at = (self.at + 1).min(self.timeline.steps().len() - 1);
    }

    /// One step back.
    pub fn previous_step(&mut self) {
        self.at = self.at.saturating_sub(1);
    }

    /// The start of the record.
    pub fn start(&mut self) {
        self.at = 0;
    }

    /// The end of the record.
    pub fn end(&mut self) {
        self.at = self.timeline.steps().len() - 1;
    }

    /// The steps up to the one shown that say something (moves with a note or an impossible
    /// one, and acts), the latest last, at most `most`.
    pub fn happenings(&self, most: usize) -> Vec<&Step> {
        let said: Vec<&Step> = self.timeline.steps()[..=self.at]
            .iter()
            .filter(|s| match &s.kind {
                StepKind::Start => false,
                StepKind::Move(i) => s.impossible.is_some() || self.record.moves[*i].comment.is_some(),
                StepKind::Act(_) => true,
            })
            .collect();
        said[said.len().saturating_sub(most)..].to_vec()
    }
}
