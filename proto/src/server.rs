//! Messages from the server to a client.

use serde::{Deserialize, Serialize};

use crate::{
    ChatScope, ClaimKind, LeaderRow, MatchId, PlayerKind, ProfileView, RatingChange, SeatId, TeamId,
};

/// What the server sends. New variants are only ever appended (see PROTOCOL.md).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ServerMsg {
    /// The answer to `Hello`: the session is open.
    Welcome {
        /// The server's [`crate::PROTOCOL_VERSION`].
        version: u32,
        /// The session token; keep it to resume after a lost connection.
        token: String,
        /// Whether an earlier session was resumed.
        resumed: bool,
        /// The server's monotonic clock, microseconds.
        server_time_us: u64,
    },
    /// The session is refused because the client speaks another protocol version (any
    /// version's client reads this one: its place and shape never change); the server closes
    /// the connection after it. Every other refusal of a session is `SessionRefused` (version
    /// 9; before it, this carried every refusal in words).
    Refused {
        /// Why.
        reason: String,
    },
    /// The answer to a `Ping`.
    Pong {
        /// The ping's nonce.
        nonce: u64,
        /// The server's monotonic clock, microseconds.
        server_time_us: u64,
    },
    /// The answer to a client frame.
    Reply {
        /// The frame's request number.
        req: u32,
        /// What came of it.
        result: Result<Reply, ErrorMsg>,
    },
    /// The whole state of a followed match (on watch, seat and resume).
    State(MatchState),
    /// One event of a followed match.
    Event(MatchEvent),
    /// A chat message.
    Chat {
        /// In which match.
        match_id: MatchId,
        /// The writer's name.
        from: String,
        /// The writer's kind (version 4).
        kind: PlayerKind,
        /// The writer's seat, if seated.
        seat: Option<SeatId>,
        /// Who it was for.
        scope: ChatScope,
        /// The text.
        text: String,
    },
    /// The followed match is closed for this session without having been decided: nothing
    /// more of it will come, and the session follows no match.
    MatchClosed {
        /// Which match.
        match_id: MatchId,
        /// Why.
        reason: ClosedReason,
    },
    /// The rematch offer of a decided match changed (sent only to its players who asked about
    /// it with `ClientMsg::Rematch`).
    Rematch(RematchView),
    /// The session has ended for good (version 4): its token never resumes. The server closes
    /// the connection after it; the client says why and offers to log in again.
    SessionEnded {
        /// Why.
        reason: SessionEnd,
    },
    /// What a decided rated match made of its players' ratings (version 5), sent to its
    /// followers right after the `Ended` event (and in `MatchState::rating_changes` later).
    Rated {
        /// Which match.
        match_id: MatchId,
        /// The four players' changes, in seat order.
        changes: Vec<RatingChange>,
    },
    /// A player invites the session to seek a game with him as partners (version 5); answer
    /// with `ClientMsg::AnswerSeek` before `expires_in_ms`.
    SeekInvitation(crate::SeekView),
    /// A seek the session is in changed (version 5): the partner accepted, and it waits in the
    /// pool.
    Seek(crate::SeekView),
    /// A seek the session was in ended without a match (version 5).
    SeekEnded {
        /// The seek.
        seek: u64,
        /// Why.
        reason: crate::SeekEnd,
    },
    /// A seek the session was in found its match (version 5): the server has seated the
    /// session there, ready (its `State` comes with it), and the countdown starts when all four
    /// are seated. Seats are drawn fairly: partners sit on different boards in opposite colours.
    MatchFound {
        /// The seek.
        seek: u64,
        /// The new match.
        match_id: MatchId,
        /// The session's seat in it.
        seat: SeatId,
        /// Whether it is rated.
        rated: bool,
    },
    /// A followed tournament changed (version 7): what changed, and the tournament whole.
    Tournament {
        /// What changed.
        change: crate::TourChange,
        /// The tournament as it stands now.
        view: Box<crate::TournamentView>,
    },
    /// The session is refused, and why (version 9: a bad name, an unknown token, a disabled
    /// account, too many guests, storage down); the server closes the connection after it.
    SessionRefused(ErrorMsg),
    /// This server (a node of a cluster) no longer runs the followed match (version 11): it
    /// could not prove it still may, so it let the match go, and another node takes it over
    /// within seconds. The session is not ended: the client resumes it at once on another of
    /// its addresses (as after a lost connection), from the last event it has; with one address
    /// only, it resumes there again once the server answers.
    ResumeElsewhere {
        /// The match let go.
        match_id: MatchId,
        /// Why.
        reason: ElsewhereReason,
    },
}

/// Why a node of a cluster let a match go (`ServerMsg::ResumeElsewhere`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ElsewhereReason {
    /// The node could not renew its lease in the cluster's database for the lease's length (it
    /// is cut off from it): another node may take its matches over, so it runs none.
    LeaseLost,
}

/// A decided match's rematch offer: who has accepted or declined, by seat of the decided match,
/// and the new match once all four accepted.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RematchView {
    /// The decided match.
    pub match_id: MatchId,
    /// The players, by seat of the decided match.
    pub players: [String; 4],
    /// The players' kinds, beside `players` (version 4).
    pub kinds: [PlayerKind; 4],
    /// Who has accepted.
    pub accepted: [bool; 4],
    /// Who has declined (the rematch will not be played).
    pub declined: [bool; 4],
    /// The new match, once all four accepted (its players are seated in it, ready: each with
    /// the other colour on the same board).
    pub rematch: Option<MatchId>,
}

/// Why a session ended while connected.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum SessionEnd {
    /// It logged out (from another connection of the same session).
    LoggedOut,
    /// Its account's password was changed or reset.
    PasswordChanged,
    /// Its account was disabled.
    AccountDisabled,
}

/// Why a followed match closed without a decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ClosedReason {
    /// It was forming and no seated player was connected for the server's expiry time.
    Expired,
    /// Its task failed on the server; the match is kept as logged and is restored when the
    /// server restarts.
    Failed,
    /// The session's seat was taken over by another session of the same account (another
    /// device, version 13): this session follows the match no more and cannot move there.
    TakenOver,
}

/// A successful answer.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Reply {
    /// Done.
    Ok,
    /// The lobby.
    Matches(Vec<MatchSummary>),
    /// The new match.
    Created {
        /// Its id.
        match_id: MatchId,
    },
    /// A match record.
    Record {
        /// BPGN text.
        bpgn: String,
    },
    /// A new tournament's id, a team's number, or a round's number.
    Id(u64),
    /// A publication.
    Text(String),
    /// Where a player plays now.
    Assigned {
        /// The match and seat, when a game of the player's is on.
        game: Option<(MatchId, SeatId)>,
        /// Whether the tournament is over.
        finished: bool,
    },
    /// The legal moves of `ClientMsg::Legal`, in long notation (empty when the match is not
    /// running or the side to move has none).
    Legal(Vec<String>),
    /// One page of matches (`ClientMsg::ListPage`), by id.
    MatchPage {
        /// The matches.
        matches: Vec<MatchSummary>,
        /// The `after` of the next page, when there are more.
        next: Option<MatchId>,
    },
    /// Part of a match record (`ClientMsg::RecordPart`).
    RecordPart {
        /// BPGN text from `offset` (whole characters).
        text: String,
        /// Where this part starts, in bytes of the record.
        offset: u64,
        /// The record's whole length in bytes.
        total: u64,
    },
    /// Logged in (`ClientMsg::Register`, `ClientMsg::Login`): the connection now serves a new
    /// session of the account.
    LoggedIn {
        /// The account's name as registered.
        name: String,
        /// The new session's token (resume with it).
        token: String,
        /// Whether the account is a bot.
        bot: bool,
        /// The account's roles (`arbiter`, `director`) at the log-in; the server reads them again
        /// at every privileged request, so a grant or revocation counts at once.
        roles: Vec<String>,
    },
    /// A private match (`CreateMatch { listed: false }`, or a redeemed `Invitation`): its id,
    /// and the code that reaches it (at least 96 random bits; whoever holds it may watch, sit
    /// and read the record).
    Invited {
        /// The match.
        match_id: MatchId,
        /// The invitation code.
        code: String,
    },
    /// The rematch offer as it stands (`ClientMsg::Rematch`).
    Rematch(RematchView),
    /// A page of a match's events for review (`ClientMsg::Review`).
    Review {
        /// Which match.
        match_id: MatchId,
        /// Its rules preset.
        rules: String,
        /// Its time control.
        time_control: String,
        /// The events, in order, as followers saw them (`bfen` and `clocks_ms` after each).
        events: Vec<MatchEvent>,
        /// The `after` of the next page; `None` at the end of the log.
        next: Option<u64>,
    },
    /// A player's recent matches (`ClientMsg::RecentMatches`), newest first.
    Recent(Vec<RecentMatch>),
    /// A category's leaderboard (`ClientMsg::Leaderboard`), best first.
    Leaderboard {
        /// The category.
        category: String,
        /// The ranked players.
        rows: Vec<LeaderRow>,
    },
    /// A player's profile (`ClientMsg::Profile`).
    Profile(ProfileView),
    /// A seek as it stands (`ClientMsg::Seek`, `ClientMsg::AnswerSeek`; version 5).
    Seek(crate::SeekView),
    /// The pools of seeks (`ClientMsg::SeekPools`; version 5).
    SeekPools(Vec<crate::SeekPool>),
    /// A page of tournaments, newest first (`ClientMsg::Tournaments`; version 7).
    TournamentPage {
        /// The tournaments.
        tournaments: Vec<crate::TournamentSummary>,
        /// The id to ask after for the next page; `None` on the last page.
        next: Option<u64>,
    },
    /// One round of a tournament (`ClientMsg::TournamentRound`; version 7).
    TournamentRound(crate::RoundView),
    /// The roles the session acts in now (`ClientMsg::Roles`, version 8): `arbiter`, `director`.
    Roles {
        /// The roles.
        roles: Vec<String>,
    },
    /// The engine's analysis of a position (`ClientMsg::Analyse`, version 10).
    Analysis(crate::AnalysisView),
    /// A record replayed and checked (`ClientMsg::ReviewRecord`, version 10).
    RecordReview(Box<crate::RecordReview>),
    /// A page of a tournament's games (`TdExport::GamesPage`, version 16).
    Games {
        /// The games of the page as one BPGN text (empty when there are none).
        bpgn: String,
        /// How many games the page holds.
        games: u32,
        /// The `from` of the next page; `None` on the last page.
        next: Option<u32>,
    },
}

/// One of a player's recent matches.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RecentMatch {
    /// The match.
    pub match_id: MatchId,
    /// Its rules preset.
    pub rules: String,
    /// Its time control.
    pub time_control: String,
    /// Its four players, by seat.
    pub players: [String; 4],
    /// Its result; `None` for an annulled match.
    pub result: Option<ResultView>,
    /// When it ended, milliseconds since the Unix epoch.
    pub finished_ms: Option<u64>,
}

/// A refused request.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ErrorMsg {
    /// The kind.
    pub code: ErrorCode,
    /// The RULES.md id the refusal enforces, if any (`P3`, `K4`, …).
    pub rule: Option<String>,
    /// One sentence for the player.
    pub message: String,
}

/// Kinds of refusal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ErrorCode {
    /// The request is malformed (bad text, bad name, bad time control).
    BadRequest,
    /// `Hello` twice, or anything before it.
    Handshake,
    /// No match with that id.
    NoSuchMatch,
    /// The request needs a match the session follows or sits in.
    NotInMatch,
    /// The match refused it (not your turn, illegal move, …), with the rule.
    Rejected,
    /// Too many requests; slow down.
    RateLimited,
    /// The server is at a limit (matches, connections).
    Full,
    /// The request is not the session's to make (another's seek or rematch; an official's
    /// request is `Official` from version 16).
    Forbidden,
    /// The answer would not fit a frame: ask in parts (`ListPage`, `RecordPart`).
    TooLarge,
    /// The server cannot serve it now (its storage refuses writes); try again later.
    Unavailable,
    /// A documented limit of the server (`config/default.toml`) refuses it.
    Limit(Limit),
    /// No account has this name and password (the same answer for an unknown name).
    BadCredentials,
    /// The name is registered (whatever its case): register another, or log in.
    NameTaken,
    /// The request needs a logged-in account (a tournament seat, an S3 choice, a password change).
    LoginRequired,
    /// The account is disabled.
    AccountDisabled,
    /// No (enabled) account has this name.
    NoSuchAccount,
    /// A rated match's seat is for an account: a guest may not take it, nor a bot unless the
    /// server rates bots (version 5).
    NotRatable,
    /// No seek of the session's has this number (it ended, or found its match; version 5).
    NoSuchSeek,
    /// A tournament request refused, and why (version 7).
    Tournament(crate::TourRefusal),
    /// The match refused it, and why, with the rule (version 9; sent instead of `Rejected`).
    Match(crate::MatchRefusal),
    /// What the person typed is not acceptable, and why (version 9; sent instead of
    /// `BadRequest` for it).
    Invalid(crate::Invalid),
    /// The session was not opened, and why (version 9; in `ServerMsg::SessionRefused`).
    Session(crate::SessionRefusal),
    /// The state of things refuses it (a match started, a seek already open; version 9).
    Busy(crate::Busy),
    /// The request needs an official (arbiter, director), and why it was not one (version 16;
    /// sent instead of `Forbidden` for it).
    Official(crate::OfficialRefusal),
    /// A password or an official's secret came over plain HTTP from another machine, where
    /// anyone on the way can read it: the server refuses it (version 16). Open the server's
    /// `https://` page; the operator may serve HTTPS (`https_listen`) or allow a network
    /// (`plain_http_logins`).
    Unencrypted,
    /// The server's disk is full: it could not store the request (a move is then not played),
    /// and the match is paused until space returns, when it resumes by itself (version 16; sent
    /// instead of `Unavailable` for it).
    StorageFull,
}

/// The server's documented limits, as refusals name them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Limit {
    /// `max_matches`: live matches on the server.
    Matches,
    /// `max_open_matches_per_session`: forming matches one session created.
    OpenMatches,
    /// The chat message length (500 characters).
    ChatLength,
    /// `max_bots`: bots the server runs at once (`FillWithBots`).
    Bots,
    /// Failed log-ins: `login_failures_per_name` for one name from one address, or
    /// `login_failures_per_address` from one address, lock further attempts from that address out
    /// for `login_lockout_ms`, doubling with each failure beyond to at most 64 times
    /// `login_lockout_ms`, a right password included.
    LoginAttempts,
    /// `max_seeks_per_session`: seeks (and invitations to seek) one session is in at once
    /// (version 5).
    Seeks,
    /// `max_seeks`: seeks the server holds at once, waiting or inviting (version 5).
    SeekPool,
    /// `registrations_per_address_per_hour`: accounts registered from one address (IPv6: its
    /// /64) within an hour (version 6).
    Registrations,
    /// The teams of one tournament the server carries as data (64, `TOURNAMENT_TEAMS`): a
    /// tournament's view must fit one frame (version 7).
    TournamentTeams,
    /// `max_analyses_queued`: analyses waiting for the server's engine, and
    /// `analyses_per_address`: those of one address among them (version 10).
    Analyses,
    /// `max_connections`: connections the server holds at once. Never in a reply: a connection
    /// refused at it is closed with [`crate::CLOSE_LIMIT`] (version 16).
    Connections,
    /// `max_connections_per_address`: connections one address (IPv6: its /64) holds at once;
    /// as `Connections` (version 16).
    ConnectionsPerAddress,
}

/// A match in the lobby list.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MatchSummary {
    /// Its id.
    pub match_id: MatchId,
    /// Rule preset.
    pub rules: String,
    /// Time control, as `3+2`.
    pub time_control: String,
    /// Whether it starts from a Chess960 position.
    pub chess960: bool,
    /// The players' names, in the order of [`SeatId::ALL`].
    pub seats: [Option<String>; 4],
    /// The players' kinds, beside `seats` (version 4).
    pub kinds: [Option<PlayerKind>; 4],
    /// Where it is.
    pub phase: PhaseView,
    /// Rated (version 5); absent in JSON: casual.
    #[serde(default)]
    pub rated: bool,
}

/// Where a match is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum PhaseView {
    /// Taking seats.
    Forming,
    /// All ready; about to start.
    Countdown,
    /// Clocks running.
    Running,
    /// Clocks stopped for the arbiter.
    Paused,
    /// Decided.
    Ended,
    /// Annulled by the arbiter.
    Annulled,
}

/// A decided match.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ResultView {
    /// The winning team; `None` for a draw.
    pub winner: Option<TeamId>,
    /// Why, in words (`black-A lost on time`): for logs and older clients; a client says
    /// `cause`.
    pub reason: String,
    /// The rule that decided it (`E1`, `E7`, `A2`, …).
    pub rule: String,
    /// Why, as a fact (version 9; absent from results stored before it: the client says the
    /// rule).
    #[serde(default)]
    pub cause: Option<ResultCause>,
    /// The arbiter's own words when he declared (or corrected) the result (A2; version 12),
    /// shown as he wrote them.
    #[serde(default)]
    pub note: Option<Box<str>>,
    /// Every rule that decided it, `rule` first (version 12): the match's record explained
    /// (`shvedka arbiter explain`) — K4 for a flag's grace window, E6 and E9 for a mate inside
    /// one, E7 for flags, K3 for a flag lag credit took back, A2 for the arbiter. Empty from
    /// older servers and where it is not known.
    #[serde(default)]
    pub rules: Box<[String]>,
}

/// How a match was decided.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ResultCause {
    /// E1: mate on board by this seat.
    MateOnBoard {
        /// The mating player.
        seat: SeatId,
    },
    /// E2: mates on board by both teams.
    MutualMate,
    /// A board was drawn, which draws the match (E3–E5, M3, A2; E8: it outranks a flag).
    BoardDrawn {
        /// The board.
        board: crate::Board,
        /// How.
        how: DrawHow,
    },
    /// E6/E7: the flag of this seat fell (the first flagged player of one team).
    Flag {
        /// Whose flag.
        seat: SeatId,
    },
    /// E7: flags of both teams fell.
    FlagsOfBothTeams,
    /// E10: this seat resigned.
    Resignation {
        /// Who.
        seat: SeatId,
    },
    /// A2: declared by the arbiter (his words are in the `ArbiterActed` event).
    Arbiter,
}

/// How a board was drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum DrawHow {
    /// E3: agreed by its two players.
    Agreement,
    /// E4: the same position three times.
    Repetition,
    /// E5: fifty moves without a capture, pawn move or drop.
    FiftyMoves,
    /// M3: the side to move has no move and is not in check, and nothing can change that.
    Stalemate,
    /// A2: the arbiter.
    Arbiter,
}

/// Everything a follower needs to show a match.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MatchState {
    /// Which match.
    pub match_id: MatchId,
    /// Rule preset.
    pub rules: String,
    /// Time control, as `3+2`.
    pub time_control: String,
    /// The players' names, in the order of [`SeatId::ALL`].
    pub seats: [Option<String>; 4],
    /// The players' kinds, beside `seats` (version 4).
    pub kinds: [Option<PlayerKind>; 4],
    /// Who said ready.
    pub ready: [bool; 4],
    /// Where it is.
    pub phase: PhaseView,
    /// Both boards and the four reserves.
    pub bfen: String,
    /// The four clocks now, milliseconds.
    pub clocks_ms: [u64; 4],
    /// Which clocks run.
    pub running: [bool; 4],
    /// The `seq` of the last event so far (`None` before the first).
    pub last_seq: Option<u64>,
    /// The result, once decided.
    pub result: Option<Box<ResultView>>,
    /// The seat of the receiving session, if it sits in this match.
    pub your_seat: Option<SeatId>,
    /// The server's monotonic clock when this was taken, microseconds.
    pub server_time_us: u64,
    /// Every move of the match so far, in the order played on both boards, as its record has
    /// them (a move an arbiter took back is not there). Version 3; absent in JSON: none.
    #[serde(default)]
    pub moves: Vec<MoveView>,
    /// Rated (version 5); absent in JSON: casual.
    #[serde(default)]
    pub rated: bool,
    /// What the match made of its players' ratings, once a rated match is decided and rated
    /// (version 5).
    #[serde(default)]
    pub rating_changes: Vec<RatingChange>,
    /// K5: while a player's call keeps the clocks stopped, who called and the replay he asks
    /// for, if any (version 12), so that an arbiter who opens the match later reads it.
    #[serde(default)]
    pub called: Option<CallView>,
    /// K6: while a match restored after a restart (or a take-over) waits for its missing
    /// players, the server time (`server_time_us`'s clock, microseconds) at which its clocks (or
    /// its countdown) start again at the latest, whoever is back (version 14).
    #[serde(default)]
    pub restart_by_us: Option<u64>,
    /// K1: during the countdown, how long until the clocks start, milliseconds (version 14; a
    /// countdown held by a restart: as it was held).
    #[serde(default)]
    pub countdown_left_ms: Option<u64>,
    /// The server's own bots that could not sit again after a restart or a take-over, and why
    /// (version 14): their seats are waited for as any absent player's (K6).
    #[serde(default)]
    pub bots_missing: Vec<MissingBot>,
    /// Its seats are reserved for named players (version 15: a tournament game, a match a seek
    /// drew): no bot may take one, so a client offers no bots for it.
    #[serde(default)]
    pub reserved: bool,
    /// The tournament game it is (version 15): the game screen says the tournament, round,
    /// table, game and the teams by name, as the tournament numbers them.
    #[serde(default)]
    pub tournament: Option<Box<TournamentGameView>>,
}

/// The tournament game a match is (version 15).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TournamentGameView {
    /// The tournament.
    pub tournament: u64,
    /// Its name.
    pub name: String,
    /// The round, from 1.
    pub round: u32,
    /// The table, from 1.
    pub table: u32,
    /// The game, 1 or 2.
    pub game: u32,
    /// The teams' names: the match's team 1 (the team on White-A) first.
    pub teams: [String; 2],
}

/// A seat of the server's own bot that no bot could take again after a restart or a take-over.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct MissingBot {
    /// The bot's seat.
    pub seat: SeatId,
    /// Why no bot sits there.
    pub reason: BotTrouble,
}

/// Why the server could not start its bot again.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum BotTrouble {
    /// The server runs `max_bots` already.
    MaxBots,
    /// The bot could not connect to its own server or take its seat (the server's log says why).
    Failed,
}

/// A player's call of the arbiter (K5), as a match's state carries it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct CallView {
    /// Who called.
    pub seat: SeatId,
    /// The replay he asks for (A5, A6), if any.
    pub replay: Option<crate::ReplayReason>,
}

/// One move of a match's move list (`MatchState::moves`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MoveView {
    /// Who moved (the board and the colour).
    pub seat: SeatId,
    /// The full-move number on its board.
    pub number: u32,
    /// SAN (`Nf3`, `N@f3`, `e8=Qd1`).
    pub san: String,
}

/// One event of a match's log.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MatchEvent {
    /// Which match.
    pub match_id: MatchId,
    /// Its place in the log, from 0, without gaps.
    pub seq: u64,
    /// Match time it took effect, milliseconds.
    pub at_ms: u64,
    /// What happened.
    pub kind: EventView,
    /// The four clocks just after it, milliseconds.
    pub clocks_ms: [u64; 4],
    /// Which clocks run after it.
    pub running: [bool; 4],
    /// The position after it, when it changed the position.
    pub bfen: Option<String>,
    /// The server's monotonic clock when it was sent, microseconds.
    pub server_time_us: u64,
}

/// What happened in a match.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum EventView {
    /// A player sat down.
    SeatTaken {
        /// Where.
        seat: SeatId,
        /// Who.
        name: String,
        /// His kind (version 4; absent in a view stored before: a guest).
        #[serde(default)]
        kind: PlayerKind,
    },
    /// A player stood up.
    SeatLeft {
        /// Where from.
        seat: SeatId,
    },
    /// Ready (or not).
    Ready {
        /// Who.
        seat: SeatId,
        /// Ready or not.
        ready: bool,
    },
    /// All four ready: the clocks start at `starts_at_ms`.
    CountdownStarted {
        /// Match time of the start.
        starts_at_ms: u64,
    },
    /// Both White clocks started.
    Started,
    /// A move.
    Moved {
        /// Who.
        seat: SeatId,
        /// Long notation.
        uci: String,
        /// SAN.
        san: String,
        /// Time charged, before the increment.
        charged_ms: u64,
        /// Lag credit given.
        credit_ms: u64,
    },
    /// A draw offered (or accepted).
    DrawOffered {
        /// Who.
        seat: SeatId,
    },
    /// A draw declined.
    DrawDeclined {
        /// Who.
        seat: SeatId,
    },
    /// An upheld claim.
    Claimed {
        /// Who.
        seat: SeatId,
        /// What.
        claim: ClaimKind,
    },
    /// A resignation.
    Resigned {
        /// Who.
        seat: SeatId,
    },
    /// A player stopped the clocks and called the arbiter.
    ArbiterCalled {
        /// Who.
        seat: SeatId,
        /// Why he asks for the game to be played again (A5, A6), if he does (version 10; absent
        /// in a view stored before: a plain call).
        #[serde(default)]
        replay: Option<crate::ReplayReason>,
    },
    /// A clock reached zero.
    FlagFell {
        /// Whose.
        seat: SeatId,
    },
    /// An arbiter act, described in words only: what servers sent before `ArbiterActed`. No
    /// longer sent; kept so that a client can still read it (as a note, no fact in it).
    Arbiter {
        /// What the arbiter did.
        act: String,
    },
    /// The match ended.
    Ended(ResultView),
    /// The server stopped all four clocks by itself; nobody is charged for the pause.
    Paused {
        /// Why.
        reason: PauseReason,
    },
    /// The server restarted the clocks after its own pause.
    Resumed {
        /// Why they had stopped.
        reason: PauseReason,
    },
    /// An arbiter act (RULES.md A2, K5), as a fact: the act with its arguments, who made it, and
    /// the words the log and the record use for it (for logs and older clients; a client says
    /// `act` in its own words).
    ArbiterActed {
        /// What the arbiter did.
        act: crate::ArbiterRequest,
        /// The same in words (`took back the last move on board A`).
        text: String,
        /// Who made it (version 9; absent for an act logged before the log named who made it).
        #[serde(default)]
        by: Option<crate::OfficialView>,
    },
}

/// Why the server paused a match by itself.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum PauseReason {
    /// The server restarted; the clocks restart when all four players are back.
    Restart,
    /// The server is shutting down.
    Shutdown,
    /// The server's storage refused writes; the clocks restart when it takes them again.
    Storage,
}
