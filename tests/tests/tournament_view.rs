//! Tournaments as data on the wire (issue 30, protocol version 7): the paged list, and a
//! followed tournament pushed whole at every change with what changed — registration, the start,
//! a round paired, an S3 choice (RULES.md S3), results entered and corrected, a withdrawal — its
//! standings and crosstable agreeing with points counted by hand from its own games and with the
//! published CSV.

use std::collections::BTreeMap;

use shvedka_client::{ClientError, Update, Updates};
use shvedka_proto::{
    ChoiceKind, ErrorCode, Reply, RoundView, ServerMsg, TableView, TdChoice, TdExport, TdOutcome, TdRequest,
    TourChange, TourGame, TourRefusal, TourResultSource, TournamentPhase, TournamentView,
};
use shvedka_tests::TestServer;

const SECRET: &str = "director_token = \"td-secret-of-the-night\"";

async fn id_of(r: Result<Reply, ClientError>) -> u64 {
    match r.expect("the director's command") {
        Reply::Id(id) => id,
        other => panic!("expected an id, got {other:?}"),
    }
}

/// The next tournament push, within 10 s.
async fn pushed(feed: &mut Updates) -> (TourChange, TournamentView) {
    shvedka_tests::tournament_push(feed).await
}

/// Whether a tournament push is waiting. Pushes and replies come in order on one connection, so
/// after a reply every push sent before it is in the updates already.
fn waiting(feed: &mut Updates) -> bool {
    std::iter::from_fn(|| feed.try_recv()).any(|u| matches!(u, Update::Server(ServerMsg::Tournament { .. })))
}

/// Points per team (quarter points) counted by hand from the rounds' games and byes.
fn points_by_hand(v: &TournamentView, rounds: &[RoundView]) -> BTreeMap<u32, u32> {
    let mut points: BTreeMap<u32, u32> = v.teams.iter().map(|t| (t.team, 0)).collect();
    for round in rounds {
        for table in &round.tables {
            match table {
                TableView::Bye { team, .. } => *points.entry(*team).or_default() += 8,
                TableView::Pairing(p) => {
                    for g in &p.games {
                        let Some(r) = &g.result else { continue };
                        let (a, b) = match r.outcome {
                            TdOutcome::FirstWins => (4, 0),
                            TdOutcome::SecondWins => (0, 4),
                            TdOutcome::Draw => (2, 2),
                        };
                        *points.entry(p.first).or_default() += a;
                        *points.entry(p.second).or_default() += b;
                    }
                }
            }
        }
    }
    points
}

/// The standings of `v` against points counted by hand from every round, asked for one by one
/// (the view carries the latest; it must be the last of them).
async fn check_standings(c: &shvedka_client::Client, id: u64, v: &TournamentView) {
    let mut rounds = Vec::new();
    for n in 1..=v.summary.rounds_paired {
        rounds.push(c.tournament_round(id, n).await.expect("a round"));
    }
    assert_eq!(rounds.last(), v.round.as_ref(), "the view carries the latest round");
    let by_hand = points_by_hand(v, &rounds);
    assert_eq!(v.standings.len(), v.teams.len(), "a line per team");
    for line in &v.standings {
        assert_eq!(line.points, by_hand[&line.team], "team {}: {v:?}", line.team);
    }
    let order: Vec<u32> = v.standings.iter().map(|l| l.points).collect();
    assert!(order.windows(2).all(|w| w[0] >= w[1]), "best first: {order:?}");
}

/// The published CSV's points column by team name, in quarter points.
fn published(csv: &str) -> BTreeMap<String, u32> {
    let mut lines = csv.lines();
    let header: Vec<&str> = lines.next().expect("a header").split(',').collect();
    let name = header.iter().position(|h| h.eq_ignore_ascii_case("team")).expect("a team column");
    let pts = header.iter().position(|h| h.to_ascii_lowercase().starts_with("points")).expect("points");
    lines
        .map(|l| {
            let cells: Vec<&str> = l.split(',').collect();
            let points: f64 = cells[pts].parse().expect("a number");
            (cells[name].trim_matches('"').to_owned(), (points * 4.0).round() as u32)
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn s3_a_followed_tournament_is_pushed_whole_at_every_change_and_listed_by_pages() {
    let server = TestServer::start(SECRET).await;
    let td = server.client("director").await;
    td.director("td-secret-of-the-night").await.expect("the director's secret");
    let players: Vec<[String; 2]> = (1..=4).map(|t| [format!("t{t}a"), format!("t{t}b")]).collect();
    for pair in &players {
        for p in pair {
            server.account(p).await.close().await;
        }
    }
    let create = |name: &str| TdRequest::Create {
        name: name.into(),
        rules: "mgimo-2017".into(),
        time_control: "3+2".into(),
        swiss_rounds: Some(2),
        online: false,
        check_in: false,
        chess960: false,
    };
    let id = id_of(td.td(create("Autumn night")).await).await;

    // A guest on the projector follows it: the whole of it comes first.
    let mut wall = server.client("projector").await;
    let mut feed = wall.take_updates();
    let missing = wall.follow_tournament(Some(id + 100)).await.unwrap_err();
    let no_such = ErrorCode::Tournament(TourRefusal::NoSuchTournament);
    assert!(matches!(missing, ClientError::Server(ref e) if e.code == no_such), "{missing:?}");
    wall.follow_tournament(Some(id)).await.expect("follow");
    let (change, v) = pushed(&mut feed).await;
    assert_eq!(change, TourChange::Followed);
    assert_eq!((v.summary.id, v.summary.phase, v.summary.teams), (id, TournamentPhase::Registering, 0));
    assert_eq!(v.summary.name, "Autumn night");

    for (n, pair) in players.iter().enumerate() {
        let team = id_of(
            td.td(TdRequest::Register {
                tournament: id,
                team: format!("Team {}", n + 1),
                players: pair.clone(),
            })
            .await,
        )
        .await;
        let (change, v) = pushed(&mut feed).await;
        assert_eq!(change, TourChange::Registered { team: team as u32 });
        assert_eq!(v.teams.last().map(|t| (&t.name, &t.players)), Some((&format!("Team {}", n + 1), pair)));
    }

    // The list: newest first, by pages.
    let later = id_of(td.td(create("Winter night")).await).await;
    let (page, next) = wall.tournaments(None, 1).await.expect("the first page");
    assert_eq!((page.iter().map(|t| t.id).collect::<Vec<_>>(), next), (vec![later], Some(later)));
    let (page, next) = wall.tournaments(next, 1).await.expect("the second page");
    assert_eq!((page.iter().map(|t| (t.id, t.teams)).collect::<Vec<_>>(), next), (vec![(id, 4)], None));
    assert!(!waiting(&mut feed), "another tournament's creation is not pushed to this one's followers");

    td.td(TdRequest::Start { tournament: id }).await.expect("start");
    assert_eq!(pushed(&mut feed).await.0, TourChange::Started);
    td.td(TdRequest::PairNext { tournament: id, choice_window_ms: 600_000 }).await.expect("pair");
    let (change, v) = pushed(&mut feed).await;
    assert_eq!(change, TourChange::Paired { round: 1 });
    assert_eq!(v.summary.phase, TournamentPhase::Running);
    let TableView::Pairing(p) = &v.round.as_ref().expect("round 1").tables[0] else {
        panic!("table 1 is a pairing: {v:?}")
    };
    let (first, second) = (p.first, p.second);
    // S3: game 1 is seated by the team named first and coloured by the other; game 2 swaps.
    assert_eq!((p.games[0].seating_team, p.games[0].colour_team), (first, second));
    assert_eq!((p.games[1].seating_team, p.games[1].colour_team), (second, first));
    assert!(p.games.iter().all(|g| g.seating.is_none() && g.seats.is_none() && g.choices_due_ms > 0));

    // The seating team chooses; the colour team chooses; the seats follow.
    let seater = server.account(&players[first as usize - 1][0]).await;
    let colourer = server.account(&players[second as usize - 1][1]).await;
    // S3, refused with a typed reason: the colour team choosing the seating, a player of no
    // team, a choice made twice.
    let game1 = TourGame { round: 1, table: 1, game: 1 };
    let refusal = |r: Result<(), ClientError>| match r {
        Err(ClientError::Server(e)) => (e.code, e.rule),
        other => panic!("expected a refusal: {other:?}"),
    };
    let not_theirs = TourRefusal::NotYourChoice { game: game1, choice: ChoiceKind::Seating };
    assert_eq!(
        refusal(colourer.choose(id, 1, 1, TdChoice::Straight).await),
        (ErrorCode::Tournament(not_theirs), Some("S3".to_owned()))
    );
    let stranger = server.account("stranger").await;
    assert_eq!(
        refusal(stranger.choose(id, 1, 1, TdChoice::Straight).await).0,
        ErrorCode::Tournament(TourRefusal::NotAMember)
    );
    seater.choose(id, 1, 1, TdChoice::Crossed).await.expect("the seating team chooses");
    let twice = TourRefusal::AlreadyChosen { game: game1, choice: ChoiceKind::Seating };
    assert_eq!(refusal(seater.choose(id, 1, 1, TdChoice::Straight).await).0, ErrorCode::Tournament(twice));
    assert_eq!(pushed(&mut feed).await.0, TourChange::Chose { round: 1, table: 1, game: 1 });
    colourer.choose(id, 1, 1, TdChoice::WhiteOnB).await.expect("the colour team chooses");
    let (_, v) = pushed(&mut feed).await;
    let TableView::Pairing(p) = &v.round.as_ref().expect("round 1").tables[0] else { panic!() };
    assert_eq!((p.games[0].seating, p.games[0].colours), (Some(TdChoice::Crossed), Some(TdChoice::WhiteOnB)));
    let seats = p.games[0].seats.clone().expect("both choices make the seats");
    // White on B for the colour team: its player faces the seating team's first on board A as Black.
    assert_eq!(seats[0], players[first as usize - 1][0], "White-A: the seating team's first player");

    // The director enters every result of round 1; each is pushed and the standings agree.
    let outcomes = [TdOutcome::FirstWins, TdOutcome::Draw, TdOutcome::SecondWins, TdOutcome::FirstWins];
    for (i, outcome) in outcomes.into_iter().enumerate() {
        let (table, game) = (i as u32 / 2 + 1, i as u32 % 2 + 1);
        let result = TdRequest::Result {
            tournament: id,
            round: 1,
            table,
            game,
            outcome,
            reason: "over the board".into(),
            correct: false,
            end_game: false,
        };
        td.td(result).await.expect("a result");
        let (change, v) = pushed(&mut feed).await;
        assert_eq!(change, TourChange::Result { round: 1, table, game });
        check_standings(&wall, id, &v).await;
    }
    let (_, v) = {
        let correct = TdRequest::Result {
            tournament: id,
            round: 1,
            table: 1,
            game: 2,
            outcome: TdOutcome::SecondWins,
            reason: "the arbiter found a flag".into(),
            correct: true,
            end_game: false,
        };
        td.td(correct).await.expect("a correction");
        pushed(&mut feed).await
    };
    let TableView::Pairing(p) = &v.round.as_ref().expect("round 1").tables[0] else { panic!() };
    let corrected = p.games[1].result.clone().expect("the corrected result");
    assert_eq!(
        (corrected.outcome, corrected.source),
        (TdOutcome::SecondWins, TourResultSource::OverTheBoard)
    );
    assert_eq!(
        (corrected.director.as_ref(), corrected.note.as_str()),
        (Some(&shvedka_proto::OfficialView::Secret), "the arbiter found a flag")
    );
    check_standings(&wall, id, &v).await;
    let csv = match td
        .td(TdRequest::Publish { tournament: id, what: TdExport::StandingsCsv, language: String::new() })
        .await
    {
        Ok(Reply::Text(csv)) => csv,
        other => panic!("expected the CSV: {other:?}"),
    };
    let by_name: BTreeMap<String, u32> =
        v.standings.iter().map(|l| (v.teams[l.team as usize - 1].name.clone(), l.points)).collect();
    assert_eq!(published(&csv), by_name, "the pushed standings are the published ones");

    td.td(TdRequest::Withdraw { tournament: id, team: 4 }).await.expect("withdraw");
    let (change, v) = pushed(&mut feed).await;
    assert_eq!(change, TourChange::Withdrew { team: 4 });
    assert!(v.teams[3].withdrawn && v.standings.iter().any(|l| l.team == 4 && l.withdrawn));

    let none = wall.tournament_round(id, 9).await.unwrap_err();
    let unknown = ErrorCode::Tournament(TourRefusal::UnknownRound { round: 9 });
    assert!(matches!(none, ClientError::Server(ref e) if e.code == unknown), "{none:?}");
    let long = td
        .td(TdRequest::Result {
            tournament: id,
            round: 1,
            table: 2,
            game: 1,
            outcome: TdOutcome::Draw,
            reason: "ж".repeat(101),
            correct: true,
            end_game: false,
        })
        .await
        .unwrap_err();
    assert!(
        matches!(long, ClientError::Server(ref e) if e.code == ErrorCode::Invalid(shvedka_proto::Invalid::NoteLength { max: 100 })),
        "{long:?}"
    );

    // Following another tournament stops the first; following none stops all.
    wall.follow_tournament(Some(later)).await.expect("follow the other");
    assert_eq!(pushed(&mut feed).await.1.summary.id, later);
    // Round 2 with a deadline already past: a choice is refused, saying when it was due.
    td.td(TdRequest::PairNext { tournament: id, choice_window_ms: 0 }).await.expect("round 2");
    let round2 = wall.tournament_round(id, 2).await.expect("round 2");
    let TableView::Pairing(p2) = &round2.tables[0] else { panic!("table 1 of round 2: {round2:?}") };
    let late = server.account(&players[p2.first as usize - 1][0]).await;
    let due_ms = p2.games[0].choices_due_ms;
    let passed = TourRefusal::DeadlinePassed { game: TourGame { round: 2, table: 1, game: 1 }, due_ms };
    assert_eq!(
        refusal(late.choose(id, 2, 1, TdChoice::Crossed).await),
        (ErrorCode::Tournament(passed), Some("S3".to_owned()))
    );
    wall.tournaments(None, 5).await.expect("a round trip after the change");
    assert!(!waiting(&mut feed), "a tournament no longer followed is not pushed");
    wall.follow_tournament(None).await.expect("follow none");
    td.td(TdRequest::Register { tournament: later, team: "Late".into(), players: players[0].clone() })
        .await
        .expect("register in the other");
    wall.tournaments(None, 5).await.expect("a round trip after the change");
    assert!(!waiting(&mut feed), "following none, nothing is pushed");
    server.stop().await;
}
