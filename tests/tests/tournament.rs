//! Tournament nights end to end (RULES.md S3): a director creates the tournament, registers the
//! teams and pairs each round; bots play every game online (the server creates each match with
//! its reserved seats once the S3 choices are known); the results are recorded by themselves; the
//! standings agree with points counted by hand from the games; a restart between two rounds loses
//! nothing.

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use shvedka_bot::{BotConfig, play_tournament};
use shvedka_client::{Client, ClientError};
use shvedka_proto::{ErrorCode, Reply, TdChoice, TdExport, TdRequest};
use shvedka_tests::TestServer;
use shvedka_tournament::{Fixture, Outcome, Tournament};

pub(crate) const SECRET: &str = "director_token = \"td-secret-of-the-night\"";

pub(crate) async fn director(server: &TestServer) -> Client {
    let td = server.client("director").await;
    td.director("td-secret-of-the-night").await.expect("the director's secret");
    td
}

pub(crate) async fn id_of(r: Result<Reply, ClientError>) -> u64 {
    match r.expect("the director's command") {
        Reply::Id(id) => id,
        other => panic!("expected an id, got {other:?}"),
    }
}

async fn text(td: &Client, tournament: u64, what: TdExport) -> String {
    match td.td(TdRequest::Publish { tournament, what, language: String::new() }).await.expect("publish") {
        Reply::Text(t) => t,
        other => panic!("expected text, got {other:?}"),
    }
}

/// Every game's record (of round `round`, or 0 for all), page by page (a night's games do not
/// fit one frame).
pub(crate) async fn games_of(td: &Client, tournament: u64, round: u32) -> String {
    let mut all = String::new();
    let mut from = 0;
    loop {
        let what = TdExport::GamesPage { round, from };
        let reply = td.td(TdRequest::Publish { tournament, what, language: String::new() }).await;
        let Reply::Games { bpgn, games, next } = reply.expect("publish") else { panic!("expected games") };
        assert!(bpgn.len() <= 60 * 1024, "a page fits a frame: {} bytes", bpgn.len());
        assert_eq!(
            shvedka_records::parse_bpgn(&bpgn).map_or(0, |g| g.len()),
            games as usize,
            "the page counts its games"
        );
        all.push_str(&bpgn);
        match next {
            Some(n) => {
                assert_eq!(n, from + games, "the next page starts after this one");
                from = n;
            }
            None => return all,
        }
    }
}

async fn games(td: &Client, tournament: u64) -> String {
    games_of(td, tournament, 0).await
}

pub(crate) async fn state(td: &Client, tournament: u64) -> Tournament {
    serde_json::from_str(&text(td, tournament, TdExport::State).await).expect("the state reads")
}

pub(crate) fn player(team: usize, i: usize) -> String {
    format!("t{team}{}", ["a", "b"][i])
}

/// A tournament of `teams` teams of accounts (registered here), started.
pub(crate) async fn create(
    server: &TestServer,
    td: &Client,
    name: &str,
    teams: usize,
    swiss_rounds: Option<u32>,
) -> u64 {
    for t in 1..=teams {
        for i in 0..2 {
            server.account(&player(t, i)).await.close().await;
        }
    }
    let id = id_of(
        td.td(TdRequest::Create {
            name: name.into(),
            rules: "mgimo-2017".into(),
            time_control: "10s+0".into(),
            swiss_rounds,
            online: true,
            check_in: false,
            chess960: false,
        })
        .await,
    )
    .await;
    for t in 1..=teams {
        let number = id_of(
            td.td(TdRequest::Register {
                tournament: id,
                team: format!("Team {t}"),
                players: [player(t, 0), player(t, 1)],
            })
            .await,
        )
        .await;
        assert_eq!(number, t as u64);
    }
    td.td(TdRequest::Start { tournament: id }).await.expect("start");
    id
}

/// Pairs the next round and has bots play it to the end; returns the round.
async fn play_round(server: &TestServer, td: &Client, id: u64, teams: usize) -> u32 {
    let round =
        id_of(td.td(TdRequest::PairNext { tournament: id, choice_window_ms: 1500 }).await).await as u32;
    // S3: in game 1 the team named first chooses the seating; a choice by the other team for
    // the seating is refused, the right one is taken. The rest are left to the defaults.
    let t = state(td, id).await;
    if let Some((_, p)) = t.round(round).and_then(|r| r.pairings().next()) {
        // Both log in at once: a log-in checks a password hash, and the choices have a deadline.
        let (a, b) = (player(p.first.0 as usize, 0), player(p.second.0 as usize, 1));
        let (first, second) = tokio::join!(server.account(&a), server.account(&b));
        let wrong = second.choose(id, round, 1, TdChoice::Crossed).await.unwrap_err();
        let not_theirs = ErrorCode::Tournament(shvedka_proto::TourRefusal::NotYourChoice {
            game: shvedka_proto::TourGame { round, table: 1, game: 1 },
            choice: shvedka_proto::ChoiceKind::Seating,
        });
        assert!(
            matches!(wrong, ClientError::Server(ref e) if e.code == not_theirs && e.rule.as_deref() == Some("S3")),
            "{wrong:?}"
        );
        first.choose(id, round, 1, TdChoice::Crossed).await.expect("the seating team chooses");
        second.choose(id, round, 1, TdChoice::WhiteOnB).await.expect("the colour team chooses");
    }
    let mut bots = tokio::task::JoinSet::new();
    for team in 1..=teams {
        for i in 0..2 {
            let mut c = server.account(&player(team, i)).await;
            bots.spawn(async move {
                let config = BotConfig { level: 1, chat: false, pace: Duration::ZERO };
                let played = play_tournament(&mut c, id, &config, Duration::from_secs(4)).await;
                c.close().await;
                played.expect("the bot plays its games")
            });
        }
    }
    let deadline = Instant::now() + Duration::from_secs(240);
    while !state(td, id).await.is_round_complete(round) {
        assert!(Instant::now() < deadline, "round {round} is played within four minutes");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    while bots.join_next().await.is_some() {}
    // S3 online: game 2's choices were open from game 1's result for the round's window, not
    // due with game 1's at the pairing (while game 1 was still being played).
    let t = state(td, id).await;
    for (table, p) in t.round(round).expect("the round").pairings() {
        let (one, two) = (&p.games[0], &p.games[1]);
        assert!(
            two.choices_due_ms > one.choices_due_ms,
            "round {round} table {table}: game 2's window opened after game 1 ({} ≤ {})",
            two.choices_due_ms,
            one.choices_due_ms
        );
        // An online game's reason is the rule that decided it, a code every language says alike
        // (a Russian pairing sheet once printed the server's English description).
        for g in &p.games {
            let reason = &g.result.as_ref().expect("decided").reason;
            let rule_id = reason.len() >= 2
                && reason.starts_with(|c: char| c.is_ascii_uppercase())
                && reason[1..].chars().all(|c| c.is_ascii_digit());
            assert!(rule_id, "round {round} table {table}: {reason:?} is not a rule id");
        }
    }
    round
}

/// Points per team counted from the games' results, by hand: 1, ½ or 0 a game, 2 for a bye.
fn points_by_hand(t: &Tournament) -> BTreeMap<u32, f64> {
    let mut points: BTreeMap<u32, f64> = t.teams().iter().map(|team| (team.id.0, 0.0)).collect();
    for round in t.rounds() {
        for f in &round.fixtures {
            match f {
                Fixture::Bye(team) => *points.entry(team.0).or_default() += 2.0,
                Fixture::Pairing(p) => {
                    for g in &p.games {
                        let result = g.result.as_ref().expect("every game decided");
                        let (a, b) = match result.outcome {
                            Outcome::FirstWins => (1.0, 0.0),
                            Outcome::SecondWins => (0.0, 1.0),
                            Outcome::Draw => (0.5, 0.5),
                        };
                        *points.entry(p.first.0).or_default() += a;
                        *points.entry(p.second.0).or_default() += b;
                    }
                }
            }
        }
    }
    points
}

/// The points column of the published CSV standings, by team name.
fn published_points(csv: &str) -> BTreeMap<String, f64> {
    let mut lines = csv.lines();
    let header: Vec<&str> = lines.next().expect("a header").split(',').collect();
    let name = header.iter().position(|h| h.eq_ignore_ascii_case("team")).expect("a team column");
    let pts =
        header.iter().position(|h| h.to_ascii_lowercase().starts_with("points")).expect("a points column");
    lines
        .map(|l| {
            let cells: Vec<&str> = l.split(',').collect();
            (cells[name].trim_matches('"').to_owned(), cells[pts].parse().expect("points are a number"))
        })
        .collect()
}

fn check_standings(t: &Tournament, csv: &str) {
    let by_hand = points_by_hand(t);
    let published = published_points(csv);
    for team in t.teams() {
        assert_eq!(published[&team.name], by_hand[&team.id.0], "{}: {csv}", team.name);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn s3_round_robin_of_four_teams_played_online_to_the_end() {
    let server = TestServer::start(SECRET).await;
    let td = director(&server).await;
    let id = create(&server, &td, "Autumn cup", 4, None).await;
    for expected in 1..=3 {
        assert_eq!(play_round(&server, &td, id, 4).await, expected);
    }
    let t = state(&td, id).await;
    assert!(t.is_finished());
    // Everyone met everyone once, two games each.
    let mut met = std::collections::BTreeSet::new();
    for r in t.rounds() {
        for (_, p) in r.pairings() {
            assert!(met.insert((p.first.0.min(p.second.0), p.first.0.max(p.second.0))), "no repeat");
            assert!(p.games.iter().all(|g| g.match_id.is_some()), "both games online");
        }
    }
    assert_eq!(met.len(), 6);
    check_standings(&t, &text(&td, id, TdExport::StandingsCsv).await);
    let html = text(&td, id, TdExport::Html).await;
    assert!(html.contains("Autumn cup") && html.contains("Team 4"));
    let games = games(&td, id).await;
    let records = shvedka_records::parse_bpgn(&games).expect("all games as one BPGN file");
    assert_eq!(records.len(), 12, "six pairings, two games each");
    let places: Vec<[Option<&str>; 4]> =
        records.iter().map(|r| ["Event", "Round", "Table", "Game"].map(|tag| r.tag(tag))).collect();
    assert_eq!(
        places[0],
        [Some("Autumn cup"), Some("1"), Some("1"), Some("1")],
        "a game says where it was played"
    );
    assert_eq!(
        places[11],
        [Some("Autumn cup"), Some("3"), Some("2"), Some("2")],
        "the last: round 3, table 2, game 2"
    );
    // A round's games are that round's: four games each, and the rounds in turn are the whole.
    let mut by_round = String::new();
    for round in 1..=3 {
        let page = games_of(&td, id, round).await;
        assert_eq!(shvedka_records::parse_bpgn(&page).expect("a round's BPGN").len(), 4, "round {round}");
        by_round.push_str(&page);
    }
    assert_eq!(by_round, games, "rounds 1, 2 and 3 in turn are the tournament's games");
    let no_round = TdExport::GamesPage { round: 9, from: 0 };
    let refused = td.td(TdRequest::Publish { tournament: id, what: no_round, language: String::new() }).await;
    assert!(refused.is_err(), "round 9 of three is refused, not an empty file");
    // A finished pairing's result cannot be entered again; a correction by the director can.
    let again = td
        .td(TdRequest::Result {
            tournament: id,
            round: 1,
            table: 1,
            game: 1,
            outcome: shvedka_proto::TdOutcome::Draw,
            reason: "late claim".into(),
            correct: false,
            end_game: false,
        })
        .await;
    assert!(again.is_err(), "a decided game is not decided twice");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn s3_swiss_of_seven_teams_over_three_rounds_survives_a_restart_between_rounds() {
    let server = TestServer::start(SECRET).await;
    let td = director(&server).await;
    let id = create(&server, &td, "Swiss night", 7, Some(3)).await;
    assert_eq!(play_round(&server, &td, id, 7).await, 1);
    let before = state(&td, id).await;

    // The server goes down between rounds and comes back from its database.
    let server = server.restart().await;
    let td = director(&server).await;
    let after = state(&td, id).await;
    assert_eq!(
        serde_json::to_value(&after).unwrap(),
        serde_json::to_value(&before).unwrap(),
        "pairings and results survive the restart"
    );
    assert_eq!(play_round(&server, &td, id, 7).await, 2);
    assert_eq!(play_round(&server, &td, id, 7).await, 3);
    let t = state(&td, id).await;
    assert!(t.is_finished());
    let mut met = std::collections::BTreeSet::new();
    let mut byes = BTreeMap::new();
    for r in t.rounds() {
        assert_eq!(r.byes().count(), 1, "seven teams: one bye a round");
        for b in r.byes() {
            *byes.entry(b.0).or_insert(0) += 1;
        }
        for (_, p) in r.pairings() {
            assert!(
                met.insert((p.first.0.min(p.second.0), p.first.0.max(p.second.0))),
                "no repeated pairing"
            );
        }
    }
    assert!(byes.values().all(|&n| n == 1), "three different teams had the bye: {byes:?}");
    check_standings(&t, &text(&td, id, TdExport::StandingsCsv).await);
    let sheet = text(&td, id, TdExport::Sheet { round: 3 }).await;
    assert!(sheet.contains("Team"), "{sheet}");
    server.stop().await;
}
