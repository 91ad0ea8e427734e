//! Golden byte vectors: representative messages and their exact bytes on the wire
//! (`tests/data/golden.txt`). A failure means the wire format changed: if that was meant, follow
//! PROTOCOL.md (bump the version or append), then rewrite the file with `SHVEDKA_BLESS=1`.

use shvedka_proto::*;

/// A sample message in both encodings: bincode (QUIC frames) and JSON (the browser's).
struct Sample {
    bytes: Vec<u8>,
    json: String,
}

fn samples() -> Vec<(&'static str, Sample)> {
    let c = |req, msg| {
        let frame = ClientFrame { req, msg };
        Sample { bytes: encode(&frame).unwrap(), json: serde_json::to_string(&frame).unwrap() }
    };
    let s =
        |msg: ServerMsg| Sample { bytes: encode(&msg).unwrap(), json: serde_json::to_string(&msg).unwrap() };
    let result = ResultView {
        winner: Some(TeamId::Two),
        reason: "white-A lost on time".into(),
        rule: "E7".into(),
        cause: Some(ResultCause::Flag { seat: SeatId::WhiteA }),
        note: None,
        rules: Box::default(),
    };
    vec![
        ("hello", c(1, ClientMsg::Hello { version: PROTOCOL_VERSION, name: "anna".into(), resume: None })),
        (
            "hello-resume",
            c(
                1,
                ClientMsg::Hello {
                    version: PROTOCOL_VERSION,
                    name: "anna".into(),
                    resume: Some(Resume {
                        token: "00ff".into(),
                        last_seq: Some(300),
                        match_id: Some(MatchId(7)),
                    }),
                },
            ),
        ),
        ("ping", c(2, ClientMsg::Ping { nonce: u64::MAX })),
        ("list", c(3, ClientMsg::ListMatches)),
        (
            "create",
            c(
                4,
                ClientMsg::CreateMatch {
                    rules: "mgimo-2017".into(),
                    time_control: "3+2".into(),
                    listed: true,
                    chess960: true,
                    rated: true,
                },
            ),
        ),
        ("take-seat", c(5, ClientMsg::TakeSeat { match_id: MatchId(7), seat: SeatId::BlackB })),
        ("ready", c(6, ClientMsg::Ready { ready: true })),
        (
            "move",
            c(70_000, ClientMsg::Move { board: Board::B, text: "e7e8qd1".into(), think_ms: Some(1234) }),
        ),
        ("claim-flag", c(8, ClientMsg::Claim(ClaimKind::Flag(SeatId::WhiteA)))),
        ("chat", c(9, ClientMsg::Chat { scope: ChatScope::Team, text: "need a knight".into() })),
        ("arbiter", c(10, ClientMsg::Arbiter { token: "s3cret".into() })),
        (
            "arbiter-adjust",
            c(
                11,
                ClientMsg::ArbiterAct {
                    match_id: MatchId(3),
                    act: ArbiterRequest::AdjustClock { seat: SeatId::BlackA, delta_ms: -60_000 },
                },
            ),
        ),
        (
            "arbiter-declare",
            c(
                12,
                ClientMsg::ArbiterAct {
                    match_id: MatchId(3),
                    act: ArbiterRequest::DeclareResult { winner: Some(TeamId::Two), reason: "A1".into() },
                },
            ),
        ),
        ("list-live", c(13, ClientMsg::ListLive)),
        ("record", c(14, ClientMsg::Record { match_id: MatchId(3) })),
        (
            "td-register",
            c(
                15,
                ClientMsg::Td(TdRequest::Register {
                    tournament: 1,
                    team: "Rooks".into(),
                    players: ["anna".into(), "boris".into()],
                }),
            ),
        ),
        ("choose", c(16, ClientMsg::Choose { tournament: 1, round: 2, game: 1, choice: TdChoice::Crossed })),
        ("assignment", c(17, ClientMsg::Assignment { tournament: 1 })),
        ("legal", c(18, ClientMsg::Legal { match_id: MatchId(3), board: Board::B })),
        ("list-page", c(19, ClientMsg::ListPage { after: Some(MatchId(40)), limit: 20, live: false })),
        ("record-part", c(20, ClientMsg::RecordPart { match_id: MatchId(3), offset: 24_576 })),
        (
            "welcome",
            s(ServerMsg::Welcome {
                version: PROTOCOL_VERSION,
                token: "ab".into(),
                resumed: false,
                server_time_us: 5,
            }),
        ),
        ("refused", s(ServerMsg::Refused { reason: "protocol version 2 is not 1".into() })),
        ("reply-ok", s(ServerMsg::Reply { req: 5, result: Ok(Reply::Ok) })),
        (
            "reply-assigned",
            s(ServerMsg::Reply {
                req: 17,
                result: Ok(Reply::Assigned { game: Some((MatchId(9), SeatId::WhiteB)), finished: false }),
            }),
        ),
        (
            "reply-legal",
            s(ServerMsg::Reply {
                req: 18,
                result: Ok(Reply::Legal(vec!["e2e4".into(), "N@f3".into(), "e7e8qd1".into()])),
            }),
        ),
        (
            "reply-record",
            s(ServerMsg::Reply {
                req: 14,
                result: Ok(Reply::Record { bpgn: "[Event \"?\"]\n\n*\n".into() }),
            }),
        ),
        (
            "reply-err",
            s(ServerMsg::Reply {
                req: 8,
                result: Err(ErrorMsg {
                    code: ErrorCode::Match(MatchRefusal::Illegal { board: Board::A, why: IllegalMove::DropMates }),
                    rule: Some("P3".into()),
                    message: "drop would give mate on board".into(),
                }),
            }),
        ),
        (
            "event-move",
            s(ServerMsg::Event(MatchEvent {
                match_id: MatchId(7),
                seq: 12,
                at_ms: 61_170,
                kind: EventView::Moved {
                    seat: SeatId::WhiteA,
                    uci: "e2e4".into(),
                    san: "e4".into(),
                    charged_ms: 900,
                    credit_ms: 100,
                },
                clocks_ms: [179_100, 180_000, 175_000, 180_000],
                running: [false, true, true, false],
                bfen: Some("8/8/8/8/8/8/8/K6k[] w - - 0 1 | 8/8/8/8/8/8/8/K6k[] w - - 0 1".into()),
                server_time_us: 1_000_000,
            })),
        ),
        (
            "event-ended",
            s(ServerMsg::Event(MatchEvent {
                match_id: MatchId(7),
                seq: 13,
                at_ms: 62_000,
                kind: EventView::Ended(result.clone()),
                clocks_ms: [0, 1, 2, 3],
                running: [false; 4],
                bfen: None,
                server_time_us: 2,
            })),
        ),
        (
            "state",
            s(ServerMsg::State(MatchState {
                match_id: MatchId(1),
                rules: "classic".into(),
                time_control: "1+0".into(),
                seats: [Some("a".into()), None, None, Some("d".into())],
                kinds: [Some(PlayerKind::Guest), None, None, Some(PlayerKind::Bot)],
                ready: [true, false, false, false],
                phase: PhaseView::Forming,
                bfen: "x".into(),
                clocks_ms: [60_000; 4],
                running: [false; 4],
                last_seq: None,
                result: Some(Box::new(result)),
                your_seat: Some(SeatId::WhiteA),
                server_time_us: 0,
                moves: vec![
                    MoveView { seat: SeatId::WhiteB, number: 1, san: "e4".into() },
                    MoveView { seat: SeatId::BlackA, number: 1, san: "N@f3".into() },
                ],
                rated: true,
                rating_changes: vec![change()],
                called: Some(CallView { seat: SeatId::BlackB, replay: Some(ReplayReason::OutsideHint) }),
                restart_by_us: Some(120_000_000),
                countdown_left_ms: Some(2_500),
                bots_missing: vec![MissingBot { seat: SeatId::BlackA, reason: BotTrouble::MaxBots }],
                reserved: true,
                tournament: Some(Box::new(shvedka_proto::TournamentGameView {
                    tournament: 3,
                    name: "Вечер шведки".into(),
                    round: 2,
                    table: 1,
                    game: 2,
                    teams: ["Ладьи".into(), "Кони".into()],
                })),
            })),
        ),
        (
            "reply-page",
            s(ServerMsg::Reply {
                req: 19,
                result: Ok(Reply::MatchPage {
                    matches: vec![MatchSummary {
                        match_id: MatchId(41),
                        rules: "classic".into(),
                        time_control: "1+0".into(),
                        chess960: true,
                        seats: [None, Some("b".into()), None, None],
                        kinds: [None, Some(PlayerKind::Account), None, None],
                        phase: PhaseView::Forming,
                        rated: true,
                    }],
                    next: Some(MatchId(41)),
                }),
            }),
        ),
        (
            "reply-record-part",
            s(ServerMsg::Reply {
                req: 20,
                result: Ok(Reply::RecordPart { text: "1A. e4".into(), offset: 24_576, total: 30_000 }),
            }),
        ),
        (
            "reply-limit",
            s(ServerMsg::Reply {
                req: 21,
                result: Err(ErrorMsg {
                    code: ErrorCode::Limit(Limit::OpenMatches),
                    rule: None,
                    message: "you have 3 open matches already (max_open_matches_per_session)".into(),
                }),
            }),
        ),
        (
            "reply-unavailable",
            s(ServerMsg::Reply {
                req: 22,
                result: Err(ErrorMsg { code: ErrorCode::Unavailable, rule: None, message: "storage".into() }),
            }),
        ),
        (
            "event-paused",
            s(ServerMsg::Event(MatchEvent {
                match_id: MatchId(7),
                seq: 14,
                at_ms: 63_000,
                kind: EventView::Paused { reason: PauseReason::Storage },
                clocks_ms: [0, 1, 2, 3],
                running: [false; 4],
                bfen: None,
                server_time_us: 3,
            })),
        ),
        (
            "event-resumed",
            s(ServerMsg::Event(MatchEvent {
                match_id: MatchId(7),
                seq: 15,
                at_ms: 64_000,
                kind: EventView::Resumed { reason: PauseReason::Restart },
                clocks_ms: [0, 1, 2, 3],
                running: [false, true, true, false],
                bfen: None,
                server_time_us: 4,
            })),
        ),
        ("match-closed", s(ServerMsg::MatchClosed { match_id: MatchId(7), reason: ClosedReason::Expired })),
        (
            "chat-in",
            s(ServerMsg::Chat {
                match_id: MatchId(1),
                from: "bo".into(),
                kind: PlayerKind::Bot,
                seat: None,
                scope: ChatScope::Match,
                text: "go".into(),
            }),
        ),
        (
            "event-arbiter-acted",
            s(ServerMsg::Event(MatchEvent {
                match_id: MatchId(7),
                seq: 16,
                at_ms: 65_000,
                kind: EventView::ArbiterActed {
                    act: ArbiterRequest::AdjustClock { seat: SeatId::BlackB, delta_ms: -60_000 },
                    text: "removed 60000 ms on black-B's clock".into(),
                    by: Some(OfficialView::Account("olga".into())),
                },
                clocks_ms: [0, 1, 2, 3],
                running: [false; 4],
                bfen: None,
                server_time_us: 5,
            })),
        ),
        ("fill-with-bots", c(23, ClientMsg::FillWithBots { match_id: MatchId(7), level: 2 })),
        (
            "reply-limit-bots",
            s(ServerMsg::Reply {
                req: 23,
                result: Err(ErrorMsg {
                    code: ErrorCode::Limit(Limit::Bots),
                    rule: None,
                    message: "the server runs 24 bots already (max_bots)".into(),
                }),
            }),
        ),
        (
            "register",
            c(30, ClientMsg::Register { name: "Alice".into(), password: "correct horse".into(), bot: false }),
        ),
        ("login", c(31, ClientMsg::Login { name: "alice".into(), password: "correct horse".into() })),
        ("logout", c(32, ClientMsg::Logout)),
        (
            "change-password",
            c(33, ClientMsg::ChangePassword { old: "old pass".into(), new: "new pass".into() }),
        ),
        (
            "reply-logged-in",
            s(ServerMsg::Reply {
                req: 31,
                result: Ok(Reply::LoggedIn {
                    name: "Alice".into(),
                    token: "ab".into(),
                    bot: false,
                    roles: vec!["arbiter".into()],
                }),
            }),
        ),
        (
            "reply-bad-credentials",
            s(ServerMsg::Reply {
                req: 31,
                result: Err(ErrorMsg {
                    code: ErrorCode::BadCredentials,
                    rule: None,
                    message: "wrong name or password".into(),
                }),
            }),
        ),
        ("invitation", c(34, ClientMsg::Invitation { code: "12.00ff".into() })),
        (
            "reply-invited",
            s(ServerMsg::Reply {
                req: 34,
                result: Ok(Reply::Invited { match_id: MatchId(12), code: "12.00ff".into() }),
            }),
        ),
        (
            "reply-login-attempts",
            s(ServerMsg::Reply {
                req: 31,
                result: Err(ErrorMsg {
                    code: ErrorCode::Limit(Limit::LoginAttempts),
                    rule: None,
                    message: "60 s".into(),
                }),
            }),
        ),
        ("rematch", c(35, ClientMsg::Rematch { match_id: MatchId(12), accept: Some(true) })),
        (
            "reply-rematch",
            s(ServerMsg::Reply {
                req: 35,
                result: Ok(Reply::Rematch(RematchView {
                    match_id: MatchId(12),
                    players: ["anna".into(), "boris".into(), "vera".into(), "gleb".into()],
                    kinds: [PlayerKind::Account, PlayerKind::Guest, PlayerKind::Bot, PlayerKind::Account],
                    accepted: [true, false, false, false],
                    declined: [false; 4],
                    rematch: None,
                })),
            }),
        ),
        (
            "push-rematch",
            s(ServerMsg::Rematch(RematchView {
                match_id: MatchId(12),
                players: ["anna".into(), "boris".into(), "vera".into(), "gleb".into()],
                kinds: [PlayerKind::Account, PlayerKind::Guest, PlayerKind::Bot, PlayerKind::Account],
                accepted: [true; 4],
                declined: [false; 4],
                rematch: Some(MatchId(13)),
            })),
        ),
        ("review", c(36, ClientMsg::Review { match_id: MatchId(12), after: Some(99) })),
        (
            "reply-review",
            s(ServerMsg::Reply {
                req: 36,
                result: Ok(Reply::Review {
                    match_id: MatchId(12),
                    rules: "classic".into(),
                    time_control: "3+2".into(),
                    events: vec![MatchEvent {
                        match_id: MatchId(12),
                        seq: 100,
                        at_ms: 61_000,
                        kind: EventView::Moved {
                            seat: SeatId::WhiteA,
                            uci: "e2e4".into(),
                            san: "e4".into(),
                            charged_ms: 1_000,
                            credit_ms: 0,
                        },
                        clocks_ms: [179_000, 180_000, 180_000, 180_000],
                        running: [false, true, true, false],
                        bfen: Some("8/8/8/8/8/8/8/8[] w - - 0 1 | 8/8/8/8/8/8/8/8[] w - - 0 1".into()),
                        server_time_us: 5,
                    }],
                    next: None,
                }),
            }),
        ),
        ("recent-matches", c(37, ClientMsg::RecentMatches { name: "anna".into() })),
        (
            "reply-recent",
            s(ServerMsg::Reply {
                req: 37,
                result: Ok(Reply::Recent(vec![RecentMatch {
                    match_id: MatchId(12),
                    rules: "classic".into(),
                    time_control: "3+2".into(),
                    players: ["anna".into(), "boris".into(), "vera".into(), "gleb".into()],
                    result: Some(ResultView {
                        winner: Some(TeamId::Two),
                        reason: "team 2 wins: white-A resigned (E10)".into(),
                        rule: "E10".into(),
                        cause: None,
                        note: None,
                    rules: Box::default(),
}),
                    finished_ms: Some(1_790_000_000_000),
                }])),
            }),
        ),
        // Version 4: the kind of each player, a bot's word for itself, and a session ended.
        (
            "event-seat-taken",
            s(ServerMsg::Event(MatchEvent {
                match_id: MatchId(7),
                seq: 0,
                at_ms: 0,
                kind: EventView::SeatTaken {
                    seat: SeatId::WhiteB,
                    name: "anna".into(),
                    kind: PlayerKind::Guest,
                },
                clocks_ms: [0, 1, 2, 3],
                running: [false; 4],
                bfen: None,
                server_time_us: 6,
            })),
        ),
        ("bot", c(38, ClientMsg::Bot)),
        ("session-ended", s(ServerMsg::SessionEnded { reason: SessionEnd::PasswordChanged })),
        // Version 5: rated matches, leaderboards and profiles.
        ("rated", s(ServerMsg::Rated { match_id: MatchId(7), changes: vec![change()] })),
        ("leaderboard", c(39, ClientMsg::Leaderboard { category: "blitz".into() })),
        (
            "reply-leaderboard",
            s(ServerMsg::Reply {
                req: 39,
                result: Ok(Reply::Leaderboard {
                    category: "blitz".into(),
                    rows: vec![LeaderRow { rank: 1, name: "anna".into(), rating: blitz(1687) }],
                }),
            }),
        ),
        ("profile", c(40, ClientMsg::Profile { name: "Anna".into() })),
        (
            "reply-profile",
            s(ServerMsg::Reply {
                req: 40,
                result: Ok(Reply::Profile(ProfileView {
                    name: "anna".into(),
                    kind: PlayerKind::Account,
                    created_ms: 1_790_000_000_000,
                    categories: vec![CategoryProfile {
                        rating: blitz(1687),
                        history: vec![HistoryPoint {
                            match_id: MatchId(12),
                            at_ms: 1_790_000_100_000,
                            before: 1_500,
                            after: 1_687,
                        }],
                        partners: vec![PartnerView { name: "gleb".into(), rating: blitz(1590) }],
                    }],
                    recent: Vec::new(),
                })),
            }),
        ),
        (
            "reply-not-ratable",
            s(ServerMsg::Reply {
                req: 41,
                result: Err(ErrorMsg {
                    code: ErrorCode::NotRatable,
                    rule: None,
                    message: "white-A of a rated match is for an account; log in".into(),
                }),
            }),
        ),
        // Version 5: finding a game.
        (
            "seek",
            c(
                42,
                ClientMsg::Seek(SeekRequest {
                    time_control: "blitz".into(),
                    rules: "mgimo-2017".into(),
                    rated: true,
                    range: None,
                    partner: Some("gleb".into()),
                }),
            ),
        ),
        ("reply-seek", s(ServerMsg::Reply { req: 42, result: Ok(Reply::Seek(seek_view())) })),
        ("seek-invitation", s(ServerMsg::SeekInvitation(seek_view()))),
        ("answer-seek", c(43, ClientMsg::AnswerSeek { seek: 3, accept: true })),
        ("seek-changed", s(ServerMsg::Seek(SeekView { invited: None, waiting: true, ..seek_view() }))),
        ("cancel-seek", c(44, ClientMsg::CancelSeek { seek: 3 })),
        ("seek-ended", s(ServerMsg::SeekEnded { seek: 3, reason: SeekEnd::Expired })),
        (
            "match-found",
            s(ServerMsg::MatchFound { seek: 3, match_id: MatchId(12), seat: SeatId::BlackB, rated: true }),
        ),
        ("seek-pools", c(45, ClientMsg::SeekPools)),
        (
            "reply-seek-pools",
            s(ServerMsg::Reply {
                req: 45,
                result: Ok(Reply::SeekPools(vec![SeekPool {
                    time_control: "3+0".into(),
                    name: Some("blitz".into()),
                    rules: "mgimo-2017".into(),
                    rated: false,
                    quick: true,
                    players: 3,
                    people: 1,
                    longest_wait_ms: 12_000,
                }])),
            }),
        ),
        (
            "reply-seek-limit",
            s(ServerMsg::Reply {
                req: 46,
                result: Err(ErrorMsg {
                    code: ErrorCode::Limit(Limit::SeekPool),
                    rule: None,
                    message: "the server holds 2000 seeks, as many as it may (max_seeks); try again soon"
                        .into(),
                }),
            }),
        ),
        (
            "reply-registrations-limit",
            s(ServerMsg::Reply {
                req: 47,
                result: Err(ErrorMsg {
                    code: ErrorCode::Limit(Limit::Registrations),
                    rule: None,
                    message: "too many accounts registered from this address; try again later (registrations_per_address_per_hour)".into(),
                }),
            }),
        ),
        ("tournaments", c(48, ClientMsg::Tournaments { after: Some(9), limit: 20 })),
        (
            "reply-tournament-page",
            s(ServerMsg::Reply {
                req: 48,
                result: Ok(Reply::TournamentPage { tournaments: vec![tournament_summary()], next: Some(2) }),
            }),
        ),
        ("follow-tournament", c(49, ClientMsg::FollowTournament { tournament: Some(2) })),
        ("unfollow-tournament", c(50, ClientMsg::FollowTournament { tournament: None })),
        ("tournament-round", c(51, ClientMsg::TournamentRound { tournament: 2, round: 1 })),
        ("reply-tournament-round", s(ServerMsg::Reply { req: 51, result: Ok(Reply::TournamentRound(tournament_round())) })),
        (
            "reply-tournament-refusal",
            s(ServerMsg::Reply {
                req: 53,
                result: Err(ErrorMsg {
                    code: ErrorCode::Tournament(TourRefusal::NotYourChoice {
                        game: TourGame { round: 1, table: 2, game: 1 },
                        choice: ChoiceKind::Seating,
                    }),
                    rule: Some("S3".into()),
                    message: "team 2 does not choose the seating of round 1 table 2 game 1".into(),
                }),
            }),
        ),
        (
            "reply-choice-deadline",
            s(ServerMsg::Reply {
                req: 54,
                result: Err(ErrorMsg {
                    code: ErrorCode::Tournament(TourRefusal::DeadlinePassed {
                        game: TourGame { round: 2, table: 1, game: 2 },
                        due_ms: 1_764_000_300_000,
                    }),
                    rule: Some("S3".into()),
                    message: "the choices of round 2 table 1 game 2 were due at 1764000300000 ms, it is 1764000300500 ms".into(),
                }),
            }),
        ),
        (
            "reply-tournament-teams-limit",
            s(ServerMsg::Reply {
                req: 52,
                result: Err(ErrorMsg {
                    code: ErrorCode::Limit(Limit::TournamentTeams),
                    rule: None,
                    message: "a tournament has at most 64 teams here".into(),
                }),
            }),
        ),
        (
            "tournament",
            s(ServerMsg::Tournament {
                change: TourChange::Result { round: 1, table: 1, game: 1 },
                view: Box::new(tournament_view()),
            }),
        ),
        ("tournament-followed", s(ServerMsg::Tournament { change: TourChange::Followed, view: Box::new(tournament_view()) })),
        (
            "td-create",
            c(
                55,
                ClientMsg::Td(TdRequest::Create {
                    name: "Осенний турнир".into(),
                    rules: "mgimo-2017".into(),
                    time_control: "3+2".into(),
                    swiss_rounds: Some(3),
                    online: true,
                    check_in: true,
                    chess960: true,
                }),
            ),
        ),
        ("td-registration", c(56, ClientMsg::Td(TdRequest::Registration { tournament: 2, open: false }))),
        ("td-settings", c(57, ClientMsg::Td(TdRequest::Settings { tournament: 2, swiss_rounds: Some(4), check_in: true }))),
        ("td-check-in", c(58, ClientMsg::Td(TdRequest::CheckIn { tournament: 2, team: 3 }))),
        ("td-preview", c(59, ClientMsg::Td(TdRequest::Preview { tournament: 2 }))),
        (
            "td-pair-by-hand",
            c(
                60,
                ClientMsg::Td(TdRequest::PairByHand {
                    tournament: 2,
                    choice_window_ms: 120_000,
                    tables: vec![[1, 4], [2, 3]],
                    byes: vec![5],
                }),
            ),
        ),
        (
            "entry-invite",
            c(61, ClientMsg::Entry(EntryRequest::Invite { tournament: 2, team: "Ферзи".into(), partner: "ilya".into() })),
        ),
        ("entry-accept", c(62, ClientMsg::Entry(EntryRequest::Accept { tournament: 2, from: "zhenya".into() }))),
        ("entry-decline", c(63, ClientMsg::Entry(EntryRequest::Decline { tournament: 2, other: "zhenya".into() }))),
        ("entry-check-in", c(64, ClientMsg::Entry(EntryRequest::CheckIn { tournament: 2 }))),
        (
            "tournament-checked-in",
            s(ServerMsg::Tournament { change: TourChange::CheckedIn { team: 2 }, view: Box::new(tournament_view()) }),
        ),
        ("roles", c(65, ClientMsg::Roles)),
        ("reply-roles", s(ServerMsg::Reply { req: 65, result: Ok(Reply::Roles { roles: vec!["director".into()] }) })),
        (
            "analyse",
            c(
                66,
                ClientMsg::Analyse(AnalysisRequest {
                    bfen: "6rk/6pp/8/8/8/8/5PPP/6K1[N] w - - 0 1 | 1k6/1Q6/1K6/8/8/8/8/8[] b - - 0 1".into(),
                    rules: "classic".into(),
                    clocks_ms: Some([61_000, 9_500, 180_000, 2_000]),
                }),
            ),
        ),
        (
            "reply-analysis",
            s(ServerMsg::Reply {
                req: 66,
                result: Ok(Reply::Analysis(AnalysisView {
                    bfen: "6rk/6pp/8/8/8/8/5PPP/6K1[N] w - - 0 1 | 1k6/1Q6/1K6/8/8/8/8/8[] b - - 0 1".into(),
                    boards: [
                        BoardAnalysis {
                            board: Board::A,
                            to_move: Colour::White,
                            evaluation: Evaluation::MateIn { white: 1 },
                            best: Some(AnalysedMove {
                                san: "N@f7#".into(),
                                from: None,
                                to: 53,
                                drop: Some(PieceKind::Knight),
                                removal: None,
                            }),
                            line: vec![],
                            depth: 2,
                            nodes: 184,
                            wish: Some(PieceKind::Knight),
                            short_of_time: false,
                        },
                        BoardAnalysis {
                            board: Board::B,
                            to_move: Colour::Black,
                            evaluation: Evaluation::Mated { winner: Colour::White },
                            best: None,
                            line: vec![],
                            depth: 0,
                            nodes: 0,
                            wish: None,
                            short_of_time: true,
                        },
                    ],
                })),
            }),
        ),
        (
            "reply-analysis-lines",
            s(ServerMsg::Reply {
                req: 67,
                result: Ok(Reply::Analysis(AnalysisView {
                    bfen: "start | start".into(),
                    boards: [
                        BoardAnalysis {
                            board: Board::A,
                            to_move: Colour::White,
                            evaluation: Evaluation::Centipawns { white: -35 },
                            best: Some(AnalysedMove {
                                san: "e8=Qd1".into(),
                                from: Some(52),
                                to: 60,
                                drop: None,
                                removal: Some(3),
                            }),
                            line: vec!["Kxd1".into(), "N@f3+".into()],
                            depth: 9,
                            nodes: 300_000,
                            wish: None,
                            short_of_time: false,
                        },
                        BoardAnalysis {
                            board: Board::B,
                            to_move: Colour::White,
                            evaluation: Evaluation::Waiting,
                            best: None,
                            line: vec![],
                            depth: 0,
                            nodes: 0,
                            wish: Some(PieceKind::Pawn),
                            short_of_time: false,
                        },
                    ],
                })),
            }),
        ),
        (
            "reply-analysis-drawn-mate-against",
            s(ServerMsg::Reply {
                req: 68,
                result: Ok(Reply::Analysis(AnalysisView {
                    bfen: "start | start".into(),
                    boards: [
                        BoardAnalysis {
                            board: Board::A,
                            to_move: Colour::Black,
                            evaluation: Evaluation::Drawn,
                            best: None,
                            line: vec![],
                            depth: 0,
                            nodes: 0,
                            wish: None,
                            short_of_time: false,
                        },
                        BoardAnalysis {
                            board: Board::B,
                            to_move: Colour::Black,
                            evaluation: Evaluation::MateIn { white: -3 },
                            best: Some(AnalysedMove {
                                san: "O-O".into(),
                                from: Some(60),
                                to: 62,
                                drop: None,
                                removal: None,
                            }),
                            line: vec![],
                            depth: 7,
                            nodes: 12,
                            wish: None,
                            short_of_time: false,
                        },
                    ],
                })),
            }),
        ),
        (
            "review-record",
            c(
                71,
                ClientMsg::ReviewRecord(RecordReviewRequest {
                    bpgn: "[Rules \"classic\"]\n\n1A. e4 {179.000} 1a. P@e5 *\n".into(),
                    game: 1,
                    rules: None,
                    from: 0,
                }),
            ),
        ),
        (
            "reply-record-review",
            s(ServerMsg::Reply {
                req: 71,
                result: Ok(Reply::RecordReview(Box::new(RecordReview {
                    games: 1,
                    rules: "classic".into(),
                    time_control: Some("180+0".into()),
                    players: [Some("Anna".into()), None, Some("Вера".into()), None],
                    start: "start | start".into(),
                    start_clocks_ms: [Some(180_000), Some(180_000), Some(180_000), Some(180_000)],
                    total: 2,
                    moves: vec![ReviewedMove {
                        seat: SeatId::WhiteA,
                        number: 1,
                        text: "e4".into(),
                        san: "e4".into(),
                        uci: "e2e4".into(),
                        bfen: "after | start".into(),
                        clocks_ms: [Some(179_000), Some(180_000), None, None],
                        comment: Some("a good start".into()),
                        at_ms: Some(2_000),
                        running: [false, true, true, false],
                    }],
                    stopped: Some(1),
                    next: None,
                    impossible: vec![
                        ImpossibleView { index: 1, kind: 1, rule: "P1".into(), later: LaterView::ArbiterDecides },
                        ImpossibleView { index: 5, kind: 2, rule: "A1a".into(), later: LaterView::LegalAgain { index: 7 } },
                        ImpossibleView { index: 9, kind: 2, rule: "P2".into(), later: LaterView::Stands },
                    ],
                    unreadable: Some(UnreadableAt::Move { index: 12 }),
                    named: vec![
                        NamedMove { index: 1, label: "1a. P@e5".into() },
                        NamedMove { index: 5, label: "3A. Kxh1".into() },
                    ],
                    acts: vec![
                        ReviewedAct {
                            after_moves: 1,
                            at_ms: Some(2_500),
                            what: ActView::Played { seat: SeatId::BlackA, text: "e5".into() },
                            bfen: "after-e5 | start".into(),
                            clocks_ms: [Some(179_000), Some(179_500), None, None],
                            running: [true, false, true, false],
                        },
                        ReviewedAct {
                            after_moves: 1,
                            at_ms: Some(4_000),
                            what: ActView::Arbiter(ArbiterRequest::TakeBack { board: Board::A }),
                            bfen: "after | start".into(),
                            clocks_ms: [Some(179_000), Some(179_500), None, None],
                            running: [false, true, true, false],
                        },
                        ReviewedAct {
                            after_moves: 2,
                            at_ms: None,
                            what: ActView::End,
                            bfen: "after | start".into(),
                            clocks_ms: [None; 4],
                            running: [false; 4],
                        },
                    ],
                    explained: Some(ExplanationView {
                        outcome: Some(Outcome::Win(TeamId::One)),
                        rule: Some("E1".into()),
                        lines: vec![
                            ExplainedLine {
                                at_ms: Some(30_410),
                                in_window: true,
                                what: HappeningView::Flag { seat: SeatId::BlackB },
                            },
                            ExplainedLine {
                                at_ms: Some(30_600),
                                in_window: true,
                                what: HappeningView::Draw { board: Board::A, rule: "E3".into() },
                            },
                            ExplainedLine {
                                at_ms: Some(30_843),
                                in_window: true,
                                what: HappeningView::Mate { mated: SeatId::BlackA, by: "4A. Qxf7#".into() },
                            },
                            ExplainedLine {
                                at_ms: None,
                                in_window: false,
                                what: HappeningView::FlagWithdrawnByCredit {
                                    seat: SeatId::WhiteB,
                                    by: "9B. Nf3".into(),
                                    credit_ms: 550,
                                },
                            },
                            ExplainedLine {
                                at_ms: Some(-250),
                                in_window: false,
                                what: HappeningView::FlagWithdrawnByArbiter { seat: SeatId::WhiteA, by: None },
                            },
                            ExplainedLine {
                                at_ms: Some(40_000),
                                in_window: false,
                                what: HappeningView::Declared {
                                    winner: None,
                                    note: "ничья по решению".into(),
                                    by: Some("(secret)".into()),
                                },
                            },
                            ExplainedLine {
                                at_ms: Some(41_000),
                                in_window: false,
                                what: HappeningView::Annulled { note: String::new(), by: Some("alice".into()) },
                            },
                            ExplainedLine { at_ms: Some(30_843), in_window: true, what: HappeningView::Ended },
                        ],
                        weighing: vec![WeighingView::MateOverFlag, WeighingView::MateOverDraw],
                        rules: vec!["E1".into(), "K4".into(), "E6".into(), "E9".into()],
                    }),
                }))),
            }),
        ),
        (
            "refused-analyses",
            s(ServerMsg::Reply {
                req: 69,
                result: Err(ErrorMsg {
                    code: ErrorCode::Limit(Limit::Analyses),
                    message: "the server's engine is busy; ask again in a moment".into(),
                    rule: None,
                }),
            }),
        ),
        (
            "refused-position",
            s(ServerMsg::Reply {
                req: 70,
                result: Err(ErrorMsg {
                    code: ErrorCode::Invalid(Invalid::Position),
                    message: "the position does not read".into(),
                    rule: None,
                }),
            }),
        ),
        (
            "reply-not-in-field",
            s(ServerMsg::Reply {
                req: 60,
                result: Err(ErrorMsg {
                    code: ErrorCode::Tournament(TourRefusal::NotInField { team: 3 }),
                    rule: None,
                    message: "team #3 is not in this round's field".into(),
                }),
            }),
        ),
        // Version 9: refusals and results as facts, the official who acted typed.
        ("reply-illegal-removal", refusal(61, MatchRefusal::Illegal {
            board: Board::B,
            why: IllegalMove::WrongPiece { square: Square(3), board: Board::A, piece: PieceKind::Rook },
        })),
        ("reply-illegal-reserve", refusal(62, MatchRefusal::Illegal {
            board: Board::A,
            why: IllegalMove::NotInReserve { seat: SeatId::WhiteA, piece: PieceKind::Knight },
        })),
        ("reply-illegal-rank", refusal(63, MatchRefusal::Illegal {
            board: Board::A,
            why: IllegalMove::PawnRank { first: 2, last: 6 },
        })),
        ("reply-unreadable", refusal(64, MatchRefusal::Unreadable { board: Board::A, why: MoveText::Ambiguous })),
        ("reply-not-your-turn", refusal(66, MatchRefusal::NotYourTurn { seat: SeatId::BlackB })),
        ("reply-claim-refused", refusal(67, MatchRefusal::Claim(ClaimRefusal::Repetition {
            board: Board::A,
            seen: 2,
            needed: 3,
        }))),
        ("reply-take-back-refused", refusal(68, MatchRefusal::TakeBack(TakeBackRefusal::SquareOccupied {
            square: Square(59),
            board: Board::B,
            piece: PieceKind::Queen,
        }))),
        ("reply-position-refused", refusal(69, MatchRefusal::Position(PositionRefusal::Units {
            colour: Colour::Black,
            was: 32,
            would: 31,
        }))),
        (
            "reply-invalid",
            s(ServerMsg::Reply {
                req: 70,
                result: Err(ErrorMsg {
                    code: ErrorCode::Invalid(Invalid::Password { min: 8, max: 128 }),
                    rule: None,
                    message: "a password has 8 to 128 characters".into(),
                }),
            }),
        ),
        (
            "session-refused",
            s(ServerMsg::SessionRefused(ErrorMsg {
                code: ErrorCode::Session(SessionRefusal::Expired { days: 30 }),
                rule: None,
                message: "the session expired after 30 days unused".into(),
            })),
        ),
        (
            "resume-elsewhere",
            s(ServerMsg::ResumeElsewhere { match_id: MatchId(12), reason: ElsewhereReason::LeaseLost }),
        ),
        (
            "event-ended-drawn",
            s(ServerMsg::Event(MatchEvent {
                match_id: MatchId(7),
                seq: 90,
                at_ms: 100_000,
                kind: EventView::Ended(ResultView {
                    winner: None,
                    reason: "draw: board A drawn (Repetition) (E4)".into(),
                    rule: "E4".into(),
                    cause: Some(ResultCause::BoardDrawn { board: Board::A, how: DrawHow::Repetition }),
                    note: Some("the arbiter's words".into()),
                    rules: vec!["E4".into(), "K4".into(), "E8".into(), "E9".into()].into(),
                }),
                clocks_ms: [1, 2, 3, 4],
                running: [false; 4],
                bfen: None,
                server_time_us: 5,
            })),
        ),
        // Version 10: a call asking for a replay (A5), the arbiter's replay (A6) and its event.
        ("call-arbiter-replay", c(70, ClientMsg::CallArbiter { replay: Some(ReplayReason::WrongSetup) })),
        ("call-arbiter", c(71, ClientMsg::CallArbiter { replay: None })),
        (
            "arbiter-replay",
            c(
                72,
                ClientMsg::ArbiterAct {
                    match_id: MatchId(3),
                    act: ArbiterRequest::Replay { reason: ReplayReason::OutsideHint, note: "a spectator".into() },
                },
            ),
        ),
        (
            "event-arbiter-called-replay",
            s(ServerMsg::Event(MatchEvent {
                match_id: MatchId(7),
                seq: 12,
                at_ms: 9_000,
                kind: EventView::ArbiterCalled { seat: SeatId::WhiteB, replay: Some(ReplayReason::WrongSetup) },
                clocks_ms: [55_000, 58_000, 52_000, 60_000],
                running: [false; 4],
                bfen: None,
                server_time_us: 5,
            })),
        ),
        (
            "event-replayed",
            s(ServerMsg::Event(MatchEvent {
                match_id: MatchId(7),
                seq: 13,
                at_ms: 20_000,
                kind: EventView::ArbiterActed {
                    act: ArbiterRequest::Replay { reason: ReplayReason::WrongSetup, note: String::new() },
                    text: "replayed the match (wrong initial setup, A5)".into(),
                    by: Some(OfficialView::Account("olga".into())),
                },
                clocks_ms: [60_000; 4],
                running: [false; 4],
                bfen: Some(
                    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1 | \
                     rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1"
                        .into(),
                ),
                server_time_us: 5,
            })),
        ),
        // Version 16: a page of a round's games, for the director's desk.
        (
            "td-publish-games-page",
            c(
                73,
                ClientMsg::Td(TdRequest::Publish {
                    tournament: 2,
                    what: TdExport::GamesPage { round: 2, from: 4 },
                    language: "ru".into(),
                }),
            ),
        ),
        (
            "reply-games",
            s(ServerMsg::Reply {
                req: 73,
                result: Ok(Reply::Games { bpgn: "[Event \"?\"]\n\n*\n".into(), games: 1, next: Some(5) }),
            }),
        ),
        ("td-publish-sheet", c(74, ClientMsg::Td(TdRequest::Publish { tournament: 2, what: TdExport::Sheet { round: 1 }, language: "en".into() }))),
        // Version 16: an official's refusal as a code with its role (the nodes' secrets differ).
        (
            "refused-official-secret-differs",
            s(ServerMsg::Reply {
                req: 75,
                result: Err(ErrorMsg {
                    code: ErrorCode::Official(OfficialRefusal::SecretDiffers { role: OfficialRole::Arbiter }),
                    message: "the node that runs this is configured with another `arbiter_token`".into(),
                    rule: None,
                }),
            }),
        ),
        // Version 16: a password over plain HTTP from another machine.
        (
            "refused-unencrypted",
            s(ServerMsg::Reply {
                req: 76,
                result: Err(ErrorMsg {
                    code: ErrorCode::Unencrypted,
                    message: "a password or secret may not cross the network unencrypted".into(),
                    rule: None,
                }),
            }),
        ),
        // Version 16: a move the server's full disk could not store.
        (
            "refused-storage-full",
            s(ServerMsg::Reply {
                req: 77,
                result: Err(ErrorMsg {
                    code: ErrorCode::StorageFull,
                    message: "the server's disk is full".into(),
                    rule: None,
                }),
            }),
        ),
    ]
}

/// A match's refusal as a reply.
fn refusal(req: u32, why: MatchRefusal) -> Sample {
    let msg = ServerMsg::Reply {
        req,
        result: Err(ErrorMsg {
            code: ErrorCode::Match(why),
            rule: why.rule().map(str::to_owned),
            message: String::new(),
        }),
    };
    Sample { bytes: encode(&msg).unwrap(), json: serde_json::to_string(&msg).unwrap() }
}

fn tournament_summary() -> TournamentSummary {
    TournamentSummary {
        id: 2,
        name: "Осенний турнир".into(),
        phase: TournamentPhase::Running,
        format: TournamentFormat::Swiss { rounds: 3 },
        rules: "mgimo-2017".into(),
        time_control: "3+2".into(),
        online: true,
        chess960: false,
        teams: 3,
        rounds_paired: 1,
    }
}

fn tournament_view() -> TournamentView {
    let team = |team: u32, name: &str, players: [&str; 2]| TeamView {
        team,
        name: name.into(),
        players: players.map(String::from),
        withdrawn: team == 3,
    };
    TournamentView {
        summary: tournament_summary(),
        teams: vec![
            team(1, "Ладьи", ["anna", "boris"]),
            team(2, "Кони", ["vera", "gleb"]),
            team(3, "Слоны", ["dina", "egor"]),
        ],
        round: Some(tournament_round()),
        registration_open: false,
        check_in: true,
        checked_in: vec![2],
        invitations: vec![InvitationView {
            team: "Ферзи".into(), from: "zhenya".into(), to: "ilya".into()
        }],
        most_rounds: 3,
        now_ms: 1_764_000_060_000,
        standings: vec![
            StandingView {
                rank: 1,
                team: 3,
                withdrawn: true,
                points: 8,
                direct: 0,
                buchholz: 0,
                sonneborn_berger: 0,
                wins: 0,
            },
            StandingView {
                rank: 2,
                team: 1,
                withdrawn: false,
                points: 4,
                direct: 0,
                buchholz: 0,
                sonneborn_berger: 0,
                wins: 1,
            },
            StandingView {
                rank: 3,
                team: 2,
                withdrawn: false,
                points: 0,
                direct: 0,
                buchholz: 4,
                sonneborn_berger: 0,
                wins: 0,
            },
        ],
    }
}

fn tournament_round() -> RoundView {
    RoundView {
        round: 1,
        tables: vec![
            TableView::Pairing(PairingView {
                table: 1,
                first: 1,
                second: 2,
                repeat: false,
                games: vec![
                    GameView {
                        game: 1,
                        seating_team: 1,
                        colour_team: 2,
                        seating: Some(TdChoice::Crossed),
                        colours: Some(TdChoice::WhiteOnB),
                        seating_by_default: false,
                        colours_by_default: false,
                        seats: Some(["anna", "gleb", "vera", "boris"].map(String::from)),
                        choices_due_ms: 1_764_000_000_000,
                        match_id: Some(MatchId(12)),
                        result: Some(TourResultView {
                            outcome: TdOutcome::FirstWins,
                            source: TourResultSource::OverTheBoard,
                            director: Some(OfficialView::Secret),
                            note: "flag".into(),
                        }),
                    },
                    GameView {
                        game: 2,
                        seating_team: 2,
                        colour_team: 1,
                        seating: None,
                        colours: Some(TdChoice::WhiteOnA),
                        seating_by_default: false,
                        colours_by_default: true,
                        seats: None,
                        choices_due_ms: 1_764_000_300_000,
                        match_id: None,
                        result: None,
                    },
                ],
            }),
            TableView::Bye { table: 2, team: 3 },
        ],
        repeats_allowed: false,
        absent: vec![3],
        by_hand: Some(OfficialView::Account("marina".into())),
    }
}

fn seek_view() -> SeekView {
    SeekView {
        seek: 3,
        time_control: "3+0".into(),
        rules: "mgimo-2017".into(),
        rated: true,
        range: None,
        players: vec!["anna".into()],
        invited: Some("gleb".into()),
        waiting: false,
        waited_ms: 0,
        reach: 150,
        widening: 25,
        expires_in_ms: Some(60_000),
    }
}

fn change() -> RatingChange {
    RatingChange {
        seat: SeatId::BlackB,
        name: "gleb".into(),
        category: "blitz".into(),
        before: 1_500,
        after: 1_662,
        deviation: 290,
        provisional: true,
    }
}

fn blitz(rating: i32) -> RatingView {
    RatingView { category: "blitz".into(), rating, deviation: 80, games: 31, provisional: false }
}

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

#[test]
fn golden_vectors_fix_the_wire_format() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/golden.txt");
    let now: String = samples().iter().map(|(name, s)| format!("{name} {}\n", hex(&s.bytes))).collect();
    if std::env::var_os("SHVEDKA_BLESS").is_some() {
        std::fs::write(&path, &now).unwrap();
    }
    let recorded = std::fs::read_to_string(&path).unwrap();
    for (want, got) in recorded.lines().zip(now.lines()) {
        assert_eq!(got, want, "the wire format changed (see PROTOCOL.md)");
    }
    assert_eq!(recorded.lines().count(), now.lines().count());
}

#[test]
fn golden_vectors_decode_back() {
    for (name, Sample { bytes, .. }) in samples() {
        let ok = decode::<ClientFrame>(&bytes).map(|m| encode(&m).unwrap() == bytes).unwrap_or(false)
            || decode::<ServerMsg>(&bytes).map(|m| encode(&m).unwrap() == bytes).unwrap_or(false);
        assert!(ok, "{name} does not decode to itself");
    }
}

#[test]
fn a_hand_checked_vector() {
    // ClientFrame { req: 6, msg: Ready { ready: true } }: varint req 6, variant index 7 (Ready),
    // bool 1. Framed: a 4-byte big-endian length of 3.
    let bytes = frame(&ClientFrame { req: 6, msg: ClientMsg::Ready { ready: true } }).unwrap();
    assert_eq!(bytes, [0, 0, 0, 3, 6, 7, 1]);
}

/// The same samples as JSON, the browser's encoding (`web/codec.js` is checked against this file
/// by `web/codec.test.mjs`): one `name<TAB>json` line each.
#[test]
fn golden_json_vectors_fix_the_browser_encoding() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/golden.json.txt");
    let now: String = samples().iter().map(|(name, s)| format!("{name}\t{}\n", s.json)).collect();
    if std::env::var_os("SHVEDKA_BLESS").is_some() {
        std::fs::write(&path, &now).unwrap();
    }
    let recorded = std::fs::read_to_string(&path).unwrap();
    assert_eq!(recorded, now, "the JSON encoding changed (see PROTOCOL.md)");
    for (name, s) in samples() {
        let ok = serde_json::from_str::<ClientFrame>(&s.json).is_ok()
            || serde_json::from_str::<ServerMsg>(&s.json).is_ok();
        assert!(ok, "{name} does not read back");
    }
}
