//! Rated play (issue 18): a match created rated seats only accounts; when it is decided the four
//! ratings of its category change as Glicko-2 says (a team as strong as the mean of its
//! partners), each player's change is pushed to the followers (`ServerMsg::Rated`) and kept in
//! the match state, the profile and the leaderboard read them back, and they survive a restart.
//! A casual or annulled match changes nothing; an arbiter's declared result counts as played.

use shvedka_client::{Client, ClientError};
use shvedka_proto::{
    ArbiterRequest, ClientMsg, ErrorCode, EventView, MatchId, RatingChange, SeatId, ServerMsg, TeamId,
};
use shvedka_tests::{TestServer, wait_event, wait_msg};

fn code<T: std::fmt::Debug>(r: Result<T, ClientError>) -> ErrorCode {
    match r {
        Err(ClientError::Server(e)) => e.code,
        other => panic!("expected a refusal, got {other:?}"),
    }
}

/// Four accounts seated in `SeatId::ALL` order in a new match (rated or not) of 3+2 (blitz), and
/// ready: the match has started.
async fn started(server: &TestServer, names: [&str; 4], rated: bool) -> (MatchId, Vec<Client>) {
    let mut clients = Vec::new();
    for name in names {
        clients.push(server.account(name).await);
    }
    let id = if rated {
        clients[0].create_rated("classic", "3+2").await.expect("a rated match")
    } else {
        clients[0].create_match("classic", "3+2", true).await.expect("a casual match")
    };
    for (c, seat) in clients.iter().zip(SeatId::ALL) {
        c.take_seat(id, seat).await.expect("an account takes a seat");
    }
    for c in &clients {
        c.ready(true).await.expect("ready");
    }
    for c in &mut clients {
        wait_event(c, |e| matches!(e.kind, EventView::Started)).await;
    }
    (id, clients)
}

/// What Glicko-2 makes of four newcomers (1500, deviation 350) when one team beats the other,
/// worked by hand as the team model says (crates/ratings/src/team.rs): the player counts as half
/// of his team (rating 1500, deviation 350 / 2 = 175) against an opponent made of the other team
/// and his partner's half (1500, deviation √(3 · 350²) / 2 ≈ 303.1), and his change is doubled.
fn winner_by_hand() -> f64 {
    let scale = 173.7178;
    let (phi, phi_j) = (175.0 / scale, 303.1089 / scale);
    let g = 1.0 / (1.0 + 3.0 * phi_j * phi_j / std::f64::consts::PI.powi(2)).sqrt();
    let v = 1.0 / (g * g * 0.25);
    let phi_star = (phi * phi + 0.03f64.powi(2)).sqrt();
    let phi_new = 1.0 / (1.0 / (phi_star * phi_star) + 1.0 / v).sqrt();
    1500.0 + 2.0 * scale * phi_new * phi_new * g * 0.5
}

/// The partnership of two newcomers beating another, as one Glicko-2 player (1500, 350) beating
/// another: Glickman's formulas for one game with an expected score of one half.
fn pair_winner_by_hand() -> (f64, f64) {
    let scale = 173.7178;
    let phi = 350.0 / scale;
    let g = 1.0 / (1.0 + 3.0 * phi * phi / std::f64::consts::PI.powi(2)).sqrt();
    let v = 1.0 / (g * g * 0.25);
    let phi_star = (phi * phi + 0.06f64.powi(2)).sqrt();
    let phi_new = 1.0 / (1.0 / (phi_star * phi_star) + 1.0 / v).sqrt();
    (1500.0 + scale * phi_new * phi_new * g * 0.5, phi_new * scale)
}

async fn rated_push(c: &mut Client) -> Vec<RatingChange> {
    match wait_msg(c, |m| matches!(m, ServerMsg::Rated { .. })).await {
        ServerMsg::Rated { changes, .. } => changes,
        _ => unreachable!(),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rated_match_changes_the_four_ratings_as_glicko2_says_and_they_survive_a_restart() {
    let server = TestServer::start("").await;
    let (id, mut c) = started(&server, ["anna", "boris", "vera", "gleb"], true).await;
    let mut watcher = server.client("watcher").await;
    watcher.watch(id).await.unwrap();
    // White-A resigns: team 2 (Black-A and White-B) wins.
    c[0].resign().await.expect("resign");
    let won = winner_by_hand();
    for client in &mut c {
        wait_event(client, |e| matches!(e.kind, EventView::Ended(_))).await;
        let changes = rated_push(client).await;
        assert_eq!(changes.iter().map(|x| x.seat).collect::<Vec<_>>(), SeatId::ALL, "in seat order");
        for (x, name) in changes.iter().zip(["anna", "boris", "vera", "gleb"]) {
            assert_eq!((x.name.as_str(), x.category.as_str(), x.before), (name, "blitz", 1500));
            assert!(x.provisional, "a newcomer stays provisional after one match: {x:?}");
        }
        let winners = [changes[1].after, changes[2].after];
        let losers = [changes[0].after, changes[3].after];
        for after in winners {
            assert!((f64::from(after) - won).abs() <= 1.0, "a winner's {after} against {won:.1} by hand");
        }
        for after in losers {
            let lost = 3000.0 - won;
            assert!((f64::from(after) - lost).abs() <= 1.0, "a loser's {after} against {lost:.1} by hand");
        }
    }
    // A spectator hears it too.
    let pushed = rated_push(&mut watcher).await;

    let profile = c[1].profile("ANNA").await.expect("anna's profile, by any case");
    assert_eq!(profile.name, "anna");
    let blitz = &profile.categories[0];
    assert_eq!((blitz.rating.category.as_str(), blitz.rating.games), ("blitz", 1));
    assert_eq!(blitz.rating.rating, pushed[0].after);
    assert_eq!(blitz.history.len(), 1);
    assert_eq!((blitz.history[0].match_id, blitz.history[0].before), (id, 1500));
    // Her partner was gleb (Black-B): the pair's own rating, as one player who lost.
    let (pair_won, pair_deviation) = pair_winner_by_hand();
    assert_eq!(blitz.partners.len(), 1, "{:?}", blitz.partners);
    let pair = &blitz.partners[0];
    assert_eq!((pair.name.as_str(), pair.rating.games), ("gleb", 1));
    assert!((f64::from(pair.rating.rating) - (3000.0 - pair_won)).abs() <= 1.0, "{pair:?}");
    assert!((f64::from(pair.rating.deviation) - pair_deviation).abs() <= 1.0, "{pair:?}");
    // The players of a match are noted for their recent matches once its task has ended.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    let profile = loop {
        let p = c[1].profile("anna").await.unwrap();
        if p.recent.first().map(|m| m.match_id) == Some(id) {
            break p;
        }
        assert!(std::time::Instant::now() < deadline, "the match is among her recent ones: {p:?}");
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    };
    // Provisional ratings are not ranked; an unknown category is a clear error.
    assert!(c[0].leaderboard("blitz").await.unwrap().is_empty());
    assert_eq!(
        code(c[0].leaderboard("hyperbullet").await),
        ErrorCode::Invalid(shvedka_proto::Invalid::RatingCategory)
    );
    assert_eq!(code(c[0].profile("nobody").await), ErrorCode::NoSuchAccount);

    drop((c, watcher));
    let server = server.restart().await;
    let anna = server.account("anna").await;
    let again = anna.profile("anna").await.expect("the profile after a restart");
    assert_eq!(again.categories, profile.categories, "ratings survive a restart");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_declared_draw_of_equals_moves_no_rating_but_every_deviation_falls() {
    let server = TestServer::start("arbiter_token = \"whistle-of-the-arbiters\"").await;
    let (id, mut c) = started(&server, ["ada", "bob", "cyd", "dan"], true).await;
    let mut watcher = server.client("watcher").await;
    watcher.watch(id).await.unwrap();
    wait_msg(&mut watcher, |m| matches!(m, ServerMsg::State(s) if s.rated && s.rating_changes.is_empty()))
        .await;
    let arbiter = server.client("referee").await;
    arbiter.arbiter("whistle-of-the-arbiters").await.unwrap();
    let draw = ArbiterRequest::DeclareResult { winner: None, reason: "both flags fell together".into() };
    arbiter.arbiter_act(id, draw).await.unwrap();
    let ended = wait_event(&mut c[0], |e| matches!(e.kind, EventView::Ended(_))).await;
    let EventView::Ended(result) = ended.kind else { unreachable!() };
    assert_eq!(result.winner, None);
    let pushed = rated_push(&mut c[0]).await;
    assert_eq!(rated_push(&mut watcher).await, pushed, "the spectator hears the same");
    assert!(pushed.iter().all(|x| x.after == 1500), "a draw of equals moves no rating: {pushed:?}");
    assert!(pushed.iter().all(|x| x.deviation < 350), "but every deviation falls: {pushed:?}");
    let p = c[2].profile("cyd").await.unwrap();
    assert_eq!(p.categories[0].rating.games, 1);
    assert_eq!(p.categories[0].history[0].match_id, id);
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_casual_match_and_an_annulled_rated_match_change_nothing_and_a_declared_result_counts() {
    let server = TestServer::start("arbiter_token = \"whistle-of-the-arbiters\"").await;
    let (_, mut c) = started(&server, ["ann", "ben", "cat", "don"], false).await;
    c[0].resign().await.unwrap();
    wait_event(&mut c[0], |e| matches!(e.kind, EventView::Ended(_))).await;
    assert!(c[0].profile("ann").await.unwrap().categories.is_empty(), "a casual match rates nobody");

    let arbiter = server.client("referee").await;
    arbiter.arbiter("whistle-of-the-arbiters").await.unwrap();
    let (id, mut c) = started(&server, ["ann", "ben", "cat", "don"], true).await;
    arbiter.arbiter_act(id, ArbiterRequest::Annul { reason: "wrong players".into() }).await.unwrap();
    wait_event(&mut c[0], |e| {
        matches!(e.kind, EventView::ArbiterActed { act: ArbiterRequest::Annul { .. }, .. })
    })
    .await;
    let ann = c[0].profile("ann").await.unwrap();
    assert!(ann.categories.is_empty(), "an annulled match rates nobody: {ann:?}");

    let (id, mut c) = started(&server, ["ann", "ben", "cat", "don"], true).await;
    let declared = ArbiterRequest::DeclareResult { winner: Some(TeamId::One), reason: "adjudicated".into() };
    arbiter.arbiter_act(id, declared).await.unwrap();
    let changes = rated_push(&mut c[0]).await;
    assert!(
        changes[0].after > 1500 && changes[3].after > 1500,
        "team 1 won by the arbiter's word: {changes:?}"
    );
    assert!(changes[1].after < 1500 && changes[2].after < 1500, "{changes:?}");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn only_accounts_sit_in_a_rated_match_and_bots_only_where_the_server_rates_them() {
    let server = TestServer::start("max_bots = 3").await;
    let guest = server.client("guest").await;
    let rated = ClientMsg::CreateMatch {
        rules: "classic".into(),
        time_control: "1+0".into(),
        listed: true,
        chess960: false,
        rated: true,
    };
    assert_eq!(code(guest.request(rated).await), ErrorCode::LoginRequired, "a guest creates casual matches");
    let anna = server.account("anna").await;
    let id = anna.create_rated("classic", "1+0").await.unwrap();
    let summary = anna.list_matches().await.unwrap().into_iter().find(|m| m.match_id == id).unwrap();
    assert!(summary.rated, "the lobby says it is rated");
    assert_eq!(code(guest.take_seat(id, SeatId::BlackA).await), ErrorCode::NotRatable);
    let mut robo = server.client("").await;
    robo.register("robo", "robo-password-1", true).await.unwrap();
    assert_eq!(code(robo.take_seat(id, SeatId::BlackA).await), ErrorCode::NotRatable, "a bot account");
    let fill = ClientMsg::FillWithBots { match_id: id, level: 1 };
    assert_eq!(code(anna.request(fill).await), ErrorCode::NotRatable, "the server's bots have no accounts");
    anna.take_seat(id, SeatId::WhiteA).await.expect("an account sits");
    server.stop().await;

    let server = TestServer::start("rated_bots = true").await;
    let anna = server.account("anna").await;
    let id = anna.create_rated("classic", "1+0").await.unwrap();
    let mut robo = server.client("").await;
    robo.register("robo", "robo-password-1", true).await.unwrap();
    robo.take_seat(id, SeatId::BlackA).await.expect("a bot account sits where bots are rated");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_swiss_is_seeded_by_its_teams_mean_ratings_before_the_start() {
    use shvedka_proto::{Reply, TdExport, TdRequest};
    let server = TestServer::start("director_token = \"td-secret-of-the-night\"").await;
    // A rated blitz match: boris and vera (team 2) win, anna and gleb lose.
    let (_, mut c) = started(&server, ["anna", "boris", "vera", "gleb"], true).await;
    c[0].resign().await.unwrap();
    rated_push(&mut c[0]).await;
    // Tournament players are accounts; two newcomers without a rating.
    for name in ["nina", "oleg"] {
        server.account(name).await;
    }
    let td = server.client("td").await;
    td.request(ClientMsg::Director { token: "td-secret-of-the-night".into() }).await.unwrap();
    let create = TdRequest::Create {
        name: "Cup".into(),
        rules: "classic".into(),
        time_control: "3+2".into(),
        swiss_rounds: Some(3),
        online: false,
        check_in: false,
        chess960: false,
    };
    let Reply::Id(t) = td.request(ClientMsg::Td(create)).await.unwrap() else { panic!("an id") };
    // Registered weakest first: the losers (mean 1388), newcomers (1500), the winners (1612).
    for (team, players) in
        [("Losers", ["anna", "gleb"]), ("New", ["nina", "oleg"]), ("Winners", ["boris", "vera"])]
    {
        let register =
            TdRequest::Register { tournament: t, team: team.into(), players: players.map(str::to_owned) };
        td.request(ClientMsg::Td(register)).await.unwrap();
    }
    td.request(ClientMsg::Td(TdRequest::SeedByRating { tournament: t })).await.expect("seeded");
    td.request(ClientMsg::Td(TdRequest::Start { tournament: t })).await.unwrap();
    let publish = TdRequest::Publish { tournament: t, what: TdExport::State, language: String::new() };
    let Reply::Text(state) = td.request(ClientMsg::Td(publish)).await.unwrap() else { panic!("text") };
    let state: serde_json::Value = serde_json::from_str(&state).unwrap();
    assert_eq!(state["seeds"], serde_json::json!([3, 2, 1]), "strongest first: {state:#}");
    assert_eq!(state["state"]["Started"]["draw"], serde_json::json!([3, 2, 1]), "the draw follows the seeds");
    let acts = state["acts"].to_string();
    assert!(acts.contains("seeded the teams by rating: 3 (1612), 2 (1500), 1 (1388)"), "{acts}");
    let late = td.request(ClientMsg::Td(TdRequest::SeedByRating { tournament: t })).await;
    assert_eq!(
        code(late),
        ErrorCode::Tournament(shvedka_proto::TourRefusal::AlreadyStarted),
        "not after the start"
    );
    server.stop().await;
}

/// A match task that dies while rating its decided match leaves the decision in its log only:
/// the next start rates it (once) and records it, its BPGN file too (RULES.md A4). A second
/// restart changes nothing more.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rated_match_whose_task_died_rating_it_is_rated_once_at_the_next_start() {
    use shvedka_storage::{Ratings, SqliteStore, Store};
    use std::sync::Arc;
    use std::sync::atomic::Ordering;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("s.db");
    let sqlite: Arc<dyn Store> = Arc::new(SqliteStore::open(&path).await.unwrap());
    let faulty = shvedka_tests::FaultyStore::new(sqlite);
    let server = TestServer::start_with_store("", faulty.clone()).await;
    let (id, c) = started(&server, ["anna", "boris", "vera", "gleb"], true).await;
    faulty.panic_rating.store(true, Ordering::SeqCst);
    let _ = c[0].resign().await;
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    while server.stats.live_matches() > 0 {
        assert!(std::time::Instant::now() < deadline, "the task died");
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    drop(c);
    let file = format!("match-{}.bpgn", id.0);
    assert!(!server.data_dir().join("records").join(&file).exists(), "no record file: the task died first");
    server.stop().await;
    let unrated = SqliteStore::open(&path).await.unwrap();
    assert!(unrated.find_match(id.0).await.unwrap().unwrap().result.is_none(), "decided in the log only");
    assert!(unrated.match_changes(id.0).await.unwrap().is_empty(), "and not rated");
    drop(unrated);

    for start in 0..2 {
        let store: Arc<dyn Store> = Arc::new(SqliteStore::open(&path).await.unwrap());
        let server = TestServer::start_with_store("", store.clone()).await;
        assert!(store.find_match(id.0).await.unwrap().unwrap().result.is_some(), "recorded at start {start}");
        let anna = server.account("anna").await;
        let blitz = anna.profile("boris").await.unwrap().categories.remove(0).rating;
        assert_eq!(blitz.games, 1, "rated once, whatever the restarts (start {start})");
        assert!((f64::from(blitz.rating) - winner_by_hand()).abs() <= 1.0, "boris won: {blitz:?}");
        // Each start has a data directory of its own here: the first writes the file, as the
        // task would have; the second finds the row decided and leaves the match alone.
        let record = std::fs::read_to_string(server.data_dir().join("records").join(&file));
        if start == 0 {
            let record = record.expect("the record file, written at the start that recorded the decision");
            assert!(record.contains("[Result \"0-1\"]"), "team 2 (boris and vera) won: {record}");
            assert!(record.contains("[WhiteA \"anna\"]"), "the players named: {record}");
        } else {
            assert!(record.is_err(), "not written again by a start that finds the match decided");
        }
        server.stop().await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_private_rated_matchs_point_in_a_rating_history_is_shown_to_its_player_alone() {
    let server = TestServer::start("").await;
    let names = ["anna", "boris", "vera", "gleb"];
    let mut c = Vec::new();
    for name in names {
        c.push(server.account(name).await);
    }
    let created = c[0]
        .request(ClientMsg::CreateMatch {
            rules: "classic".into(),
            time_control: "3+2".into(),
            listed: false,
            chess960: false,
            rated: true,
        })
        .await
        .expect("a private rated match");
    let shvedka_proto::Reply::Invited { match_id: id, code } = created else { panic!("{created:?}") };
    for (client, seat) in c.iter().zip(SeatId::ALL) {
        client.request(ClientMsg::Invitation { code: code.clone() }).await.expect("the code");
        client.take_seat(id, seat).await.expect("a seat");
    }
    for client in &c {
        client.ready(true).await.expect("ready");
    }
    for client in &mut c {
        wait_event(client, |e| matches!(e.kind, EventView::Started)).await;
    }
    c[0].resign().await.expect("resign");
    for client in &mut c {
        rated_push(client).await;
    }
    let stranger = server.account("stranger").await;
    let seen = stranger.profile("anna").await.expect("a profile");
    assert_eq!(seen.categories[0].rating.games, 1, "the rating itself is public");
    assert!(seen.categories[0].history.is_empty(), "a stranger sees no private match: {seen:?}");
    let own = c[0].profile("anna").await.expect("her own profile");
    assert_eq!(own.categories[0].history.iter().map(|h| h.match_id).collect::<Vec<_>>(), vec![id]);
}
