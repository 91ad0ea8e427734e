// The shvedka protocol in the browser: the same messages as proto/ (crates' shvedka-proto), as
// JSON text frames in serde's external tagging: a unit variant is its name ("ListMatches"), any
// other variant an object with one key ({"Move": {...}}). Checked against the Rust encoder by
// codec.test.mjs over proto/tests/data/golden.json.txt. Numbers travel as JSON numbers: request
// numbers, nonces and ids stay far below 2^53, the largest integer JavaScript holds exactly.

export const PROTOCOL_VERSION = 16;

/** The seats in the order of every four-element array (clocks, names, readiness). */
export const SEATS = ["WhiteA", "BlackA", "WhiteB", "BlackB"];

/** @typedef {import("./seats.js").Seat} Seat */
/** @typedef {import("./seats.js").BoardId} BoardId */
/** @typedef {import("./seats.js").Team} Team */

/** @typedef {"Repetition" | "FiftyMoves" | { Flag: Seat }} ClaimKind  `ClaimKind` of the protocol */
/** @typedef {"Team" | "Match"} ChatScope  `ChatScope` of the protocol */
/** @typedef {"Straight" | "Crossed" | "WhiteOnA" | "WhiteOnB"} TdChoice  `TdChoice` of the protocol */
/** @typedef {{ token: string, last_seq: number | null, match_id: number | null }} Resume  `Resume` of the protocol */

/**
 * `ArbiterRequest` of the protocol.
 * @typedef {"Pause" | "Resume"
 *   | { AdjustClock: { seat: Seat, delta_ms: number } }
 *   | { TakeBack: { board: BoardId } }
 *   | { SetPosition: { bfen: string } }
 *   | { DeclareResult: { winner: Team | null, reason: string } }
 *   | { Annul: { reason: string } }
 *   | { Replay: { reason: ReplayReason, note: string } }} ArbiterRequest
 */

/** @typedef {"WrongSetup" | "OutsideHint" | "Other"} ReplayReason  why a game is played again (RULES.md A5, A6, A2; version 10) */

/**
 * `TdRequest` of the protocol: a director's command, as the director's desk sends them.
 * @typedef {{ Register: { tournament: number, team: string, players: [string, string] } }
 *   | { Create: { name: string, rules: string, time_control: string, swiss_rounds: number | null,
 *       online: boolean, check_in: boolean, chess960: boolean } }
 *   | { Withdraw: { tournament: number, team: number } } | { Start: { tournament: number } }
 *   | { PairNext: { tournament: number, choice_window_ms: number } }
 *   | { Result: { tournament: number, round: number, table: number, game: number, outcome: TdOutcome,
 *       reason: string, correct: boolean, end_game: boolean } }
 *   | { ClearResult: { tournament: number, round: number, table: number, game: number } }
 *   | { SeedByRating: { tournament: number } }
 *   | { Registration: { tournament: number, open: boolean } }
 *   | { Settings: { tournament: number, swiss_rounds: number | null, check_in: boolean } }
 *   | { CheckIn: { tournament: number, team: number } } | { Preview: { tournament: number } }
 *   | { PairByHand: { tournament: number, choice_window_ms: number, tables: [number, number][], byes: number[] } }
 *   | { Publish: { tournament: number, what: TdExport, language: string } }} TdRequest
 */

/**
 * `TdExport` of the protocol: what a director publishes (`Text`, or `Games` for `GamesPage`).
 * @typedef {"Standings" | "StandingsCsv" | "Crosstable" | "CrosstableCsv" | "Html" | "Games" | "State"
 *   | { Sheet: { round: number } } | { GamesPage: { round: number, from: number } }} TdExport
 */

/**
 * `EntryRequest` of the protocol: a player entering a tournament (version 8).
 * @typedef {{ Invite: { tournament: number, team: string, partner: string } }
 *   | { Accept: { tournament: number, from: string } }
 *   | { Decline: { tournament: number, other: string } }
 *   | { CheckIn: { tournament: number } }} EntryRequest
 */

/**
 * `ClientMsg` of the protocol: the messages the page sends (the `msg` builders below).
 * @typedef {"ListMatches" | "LeaveSeat" | "OfferDraw" | "DeclineDraw" | "Resign"
 *   | "ListLive"
 *   | { CallArbiter: { replay: ReplayReason | null } }
 *   | { Hello: { version: number, name: string, resume: Resume | null } }
 *   | { Ping: { nonce: number } }
 *   | { CreateMatch: { rules: string, time_control: string, listed: boolean, chess960: boolean, rated: boolean } }
 *   | { Watch: { match_id: number } }
 *   | { TakeSeat: { match_id: number, seat: Seat } }
 *   | { Ready: { ready: boolean } }
 *   | { Move: { board: BoardId, text: string, think_ms: number | null } }
 *   | { Claim: ClaimKind }
 *   | { Chat: { scope: ChatScope, text: string } }
 *   | { Arbiter: { token: string } }
 *   | { ArbiterAct: { match_id: number, act: ArbiterRequest } }
 *   | { Record: { match_id: number } }
 *   | { Td: TdRequest }
 *   | { Choose: { tournament: number, round: number, game: number, choice: TdChoice } }
 *   | { Assignment: { tournament: number } }
 *   | { Legal: { match_id: number, board: BoardId } }
 *   | { ListPage: { after: number | null, limit: number, live: boolean } }
 *   | { RecordPart: { match_id: number, offset: number } }
 *   | { FillWithBots: { match_id: number, level: number } }
 *   | "Logout"
 *   | { Register: { name: string, password: string, bot: boolean } }
 *   | { Login: { name: string, password: string } }
 *   | { ChangePassword: { old: string, new: string } }
 *   | { Invitation: { code: string } }
 *   | { Rematch: { match_id: number, accept: boolean | null } }
 *   | { Review: { match_id: number, after: number | null } }
 *   | { RecentMatches: { name: string } }
 *   | "Bot"
 *   | { Leaderboard: { category: string } }
 *   | { Profile: { name: string } }
 *   | { Seek: SeekRequest }
 *   | { AnswerSeek: { seek: number, accept: boolean } }
 *   | { CancelSeek: { seek: number } }
 *   | "SeekPools"
 *   | { Tournaments: { after: number | null, limit: number } }
 *   | { FollowTournament: { tournament: number | null } }
 *   | { TournamentRound: { tournament: number, round: number } }
 *   | { Entry: EntryRequest } | "Roles"
 *   | { Analyse: AnalysisRequest } | { ReviewRecord: RecordReviewRequest }} ClientMsg
 */

/**
 * A BPGN record to replay and check (`ClientMsg::ReviewRecord`, version 10).
 * @typedef {{ bpgn: string, game: number, rules: string | null, from: number }} RecordReviewRequest
 */

/**
 * A1 on an impossible move noticed later (`LaterView`).
 * @typedef {"Stands" | { LegalAgain: { index: number } } | "ArbiterDecides"} LaterView
 */

/**
 * An impossible move of a reviewed record (`ImpossibleView`): its index, type 1 or 2, its rule.
 * @typedef {{ index: number, kind: number, rule: string, later: LaterView }} ImpossibleView
 */

/**
 * One move of a reviewed record (`ReviewedMove`).
 * @typedef {{ seat: Seat, number: number, text: string, san: string, uci: string, bfen: string, clocks_ms: (number | null)[],
 *   comment: string | null, at_ms: number | null, running: boolean[] }} ReviewedMove
 */

/**
 * `Reply::RecordReview`: one page of a record's moves and the check of A1.
 * @typedef {{ games: number, rules: string, time_control: string | null, players: (string | null)[],
 *   start: string, start_clocks_ms: (number | null)[], total: number, moves: ReviewedMove[], stopped: number | null, next: number | null,
 *   impossible: ImpossibleView[], unreadable: "Start" | { Move: { index: number } } | null,
 *   named: { index: number, label: string }[], acts: ReviewedAct[], explained: ExplanationView | null }} RecordReview
 */

/**
 * What an act of a record did (`ActView`, version 13).
 * @typedef {{ Played: { seat: Seat, text: string } } | { Arbiter: ArbiterRequest } | { Flag: { seat: Seat } }
 *   | { Call: { seat: Seat } } | { Draw: { board: "A" | "B" } } | { Resign: { seat: Seat } } | "Start" | "End"} ActView
 */

/**
 * One act of a reviewed record at its place among the moves (`ReviewedAct`, version 13).
 * @typedef {{ after_moves: number, at_ms: number | null, what: ActView, bfen: string, clocks_ms: (number | null)[],
 *   running: boolean[] }} ReviewedAct
 */

/**
 * Something that ended, or could have ended, a match (`HappeningView`, version 13).
 * @typedef {{ Mate: { mated: Seat, by: string } } | { Flag: { seat: Seat } } | { Resigned: { seat: Seat } }
 *   | { FlagWithdrawnByCredit: { seat: Seat, by: string, credit_ms: number } }
 *   | { FlagWithdrawnByArbiter: { seat: Seat, by: string | null } } | { Draw: { board: "A" | "B", rule: string } }
 *   | { Declared: { winner: Team | null, note: string, by: string | null } } | { Annulled: { note: string, by: string | null } }
 *   | "Ended"} HappeningView
 */

/**
 * One happening at its match time (`ExplainedLine`).
 * @typedef {{ at_ms: number | null, in_window: boolean, what: HappeningView }} ExplainedLine
 */

/**
 * Why a match ended as it did (`ExplanationView`, version 13): codes for the reader's language.
 * @typedef {{ outcome: { Win: Team } | "Draw" | null, rule: string | null, lines: ExplainedLine[],
 *   weighing: ("MateOverFlag" | "MateOverDraw" | "MatesOfBothTeams" | "DrawOverFlag" | "FlagsOfBothTeams" | "FlagsOfOneTeam")[],
 *   rules: string[] }} ExplanationView
 */

/**
 * What to analyse (`ClientMsg::Analyse`, version 10): a position, its rules, the clocks then.
 * @typedef {{ bfen: string, rules: string, clocks_ms: number[] | null }} AnalysisRequest
 */

/**
 * How a board stands, from White's side (`Evaluation`).
 * @typedef {{ Centipawns: { white: number } } | { MateIn: { white: number } }
 *   | { Mated: { winner: "White" | "Black" } } | "Waiting" | "Drawn"} Evaluation
 */

/**
 * A move as an arrow (`AnalysedMove`): squares 0 = a1 … 63 = h8.
 * @typedef {{ san: string, from: number | null, to: number, drop: string | null, removal: number | null }} AnalysedMove
 */

/**
 * The engine's view of one board (`BoardAnalysis`).
 * @typedef {{ board: "A" | "B", to_move: "White" | "Black", evaluation: Evaluation,
 *   best: AnalysedMove | null, line: string[], depth: number, nodes: number,
 *   wish: string | null, short_of_time: boolean }} BoardAnalysis
 */

/**
 * `Reply::Analysis`: both boards.
 * @typedef {{ bfen: string, boards: BoardAnalysis[] }} AnalysisView
 */

/**
 * `ClientFrame` of the protocol: a message and the request number its reply repeats.
 * @typedef {{ req: number, msg: ClientMsg }} ClientFrame
 */

/**
 * One client frame as text.
 * @param {number} req
 * @param {ClientMsg} msg
 */
export function frame(req, msg) {
  return JSON.stringify({ req, msg });
}

/** Client messages, by the names of their Rust variants. */
export const msg = {
  hello: (/** @type {string} */ name, /** @type {Resume | null} */ resume = null) => ({ Hello: { version: PROTOCOL_VERSION, name, resume } }),
  resume: (/** @type {string} */ token, /** @type {number | null} */ last_seq, /** @type {number | null} */ match_id) => ({
    token,
    last_seq,
    match_id,
  }),
  ping: (/** @type {number} */ nonce) => ({ Ping: { nonce } }),
  // The whole list in one reply: refused (TooLarge) beyond 50 matches; the page uses listPage.
  listMatches: () => "ListMatches",
  createMatch: (
    /** @type {string} */ rules,
    /** @type {string} */ time_control,
    /** @type {boolean} */ listed,
    chess960 = false,
    rated = false,
  ) => ({ CreateMatch: { rules, time_control, listed, chess960, rated } }),
  watch: (/** @type {number} */ match_id) => ({ Watch: { match_id } }),
  invitation: (/** @type {string} */ code) => ({ Invitation: { code } }),
  registerAccount: (/** @type {string} */ name, /** @type {string} */ password, bot = false) => ({
    Register: { name, password, bot },
  }),
  login: (/** @type {string} */ name, /** @type {string} */ password) => ({ Login: { name, password } }),
  logout: () => "Logout",
  changePassword: (/** @type {string} */ old, /** @type {string} */ next) => ({ ChangePassword: { old, new: next } }),
  takeSeat: (/** @type {number} */ match_id, /** @type {Seat} */ seat) => ({ TakeSeat: { match_id, seat } }),
  leaveSeat: () => "LeaveSeat",
  ready: (/** @type {boolean} */ ready) => ({ Ready: { ready } }),
  move: (/** @type {BoardId} */ board, /** @type {string} */ text, /** @type {number | null} */ think_ms = null) => ({ Move: { board, text, think_ms } }),
  offerDraw: () => "OfferDraw",
  declineDraw: () => "DeclineDraw",
  claim: (/** @type {ClaimKind} */ kind) => ({ Claim: kind }),
  flag: (/** @type {Seat} */ seat) => ({ Flag: seat }),
  resign: () => "Resign",
  callArbiter: (/** @type {ReplayReason | null} */ replay = null) => ({ CallArbiter: { replay } }),
  chat: (/** @type {ChatScope} */ scope, /** @type {string} */ text) => ({ Chat: { scope, text } }),
  arbiter: (/** @type {string} */ token) => ({ Arbiter: { token } }),
  arbiterAct: (/** @type {number} */ match_id, /** @type {ArbiterRequest} */ act) => ({ ArbiterAct: { match_id, act } }),
  adjustClock: (/** @type {Seat} */ seat, /** @type {number} */ delta_ms) => ({ AdjustClock: { seat, delta_ms } }),
  declareResult: (/** @type {Team | null} */ winner, /** @type {string} */ reason) => ({
    DeclareResult: { winner, reason },
  }),
  // Superseded in the page by listPage(…, true) and recordPart (a long record is refused whole).
  listLive: () => "ListLive",
  record: (/** @type {number} */ match_id) => ({ Record: { match_id } }),
  register: (/** @type {number} */ tournament, /** @type {string} */ team, /** @type {[string, string]} */ players) => ({ Td: { Register: { tournament, team, players } } }),
  choose: (
    /** @type {number} */ tournament,
    /** @type {number} */ round,
    /** @type {number} */ game,
    /** @type {TdChoice} */ choice,
  ) => ({ Choose: { tournament, round, game, choice } }),
  assignment: (/** @type {number} */ tournament) => ({ Assignment: { tournament } }),
  legal: (/** @type {number} */ match_id, /** @type {BoardId} */ board) => ({ Legal: { match_id, board } }),
  listPage: (/** @type {number | null} */ after, /** @type {number} */ limit, /** @type {boolean} */ live) => ({ ListPage: { after, limit, live } }),
  recordPart: (/** @type {number} */ match_id, /** @type {number} */ offset) => ({ RecordPart: { match_id, offset } }),
  review: (/** @type {number} */ match_id, /** @type {number | null} */ after) => ({ Review: { match_id, after } }),
  recentMatches: (/** @type {string} */ name) => ({ RecentMatches: { name } }),
  rematch: (/** @type {number} */ match_id, /** @type {boolean | null} */ accept) => ({ Rematch: { match_id, accept } }),
  fillWithBots: (/** @type {number} */ match_id, /** @type {number} */ level) => ({ FillWithBots: { match_id, level } }),
  leaderboard: (/** @type {string} */ category) => ({ Leaderboard: { category } }),
  profile: (/** @type {string} */ name) => ({ Profile: { name } }),
  seek: (/** @type {SeekRequest} */ request) => ({ Seek: request }),
  answerSeek: (/** @type {number} */ seek, /** @type {boolean} */ accept) => ({ AnswerSeek: { seek, accept } }),
  cancelSeek: (/** @type {number} */ seek) => ({ CancelSeek: { seek } }),
  seekPools: () => "SeekPools",
  tournaments: (/** @type {number | null} */ after, /** @type {number} */ limit) => ({ Tournaments: { after, limit } }),
  followTournament: (/** @type {number | null} */ tournament) => ({ FollowTournament: { tournament } }),
  tournamentRound: (/** @type {number} */ tournament, /** @type {number} */ round) => ({ TournamentRound: { tournament, round } }),
  /** The roles the session holds now (`Reply::Roles`). */
  roles: () => "Roles",
  /** The engine's analysis of a position (`Reply::Analysis`). */
  analyse: (/** @type {AnalysisRequest} */ req) => ({ Analyse: req }),
  /** A record's text replayed and checked (`Reply::RecordReview`). */
  reviewRecord: (/** @type {RecordReviewRequest} */ req) => ({ ReviewRecord: req }),
  /** A director's command (`td.*` below builds them). */
  td: (/** @type {TdRequest} */ req) => ({ Td: req }),
  /** A player's entry request (`entry.*` below builds them). */
  entry: (/** @type {EntryRequest} */ req) => ({ Entry: req }),
};

/** The director's commands (`TdRequest`), for `msg.td`. */
export const td = {
  create: (
    /** @type {string} */ name,
    /** @type {string} */ rules,
    /** @type {string} */ time_control,
    /** @type {number | null} */ swiss_rounds,
    /** @type {boolean} */ online,
    /** @type {boolean} */ check_in,
    /** @type {boolean} */ chess960,
  ) => /** @type {TdRequest} */ ({ Create: { name, rules, time_control, swiss_rounds, online, check_in, chess960 } }),
  withdraw: (/** @type {number} */ tournament, /** @type {number} */ team) => /** @type {TdRequest} */ ({ Withdraw: { tournament, team } }),
  start: (/** @type {number} */ tournament) => /** @type {TdRequest} */ ({ Start: { tournament } }),
  pairNext: (/** @type {number} */ tournament, /** @type {number} */ choice_window_ms) => /** @type {TdRequest} */ ({ PairNext: { tournament, choice_window_ms } }),
  result: (
    /** @type {number} */ tournament,
    /** @type {{ round: number, table: number, game: number }} */ at,
    /** @type {TdOutcome} */ outcome,
    /** @type {string} */ reason,
    /** @type {boolean} */ correct,
    /** @type {boolean} */ end_game = false,
  ) => /** @type {TdRequest} */ ({ Result: { tournament, round: at.round, table: at.table, game: at.game, outcome, reason, correct, end_game } }),
  clearResult: (/** @type {number} */ tournament, /** @type {{ round: number, table: number, game: number }} */ at) =>
    /** @type {TdRequest} */ ({ ClearResult: { tournament, round: at.round, table: at.table, game: at.game } }),
  seedByRating: (/** @type {number} */ tournament) => /** @type {TdRequest} */ ({ SeedByRating: { tournament } }),
  registration: (/** @type {number} */ tournament, /** @type {boolean} */ open) => /** @type {TdRequest} */ ({ Registration: { tournament, open } }),
  settings: (/** @type {number} */ tournament, /** @type {number | null} */ swiss_rounds, /** @type {boolean} */ check_in) =>
    /** @type {TdRequest} */ ({ Settings: { tournament, swiss_rounds, check_in } }),
  checkIn: (/** @type {number} */ tournament, /** @type {number} */ team) => /** @type {TdRequest} */ ({ CheckIn: { tournament, team } }),
  publish: (/** @type {number} */ tournament, /** @type {TdExport} */ what, /** @type {string} */ language) =>
    /** @type {TdRequest} */ ({ Publish: { tournament, what, language } }),
  preview: (/** @type {number} */ tournament) => /** @type {TdRequest} */ ({ Preview: { tournament } }),
  pairByHand: (
    /** @type {number} */ tournament,
    /** @type {number} */ choice_window_ms,
    /** @type {[number, number][]} */ tables,
    /** @type {number[]} */ byes,
  ) => /** @type {TdRequest} */ ({ PairByHand: { tournament, choice_window_ms, tables, byes } }),
};

/** A player's entry requests (`EntryRequest`), for `msg.entry`. */
export const entry = {
  invite: (/** @type {number} */ tournament, /** @type {string} */ team, /** @type {string} */ partner) => /** @type {EntryRequest} */ ({ Invite: { tournament, team, partner } }),
  accept: (/** @type {number} */ tournament, /** @type {string} */ from) => /** @type {EntryRequest} */ ({ Accept: { tournament, from } }),
  decline: (/** @type {number} */ tournament, /** @type {string} */ other) => /** @type {EntryRequest} */ ({ Decline: { tournament, other } }),
  checkIn: (/** @type {number} */ tournament) => /** @type {EntryRequest} */ ({ CheckIn: { tournament } }),
};

/** @typedef {"Registering" | "Running" | "Finished"} TournamentPhase  `TournamentPhase` of the protocol */
/** @typedef {"RoundRobin" | { Swiss: { rounds: number } }} TournamentFormat  `TournamentFormat` of the protocol */
/** @typedef {"FirstWins" | "SecondWins" | "Draw"} TdOutcome  `TdOutcome` of the protocol */

/**
 * `TournamentSummary` of the protocol: one tournament of the list.
 * @typedef {{ id: number, name: string, phase: TournamentPhase, format: TournamentFormat, rules: string,
 *   time_control: string, online: boolean, chess960: boolean, teams: number, rounds_paired: number }} TournamentSummary
 */

/**
 * `GameView` of the protocol: one game of a pairing (S3 choices, seats, match, result).
 * @typedef {{ game: number, seating_team: number, colour_team: number, seating: TdChoice | null,
 *   colours: TdChoice | null, seating_by_default: boolean, colours_by_default: boolean, seats: [string, string, string, string] | null, choices_due_ms: number,
 *   match_id: number | null, result: { outcome: TdOutcome, source: "OverTheBoard" | "Online" | "Director" | "Forfeit",
 *   director: OfficialView | null, note: string } | null }} GameView
 */

/**
 * `TableView` of the protocol: a pairing of two teams, or a bye.
 * @typedef {{ Pairing: { table: number, first: number, second: number, repeat: boolean, games: GameView[] } }
 *   | { Bye: { table: number, team: number } }} TableView
 */

/**
 * `RoundView` of the protocol: one round's tables.
 * @typedef {{ round: number, tables: TableView[], repeats_allowed: boolean, absent: number[],
 *   by_hand: OfficialView | null }} RoundView
 */

/**
 * `TournamentView` of the protocol: a tournament with its latest round. Scores are quarter points.
 * @typedef {{ summary: TournamentSummary,
 *   teams: { team: number, name: string, players: [string, string], withdrawn: boolean }[],
 *   round: RoundView | null,
 *   standings: { rank: number, team: number, withdrawn: boolean, points: number, direct: number,
 *     buchholz: number, sonneborn_berger: number, wins: number }[],
 *   registration_open: boolean, check_in: boolean, checked_in: number[],
 *   invitations: { team: string, from: string, to: string }[], most_rounds: number, now_ms: number }} TournamentView
 */

/**
 * `TourChange` of the protocol: what changed in a followed tournament.
 * @typedef {"Followed" | { Registered: { team: number } } | { Withdrew: { team: number } }
 *   | "Seeded" | "Started" | { Paired: { round: number } }
 *   | { Chose: { round: number, table: number, game: number } } | "Defaulted"
 *   | { GameStarted: { match_id: number } }
 *   | { Result: { round: number, table: number, game: number } }
 *   | { Corrected: { round: number, table: number, game: number } }
 *   | "Invited" | "InvitationEnded" | { Registration: { open: boolean } } | { CheckedIn: { team: number } }
 *   | "Settings"} TourChange
 */

/** @typedef {"Matches" | "OpenMatches" | "ChatLength" | "Bots" | "LoginAttempts" | "Seeks" | "SeekPool" | "Registrations" | "TournamentTeams" | "Analyses" | "Connections" | "ConnectionsPerAddress"} LimitKind  `Limit`: which documented limit */

/**
 * `TourRefusal` of the protocol: why a tournament request was refused, with its parameters.
 * @typedef {"NoSuchTournament" | "SamePlayerTwice" | "DuplicateTeamName" | "BadSeeding" | "NoSwissRounds"
 *   | "AlreadyStarted" | "NotStarted" | "NotAMember"
 *   | { InvalidName: { max: number } } | { TooManyTeams: { max: number } } | { TooFewTeams: { active: number } }
 *   | { UnknownTeam: { team: number } } | { AlreadyWithdrawn: { team: number } }
 *   | { RoundIncomplete: { round: number } } | { NoRoundsLeft: { rounds: number } }
 *   | { UnknownRound: { round: number } } | { UnknownTable: { round: number, table: number } }
 *   | { UnknownGame: { game: number } } | { Bye: { round: number, table: number } }
 *   | { NotPaired: { round: number, team: number } }
 *   | { NotYourChoice: { game: TourGame, choice: "Seating" | "Colours" } }
 *   | { DeadlinePassed: { game: TourGame, due_ms: number } }
 *   | { GameStarted: { game: TourGame } }
 *   | { AlreadyChosen: { game: TourGame, choice: "Seating" | "Colours" } }
 *   | { ChoicesPending: { game: TourGame } } | { AlreadyDecided: { game: TourGame } }
 *   | { NotDecided: { game: TourGame } }
 *   | "RegistrationClosed" | "AlreadyInTeam" | "NoInvitation" | "CheckInNotRequired" | "NotASwiss"
 *   | { NotInField: { team: number } } | { PlacedTwice: { team: number } }
 *   | { GameInPlay: { game: TourGame, match_id: number } } | { PlayedOnline: { game: TourGame } }
 *   | { GameTwoStarted: { game: TourGame } }} TourRefusal
 */
/** @typedef {{ round: number, table: number, game: number }} TourGame  `TourGame` of the protocol */

/** @typedef {"Secret" | "Server" | { Account: string }} OfficialView  an official who acted: his account, the server's secret, or the server itself (version 9) */

/**
 * `ErrorCode` of the protocol: a name, or `{ Limit: … }`; the page's own failures use "Offline",
 * "Timeout" and "BadReply" (an answer that does not fit the request). Compare with `===` only
 * against names (an object never equals one).
 * @typedef {"BadRequest" | "Handshake" | "NoSuchMatch" | "NotInMatch" | "Rejected" | "RateLimited"
 *   | "Full" | "Forbidden" | "TooLarge" | "Unavailable" | { Limit: LimitKind }
 *   | "BadCredentials" | "NameTaken" | "LoginRequired" | "AccountDisabled" | "NoSuchAccount"
 *   | "NotRatable"
 *   | "NoSuchSeek"
 *   | { Tournament: TourRefusal }
 *   | { Match: any } | { Invalid: any } | { Session: any } | { Busy: string }
 *   | { Official: any } | "Unencrypted" | "StorageFull"
 *   | "Offline" | "Timeout" | "BadReply"} ErrorCode
 */

/**
 * `ErrorMsg` of the protocol: a refused request (or a local failure, code "Offline"/"Timeout").
 * @typedef {object} ErrorMsg
 * @property {ErrorCode} code
 * @property {string | null} rule
 * @property {string} message
 */

/**
 * `MatchSummary` of the protocol (a lobby row).
 * @typedef {object} MatchSummary
 * @property {number} match_id
 * @property {string} rules
 * @property {string} time_control
 * @property {boolean} chess960
 * @property {(string | null)[]} seats
 * @property {(PlayerKind | null)[]} kinds  beside `seats` (version 4)
 * @property {"Forming" | "Countdown" | "Running" | "Paused" | "Ended" | "Annulled"} phase
 * @property {boolean} [rated]  rated (version 5)
 */

/**
 * Ratings on the wire (version 5): numbers rounded as players read them, with the server's
 * provisional mark.
 * @typedef {{ category: string, rating: number, deviation: number, games: number, provisional: boolean }} RatingView
 * @typedef {{ seat: Seat, name: string, category: string, before: number, after: number, deviation: number, provisional: boolean }} RatingChange
 * @typedef {{ rank: number, name: string, rating: RatingView }} LeaderRow
 * @typedef {{ match_id: number, at_ms: number, before: number, after: number }} HistoryPoint
 * @typedef {{ name: string, rating: RatingView }} PartnerView
 * @typedef {{ rating: RatingView, history: HistoryPoint[], partners: PartnerView[] }} CategoryProfile
 * @typedef {{ name: string, kind: PlayerKind, created_ms: number, categories: CategoryProfile[], recent: import("./recent.js").RecentMatch[] }} ProfileView
 */

/**
 * `Reply::MatchPage`: one page of `ListPage`; `next` is the `after` of the next page.
 * @typedef {{ MatchPage: { matches: MatchSummary[], next: number | null } }} MatchPageReply
 */

/**
 * `Reply::RecordPart`: the record's BPGN from byte `offset`; `total` is its length in bytes.
 * @typedef {{ RecordPart: { text: string, offset: number, total: number } }} RecordPartReply
 */

/** @typedef {import("./seats.js").PlayerKind} PlayerKind */
/** @typedef {"LoggedOut" | "PasswordChanged" | "AccountDisabled"} SessionEnd  why a session ended (version 4) */
/** @typedef {"Restart" | "Shutdown" | "Storage"} PauseReason  why the server paused a match */
/** @typedef {"Expired" | "Failed" | "TakenOver"} ClosedReason  why a followed match closed for this session */

/**
 * `Reply::Review`: a page of a match's stored events (`next`: the `after` of the next page).
 * @typedef {{ Review: { match_id: number, rules: string, time_control: string, events: import("./match-state.js").EventMsg[], next: number | null } }} ReviewReply
 */

/**
 * `RematchView`: a decided match's rematch offer, by seat of that match; `rematch` is the new
 * match once all four accepted (they are seated in it, each with the other colour on his board).
 * @typedef {{ match_id: number, players: string[], kinds: PlayerKind[], accepted: boolean[], declined: boolean[], rematch: number | null }} RematchView
 */

/**
 * `SeekRequest` (version 5): what a player seeks; `range` null is the quick pools' widening
 * window, `partner` a connected player's name to invite.
 * @typedef {{ time_control: string, rules: string, rated: boolean, range: number | null, partner: string | null }} SeekRequest
 */

/**
 * `SeekView` (version 5): a seek as it stands. `reach` is the rating range now (points either
 * side), widening by `widening` points a second while it waits.
 * @typedef {{ seek: number, time_control: string, rules: string, rated: boolean, range: number | null, players: string[], invited: string | null, waiting: boolean, waited_ms: number, reach: number, widening: number, expires_in_ms: number | null }} SeekView
 */

/**
 * `SeekPool` (version 5): seeks waiting on the same terms; `quick` for the server's quick pools.
 * @typedef {{ time_control: string, name: string | null, rules: string, rated: boolean, quick: boolean, players: number, people: number, longest_wait_ms: number }} SeekPool
 */

/** @typedef {"Cancelled" | "Disconnected" | "Declined" | "Expired" | "Failed"} SeekEnd  why a seek ended without a match */

/**
 * `ServerMsg::MatchClosed`: the followed match closed for this session without a decision.
 * @typedef {{ match_id: number, reason: ClosedReason }} MatchClosedMsg
 */

/**
 * How the page asks: a client message in, its reply's result out.
 * @typedef {(message: any) => Promise<{ ok: any, err?: undefined } | { err: ErrorMsg, ok?: undefined }>} Ask
 */

/** Matches asked per `ListPage` (the server caps it at its own page size). */
export const PAGE_LIMIT = 50;
/** Pages a list follows at most. */
export const MAX_PAGES = 20;

/**
 * The matches not over, page by page (`ListPage`, following `next` until null, at most
 * `MAX_PAGES` pages): the listed ones, or with `live` (an arbiter) every one. `more` says the
 * server had more than the pages followed.
 * @param {Ask} ask
 * @param {boolean} live
 * @returns {Promise<{ ok: { matches: MatchSummary[], more: boolean }, err?: undefined } | { err: ErrorMsg, ok?: undefined }>}
 */
export async function listAll(ask, live) {
  /** @type {MatchSummary[]} */
  const matches = [];
  /** @type {number | null} */
  let after = null;
  for (let page = 0; page < MAX_PAGES; page++) {
    const r = await ask(msg.listPage(after, PAGE_LIMIT, live));
    if (r.err) return { err: r.err };
    /** @type {MatchPageReply["MatchPage"] | undefined} */
    const p = r.ok?.MatchPage;
    if (!p) return { err: badReply("the server did not answer with a page of matches") };
    matches.push(...p.matches);
    if (p.next === null || p.next === undefined) return { ok: { matches, more: false } };
    if (after !== null && p.next <= after) return { err: badReply("the server's pages of matches do not advance") };
    after = p.next;
  }
  return { ok: { matches, more: true } };
}

/**
 * A match record's whole BPGN, asked in parts (`RecordPart` from byte 0, each next part at the
 * previous `offset` + the byte length of its text, until that reaches `total`): a record longer
 * than one frame does not come whole from `Record`.
 * @param {Ask} ask
 * @param {number} matchId
 * @returns {Promise<{ ok: string, err?: undefined } | { err: ErrorMsg, ok?: undefined }>}
 */
export async function fetchRecord(ask, matchId) {
  const utf8 = new TextEncoder();
  /** @type {string[]} */
  const parts = [];
  let offset = 0;
  for (;;) {
    const r = await ask(msg.recordPart(matchId, offset));
    if (r.err) return { err: r.err };
    /** @type {RecordPartReply["RecordPart"] | undefined} */
    const p = r.ok?.RecordPart;
    if (!p || p.offset !== offset) return { err: badReply("the server's record parts do not fit together") };
    parts.push(p.text);
    const end = offset + utf8.encode(p.text).length;
    if (end >= p.total) return { ok: parts.join("") };
    if (end === offset) return { err: badReply("the server sent an empty part of the record") };
    offset = end;
  }
}

/**
 * A match's whole stored log for review, asked page by page (`Review`).
 * @param {Ask} ask
 * @param {number} matchId
 * @returns {Promise<{ ok: { match_id: number, rules: string, time_control: string, events: import("./match-state.js").EventMsg[] }, err?: undefined } | { err: ErrorMsg, ok?: undefined }>}
 */
export async function fetchReview(ask, matchId) {
  /** @type {import("./match-state.js").EventMsg[]} */
  const events = [];
  /** @type {number | null} */
  let after = null;
  for (;;) {
    const r = await ask(msg.review(matchId, after));
    if (r.err) return { err: r.err };
    /** @type {ReviewReply["Review"] | undefined} */
    const page = r.ok?.Review;
    if (!page || page.match_id !== matchId) return { err: badReply("the server's review pages do not fit together") };
    events.push(...page.events);
    if (page.next === null) return { ok: { match_id: matchId, rules: page.rules, time_control: page.time_control, events } };
    if (after !== null && page.next <= after) return { err: badReply("the server's review pages do not advance") };
    after = page.next;
  }
}

/**
 * A reply that does not fit the request (a local failure, shown as a problem).
 * @param {string} message
 * @returns {ErrorMsg}
 */
function badReply(message) {
  return { code: "BadReply", rule: null, message };
}

/**
 * `Reply` of the protocol: the `Ok` of a reply's result.
 * @typedef {"Ok" | { Matches: MatchSummary[] } | { Created: { match_id: number } } | { Record: { bpgn: string } }
 *   | { Id: number } | { Text: string } | { Assigned: { game: [number, Seat] | null, finished: boolean } }
 *   | { Legal: string[] } | MatchPageReply | RecordPartReply
 *   | { LoggedIn: { name: string, token: string, bot: boolean, roles: string[] } }
 *   | { Invited: { match_id: number, code: string } }
 *   | { Rematch: RematchView } | ReviewReply
 *   | { Recent: import("./recent.js").RecentMatch[] }
 *   | { Leaderboard: { category: string, rows: LeaderRow[] } }
 *   | { Profile: ProfileView }
 *   | { Seek: SeekView } | { SeekPools: SeekPool[] }
 *   | { TournamentPage: { tournaments: TournamentSummary[], next: number | null } }
 *   | { TournamentRound: RoundView }
 *   | { Roles: { roles: string[] } }
 *   | { Analysis: AnalysisView } | { RecordReview: RecordReview }
 *   | { Games: { bpgn: string, games: number, next: number | null } }} Reply
 */

/** @typedef {"LeaseLost"} ElsewhereReason  why a node of a cluster let the followed match go (version 11) */

/**
 * `ServerMsg` of the protocol: what `decode` reads (as `{ kind, body }`).
 * @typedef {{ Welcome: { version: number, token: string, resumed: boolean, server_time_us: number } }
 *   | { Refused: { reason: string } }
 *   | { SessionRefused: ErrorMsg }
 *   | { ResumeElsewhere: { match_id: number, reason: ElsewhereReason } }
 *   | { Pong: { nonce: number, server_time_us: number } }
 *   | { Reply: { req: number, result: { Ok: Reply } | { Err: ErrorMsg } } }
 *   | { State: import("./match-state.js").StateMsg }
 *   | { Event: import("./match-state.js").EventMsg }
 *   | { Chat: import("./chat.js").ChatMsg }
 *   | { MatchClosed: MatchClosedMsg }
 *   | { Rematch: RematchView }
 *   | { SessionEnded: { reason: SessionEnd } }
 *   | { Rated: { match_id: number, changes: RatingChange[] } }
 *   | { SeekInvitation: SeekView } | { Seek: SeekView }
 *   | { SeekEnded: { seek: number, reason: SeekEnd } }
 *   | { MatchFound: { seek: number, match_id: number, seat: Seat, rated: boolean } }
 *   | { Tournament: { change: TourChange, view: TournamentView } }} ServerMsg
 */

/**
 * Reads a server message: `{ kind, body }` (`body` is null for a unit variant).
 * @param {string} text
 * @returns {{ kind: string, body: any }}
 */
export function decode(text) {
  const value = JSON.parse(text);
  if (typeof value === "string") return { kind: value, body: null };
  const keys = Object.keys(value);
  if (keys.length !== 1) throw new Error(`not a server message: ${text.slice(0, 80)}`);
  return { kind: keys[0], body: value[keys[0]] };
}

/**
 * Writes a message read by `decode` back as text (the Rust encoding, key order kept).
 * @param {{ kind: string, body: any }} message
 */
export function encode({ kind, body }) {
  return body === null ? JSON.stringify(kind) : JSON.stringify({ [kind]: body });
}

/**
 * A reply's result: `{ ok: reply }` or `{ err: {code, rule, message} }`.
 * @param {{ req: number, result: { Ok: any } | { Err: ErrorMsg } }} replyBody
 * @returns {{ ok: any, err?: undefined } | { err: ErrorMsg, ok?: undefined }}
 */
export function result(replyBody) {
  const r = replyBody.result;
  return "Ok" in r ? { ok: r.Ok } : { err: r.Err };
}

/** Arbiter acts (`ArbiterRequest`), for `msg.arbiterAct(match_id, act)`. */
export const act = {
  pause: () => "Pause",
  resume: () => "Resume",
  adjustClock: (/** @type {Seat} */ seat, /** @type {number} */ delta_ms) => ({ AdjustClock: { seat, delta_ms } }),
  takeBack: (/** @type {BoardId} */ board) => ({ TakeBack: { board } }),
  setPosition: (/** @type {string} */ bfen) => ({ SetPosition: { bfen } }),
  declareResult: (/** @type {Team | null} */ winner, /** @type {string} */ reason) => ({
    DeclareResult: { winner, reason },
  }),
  annul: (/** @type {string} */ reason) => ({ Annul: { reason } }),
  replay: (/** @type {ReplayReason} */ reason, /** @type {string} */ note = "") => ({ Replay: { reason, note } }),
};

/** Claims (`ClaimKind`), for `msg.claim(kind)`. */
export const claims = {
  repetition: () => "Repetition",
  fiftyMoves: () => "FiftyMoves",
  flag: (/** @type {Seat} */ seat) => ({ Flag: seat }),
};

/**
 * An integer typed by the user, if it is one the server can read and lies within `[min, max]`
 * (a JSON number like 1e+30 is refused by the server, which then closes the link); else null.
 * @param {string} text
 * @param {number} min
 * @param {number} max
 * @returns {number | null}
 */
export function wholeNumberIn(text, min, max) {
  const t = String(text).trim();
  if (!/^[+-]?\d+(\.\d+)?$/.test(t)) return null;
  const n = Number(t);
  if (!Number.isSafeInteger(n) || n < min || n > max) return null;
  return n;
}
