//! A tournament night's entry on the wire (issue 30, protocol version 8): players form teams by
//! invitation, the director closes registration, teams check in and only those are paired, the
//! director sees the computer's pairing and pairs a round by hand — each change pushed to the
//! tournament's followers, each mistake refused with a typed code.

use std::time::Duration;

use shvedka_client::{Client, ClientError, Update, Updates};
use shvedka_proto::{
    EntryRequest, ErrorCode, Reply, ServerMsg, TableView, TdRequest, TourChange, TourRefusal, TournamentView,
};
use shvedka_tests::TestServer;

const SECRET: &str = "director_token = \"td-secret-of-the-night\"";

/// The next tournament push, within 10 s.
async fn pushed(feed: &mut Updates) -> (TourChange, TournamentView) {
    shvedka_tests::tournament_push(feed).await
}

/// The error code of a refused request.
fn code(r: Result<Reply, ClientError>) -> ErrorCode {
    match r {
        Err(ClientError::Server(e)) => e.code,
        other => panic!("expected a refusal: {other:?}"),
    }
}

fn refusal(r: TourRefusal) -> ErrorCode {
    ErrorCode::Tournament(r)
}

async fn invite(c: &Client, tournament: u64, team: &str, partner: &str) -> Result<Reply, ClientError> {
    c.entry(EntryRequest::Invite { tournament, team: team.into(), partner: partner.into() }).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn s3_teams_form_by_invitation_check_in_and_the_director_pairs_by_hand() {
    let server = TestServer::start(SECRET).await;
    let td = server.client("director").await;
    td.director("td-secret-of-the-night").await.expect("the director's secret");
    let create = TdRequest::Create {
        name: "Entry night".into(),
        rules: "mgimo-2017".into(),
        time_control: "3+2".into(),
        swiss_rounds: Some(5),
        online: false,
        check_in: true,
        chess960: false,
    };
    let Ok(Reply::Id(id)) = td.td(create).await else { panic!("created") };
    let mut wall = server.client("projector").await;
    let mut feed = wall.take_updates();
    wall.follow_tournament(Some(id)).await.expect("follow");
    let (_, v) = pushed(&mut feed).await;
    assert!(v.registration_open && v.check_in, "{v:?}");

    // Eight accounts form four teams by invitation.
    let names: Vec<String> = (1..=8).map(|i| format!("p{i}")).collect();
    let mut players = Vec::new();
    for n in &names {
        players.push(server.account(n).await);
    }
    // A guest cannot enter, and nobody invites a name without an account.
    let guest = server.client("guest").await;
    assert_eq!(code(invite(&guest, id, "Guests", "p1").await), ErrorCode::LoginRequired);
    assert_eq!(code(invite(&players[0], id, "Ghosts", "nobody").await), ErrorCode::NoSuchAccount);
    for t in 0..4 {
        let (a, b) = (&players[2 * t], &players[2 * t + 1]);
        invite(a, id, &format!("Team {}", t + 1), &names[2 * t + 1]).await.expect("an invitation");
        let (change, v) = pushed(&mut feed).await;
        assert_eq!(change, TourChange::Invited);
        assert_eq!(v.invitations.last().map(|i| (&i.from, &i.to)), Some((&names[2 * t], &names[2 * t + 1])));
        if t == 0 {
            // Invited twice, or inviting a player with an invitation pending: refused.
            assert_eq!(
                code(invite(&players[2], id, "Other", &names[1]).await),
                refusal(TourRefusal::AlreadyInTeam)
            );
            // The invited declines; the inviter asks again.
            b.entry(EntryRequest::Decline { tournament: id, other: names[0].clone() })
                .await
                .expect("declined");
            assert_eq!(pushed(&mut feed).await.0, TourChange::InvitationEnded);
            let gone = b.entry(EntryRequest::Accept { tournament: id, from: names[0].clone() }).await;
            assert_eq!(code(gone), refusal(TourRefusal::NoInvitation));
            invite(a, id, "Team 1", &names[1]).await.expect("invited again");
            pushed(&mut feed).await;
        }
        let Ok(Reply::Id(team)) =
            b.entry(EntryRequest::Accept { tournament: id, from: names[2 * t].clone() }).await
        else {
            panic!("accepted")
        };
        let (change, v) = pushed(&mut feed).await;
        assert_eq!(change, TourChange::Registered { team: team as u32 });
        assert_eq!(
            v.teams.last().map(|t| t.players.clone()),
            Some([names[2 * t].clone(), names[2 * t + 1].clone()])
        );
        assert!(v.invitations.is_empty());
    }

    // Closed registration refuses players, not the director.
    td.td(TdRequest::Registration { tournament: id, open: false }).await.expect("closed");
    assert_eq!(pushed(&mut feed).await.0, TourChange::Registration { open: false });
    let late = [server.account("late1").await, server.account("late2").await];
    assert_eq!(code(invite(&late[0], id, "Late", "late2").await), refusal(TourRefusal::RegistrationClosed));

    // Five rounds for four teams: the view says three is the most without a repeat.
    let (_, v) = {
        td.td(TdRequest::Settings { tournament: id, swiss_rounds: Some(3), check_in: true })
            .await
            .expect("settings");
        pushed(&mut feed).await
    };
    assert_eq!((v.most_rounds, v.summary.format), (3, shvedka_proto::TournamentFormat::Swiss { rounds: 3 }));
    td.td(TdRequest::Start { tournament: id }).await.expect("started");
    pushed(&mut feed).await;

    // Check-in: three teams by their players, none by the director; team 4 stays away.
    players[0].entry(EntryRequest::CheckIn { tournament: id }).await.expect("team 1 checks in");
    assert_eq!(pushed(&mut feed).await.0, TourChange::CheckedIn { team: 1 });
    players[3].entry(EntryRequest::CheckIn { tournament: id }).await.expect("team 2 checks in");
    pushed(&mut feed).await;
    td.td(TdRequest::CheckIn { tournament: id, team: 3 }).await.expect("the director checks team 3 in");
    let (_, v) = pushed(&mut feed).await;
    assert_eq!(v.checked_in, [1, 2, 3]);
    assert_eq!(
        code(late[0].entry(EntryRequest::CheckIn { tournament: id }).await),
        refusal(TourRefusal::NotAMember)
    );

    // The computer's proposal pairs the three checked in (one bye) and leaves team 4 absent.
    let Ok(Reply::TournamentRound(proposal)) = td.td(TdRequest::Preview { tournament: id }).await else {
        panic!("a proposal")
    };
    assert_eq!(proposal.absent, [4]);
    assert_eq!(proposal.tables.iter().filter(|t| matches!(t, TableView::Bye { .. })).count(), 1);
    assert!(proposal.by_hand.is_none());
    assert_eq!(pushed_none(&mut feed), 0, "a preview changes nothing");

    // By hand: a mistake is refused and changes nothing; then 1 meets 3 and 2 has the bye.
    let by_hand = |tables: Vec<[u32; 2]>, byes: Vec<u32>| TdRequest::PairByHand {
        tournament: id,
        choice_window_ms: 60_000,
        tables,
        byes,
    };
    assert_eq!(
        code(td.td(by_hand(vec![[1, 4]], vec![2])).await),
        refusal(TourRefusal::NotInField { team: 4 })
    );
    assert_eq!(
        code(td.td(by_hand(vec![[1, 3]], vec![3])).await),
        refusal(TourRefusal::PlacedTwice { team: 3 })
    );
    assert_eq!(td.td(by_hand(vec![[1, 3]], vec![2])).await.expect("paired by hand"), Reply::Id(1));
    let (change, v) = pushed(&mut feed).await;
    assert_eq!(change, TourChange::Paired { round: 1 });
    let round = v.round.expect("round 1");
    assert_eq!(
        round.by_hand,
        Some(shvedka_proto::OfficialView::Secret),
        "the round names who paired it by hand"
    );
    assert_eq!(round.absent, [4]);
    assert!(matches!(round.tables[1], TableView::Bye { team: 2, .. }), "{round:?}");
    assert!(v.checked_in.is_empty(), "check-in starts again for round 2");

    // The log names the act and its director.
    let Ok(Reply::Text(state)) = td
        .td(TdRequest::Publish {
            tournament: id,
            what: shvedka_proto::TdExport::State,
            language: String::new(),
        })
        .await
    else {
        panic!("the state")
    };
    assert!(state.contains("paired round 1 by hand: 1–3; byes: 2"), "{state}");
    server.stop().await;
}

/// How many tournament pushes wait (after a reply, every push sent before it has arrived).
fn pushed_none(feed: &mut Updates) -> usize {
    std::iter::from_fn(|| feed.try_recv())
        .filter(|u| matches!(u, Update::Server(ServerMsg::Tournament { .. })))
        .count()
}

/// A Chess960 tournament (RULES.md section 9): its online games' matches start from a Chess960
/// position, and the list says so.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_chess960_tournament_makes_chess960_matches() {
    let server = TestServer::start(SECRET).await;
    let td = server.client("director").await;
    td.director("td-secret-of-the-night").await.expect("the director's secret");
    let create = TdRequest::Create {
        name: "Fischer night".into(),
        rules: "mgimo-2017".into(),
        time_control: "3+2".into(),
        swiss_rounds: Some(1),
        online: true,
        check_in: false,
        chess960: true,
    };
    let Ok(Reply::Id(id)) = td.td(create).await else { panic!("created") };
    for (n, team) in ["A", "B"].iter().enumerate() {
        let players = [format!("c{n}a"), format!("c{n}b")];
        for p in &players {
            server.account(p).await.close().await;
        }
        td.td(TdRequest::Register { tournament: id, team: (*team).into(), players }).await.expect("register");
    }
    td.td(TdRequest::Start { tournament: id }).await.expect("start");
    td.td(TdRequest::PairNext { tournament: id, choice_window_ms: 200 }).await.expect("paired");
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    let matches = loop {
        let listed = td.list_matches().await.expect("the list");
        if !listed.is_empty() {
            break listed;
        }
        assert!(std::time::Instant::now() < deadline, "game 1's match is made after the choices' deadline");
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    assert!(matches.iter().all(|m| m.chess960), "{matches:?}");
    let (page, _) = td.tournaments(None, 10).await.expect("the list of tournaments");
    assert!(page.iter().any(|t| t.id == id && t.chess960));
    // Not the listing's word alone (issue 60): the players sit, and the countdown fixes a
    // Chess960 start, the same on both boards.
    let mut players = Vec::new();
    for n in 0..2 {
        for side in ["a", "b"] {
            players.push(server.account(&format!("c{n}{side}")).await);
        }
    }
    let mut seats = Vec::new();
    for c in &players {
        let (assigned, _) = c.assignment(id).await.expect("the assignment");
        seats.push(assigned.expect("each player has a seat in game 1's match"));
    }
    for (c, (m, seat)) in players.iter().zip(&seats) {
        c.take_seat(*m, *seat).await.expect("the reserved seat");
    }
    for c in &players {
        c.ready(true).await.expect("ready");
    }
    let rules = bughouse::RuleOptions::mgimo_2017().rules().expect("the rules");
    for c in &mut players {
        let e = shvedka_tests::wait_event(c, |e| {
            matches!(e.kind, shvedka_proto::EventView::CountdownStarted { .. })
        })
        .await;
        let bfen = e.bfen.expect("a Chess960 match's countdown carries its start");
        let game = bughouse::Game::from_bfen(&bfen, rules).expect("a start position");
        assert!((0..960).any(|n| bughouse::Game::chess960(n, rules) == game), "not a Chess960 start: {bfen}");
    }
    server.stop().await;
}
