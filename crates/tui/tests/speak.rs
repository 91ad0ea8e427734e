//! Every code the server sends has its words in both languages: each variant of `ErrorCode`,
//! `Limit`, `TourRefusal`, `PauseReason`, `SessionEnd`, `SeekEnd`, `ClosedReason`, an arbiter's
//! act and a result is rendered in English and Russian, and none of them falls back to the
//! server's words (or to a missing message's `‹id›`).
//!
//! The lists below are checked against exhaustive matches (`index`): a new variant does not compile
//! until it has an index, and the test fails until it is in the list.

use shvedka_client::ClientError;
use shvedka_proto::{
    ArbiterRequest, Board, ChoiceKind, ClosedReason, ErrorCode, ErrorMsg, Limit, MatchId, PauseReason,
    PhaseView, ResultView, SeatId, SeekEnd, SessionEnd, TeamId, TourGame, TourRefusal,
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
    ];
    let mut seen: Vec<usize> = all.iter().map(|r| index(*r)).collect();
    seen.sort_unstable();
    assert_eq!(seen, (0..all.len()).collect::<Vec<_>>(), "every TourRefusal once");
    all
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
    ];
    all.extend(limits().into_iter().map(ErrorCode::Limit));
    all.extend(tour_refusals().into_iter().map(ErrorCode::Tournament));
    let mut seen: Vec<usize> = all.iter().map(|c| index(*c)).collect();
    seen.sort_unstable();
    seen.dedup();
    assert_eq!(seen, (0..19).collect::<Vec<_>>(), "every ErrorCode");
    all
}

#[test]
fn every_error_code_limit_and_tournament_refusal_has_words_in_both_languages() {
    for lang in Lang::ALL {
        let mut texts = Vec::new();
        for code in error_codes() {
            // A refusal that carries only words today (a bad request; a match's refusal without a
            // rule) shows them: the code's words come first.
            let rule = (code == ErrorCode::Rejected).then(|| "K1".to_owned());
            let msg = ErrorMsg { code, rule, message: WORDS.into() };
            let text = speak::error(lang, &msg);
            if code == ErrorCode::BadRequest {
                assert!(text.contains(WORDS), "a bad request's detail is kept: {text}");
                continue;
            }
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
fn a_refused_move_names_the_move_its_board_and_the_rule_in_the_players_words() {
    let refused = |lang, rule: &str| {
        let e = ClientError::Server(ErrorMsg {
            code: ErrorCode::Rejected,
            rule: Some(rule.into()),
            message: WORDS.into(),
        });
        speak::refused(lang, &Action::Play { board: Board::A, text: "N@f7".into() }, &e)
    };
    assert_eq!(
        refused(Lang::Ru, "P3"),
        "невозможный ход N@f7 на доске A: выставление с матом на доске запрещено (P3)"
    );
    assert_eq!(
        refused(Lang::En, "P3"),
        "impossible move N@f7 on board A: a drop may not give mate on board (P3)"
    );
    assert_eq!(refused(Lang::Ru, "K1"), "ход N@f7 на доске A отклонён: сейчас не ваш ход (K1)");
    // A rule the catalogue does not know: its id with the code's words, and only then the
    // server's.
    assert!(refused(Lang::Ru, "Z9").starts_with("ход N@f7 на доске A отклонён: отказано: "));
    for rule in ["FIDE", "P1", "P2", "R1", "R3", "R4", "R7", "K4", "K5", "S1", "E3"] {
        for lang in Lang::ALL {
            check(lang, rule, &refused(lang, rule));
        }
    }
    // Unreadable move text, and /bots refused for each reason the server has.
    let bad =
        ClientError::Server(ErrorMsg { code: ErrorCode::BadRequest, rule: None, message: WORDS.into() });
    let play = Action::Play { board: Board::B, text: "Kz9".into() };
    check(Lang::Ru, "unreadable", &speak::refused(Lang::Ru, &play, &bad));
    for code in [ErrorCode::Forbidden, ErrorCode::NotRatable, ErrorCode::Rejected] {
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
fn results_say_the_winner_and_the_rule_not_the_servers_words() {
    for rule in ["E1", "E2", "E3", "E4", "E5", "M3", "E7", "E10", "A2"] {
        for winner in [Some(TeamId::One), Some(TeamId::Two), None] {
            for lang in Lang::ALL {
                let r = ResultView { winner, reason: WORDS.into(), rule: rule.into() };
                let text = speak::result(lang, &r);
                check(lang, rule, &text);
                assert!(text.contains(&format!("({rule})")), "{text}");
            }
        }
    }
    let r = ResultView { winner: Some(TeamId::Two), reason: WORDS.into(), rule: "E10".into() };
    assert_eq!(speak::result(Lang::Ru, &r), "победила команда 2: сдача (E10)");
    let draw = ResultView { winner: None, reason: WORDS.into(), rule: "E7".into() };
    assert_eq!(speak::result(Lang::Ru, &draw), "ничья: флаг: время истекло (E7)");
    // A rule without a title: the server's words are all there is.
    let odd = ResultView { winner: None, reason: "odd".into(), rule: "Q1".into() };
    assert_eq!(speak::result(Lang::En, &odd), "draw: odd");
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
        let acts = [
            ArbiterRequest::Pause,
            ArbiterRequest::Resume,
            ArbiterRequest::AdjustClock { seat: SeatId::BlackB, delta_ms: -30_000 },
            ArbiterRequest::TakeBack { board: Board::B },
            ArbiterRequest::SetPosition { bfen: "x".into() },
            ArbiterRequest::DeclareResult { winner: Some(TeamId::One), reason: "его слова".into() },
            ArbiterRequest::DeclareResult { winner: None, reason: "his words".into() },
            ArbiterRequest::Annul { reason: "his words".into() },
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
        for c in [ClientError::Refused(WORDS.into()), ClientError::Connection("x".into())] {
            assert!(!speak::client_error(lang, &c).contains('‹'));
        }
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
