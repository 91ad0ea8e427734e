//! A refused tournament command as the protocol says it: `ErrorCode::Tournament` with a typed
//! reason and its parameters (`TourRefusal`), the rule it rests on, and the English words for
//! logs and old clients only.

use shvedka_proto::{ChoiceKind, ErrorCode, ErrorMsg, TourGame, TourRefusal};
use shvedka_tournament::{GameRef, TournamentError};

/// The protocol's refusal for `e`.
pub(crate) fn refused(e: &TournamentError) -> ErrorMsg {
    let (reason, rule) = refusal(e);
    ErrorMsg { code: ErrorCode::Tournament(reason), rule: rule.map(str::to_owned), message: e.to_string() }
}

/// A refusal with no error of the tournament's own behind it.
pub(crate) fn refusal_of(reason: TourRefusal, message: impl Into<String>) -> ErrorMsg {
    ErrorMsg { code: ErrorCode::Tournament(reason), rule: None, message: message.into() }
}

/// No tournament has id `id`.
pub(crate) fn no_tournament(id: u64) -> ErrorMsg {
    refusal_of(TourRefusal::NoSuchTournament, format!("no tournament {id}"))
}

fn game(g: &GameRef) -> TourGame {
    TourGame { round: g.round, table: g.table, game: g.game }
}

fn choice(c: &str) -> ChoiceKind {
    if c == "seating" { ChoiceKind::Seating } else { ChoiceKind::Colours }
}

fn count(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// The reason and the rule (RULES.md S3 for the choices).
fn refusal(e: &TournamentError) -> (TourRefusal, Option<&'static str>) {
    use TournamentError as E;
    let s3 = Some("S3");
    match e {
        E::InvalidName { max, .. } => (TourRefusal::InvalidName { max: count(*max) }, None),
        E::SamePlayerTwice(_) => (TourRefusal::SamePlayerTwice, None),
        E::DuplicateTeamName(_) => (TourRefusal::DuplicateTeamName, None),
        E::TooManyTeams { max } => (TourRefusal::TooManyTeams { max: count(*max) }, None),
        E::BadSeeding => (TourRefusal::BadSeeding, None),
        E::NoSwissRounds => (TourRefusal::NoSwissRounds, None),
        E::AlreadyStarted => (TourRefusal::AlreadyStarted, None),
        E::NotStarted => (TourRefusal::NotStarted, None),
        E::TooFewTeams { active } => (TourRefusal::TooFewTeams { active: count(*active) }, None),
        E::UnknownTeam(t) => (TourRefusal::UnknownTeam { team: t.0 }, None),
        E::AlreadyWithdrawn(t) => (TourRefusal::AlreadyWithdrawn { team: t.0 }, None),
        E::RoundIncomplete(r) => (TourRefusal::RoundIncomplete { round: *r }, None),
        E::NoRoundsLeft(n) => (TourRefusal::NoRoundsLeft { rounds: *n }, None),
        E::UnknownRound(r) => (TourRefusal::UnknownRound { round: *r }, None),
        E::UnknownTable { round, table } => {
            (TourRefusal::UnknownTable { round: *round, table: *table }, None)
        }
        E::UnknownGame(g) => (TourRefusal::UnknownGame { game: *g }, None),
        E::Bye { round, table } => (TourRefusal::Bye { round: *round, table: *table }, None),
        E::NotPaired { round, team } => (TourRefusal::NotPaired { round: *round, team: team.0 }, s3),
        E::NotYourChoice { choice: c, game: g, .. } => {
            (TourRefusal::NotYourChoice { game: game(g), choice: choice(c) }, s3)
        }
        E::DeadlinePassed { game: g, due_ms, .. } => {
            (TourRefusal::DeadlinePassed { game: game(g), due_ms: *due_ms }, s3)
        }
        E::GameStarted(g) => (TourRefusal::GameStarted { game: game(g) }, s3),
        E::AlreadyChosen { choice: c, game: g } => {
            (TourRefusal::AlreadyChosen { game: game(g), choice: choice(c) }, s3)
        }
        E::ChoicesPending(g) => (TourRefusal::ChoicesPending { game: game(g) }, s3),
        E::AlreadyDecided(g) => (TourRefusal::AlreadyDecided { game: game(g) }, None),
        E::NotDecided(g) => (TourRefusal::NotDecided { game: game(g) }, None),
        E::RegistrationClosed => (TourRefusal::RegistrationClosed, None),
        E::AlreadyInTeam(_) => (TourRefusal::AlreadyInTeam, None),
        E::NoInvitation { .. } => (TourRefusal::NoInvitation, None),
        E::CheckInNotRequired => (TourRefusal::CheckInNotRequired, None),
        E::NotASwiss => (TourRefusal::NotASwiss, None),
        E::NotInField(t) => (TourRefusal::NotInField { team: t.0 }, None),
        E::PlacedTwice(t) => (TourRefusal::PlacedTwice { team: t.0 }, None),
        E::PlayedOnline(g) => (TourRefusal::PlayedOnline { game: game(g) }, None),
        E::GameTwoStarted(g) => (TourRefusal::GameTwoStarted { game: game(g) }, None),
    }
}
