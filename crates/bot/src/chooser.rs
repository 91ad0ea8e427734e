//! What chooses the bot's move: shvedka's own search, or a bughouse UCI engine (Fairy-Stockfish)
//! run as a separate process. The player loop (`player.rs`) — seats, pacing, draw offers, flags,
//! resuming — is the same for both; only [`Chooser::choose`] differs.
//!
//! A UCI engine that fails never stalls the bot: a move shvedka refuses, an answer of "no move"
//! where shvedka has legal moves, a timeout or a dead engine each make the chooser log it, count
//! it ([`Chooser::fallbacks`]) and play that move with its own search; a dead engine is not asked
//! again. Where shvedka has no legal move (waiting, M2/M3) the engine is not asked at all.

use std::time::Duration;

use bughouse::{BoardId, Game, Seat};
use chess_core::Role;
use shvedka_engine::{Choice, Engine, Limits, MATE};
use shvedka_uci::{Go, Incompatible, Info, Score, UciEngine, check_rules};

/// How much time one move may take.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Budget {
    /// A fixed time per move (the strength benchmark: both sides the same).
    PerMove(Duration),
    /// A share of the mover's clock, as a player decides it.
    Clock {
        /// The mover's remaining time.
        own: Duration,
        /// His opponent's on that board.
        opponent: Duration,
        /// The increment (or delay) per move.
        increment: Duration,
    },
}

/// Why no move came back: the blocking search thread failed (panicked or was cancelled).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChooseError(pub String);

impl std::fmt::Display for ChooseError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "the search failed: {}", self.0)
    }
}

impl std::error::Error for ChooseError {}

#[derive(Debug)]
enum Kind {
    Search(Box<Engine>),
    Uci {
        /// `None` once it failed for good.
        engine: Option<Box<UciEngine>>,
        /// A fixed time per move instead of the clocks, when the player's budget is a clock.
        movetime: Option<Duration>,
        /// The own search that plays when the engine cannot, and names the pieces to ask for.
        fallback: Box<Engine>,
    },
}

/// The part of a bot that chooses its moves.
#[derive(Debug)]
pub struct Chooser {
    kind: Kind,
    fallbacks: u32,
}

impl Chooser {
    /// shvedka's own search at `level` (1 to 5).
    pub fn search(level: u8) -> Chooser {
        Chooser { kind: Kind::Search(Box::new(Engine::new(level))), fallbacks: 0 }
    }

    /// A UCI engine, already started. `movetime`, if given, is its time per move whatever the
    /// clocks (never over a tenth of the remaining clock); without it the engine is given both
    /// clocks. `fallback_level` is the level of the own search that plays when the engine cannot.
    pub fn uci(engine: UciEngine, movetime: Option<Duration>, fallback_level: u8) -> Chooser {
        Chooser {
            kind: Kind::Uci {
                engine: Some(Box::new(engine)),
                movetime,
                fallback: Box::new(Engine::new(fallback_level)),
            },
            fallbacks: 0,
        }
    }

    /// Whether this chooser plays by the rules of `game`: always for the own search; for a UCI
    /// engine, the `classic` preset without a Chess960 start.
    ///
    /// # Errors
    /// [`Incompatible`] naming each difference.
    pub fn accepts(&self, game: &Game) -> Result<(), Incompatible> {
        match &self.kind {
            Kind::Search(_) => Ok(()),
            Kind::Uci { .. } => {
                check_rules(game.rules())?;
                BoardId::ALL.iter().try_for_each(|&b| shvedka_uci::engine_fen(game, b).map(drop))
            }
        }
    }

    /// Moves its own search played because the UCI engine could not (0 for the own search).
    pub fn fallbacks(&self) -> u32 {
        self.fallbacks
    }

    /// Tells a UCI engine that a new game starts (nothing for the own search). An engine that does
    /// not answer is dropped: the own search plays instead.
    pub async fn new_game(&mut self) {
        if let Kind::Uci { engine: slot @ Some(_), .. } = &mut self.kind
            && let Some(engine) = slot.as_mut()
            && let Err(e) = engine.new_game().await
        {
            tracing::warn!("UCI engine dropped, the own search plays: {e}");
            *slot = None;
        }
    }

    /// Chooses a move for the side to move on `board`: one of `game.legal_moves(board)`, or
    /// `None` when there is none (mate on board, or waiting: M2, M3). Gives the chooser back.
    ///
    /// # Errors
    /// [`ChooseError`] when the blocking search thread failed (the chooser is lost with it).
    pub async fn choose(
        mut self,
        game: Game,
        board: BoardId,
        budget: Budget,
    ) -> Result<(Chooser, Option<Choice>), ChooseError> {
        if game.legal_moves(board).is_empty() {
            return Ok((self, None));
        }
        if let Kind::Uci { engine: slot @ Some(_), movetime, .. } = &mut self.kind
            && let Some(engine) = slot.as_mut()
        {
            let go = go_for(budget, *movetime, game.board(board).turn());
            match engine.best_move(&game, board, go).await {
                Ok(Some(answer)) => return Ok((self, Some(choice(answer.mv, answer.info)))),
                Ok(None) => tracing::warn!("the UCI engine has no move where shvedka has legal moves"),
                Err(e) => {
                    tracing::warn!("the UCI engine gave no move, the own search plays this one: {e}");
                    if e.is_fatal() {
                        *slot = None;
                    }
                }
            }
        }
        if let Kind::Uci { .. } = self.kind {
            self.fallbacks += 1;
        }
        // The whole chooser goes to the blocking thread and comes back with the move.
        tokio::task::spawn_blocking(move || {
            let engine = match &mut self.kind {
                Kind::Search(engine) | Kind::Uci { fallback: engine, .. } => engine,
            };
            let limits = limits_for(engine, budget);
            let choice = engine.choose(&game, board, limits);
            (self, choice)
        })
        .await
        .map_err(|e| ChooseError(e.to_string()))
    }

    /// The piece the chooser's own search would like from the partner for `seat`, if any (a UCI
    /// engine cannot say: its fallback search answers).
    pub fn wish(&mut self, game: &Game, seat: Seat) -> Option<Role> {
        match &mut self.kind {
            Kind::Search(engine) | Kind::Uci { fallback: engine, .. } => engine.wish(game, seat),
        }
    }
}

fn limits_for(engine: &Engine, budget: Budget) -> Limits {
    match budget {
        Budget::PerMove(time) => Limits { time: Some(time), nodes: None, depth: None },
        Budget::Clock { own, increment, .. } => engine.limits_for(own, increment),
    }
}

/// The least a UCI engine is given for a move from the clock.
const MIN_MOVETIME: Duration = Duration::from_millis(10);

/// The `go` for a budget: a move time as it is, or from the clocks (a fixed `movetime` if one was
/// set, never more than a tenth of the mover's clock).
fn go_for(budget: Budget, movetime: Option<Duration>, turn: chess_core::Color) -> Go {
    match (budget, movetime) {
        (Budget::PerMove(t), _) => Go::MoveTime(t),
        (Budget::Clock { own, .. }, Some(t)) => Go::MoveTime(t.min(own / 10).max(MIN_MOVETIME)),
        (Budget::Clock { own, opponent, increment }, None) => {
            let (white, black) = turn.fold((own, opponent), (opponent, own));
            Go::Clock { white, black, increment }
        }
    }
}

/// An engine's answer as a [`Choice`]: its score in centipawns, a mate in `n` moves as the own
/// search writes mates ([`MATE`] minus the plies).
fn choice(mv: bughouse::BughouseMove, info: Info) -> Choice {
    let score = match info.score {
        Some(Score::Centipawns(cp)) => cp.clamp(-(MATE - 1_001), MATE - 1_001),
        Some(Score::Mate(n)) if n > 0 => MATE - (2 * n - 1).min(999),
        Some(Score::Mate(n)) => -(MATE - (2 * n.abs()).min(999)),
        None => 0,
    };
    let depth = info.depth.map_or(0, |d| u8::try_from(d).unwrap_or(u8::MAX));
    Choice { mv, score, depth, nodes: info.nodes.unwrap_or(0) }
}

#[cfg(test)]
mod tests {
    use chess_core::Color;

    use super::*;

    #[test]
    fn k1_a_clock_budget_gives_the_engine_both_clocks_by_colour_or_the_fixed_move_time() {
        let clock = Budget::Clock {
            own: Duration::from_secs(50),
            opponent: Duration::from_secs(40),
            increment: Duration::from_secs(1),
        };
        assert_eq!(
            go_for(clock, None, Color::Black),
            Go::Clock {
                white: Duration::from_secs(40),
                black: Duration::from_secs(50),
                increment: Duration::from_secs(1)
            }
        );
        assert_eq!(
            go_for(clock, Some(Duration::from_millis(300)), Color::White),
            Go::MoveTime(Duration::from_millis(300))
        );
        // Never more than a tenth of what is left.
        let low = Budget::Clock {
            own: Duration::from_secs(1),
            opponent: Duration::ZERO,
            increment: Duration::ZERO,
        };
        assert_eq!(
            go_for(low, Some(Duration::from_millis(300)), Color::White),
            Go::MoveTime(Duration::from_millis(100))
        );
        assert_eq!(
            go_for(Budget::PerMove(Duration::from_millis(70)), None, Color::White),
            Go::MoveTime(Duration::from_millis(70))
        );
    }

    #[test]
    fn m1_engine_mate_scores_read_as_the_own_search_writes_them() {
        let mv = bughouse::BughouseMove {
            board: BoardId::A,
            mv: chess_core::Move::Drop { role: Role::Pawn, to: "e4".parse().unwrap() },
            removal: None,
        };
        let at = |score| choice(mv, Info { depth: Some(7), score: Some(score), nodes: Some(9) }).score;
        assert_eq!(at(Score::Mate(1)), MATE - 1);
        assert_eq!(at(Score::Mate(-2)), -(MATE - 4));
        assert_eq!(at(Score::Centipawns(-350)), -350);
    }
}
