//! What a follower knows of one match: the latest [`MatchState`] kept current by events, the
//! boards as a [`Game`], the clocks as a [`ClockModel`], the last move on each board and the
//! moves so far. The terminal client, the bot and the demo all show or play from it.

use std::time::{Duration, Instant};

use bughouse::{BoardId, Game, RuleOptions, Rules, Seat};
use shvedka_proto::{
    ArbiterRequest, EventView, MatchEvent, MatchId, MatchState, PhaseView, ResultView, SeatId, ServerMsg,
};

use crate::ClockModel;

/// A move as followers see it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeenMove {
    /// Who played it.
    pub seat: SeatId,
    /// Long notation.
    pub uci: String,
    /// SAN.
    pub san: String,
    /// Match time, milliseconds.
    pub at_ms: u64,
    /// The mover's clock just after it, milliseconds.
    pub clock_ms: u64,
    /// Its full-move number on its board, as records number it (`12` in `12A. Nf3`).
    pub number: u32,
}

/// A followed match.
#[derive(Clone, Debug)]
pub struct MatchModel {
    state: MatchState,
    rules: Rules,
    game: Game,
    clocks: ClockModel,
    moves: Vec<SeenMove>,
    last: [Option<usize>; 2],
    flags: [bool; 4],
    draw_offer: Option<SeatId>,
}

/// Why a state could not be followed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ModelError(pub String);

impl std::fmt::Display for ModelError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ModelError {}

/// The rules of a preset name as the server reports it.
///
/// # Errors
/// [`ModelError`] for a preset this client does not know.
pub fn rules_of(preset: &str) -> Result<Rules, ModelError> {
    RuleOptions::preset(preset).and_then(|o| o.rules()).map_err(|e| ModelError(e.to_string()))
}

impl MatchModel {
    /// Starts following from a whole state received at `received`.
    ///
    /// # Errors
    /// [`ModelError`] for an unknown preset or an unreadable position.
    pub fn new(state: MatchState, received: Instant, rtt: Duration) -> Result<MatchModel, ModelError> {
        let rules = rules_of(&state.rules)?;
        let game = Game::from_bfen(&state.bfen, rules).map_err(|e| ModelError(e.to_string()))?;
        let mut clocks = ClockModel::new(Duration::ZERO, received);
        clocks.on_state(&state, received, rtt);
        // The moves before the state, as its record has them (no long notation or clock there).
        let moves = state
            .moves
            .iter()
            .map(|m| SeenMove {
                seat: m.seat,
                uci: String::new(),
                san: m.san.clone(),
                at_ms: 0,
                clock_ms: 0,
                number: m.number,
            })
            .collect();
        Ok(MatchModel {
            state,
            rules,
            game,
            clocks,
            moves,
            last: [None; 2],
            flags: [false; 4],
            draw_offer: None,
        })
    }

    /// Takes a whole state again (after a long absence), keeping the moves seen so far.
    ///
    /// # Errors
    /// As [`MatchModel::new`]; the model is unchanged then.
    pub fn reset(&mut self, state: MatchState, received: Instant, rtt: Duration) -> Result<(), ModelError> {
        let moves = std::mem::take(&mut self.moves);
        let last = self.last;
        match MatchModel::new(state, received, rtt) {
            Ok(mut fresh) => {
                // The moves seen live carry more (long notation, clocks) than the state's list.
                if moves.len() >= fresh.moves.len() {
                    fresh.moves = moves;
                    fresh.last = last;
                }
                *self = fresh;
                Ok(())
            }
            Err(e) => {
                self.moves = moves;
                Err(e)
            }
        }
    }

    /// Follows a match from the messages a client receives: a whole state starts (or, for the
    /// same match, refreshes) the model; an event of that match is applied; others change
    /// nothing. The one place the terminal client, the bot and the demo turn messages into a
    /// model.
    ///
    /// # Errors
    /// [`ModelError`] for a state or event that cannot be read (the model keeps what it had).
    pub fn follow(
        model: &mut Option<MatchModel>,
        msg: &ServerMsg,
        received: Instant,
        rtt: Duration,
    ) -> Result<(), ModelError> {
        match (msg, model.as_mut()) {
            (ServerMsg::State(s), Some(m)) if m.id() == s.match_id => m.reset(s.clone(), received, rtt),
            (ServerMsg::State(s), _) => {
                *model = Some(MatchModel::new(s.clone(), received, rtt)?);
                Ok(())
            }
            (ServerMsg::Event(e), Some(m)) => m.apply(e, received, rtt),
            // Closed without a decision (expired, failed): the session follows no match now.
            (ServerMsg::MatchClosed { match_id, .. }, Some(m)) if m.id() == *match_id => {
                *model = None;
                Ok(())
            }
            _ => Ok(()),
        }
    }

    /// Applies an event of this match (others are ignored, as are events already seen).
    ///
    /// # Errors
    /// [`ModelError`] when an event's position cannot be read (the model keeps the old one).
    pub fn apply(&mut self, e: &MatchEvent, received: Instant, rtt: Duration) -> Result<(), ModelError> {
        if e.match_id != self.state.match_id || self.state.last_seq.is_some_and(|s| e.seq <= s) {
            return Ok(());
        }
        self.state.last_seq = Some(e.seq);
        self.state.clocks_ms = e.clocks_ms;
        self.state.running = e.running;
        self.clocks.on_event(e, received, rtt);
        let s = &mut self.state;
        match &e.kind {
            EventView::SeatTaken { seat, name, kind } => {
                s.seats[seat.index()] = Some(name.clone());
                s.kinds[seat.index()] = Some(*kind);
            }
            EventView::SeatLeft { seat } => {
                s.seats[seat.index()] = None;
                s.kinds[seat.index()] = None;
                s.ready[seat.index()] = false;
                if s.your_seat == Some(*seat) {
                    s.your_seat = None;
                }
            }
            EventView::Ready { seat, ready } => s.ready[seat.index()] = *ready,
            EventView::CountdownStarted { .. } => s.phase = PhaseView::Countdown,
            EventView::Started => s.phase = PhaseView::Running,
            EventView::Moved { seat, uci, san, .. } => {
                self.draw_offer = None;
                let board = seat.index() / 2;
                let on_board = self.moves.iter().filter(|m| m.seat.board() == seat.board()).count() as u32;
                self.last[board] = Some(self.moves.len());
                self.moves.push(SeenMove {
                    number: on_board / 2 + 1,
                    seat: *seat,
                    uci: uci.clone(),
                    san: san.clone(),
                    at_ms: e.at_ms,
                    clock_ms: e.clocks_ms[seat.index()],
                });
                self.flags[seat.index()] = false;
            }
            EventView::DrawOffered { seat } => self.draw_offer = Some(*seat),
            EventView::DrawDeclined { .. } => self.draw_offer = None,
            EventView::ArbiterCalled { .. } => s.phase = PhaseView::Paused,
            EventView::FlagFell { seat } => self.flags[seat.index()] = true,
            EventView::ArbiterActed { act, .. } => match act {
                ArbiterRequest::Pause => s.phase = PhaseView::Paused,
                ArbiterRequest::Resume => s.phase = PhaseView::Running,
                ArbiterRequest::Annul { .. } => s.phase = PhaseView::Annulled,
                // The board's last move is undone (its position comes with the event): it leaves
                // the list, and each board's last move is found again.
                ArbiterRequest::TakeBack { board } => {
                    let index = (*board == shvedka_proto::Board::B) as usize;
                    if let Some(i) = self.last[index] {
                        self.moves.remove(i);
                        for (k, last) in self.last.iter_mut().enumerate() {
                            *last = self.moves.iter().rposition(|m| m.seat.index() / 2 == k);
                        }
                    }
                }
                // A2, A5, A6: the game starts again (its position comes with the event); the
                // countdown or the start follows.
                ArbiterRequest::Replay { .. } => {
                    s.phase = PhaseView::Countdown;
                    s.result = None;
                    self.moves.clear();
                    self.last = [None; 2];
                    self.flags = [false; 4];
                    self.draw_offer = None;
                }
                _ => {}
            },
            // Words only (from servers before typed acts): nothing to act on.
            EventView::Arbiter { .. } => {}
            EventView::Ended(result) => {
                s.phase = PhaseView::Ended;
                s.result = Some(Box::new(result.clone()));
            }
            EventView::Paused { .. } => s.phase = PhaseView::Paused,
            EventView::Resumed { .. } => s.phase = PhaseView::Running,
            EventView::Claimed { .. } | EventView::Resigned { .. } => {}
        }
        if let Some(bfen) = &e.bfen {
            self.game = Game::from_bfen(bfen, self.rules).map_err(|err| ModelError(err.to_string()))?;
            self.state.bfen = bfen.clone();
        }
        Ok(())
    }

    /// The match's id.
    pub fn id(&self) -> MatchId {
        self.state.match_id
    }

    /// The latest state (clocks as of the last update).
    pub fn state(&self) -> &MatchState {
        &self.state
    }

    /// Both boards and the reserves.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The seat of this session, if seated.
    pub fn my_seat(&self) -> Option<SeatId> {
        self.state.your_seat
    }

    /// Where the match is.
    pub fn phase(&self) -> PhaseView {
        self.state.phase
    }

    /// The result, once decided.
    pub fn result(&self) -> Option<&ResultView> {
        self.state.result.as_deref()
    }

    /// The four clocks at local time `now`, ticking.
    pub fn clocks(&self, now: Instant) -> [Duration; 4] {
        self.clocks.readings(now)
    }

    /// Which clocks run.
    pub fn running(&self) -> [bool; 4] {
        self.clocks.running()
    }

    /// The moves seen, in order.
    pub fn moves(&self) -> &[SeenMove] {
        &self.moves
    }

    /// The last move seen on a board.
    pub fn last_move(&self, board: BoardId) -> Option<&SeenMove> {
        self.last[board.index()].map(|i| &self.moves[i])
    }

    /// Fallen flags not yet answered by a move.
    pub fn flags(&self) -> [bool; 4] {
        self.flags
    }

    /// The seat whose draw offer stands.
    pub fn draw_offer(&self) -> Option<SeatId> {
        self.draw_offer
    }

    /// Whether it is `seat`'s turn on its board while the clocks run.
    pub fn to_move(&self, seat: SeatId) -> bool {
        let seat = rules_seat(seat);
        self.state.phase == PhaseView::Running && self.game.to_move(seat.board) == seat
    }
}

/// The rules layer's seat of a wire seat.
pub fn rules_seat(seat: SeatId) -> Seat {
    Seat::ALL[seat.index()]
}

/// The wire's board of a rules board.
pub fn wire_board(board: BoardId) -> shvedka_proto::Board {
    match board {
        BoardId::A => shvedka_proto::Board::A,
        BoardId::B => shvedka_proto::Board::B,
    }
}
