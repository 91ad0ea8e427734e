//! A director's result for a game (issue 57, RULES.md S3): a game in play is ended only
//! deliberately — without `end_game` the result is refused, naming the game and its match; with
//! it the match itself ends with the director's result and his words, its players are told, and
//! the tournament records the same result (the board and the standings never disagree). A result
//! entered by mistake for a game not played online is cleared.

use std::time::{Duration, Instant};

use shvedka_client::{Client, ClientError};
use shvedka_proto::{ErrorCode, EventView, MatchId, TdOutcome, TdRequest, TeamId, TourGame, TourRefusal};
use shvedka_tests::{TestServer, wait_event};
use shvedka_tournament::{Outcome, ResultSource};

use crate::tournament::{SECRET, director, id_of, player, state};

/// Two teams of accounts in an online tournament at 5+0, round 1 paired with the defaults
/// taken at once, game 1's match made and its four players seated, its clocks running. The
/// tournament, the match and the players (in `player(team, i)` order: team 1's two, team 2's).
pub(crate) async fn game_one_in_play(server: &TestServer, td: &Client) -> (u64, MatchId, Vec<Client>) {
    for t in 1..=2 {
        for i in 0..2 {
            server.account(&player(t, i)).await.close().await;
        }
    }
    let id = id_of(
        td.td(TdRequest::Create {
            name: "Evening".into(),
            rules: "mgimo-2017".into(),
            time_control: "5+0".into(),
            swiss_rounds: None,
            online: true,
            check_in: false,
            chess960: false,
        })
        .await,
    )
    .await;
    for t in 1..=2 {
        let players = [player(t, 0), player(t, 1)];
        id_of(td.td(TdRequest::Register { tournament: id, team: format!("Team {t}"), players }).await).await;
    }
    td.td(TdRequest::Start { tournament: id }).await.expect("start");
    td.td(TdRequest::PairNext { tournament: id, choice_window_ms: 0 }).await.expect("pair");
    let mut players = Vec::new();
    for t in 1..=2 {
        for i in 0..2 {
            players.push(server.account(&player(t, i)).await);
        }
    }
    let deadline = Instant::now() + Duration::from_secs(20);
    let mut seated = None;
    while seated.is_none() {
        assert!(Instant::now() < deadline, "game 1's match is made");
        let mut all = Vec::new();
        for c in &players {
            all.push(c.assignment(id).await.expect("the assignment").0);
        }
        if all.iter().all(Option::is_some) {
            seated = Some(all.into_iter().flatten().collect::<Vec<_>>());
        } else {
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }
    let seated = seated.unwrap_or_default();
    let m = seated[0].0;
    for (c, (_, seat)) in players.iter().zip(&seated) {
        c.take_seat(m, *seat).await.expect("the reserved seat");
    }
    for c in &players {
        c.ready(true).await.expect("ready");
    }
    for c in &mut players {
        wait_event(c, |e| matches!(e.kind, EventView::Started)).await;
    }
    (id, m, players)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn s3_a_result_for_a_game_in_play_is_entered_only_deliberately_and_ends_its_match() {
    let server = TestServer::start(SECRET).await;
    let td = director(&server).await;
    let (id, m, mut players) = game_one_in_play(&server, &td).await;
    // Nobody chose within the window of 0 ms: the view says both choices are the defaults (S3).
    let round = td.tournament_round(id, 1).await.expect("round 1");
    let shvedka_proto::TableView::Pairing(p) = &round.tables[0] else { panic!("table 1 is a pairing") };
    assert_eq!((p.games[0].seating_by_default, p.games[0].colours_by_default), (true, true));
    let enter = |end_game| TdRequest::Result {
        tournament: id,
        round: 1,
        table: 1,
        game: 1,
        outcome: TdOutcome::SecondWins,
        reason: "team 1 left the hall".into(),
        correct: false,
        end_game,
    };
    // A stray click: refused, naming the game and its match; the match plays on.
    let refused = td.td(enter(false)).await.unwrap_err();
    let in_play = ErrorCode::Tournament(TourRefusal::GameInPlay {
        game: TourGame { round: 1, table: 1, game: 1 },
        match_id: m,
    });
    assert!(matches!(&refused, ClientError::Server(e) if e.code == in_play), "{refused:?}");
    assert!(state(&td, id).await.round(1).unwrap().pairings().all(|(_, p)| p.games[0].result.is_none()));
    // Deliberately: the match ends with the director's result and words, and its players are told.
    td.td(enter(true)).await.expect("the director ends the game in play");
    let ended = wait_event(&mut players[0], |e| matches!(e.kind, EventView::Ended(_))).await;
    let EventView::Ended(r) = ended.kind else { unreachable!() };
    assert_eq!(r.note.as_deref(), Some("team 1 left the hall"));
    let t = state(&td, id).await;
    let (_, p) = t.round(1).unwrap().pairings().next().unwrap();
    let g = p.games[0].result.clone().expect("game 1 has the director's result");
    assert_eq!((g.outcome, g.source), (Outcome::SecondWins, ResultSource::Director));
    // The match's winner is the team the tournament names: team 2 of the tournament sits in
    // the match as the team on White-A or the other.
    let seats = p.games[0].seats.expect("seated");
    let winner_is_team_one = seats[0].team == p.second;
    assert_eq!(r.winner, Some(if winner_is_team_one { TeamId::One } else { TeamId::Two }));
    // Entered again without `correct`: refused, the match untouched.
    let again = td.td(enter(true)).await.unwrap_err();
    assert!(
        matches!(&again, ClientError::Server(e) if matches!(e.code, ErrorCode::Tournament(TourRefusal::AlreadyDecided { .. }))),
        "{again:?}"
    );
    // Corrected: the match's result is corrected with it (its players are told), one result.
    let correct = TdRequest::Result {
        tournament: id,
        round: 1,
        table: 1,
        game: 1,
        outcome: TdOutcome::Draw,
        reason: "agreed draw, reported late".into(),
        correct: true,
        end_game: false,
    };
    td.td(correct).await.expect("the director corrects game 1");
    let corrected = wait_event(
        &mut players[3],
        |e| matches!(&e.kind, EventView::Ended(r) if r.note.as_deref() == Some("agreed draw, reported late")),
    )
    .await;
    let EventView::Ended(r) = corrected.kind else { unreachable!() };
    assert_eq!(r.winner, None, "the match is drawn as the tournament's game is");
    let t = state(&td, id).await;
    let g = t.round(1).unwrap().pairings().next().unwrap().1.games[0].result.clone().unwrap();
    assert_eq!((g.outcome, g.source), (Outcome::Draw, ResultSource::Director));
    // Game 1 played online: its result is corrected, not cleared.
    let clear = TdRequest::ClearResult { tournament: id, round: 1, table: 1, game: 1 };
    let refused = td.td(clear).await.unwrap_err();
    assert!(
        matches!(&refused, ClientError::Server(e) if matches!(e.code, ErrorCode::Tournament(TourRefusal::PlayedOnline { .. }))),
        "{refused:?}"
    );
    server.stop().await;
}

/// Issue 57, item 4: a tournament game's seats are reserved for its players, so the server's
/// bots are refused there with a reason (`Busy::Reserved`, not an accepted request whose bots
/// never sit), and its state says so, so a client offers no bots for it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn s3_no_bot_takes_a_reserved_tournament_seat_and_the_state_says_the_seats_are_reserved() {
    let server = TestServer::start(SECRET).await;
    let td = director(&server).await;
    let (id, m, players) = game_one_in_play(&server, &td).await;
    let refused = players[0].request(shvedka_proto::ClientMsg::FillWithBots { match_id: m, level: 2 }).await;
    let reserved = ErrorCode::Busy(shvedka_proto::Busy::Reserved);
    assert!(matches!(&refused, Err(ClientError::Server(e)) if e.code == reserved), "{refused:?}");
    let mut watcher = server.client("watcher").await;
    watcher.watch(m).await.expect("a spectator follows the game");
    let told =
        shvedka_tests::wait_msg(&mut watcher, |msg| matches!(msg, shvedka_proto::ServerMsg::State(_))).await;
    let shvedka_proto::ServerMsg::State(s) = told else { unreachable!() };
    assert!(s.reserved, "a tournament game's state says its seats are reserved");
    // And which game it is, the teams by name as the tournament numbers them (issue 57, item 6):
    // the match's team 1 is the team on White-A.
    let t = state(&td, id).await;
    let (_, p) = t.round(1).unwrap().pairings().next().unwrap();
    let on_white_a = p.games[0].seats.expect("seated")[0].team;
    let name = |n| t.team(n).unwrap().name.clone();
    let other = if on_white_a == p.first { p.second } else { p.first };
    let game = s.tournament.expect("a tournament game's state says which game it is");
    assert_eq!(
        (game.tournament, game.name.as_str(), game.round, game.table, game.game),
        (id, "Evening", 1, 1, 1)
    );
    assert_eq!(game.teams, [name(on_white_a), name(other)]);
    // An ordinary match's does not.
    let host = server.client("host").await;
    let casual = host.create_match("mgimo-2017", "blitz", true).await.expect("a casual match");
    let mut other = server.client("other").await;
    other.watch(casual).await.expect("follows the casual match");
    let state =
        shvedka_tests::wait_msg(&mut other, |msg| matches!(msg, shvedka_proto::ServerMsg::State(_))).await;
    let shvedka_proto::ServerMsg::State(s) = state else { unreachable!() };
    assert!(!s.reserved, "an ordinary match's seats are anyone's");
    assert!(s.tournament.is_none(), "and it is no tournament's game");
    server.stop().await;
}
