//! Messages from a client to the server.

use serde::{Deserialize, Serialize};

use crate::{Board, MatchId, SeatId, TeamId};

/// One client message with its request number; the server answers every frame with a
/// [`crate::ServerMsg::Reply`] carrying the same number.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClientFrame {
    /// Chosen by the client; echoed in the reply.
    pub req: u32,
    /// The message.
    pub msg: ClientMsg,
}

/// What a client may ask. New variants are only ever appended (see PROTOCOL.md).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ClientMsg {
    /// The first message of every session.
    Hello {
        /// [`crate::PROTOCOL_VERSION`] of the client.
        version: u32,
        /// The player's name (1–32 characters).
        name: String,
        /// Continue an earlier session instead of starting a new one.
        resume: Option<Resume>,
    },
    /// Measures the round trip; answered by [`crate::ServerMsg::Pong`].
    Ping {
        /// Echoed back.
        nonce: u64,
    },
    /// The listed matches of the lobby.
    ListMatches,
    /// A new match (the creator is not seated by it).
    CreateMatch {
        /// Rule preset: `mgimo-2017` or `classic`.
        rules: String,
        /// A configured name (`blitz`) or a spec (`3+2`, `5+d3`).
        time_control: String,
        /// Shown in the lobby list. A private match (`false`) is answered `Reply::Invited` with
        /// its invitation code, and is reached only with that code (`Invitation`).
        listed: bool,
        /// Both boards start from the same Chess960 position, drawn for the match and fixed at
        /// the countdown (docs/RULES.md section 9). Absent in JSON: `false`.
        #[serde(default)]
        chess960: bool,
        /// Rated (version 5): deciding it changes its four players' ratings. Only accounts may
        /// take its seats (bots only where the server rates them). Absent in JSON: casual.
        #[serde(default)]
        rated: bool,
    },
    /// Follow a match: its state, then every event (as a spectator unless seated).
    Watch {
        /// Which.
        match_id: MatchId,
    },
    /// Sit down (and follow the match).
    TakeSeat {
        /// Which match.
        match_id: MatchId,
        /// Which seat.
        seat: SeatId,
    },
    /// Stand up before the start.
    LeaveSeat,
    /// Say ready, or withdraw it.
    Ready {
        /// Ready or not.
        ready: bool,
    },
    /// A move on the player's board.
    Move {
        /// The board.
        board: Board,
        /// Long notation (`e2e4`, `e7e8qd1`, `N@f3`) or SAN (`Nf3`, `e8=Qd1`).
        text: String,
        /// The client's own measure of the player's thinking time, for lag credit (K3: the
        /// server's measure less this, never below zero). Read as at most a year: any longer
        /// figure gives no more credit.
        think_ms: Option<u64>,
    },
    /// Offer a draw, or accept the standing offer.
    OfferDraw,
    /// Decline the standing offer.
    DeclineDraw,
    /// A claim.
    Claim(ClaimKind),
    /// Resign the match for the team.
    Resign,
    /// Stop all four clocks and call the arbiter (K5); with a reason when the player asks for the
    /// game to be played again (RULES.md A5, A6; version 10).
    CallArbiter {
        /// Why a replay is asked for; `None` for any other call.
        replay: Option<ReplayReason>,
    },
    /// A chat message.
    Chat {
        /// Who should read it.
        scope: ChatScope,
        /// The text (at most 500 characters).
        text: String,
    },
    /// Become an arbiter for the rest of the session, with the server's arbiter secret.
    Arbiter {
        /// The secret from the server's configuration.
        token: String,
    },
    /// An arbiter's act on a match (RULES.md A2, K5); only for an arbiter session.
    ArbiterAct {
        /// Which match.
        match_id: MatchId,
        /// What to do.
        act: ArbiterRequest,
    },
    /// Every match the server holds that is not over, listed or not; only for an arbiter.
    ListLive,
    /// The match record as BPGN (RULES.md A4), of a running or finished match.
    Record {
        /// Which match.
        match_id: MatchId,
    },
    /// Become a tournament director, with the server's director secret.
    Director {
        /// The secret from the server's configuration.
        token: String,
    },
    /// A tournament director's command; only for a director session.
    Td(TdRequest),
    /// A team's S3 choice for a game, sent by one of the team's players (by session name).
    Choose {
        /// The tournament.
        tournament: u64,
        /// The round, from 1.
        round: u32,
        /// The game of the pairing, 1 or 2.
        game: u32,
        /// The choice.
        choice: TdChoice,
    },
    /// Where the session's player (by name) plays now in a tournament, if anywhere.
    Assignment {
        /// The tournament.
        tournament: u64,
    },
    /// Every legal move on one board of a followed match, for the side to move there
    /// (`Reply::Legal`, in the long notation of `EventView::Moved::uci`: `e2e4`, `N@f3`,
    /// `e7e8qd1` for a promotion by removal of the piece on d1 of the other board). Clients show
    /// legal targets from it and never judge legality themselves.
    Legal {
        /// Which match.
        match_id: MatchId,
        /// Which board.
        board: Board,
    },
    /// One page of the matches that are not over, by id: the listed ones, or with `live` every
    /// match the server holds (only for an arbiter). Answered by `Reply::MatchPage`.
    ListPage {
        /// Start after this match (the `next` of the previous page); `None` for the first page.
        after: Option<MatchId>,
        /// At most this many (the server caps it at its page size).
        limit: u32,
        /// Unlisted matches too (arbiters only).
        live: bool,
    },
    /// Part of a match record as BPGN, from a byte offset (a record longer than one frame
    /// travels in parts). Answered by `Reply::RecordPart`.
    RecordPart {
        /// Which match.
        match_id: MatchId,
        /// Where to start, in bytes of the record (0, then each part's `offset` + its length).
        offset: u64,
    },
    /// Fill the empty seats of a forming match with the server's own bots at `level` (1 to 5); they
    /// sit, say ready and play at a human pace. Only the match's creator or one of its seated
    /// players may ask; bots beyond the server's `max_bots` are refused (`Limit(Bots)`).
    FillWithBots {
        /// Which match.
        match_id: MatchId,
        /// The bots' search level, 1 (fast, weak) to 5.
        level: u8,
    },
    /// Registers an account and logs the connection in as it (`Reply::LoggedIn`). The name: 2 to
    /// 24 ASCII letters, digits, `_` or `-`, starting with a letter, unique without regard to
    /// case; the password: 8 to 128 characters. Refused `NameTaken`, `BadRequest` (the rules),
    /// `Limit(Registrations)` (too many from one address).
    Register {
        /// The account's name.
        name: String,
        /// Its password (only its argon2id hash is kept).
        password: String,
        /// A program playing: shown as a bot.
        bot: bool,
    },
    /// Logs the connection in as an account (`Reply::LoggedIn`: a new session of that account,
    /// with its own token). Refused `BadCredentials` (wrong name or password, alike),
    /// `AccountDisabled`, `Limit(LoginAttempts)`.
    Login {
        /// The account's name, in any case.
        name: String,
        /// Its password.
        password: String,
    },
    /// Ends the session: its token never resumes again. The client closes the connection once it
    /// has the reply (the server answers nothing more, and closes it after a while).
    Logout,
    /// Changes the logged-in account's password; every other session of the account ends (its
    /// token never resumes). Refused `LoginRequired`, `BadCredentials` (wrong old password).
    ChangePassword {
        /// The password now.
        old: String,
        /// The new one (8 to 128 characters).
        new: String,
    },
    /// Redeems a private match's invitation code: the session may then watch it, sit in it and
    /// read its record by its id (`Reply::Invited`). A wrong code is refused `NoSuchMatch`, as
    /// an id of a private match is to everyone without its code.
    Invitation {
        /// The code `Reply::Invited` gave its creator.
        code: String,
    },
    /// The rematch of a decided (or annulled) match the session played in: `accept` `Some(true)`
    /// accepts it, `Some(false)` declines (or takes back an acceptance), `None` only asks to hear
    /// of it. Answered `Reply::Rematch` with the offer as it stands; from then on every change
    /// of the offer reaches the session as `ServerMsg::Rematch`. When all four players have
    /// accepted, the server creates the new match (same rules, time control, listing and
    /// Chess960 choice) and seats the four in it ready, each with the other colour on the same
    /// board (partners and opponents stay): each gets the new match's `State`. Refused
    /// `NoSuchMatch` (no such decided match, or its offer has lapsed), `Forbidden` (not one of its
    /// players), `Rejected` (the match is not over, or a player declined).
    Rematch {
        /// The decided match.
        match_id: MatchId,
        /// Accept, decline, or only listen.
        accept: Option<bool>,
    },
    /// A match's events as its followers saw them, for review: every move with the position and
    /// the four clocks after it, from the stored log — a decided match, or one in play (for its
    /// spectators). Answered `Reply::Review` by pages (`after`: the `next` of the last page,
    /// `None` for the first). Refused as `Record` is (a private match without its code:
    /// `NoSuchMatch`).
    Review {
        /// Which match.
        match_id: MatchId,
        /// The last event already had; `None` from the first.
        after: Option<u64>,
    },
    /// A player's recent matches, newest first (`Reply::Recent`): the decided or annulled
    /// matches in which a player of that name (any case) sat, at most 20; private ones only to
    /// the player himself.
    RecentMatches {
        /// The player's name.
        name: String,
    },
    /// Says the session is a program playing (version 4): it is shown as a bot wherever its name
    /// is. Sent before taking a seat; an account registered as a bot needs not send it.
    Bot,
    /// The best rated players of a category (`bullet`, `blitz`, `rapid`), best first
    /// (`Reply::Leaderboard`; version 5). Provisional ratings are not ranked.
    Leaderboard {
        /// The category.
        category: String,
    },
    /// A player's profile: ratings with their history, favourite partners, recent matches
    /// (`Reply::Profile`; version 5). Accounts only.
    Profile {
        /// The player's name (any case).
        name: String,
    },
    /// Seeks a game (version 5): alone, or with a partner, who is invited
    /// (`ServerMsg::SeekInvitation`) and must accept. Answered `Reply::Seek`; from then on the
    /// seek's changes come as `ServerMsg::Seek`, its end as `ServerMsg::SeekEnded`, and the match
    /// it found as `ServerMsg::MatchFound` (the server seats the four itself, ready). A player is
    /// in one seek at a time; it is withdrawn when his connection ends. Refused `LoginRequired`
    /// (a rated seek from a guest), `NotRatable` (a rated seek from a bot where bots are not
    /// rated), `Rejected` (seeking already), `NoSuchAccount` (no connected player of the partner's
    /// name), `Limit(Seeks)`, `Limit(SeekPool)`, `BadRequest`.
    Seek(crate::SeekRequest),
    /// The invited partner's answer to a seek (version 5): `accept` puts the pair in the pool,
    /// a refusal ends the seek (`SeekEnded { Declined }`).
    AnswerSeek {
        /// The seek (`ServerMsg::SeekInvitation`).
        seek: u64,
        /// Play with him, or not.
        accept: bool,
    },
    /// Withdraws a seek the session is in (version 5); its other players hear
    /// `SeekEnded { Cancelled }`.
    CancelSeek {
        /// The seek.
        seek: u64,
    },
    /// The pools of seeks waiting (version 5): `Reply::SeekPools`.
    SeekPools,
    /// One page of the tournaments, newest first (version 7): `Reply::TournamentPage`.
    Tournaments {
        /// Start after this tournament (the `next` of the previous page); `None` for the first.
        after: Option<u64>,
        /// At most this many (the server caps it at its page size).
        limit: u32,
    },
    /// Follow a tournament (version 7): answered `Reply::Ok` after `ServerMsg::Tournament` with
    /// the whole of it (`TourChange::Followed`), then `ServerMsg::Tournament` at every change. A
    /// connection follows one tournament at a time (following another stops the first); `None`
    /// stops following.
    FollowTournament {
        /// The tournament, or `None`.
        tournament: Option<u64>,
    },
    /// One round of a tournament, any of them (version 7): `Reply::TournamentRound`. A followed
    /// tournament's pushes carry its latest round only.
    TournamentRound {
        /// The tournament.
        tournament: u64,
        /// The round, from 1.
        round: u32,
    },
    /// A player's request to enter a tournament (version 8): an account only.
    Entry(EntryRequest),
    /// The roles the session acts in now (version 8): `Reply::Roles`. A role granted or revoked
    /// after the log-in shows here (the server reads the account's roles again).
    Roles,
    /// Analyse a position with the server's engine (version 10), answered `Reply::Analysis`.
    /// Refused `Invalid(RulePreset)` or `Invalid(Position)` for what does not read, `Busy(Playing)`
    /// to a session seated in a match in play, `Limit(Analyses)` when the server's queue, or this
    /// address's share of it, is full.
    Analyse(crate::AnalysisRequest),
    /// Replay and check a BPGN record given as text (version 10), answered
    /// `Reply::RecordReview` by pages of moves (`from`: the `next` of the last page, 0 first).
    /// Refused `Invalid(Record)` for a text that is not BPGN or has no such game,
    /// `Invalid(RulePreset)`, `TooLarge` past 64 KiB of text.
    ReviewRecord(crate::RecordReviewRequest),
}

/// A tournament director's command.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum TdRequest {
    /// A new tournament; `Reply::Id` is its id.
    Create {
        /// Its name.
        name: String,
        /// Rule preset.
        rules: String,
        /// Time control of every game.
        time_control: String,
        /// `None` for a round robin, or the number of Swiss rounds.
        swiss_rounds: Option<u32>,
        /// Games played online (the server creates their matches) or over the board (the
        /// director prints pairing sheets and enters results).
        online: bool,
        /// Teams check in before each round; only those checked in are paired (version 8).
        check_in: bool,
        /// Every game starts from a Chess960 position, drawn for its match (version 8).
        chess960: bool,
    },
    /// Register a team; `Reply::Id` is its number.
    Register {
        /// The tournament.
        tournament: u64,
        /// The team's name.
        team: String,
        /// Its two players (their session names).
        players: [String; 2],
    },
    /// Withdraw a team.
    Withdraw {
        /// The tournament.
        tournament: u64,
        /// The team's number.
        team: u32,
    },
    /// Close registration and start.
    Start {
        /// The tournament.
        tournament: u64,
    },
    /// Pair the next round; `Reply::Id` is its number.
    PairNext {
        /// The tournament.
        tournament: u64,
        /// How long teams have for their S3 choices, milliseconds.
        choice_window_ms: u64,
    },
    /// Enter (or, with `correct`, correct) a game's result.
    Result {
        /// The tournament.
        tournament: u64,
        /// Round, from 1.
        round: u32,
        /// Table, from 1.
        table: u32,
        /// Game, 1 or 2.
        game: u32,
        /// Who won.
        outcome: TdOutcome,
        /// Why.
        reason: String,
        /// Replace an existing result.
        correct: bool,
        /// The game is in play and the director ends its match with this result (version 15);
        /// without it a result for a game in play is refused (`TourRefusal::GameInPlay`). For a
        /// game played online the match's own result becomes the same, so the two never differ.
        end_game: bool,
    },
    /// Clear a result entered by mistake (version 15): the game is undecided again. Not for a
    /// game played online (its match's result is corrected instead).
    ClearResult {
        /// The tournament.
        tournament: u64,
        /// Round, from 1.
        round: u32,
        /// Table, from 1.
        table: u32,
        /// Game, 1 or 2.
        game: u32,
    },
    /// A publication; `Reply::Text`.
    Publish {
        /// The tournament.
        tournament: u64,
        /// What.
        what: TdExport,
        /// The language of an export a person reads (`ru`, `en`: the director's; version 9):
        /// the standings and crosstable as text, the page and the pairing sheet. Empty or another
        /// language: English. CSV, JSON and BPGN are data and do not change.
        #[serde(default)]
        language: String,
    },
    /// Seed the registered teams by their players' ratings before the start (version 5): the
    /// mean of the two players' ratings in the category of the tournament's time control (1500
    /// for a player without one), strongest first; the draw and a Swiss's ties follow it.
    SeedByRating {
        /// The tournament.
        tournament: u64,
    },
    /// Opens or closes registration to players (version 8); a director still registers teams.
    Registration {
        /// The tournament.
        tournament: u64,
        /// Open or closed.
        open: bool,
    },
    /// Changes what may change before the start (version 8): a Swiss's rounds (`None` keeps
    /// them) and whether teams check in (that one at any time).
    Settings {
        /// The tournament.
        tournament: u64,
        /// A Swiss's number of rounds, or `None`.
        swiss_rounds: Option<u32>,
        /// Teams check in before each round.
        check_in: bool,
    },
    /// Checks a team in for the next round, as the director sees it at the board (version 8).
    CheckIn {
        /// The tournament.
        tournament: u64,
        /// The team.
        team: u32,
    },
    /// The pairing the computer proposes for the next round, not made (version 8):
    /// `Reply::TournamentRound` with the round as it would be.
    Preview {
        /// The tournament.
        tournament: u64,
    },
    /// Pairs the next round as the director says (version 8): `tables` in table order, then the
    /// `byes`; teams placed nowhere are absent this round. `Reply::Id` is the round's number;
    /// the round names the director who paired it by hand.
    PairByHand {
        /// The tournament.
        tournament: u64,
        /// How long teams have for their S3 choices, milliseconds.
        choice_window_ms: u64,
        /// The pairings, by team number.
        tables: Vec<[u32; 2]>,
        /// The teams given a bye.
        byes: Vec<u32>,
    },
}

/// A player's request about entering a tournament (version 8), by the session's account.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum EntryRequest {
    /// Invite `partner` (an account) to form the team `team`, with the session's account as its
    /// first player: the team is registered once the partner accepts.
    Invite {
        /// The tournament.
        tournament: u64,
        /// The team's name.
        team: String,
        /// The partner's account name.
        partner: String,
    },
    /// Accept `from`'s invitation: `Reply::Id` is the new team's number.
    Accept {
        /// The tournament.
        tournament: u64,
        /// Who invited.
        from: String,
    },
    /// Decline `other`'s invitation, or take back the session's own invitation to `other`.
    Decline {
        /// The tournament.
        tournament: u64,
        /// The other player of the invitation.
        other: String,
    },
    /// Check the session's team in for the next round.
    CheckIn {
        /// The tournament.
        tournament: u64,
    },
}

/// A team's S3 choice.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum TdChoice {
    /// Seating: first player faces first player.
    Straight,
    /// Seating: first player faces the second.
    Crossed,
    /// Colours: White on board A (and Black on B).
    WhiteOnA,
    /// Colours: White on board B.
    WhiteOnB,
}

/// A game's result, seen from the pairing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum TdOutcome {
    /// The team named first won.
    FirstWins,
    /// The team named second won.
    SecondWins,
    /// Drawn.
    Draw,
}

/// What a director publishes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum TdExport {
    /// Standings as plain text.
    Standings,
    /// Standings as CSV.
    StandingsCsv,
    /// The crosstable as plain text.
    Crosstable,
    /// The crosstable as CSV.
    CrosstableCsv,
    /// One self-contained HTML page (standings and crosstable).
    Html,
    /// The pairing sheet of a round, for over-the-board play.
    Sheet {
        /// The round.
        round: u32,
    },
    /// Every game of the tournament as one BPGN file (`TooLarge` when it does not fit a frame:
    /// ask `GamesPage`).
    Games,
    /// The tournament's state as JSON.
    State,
    /// A page of the games, as `Reply::Games` (version 16): of one round (`round` from 1) or of
    /// the whole tournament (`round` 0), from the `from`-th of them (0 first), as many whole games
    /// as fit in 48 KiB, at least one. A client asks again from the reply's `next` until it is
    /// `None`.
    GamesPage {
        /// The round, or 0 for every round.
        round: u32,
        /// The first game of the page, counting the games of the round (or tournament) that
        /// have a record.
        from: u32,
    },
}

/// What an arbiter may do (RULES.md A2, K5).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ArbiterRequest {
    /// Stop all four clocks.
    Pause,
    /// Restart them.
    Resume,
    /// Add (positive) or remove (negative) milliseconds on a clock.
    AdjustClock {
        /// Whose clock.
        seat: SeatId,
        /// Milliseconds; negative removes.
        delta_ms: i64,
    },
    /// Take back the last move on a board, with its reserve transfers.
    TakeBack {
        /// The board.
        board: Board,
    },
    /// Set a corrected position (BFEN); every colour keeps its units (C2).
    SetPosition {
        /// The position.
        bfen: String,
    },
    /// Declare the result with a reason.
    DeclareResult {
        /// The winning team; `None` for a draw.
        winner: Option<TeamId>,
        /// Why.
        reason: String,
    },
    /// Annul the match so it is replayed as a new match.
    Annul {
        /// Why.
        reason: String,
    },
    /// Annul the game in play and start the same match again at once: the same seats, rules and
    /// clocks, both boards at the start (the same Chess960 position), four full clocks, after
    /// the countdown (RULES.md A2, A5, A6; version 10).
    Replay {
        /// Why.
        reason: ReplayReason,
        /// The arbiter's words, if any: at most 500 characters, may be empty.
        note: String,
    },
}

/// Why a game is played again (RULES.md A5, A6): what a player's call asks for and what the
/// arbiter's replay names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ReplayReason {
    /// A5: the pieces were set up wrongly at the start.
    WrongSetup,
    /// A6: someone outside the game hinted at a flag or an impossible move.
    OutsideHint,
    /// Another reason (A2: the arbiter decides).
    Other,
}

impl ReplayReason {
    /// The rule a replay for this reason rests on.
    pub const fn rule(self) -> &'static str {
        match self {
            ReplayReason::WrongSetup => "A5",
            ReplayReason::OutsideHint => "A6",
            ReplayReason::Other => "A2",
        }
    }
}

/// The session to resume.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Resume {
    /// The token from [`crate::ServerMsg::Welcome`].
    pub token: String,
    /// The last match event the client saw (its `seq`); the server sends the ones after it.
    pub last_seq: Option<u64>,
    /// The match the client followed. A node of a cluster other than the one the session was
    /// on learns from it which match to follow again (and whose node to ask for it); a server
    /// that knows the session's match already ignores it.
    #[serde(default)]
    pub match_id: Option<crate::MatchId>,
}

/// A claim (RULES.md E4, E5, K4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ClaimKind {
    /// Threefold repetition on the claimant's board.
    Repetition,
    /// Fifty moves on the claimant's board.
    FiftyMoves,
    /// The fallen flag of a player of the other team (flag = claim).
    Flag(SeatId),
}

/// Who reads a chat message (RULES.md A3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ChatScope {
    /// The partner only (and arbiters).
    Team,
    /// Everyone following the match; from a spectator during play, spectators only.
    Match,
}
