//! [`Match`]: one bughouse match as a deterministic state machine. Inputs come in through
//! `handle_*(now, …)`, events go out through [`Match::poll_event`], and [`Match::poll_timeout`]
//! says when time alone will next change something (a countdown ending, a flag falling, a flag's
//! grace window closing, `window.rs`). The same inputs at the same times always give the same log.

use std::time::Duration;

use bughouse::{
    Adjudication, BoardId, DrawAgreement, DrawKind, EndingEvent, FlagMode, Game, Reason, Seat, adjudicate,
};

use crate::clocks::Clocks;
use crate::history::History;
use crate::window::Window;
use crate::{
    ArbiterAct, Claim, ClaimFailure, Command, ConfigError, Event, EventKind, Input, LagQuota,
    MOST_CLIENT_TIME, MatchConfig, Official, PlayerId, PositionFailure, Rejection, Ruling,
};

/// E5: halfmoves a player may claim a draw after (50 moves).
const FIFTY_MOVES: u32 = 100;
/// E5: halfmoves that draw by themselves (75 moves).
const SEVENTY_FIVE_MOVES: u32 = 150;
/// E4: occurrences a player may claim a draw after.
const THREEFOLD: u32 = 3;
/// E4: occurrences that draw by themselves.
const FIVEFOLD: u32 = 5;

/// Where a match is in its life.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Phase {
    /// Players take seats and say ready.
    Forming,
    /// All four are ready; the clocks start at `starts_at`.
    Countdown {
        /// The start.
        starts_at: Duration,
    },
    /// The clocks run.
    Running,
    /// K5: the clocks are stopped until the arbiter resumes.
    Paused {
        /// Since when.
        since: Duration,
        /// The player who called the arbiter, or `None` when the arbiter paused.
        by: Option<Seat>,
    },
    /// Decided.
    Ended(Adjudication),
    /// Annulled by the arbiter, to be replayed.
    Annulled,
}

/// One match: both boards, four seats, four clocks, and the log of everything that happened.
#[derive(Clone, Debug)]
pub struct Match {
    config: MatchConfig,
    game: Game,
    seats: [Option<PlayerId>; 4],
    ready: [bool; 4],
    phase: Phase,
    clocks: Clocks,
    quotas: [LagQuota; 4],
    /// Per seat: the flag has fallen (K4; under `claim` it stays down until the arbiter adds time).
    fallen: [bool; 4],
    /// Per seat, under `claim`: a move was completed after the flag fell (its lag credit did not
    /// bring it inside the time), so the flag stays down whatever time the increment gives back:
    /// only the lag credit of the move in whose turn it fell withdraws a flag (RULES.md section
    /// 10), and the arbiter by adding time.
    flag_stands: [bool; 4],
    /// K4 `auto`: the open grace window of fallen flags, with the endings recorded in it.
    window: Option<Window>,
    draw_offers: [bool; 4],
    /// The Chess960 position the driver drew for this match (used when the rules ask for one).
    chess960: u16,
    history: History,
    /// The latest time seen: time never runs backwards inside a match.
    now: Duration,
    log: Vec<Event>,
    polled: usize,
}

impl Match {
    /// A new match, forming.
    ///
    /// # Errors
    /// [`ConfigError`] when the preset or the start position is invalid.
    pub fn new(config: MatchConfig) -> Result<Match, ConfigError> {
        let game = config.start_game()?;
        let turns = BoardId::ALL.map(|b| game.board(b).turn());
        let quota = config.lag.quota(&config.time_control);
        Ok(Match {
            clocks: Clocks::new(config.time_control, turns),
            history: History::new(&game),
            config,
            game,
            seats: [None; 4],
            ready: [false; 4],
            phase: Phase::Forming,
            quotas: [quota; 4],
            fallen: [false; 4],
            flag_stands: [false; 4],
            window: None,
            draw_offers: [false; 4],
            chess960: bughouse::STANDARD_CHESS960,
            now: Duration::ZERO,
            log: Vec::new(),
            polled: 0,
        })
    }

    // ---- queries -------------------------------------------------------------------------

    /// The configuration.
    pub fn config(&self) -> &MatchConfig {
        &self.config
    }

    /// Both boards and the reserves.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The Chess960 position both boards started from, once fixed at the countdown.
    pub fn chess960_start(&self) -> Option<u16> {
        self.log.iter().find_map(|e| match e.kind {
            EventKind::CountdownStarted { chess960, .. } => chess960,
            _ => None,
        })
    }

    /// The game the boards started from (or will start from, as far as known now): the
    /// Chess960 position once fixed, else the config's start.
    pub fn start_game(&self) -> Game {
        match self.chess960_start() {
            Some(n) => Game::chess960(n, *self.game.rules()),
            None => self.config.start_game().expect("Match::new checked the start position"),
        }
    }

    /// Where the match is.
    pub fn phase(&self) -> &Phase {
        &self.phase
    }

    /// The result, once decided.
    pub fn result(&self) -> Option<Adjudication> {
        match self.phase {
            Phase::Ended(adj) => Some(adj),
            _ => None,
        }
    }

    /// Who sits where, in the order of [`Seat::ALL`].
    pub fn seats(&self) -> [Option<PlayerId>; 4] {
        self.seats
    }

    /// The seat a player holds.
    pub fn seat_of(&self, player: PlayerId) -> Option<Seat> {
        Seat::ALL.into_iter().find(|s| self.seats[s.index()] == Some(player))
    }

    /// Who has said ready, in the order of [`Seat::ALL`].
    pub fn ready(&self) -> [bool; 4] {
        self.ready
    }

    /// The four clock readings at `now` (K1), in the order of [`Seat::ALL`].
    pub fn clocks(&self, now: Duration) -> [Duration; 4] {
        self.clocks.readings(now.max(self.now))
    }

    /// Which clocks are running, in the order of [`Seat::ALL`]: the side to move on each board
    /// while the match runs.
    pub fn running(&self) -> [bool; 4] {
        Seat::ALL.map(|s| self.phase == Phase::Running && self.game.to_move(s.board) == s)
    }

    /// One player's lag quota (K3).
    pub fn lag_quota(&self, seat: Seat) -> LagQuota {
        self.quotas[seat.index()]
    }

    /// Whose flags have fallen (K4), in the order of [`Seat::ALL`].
    pub fn fallen_flags(&self) -> [bool; 4] {
        self.fallen
    }

    /// The mates and draws an open grace window holds (K4 `auto`), in the order recorded; none
    /// without a window. A record shows them: weighed at the window's close, they may be
    /// outranked (E9) and so appear in no result.
    pub fn held_endings(&self) -> &[EndingEvent] {
        self.window.as_ref().map_or(&[], Window::held)
    }

    /// Standing draw offers (E3), in the order of [`Seat::ALL`].
    pub fn draw_offers(&self) -> [bool; 4] {
        self.draw_offers
    }

    /// How often the current position of a board has occurred (E4).
    pub fn occurrences(&self, board: BoardId) -> u32 {
        self.history.occurrences(&self.game, board)
    }

    /// The whole log.
    pub fn events(&self) -> &[Event] {
        &self.log
    }

    /// The latest time the match has seen.
    pub fn now(&self) -> Duration {
        self.now
    }

    // ---- driving -------------------------------------------------------------------------

    /// The next event not yet polled.
    pub fn poll_event(&mut self) -> Option<Event> {
        let event = self.log.get(self.polled).cloned();
        self.polled += usize::from(event.is_some());
        event
    }

    /// When the match next needs [`Match::handle_timeout`], if time alone can change it.
    pub fn poll_timeout(&self) -> Option<Duration> {
        match self.phase {
            Phase::Countdown { starts_at } => Some(starts_at),
            Phase::Running => {
                let flags = self.next_flag().map(|(_, t)| t);
                let settle = self.window.as_ref().map(Window::closes);
                match (flags, settle) {
                    (Some(a), Some(b)) => Some(a.min(b)),
                    (a, b) => a.or(b),
                }
            }
            _ => None,
        }
    }

    /// Lets time pass up to `now`: starts the clocks after the countdown, lets flags fall and
    /// settles them, each at the instant it is due.
    pub fn handle_timeout(&mut self, now: Duration) {
        let now = now.max(self.now);
        while let Some(due) = self.poll_timeout().filter(|&t| t <= now) {
            self.fire(due);
        }
        self.now = now;
    }

    /// Applies an input (a player's command or an arbiter's act).
    ///
    /// # Errors
    /// A [`Rejection`] saying why; the match is then unchanged (time still passes: flags that
    /// fell before `now` have fallen).
    pub fn handle_input(&mut self, now: Duration, input: Input) -> Result<(), Rejection> {
        match input {
            Input::Player { player, command } => self.handle_command(now, player, command),
            Input::Arbiter(Ruling { act, by }) => self.handle_arbiter(now, by, act),
        }
    }

    /// Applies a player's command.
    ///
    /// # Errors
    /// A [`Rejection`] saying why; the match is then unchanged.
    pub fn handle_command(
        &mut self,
        now: Duration,
        player: PlayerId,
        command: Command,
    ) -> Result<(), Rejection> {
        self.handle_timeout(now);
        let now = self.now;
        match command {
            Command::TakeSeat(seat) => self.take_seat(now, player, seat),
            Command::LeaveSeat => self.leave_seat(now, player),
            Command::Ready(ready) => self.set_ready(now, player, ready),
            Command::Move { mv, client_time } => {
                self.play(now, player, mv, client_time.map(|t| t.min(MOST_CLIENT_TIME)))
            }
            Command::OfferDraw => self.offer_draw(now, player),
            Command::DeclineDraw => self.decline_draw(now, player),
            Command::Claim(claim) => self.claim(now, player, claim),
            Command::Resign => {
                let seat = self.in_play(player, true)?;
                self.push(now, EventKind::Resigned { player, seat });
                self.end_with(now, EndingEvent::Resign { seat });
                Ok(())
            }
            Command::CallArbiter { replay } => {
                let seat = self.in_play(player, false)?;
                self.pause(now, Some(seat));
                self.push(now, EventKind::ArbiterCalled { player, seat, replay });
                Ok(())
            }
        }
    }

    /// Applies an arbiter's act (A2, K5), made by `by` (logged with it).
    ///
    /// # Errors
    /// A [`Rejection`] saying why; the match is then unchanged.
    pub fn handle_arbiter(&mut self, now: Duration, by: Official, act: ArbiterAct) -> Result<(), Rejection> {
        self.handle_timeout(now);
        let now = self.now;
        match &act {
            ArbiterAct::Pause => {
                self.require_running(false)?;
                self.pause(now, None);
            }
            ArbiterAct::Resume => {
                let Phase::Paused { since, .. } = self.phase else {
                    return Err(self.not_live().unwrap_or(Rejection::NotPaused));
                };
                let pause = now.saturating_sub(since);
                if let Some(window) = &mut self.window {
                    window.postpone(pause);
                }
                self.clocks.resume(now);
                self.phase = Phase::Running;
            }
            ArbiterAct::AdjustClock { seat, delta_ms } => {
                if matches!(self.phase, Phase::Ended(_) | Phase::Annulled) {
                    return Err(Rejection::Over);
                }
                if self.clocks.adjust(*seat, *delta_ms, now) > Duration::ZERO {
                    self.fallen[seat.index()] = false;
                    self.flag_stands[seat.index()] = false;
                    if let Some(window) = &mut self.window {
                        window.withdraw(*seat);
                    }
                }
            }
            ArbiterAct::TakeBack { board } => {
                self.require_running(true)?;
                let (game, seat) =
                    self.history.take_back(&self.game, *board).map_err(Rejection::TakeBackRefused)?;
                self.game = game;
                self.clocks.set_turn(*board, seat.color, now);
            }
            ArbiterAct::SetPosition { bfen } => self.set_position(now, bfen)?,
            ArbiterAct::DeclareResult { result, .. } => {
                if self.phase == Phase::Annulled {
                    return Err(Rejection::Over);
                }
                self.push(now, EventKind::Arbiter(Ruling { act: act.clone(), by }));
                self.end(now, Adjudication { result: *result, reason: Reason::Arbiter });
                return Ok(());
            }
            ArbiterAct::Annul { .. } => {
                if self.phase == Phase::Annulled {
                    return Err(Rejection::Over);
                }
                self.clocks.stop(now);
                self.window = None;
                self.phase = Phase::Annulled;
            }
            ArbiterAct::Replay { .. } => return self.play_again(now, Ruling { act, by }),
        }
        self.push(now, EventKind::Arbiter(Ruling { act, by }));
        if matches!(self.phase, Phase::Running | Phase::Paused { .. }) {
            self.check_board_endings(now);
        }
        Ok(())
    }

    // ---- seats ---------------------------------------------------------------------------

    fn forming(&self) -> Result<(), Rejection> {
        match self.phase {
            Phase::Forming => Ok(()),
            Phase::Countdown { .. } | Phase::Running | Phase::Paused { .. } => Err(Rejection::SeatsLocked),
            Phase::Ended(_) | Phase::Annulled => Err(Rejection::Over),
        }
    }

    fn take_seat(&mut self, now: Duration, player: PlayerId, seat: Seat) -> Result<(), Rejection> {
        self.forming()?;
        if let Some(held) = self.seat_of(player) {
            return Err(Rejection::AlreadySeated(held));
        }
        if self.seats[seat.index()].is_some() {
            return Err(Rejection::SeatTaken(seat));
        }
        self.seats[seat.index()] = Some(player);
        self.ready[seat.index()] = false;
        self.push(now, EventKind::SeatTaken { player, seat });
        Ok(())
    }

    fn leave_seat(&mut self, now: Duration, player: PlayerId) -> Result<(), Rejection> {
        self.forming()?;
        let seat = self.seat_of(player).ok_or(Rejection::NotSeated)?;
        self.seats[seat.index()] = None;
        self.ready[seat.index()] = false;
        self.push(now, EventKind::SeatLeft { player, seat });
        Ok(())
    }

    fn set_ready(&mut self, now: Duration, player: PlayerId, ready: bool) -> Result<(), Rejection> {
        self.forming()?;
        let seat = self.seat_of(player).ok_or(Rejection::NotSeated)?;
        self.ready[seat.index()] = ready;
        self.push(now, EventKind::Ready { player, seat, ready });
        if self.ready.iter().all(|&r| r) && self.seats.iter().all(Option::is_some) {
            self.count_down(now);
        }
        Ok(())
    }

    /// All four are ready: fixes the Chess960 start, then the countdown (logged with the
    /// position, or alone) or, without one, the start itself.
    fn count_down(&mut self, now: Duration) {
        let chess960 = self.fix_chess960();
        let starts_at = now + self.config.countdown;
        if !self.config.countdown.is_zero() {
            self.phase = Phase::Countdown { starts_at };
        }
        if chess960.is_some() || !self.config.countdown.is_zero() {
            self.push(now, EventKind::CountdownStarted { starts_at, chess960 });
        }
        if self.config.countdown.is_zero() {
            self.start(now);
        }
    }

    /// A2, A5, A6: the arbiter's replay. The game in play is annulled and the match starts again
    /// as a fresh one would (a new [`Match`] from the same config: start position, full clocks
    /// and lag quotas, no flags, offers or history), keeping only its four seated players, the
    /// Chess960 number drawn for it, the time and the log; then the countdown as at the first
    /// start. The act is logged before the countdown, with the fresh clocks.
    fn play_again(&mut self, now: Duration, ruling: Ruling) -> Result<(), Rejection> {
        self.require_running(true)?;
        let mut fresh = Match::new(self.config.clone()).expect("Match::new accepted this config");
        fresh.seats = self.seats;
        fresh.ready = self.ready;
        fresh.chess960 = self.chess960;
        fresh.now = self.now;
        fresh.log = std::mem::take(&mut self.log);
        fresh.polled = self.polled;
        *self = fresh;
        self.push(now, EventKind::Arbiter(ruling));
        self.count_down(now);
        Ok(())
    }

    /// The driver's random choice of a Chess960 position for this match (0–959; any number is
    /// taken modulo 960). The machine reads no randomness, as it reads no clock: the driver draws
    /// the number when it creates the match, and it becomes the start position of both boards
    /// when the countdown starts (and is logged then), if the rules ask for Chess960 and the
    /// config names no other start. Ignored once the countdown has started.
    pub fn choose_chess960(&mut self, n: u16) {
        if self.phase == Phase::Forming {
            self.chess960 = n % bughouse::CHESS960_POSITIONS;
        }
    }

    /// At the countdown: sets both boards to the chosen Chess960 position when the rules ask for
    /// one, and returns it.
    fn fix_chess960(&mut self) -> Option<u16> {
        if !self.config.rules.chess960 || self.config.start.is_some() {
            return None;
        }
        self.game = Game::chess960(self.chess960, *self.game.rules());
        self.history = History::new(&self.game);
        Some(self.chess960)
    }

    fn start(&mut self, now: Duration) {
        self.phase = Phase::Running;
        self.clocks.start(now);
        self.push(now, EventKind::Started);
    }

    // ---- play ----------------------------------------------------------------------------

    /// Why nothing can be played now, if so.
    fn not_live(&self) -> Option<Rejection> {
        match self.phase {
            Phase::Forming | Phase::Countdown { .. } => Some(Rejection::NotStarted),
            Phase::Ended(_) | Phase::Annulled => Some(Rejection::Over),
            Phase::Running | Phase::Paused { .. } => None,
        }
    }

    /// The match has started and not ended; unless `paused_ok`, it is not paused either.
    fn require_running(&self, paused_ok: bool) -> Result<(), Rejection> {
        if let Some(r) = self.not_live() {
            return Err(r);
        }
        match self.phase {
            Phase::Paused { .. } if !paused_ok => Err(Rejection::Paused),
            _ => Ok(()),
        }
    }

    /// The player's seat, if he may act in the match now.
    fn in_play(&self, player: PlayerId, paused_ok: bool) -> Result<Seat, Rejection> {
        self.require_running(paused_ok)?;
        self.seat_of(player).ok_or(Rejection::NotSeated)
    }

    /// Whether `player` may move on `board` now (the match runs, he sits on that board, and it
    /// is his turn): his seat, or why not. A driver asks this before reading move text, so the
    /// player hears "not your turn" rather than why the text is not a legal move for the other side.
    ///
    /// # Errors
    /// The [`Rejection`] a move would get.
    pub fn may_move(&self, player: PlayerId, board: BoardId) -> Result<Seat, Rejection> {
        let seat = self.in_play(player, false)?;
        if board != seat.board {
            return Err(Rejection::NotYourBoard { seat, board });
        }
        if self.game.to_move(seat.board) != seat {
            return Err(Rejection::NotYourTurn { seat });
        }
        Ok(seat)
    }

    fn play(
        &mut self,
        now: Duration,
        player: PlayerId,
        mv: bughouse::BughouseMove,
        client_time: Option<Duration>,
    ) -> Result<(), Rejection> {
        let seat = self.may_move(player, mv.board)?;
        let mut after = self.game;
        after.play(mv).map_err(Rejection::Illegal)?;

        // K3: credit the lag, at most the quota; K4: under `auto` a move that still overruns
        // the clock is too late.
        let elapsed = self.clocks.elapsed(seat.board, now);
        let credit = self.quotas[seat.index()].credit(elapsed, client_time);
        let charged = self.clocks.charge(seat.board, now, credit);
        let in_time = charged < self.clocks.remaining(seat);
        if self.config.rules.flag == FlagMode::Auto && !in_time {
            return Err(Rejection::FlagFell(seat));
        }

        if !in_time {
            // Under `claim`, late after the credit (the flag fell: `handle_timeout` has said so
            // before any command): it stays down.
            self.flag_stands[seat.index()] = true;
        }
        self.quotas[seat.index()].after_move(credit);
        self.clocks.complete_move(seat.board, now, charged);
        if in_time && !self.flag_stands[seat.index()] {
            // The move beat the clock after all: the flag never fell (K3, under both policies;
            // under `claim` a later claim of it fails). A flag that stood at an earlier move
            // stays down, however much time the increment has given back since.
            self.fallen[seat.index()] = false;
            if let Some(window) = &mut self.window {
                window.withdraw(seat);
            }
        }
        // Moving instead of answering declines the opponent's offer.
        self.draw_offers[seat.opponent().index()] = false;
        self.history.record(seat, mv, &self.game, &after);
        self.game = after;
        self.push(now, EventKind::Moved { player, seat, mv, client_time, charged, credit });
        self.check_board_endings(now);
        Ok(())
    }

    /// After a position changed: mate on board (E1), fivefold repetition (E4), 75 moves (E5),
    /// a stalemate the rules make a draw (M3) end the match, or, while a flag's grace window is
    /// open, are held in it (K4).
    fn check_board_endings(&mut self, now: Duration) {
        let mut events = Vec::new();
        for board in BoardId::ALL {
            if self.game.is_mate_on_board(board) {
                events.push(EndingEvent::MateOnBoard { winner: self.game.to_move(board).opponent() });
            }
        }
        for board in BoardId::ALL {
            let kind = if self.history.occurrences(&self.game, board) >= FIVEFOLD {
                DrawKind::Repetition
            } else if self.game.halfmoves(board) >= SEVENTY_FIVE_MOVES {
                DrawKind::MoveRule
            } else if self.game.is_stalemate_draw(board) {
                DrawKind::Stalemate
            } else {
                continue;
            };
            events.push(EndingEvent::Draw { board, kind });
        }
        if !events.is_empty() {
            self.end_with_all(now, &events);
        }
    }

    // ---- draws, claims -------------------------------------------------------------------

    fn offer_draw(&mut self, now: Duration, player: PlayerId) -> Result<(), Rejection> {
        let seat = self.in_play(player, true)?;
        if self.draw_offers[seat.index()] {
            return Err(Rejection::AlreadyOffered);
        }
        self.draw_offers[seat.index()] = true;
        self.push(now, EventKind::DrawOffered { player, seat });
        let agreed = match self.game.rules().draw_agreement {
            DrawAgreement::OneBoard => self.draw_offers[seat.opponent().index()],
            DrawAgreement::BothBoards => self.draw_offers.iter().all(|&o| o),
        };
        if agreed {
            self.end_with(now, EndingEvent::Draw { board: seat.board, kind: DrawKind::Agreement });
        }
        Ok(())
    }

    /// The seats whose offers `seat` may decline.
    fn declinable(&self, seat: Seat) -> Vec<Seat> {
        let candidates: &[Seat] = match self.game.rules().draw_agreement {
            DrawAgreement::OneBoard => &[seat.opponent()],
            DrawAgreement::BothBoards => &Seat::ALL,
        };
        candidates.iter().copied().filter(|s| *s != seat && self.draw_offers[s.index()]).collect()
    }

    fn decline_draw(&mut self, now: Duration, player: PlayerId) -> Result<(), Rejection> {
        let seat = self.in_play(player, true)?;
        let declined = self.declinable(seat);
        if declined.is_empty() {
            return Err(Rejection::NoDrawOffer);
        }
        for s in declined {
            self.draw_offers[s.index()] = false;
        }
        self.push(now, EventKind::DrawDeclined { player, seat });
        Ok(())
    }

    fn claim(&mut self, now: Duration, player: PlayerId, claim: Claim) -> Result<(), Rejection> {
        let seat = self.in_play(player, true)?;
        let board = seat.board;
        let ending = match claim {
            Claim::Repetition => {
                let n = self.history.occurrences(&self.game, board);
                if n < THREEFOLD {
                    let (seen, needed) = (n, THREEFOLD);
                    return Err(Rejection::ClaimRejected(ClaimFailure::Repetition { board, seen, needed }));
                }
                vec![EndingEvent::Draw { board, kind: DrawKind::Repetition }]
            }
            Claim::FiftyMoves => {
                let n = self.game.halfmoves(board);
                if n < FIFTY_MOVES {
                    let (halfmoves, needed) = (n, FIFTY_MOVES);
                    return Err(Rejection::ClaimRejected(ClaimFailure::FiftyMoves {
                        board,
                        halfmoves,
                        needed,
                    }));
                }
                vec![EndingEvent::Draw { board, kind: DrawKind::MoveRule }]
            }
            Claim::Flag(flagged) => {
                let reject = |why| Err(Rejection::ClaimRejected(why));
                if self.game.rules().flag == FlagMode::Auto {
                    return reject(ClaimFailure::FlagsFallByThemselves);
                }
                if flagged.team() == seat.team() {
                    return reject(ClaimFailure::OwnTeamFlag(flagged));
                }
                if !self.fallen[flagged.index()] {
                    return reject(ClaimFailure::FlagNotFallen(flagged));
                }
                // E7: every flag down at this instant counts, the claimed one first.
                let mut flags = vec![EndingEvent::Flag { seat: flagged }];
                flags.extend(
                    Seat::ALL
                        .into_iter()
                        .filter(|s| *s != flagged && self.fallen[s.index()])
                        .map(|s| EndingEvent::Flag { seat: s }),
                );
                flags
            }
        };
        self.push(now, EventKind::Claimed { player, seat, claim });
        self.end_with_all(now, &ending);
        Ok(())
    }

    // ---- time ----------------------------------------------------------------------------

    /// The next running clock to reach zero whose flag has not fallen yet.
    fn next_flag(&self) -> Option<(Seat, Duration)> {
        Seat::ALL
            .into_iter()
            .filter(|s| !self.fallen[s.index()])
            .filter_map(|s| self.clocks.flag_time(s).map(|t| (s, t)))
            .min_by_key(|&(s, t)| (t, s.index()))
    }

    /// Does what is due at `at`: a start, a flag (before a settlement due at the same instant),
    /// or the settlement of the window.
    fn fire(&mut self, at: Duration) {
        if let Phase::Countdown { starts_at } = self.phase {
            if starts_at <= at {
                self.start(starts_at);
            }
            return;
        }
        if let Some((seat, t)) = self.next_flag().filter(|&(_, t)| t <= at) {
            self.fallen[seat.index()] = true;
            self.push(t, EventKind::FlagFell { seat });
            if self.game.rules().flag == FlagMode::Auto {
                let grace = self.quotas[seat.index()].remaining().min(self.config.lag.max_grace());
                match &mut self.window {
                    Some(window) => window.flag(seat, t + grace),
                    None => self.window = Some(Window::open(seat, t + grace)),
                }
            }
            return;
        }
        if let Some(t) = self.window.as_ref().map(Window::closes).filter(|&t| t <= at) {
            self.settle(t, &[]);
        }
    }

    fn pause(&mut self, now: Duration, by: Option<Seat>) {
        self.clocks.stop(now);
        self.phase = Phase::Paused { since: now, by };
    }

    // ---- arbiter -------------------------------------------------------------------------

    fn set_position(&mut self, now: Duration, bfen: &str) -> Result<(), Rejection> {
        if matches!(self.phase, Phase::Ended(_) | Phase::Annulled) {
            return Err(Rejection::Over);
        }
        // A Chess960 start's rook files hold for the corrected position too (P5).
        let game = Game::from_bfen_with_start(bfen, *self.game.rules(), &self.start_game())
            .map_err(|e| Rejection::InvalidPosition(PositionFailure::Unreadable(e.to_string())))?;
        for color in chess_core::Color::ALL {
            let (was, is) = (self.game.units(color), game.units(color));
            if was != is {
                return Err(Rejection::InvalidPosition(PositionFailure::Units { color, was, would: is }));
            }
        }
        for board in BoardId::ALL {
            self.clocks.set_turn(board, game.board(board).turn(), now);
        }
        self.game = game;
        self.history.reset(&self.game);
        self.draw_offers = [false; 4];
        Ok(())
    }

    // ---- endings -------------------------------------------------------------------------

    fn end_with(&mut self, now: Duration, event: EndingEvent) {
        self.end_with_all(now, &[event]);
    }

    /// Weighs ending `events` recorded at `now` (E1–E10). With no grace window open they are
    /// judged at once. Inside an open window (K4 `auto`) mates and draws are held and weighed with
    /// everything else recorded in it when it closes, or at once when they already decide it
    /// (E2); a resignation closes it at once, after what it holds (RULES.md section 10).
    fn end_with_all(&mut self, now: Duration, events: &[EndingEvent]) {
        let resigned = events.iter().any(|e| matches!(e, EndingEvent::Resign { .. }));
        match &mut self.window {
            Some(window) if !resigned && self.config.window_holds_endings => {
                window.hold(events);
                if window.decided() {
                    self.settle(now, &[]);
                }
            }
            _ => self.settle(now, events),
        }
    }

    /// Closes the window (if one is open) at `at` and ends the match if what it holds, then
    /// `after`, decide it. A window whose flags were all withdrawn and that holds nothing else
    /// closes without a result.
    fn settle(&mut self, at: Duration, after: &[EndingEvent]) {
        let all = match self.window.take() {
            Some(window) => window.endings(after),
            None => after.to_vec(),
        };
        if let Some(adj) = adjudicate(&all) {
            self.end(at, adj);
        }
    }

    fn end(&mut self, now: Duration, adj: Adjudication) {
        self.clocks.stop(now);
        self.window = None;
        self.phase = Phase::Ended(adj);
        self.push(now, EventKind::Ended(adj));
    }

    fn push(&mut self, at: Duration, kind: EventKind) {
        let clocks = self.clocks.readings(at);
        self.log.push(Event { seq: self.log.len() as u64, at, kind, clocks });
    }
}
