//! Every code the server sends has its words in both languages: each variant of `ErrorCode`,
//! `Limit`, `TourRefusal`, `PauseReason`, `SessionEnd`, `SeekEnd`, `ClosedReason`, an arbiter's
//! act and a result is rendered in English and Russian, and none of them falls back to the
//! server's words (or to a missing message's `‹id›`).
//!
//! The lists below are checked against exhaustive matches (`index`): a new variant does not compile
//! until it has an index, and the test fails until it is in the list.

use shvedka_client::ClientError;
use shvedka_proto::{
    ArbiterRequest, Board, Busy, ChoiceKind, ClaimRefusal, ClosedReason, Colour, DrawHow, ErrorCode,
    ErrorMsg, IllegalMove, Invalid, Limit, MatchId, MatchRefusal, MoveText, OfficialRefusal, OfficialRole,
    PauseReason, PhaseView, PieceKind, PositionRefusal, ReplayReason, ResultCause, ResultView, SeatId,
    SeekEnd, SessionEnd, SessionRefusal, Square, TakeBackRefusal, TeamId, TourGame, TourRefusal,
};
use shvedka_tui::{Action, Lang, speak};

/// What the server says beside a code; a rendering must not show it.
const WORDS: &str = "THE SERVER'S ENGLISH WORDS";

/// Checks a rendering: not empty, no missing message, not the server's words, and in Russian
/// written in Russian (Cyrillic letters in it).
fn check(lang: Lang, what: &str, text: &str) {
    assert!(!text.trim().is_empty(), "{lang:?} {what}: empty");
    assert!(!text.contains('‹'), "{lang:?} {what}: a missing message: {text}");
    assert!(!text.contains(WORDS), "{lang:?} {what}: the server's words: {text}");
    if lang == Lang::Ru {
        assert!(
            text.chars().any(|c| ('а'..='я').contains(&c.to_lowercase().next().unwrap_or(c))),
            "{what}: {text}"
        );
    }
}

fn limits() -> Vec<Limit> {
    fn index(l: Limit) -> usize {
        match l {
            Limit::Matches => 0,
            Limit::OpenMatches => 1,
            Limit::ChatLength => 2,
            Limit::Bots => 3,
            Limit::LoginAttempts => 4,
            Limit::Seeks => 5,
            Limit::SeekPool => 6,
            Limit::Registrations => 7,
            Limit::TournamentTeams => 8,
            Limit::Analyses => 9,
            Limit::Connections => 10,
            Limit::ConnectionsPerAddress => 11,
        }
    }
    let all = vec![
        Limit::Matches,
        Limit::OpenMatches,
        Limit::ChatLength,
        Limit::Bots,
        Limit::LoginAttempts,
        Limit::Seeks,
        Limit::SeekPool,
        Limit::Registrations,
        Limit::TournamentTeams,
        Limit::Analyses,
        Limit::Connections,
        Limit::ConnectionsPerAddress,
    ];
    let mut seen: Vec<usize> = all.iter().map(|l| index(*l)).collect();
    seen.sort_unstable();
    assert_eq!(seen, (0..all.len()).collect::<Vec<_>>(), "every Limit once");
    all
}

fn tour_refusals() -> Vec<TourRefusal> {
    fn index(r: TourRefusal) -> usize {
        match r {
            TourRefusal::NoSuchTournament => 0,
            TourRefusal::InvalidName { .. } => 1,
            TourRefusal::SamePlayerTwice => 2,
            TourRefusal::DuplicateTeamName => 3,
            TourRefusal::TooManyTeams { .. } => 4,
            TourRefusal::BadSeeding => 5,
            TourRefusal::NoSwissRounds => 6,
            TourRefusal::AlreadyStarted => 7,
            TourRefusal::NotStarted => 8,
            TourRefusal::TooFewTeams { .. } => 9,
            TourRefusal::UnknownTeam { .. } => 10,
            TourRefusal::AlreadyWithdrawn { .. } => 11,
            TourRefusal::RoundIncomplete { .. } => 12,
            TourRefusal::NoRoundsLeft { .. } => 13,
            TourRefusal::UnknownRound { .. } => 14,
            TourRefusal::UnknownTable { .. } => 15,
            TourRefusal::UnknownGame { .. } => 16,
            TourRefusal::Bye { .. } => 17,
            TourRefusal::NotPaired { .. } => 18,
            TourRefusal::NotAMember => 19,
            TourRefusal::NotYourChoice { .. } => 20,
            TourRefusal::DeadlinePassed { .. } => 21,
            TourRefusal::GameStarted { .. } => 22,
            TourRefusal::AlreadyChosen { .. } => 23,
            TourRefusal::ChoicesPending { .. } => 24,
            TourRefusal::AlreadyDecided { .. } => 25,
            TourRefusal::NotDecided { .. } => 26,
            TourRefusal::RegistrationClosed => 27,
            TourRefusal::AlreadyInTeam => 28,
            TourRefusal::NoInvitation => 29,
            TourRefusal::CheckInNotRequired => 30,
            TourRefusal::NotASwiss => 31,
            TourRefusal::NotInField { .. } => 32,
            TourRefusal::PlacedTwice { .. } => 33,
            TourRefusal::GameInPlay { .. } => 34,
            TourRefusal::PlayedOnline { .. } => 35,
            TourRefusal::GameTwoStarted { .. } => 36,
        }
    }
    let game = TourGame { round: 2, table: 3, game: 1 };
    let all = vec![
        TourRefusal::NoSuchTournament,
        TourRefusal::InvalidName { max: 32 },
        TourRefusal::SamePlayerTwice,
        TourRefusal::DuplicateTeamName,
        TourRefusal::TooManyTeams { max: 64 },
        TourRefusal::BadSeeding,
        TourRefusal::NoSwissRounds,
        TourRefusal::AlreadyStarted,
        TourRefusal::NotStarted,
        TourRefusal::TooFewTeams { active: 1 },
        TourRefusal::UnknownTeam { team: 9 },
        TourRefusal::AlreadyWithdrawn { team: 4 },
        TourRefusal::RoundIncomplete { round: 2 },
        TourRefusal::NoRoundsLeft { rounds: 5 },
        TourRefusal::UnknownRound { round: 7 },
        TourRefusal::UnknownTable { round: 2, table: 11 },
        TourRefusal::UnknownGame { game: 3 },
        TourRefusal::Bye { round: 2, table: 4 },
        TourRefusal::NotPaired { round: 2, team: 6 },
        TourRefusal::NotAMember,
        TourRefusal::NotYourChoice { game, choice: ChoiceKind::Seating },
        TourRefusal::DeadlinePassed { game, due_ms: 1_491_042_600_000 },
        TourRefusal::GameStarted { game },
        TourRefusal::AlreadyChosen { game, choice: ChoiceKind::Colours },
        TourRefusal::ChoicesPending { game },
        TourRefusal::AlreadyDecided { game },
        TourRefusal::NotDecided { game },
        TourRefusal::RegistrationClosed,
        TourRefusal::AlreadyInTeam,
        TourRefusal::NoInvitation,
        TourRefusal::CheckInNotRequired,
        TourRefusal::NotASwiss,
        TourRefusal::NotInField { team: 5 },
        TourRefusal::PlacedTwice { team: 5 },
        TourRefusal::GameInPlay { game, match_id: MatchId(12) },
        TourRefusal::PlayedOnline { game },
        TourRefusal::GameTwoStarted { game },
    ];
    let mut seen: Vec<usize> = all.iter().map(|r| index(*r)).collect();
    seen.sort_unstable();
    assert_eq!(seen, (0..all.len()).collect::<Vec<_>>(), "every TourRefusal once");
    all
}

/// Checks that `all` holds every variant once, by the variant's `index` (an exhaustive match).
fn every<T: Copy + std::fmt::Debug>(all: Vec<T>, index: fn(T) -> usize, name: &str) -> Vec<T> {
    let mut seen: Vec<usize> = all.iter().map(|v| index(*v)).collect();
    seen.sort_unstable();
    seen.dedup();
    let most = seen.last().map_or(0, |m| m + 1);
    assert_eq!(seen, (0..most).collect::<Vec<_>>(), "every {name}");
    // The index's match is exhaustive, but a variant given the next index and left out of the
    // list would pass the count above: every variant the protocol declares is in the list
    // (issue 60), read from proto's source as the web client's test reads it.
    let listed: Vec<String> = all.iter().map(|v| ident(&format!("{v:?}"))).collect();
    for variant in declared_variants(name) {
        assert!(listed.contains(&variant), "{name}::{variant} is not in the list of every {name}");
    }
    all
}

/// The leading identifier of a text (`Limit(Matches)` → `Limit`; of a pair, its first's).
fn ident(text: &str) -> String {
    text.trim_start_matches('(').chars().take_while(char::is_ascii_alphanumeric).collect()
}

/// The variants of `pub enum NAME` as proto's source declares them.
fn declared_variants(name: &str) -> Vec<String> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../proto/src");
    let head = format!("pub enum {name} {{");
    for entry in std::fs::read_dir(&dir).expect("proto's source") {
        let text = std::fs::read_to_string(entry.expect("a file").path()).expect("a source file");
        let Some(start) = text.find(&head) else { continue };
        let body = &text[start + head.len()..];
        let body = &body[..body.find("\n}").expect("the enum's end")];
        return body
            .lines()
            .filter_map(|line| line.strip_prefix("    "))
            .filter(|line| line.starts_with(|c: char| c.is_ascii_uppercase()))
            .map(ident)
            .collect();
    }
    panic!("no `pub enum {name}` in {}", dir.display());
}

fn illegal_moves() -> Vec<IllegalMove> {
    fn index(m: IllegalMove) -> usize {
        match m {
            IllegalMove::Chess { in_check: false } => 0,
            IllegalMove::Chess { in_check: true } => 1,
            IllegalMove::NotInReserve { .. } => 2,
            IllegalMove::Occupied { .. } => 3,
            IllegalMove::DropLeavesCheck => 4,
            IllegalMove::PawnRank { .. } => 5,
            IllegalMove::DropMates => 6,
            IllegalMove::NotRemovable { .. } => 7,
            IllegalMove::RemovalLeavesIllegal { .. } => 8,
            IllegalMove::MustRemove { .. } => 9,
            IllegalMove::VanishingLeavesCheck => 10,
            IllegalMove::WrongPiece { .. } => 11,
        }
    }
    let d1 = Square(3);
    every(
        vec![
            IllegalMove::Chess { in_check: false },
            IllegalMove::Chess { in_check: true },
            IllegalMove::NotInReserve { seat: SeatId::WhiteA, piece: PieceKind::Knight },
            IllegalMove::Occupied { square: Square(28) },
            IllegalMove::DropLeavesCheck,
            IllegalMove::PawnRank { first: 2, last: 6 },
            IllegalMove::DropMates,
            IllegalMove::NotRemovable { square: d1, board: Board::B, crosswise: SeatId::WhiteB },
            IllegalMove::RemovalLeavesIllegal { square: d1, board: Board::B, piece: PieceKind::Queen },
            IllegalMove::MustRemove { crosswise: SeatId::WhiteB },
            IllegalMove::VanishingLeavesCheck,
            IllegalMove::WrongPiece { square: d1, board: Board::B, piece: PieceKind::Rook },
        ],
        index,
        "IllegalMove",
    )
}

fn match_refusals() -> Vec<MatchRefusal> {
    fn index(r: MatchRefusal) -> usize {
        match r {
            MatchRefusal::NotSeated => 0,
            MatchRefusal::SeatTaken { .. } => 1,
            MatchRefusal::AlreadySeated { .. } => 2,
            MatchRefusal::SeatsLocked => 3,
            MatchRefusal::NotStarted => 4,
            MatchRefusal::Paused => 5,
            MatchRefusal::NotPaused => 6,
            MatchRefusal::Over => 7,
            MatchRefusal::NotYourBoard { .. } => 8,
            MatchRefusal::NotYourTurn { .. } => 9,
            MatchRefusal::FlagFell { .. } => 10,
            MatchRefusal::AlreadyOffered => 11,
            MatchRefusal::NoDrawOffer => 12,
            MatchRefusal::Illegal { .. } => 13,
            MatchRefusal::Unreadable { .. } => 14,
            MatchRefusal::Claim(_) => 15,
            MatchRefusal::TakeBack(_) => 16,
            MatchRefusal::Position(_) => 17,
            MatchRefusal::NoArbiter => 18,
        }
    }
    fn text_index(t: MoveText) -> usize {
        match t {
            MoveText::NotAMove => 0,
            MoveText::RemovalSquareMissing => 1,
            MoveText::SquareAfterMove => 2,
            MoveText::Ambiguous => 3,
        }
    }
    fn claim_index(c: ClaimRefusal) -> usize {
        match c {
            ClaimRefusal::Repetition { .. } => 0,
            ClaimRefusal::FiftyMoves { .. } => 1,
            ClaimRefusal::FlagsFallByThemselves => 2,
            ClaimRefusal::OwnTeamFlag { .. } => 3,
            ClaimRefusal::FlagNotFallen { .. } => 4,
        }
    }
    fn take_back_index(t: TakeBackRefusal) -> usize {
        match t {
            TakeBackRefusal::NoMove { .. } => 0,
            TakeBackRefusal::ChangedSince { .. } => 1,
            TakeBackRefusal::PieceDropped { .. } => 2,
            TakeBackRefusal::SquareOccupied { .. } => 3,
            TakeBackRefusal::WouldBeIllegal { .. } => 4,
        }
    }
    fn position_index(p: PositionRefusal) -> usize {
        match p {
            PositionRefusal::Unreadable => 0,
            PositionRefusal::Units { .. } => 1,
        }
    }
    let mut all = vec![
        MatchRefusal::NotSeated,
        MatchRefusal::SeatTaken { seat: SeatId::BlackA },
        MatchRefusal::AlreadySeated { seat: SeatId::BlackA },
        MatchRefusal::SeatsLocked,
        MatchRefusal::NotStarted,
        MatchRefusal::Paused,
        MatchRefusal::NotPaused,
        MatchRefusal::Over,
        MatchRefusal::NotYourBoard { seat: SeatId::WhiteA, board: Board::B },
        MatchRefusal::NotYourTurn { seat: SeatId::WhiteA },
        MatchRefusal::FlagFell { seat: SeatId::WhiteA },
        MatchRefusal::AlreadyOffered,
        MatchRefusal::NoDrawOffer,
        MatchRefusal::NoArbiter,
    ];
    all.extend(illegal_moves().into_iter().map(|why| MatchRefusal::Illegal { board: Board::A, why }));
    let texts =
        [MoveText::NotAMove, MoveText::RemovalSquareMissing, MoveText::SquareAfterMove, MoveText::Ambiguous];
    all.extend(
        every(texts.to_vec(), text_index, "MoveText")
            .into_iter()
            .map(|why| MatchRefusal::Unreadable { board: Board::A, why }),
    );
    let claims = vec![
        ClaimRefusal::Repetition { board: Board::A, seen: 2, needed: 3 },
        ClaimRefusal::FiftyMoves { board: Board::B, halfmoves: 41, needed: 100 },
        ClaimRefusal::FlagsFallByThemselves,
        ClaimRefusal::OwnTeamFlag { seat: SeatId::BlackB },
        ClaimRefusal::FlagNotFallen { seat: SeatId::BlackA },
    ];
    all.extend(every(claims, claim_index, "ClaimRefusal").into_iter().map(MatchRefusal::Claim));
    let take_backs = vec![
        TakeBackRefusal::NoMove { board: Board::A },
        TakeBackRefusal::ChangedSince { board: Board::A },
        TakeBackRefusal::PieceDropped { piece: PieceKind::Bishop, board: Board::B },
        TakeBackRefusal::SquareOccupied { square: Square(3), board: Board::B, piece: PieceKind::Queen },
        TakeBackRefusal::WouldBeIllegal { board: Board::A },
    ];
    all.extend(every(take_backs, take_back_index, "TakeBackRefusal").into_iter().map(MatchRefusal::TakeBack));
    let positions = vec![
        PositionRefusal::Unreadable,
        PositionRefusal::Units { colour: Colour::Black, was: 32, would: 31 },
    ];
    all.extend(every(positions, position_index, "PositionRefusal").into_iter().map(MatchRefusal::Position));
    every(all, index, "MatchRefusal")
}

fn invalids() -> Vec<Invalid> {
    fn index(i: Invalid) -> usize {
        match i {
            Invalid::TimeControl => 0,
            Invalid::RulePreset => 1,
            Invalid::BotLevel { .. } => 2,
            Invalid::SamePartner => 3,
            Invalid::AccountName { .. } => 4,
            Invalid::Password { .. } => 5,
            Invalid::GuestName { .. } => 6,
            Invalid::ChatText => 7,
            Invalid::NoteLength { .. } => 8,
            Invalid::RatingCategory => 9,
            Invalid::BotTooLate => 10,
            Invalid::Position => 11,
            Invalid::Record => 12,
            Invalid::RecordAt { .. } => 13,
            Invalid::NoSuchGame { .. } => 14,
        }
    }
    every(
        vec![
            Invalid::TimeControl,
            Invalid::RulePreset,
            Invalid::BotLevel { min: 1, max: 5 },
            Invalid::SamePartner,
            Invalid::AccountName { min: 2, max: 24 },
            Invalid::Password { min: 8, max: 128 },
            Invalid::GuestName { max: 32 },
            Invalid::ChatText,
            Invalid::NoteLength { max: 200 },
            Invalid::RatingCategory,
            Invalid::BotTooLate,
            Invalid::Position,
            Invalid::Record,
            Invalid::RecordAt { line: 3, column: 14 },
            Invalid::NoSuchGame { games: 3 },
        ],
        index,
        "Invalid",
    )
}

fn session_refusals() -> Vec<SessionRefusal> {
    fn index(r: SessionRefusal) -> usize {
        match r {
            SessionRefusal::NotHello => 0,
            SessionRefusal::UnknownToken => 1,
            SessionRefusal::Expired { .. } => 2,
            SessionRefusal::LoggedOut => 3,
            SessionRefusal::AccountDisabled => 4,
            SessionRefusal::NameRegistered => 5,
            SessionRefusal::TooManyGuests => 6,
            SessionRefusal::ConnectionLost => 7,
        }
    }
    every(
        vec![
            SessionRefusal::NotHello,
            SessionRefusal::UnknownToken,
            SessionRefusal::Expired { days: 30 },
            SessionRefusal::LoggedOut,
            SessionRefusal::AccountDisabled,
            SessionRefusal::NameRegistered,
            SessionRefusal::TooManyGuests,
            SessionRefusal::ConnectionLost,
        ],
        index,
        "SessionRefusal",
    )
}

fn busies() -> Vec<Busy> {
    fn index(b: Busy) -> usize {
        match b {
            Busy::Started => 0,
            Busy::Playing => 1,
            Busy::AlreadySeeking => 2,
            Busy::PartnerSeeking => 3,
            Busy::NotOver => 4,
            Busy::RematchDeclined => 5,
            Busy::Reserved => 6,
        }
    }
    every(
        vec![
            Busy::Started,
            Busy::Playing,
            Busy::AlreadySeeking,
            Busy::PartnerSeeking,
            Busy::NotOver,
            Busy::RematchDeclined,
            Busy::Reserved,
        ],
        index,
        "Busy",
    )
}

fn official_refusals() -> Vec<OfficialRefusal> {
    fn index(r: OfficialRefusal) -> usize {
        match r {
            OfficialRefusal::Needed { role: OfficialRole::Arbiter } => 0,
            OfficialRefusal::Needed { role: OfficialRole::Director } => 1,
            OfficialRefusal::WrongSecret { role: OfficialRole::Arbiter } => 2,
            OfficialRefusal::WrongSecret { role: OfficialRole::Director } => 3,
            OfficialRefusal::SecretDiffers { role: OfficialRole::Arbiter } => 4,
            OfficialRefusal::SecretDiffers { role: OfficialRole::Director } => 5,
        }
    }
    let mut all = Vec::new();
    for role in [OfficialRole::Arbiter, OfficialRole::Director] {
        all.extend([
            OfficialRefusal::Needed { role },
            OfficialRefusal::WrongSecret { role },
            OfficialRefusal::SecretDiffers { role },
        ]);
    }
    every(all, index, "OfficialRefusal")
}

/// Every error code, the limits and the tournament refusals each as its own code.
fn error_codes() -> Vec<ErrorCode> {
    fn index(c: ErrorCode) -> usize {
        match c {
            ErrorCode::BadRequest => 0,
            ErrorCode::Handshake => 1,
            ErrorCode::NoSuchMatch => 2,
            ErrorCode::NotInMatch => 3,
            ErrorCode::Rejected => 4,
            ErrorCode::RateLimited => 5,
            ErrorCode::Full => 6,
            ErrorCode::Forbidden => 7,
            ErrorCode::TooLarge => 8,
            ErrorCode::Unavailable => 9,
            ErrorCode::Limit(_) => 10,
            ErrorCode::BadCredentials => 11,
            ErrorCode::NameTaken => 12,
            ErrorCode::LoginRequired => 13,
            ErrorCode::AccountDisabled => 14,
            ErrorCode::NoSuchAccount => 15,
            ErrorCode::NotRatable => 16,
            ErrorCode::NoSuchSeek => 17,
            ErrorCode::Tournament(_) => 18,
            ErrorCode::Match(_) => 19,
            ErrorCode::Invalid(_) => 20,
            ErrorCode::Session(_) => 21,
            ErrorCode::Busy(_) => 22,
            ErrorCode::Official(_) => 23,
            ErrorCode::Unencrypted => 24,
            ErrorCode::StorageFull => 25,
        }
    }
    let mut all = vec![
        ErrorCode::BadRequest,
        ErrorCode::Handshake,
        ErrorCode::NoSuchMatch,
        ErrorCode::NotInMatch,
        ErrorCode::Rejected,
        ErrorCode::RateLimited,
        ErrorCode::Full,
        ErrorCode::Forbidden,
        ErrorCode::TooLarge,
        ErrorCode::Unavailable,
        ErrorCode::BadCredentials,
        ErrorCode::NameTaken,
        ErrorCode::LoginRequired,
        ErrorCode::AccountDisabled,
        ErrorCode::NoSuchAccount,
        ErrorCode::NotRatable,
        ErrorCode::NoSuchSeek,
        ErrorCode::Unencrypted,
        ErrorCode::StorageFull,
    ];
    all.extend(limits().into_iter().map(ErrorCode::Limit));
    all.extend(tour_refusals().into_iter().map(ErrorCode::Tournament));
    all.extend(match_refusals().into_iter().map(ErrorCode::Match));
    all.extend(invalids().into_iter().map(ErrorCode::Invalid));
    all.extend(session_refusals().into_iter().map(ErrorCode::Session));
    all.extend(busies().into_iter().map(ErrorCode::Busy));
    all.extend(official_refusals().into_iter().map(ErrorCode::Official));
    every(all, index, "ErrorCode")
}

#[test]
fn every_error_code_limit_and_tournament_refusal_has_words_in_both_languages() {
    for lang in Lang::ALL {
        let mut texts = Vec::new();
        for code in error_codes() {
            // Every code is said in the client's words, a malformed request too (issue 31: no
            // client shows the server's words when it knows the code); `Rejected`, which no
            // server sends since version 9, by its rule's title.
            let rule = (code == ErrorCode::Rejected).then(|| "C2".to_owned());
            let msg = ErrorMsg { code, rule, message: WORDS.into() };
            let text = speak::error(lang, &msg);
            check(lang, &format!("{code:?}"), &text);
            texts.push(text);
        }
        // Each code its own words (the tournament's refusals with their parameters).
        let distinct: std::collections::BTreeSet<_> = texts.iter().collect();
        assert_eq!(distinct.len(), texts.len(), "{lang:?}: two codes read the same");
    }
    // Plurals and parameters.
    let ru = |code| speak::error(Lang::Ru, &ErrorMsg { code, rule: None, message: WORDS.into() });
    assert_eq!(
        ru(ErrorCode::Tournament(TourRefusal::TooManyTeams { max: 64 })),
        "в турнире может быть не больше 64 команд"
    );
    assert_eq!(
        ru(ErrorCode::Tournament(TourRefusal::TooManyTeams { max: 1 })),
        "в турнире может быть не больше 1 команды"
    );
    assert_eq!(ru(ErrorCode::Limit(Limit::ChatLength)), "сообщение слишком длинное: не больше 500 символов");
    assert_eq!(
        ru(ErrorCode::Tournament(TourRefusal::DeadlinePassed {
            game: TourGame { round: 2, table: 3, game: 1 },
            due_ms: 1_491_042_600_000
        })),
        "срок выбора истёк 01.04.2017 10:30 UTC (тур 2, стол 3, партия 1): действует выбор по умолчанию (S3)"
    );
}

#[test]
fn a_refused_request_is_said_with_what_was_asked_and_bots_say_who_may() {
    // A move refused for a rule the server names only by id (a `Rejected` of before version 9):
    // the rule's title.
    let rejected = |lang, rule: &str| {
        let e = ClientError::Server(ErrorMsg {
            code: ErrorCode::Rejected,
            rule: Some(rule.into()),
            message: WORDS.into(),
        });
        speak::refused(lang, &Action::Play { board: Board::A, text: "N@f7".into() }, &e)
    };
    assert_eq!(rejected(Lang::Ru, "P3"), "отказано: выставление с матом на доске запрещено (P3)");
    for rule in ["FIDE", "P1", "P2", "R1", "R3", "R4", "R7", "K4", "K5", "S1", "E3"] {
        for lang in Lang::ALL {
            check(lang, rule, &rejected(lang, rule));
        }
    }
    // A rule the catalogue does not know: the code's words, and only then the server's.
    assert!(rejected(Lang::Ru, "Z9").starts_with("отказано: "));
    // /bots refused for each reason the server has.
    for code in [
        ErrorCode::Forbidden,
        ErrorCode::NotRatable,
        ErrorCode::Busy(Busy::Started),
        ErrorCode::Limit(Limit::Bots),
    ] {
        let e = ClientError::Server(ErrorMsg { code, rule: None, message: WORDS.into() });
        for lang in Lang::ALL {
            check(lang, "bots", &speak::refused(lang, &Action::FillWithBots(MatchId(3), 2), &e));
        }
    }
    assert_eq!(
        speak::refused(
            Lang::Ru,
            &Action::FillWithBots(MatchId(3), 2),
            &ClientError::Server(ErrorMsg { code: ErrorCode::Forbidden, rule: None, message: WORDS.into() })
        ),
        "заполнить матч ботами может только его создатель или игрок, сидящий в нём"
    );
}

#[test]
fn a_refused_move_of_protocol_9_says_the_square_the_piece_and_the_rule() {
    let refused = |lang, code: ErrorCode, text: &str| {
        let rule = match code {
            ErrorCode::Match(r) => r.rule().map(str::to_owned),
            _ => None,
        };
        let e = ClientError::Server(ErrorMsg { code, rule, message: WORDS.into() });
        speak::refused(lang, &Action::Play { board: Board::A, text: text.into() }, &e)
    };
    let illegal = |why| ErrorCode::Match(MatchRefusal::Illegal { board: Board::A, why });
    assert_eq!(
        refused(
            Lang::Ru,
            illegal(IllegalMove::NotInReserve { seat: SeatId::WhiteA, piece: PieceKind::Knight }),
            "N@f3"
        ),
        "невозможный ход N@f3 на доске A: в запасе белых A нет коня (P1)"
    );
    assert_eq!(
        refused(
            Lang::En,
            illegal(IllegalMove::NotInReserve { seat: SeatId::WhiteA, piece: PieceKind::Knight }),
            "N@f3"
        ),
        "impossible move N@f3 on board A: the reserve of white-A holds no knight (P1)"
    );
    assert_eq!(
        refused(Lang::Ru, illegal(IllegalMove::PawnRank { first: 2, last: 6 }), "P@e7"),
        "невозможный ход P@e7 на доске A: пешку можно выставлять только на горизонтали с 2 по 6 (P2)"
    );
    assert_eq!(
        refused(
            Lang::Ru,
            illegal(IllegalMove::WrongPiece { square: Square(3), board: Board::B, piece: PieceKind::Rook }),
            "e8=Qd1"
        ),
        "невозможный ход e8=Qd1 на доске A: на поле d1 доски B стоит другая фигура: ладья (R7)"
    );
    assert_eq!(
        refused(
            Lang::Ru,
            ErrorCode::Match(MatchRefusal::Unreadable { board: Board::A, why: MoveText::Ambiguous }),
            "Nd2"
        ),
        "не удалось прочитать ход Nd2 на доске A: подходят несколько ходов: укажите поле, откуда ходит фигура (R7)"
    );
    assert_eq!(
        refused(Lang::Ru, ErrorCode::Match(MatchRefusal::NotYourTurn { seat: SeatId::WhiteA }), "d4"),
        "ход d4 на доске A отклонён: сейчас не ваш ход (K1)"
    );
    assert_eq!(
        speak::error(
            Lang::Ru,
            &ErrorMsg {
                code: ErrorCode::Match(MatchRefusal::Claim(ClaimRefusal::Repetition {
                    board: Board::A,
                    seen: 2,
                    needed: 3
                })),
                rule: Some("E4".into()),
                message: WORDS.into(),
            }
        ),
        "отказано: позиция на доске A встречалась 2 раза; нужно 3 (E4)"
    );
    assert_eq!(
        speak::error(
            Lang::Ru,
            &ErrorMsg {
                code: ErrorCode::Session(SessionRefusal::Expired { days: 21 }),
                rule: None,
                message: WORDS.into()
            }
        ),
        "сеансом не пользовались 21 день: начинается новый"
    );
    for lang in Lang::ALL {
        for why in illegal_moves() {
            check(lang, &format!("{why:?}"), &refused(lang, illegal(why), "Ke3"));
        }
    }
}

#[test]
fn results_say_the_winner_and_the_rule_not_the_servers_words() {
    for rule in ["E1", "E2", "E3", "E4", "E5", "M3", "E7", "E10", "A2"] {
        for winner in [Some(TeamId::One), Some(TeamId::Two), None] {
            for lang in Lang::ALL {
                let r = ResultView {
                    winner,
                    reason: WORDS.into(),
                    rule: rule.into(),
                    cause: None,
                    note: None,
                    rules: Box::default(),
                };
                let text = speak::result(lang, &r);
                check(lang, rule, &text);
                assert!(text.contains(&format!("({rule})")), "{text}");
            }
        }
    }
    // A result stored before protocol version 9 has no cause: the rule's title says why.
    let r = ResultView {
        winner: Some(TeamId::Two),
        reason: WORDS.into(),
        rule: "E10".into(),
        cause: None,
        note: None,
        rules: Box::default(),
    };
    assert_eq!(speak::result(Lang::Ru, &r), "победила команда 2: сдача (E10)");
    let draw = ResultView {
        winner: None,
        reason: WORDS.into(),
        rule: "E7".into(),
        cause: None,
        note: None,
        rules: Box::default(),
    };
    assert_eq!(speak::result(Lang::Ru, &draw), "ничья: флаг: время истекло (E7)");
    // A rule without a title: the server's words are all there is.
    let odd = ResultView {
        winner: None,
        reason: "odd".into(),
        rule: "Q1".into(),
        cause: None,
        note: None,
        rules: Box::default(),
    };
    assert_eq!(speak::result(Lang::En, &odd), "draw: odd");
    // Its cause, with who and where.
    fn index(c: ResultCause) -> usize {
        match c {
            ResultCause::MateOnBoard { .. } => 0,
            ResultCause::MutualMate => 1,
            ResultCause::BoardDrawn { how: DrawHow::Agreement, .. } => 2,
            ResultCause::BoardDrawn { how: DrawHow::Repetition, .. } => 3,
            ResultCause::BoardDrawn { how: DrawHow::FiftyMoves, .. } => 4,
            ResultCause::BoardDrawn { how: DrawHow::Stalemate, .. } => 5,
            ResultCause::BoardDrawn { how: DrawHow::Arbiter, .. } => 6,
            ResultCause::Flag { .. } => 7,
            ResultCause::FlagsOfBothTeams => 8,
            ResultCause::Resignation { .. } => 9,
            ResultCause::Arbiter => 10,
        }
    }
    let drawn = |how| ResultCause::BoardDrawn { board: Board::B, how };
    let causes = every(
        vec![
            (ResultCause::MateOnBoard { seat: SeatId::BlackA }, "E1"),
            (ResultCause::MutualMate, "E2"),
            (drawn(DrawHow::Agreement), "E3"),
            (drawn(DrawHow::Repetition), "E4"),
            (drawn(DrawHow::FiftyMoves), "E5"),
            (drawn(DrawHow::Stalemate), "M3"),
            (drawn(DrawHow::Arbiter), "A2"),
            (ResultCause::Flag { seat: SeatId::WhiteB }, "E7"),
            (ResultCause::FlagsOfBothTeams, "E7"),
            (ResultCause::Resignation { seat: SeatId::WhiteA }, "E10"),
            (ResultCause::Arbiter, "A2"),
        ],
        |(c, _)| index(c),
        "ResultCause",
    );
    for lang in Lang::ALL {
        let mut texts = std::collections::BTreeSet::new();
        for (cause, rule) in &causes {
            let r = ResultView {
                winner: None,
                reason: WORDS.into(),
                rule: (*rule).into(),
                cause: Some(*cause),
                note: None,
                rules: Box::default(),
            };
            let text = speak::result(lang, &r);
            check(lang, rule, &text);
            assert!(texts.insert(text), "{lang:?}: each cause its own words");
        }
    }
    let res = |winner, cause, rule: &str| {
        speak::result(
            Lang::Ru,
            &ResultView {
                winner,
                reason: WORDS.into(),
                rule: rule.into(),
                cause: Some(cause),
                note: None,
                rules: Box::default(),
            },
        )
    };
    assert_eq!(
        res(Some(TeamId::Two), ResultCause::Resignation { seat: SeatId::WhiteA }, "E10"),
        "победила команда 2: белые A сдались (E10)"
    );
    assert_eq!(
        res(Some(TeamId::One), ResultCause::Flag { seat: SeatId::BlackA }, "E7"),
        "победила команда 1: у чёрных A упал флаг (E7)"
    );
    assert_eq!(
        res(None, drawn(DrawHow::Repetition), "E4"),
        "ничья: троекратное повторение позиции на доске B (E4)"
    );
}

#[test]
fn every_rule_of_rules_md_has_a_title_in_both_languages() {
    let rules = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/RULES.md"))
        .expect("docs/RULES.md");
    // The ids as RULES.md defines them: `- **E1** [MGIMO] …`.
    let ids: Vec<&str> = rules
        .lines()
        .filter_map(|l| l.trim_start().strip_prefix("- **")?.split_once("**").map(|(id, _)| id))
        .filter(|id| id.chars().all(|c| c.is_ascii_alphanumeric()))
        .collect();
    assert!(ids.len() > 40, "{ids:?}");
    for id in ids.into_iter().chain(["FIDE"]) {
        for lang in Lang::ALL {
            let title = speak::rule_title(lang, id).unwrap_or_else(|| panic!("no title for {id}"));
            check(lang, id, &title);
        }
    }
}

#[test]
fn pauses_ends_closures_arbiter_acts_seats_and_phases_have_words() {
    for lang in Lang::ALL {
        for r in [PauseReason::Restart, PauseReason::Shutdown, PauseReason::Storage] {
            check(lang, "pause", &speak::pause_reason(lang, r));
        }
        for r in [SessionEnd::LoggedOut, SessionEnd::PasswordChanged, SessionEnd::AccountDisabled] {
            check(lang, "session end", &speak::session_end(lang, r));
        }
        for r in
            [SeekEnd::Cancelled, SeekEnd::Disconnected, SeekEnd::Declined, SeekEnd::Expired, SeekEnd::Failed]
        {
            check(lang, "seek end", &speak::seek_end(lang, r));
        }
        for r in [ClosedReason::Expired, ClosedReason::Failed] {
            check(lang, "closed", &speak::closed(lang, MatchId(4), r));
        }
        check(
            lang,
            "elsewhere",
            &speak::elsewhere(lang, MatchId(4), shvedka_proto::ElsewhereReason::LeaseLost),
        );
        let acts = [
            ArbiterRequest::Pause,
            ArbiterRequest::Resume,
            ArbiterRequest::AdjustClock { seat: SeatId::BlackB, delta_ms: -30_000 },
            ArbiterRequest::TakeBack { board: Board::B },
            ArbiterRequest::SetPosition { bfen: "x".into() },
            ArbiterRequest::DeclareResult { winner: Some(TeamId::One), reason: "его слова".into() },
            ArbiterRequest::DeclareResult { winner: None, reason: "his words".into() },
            ArbiterRequest::Annul { reason: "his words".into() },
            ArbiterRequest::Replay { reason: ReplayReason::OutsideHint, note: String::new() },
            ArbiterRequest::Replay { reason: ReplayReason::Other, note: "his words".into() },
        ];
        for act in &acts {
            check(lang, &format!("{act:?}"), &speak::arbiter_act(lang, act));
        }
        for seat in SeatId::ALL {
            check(lang, "seat", &speak::seat(lang, seat));
        }
        for p in [
            PhaseView::Forming,
            PhaseView::Countdown,
            PhaseView::Running,
            PhaseView::Paused,
            PhaseView::Ended,
            PhaseView::Annulled,
        ] {
            check(lang, "phase", &speak::phase(lang, p));
        }
        // A refused session from its code; another protocol version in the server's words.
        let refused = |code| ErrorMsg { code, rule: None, message: WORDS.into() };
        let session = ClientError::Refused(refused(ErrorCode::Session(SessionRefusal::NameRegistered)));
        check(lang, "session refused", &speak::client_error(lang, &session));
        let version = speak::client_error(lang, &ClientError::Refused(refused(ErrorCode::Handshake)));
        assert!(!version.contains('‹'), "{version}");
        assert!(!speak::client_error(lang, &ClientError::Connection("x".into())).contains('‹'));
    }
    assert_eq!(
        speak::arbiter_act(
            Lang::Ru,
            &ArbiterRequest::AdjustClock { seat: SeatId::BlackB, delta_ms: -30_000 }
        ),
        "судья изменил время: чёрные B -0:30"
    );
    assert_eq!(speak::team_with_seats(Lang::Ru, TeamId::Two), "команда 2: чёрные A + белые B");
    assert_eq!(speak::quick(Lang::Ru, "need a knight").as_deref(), Some("нужен конь"));
    assert_eq!(speak::quick(Lang::Ru, "hello"), None, "free text is the writer's");
}

/// A5, A6: the arbiter's replay and the reasons of a call for one, in both languages, with the
/// rule each rests on; the arbiter's own words, if any, as he wrote them.
#[test]
fn a5_a6_a_replay_is_said_with_its_reason_and_rule_in_both_languages() {
    let replay = |reason, note: &str| ArbiterRequest::Replay { reason, note: note.into() };
    assert_eq!(
        speak::arbiter_act(Lang::En, &replay(ReplayReason::WrongSetup, "")),
        "the arbiter ordered a replay: wrong initial setup (A5); the game starts again"
    );
    assert_eq!(
        speak::arbiter_act(Lang::Ru, &replay(ReplayReason::OutsideHint, "")),
        "судья назначил переигровку: подсказка со стороны (A6); партия начинается заново"
    );
    assert_eq!(
        speak::arbiter_act(Lang::En, &replay(ReplayReason::Other, "the clock was broken")),
        "the arbiter ordered a replay: another reason (A2) (the clock was broken); the game starts again"
    );
    for lang in Lang::ALL {
        for (reason, rule) in
            [(ReplayReason::WrongSetup, "A5"), (ReplayReason::OutsideHint, "A6"), (ReplayReason::Other, "A2")]
        {
            let said = speak::replay_reason(lang, reason);
            check(lang, "replay reason", &said);
            assert!(said.ends_with(&format!("({rule})")), "{lang:?}: {said}");
        }
    }
}

#[test]
fn a2_a_seat_is_typed_in_either_language() {
    use shvedka_proto::SeatId;
    use shvedka_tui::speak::parse_seat;
    for (text, seat) in [
        ("white-A", SeatId::WhiteA),
        ("a-black", SeatId::BlackA),
        ("белые-B", SeatId::WhiteB),
        ("Чёрные B", SeatId::BlackB),
        ("черные-а", SeatId::BlackA),
        ("белые-в", SeatId::WhiteB),
    ] {
        assert_eq!(parse_seat(text), Some(seat), "{text}");
    }
    for bad in ["", "white", "синие-A", "белые-C", "white-A-B"] {
        assert_eq!(parse_seat(bad), None, "{bad}");
    }
}

#[test]
fn e1_e6_e9_k4_a_result_names_every_rule_that_decided_it() {
    use shvedka_proto::{ResultCause, ResultView, SeatId, TeamId};
    use shvedka_tui::speak::result;
    let r = ResultView {
        winner: Some(TeamId::One),
        reason: String::new(),
        rule: "E1".into(),
        cause: Some(ResultCause::MateOnBoard { seat: SeatId::WhiteA }),
        note: None,
        rules: vec!["E1".into(), "K4".into(), "E6".into(), "E9".into()].into(),
    };
    let en = result(shvedka_tui::Lang::En, &r);
    assert!(en.ends_with("; decided also by K4, E6, E9"), "{en}");
    let ru = result(shvedka_tui::Lang::Ru, &r);
    assert!(ru.ends_with("; исход решили также K4, E6, E9"), "{ru}");
    let alone = ResultView { rules: vec!["E1".into()].into(), ..r };
    assert!(!result(shvedka_tui::Lang::En, &alone).contains("also"));
}
