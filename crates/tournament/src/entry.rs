//! How teams come in without a director: a player invites a partner, the partner accepts, and
//! the two are a team; before each round a team checks in when the tournament asks for it (the
//! common practice of club nights: a team that is not at the board when the round is called is
//! not paired). A director may close registration to players, register teams himself, and check
//! a team in.

use serde::{Deserialize, Serialize};

use crate::team::{MAX_NAME, MAX_PLAYER_NAME, check_name, name_key};
use crate::{State, TeamNo, Tournament, TournamentError};

/// A player's invitation to another to form a team, waiting for the answer.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Invitation {
    /// The team's name.
    pub team: String,
    /// Who invites: the team's first player.
    pub from: String,
    /// Who is invited: its second player.
    pub to: String,
    /// When, Unix milliseconds.
    pub at_ms: u64,
}

impl Tournament {
    /// Whether players may still register teams themselves.
    pub fn registration_open(&self) -> bool {
        self.state == State::Registration && !self.registration_closed
    }

    /// Opens or closes registration to players (a director still registers teams).
    ///
    /// # Errors
    /// [`TournamentError::AlreadyStarted`].
    pub fn set_registration_open(&mut self, open: bool) -> Result<(), TournamentError> {
        if self.state != State::Registration {
            return Err(TournamentError::AlreadyStarted);
        }
        self.registration_closed = !open;
        Ok(())
    }

    /// Whether teams check in before each round.
    pub fn asks_check_in(&self) -> bool {
        self.check_in
    }

    /// Asks teams to check in before each round, or stops asking (the check-ins made so far stay
    /// for when it asks again).
    pub fn set_check_in(&mut self, required: bool) {
        self.check_in = required;
    }

    /// The teams checked in for the next round, by number.
    pub fn checked_in(&self) -> impl Iterator<Item = TeamNo> + '_ {
        self.checked_in.iter().copied()
    }

    /// Checks a team in for the next round. Checking in twice is no change.
    ///
    /// # Errors
    /// [`TournamentError::CheckInNotRequired`]; [`TournamentError::UnknownTeam`];
    /// [`TournamentError::AlreadyWithdrawn`]; [`TournamentError::NoRoundsLeft`] when every round
    /// is paired.
    pub fn check_in_team(&mut self, team: TeamNo) -> Result<(), TournamentError> {
        if !self.check_in {
            return Err(TournamentError::CheckInNotRequired);
        }
        let t = self.team(team).ok_or(TournamentError::UnknownTeam(team))?;
        if t.withdrawn {
            return Err(TournamentError::AlreadyWithdrawn(team));
        }
        if let Some(total) = self.total_rounds()
            && self.current_round() >= total
        {
            return Err(TournamentError::NoRoundsLeft(total));
        }
        self.checked_in.insert(team);
        Ok(())
    }

    /// The invitations waiting for an answer, oldest first.
    pub fn invitations(&self) -> &[Invitation] {
        &self.invitations
    }

    /// The team a player plays for (not withdrawn), by name ignoring case.
    pub fn team_of(&self, player: &str) -> Option<TeamNo> {
        let key = name_key(player);
        self.teams.iter().find(|t| !t.withdrawn && t.players.iter().any(|p| name_key(p) == key)).map(|t| t.id)
    }

    /// `from` invites `to` to form the team `team`: the two are a team once `to` accepts
    /// ([`Tournament::accept`]). A player has at most one invitation out or in at a time.
    ///
    /// # Errors
    /// [`TournamentError::AlreadyStarted`]; [`TournamentError::RegistrationClosed`];
    /// [`TournamentError::InvalidName`]; [`TournamentError::SamePlayerTwice`];
    /// [`TournamentError::AlreadyInTeam`] for a player in a team or with an invitation pending;
    /// [`TournamentError::DuplicateTeamName`] (teams and pending invitations);
    /// [`TournamentError::TooManyTeams`] when teams and invitations together fill the tournament.
    pub fn invite(&mut self, from: &str, team: &str, to: &str, now_ms: u64) -> Result<(), TournamentError> {
        if self.state != State::Registration {
            return Err(TournamentError::AlreadyStarted);
        }
        if self.registration_closed {
            return Err(TournamentError::RegistrationClosed);
        }
        check_name("team name", team, MAX_NAME)?;
        check_name("player name", from, MAX_PLAYER_NAME)?;
        check_name("player name", to, MAX_PLAYER_NAME)?;
        if name_key(from) == name_key(to) {
            return Err(TournamentError::SamePlayerTwice(from.to_owned()));
        }
        for player in [from, to] {
            let key = name_key(player);
            let invited = self.invitations.iter().any(|i| name_key(&i.from) == key || name_key(&i.to) == key);
            if invited || self.team_of(player).is_some() {
                return Err(TournamentError::AlreadyInTeam(player.to_owned()));
            }
        }
        let taken = |name: &str| name_key(name) == name_key(team);
        if self.teams.iter().any(|t| !t.withdrawn && taken(&t.name))
            || self.invitations.iter().any(|i| taken(&i.team))
        {
            return Err(TournamentError::DuplicateTeamName(team.to_owned()));
        }
        if self.teams.len() + self.invitations.len() >= crate::MAX_TEAMS {
            return Err(TournamentError::TooManyTeams { max: crate::MAX_TEAMS });
        }
        let invitation =
            Invitation { team: team.to_owned(), from: from.to_owned(), to: to.to_owned(), at_ms: now_ms };
        self.invitations.push(invitation);
        Ok(())
    }

    /// `to` accepts `from`'s invitation: the team is registered, `from` its first player.
    ///
    /// # Errors
    /// [`TournamentError::NoInvitation`]; [`TournamentError::RegistrationClosed`] and the errors
    /// of [`Tournament::register`].
    pub fn accept(&mut self, to: &str, from: &str) -> Result<TeamNo, TournamentError> {
        let i = self.invitation(from, to)?;
        if self.registration_closed {
            return Err(TournamentError::RegistrationClosed);
        }
        let invitation = self.invitations[i].clone();
        // The invitation is out of the way while the team registers, so its name is free.
        self.invitations.remove(i);
        match self.register(&invitation.team, [&invitation.from, &invitation.to]) {
            Ok(team) => Ok(team),
            Err(e) => {
                self.invitations.insert(i, invitation);
                Err(e)
            }
        }
    }

    /// Takes back an invitation: `by` is either the invited player (declining) or the one who
    /// invited (cancelling); `other` is the other one.
    ///
    /// # Errors
    /// [`TournamentError::NoInvitation`].
    pub fn decline(&mut self, by: &str, other: &str) -> Result<(), TournamentError> {
        let i = self.invitation(other, by).or_else(|_| self.invitation(by, other))?;
        self.invitations.remove(i);
        Ok(())
    }

    fn invitation(&self, from: &str, to: &str) -> Result<usize, TournamentError> {
        self.invitations
            .iter()
            .position(|i| name_key(&i.from) == name_key(from) && name_key(&i.to) == name_key(to))
            .ok_or_else(|| TournamentError::NoInvitation { from: from.to_owned(), to: to.to_owned() })
    }
}
