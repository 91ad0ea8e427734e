//! Why a command was refused.

use thiserror::Error;

use crate::{GameRef, TeamNo};

/// Why a command of [`crate::Tournament`] was refused. A refused command changes nothing.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum TournamentError {
    /// A name (of the tournament, a team, a player, the rules preset or the time control) is
    /// empty, blank, too long or holds control characters.
    #[error("{field} must be 1 to {max} characters, not blank, without control characters: {value:?}")]
    InvalidName {
        /// What the name names.
        field: &'static str,
        /// The rejected name.
        value: String,
        /// The longest allowed name, in characters.
        max: usize,
    },
    /// Both players of a team have the same name.
    #[error("the two players of a team must differ: {0:?} twice")]
    SamePlayerTwice(String),
    /// Another team in the tournament already has this name (compared ignoring case).
    #[error("a team named {0:?} is already registered")]
    DuplicateTeamName(String),
    /// The tournament already has as many teams as it can hold.
    #[error("a tournament holds at most {max} teams")]
    TooManyTeams {
        /// The limit.
        max: usize,
    },
    /// A seeding that is not every registered team exactly once.
    #[error("a seeding lists every registered team exactly once")]
    BadSeeding,
    /// A Swiss tournament needs at least one round.
    #[error("a Swiss tournament needs at least one round")]
    NoSwissRounds,
    /// The command is only allowed before the tournament starts.
    #[error("the tournament has already started")]
    AlreadyStarted,
    /// The command is only allowed once the tournament has started.
    #[error("the tournament has not started")]
    NotStarted,
    /// Too few teams to start, or to pair another round.
    #[error("too few teams: {active} active, at least 2 needed")]
    TooFewTeams {
        /// How many teams are active (registered and not withdrawn).
        active: usize,
    },
    /// No team has this number.
    #[error("unknown team {0}")]
    UnknownTeam(TeamNo),
    /// The team has already withdrawn.
    #[error("team {0} has already withdrawn")]
    AlreadyWithdrawn(TeamNo),
    /// The latest round still has games without a result.
    #[error("round {0} is not complete")]
    RoundIncomplete(u32),
    /// Every round of the tournament has been paired.
    #[error("all {0} rounds have been paired")]
    NoRoundsLeft(u32),
    /// No round has this number.
    #[error("unknown round {0}")]
    UnknownRound(u32),
    /// The round has no table with this number.
    #[error("round {round} has no table {table}")]
    UnknownTable {
        /// The round.
        round: u32,
        /// The table asked for.
        table: u32,
    },
    /// A pairing has games 1 and 2 only.
    #[error("unknown game {0}: a pairing has games 1 and 2")]
    UnknownGame(u32),
    /// The table is a bye: it has no games, so no choices, match or result.
    #[error("table {table} of round {round} is a bye")]
    Bye {
        /// The round.
        round: u32,
        /// The table of the bye.
        table: u32,
    },
    /// The team has no pairing in the round (it has the bye, or is not in the draw).
    #[error("team {team} has no pairing in round {round}")]
    NotPaired {
        /// The round.
        round: u32,
        /// The team.
        team: TeamNo,
    },
    /// The choice belongs to the other team of the pairing in this game (RULES.md S3).
    #[error("team {team} does not choose the {choice} of {game}")]
    NotYourChoice {
        /// The team that tried to choose.
        team: TeamNo,
        /// `"seating"` or `"colours"`.
        choice: &'static str,
        /// The game.
        game: GameRef,
    },
    /// The deadline for the choices of this game has passed.
    #[error("the choices of {game} were due at {due_ms} ms, it is {now_ms} ms")]
    DeadlinePassed {
        /// The game.
        game: GameRef,
        /// The deadline.
        due_ms: u64,
        /// The time the choice arrived.
        now_ms: u64,
    },
    /// The game has started (an online match is linked) or has a result.
    #[error("{0} has already started")]
    GameStarted(GameRef),
    /// This choice was already made for the game; a choice is final.
    #[error("the {choice} of {game} has already been chosen")]
    AlreadyChosen {
        /// `"seating"` or `"colours"`.
        choice: &'static str,
        /// The game.
        game: GameRef,
    },
    /// The seats of the game are not known yet: a choice is missing.
    #[error("the choices of {0} are still pending")]
    ChoicesPending(GameRef),
    /// The game already has a result; only [`crate::Tournament::correct_result`] changes it.
    #[error("{0} already has a result")]
    AlreadyDecided(GameRef),
    /// The game has no result to correct.
    #[error("{0} has no result to correct")]
    NotDecided(GameRef),
    /// The game was played online: its result is its match's and is corrected, not cleared.
    #[error("{0} was played online: correct its result instead")]
    PlayedOnline(GameRef),
    /// Game 2 of the pairing has started: game 1's result stays until game 2's is cleared.
    #[error("game 2 of {0} has started")]
    GameTwoStarted(GameRef),
    /// Registration is closed: only a director registers a team now.
    #[error("registration is closed")]
    RegistrationClosed,
    /// The player plays for a team already, or has an invitation pending.
    #[error("{0} is in a team already or has an invitation pending")]
    AlreadyInTeam(String),
    /// No invitation from this player to this one is pending.
    #[error("no invitation from {from} to {to} is pending")]
    NoInvitation {
        /// Who would have invited.
        from: String,
        /// Who would have been invited.
        to: String,
    },
    /// The tournament does not ask its teams to check in.
    #[error("this tournament does not ask teams to check in")]
    CheckInNotRequired,
    /// Only a Swiss has a number of rounds to change.
    #[error("only a Swiss has a number of rounds to set")]
    NotASwiss,
    /// A pairing by hand names a team that this round does not pair (withdrawn, or not checked
    /// in).
    #[error("team {0} is not in this round's field")]
    NotInField(TeamNo),
    /// A pairing by hand places a team twice (or against itself).
    #[error("team {0} is placed twice")]
    PlacedTwice(TeamNo),
}
