//! A table for driving a match on virtual time: four players seated in the order of
//! `Seat::ALL`, each move given as text.
#![allow(dead_code)]

use std::time::Duration;

use bughouse::{Adjudication, BoardId, FlagMode, MatchResult, Reason, RuleOptions, Seat, Team};
use bughouse_match::{
    ArbiterAct, Claim, Command, EventKind, LagSettings, Match, MatchConfig, Official, PlayerId, Rejection,
    TimeControl,
};
use chess_core::Color;

pub(crate) const WA: Seat = Seat { board: BoardId::A, color: Color::White };
pub(crate) const BA: Seat = Seat { board: BoardId::A, color: Color::Black };
pub(crate) const WB: Seat = Seat { board: BoardId::B, color: Color::White };
pub(crate) const BB: Seat = Seat { board: BoardId::B, color: Color::Black };

pub(crate) fn ms(n: u64) -> Duration {
    Duration::from_millis(n)
}

pub(crate) fn secs(n: u64) -> Duration {
    Duration::from_secs(n)
}

/// The player sitting at a seat on a [`Table`].
/// The arbiter of the tests: an account holding the role.
pub(crate) fn arbiter() -> Official {
    Official::Account("arbiter".into())
}

pub(crate) fn player(seat: Seat) -> PlayerId {
    PlayerId(seat.index() as u64 + 1)
}

pub(crate) fn config(preset: &str, tc: &str) -> MatchConfig {
    let mut c = MatchConfig::new(RuleOptions::preset(preset).unwrap(), tc.parse::<TimeControl>().unwrap());
    c.countdown = Duration::ZERO;
    c
}

pub(crate) fn claim_mode(mut c: MatchConfig) -> MatchConfig {
    c.rules.flag = FlagMode::Claim;
    c
}

pub(crate) fn no_lag(mut c: MatchConfig) -> MatchConfig {
    c.lag = LagSettings::NONE;
    c
}

pub(crate) fn with_start(mut c: MatchConfig, a: &str, b: &str) -> MatchConfig {
    c.start = Some(format!("{a} | {b}"));
    c
}

pub(crate) const STANDARD: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1";

/// A match with its four players seated and ready at time zero, so its clocks started then.
pub(crate) struct Table {
    pub(crate) m: Match,
}

impl Table {
    pub(crate) fn new(config: MatchConfig) -> Table {
        Table::new_with(config, |_| {})
    }

    /// Seats everyone, lets `before_start` act (say an arbiter), then makes all ready at zero.
    pub(crate) fn new_with(config: MatchConfig, before_start: impl FnOnce(&mut Match)) -> Table {
        let mut m = Match::new(config).unwrap();
        for seat in Seat::ALL {
            m.handle_command(Duration::ZERO, player(seat), Command::TakeSeat(seat)).unwrap();
        }
        before_start(&mut m);
        for seat in Seat::ALL {
            m.handle_command(Duration::ZERO, player(seat), Command::Ready(true)).unwrap();
        }
        Table { m }
    }

    /// A table where board B's players have time to spare, so only board A's clocks matter.
    pub(crate) fn board_a_only(config: MatchConfig) -> Table {
        Table::new_with(config, |m| {
            for seat in [WB, BB] {
                m.handle_arbiter(
                    Duration::ZERO,
                    arbiter(),
                    ArbiterAct::AdjustClock { seat, delta_ms: 1_000_000 },
                )
                .unwrap();
            }
        })
    }

    pub(crate) fn cmd(&mut self, at: Duration, seat: Seat, command: Command) -> Result<(), Rejection> {
        self.m.handle_command(at, player(seat), command)
    }

    /// Plays `text` for `seat` at `at`, the client reporting `client` thinking time.
    pub(crate) fn try_play(
        &mut self,
        at: Duration,
        seat: Seat,
        text: &str,
        client: Option<Duration>,
    ) -> Result<(), Rejection> {
        let mv = self.m.game().parse_move(seat.board, text).unwrap_or_else(|e| panic!("{text}: {e}"));
        self.cmd(at, seat, Command::Move { mv, client_time: client })
    }

    pub(crate) fn play(&mut self, at: Duration, seat: Seat, text: &str) {
        self.try_play(at, seat, text, None).unwrap_or_else(|e| panic!("{text} by {seat} at {at:?}: {e}"));
    }

    pub(crate) fn arbiter(&mut self, at: Duration, act: ArbiterAct) -> Result<(), Rejection> {
        self.m.handle_arbiter(at, arbiter(), act)
    }

    pub(crate) fn claim(&mut self, at: Duration, seat: Seat, claim: Claim) -> Result<(), Rejection> {
        self.cmd(at, seat, Command::Claim(claim))
    }

    pub(crate) fn clock(&self, at: Duration, seat: Seat) -> Duration {
        self.m.clocks(at)[seat.index()]
    }

    /// Lets time run to `at`, as the driver would at each `poll_timeout`.
    pub(crate) fn wait(&mut self, at: Duration) {
        while let Some(t) = self.m.poll_timeout().filter(|&t| t <= at) {
            self.m.handle_timeout(t);
        }
        self.m.handle_timeout(at);
    }

    pub(crate) fn result(&self) -> Option<Adjudication> {
        self.m.result()
    }

    /// The log's kinds after the start, for asserting sequences.
    pub(crate) fn kinds(&self) -> Vec<EventKind> {
        let start = self.m.events().iter().position(|e| e.kind == EventKind::Started).unwrap();
        self.m.events()[start + 1..].iter().map(|e| e.kind.clone()).collect()
    }

    /// When the first event of a kind matching `f` happened.
    pub(crate) fn when(&self, f: impl Fn(&EventKind) -> bool) -> Option<Duration> {
        self.m.events().iter().find(|e| f(&e.kind)).map(|e| e.at)
    }
}

pub(crate) fn win(team: Team, reason: Reason) -> Option<Adjudication> {
    Some(Adjudication { result: MatchResult::Win(team), reason })
}

pub(crate) fn draw(reason: Reason) -> Option<Adjudication> {
    Some(Adjudication { result: MatchResult::Draw, reason })
}
