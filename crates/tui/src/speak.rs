//! What the server says, in the player's language: every refusal, result, pause and arbiter act
//! is rendered here from its typed code and parameters (the catalogue has the words), never from
//! the English text the server sends beside them. One function per kind of message; the matches
//! are exhaustive, so a new code in the protocol does not compile until it has its words.
//!
//! Since protocol version 9 a match's refusal (`MatchRefusal`: an illegal move with its board,
//! square and piece), what a person typed wrong (`Invalid`), a refused session (`SessionRefusal`),
//! what the state refuses (`Busy`) and a result's cause (`ResultCause`) are all facts. Where a
//! message still carries only words (the handshake of another protocol version, a result stored
//! before version 9), the code and the rule id are rendered with the rule's title; only when
//! there is neither is the server's own text shown.

use std::time::Duration;

use chess_core::Role;
use shvedka_client::ClientError;
use shvedka_proto::{
    ArbiterRequest, Board, Busy, ChoiceKind, ClaimRefusal, ClosedReason, Colour, DrawHow, ElsewhereReason,
    ErrorCode, ErrorMsg, IllegalMove, Invalid, Limit, MatchId, MatchRefusal, MoveText, OfficialRefusal,
    OfficialRole, PauseReason, PhaseView, PieceKind, PlayerKind, PositionRefusal, RatingChange, ReplayReason,
    ResultCause, ResultView, SeatId, SeekEnd, SessionEnd, SessionRefusal, TakeBackRefusal, TeamId, TourGame,
    TourRefusal,
};

use crate::Action;
use crate::i18n::{Lang, attribute, t};

/// A seat as the player reads it: `white-A`, «белые A».
pub fn seat(lang: Lang, seat: SeatId) -> String {
    match seat {
        SeatId::WhiteA => t!(lang, "seat-white-a"),
        SeatId::BlackA => t!(lang, "seat-black-a"),
        SeatId::WhiteB => t!(lang, "seat-white-b"),
        SeatId::BlackB => t!(lang, "seat-black-b"),
    }
}

/// A seat in the genitive, where the language has one (`white-A`, «белых A»): the catalogue's
/// `.of` form of the seat.
pub fn seat_of(lang: Lang, seat: SeatId) -> String {
    let id = match seat {
        SeatId::WhiteA => "seat-white-a",
        SeatId::BlackA => "seat-black-a",
        SeatId::WhiteB => "seat-white-b",
        SeatId::BlackB => "seat-black-b",
    };
    attribute(lang, id, "of")
}

/// A board's letter (`A`, `B`: the same in both languages, as the records write it).
pub fn board(b: Board) -> &'static str {
    match b {
        Board::A => "A",
        Board::B => "B",
    }
}

/// `team 1`, «команда 1».
pub fn team(lang: Lang, team: TeamId) -> String {
    t!(lang, "team", n = team_number(team))
}

/// `team 1: white-A + black-B`.
pub fn team_with_seats(lang: Lang, team: TeamId) -> String {
    let [first, second] = match team {
        TeamId::One => [SeatId::WhiteA, SeatId::BlackB],
        TeamId::Two => [SeatId::BlackA, SeatId::WhiteB],
    };
    t!(lang, "team-with-seats", n = team_number(team), first = seat(lang, first), second = seat(lang, second))
}

fn team_number(team: TeamId) -> u32 {
    match team {
        TeamId::One => 1,
        TeamId::Two => 2,
    }
}

/// What kind of player a name is, as a mark after it (`(guest)`, `(bot)`); nothing for an
/// account.
pub fn kind_mark(lang: Lang, kind: Option<PlayerKind>) -> Option<String> {
    match kind {
        Some(PlayerKind::Guest) => Some(t!(lang, "kind-guest")),
        Some(PlayerKind::Bot) => Some(t!(lang, "kind-bot")),
        Some(PlayerKind::Account) | None => None,
    }
}

/// A name with its kind mark: `anna (guest)`, «sputnik (бот)».
pub fn marked(lang: Lang, name: &str, kind: Option<PlayerKind>) -> String {
    match kind_mark(lang, kind) {
        Some(mark) => format!("{name} {mark}"),
        None => name.to_owned(),
    }
}

/// Where a match is.
pub fn phase(lang: Lang, p: PhaseView) -> String {
    match p {
        PhaseView::Forming => t!(lang, "phase-forming"),
        PhaseView::Countdown => t!(lang, "phase-countdown"),
        PhaseView::Running => t!(lang, "phase-running"),
        PhaseView::Paused => t!(lang, "phase-paused"),
        PhaseView::Ended => t!(lang, "phase-ended"),
        PhaseView::Annulled => t!(lang, "phase-annulled"),
    }
}

/// A piece's name: `knight`, «конь».
pub fn piece(lang: Lang, role: Role) -> String {
    match role {
        Role::Pawn => t!(lang, "piece-pawn"),
        Role::Knight => t!(lang, "piece-knight"),
        Role::Bishop => t!(lang, "piece-bishop"),
        Role::Rook => t!(lang, "piece-rook"),
        Role::Queen => t!(lang, "piece-queen"),
        Role::King => t!(lang, "piece-king"),
    }
}

/// A piece of the protocol by its name: `knight`, «конь».
pub fn piece_kind(lang: Lang, p: PieceKind) -> String {
    piece(lang, role(p))
}

/// A piece in the genitive, where the language has one (`knight`, «коня»).
pub fn piece_of(lang: Lang, p: PieceKind) -> String {
    let id = match p {
        PieceKind::Pawn => "piece-pawn",
        PieceKind::Knight => "piece-knight",
        PieceKind::Bishop => "piece-bishop",
        PieceKind::Rook => "piece-rook",
        PieceKind::Queen => "piece-queen",
        PieceKind::King => "piece-king",
    };
    attribute(lang, id, "of")
}

fn role(p: PieceKind) -> Role {
    match p {
        PieceKind::Pawn => Role::Pawn,
        PieceKind::Knight => Role::Knight,
        PieceKind::Bishop => Role::Bishop,
        PieceKind::Rook => Role::Rook,
        PieceKind::Queen => Role::Queen,
        PieceKind::King => Role::King,
    }
}

/// The title of a RULES.md rule (`E1` → `mate on board`), if the catalogue has one. Rule ids are
/// identifiers and stay as they are in every language.
pub fn rule_title(lang: Lang, rule: &str) -> Option<String> {
    Some(match rule {
        "FIDE" => t!(lang, "rule-FIDE"),
        "S1" => t!(lang, "rule-S1"),
        "S2" => t!(lang, "rule-S2"),
        "S3" => t!(lang, "rule-S3"),
        "S4" => t!(lang, "rule-S4"),
        "C1" => t!(lang, "rule-C1"),
        "C2" => t!(lang, "rule-C2"),
        "P1" => t!(lang, "rule-P1"),
        "P2" => t!(lang, "rule-P2"),
        "P3" => t!(lang, "rule-P3"),
        "P4" => t!(lang, "rule-P4"),
        "P5" | "P5a" => t!(lang, "rule-P5"),
        "R1" => t!(lang, "rule-R1"),
        "R2" => t!(lang, "rule-R2"),
        "R3" => t!(lang, "rule-R3"),
        "R4" => t!(lang, "rule-R4"),
        "R5" => t!(lang, "rule-R5"),
        "R6" => t!(lang, "rule-R6"),
        "R7" => t!(lang, "rule-R7"),
        "M1" => t!(lang, "rule-M1"),
        "M2" => t!(lang, "rule-M2"),
        "M3" => t!(lang, "rule-M3"),
        "M4" => t!(lang, "rule-M4"),
        "E1" => t!(lang, "rule-E1"),
        "E2" => t!(lang, "rule-E2"),
        "E3" => t!(lang, "rule-E3"),
        "E4" => t!(lang, "rule-E4"),
        "E5" => t!(lang, "rule-E5"),
        "E6" => t!(lang, "rule-E6"),
        "E7" => t!(lang, "rule-E7"),
        "E8" => t!(lang, "rule-E8"),
        "E9" => t!(lang, "rule-E9"),
        "E10" => t!(lang, "rule-E10"),
        "K1" => t!(lang, "rule-K1"),
        "K2" => t!(lang, "rule-K2"),
        "K3" => t!(lang, "rule-K3"),
        "K4" => t!(lang, "rule-K4"),
        "K5" => t!(lang, "rule-K5"),
        "K6" => t!(lang, "rule-K6"),
        "A1" => t!(lang, "rule-A1"),
        "A1a" => t!(lang, "rule-A1a"),
        "A2" => t!(lang, "rule-A2"),
        "A3" => t!(lang, "rule-A3"),
        "A4" => t!(lang, "rule-A4"),
        "A5" => t!(lang, "rule-A5"),
        "A6" => t!(lang, "rule-A6"),
        _ => return None,
    })
}

/// A rule as a reason: `mate on board (E1)`; a rule without a title is its id alone.
pub fn rule_reason(lang: Lang, rule: &str) -> Option<String> {
    rule_title(lang, rule).map(|title| t!(lang, "rule-with-id", title = title, rule = rule))
}

/// A decided match: who won and why, with the rule (`team 2 wins: white-A resigned (E10)`).
pub fn result(lang: Lang, r: &ResultView) -> String {
    // Its cause says why; a result stored before protocol version 9 has none, and then the rule's
    // title does; the server's words only for a rule the catalogue does not know.
    let why = match r.cause {
        Some(cause) => t!(lang, "rule-with-id", title = result_cause(lang, cause), rule = r.rule.as_str()),
        None => rule_reason(lang, &r.rule).unwrap_or_else(|| r.reason.clone()),
    };
    let said = match r.winner {
        Some(winner) => t!(lang, "result-win", team = team(lang, winner), why = why),
        None => t!(lang, "result-draw", why = why),
    };
    // The arbiter's own words, as he wrote them (A2).
    let said = match r.note.as_deref().filter(|n| !n.is_empty()) {
        Some(note) => t!(lang, "result-with-note", result = said, note = note),
        None => said,
    };
    // The other rules that decided it (a flag's window, the weighing of E1–E9).
    let also: Vec<&str> = r.rules.iter().map(String::as_str).filter(|id| *id != r.rule).collect();
    if also.is_empty() { said } else { t!(lang, "result-also", result = said, rules = also.join(", ")) }
}

/// How a match was decided, from its cause.
pub fn result_cause(lang: Lang, cause: ResultCause) -> String {
    match cause {
        ResultCause::MateOnBoard { seat: s } => t!(lang, "cause-mate-on-board", seat = seat(lang, s)),
        ResultCause::MutualMate => t!(lang, "cause-mutual-mate"),
        ResultCause::BoardDrawn { board: b, how } => {
            let b = board(b);
            match how {
                DrawHow::Agreement => t!(lang, "cause-draw-agreement", board = b),
                DrawHow::Repetition => t!(lang, "cause-draw-repetition", board = b),
                DrawHow::FiftyMoves => t!(lang, "cause-draw-fifty-moves", board = b),
                DrawHow::Stalemate => t!(lang, "cause-draw-stalemate", board = b),
                DrawHow::Arbiter => t!(lang, "cause-draw-arbiter", board = b),
            }
        }
        ResultCause::Flag { seat: s } => {
            t!(lang, "cause-flag", seat = seat(lang, s), seat_of = seat_of(lang, s))
        }
        ResultCause::FlagsOfBothTeams => t!(lang, "cause-flags-of-both-teams"),
        ResultCause::Resignation { seat: s } => t!(lang, "cause-resignation", seat = seat(lang, s)),
        ResultCause::Arbiter => t!(lang, "cause-arbiter"),
    }
}

/// The line `shvedka play` prints on leaving after a match: `last match: team 2 wins: …`.
pub fn last_match(lang: Lang, r: &ResultView) -> String {
    t!(lang, "last-match", result = result(lang, r))
}

/// The lines `shvedka demo` prints after its full screen: the result (with the winning team's
/// seats) and where the record is.
pub fn demo_end(lang: Lang, r: Option<&ResultView>, record: &str) -> [String; 2] {
    let result = match r {
        Some(r) => {
            let mut text = result(lang, r);
            if let Some(team) = r.winner {
                text = format!("{text} · {}", team_with_seats(lang, team));
            }
            t!(lang, "demo-result", result = text)
        }
        None => t!(lang, "demo-annulled"),
    };
    [result, t!(lang, "demo-record", path = record)]
}

/// A refusal of the server (`ErrorMsg`), from its code.
pub fn error(lang: Lang, e: &ErrorMsg) -> String {
    let detail = e.message.as_str();
    match e.code {
        // A malformed request (a client's bug) is said as such; `Rejected` (no longer sent) by
        // its rule's title, else the words of the older server that sent it.
        ErrorCode::BadRequest => t!(lang, "error-bad-request"),
        ErrorCode::Rejected => match e.rule.as_deref().and_then(|r| rule_reason(lang, r)) {
            Some(why) => t!(lang, "error-rejected", why = why),
            None => t!(lang, "error-rejected", why = detail),
        },
        ErrorCode::Handshake => t!(lang, "error-handshake"),
        ErrorCode::NoSuchMatch => t!(lang, "error-no-such-match"),
        ErrorCode::NotInMatch => t!(lang, "error-not-in-match"),
        ErrorCode::RateLimited => t!(lang, "error-rate-limited"),
        ErrorCode::Full => t!(lang, "error-full"),
        ErrorCode::Forbidden => t!(lang, "error-forbidden"),
        ErrorCode::TooLarge => t!(lang, "error-too-large"),
        ErrorCode::Unavailable => t!(lang, "error-unavailable"),
        ErrorCode::Limit(l) => limit(lang, l),
        ErrorCode::BadCredentials => t!(lang, "error-bad-credentials"),
        ErrorCode::NameTaken => t!(lang, "error-name-taken"),
        ErrorCode::LoginRequired => t!(lang, "error-login-required"),
        ErrorCode::AccountDisabled => t!(lang, "error-account-disabled"),
        ErrorCode::NoSuchAccount => t!(lang, "error-no-such-account"),
        ErrorCode::NotRatable => t!(lang, "error-not-ratable"),
        ErrorCode::NoSuchSeek => t!(lang, "error-no-such-seek"),
        ErrorCode::Tournament(r) => tour_refusal(lang, r),
        ErrorCode::Match(r) => {
            t!(lang, "error-rejected", why = with_rule(lang, match_refusal(lang, r), r.rule()))
        }
        ErrorCode::Invalid(r) => invalid(lang, r),
        ErrorCode::Session(r) => session_refusal(lang, r),
        ErrorCode::Busy(r) => busy(lang, r),
        ErrorCode::Official(r) => official_refusal(lang, r),
        ErrorCode::Unencrypted => t!(lang, "error-unencrypted"),
        ErrorCode::StorageFull => t!(lang, "error-storage-full"),
    }
}

/// A reason with the rule it rests on, where there is one: `not your turn (K1)`.
fn with_rule(lang: Lang, why: String, rule: Option<&str>) -> String {
    match rule {
        Some(rule) => t!(lang, "rule-with-id", title = why, rule = rule),
        None => why,
    }
}

/// Why a match refused a request (without its rule id: [`MatchRefusal::rule`] has it).
pub fn match_refusal(lang: Lang, r: MatchRefusal) -> String {
    match r {
        MatchRefusal::NotSeated => t!(lang, "match-not-seated"),
        MatchRefusal::SeatTaken { seat: s } => t!(lang, "match-seat-taken", seat = seat(lang, s)),
        MatchRefusal::AlreadySeated { seat: s } => t!(lang, "match-already-seated", seat = seat(lang, s)),
        MatchRefusal::SeatsLocked => t!(lang, "match-seats-locked"),
        MatchRefusal::NotStarted => t!(lang, "match-not-started"),
        MatchRefusal::Paused => t!(lang, "match-paused"),
        MatchRefusal::NotPaused => t!(lang, "match-not-paused"),
        MatchRefusal::Over => t!(lang, "match-over-already"),
        MatchRefusal::NotYourBoard { seat: s, board: b } => {
            t!(lang, "match-not-your-board", seat = seat(lang, s), board = board(b))
        }
        MatchRefusal::NotYourTurn { .. } => t!(lang, "match-not-your-turn"),
        MatchRefusal::FlagFell { seat: s } => {
            t!(lang, "match-flag-fell", seat = seat(lang, s), seat_of = seat_of(lang, s))
        }
        MatchRefusal::AlreadyOffered => t!(lang, "match-already-offered"),
        MatchRefusal::NoDrawOffer => t!(lang, "match-no-draw-offer"),
        MatchRefusal::Illegal { board: b, why } => {
            t!(lang, "match-illegal", board = board(b), why = illegal_move(lang, why))
        }
        MatchRefusal::Unreadable { board: b, why } => {
            t!(lang, "match-unreadable", board = board(b), why = move_text(lang, why))
        }
        MatchRefusal::Claim(c) => claim_refusal(lang, c),
        MatchRefusal::TakeBack(r) => take_back_refusal(lang, r),
        MatchRefusal::Position(r) => position_refusal(lang, r),
        MatchRefusal::NoArbiter => t!(lang, "match-no-arbiter"),
    }
}

/// Why a move is illegal (without its rule id: [`IllegalMove::rule`] has it).
pub fn illegal_move(lang: Lang, why: IllegalMove) -> String {
    match why {
        IllegalMove::Chess { in_check: false } => t!(lang, "rule-FIDE"),
        IllegalMove::Chess { in_check: true } => t!(lang, "illegal-in-check"),
        IllegalMove::NotInReserve { seat: s, piece } => t!(
            lang,
            "illegal-not-in-reserve",
            seat = seat(lang, s),
            seat_of = seat_of(lang, s),
            piece = piece_kind(lang, piece),
            piece_of = piece_of(lang, piece)
        ),
        IllegalMove::Occupied { square } => t!(lang, "illegal-occupied", square = square.to_string()),
        IllegalMove::DropLeavesCheck => t!(lang, "illegal-drop-leaves-check"),
        IllegalMove::PawnRank { first, last } => t!(lang, "illegal-pawn-rank", first = first, last = last),
        IllegalMove::DropMates => t!(lang, "rule-P3"),
        IllegalMove::NotRemovable { square, board: b, crosswise } => t!(
            lang,
            "illegal-not-removable",
            square = square.to_string(),
            board = board(b),
            crosswise = seat(lang, crosswise)
        ),
        IllegalMove::RemovalLeavesIllegal { square, board: b, piece } => t!(
            lang,
            "illegal-removal-leaves-illegal",
            square = square.to_string(),
            board = board(b),
            piece = piece_kind(lang, piece)
        ),
        IllegalMove::MustRemove { crosswise } => {
            t!(lang, "illegal-must-remove", crosswise = seat(lang, crosswise))
        }
        IllegalMove::VanishingLeavesCheck => t!(lang, "illegal-vanishing-leaves-check"),
        IllegalMove::WrongPiece { square, board: b, piece } => t!(
            lang,
            "illegal-wrong-piece",
            square = square.to_string(),
            board = board(b),
            piece = piece_kind(lang, piece)
        ),
    }
}

/// What is wrong with a move's text (R7).
pub fn move_text(lang: Lang, why: MoveText) -> String {
    match why {
        MoveText::NotAMove => t!(lang, "text-not-a-move"),
        MoveText::RemovalSquareMissing => t!(lang, "text-removal-square-missing"),
        MoveText::SquareAfterMove => t!(lang, "text-square-after-move"),
        MoveText::Ambiguous => t!(lang, "text-ambiguous"),
    }
}

/// Why a claim does not hold.
pub fn claim_refusal(lang: Lang, c: ClaimRefusal) -> String {
    match c {
        ClaimRefusal::Repetition { board: b, seen, needed } => {
            t!(lang, "claim-repetition", board = board(b), seen = seen, needed = needed)
        }
        ClaimRefusal::FiftyMoves { board: b, halfmoves, needed } => {
            t!(lang, "claim-fifty-moves", board = board(b), halfmoves = halfmoves, needed = needed)
        }
        ClaimRefusal::FlagsFallByThemselves => t!(lang, "claim-flags-fall-by-themselves"),
        ClaimRefusal::OwnTeamFlag { seat: s } => {
            t!(lang, "claim-own-team-flag", seat = seat(lang, s), seat_of = seat_of(lang, s))
        }
        ClaimRefusal::FlagNotFallen { seat: s } => {
            t!(lang, "claim-flag-not-fallen", seat = seat(lang, s), seat_of = seat_of(lang, s))
        }
    }
}

/// Why the arbiter's take-back cannot be done.
pub fn take_back_refusal(lang: Lang, r: TakeBackRefusal) -> String {
    match r {
        TakeBackRefusal::NoMove { board: b } => t!(lang, "take-back-no-move", board = board(b)),
        TakeBackRefusal::ChangedSince { board: b } => t!(lang, "take-back-changed-since", board = board(b)),
        TakeBackRefusal::PieceDropped { piece, board: b } => {
            t!(lang, "take-back-piece-dropped", piece = piece_kind(lang, piece), board = board(b))
        }
        TakeBackRefusal::SquareOccupied { square, board: b, piece } => t!(
            lang,
            "take-back-square-occupied",
            square = square.to_string(),
            board = board(b),
            piece = piece_kind(lang, piece)
        ),
        TakeBackRefusal::WouldBeIllegal { board: b } => {
            t!(lang, "take-back-would-be-illegal", board = board(b))
        }
    }
}

/// Why the arbiter's corrected position is not acceptable.
pub fn position_refusal(lang: Lang, r: PositionRefusal) -> String {
    match r {
        PositionRefusal::Unreadable => t!(lang, "position-unreadable"),
        PositionRefusal::Units { colour, was, would } => {
            let colour = match colour {
                Colour::White => t!(lang, "colour-white"),
                Colour::Black => t!(lang, "colour-black"),
            };
            t!(lang, "position-units", colour = colour, was = was, would = would)
        }
    }
}

/// What was wrong with what the person typed.
pub fn invalid(lang: Lang, r: Invalid) -> String {
    match r {
        Invalid::TimeControl => t!(lang, "invalid-time-control"),
        Invalid::RulePreset => t!(lang, "invalid-rule-preset"),
        Invalid::BotLevel { min, max } => t!(lang, "invalid-bot-level", min = min, max = max),
        Invalid::SamePartner => t!(lang, "invalid-same-partner"),
        Invalid::AccountName { min, max } => t!(lang, "invalid-account-name", min = min, max = max),
        Invalid::Password { min, max } => t!(lang, "invalid-password", min = min, max = max),
        Invalid::GuestName { max } => t!(lang, "invalid-guest-name", max = max),
        Invalid::ChatText => t!(lang, "invalid-chat-text"),
        Invalid::NoteLength { max } => t!(lang, "invalid-note-length", max = max),
        Invalid::RatingCategory => t!(lang, "invalid-rating-category"),
        Invalid::BotTooLate => t!(lang, "invalid-bot-too-late"),
        Invalid::Position => t!(lang, "invalid-position"),
        Invalid::Record => t!(lang, "invalid-record"),
        Invalid::RecordAt { line, column } => t!(lang, "invalid-record-at", line = line, column = column),
        Invalid::NoSuchGame { games } => t!(lang, "invalid-no-such-game", games = games),
    }
}

/// Why a session was not opened.
pub fn session_refusal(lang: Lang, r: SessionRefusal) -> String {
    match r {
        SessionRefusal::NotHello => t!(lang, "session-not-hello"),
        SessionRefusal::UnknownToken => t!(lang, "session-unknown-token"),
        SessionRefusal::Expired { days } => t!(lang, "session-expired", days = days),
        SessionRefusal::LoggedOut => t!(lang, "session-logged-out"),
        SessionRefusal::AccountDisabled => t!(lang, "session-account-disabled"),
        SessionRefusal::NameRegistered => t!(lang, "session-name-registered"),
        SessionRefusal::TooManyGuests => t!(lang, "session-too-many-guests"),
        SessionRefusal::ConnectionLost => t!(lang, "session-connection-lost"),
    }
}

/// What the state of things refuses.
pub fn busy(lang: Lang, r: Busy) -> String {
    match r {
        Busy::Started => t!(lang, "busy-started"),
        Busy::Playing => t!(lang, "busy-playing"),
        Busy::AlreadySeeking => t!(lang, "busy-already-seeking"),
        Busy::PartnerSeeking => t!(lang, "busy-partner-seeking"),
        Busy::NotOver => t!(lang, "busy-not-over"),
        Busy::RematchDeclined => t!(lang, "busy-rematch-declined"),
        Busy::Reserved => t!(lang, "busy-reserved"),
    }
}

/// Why a request that needs an official was refused.
pub fn official_refusal(lang: Lang, r: OfficialRefusal) -> String {
    let role = |role| match role {
        OfficialRole::Arbiter => t!(lang, "official-arbiter"),
        OfficialRole::Director => t!(lang, "official-director"),
    };
    let key = |role| match role {
        OfficialRole::Arbiter => "arbiter_token",
        OfficialRole::Director => "director_token",
    };
    match r {
        OfficialRefusal::Needed { role: r } => t!(lang, "official-needed", role = role(r)),
        OfficialRefusal::WrongSecret { role: r } => t!(lang, "official-wrong-secret", role = role(r)),
        OfficialRefusal::SecretDiffers { role: r } => {
            t!(lang, "official-secret-differs", role = role(r), key = key(r))
        }
    }
}

/// The longest chat message (proto's `Limit::ChatLength`).
const CHAT_LENGTH: u32 = 500;

/// A documented limit of the server that refused a request.
pub fn limit(lang: Lang, l: Limit) -> String {
    match l {
        Limit::Matches => t!(lang, "limit-matches"),
        Limit::OpenMatches => t!(lang, "limit-open-matches"),
        Limit::ChatLength => t!(lang, "limit-chat-length", max = CHAT_LENGTH),
        Limit::Bots => t!(lang, "limit-bots"),
        Limit::LoginAttempts => t!(lang, "limit-login-attempts"),
        Limit::Seeks => t!(lang, "limit-seeks"),
        Limit::SeekPool => t!(lang, "limit-seek-pool"),
        Limit::Registrations => t!(lang, "limit-registrations"),
        Limit::TournamentTeams => {
            t!(lang, "limit-tournament-teams", max = shvedka_proto::TOURNAMENT_TEAMS as u32)
        }
        Limit::Analyses => t!(lang, "limit-analyses"),
        Limit::Connections => t!(lang, "limit-connections"),
        Limit::ConnectionsPerAddress => t!(lang, "limit-connections-per-address"),
    }
}

fn tour_game(lang: Lang, g: TourGame) -> String {
    t!(lang, "tour-game", round = g.round, table = g.table, game = g.game)
}

fn choice_kind(lang: Lang, c: ChoiceKind) -> String {
    match c {
        ChoiceKind::Seating => t!(lang, "choice-seating"),
        ChoiceKind::Colours => t!(lang, "choice-colours"),
    }
}

/// A refused tournament request.
pub fn tour_refusal(lang: Lang, r: TourRefusal) -> String {
    match r {
        TourRefusal::NoSuchTournament => t!(lang, "tour-no-such-tournament"),
        TourRefusal::InvalidName { max } => t!(lang, "tour-invalid-name", max = max),
        TourRefusal::SamePlayerTwice => t!(lang, "tour-same-player-twice"),
        TourRefusal::DuplicateTeamName => t!(lang, "tour-duplicate-team-name"),
        TourRefusal::TooManyTeams { max } => t!(lang, "tour-too-many-teams", max = max),
        TourRefusal::BadSeeding => t!(lang, "tour-bad-seeding"),
        TourRefusal::NoSwissRounds => t!(lang, "tour-no-swiss-rounds"),
        TourRefusal::AlreadyStarted => t!(lang, "tour-already-started"),
        TourRefusal::NotStarted => t!(lang, "tour-not-started"),
        TourRefusal::TooFewTeams { active } => t!(lang, "tour-too-few-teams", active = active),
        TourRefusal::UnknownTeam { team } => t!(lang, "tour-unknown-team", team = team),
        TourRefusal::AlreadyWithdrawn { team } => t!(lang, "tour-already-withdrawn", team = team),
        TourRefusal::RoundIncomplete { round } => t!(lang, "tour-round-incomplete", round = round),
        TourRefusal::NoRoundsLeft { rounds } => t!(lang, "tour-no-rounds-left", rounds = rounds),
        TourRefusal::UnknownRound { round } => t!(lang, "tour-unknown-round", round = round),
        TourRefusal::UnknownTable { round, table } => {
            t!(lang, "tour-unknown-table", round = round, table = table)
        }
        TourRefusal::UnknownGame { game } => t!(lang, "tour-unknown-game", game = game),
        TourRefusal::Bye { round, table } => t!(lang, "tour-bye", round = round, table = table),
        TourRefusal::NotPaired { round, team } => t!(lang, "tour-not-paired", round = round, team = team),
        TourRefusal::NotAMember => t!(lang, "tour-not-a-member"),
        TourRefusal::NotYourChoice { game, choice } => {
            t!(lang, "tour-not-your-choice", game = tour_game(lang, game), choice = choice_kind(lang, choice))
        }
        TourRefusal::DeadlinePassed { game, due_ms } => {
            t!(lang, "tour-deadline-passed", game = tour_game(lang, game), time = datetime(lang, due_ms))
        }
        TourRefusal::GameStarted { game } => t!(lang, "tour-game-started", game = tour_game(lang, game)),
        TourRefusal::AlreadyChosen { game, choice } => {
            t!(lang, "tour-already-chosen", game = tour_game(lang, game), choice = choice_kind(lang, choice))
        }
        TourRefusal::ChoicesPending { game } => {
            t!(lang, "tour-choices-pending", game = tour_game(lang, game))
        }
        TourRefusal::AlreadyDecided { game } => {
            t!(lang, "tour-already-decided", game = tour_game(lang, game))
        }
        TourRefusal::NotDecided { game } => t!(lang, "tour-not-decided", game = tour_game(lang, game)),
        TourRefusal::RegistrationClosed => t!(lang, "tour-registration-closed"),
        TourRefusal::AlreadyInTeam => t!(lang, "tour-already-in-team"),
        TourRefusal::NoInvitation => t!(lang, "tour-no-invitation"),
        TourRefusal::CheckInNotRequired => t!(lang, "tour-check-in-not-required"),
        TourRefusal::NotASwiss => t!(lang, "tour-not-a-swiss"),
        TourRefusal::NotInField { team } => t!(lang, "tour-not-in-field", team = team),
        TourRefusal::PlacedTwice { team } => t!(lang, "tour-placed-twice", team = team),
        TourRefusal::GameInPlay { game, match_id } => {
            t!(lang, "tour-game-in-play", game = tour_game(lang, game), id = match_id.0)
        }
        TourRefusal::PlayedOnline { game } => t!(lang, "tour-played-online", game = tour_game(lang, game)),
        TourRefusal::GameTwoStarted { game } => {
            t!(lang, "tour-game-two-started", game = tour_game(lang, game))
        }
    }
}

/// Any failure of a request: the server's refusal from its code, or the connection's.
pub fn client_error(lang: Lang, e: &ClientError) -> String {
    match e {
        ClientError::Server(msg) => error(lang, msg),
        // Another protocol version is the server's words (`Handshake`); the rest has its code.
        ClientError::Refused(why) => t!(lang, "session-refused", detail = error(lang, why)),
        ClientError::Connection(why) => t!(lang, "connection-failed", detail = why.as_str()),
        ClientError::Protocol(why) => t!(lang, "protocol-failed", detail = why.as_str()),
    }
}

/// A session `shvedka play` could not open, before its screen: with whom, and why in the reader's
/// words (the server's refusal by its code); with the hint about certificates when the
/// connection itself failed and no fingerprint was given.
pub fn session_failed(lang: Lang, server: &str, e: &ClientError, fingerprint: bool) -> String {
    let text = t!(lang, "session-open-failed", server = server, detail = client_error(lang, e));
    if matches!(e, ClientError::Connection(_)) && !fingerprint {
        format!("{text} ({})", t!(lang, "session-open-hint"))
    } else {
        text
    }
}

/// The question for an account's password on the terminal.
pub fn password_prompt(lang: Lang, name: &str) -> String {
    t!(lang, "password-prompt", name = name)
}

/// A refused request, said with what the player asked for: a refused move names the move and its
/// board, a refused `/bots` says who may fill a match.
pub fn refused(lang: Lang, action: &Action, e: &ClientError) -> String {
    let ClientError::Server(msg) = e else { return client_error(lang, e) };
    match (action, msg.code) {
        (Action::Play { board: b, text }, ErrorCode::Match(r @ MatchRefusal::Illegal { why, .. })) => t!(
            lang,
            "move-impossible",
            san = text.as_str(),
            board = board(*b),
            why = with_rule(lang, illegal_move(lang, why), r.rule())
        ),
        (Action::Play { board: b, text }, ErrorCode::Match(r @ MatchRefusal::Unreadable { why, .. })) => t!(
            lang,
            "move-unreadable-why",
            san = text.as_str(),
            board = board(*b),
            why = with_rule(lang, move_text(lang, why), r.rule())
        ),
        (Action::Play { board: b, text }, ErrorCode::Match(r)) => t!(
            lang,
            "move-refused",
            san = text.as_str(),
            board = board(*b),
            why = with_rule(lang, match_refusal(lang, r), r.rule())
        ),
        (Action::FillWithBots(..), ErrorCode::Forbidden) => t!(lang, "bots-forbidden"),
        (Action::FillWithBots(..), ErrorCode::NotRatable) => t!(lang, "bots-not-ratable"),
        _ => error(lang, msg),
    }
}

/// Why the server stopped the clocks.
pub fn pause_reason(lang: Lang, reason: PauseReason) -> String {
    match reason {
        PauseReason::Restart => t!(lang, "pause-restart"),
        PauseReason::Shutdown => t!(lang, "pause-shutdown"),
        PauseReason::Storage => t!(lang, "pause-storage"),
    }
}

/// Why a session ended.
pub fn session_end(lang: Lang, reason: SessionEnd) -> String {
    match reason {
        SessionEnd::LoggedOut => t!(lang, "session-logged-out"),
        SessionEnd::PasswordChanged => t!(lang, "session-password-changed"),
        SessionEnd::AccountDisabled => t!(lang, "session-account-disabled"),
    }
}

/// Why a seek ended without a match.
pub fn seek_end(lang: Lang, reason: SeekEnd) -> String {
    match reason {
        SeekEnd::Cancelled => t!(lang, "seek-end-cancelled"),
        SeekEnd::Disconnected => t!(lang, "seek-end-disconnected"),
        SeekEnd::Declined => t!(lang, "seek-end-declined"),
        SeekEnd::Expired => t!(lang, "seek-end-expired"),
        SeekEnd::Failed => t!(lang, "seek-end-failed"),
    }
}

/// Why a followed match closed undecided.
pub fn closed(lang: Lang, id: MatchId, reason: ClosedReason) -> String {
    match reason {
        ClosedReason::Expired => t!(lang, "match-closed-expired", id = id.0),
        ClosedReason::Failed => t!(lang, "match-closed-failed", id = id.0),
        ClosedReason::TakenOver => t!(lang, "match-closed-taken-over", id = id.0),
    }
}

/// Why the server let the followed match go (the client resumes on another node).
pub fn elsewhere(lang: Lang, id: MatchId, reason: ElsewhereReason) -> String {
    match reason {
        ElsewhereReason::LeaseLost => t!(lang, "match-elsewhere-lease-lost", id = id.0),
    }
}

/// An arbiter's act (RULES.md A2, K5), from the act itself; the arbiter's own words (a result's
/// or an annulment's reason) are shown as he wrote them.
pub fn arbiter_act(lang: Lang, act: &ArbiterRequest) -> String {
    match act {
        ArbiterRequest::Pause => t!(lang, "arbiter-paused"),
        ArbiterRequest::Resume => t!(lang, "arbiter-resumed"),
        ArbiterRequest::AdjustClock { seat: s, delta_ms } => {
            let amount = duration_text(lang, Duration::from_millis(delta_ms.unsigned_abs()));
            let sign = if *delta_ms < 0 { "-" } else { "+" };
            t!(lang, "arbiter-clock", seat = seat(lang, *s), delta = format!("{sign}{amount}"))
        }
        ArbiterRequest::TakeBack { board: b } => t!(lang, "arbiter-take-back", board = board(*b)),
        ArbiterRequest::SetPosition { .. } => t!(lang, "arbiter-position"),
        ArbiterRequest::DeclareResult { winner: Some(w), reason } => {
            t!(lang, "arbiter-declared-win", team = team(lang, *w), reason = reason.as_str())
        }
        ArbiterRequest::DeclareResult { winner: None, reason } => {
            t!(lang, "arbiter-declared-draw", reason = reason.as_str())
        }
        ArbiterRequest::Annul { reason } => t!(lang, "arbiter-annulled", reason = reason.as_str()),
        ArbiterRequest::Replay { reason, note } if note.is_empty() => {
            t!(lang, "arbiter-replayed", reason = replay_reason(lang, *reason))
        }
        ArbiterRequest::Replay { reason, note } => {
            t!(lang, "arbiter-replayed-note", reason = replay_reason(lang, *reason), note = note.as_str())
        }
    }
}

/// What `shvedka arbiter` did: the act in words and the match, `the arbiter stopped the clocks
/// (match 4)`.
pub fn arbiter_done(lang: Lang, act: &ArbiterRequest, id: MatchId) -> String {
    t!(lang, "arbiter-done", act = arbiter_act(lang, act), id = id.0)
}

/// A seat as a person types it, in either language: `white-A`, `a-white` (the older spelling),
/// «белые-A», «чёрные B», «черные-b» (a board letter typed in Cyrillic, А or В, too).
pub fn parse_seat(text: &str) -> Option<SeatId> {
    let text = text.trim().to_lowercase();
    if let Some(seat) = SeatId::from_name(&text) {
        return Some(seat);
    }
    let (colour, board) = text.rsplit_once(['-', ' '])?;
    let board = match board {
        "a" | "а" => Board::A,
        "b" | "в" | "б" => Board::B,
        _ => return None,
    };
    let white = match colour.trim() {
        "белые" | "белых" | "white" => true,
        "чёрные" | "черные" | "чёрных" | "черных" | "black" => false,
        _ => return None,
    };
    Some(match (white, board) {
        (true, Board::A) => SeatId::WhiteA,
        (false, Board::A) => SeatId::BlackA,
        (true, Board::B) => SeatId::WhiteB,
        (false, Board::B) => SeatId::BlackB,
    })
}

/// A seat that does not read, in words: `expected white-A, black-A, white-B or black-B`.
pub fn bad_seat(lang: Lang, text: &str) -> String {
    t!(lang, "arbiter-bad-seat", text = text)
}

/// Why a game is played again, with its rule: `wrong initial setup (A5)`.
pub fn replay_reason(lang: Lang, reason: ReplayReason) -> String {
    match reason {
        ReplayReason::WrongSetup => t!(lang, "replay-wrong-setup"),
        ReplayReason::OutsideHint => t!(lang, "replay-outside-hint"),
        ReplayReason::Other => t!(lang, "replay-other"),
    }
}

/// The quick messages of bughouse players travel as their English words (the web client and the
/// bots send the same): shown in the reader's language.
pub fn quick(lang: Lang, text: &str) -> Option<String> {
    Some(match text {
        "need a knight" => t!(lang, "quick-need-knight"),
        "need a bishop" => t!(lang, "quick-need-bishop"),
        "need a rook" => t!(lang, "quick-need-rook"),
        "need a queen" => t!(lang, "quick-need-queen"),
        "need a pawn" => t!(lang, "quick-need-pawn"),
        "sit" => t!(lang, "quick-sit"),
        "go" => t!(lang, "quick-go"),
        "don't trade" => t!(lang, "quick-no-trade"),
        _ => return None,
    })
}

/// A rating category's name (`blitz`, «блиц»); one the catalogue does not know as it is.
pub fn category(lang: Lang, name: &str) -> String {
    match name {
        "bullet" => t!(lang, "category-bullet"),
        "blitz" => t!(lang, "category-blitz"),
        "rapid" => t!(lang, "category-rapid"),
        other => other.to_owned(),
    }
}

/// One player's rating change: `blitz alice: white-A 1500 → 1612? (+112)`, a `?` marking a
/// provisional rating.
pub fn rating_change(lang: Lang, c: &RatingChange) -> String {
    let mark = if c.provisional { "?" } else { "" };
    t!(
        lang,
        "rating-change",
        category = category(lang, &c.category),
        name = c.name.as_str(),
        seat = seat(lang, c.seat),
        before = c.before,
        after = format!("{}{mark}", c.after),
        diff = format!("{:+}", c.after - c.before)
    )
}

/// A clock reading: `2:59`, and tenths below ten seconds (`9.8`, «9,8»).
pub fn clock(lang: Lang, d: Duration) -> String {
    let ms = d.as_millis();
    if ms < 10_000 {
        let (s, tenths) = ((ms / 1000) as u32, (ms % 1000 / 100) as u32);
        t!(lang, "clock-tenths", seconds = s.to_string(), tenths = tenths.to_string())
    } else {
        let s = ms / 1000;
        format!("{}:{:02}", s / 60, s % 60)
    }
}

/// A span of time as minutes and seconds (`0:30`, `12:05`).
pub fn duration_text(_lang: Lang, d: Duration) -> String {
    let s = d.as_secs();
    format!("{}:{:02}", s / 60, s % 60)
}

/// A moment, Unix milliseconds, in UTC as the language writes dates (`2026-05-01 14:05 UTC`,
/// «01.05.2026 14:05 UTC»).
pub fn datetime(lang: Lang, unix_ms: u64) -> String {
    let secs = unix_ms / 1000;
    let (days, rest) = (secs / 86_400, secs % 86_400);
    // Days since 1970-01-01 to a civil date (H. Hinnant's algorithm).
    let z = days as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    t!(
        lang,
        "datetime",
        year = year.to_string(),
        month = format!("{month:02}"),
        day = format!("{day:02}"),
        hour = format!("{:02}", rest / 3600),
        minute = format!("{:02}", rest % 3600 / 60)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_are_written_as_each_language_writes_them() {
        // 2017-04-01 10:30 UTC, the MGIMO tournament's day.
        let ms = 1_491_042_600_000;
        assert_eq!(datetime(Lang::En, ms), "2017-04-01 10:30 UTC");
        assert_eq!(datetime(Lang::Ru, ms), "01.04.2017 10:30 UTC");
        assert_eq!(datetime(Lang::En, 0), "1970-01-01 00:00 UTC");
        assert_eq!(datetime(Lang::En, 951_782_400_000), "2000-02-29 00:00 UTC", "a leap day");
    }

    #[test]
    fn k1_clocks_read_tenths_with_the_languages_decimal_mark() {
        let ms = Duration::from_millis;
        assert_eq!(clock(Lang::En, ms(9_870)), "9.8");
        assert_eq!(clock(Lang::Ru, ms(9_870)), "9,8");
        assert_eq!(clock(Lang::Ru, ms(180_000)), "3:00");
        assert_eq!(clock(Lang::Ru, ms(50)), "0,0");
    }
}
