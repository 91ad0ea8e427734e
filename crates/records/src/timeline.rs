//! One replay of a record for every reader (RULES.md A4): its moves *and* its acts, in the order
//! they happened, on one time axis — match time from the start of the clocks.
//!
//! [`Record::timeline`] gives a [`Step`] for the start and for every move and act: the game, the
//! four clocks and which of them run just after it, the match time, and how many of the record's
//! moves were made by then (a move later taken back or annulled is an act, [`ActKind::Played`],
//! and is not counted). At any instant [`Timeline::at`] gives what the players had.
//!
//! # Clocks
//!
//! From the start (match time 0) the clock of the side to move on each board runs (K1), until a
//! pause, a call or the end stops them all; an act's recorded clocks (`clocks=`) replace all
//! four, a move's clock comment its mover's. A record with no end act (an over-the-board one)
//! stops every clock at a mate on board (E1). A replay (A2, A5, A6) puts both boards back at the
//! start with full clocks, which run again from its `start` act.
//!
//! # Match times
//!
//! A record from this server gives each move its time (`[%mt]`) and each act its `t=`. A record
//! without any gives only the clocks: then the time of every move follows, board by board, from
//! the time control (tag `TimeControl`, `B+I`) and the clock comments:
//!
//! - on one board the clocks of its two players run in turn, so the board's moves follow one
//!   another: a move is completed at the completion time of the board's previous move (0 for the
//!   first) plus the mover's thinking time;
//! - thinking time = the mover's remaining before the move (B for his first move, else his
//!   previous clock comment) + I − his clock comment after it; a clock that went up by more than
//!   the increment (an arbiter's added minute, a rounding) counts as no thinking at all;
//! - a move is never placed before the move written before it (on either board): its time is the
//!   larger of the two, and the board goes on from there. So the moves made by an instant are
//!   always a prefix of the record.
//!
//! Acts then take the time of the move before them. Without a base time or with a move that has
//! no clock comment, no time is known ([`Timeline::timed`] is false).
//!
//! # Impossible moves
//!
//! A move the rules refuse (an over-the-board record) is carried out as it was made when it can
//! be (RULES.md A1; the board may then be no legal position), else the boards stay as they were;
//! either way the step is marked with why, and the timeline goes on to the end.

use bughouse::{BoardId, Game, Rules, Seat};

use crate::act::RecordMove;
use crate::act::{Act, ActKind};
use crate::aftermath::carry_out;
use crate::classify::{Verdict, judge};
use crate::clock::{Clocks, time_control_ms};
use crate::record::Record;
use crate::start::{ReplayError, start_clocks, start_game};
use crate::wrong::Wrong;

/// What a step is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StepKind {
    /// The start of the record.
    Start,
    /// The record's move at this index of [`Record::moves`].
    Move(usize),
    /// An act (a move later taken back or annulled is [`ActKind::Played`]).
    Act(Act),
}

/// The match just after one move or act.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    /// What happened.
    pub kind: StepKind,
    /// Its match time in milliseconds, recorded or placed; `None` when the record gives none.
    pub at_ms: Option<i64>,
    /// Both boards and the reserves after it.
    pub game: Game,
    /// The four clocks just after it.
    pub clocks: Clocks,
    /// Which clocks run after it, in [`Seat::ALL`] order.
    pub running: [bool; 4],
    /// How many of the record's moves were made by then.
    pub moves_made: usize,
    /// Why the move (or act) could not be played as the rules allow, if so.
    pub impossible: Option<Wrong>,
    /// Whether the match had ended by then.
    pub ended: bool,
    /// Whether the clocks were stopped by a pause or a call (K5).
    pub paused: bool,
}

/// The match at an instant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Instant<'a> {
    /// The last step made by then.
    pub step: &'a Step,
    /// Its index in [`Timeline::steps`].
    pub index: usize,
    /// The four clocks at the instant.
    pub clocks: Clocks,
}

/// A record replayed: every step in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Timeline {
    steps: Vec<Step>,
    timed: bool,
}

impl Timeline {
    /// Every step, the start first.
    pub fn steps(&self) -> &[Step] {
        &self.steps
    }

    /// Whether every step has a match time.
    pub fn timed(&self) -> bool {
        self.timed
    }

    /// The last step.
    pub fn end(&self) -> &Step {
        // There is always the start.
        &self.steps[self.steps.len() - 1]
    }

    /// The index of the last step before the record's move `n + 1` (after move `n` and every act
    /// after it; `0`: the start and the acts before the first move); `None` past the moves.
    pub fn after_move(&self, n: usize) -> Option<usize> {
        let total = self.steps.iter().filter(|s| matches!(s.kind, StepKind::Move(_))).count();
        (n <= total).then(|| self.steps.iter().rposition(|s| s.moves_made == n).unwrap_or(0))
    }

    /// The match at match time `t` (milliseconds): the last step made by then, and the clocks
    /// run on from it. `None` when the record gives no times.
    pub fn at(&self, t: i64) -> Option<Instant<'_>> {
        if !self.timed {
            return None;
        }
        let mut index = 0;
        let mut latest = i64::MIN;
        for (i, s) in self.steps.iter().enumerate() {
            latest = latest.max(s.at_ms.unwrap_or(latest));
            if latest <= t {
                index = i;
            } else {
                break;
            }
        }
        let step = &self.steps[index];
        let from = step.at_ms.unwrap_or(0).max(0);
        let elapsed = u64::try_from(t.saturating_sub(from)).unwrap_or(0);
        let mut clocks = step.clocks;
        for seat in Seat::ALL {
            if step.running[seat.index()] {
                let c = &mut clocks.0[seat.index()];
                *c = c.map(|c| c.saturating_sub(elapsed));
            }
        }
        Some(Instant { step, index, clocks })
    }
}

/// The state while stepping.
struct State {
    game: Game,
    clocks: Clocks,
    since: i64,
    started: bool,
    paused: bool,
    ended: bool,
}

impl State {
    /// Runs the clocks on to `t`.
    fn advance(&mut self, t: Option<i64>, stop_at_mate: bool) {
        let Some(t) = t else { return };
        let from = self.since.max(0);
        let elapsed = u64::try_from(t.saturating_sub(from)).unwrap_or(0);
        for seat in self.running(stop_at_mate) {
            let c = &mut self.clocks.0[seat.index()];
            *c = c.map(|c| c.saturating_sub(elapsed));
        }
        self.since = self.since.max(t);
    }

    fn running(&self, stop_at_mate: bool) -> Vec<Seat> {
        let mated = stop_at_mate && BoardId::ALL.iter().any(|&b| self.game.is_mate_on_board(b));
        if !self.started || self.paused || self.ended || mated {
            return Vec::new();
        }
        BoardId::ALL.iter().map(|&b| self.game.to_move(b)).collect()
    }
}

/// Plays a move of the record on `game`: by the rules, or carried out as it was made. The game
/// after it (unchanged if it cannot be carried out at all), and why the rules refuse it, if they
/// do.
pub(crate) fn play(game: &Game, rm: &RecordMove) -> (Game, Option<Wrong>) {
    // The check's own judgement (the game as its own shadow: what is wrong, not which type).
    let refused = match judge(game, game, rm) {
        Verdict::Legal(m) => {
            let mut after = *game;
            after.play_unchecked(m);
            return (after, None);
        }
        Verdict::Impossible { why, .. } => why,
        Verdict::Unreadable { ambiguous, detail } => Wrong::Unreadable { ambiguous, detail },
    };
    (carry_out(game, game, rm).map_or(*game, |(g, _)| g), Some(refused))
}

/// The game after an act that moves pieces, from `game` (`start`: the record's start); `None`
/// for an act that moves none, `Err` for one that cannot be applied.
pub(crate) fn act_position(act: &Act, game: &Game, start: &Game) -> Option<Result<Game, Wrong>> {
    let read = |bfen: &str| {
        Game::from_bfen_with_start(bfen, *game.rules(), start).map_err(|e| Wrong::BadPosition(e.to_string()))
    };
    Some(match &act.kind {
        ActKind::Played(m) => match play(game, m) {
            (after, None) => Ok(after),
            (_, Some(why)) => Err(why),
        },
        ActKind::TakeBack { position: Some(p), .. } | ActKind::SetPosition { position: p } => read(p),
        ActKind::Replay { .. } => Ok(*start),
        _ => return None,
    })
}

impl Record {
    /// Replays the moves and the acts on one time axis (see the module documentation).
    ///
    /// # Errors
    /// Only a start position (`BFEN`/`FEN` tag) that does not read; an impossible move or act is
    /// a marked step.
    pub fn timeline(&self, rules: Rules) -> Result<Timeline, ReplayError> {
        let start = start_game(self, rules)?;
        let base = start_clocks(self);
        let placed = self.place_moves(base);
        let timed = self.moves.iter().all(|m| m.at_ms.is_some())
            && self.all_acts().all(|a| a.at_ms.is_some())
            || placed.is_some();
        let mut b = Builder {
            state: State { game: start, clocks: base, since: 0, started: true, paused: false, ended: false },
            steps: Vec::with_capacity(self.moves.len() + 1),
            stop_at_mate: !self.all_acts().any(|a| a.kind == ActKind::End),
            timed,
            last_t: timed.then_some(0),
            moves_made: 0,
            start,
            base,
        };
        b.push(StepKind::Start, b.last_t, None);
        b.acts(&self.acts);
        for (index, rm) in self.moves.iter().enumerate() {
            let t = match &placed {
                Some(p) if rm.at_ms.is_none() => Some(p[index]),
                _ => b.time(rm.at_ms),
            };
            b.state.advance(t, b.stop_at_mate);
            let (after, impossible) = play(&b.state.game, rm);
            b.state.game = after;
            if let Some(ms) = rm.clock_ms {
                b.state.clocks.set(rm.seat(), ms);
            }
            b.moves_made += 1;
            b.last_t = t.or(b.last_t);
            b.push(StepKind::Move(index), t, impossible);
            b.acts(&rm.acts);
        }
        Ok(Timeline { steps: b.steps, timed })
    }

    /// The match time of every move when the record gives none, placed by the clocks (see the
    /// module documentation); `None` when they cannot be placed.
    fn place_moves(&self, start: Clocks) -> Option<Vec<i64>> {
        if self.moves.iter().any(|m| m.at_ms.is_some()) {
            return None;
        }
        let (_, increment) = time_control_ms(self.tag("TimeControl")?)?;
        let mut remaining = start.0.map(|c| c.unwrap_or_default());
        if start.0.iter().any(Option::is_none) {
            return None;
        }
        let mut board_time = [0u64; 2];
        let mut last = 0u64;
        let mut times = Vec::with_capacity(self.moves.len());
        for rm in &self.moves {
            let clock = rm.clock_ms?;
            let seat = rm.seat().index();
            let thinking = remaining[seat].saturating_add(increment).saturating_sub(clock);
            remaining[seat] = clock;
            let board = rm.board.index();
            let t = board_time[board].saturating_add(thinking).max(last);
            board_time[board] = t;
            last = t;
            times.push(i64::try_from(t).ok()?);
        }
        Some(times)
    }
}

/// A timeline being built.
struct Builder {
    state: State,
    steps: Vec<Step>,
    stop_at_mate: bool,
    timed: bool,
    last_t: Option<i64>,
    moves_made: usize,
    start: Game,
    base: Clocks,
}

impl Builder {
    /// A time as the timeline gives it: its own, else the last one's (when the record is timed).
    fn time(&self, own: Option<i64>) -> Option<i64> {
        if self.timed { own.or(self.last_t) } else { None }
    }

    fn push(&mut self, kind: StepKind, at_ms: Option<i64>, impossible: Option<Wrong>) {
        let mut running = [false; 4];
        for seat in self.state.running(self.stop_at_mate) {
            running[seat.index()] = true;
        }
        let s = &self.state;
        self.steps.push(Step {
            kind,
            at_ms,
            game: s.game,
            clocks: s.clocks,
            running,
            moves_made: self.moves_made,
            impossible,
            ended: s.ended,
            paused: s.paused,
        });
    }

    fn acts(&mut self, acts: &[Act]) {
        for act in acts {
            let own = match &act.kind {
                ActKind::Played(m) => self.time(m.at_ms.or(act.at_ms)),
                _ => self.time(act.at_ms),
            };
            self.state.advance(own, self.stop_at_mate);
            let impossible = apply(&mut self.state, act, &self.start, self.base);
            self.last_t = own.or(self.last_t);
            self.push(StepKind::Act(act.clone()), own, impossible);
        }
    }
}

/// Applies an act to the state (the clocks already run on to its time); why it could not be, if
/// so.
fn apply(state: &mut State, act: &Act, start: &Game, base: Clocks) -> Option<Wrong> {
    let mut impossible = None;
    if let ActKind::Played(m) = &act.kind {
        let (after, why) = play(&state.game, m);
        state.game = after;
        impossible = why;
    } else {
        match act_position(act, &state.game, start) {
            Some(Ok(g)) => state.game = g,
            Some(Err(why)) => impossible = Some(why),
            None => {}
        }
    }
    match &act.kind {
        ActKind::Played(m) => {
            if let Some(ms) = m.clock_ms {
                state.clocks.set(m.seat(), ms);
            }
        }
        ActKind::Adjust { seat, delta_ms } => {
            let c = &mut state.clocks.0[seat.index()];
            *c = c.map(|c| c.saturating_add_signed(*delta_ms));
        }
        ActKind::Pause | ActKind::Call { .. } => state.paused = true,
        ActKind::Resume => state.paused = false,
        ActKind::Flag { seat } => state.clocks.set(*seat, 0),
        ActKind::Replay { .. } => {
            state.clocks = base;
            state.started = false;
            state.paused = false;
        }
        ActKind::Start => state.started = true,
        ActKind::Result { .. } | ActKind::Annul { .. } | ActKind::End => state.ended = true,
        ActKind::TakeBack { .. }
        | ActKind::SetPosition { .. }
        | ActKind::Draw { .. }
        | ActKind::Resign { .. } => {}
    }
    if let Some(c) = act.clocks {
        state.clocks = Clocks(c.map(Some));
    }
    impossible
}
