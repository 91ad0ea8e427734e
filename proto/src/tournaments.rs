//! Tournaments as data (version 7; entry, check-in and pairing by hand in version 8): the list, and one tournament — its teams, the standings with
//! every tie-break, and its rounds: pairings, both games of each pairing with their S3 choices,
//! seats, deadlines and results. A client renders these; it never reads an export's text to learn
//! a tournament's state. The crosstable is the rounds' results arranged (each game's result names
//! both teams), so it travels as the rounds. Points are counted in quarter points (a game is 4, a
//! draw 2 each, a bye 8; Sonneborn–Berger needs the quarters), so no client rounds a score.
//!
//! A view fits one frame: it carries the latest round only (the others are asked for one by one,
//! `ClientMsg::TournamentRound`), and a tournament the server carries has at most
//! [`TOURNAMENT_TEAMS`] teams.

/// The most teams a tournament has on a server that carries it as data: its view (teams,
/// standings, a round of 32 pairings with names of the longest) stays within one frame.
pub const TOURNAMENT_TEAMS: usize = 64;

use serde::{Deserialize, Serialize};

use crate::{MatchId, TdChoice, TdOutcome};

/// Where a tournament is in its life.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum TournamentPhase {
    /// Teams register; nothing is paired yet.
    Registering,
    /// Started: rounds are paired and played.
    Running,
    /// Every round is played.
    Finished,
}

/// How a tournament pairs its teams.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum TournamentFormat {
    /// Every team meets every other (FIDE Berger tables).
    RoundRobin,
    /// A Swiss of this many rounds.
    Swiss {
        /// Its rounds.
        rounds: u32,
    },
}

/// One tournament in the list (`Reply::TournamentPage`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TournamentSummary {
    /// Its id.
    pub id: u64,
    /// Its name.
    pub name: String,
    /// Where it is in its life.
    pub phase: TournamentPhase,
    /// How it pairs.
    pub format: TournamentFormat,
    /// The rule preset of its games.
    pub rules: String,
    /// The time control of its games.
    pub time_control: String,
    /// Played online (the server makes the matches) or over the board.
    pub online: bool,
    /// Every game starts from a Chess960 position (version 8).
    pub chess960: bool,
    /// Teams registered (withdrawn ones too).
    pub teams: u32,
    /// Rounds paired so far.
    pub rounds_paired: u32,
}

/// A tournament: what a tournament page, a director's desk and a projector show.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TournamentView {
    /// What the list says of it (`rounds_paired` counts the rounds; ask for any of them).
    pub summary: TournamentSummary,
    /// The teams, by number.
    pub teams: Vec<TeamView>,
    /// The latest round paired, if any.
    pub round: Option<RoundView>,
    /// The standings now, best first.
    pub standings: Vec<StandingView>,
    /// Players may register teams themselves now (version 8).
    pub registration_open: bool,
    /// Teams check in before each round; only those checked in are paired.
    pub check_in: bool,
    /// The teams checked in for the next round.
    pub checked_in: Vec<u32>,
    /// The invitations waiting for the partner's answer.
    pub invitations: Vec<InvitationView>,
    /// The most rounds the teams can play without two meeting twice (a Swiss of more repeats
    /// meetings): what a director is told before he starts.
    pub most_rounds: u32,
    /// The server's clock when the view was made, Unix milliseconds: a client counts a deadline
    /// (`choices_due_ms`) down against it, not against its own clock, which may be off.
    pub now_ms: u64,
}

/// A player's invitation to another to form a team (version 8).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct InvitationView {
    /// The team's name.
    pub team: String,
    /// Who invites (the team's first player).
    pub from: String,
    /// Who is invited.
    pub to: String,
}

/// A team of two.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TeamView {
    /// Its number, from 1.
    pub team: u32,
    /// Its name.
    pub name: String,
    /// Its two players' account names, first player first.
    pub players: [String; 2],
    /// Whether it has withdrawn.
    pub withdrawn: bool,
}

/// One round.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RoundView {
    /// Its number, from 1.
    pub round: u32,
    /// Its tables: pairings first (the strongest at table 1), byes last.
    pub tables: Vec<TableView>,
    /// The Swiss could not avoid repeating an earlier meeting this round (the repeated pairings
    /// say so).
    pub repeats_allowed: bool,
    /// The active teams the round does not pair (not checked in, or left out by the director's
    /// pairing by hand): they score nothing this round (version 8).
    pub absent: Vec<u32>,
    /// The director who paired the round by hand, overruling the computer.
    pub by_hand: Option<OfficialView>,
}

/// An official who acted (a director or an arbiter), version 9: his account, or whoever holds
/// the server's shared secret for the role, who has no name.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum OfficialView {
    /// The account's name.
    Account(String),
    /// The server's secret.
    Secret,
    /// The server itself (its own pauses and restarts).
    Server,
}

/// A table of a round.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum TableView {
    /// Two teams meet: two games.
    Pairing(PairingView),
    /// The team sits out and scores the bye (8 quarter points).
    Bye {
        /// The table, from 1.
        table: u32,
        /// The team.
        team: u32,
    },
}

/// Two teams meeting: two games (RULES.md S3).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PairingView {
    /// The table, from 1.
    pub table: u32,
    /// The team named first: it chooses the seating of game 1 and the colours of game 2.
    pub first: u32,
    /// The team named second.
    pub second: u32,
    /// The two teams met before (a Swiss that allowed repeats).
    pub repeat: bool,
    /// Game 1 and game 2.
    pub games: Vec<GameView>,
}

/// One game of a pairing: the S3 choices, the seats they give, the match and the result.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameView {
    /// 1 or 2.
    pub game: u32,
    /// The team that chooses the seating (`Straight` or `Crossed`).
    pub seating_team: u32,
    /// The team that chooses the colours (`WhiteOnA` or `WhiteOnB`).
    pub colour_team: u32,
    /// The seating, once chosen or defaulted.
    pub seating: Option<TdChoice>,
    /// The colours, once chosen or defaulted.
    pub colours: Option<TdChoice>,
    /// Whether the seating is the default, its team not having chosen in time (version 16).
    pub seating_by_default: bool,
    /// Whether the colours are the default, its team not having chosen in time (version 16).
    pub colours_by_default: bool,
    /// The four players' account names in seat order (White-A, Black-A, White-B, Black-B), once
    /// both choices are known.
    pub seats: Option<[String; 4]>,
    /// When the choices are due, Unix milliseconds: a choice is taken before it, the defaults
    /// (`Straight`, `WhiteOnA`) after it.
    pub choices_due_ms: u64,
    /// The online match of the game, once it exists.
    pub match_id: Option<MatchId>,
    /// The result, once known.
    pub result: Option<TourResultView>,
}

/// A game's result in a tournament.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TourResultView {
    /// Who won, seen from the pairing.
    pub outcome: TdOutcome,
    /// Where it came from.
    pub source: TourResultSource,
    /// The director who entered or corrected it; `None` when the server recorded it.
    pub director: Option<OfficialView>,
    /// The director's own words for an entered result (his text, shown as he wrote it); empty
    /// for a result the server recorded (the match says how it ended).
    pub note: String,
}

/// Where a tournament game's result came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum TourResultSource {
    /// Played over the board, entered by the director.
    OverTheBoard,
    /// Played online; the server recorded the match's result.
    Online,
    /// Played online, entered or corrected by the director (version 15); the match ended, or
    /// was corrected, with the same result.
    Director,
    /// Not played: a team withdrew. Scores as a game won for the team present, not counted as
    /// a game won in the tie-breaks.
    Forfeit,
}

/// One team's line of the standings. Every score is in quarter points.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StandingView {
    /// Its rank, from 1; teams equal on points and every tie-break share one.
    pub rank: u32,
    /// The team.
    pub team: u32,
    /// Whether it has withdrawn.
    pub withdrawn: bool,
    /// Game points.
    pub points: u32,
    /// Points among exactly the teams tied on points, when they have all met (else 0).
    pub direct: u32,
    /// Buchholz: the opponents' points, one term per pairing.
    pub buchholz: u32,
    /// Sonneborn–Berger.
    pub sonneborn_berger: u32,
    /// Games won at the board or online (not forfeits, not byes).
    pub wins: u32,
}

/// What changed in a followed tournament (`ServerMsg::Tournament`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum TourChange {
    /// Nothing: the state as it stands, sent when the session starts following.
    Followed,
    /// A team registered.
    Registered {
        /// The team.
        team: u32,
    },
    /// A team withdrew.
    Withdrew {
        /// The team.
        team: u32,
    },
    /// The teams were seeded by rating.
    Seeded,
    /// Registration closed and the tournament started.
    Started,
    /// A round was paired.
    Paired {
        /// The round.
        round: u32,
    },
    /// A team made an S3 choice.
    Chose {
        /// The round.
        round: u32,
        /// The table.
        table: u32,
        /// The game, 1 or 2.
        game: u32,
    },
    /// Choices left open at their deadline took the defaults.
    Defaulted,
    /// A game's match was created: the game starts.
    GameStarted {
        /// Its match.
        match_id: MatchId,
    },
    /// A result was recorded (online, over the board, or a forfeit).
    Result {
        /// The round.
        round: u32,
        /// The table.
        table: u32,
        /// The game, 1 or 2.
        game: u32,
    },
    /// A director corrected a result.
    Corrected {
        /// The round.
        round: u32,
        /// The table.
        table: u32,
        /// The game, 1 or 2.
        game: u32,
    },
    /// A player invited another to form a team (version 8).
    Invited,
    /// An invitation was declined or taken back.
    InvitationEnded,
    /// Registration opened or closed to players.
    Registration {
        /// Open now.
        open: bool,
    },
    /// A team checked in for the next round.
    CheckedIn {
        /// The team.
        team: u32,
    },
    /// The director changed the settings (a Swiss's rounds, check-in).
    Settings,
}

/// A game of a tournament: round, table and game (1 or 2), all from 1 as printed on the sheets.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct TourGame {
    /// The round.
    pub round: u32,
    /// The table.
    pub table: u32,
    /// The game, 1 or 2.
    pub game: u32,
}

/// Which of a game's two S3 choices.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ChoiceKind {
    /// Who faces whom (`Straight`, `Crossed`).
    Seating,
    /// Who has White on which board (`WhiteOnA`, `WhiteOnB`).
    Colours,
}

/// Why a tournament request was refused (`ErrorCode::Tournament`, version 7): a code and its
/// parameters, for a client to say in its own words and language. Nothing changed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum TourRefusal {
    /// No tournament has this id.
    NoSuchTournament,
    /// A name (of the tournament, a team or a player, the preset or the time control) is empty,
    /// blank, too long or holds control characters.
    InvalidName {
        /// The most characters allowed.
        max: u32,
    },
    /// A team's two players are one person.
    SamePlayerTwice,
    /// Another team has this name (compared ignoring case).
    DuplicateTeamName,
    /// The tournament holds as many teams as it may.
    TooManyTeams {
        /// The most teams.
        max: u32,
    },
    /// A seeding that is not every registered team exactly once.
    BadSeeding,
    /// A Swiss needs at least one round.
    NoSwissRounds,
    /// Only before the start.
    AlreadyStarted,
    /// Only after the start.
    NotStarted,
    /// Too few active teams to start or to pair (at least 2).
    TooFewTeams {
        /// Active teams now.
        active: u32,
    },
    /// No team has this number.
    UnknownTeam {
        /// The number asked for.
        team: u32,
    },
    /// The team has withdrawn already.
    AlreadyWithdrawn {
        /// The team.
        team: u32,
    },
    /// The round still has games without a result.
    RoundIncomplete {
        /// The round.
        round: u32,
    },
    /// Every round is paired.
    NoRoundsLeft {
        /// The tournament's rounds.
        rounds: u32,
    },
    /// No round has this number.
    UnknownRound {
        /// The number asked for.
        round: u32,
    },
    /// The round has no such table.
    UnknownTable {
        /// The round.
        round: u32,
        /// The table asked for.
        table: u32,
    },
    /// A pairing has games 1 and 2 only.
    UnknownGame {
        /// The game asked for.
        game: u32,
    },
    /// The table is a bye: no games.
    Bye {
        /// The round.
        round: u32,
        /// The table.
        table: u32,
    },
    /// The team is not paired in the round.
    NotPaired {
        /// The round.
        round: u32,
        /// The team.
        team: u32,
    },
    /// The session's account plays for no team of the tournament.
    NotAMember,
    /// S3: this choice of this game belongs to the other team.
    NotYourChoice {
        /// The game.
        game: TourGame,
        /// Which choice.
        choice: ChoiceKind,
    },
    /// S3: the choices of this game were due at `due_ms` (Unix ms); the defaults apply.
    DeadlinePassed {
        /// The game.
        game: TourGame,
        /// The deadline.
        due_ms: u64,
    },
    /// The game has started (its match exists) or has a result.
    GameStarted {
        /// The game.
        game: TourGame,
    },
    /// S3: this choice was made already; a choice is final.
    AlreadyChosen {
        /// The game.
        game: TourGame,
        /// Which choice.
        choice: ChoiceKind,
    },
    /// The game's seats are not known yet: a choice is missing.
    ChoicesPending {
        /// The game.
        game: TourGame,
    },
    /// The game has a result; a director corrects it (`correct`).
    AlreadyDecided {
        /// The game.
        game: TourGame,
    },
    /// The game has no result to correct.
    NotDecided {
        /// The game.
        game: TourGame,
    },
    /// Registration is closed: only a director registers a team now (version 8).
    RegistrationClosed,
    /// The player is in a team already, or has an invitation pending.
    AlreadyInTeam,
    /// No such invitation is pending.
    NoInvitation,
    /// The tournament does not ask teams to check in.
    CheckInNotRequired,
    /// Only a Swiss has a number of rounds to set.
    NotASwiss,
    /// A pairing by hand names a team this round does not pair (withdrawn, or not checked in).
    NotInField {
        /// The team.
        team: u32,
    },
    /// A pairing by hand places a team twice, or against itself.
    PlacedTwice {
        /// The team.
        team: u32,
    },
    /// The game is in play (version 15): a result is entered for it only with `end_game`, which
    /// ends its match with that result.
    GameInPlay {
        /// The game.
        game: TourGame,
        /// Its match.
        match_id: MatchId,
    },
    /// The game was played online (version 15): its result is its match's; it is corrected,
    /// not cleared.
    PlayedOnline {
        /// The game.
        game: TourGame,
    },
    /// Game 2 of the pairing has started (version 15): game 1's result stays.
    GameTwoStarted {
        /// The game (game 1).
        game: TourGame,
    },
}
