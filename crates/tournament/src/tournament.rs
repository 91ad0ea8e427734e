//! The tournament: its model, registration, the start and the pairing of rounds.

use serde::{Deserialize, Serialize};

use crate::berger::berger_round;
use crate::history::History;
use crate::swiss::pair_swiss;
use crate::team::{MAX_NAME, MAX_PLAYER_NAME, check_name, name_key};
use crate::{
    Fixture, Game, GameResult, Outcome, Pairing, ResultSource, Round, Team, TeamNo, TournamentError,
};

/// The most teams a tournament holds: far more than a bughouse night sees, and a bound on the
/// work of a Swiss pairing.
pub const MAX_TEAMS: usize = 256;

/// How the rounds are paired.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Format {
    /// Every team meets every other once (Berger tables): `n − 1` rounds for an even number of
    /// teams, `n` for an odd one, with one team having the bye each round.
    RoundRobin,
    /// A fixed number of rounds paired by score (see the crate docs).
    Swiss {
        /// The number of rounds, at least 1.
        rounds: u32,
    },
}

/// Where the tournament stands.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum State {
    /// Teams are registering; nothing is paired.
    Registration,
    /// Started: the draw is fixed.
    Started {
        /// How many rounds the tournament has.
        total_rounds: u32,
        /// The teams in the draw, in team-number order (the Berger seeds of a round robin): those
        /// registered and not withdrawn at the start.
        draw: Vec<TeamNo>,
    },
}

/// A team tournament of Swedish chess: teams, rounds of two-game pairings, results.
///
/// Every command returns `Result`; a refused command changes nothing. Time is passed in as
/// match-time milliseconds (`now_ms`), never read. The whole value round-trips through serde.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tournament {
    pub(crate) name: String,
    pub(crate) rules: String,
    pub(crate) time_control: String,
    pub(crate) format: Format,
    pub(crate) teams: Vec<Team>,
    pub(crate) rounds: Vec<Round>,
    pub(crate) state: State,
    /// The directors' acts, oldest first (absent in a state stored before they were kept).
    #[serde(default)]
    pub(crate) acts: Vec<crate::DirectorAct>,
    /// The seeding order set before the start (by rating, say): the draw follows it, and a
    /// Swiss breaks ties of equal standing by it. `None`: team-number order.
    #[serde(default)]
    pub(crate) seeds: Option<Vec<TeamNo>>,
    /// Players may no longer register teams themselves (a director still may); before the start.
    #[serde(default)]
    pub(crate) registration_closed: bool,
    /// Teams check in before each round, and only the teams checked in are paired.
    #[serde(default)]
    pub(crate) check_in: bool,
    /// The teams checked in for the next round (emptied when it is paired).
    #[serde(default)]
    pub(crate) checked_in: std::collections::BTreeSet<TeamNo>,
    /// The invitations to form a team that wait for the partner's answer, oldest first.
    #[serde(default)]
    pub(crate) invitations: Vec<crate::Invitation>,
    /// Every game starts from a Chess960 position (RULES.md section 9), drawn for its match.
    #[serde(default)]
    pub(crate) chess960: bool,
}

impl Tournament {
    /// A tournament open for registration.
    ///
    /// # Errors
    /// [`TournamentError::InvalidName`] for a name, rules preset or time control that is empty,
    /// blank, longer than 64 characters or holds control characters;
    /// [`TournamentError::NoSwissRounds`] for a Swiss of zero rounds.
    pub fn new(
        name: &str,
        rules: &str,
        time_control: &str,
        format: Format,
    ) -> Result<Tournament, TournamentError> {
        check_name("tournament name", name, MAX_NAME)?;
        check_name("rules preset", rules, MAX_NAME)?;
        check_name("time control", time_control, MAX_NAME)?;
        if format == (Format::Swiss { rounds: 0 }) {
            return Err(TournamentError::NoSwissRounds);
        }
        Ok(Tournament {
            name: name.to_owned(),
            rules: rules.to_owned(),
            time_control: time_control.to_owned(),
            format,
            teams: Vec::new(),
            rounds: Vec::new(),
            state: State::Registration,
            acts: Vec::new(),
            seeds: None,
            registration_closed: false,
            check_in: false,
            checked_in: std::collections::BTreeSet::new(),
            invitations: Vec::new(),
            chess960: false,
        })
    }

    /// Registers a team and returns its number.
    ///
    /// # Errors
    /// [`TournamentError::AlreadyStarted`]; [`TournamentError::InvalidName`] for a team name of
    /// more than 64 or a player name of more than 32 characters (or empty, blank, with control
    /// characters); [`TournamentError::SamePlayerTwice`]; [`TournamentError::DuplicateTeamName`]
    /// if a team not withdrawn has the name (ignoring case and outer spaces);
    /// [`TournamentError::TooManyTeams`].
    pub fn register(&mut self, name: &str, players: [&str; 2]) -> Result<TeamNo, TournamentError> {
        if self.state != State::Registration {
            return Err(TournamentError::AlreadyStarted);
        }
        check_name("team name", name, MAX_NAME)?;
        for player in players {
            check_name("player name", player, MAX_PLAYER_NAME)?;
        }
        if name_key(players[0]) == name_key(players[1]) {
            return Err(TournamentError::SamePlayerTwice(players[0].to_owned()));
        }
        if let Some(player) = players.iter().find(|p| self.team_of(p).is_some()) {
            return Err(TournamentError::AlreadyInTeam((*player).to_owned()));
        }
        if self.teams.iter().any(|t| !t.withdrawn && name_key(&t.name) == name_key(name)) {
            return Err(TournamentError::DuplicateTeamName(name.to_owned()));
        }
        if self.teams.len() >= MAX_TEAMS {
            return Err(TournamentError::TooManyTeams { max: MAX_TEAMS });
        }
        let id = TeamNo(u32::try_from(self.teams.len() + 1).unwrap_or(u32::MAX));
        let players = players.map(str::to_owned);
        // An invitation either player had out or in is moot now.
        let keys = players.each_ref().map(|p| name_key(p));
        self.invitations.retain(|i| !keys.contains(&name_key(&i.from)) && !keys.contains(&name_key(&i.to)));
        self.teams.push(Team { id, name: name.to_owned(), players, withdrawn: false });
        Ok(id)
    }

    /// Withdraws a team. Before the start it simply leaves the draw. After the start it is not
    /// paired in later rounds, and each of its games without a result is forfeited: recorded as
    /// a win for the opponent with [`ResultSource::Forfeit`] (1 point to the opponent, 0 to the
    /// withdrawn team — the same as a game lost). Results already recorded stand. A team whose
    /// round-robin opponent has withdrawn gets a bye in that round instead.
    ///
    /// # Errors
    /// [`TournamentError::UnknownTeam`], [`TournamentError::AlreadyWithdrawn`].
    pub fn withdraw(&mut self, team: TeamNo) -> Result<(), TournamentError> {
        let name = {
            let t = self.team(team).ok_or(TournamentError::UnknownTeam(team))?;
            if t.withdrawn {
                return Err(TournamentError::AlreadyWithdrawn(team));
            }
            t.name.clone()
        };
        for round in &mut self.rounds {
            for fixture in &mut round.fixtures {
                let Fixture::Pairing(p) = fixture else { continue };
                let outcome = match team {
                    t if t == p.first => Outcome::SecondWins,
                    t if t == p.second => Outcome::FirstWins,
                    _ => continue,
                };
                for game in p.games.iter_mut().filter(|g| g.result.is_none()) {
                    let reason = format!("forfeit: {name} withdrew");
                    game.result = Some(GameResult::new(outcome, ResultSource::Forfeit, reason));
                }
            }
        }
        if let Some(t) = self.teams.iter_mut().find(|t| t.id == team) {
            t.withdrawn = true;
        }
        Ok(())
    }

    /// Seeds the teams in `order` (every registered team once, the strongest first): the draw
    /// follows it, so a round robin's Berger numbers and a Swiss's first round (top half against
    /// bottom half) are by seed, and a Swiss ranks teams of equal standing by it.
    ///
    /// # Errors
    /// [`TournamentError::AlreadyStarted`]; [`TournamentError::BadSeeding`] unless `order` holds
    /// every registered team exactly once.
    pub fn seed(&mut self, order: &[TeamNo]) -> Result<(), TournamentError> {
        if self.state != State::Registration {
            return Err(TournamentError::AlreadyStarted);
        }
        let mut sorted = order.to_vec();
        sorted.sort_unstable();
        let teams: Vec<TeamNo> = self.teams.iter().map(|t| t.id).collect();
        if sorted != teams {
            return Err(TournamentError::BadSeeding);
        }
        self.seeds = Some(order.to_vec());
        Ok(())
    }

    /// The seeding order, if the teams were seeded.
    pub fn seeds(&self) -> Option<&[TeamNo]> {
        self.seeds.as_deref()
    }

    /// Starts the tournament: fixes the draw (the teams not withdrawn) and the number of rounds.
    ///
    /// # Errors
    /// [`TournamentError::AlreadyStarted`]; [`TournamentError::TooFewTeams`] with fewer than 2.
    pub fn start(&mut self) -> Result<(), TournamentError> {
        if self.state != State::Registration {
            return Err(TournamentError::AlreadyStarted);
        }
        let mut draw: Vec<TeamNo> = self.teams.iter().filter(|t| !t.withdrawn).map(|t| t.id).collect();
        if let Some(seeds) = &self.seeds {
            draw.sort_by_key(|t| seeds.iter().position(|s| s == t).unwrap_or(usize::MAX));
        }
        if draw.len() < 2 {
            return Err(TournamentError::TooFewTeams { active: draw.len() });
        }
        let total_rounds = match self.format {
            Format::RoundRobin => u32::try_from(draw.len() - 1 + draw.len() % 2).unwrap_or(u32::MAX),
            Format::Swiss { rounds } => rounds,
        };
        self.state = State::Started { total_rounds, draw };
        // Invitations nobody answered lapse with registration.
        self.invitations.clear();
        Ok(())
    }

    /// Pairs the next round and returns its number. Every game's choices are due at
    /// `now_ms + choice_window_ms` (see [`Tournament::set_choices_due`] to move one). When the
    /// tournament asks for check-in, only the teams checked in are paired; the others are the
    /// round's [`Round::absent`] and score nothing (in a round robin their scheduled opponents
    /// get the bye, as against a withdrawn team). The check-ins then start again for the next
    /// round.
    ///
    /// # Errors
    /// [`TournamentError::NotStarted`]; [`TournamentError::RoundIncomplete`] while the latest
    /// round has a game without a result; [`TournamentError::NoRoundsLeft`];
    /// [`TournamentError::TooFewTeams`] when withdrawals (or missing check-ins) left fewer than
    /// two teams to pair.
    pub fn pair_next_round(&mut self, now_ms: u64, choice_window_ms: u64) -> Result<u32, TournamentError> {
        let (number, field) = self.next_field()?;
        let history = History::of(&self.rounds);
        let due = now_ms.saturating_add(choice_window_ms);
        let mut fixtures = Vec::new();
        let mut byes = Vec::new();
        let mut note = None;
        match (&self.state, self.format) {
            (State::Started { draw, .. }, Format::RoundRobin) => {
                for (a, b) in berger_round(draw.len(), number) {
                    let seat = |i: usize| draw.get(i).copied().filter(|t| field.contains(t));
                    match (seat(a), seat(b)) {
                        (Some(a), Some(b)) => fixtures.push(new_pairing(&history, (a, b), false, due)),
                        (Some(t), None) | (None, Some(t)) => byes.push(Fixture::Bye(t)),
                        (None, None) => {}
                    }
                }
            }
            (State::Started { draw, .. }, Format::Swiss { .. }) => {
                let standings = self.standings();
                // Teams of equal standing (one rank) in the order of the draw: by seed.
                let seed = |t: TeamNo| draw.iter().position(|d| *d == t).unwrap_or(usize::MAX);
                let mut rows: Vec<_> = standings.rows.iter().filter(|r| field.contains(&r.team)).collect();
                rows.sort_by_key(|r| (r.rank, seed(r.team)));
                let ranked: Vec<_> = rows.iter().map(|r| (r.team, r.points)).collect();
                let swiss = pair_swiss(&ranked, &history, number - 1);
                for (a, b) in swiss.pairs {
                    fixtures.push(new_pairing(&history, (a, b), history.met(a, b).is_some(), due));
                }
                byes.extend(swiss.bye.map(Fixture::Bye));
                note = swiss.repeats_upto.map(|upto| match upto {
                    u32::MAX => "no pairing without a repeated meeting was found: repeats allowed".to_owned(),
                    r => format!(
                        "no pairing without a repeated meeting was found: meetings of round {r} or earlier \
                         allowed to repeat"
                    ),
                });
            }
            (State::Registration, _) => return Err(TournamentError::NotStarted),
        }
        fixtures.extend(byes);
        let absent = self.active_teams().into_iter().filter(|t| !field.contains(t)).collect();
        self.rounds.push(Round { number, fixtures, note, absent, by_hand: None, choice_window_ms });
        self.checked_in.clear();
        Ok(number)
    }

    /// The number of the next round and the teams it pairs: the active teams, and of those only
    /// the ones checked in when the tournament asks for check-in.
    ///
    /// # Errors
    /// As [`Tournament::pair_next_round`].
    pub(crate) fn next_field(&self) -> Result<(u32, Vec<TeamNo>), TournamentError> {
        let State::Started { total_rounds, .. } = &self.state else {
            return Err(TournamentError::NotStarted);
        };
        let latest = self.current_round();
        if !self.rounds.last().is_none_or(Round::is_complete) {
            return Err(TournamentError::RoundIncomplete(latest));
        }
        if latest >= *total_rounds {
            return Err(TournamentError::NoRoundsLeft(*total_rounds));
        }
        let mut field = self.active_teams();
        if self.check_in {
            field.retain(|t| self.checked_in.contains(t));
        }
        if field.len() < 2 {
            return Err(TournamentError::TooFewTeams { active: field.len() });
        }
        Ok((latest + 1, field))
    }

    /// The tournament's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Whether every game starts from a Chess960 position.
    pub fn chess960(&self) -> bool {
        self.chess960
    }

    /// Makes every game start from a Chess960 position (drawn for each match), or not; before the
    /// start.
    ///
    /// # Errors
    /// [`TournamentError::AlreadyStarted`].
    pub fn set_chess960(&mut self, chess960: bool) -> Result<(), TournamentError> {
        if self.state != State::Registration {
            return Err(TournamentError::AlreadyStarted);
        }
        self.chess960 = chess960;
        Ok(())
    }

    /// The rules preset name (e.g. `mgimo-2017`).
    pub fn rules(&self) -> &str {
        &self.rules
    }

    /// The time control, as text.
    pub fn time_control(&self) -> &str {
        &self.time_control
    }

    /// How rounds are paired.
    pub fn format(&self) -> Format {
        self.format
    }

    /// Registration or started.
    pub fn state(&self) -> &State {
        &self.state
    }

    /// Every team ever registered, withdrawn ones included, in number order.
    pub fn teams(&self) -> &[Team] {
        &self.teams
    }

    /// A team by number.
    pub fn team(&self, team: TeamNo) -> Option<&Team> {
        self.teams.iter().find(|t| t.id == team)
    }

    /// The name of a player, if the team and index exist.
    pub fn player_name(&self, player: crate::PlayerRef) -> Option<&str> {
        self.team(player.team)?.players.get(player.index).map(String::as_str)
    }

    /// The teams of the standings: the draw once started, before that the teams registered and
    /// not withdrawn.
    pub fn entrants(&self) -> Vec<TeamNo> {
        match &self.state {
            State::Registration => self.teams.iter().filter(|t| !t.withdrawn).map(|t| t.id).collect(),
            State::Started { draw, .. } => draw.clone(),
        }
    }

    /// The entrants that have not withdrawn: the teams a new round pairs.
    pub fn active_teams(&self) -> Vec<TeamNo> {
        self.entrants().into_iter().filter(|&t| self.team(t).is_some_and(|t| !t.withdrawn)).collect()
    }

    /// The most rounds the entrants can play without two teams meeting twice: `n − 1` for an
    /// even number of teams, `n` for an odd one (one team has the bye each round); 0 with fewer
    /// than two. A Swiss of more rounds will repeat meetings (each such round says so): the
    /// director is told before he starts.
    pub fn most_rounds_without_repeat(&self) -> u32 {
        let n = u32::try_from(self.entrants().len()).unwrap_or(u32::MAX);
        match n {
            0 | 1 => 0,
            n if n % 2 == 0 => n - 1,
            n => n,
        }
    }

    /// Sets the number of rounds of a Swiss before the start.
    ///
    /// # Errors
    /// [`TournamentError::AlreadyStarted`]; [`TournamentError::NotASwiss`];
    /// [`TournamentError::NoSwissRounds`] for 0.
    pub fn set_swiss_rounds(&mut self, rounds: u32) -> Result<(), TournamentError> {
        if self.state != State::Registration {
            return Err(TournamentError::AlreadyStarted);
        }
        if self.format == Format::RoundRobin {
            return Err(TournamentError::NotASwiss);
        }
        if rounds == 0 {
            return Err(TournamentError::NoSwissRounds);
        }
        self.format = Format::Swiss { rounds };
        Ok(())
    }

    /// The rounds paired so far.
    pub fn rounds(&self) -> &[Round] {
        &self.rounds
    }

    /// A round by number (from 1).
    pub fn round(&self, round: u32) -> Option<&Round> {
        self.rounds.get(usize::try_from(round).ok()?.checked_sub(1)?)
    }

    /// The number of rounds paired so far (0 before the first).
    pub fn current_round(&self) -> u32 {
        u32::try_from(self.rounds.len()).unwrap_or(u32::MAX)
    }

    /// The number of rounds, once started.
    pub fn total_rounds(&self) -> Option<u32> {
        match self.state {
            State::Registration => None,
            State::Started { total_rounds, .. } => Some(total_rounds),
        }
    }

    /// Whether every game of a round has a result (`false` for an unknown round).
    pub fn is_round_complete(&self, round: u32) -> bool {
        self.round(round).is_some_and(Round::is_complete)
    }

    /// Whether the tournament is over: started, the latest round complete, and either every round
    /// paired or fewer than two active teams left to pair.
    pub fn is_finished(&self) -> bool {
        let Some(total) = self.total_rounds() else { return false };
        self.rounds.last().is_none_or(Round::is_complete)
            && (self.current_round() >= total || self.active_teams().len() < 2)
    }

    pub(crate) fn round_mut(&mut self, round: u32) -> Option<&mut Round> {
        self.rounds.get_mut(usize::try_from(round).ok()?.checked_sub(1)?)
    }
}

/// A pairing of two teams for a new round, named in the order the history gives (who was named
/// first fewer times goes first).
pub(crate) fn new_pairing(history: &History, (a, b): (TeamNo, TeamNo), repeat: bool, due: u64) -> Fixture {
    let (first, second) = history.order(a, b);
    Fixture::Pairing(Box::new(Pairing { first, second, games: [Game::new(due), Game::new(due)], repeat }))
}
