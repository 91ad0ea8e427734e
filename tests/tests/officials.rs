//! Who acted (issue 17, RULES.md A4): every arbiter act and every director act names the account
//! that made it — in the stored event log, the match replayed from it, the BPGN record and
//! `shvedka arbiter show` (`crates/shvedka/src/arbiter_show.rs`) — or says "secret" when the act came through the shared secret; and a
//! restart keeps it.

use std::time::{Duration, Instant};

use bughouse_match::{Event, EventKind, Match, MatchConfig, Official};
use shvedka_client::Client;
use shvedka_proto::{ArbiterRequest, Board, MatchId, Reply, TdExport, TdOutcome, TdRequest, TeamId};
use shvedka_storage::{Role, Store};
use shvedka_tests::TestServer;
use shvedka_tournament::{Director, Tournament};

/// The server's own database, opened beside it as `shvedka admin` opens it.
async fn store(server: &TestServer) -> std::sync::Arc<dyn Store> {
    shvedka_storage::open(None, &server.data_dir()).await.expect("the data directory's database")
}

/// A record's words, its line breaks undone.
fn words(bpgn: &str) -> String {
    bpgn.split_whitespace().collect::<Vec<_>>().join(" ")
}

async fn grant(server: &TestServer, name: &str, role: Role) {
    let store = store(server).await;
    let account = store.account_by_name(name).await.unwrap().expect("registered");
    store.set_role(account.id, role, true).await.unwrap();
}

/// The officials of the arbiter acts of a stored log, and the log replayed.
async fn stored_officials(server: &TestServer, id: MatchId) -> Vec<Official> {
    let store = store(server).await;
    let row = store.find_match(id.0).await.unwrap().expect("stored");
    let config: MatchConfig = serde_json::from_str(&row.created.config).unwrap();
    let log: Vec<Event> =
        store.events(id.0).await.unwrap().iter().map(|r| serde_json::from_str(&r.event).unwrap()).collect();
    let replayed = Match::replay(config, &log).expect("the stored log replays");
    assert_eq!(replayed.events(), &log[..], "and the replay keeps who acted");
    log.iter()
        .filter_map(|e| match &e.kind {
            EventKind::Arbiter(ruling) => Some(ruling.by.clone()),
            _ => None,
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a4_arbiter_acts_name_the_account_or_the_secret_in_the_log_the_record_and_after_a_restart() {
    let server = TestServer::start("arbiter_token = \"s3cret-whistle-of-arbiters\"").await;
    let (id, c) = server.seated_match("mgimo-2017", "blitz").await;
    c[0].play(Board::A, "e4", None).await.unwrap();
    let alice = server.account("alice").await;
    grant(&server, "alice", Role::Arbiter).await;
    alice.arbiter_act(id, ArbiterRequest::Pause).await.expect("an arbiter account acts");
    let bootstrap = server.client("").await;
    bootstrap.arbiter("s3cret-whistle-of-arbiters").await.unwrap();
    bootstrap.arbiter_act(id, ArbiterRequest::Resume).await.expect("the secret acts");

    assert_eq!(stored_officials(&server, id).await, [Official::Account("alice".into()), Official::Secret]);
    let bpgn = words(&alice.record(id).await.unwrap());
    assert!(bpgn.contains("[%act pause t=") && bpgn.contains("by=alice"), "{bpgn}");
    assert!(bpgn.contains("[%act resume t=") && bpgn.contains("by=(secret)"), "{bpgn}");
    // A restart rebuilds the match from its log: who acted is still there, and the next act adds
    // its own.
    drop(c);
    let server = server.restart().await;
    let alice = Client::connect_as(
        server.addr,
        shvedka_client::Trust::Fingerprint(server.pin),
        "alice",
        &TestServer::password("alice"),
    )
    .await
    .unwrap();
    alice
        .arbiter_act(
            id,
            ArbiterRequest::DeclareResult { winner: Some(TeamId::One), reason: "A2 test".into() },
        )
        .await
        .expect("acts after the restart");
    let officials = stored_officials(&server, id).await;
    let alice_ = Official::Account("alice".into());
    assert!(officials.starts_with(&[alice_.clone(), Official::Secret]), "{officials:?}");
    assert_eq!(officials.last(), Some(&alice_), "{officials:?}");
    let bpgn = alice.record(id).await.unwrap();
    let record = &shvedka_records::parse_bpgn(&bpgn).unwrap()[0];
    // Who made each act, in order (the server's own pause and resume at the restart between).
    let by: Vec<(String, Option<&str>)> = record
        .all_acts()
        .filter(|a| a.by.as_deref() != Some("(server)"))
        .map(|a| {
            let verb = match &a.kind {
                shvedka_records::ActKind::Pause => "pause",
                shvedka_records::ActKind::Resume => "resume",
                shvedka_records::ActKind::Result { .. } => "result",
                shvedka_records::ActKind::End => "end",
                _ => "other",
            };
            (verb.to_owned(), a.by.as_deref())
        })
        .collect();
    assert_eq!(
        by,
        [
            ("pause".to_owned(), Some("alice")),
            ("resume".to_owned(), Some("(secret)")),
            ("result".to_owned(), Some("alice")),
            ("end".to_owned(), None)
        ],
        "{bpgn}"
    );
    server.stop().await;
}

async fn state(td: &Client, tournament: u64) -> Tournament {
    match td
        .td(TdRequest::Publish { tournament, what: TdExport::State, language: String::new() })
        .await
        .unwrap()
    {
        Reply::Text(t) => serde_json::from_str(&t).unwrap(),
        other => panic!("{other:?}"),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a4_director_acts_name_the_account_in_the_tournament_and_the_game_record_and_after_a_restart() {
    let server = TestServer::start("director_token = \"td-secret-of-the-night\"").await;
    for name in ["t1a", "t1b", "t2a", "t2b"] {
        server.account(name).await.close().await;
    }
    let boss = server.account("boss").await;
    grant(&server, "boss", Role::Director).await;
    grant(&server, "boss", Role::Arbiter).await;
    let create = TdRequest::Create {
        name: "Cup".into(),
        rules: "mgimo-2017".into(),
        time_control: "1+0".into(),
        swiss_rounds: None,
        online: true,
        check_in: false,
        chess960: false,
    };
    let Reply::Id(id) = boss.td(create).await.expect("a director account") else { panic!() };
    let register = |team: &str, a: &str, b: &str| TdRequest::Register {
        tournament: id,
        team: team.into(),
        players: [a.into(), b.into()],
    };
    boss.td(register("Rooks", "t1a", "t1b")).await.unwrap();
    let secret = server.client("").await;
    secret.director("td-secret-of-the-night").await.unwrap();
    secret.td(register("Knights", "t2a", "t2b")).await.expect("the secret acts");
    boss.td(TdRequest::Start { tournament: id }).await.unwrap();
    boss.td(TdRequest::PairNext { tournament: id, choice_window_ms: 0 }).await.unwrap();
    // The choices default at once; the server makes game 1's match; the arbiter decides it.
    let deadline = Instant::now() + Duration::from_secs(10);
    let match_id = loop {
        let t = state(&boss, id).await;
        let (_, p) = t.round(1).unwrap().pairings().next().unwrap();
        if let Some(m) = p.games[0].match_id {
            break MatchId(m);
        }
        assert!(Instant::now() < deadline, "the match is made");
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    boss.arbiter_act(match_id, ArbiterRequest::DeclareResult { winner: None, reason: "agreed".into() })
        .await
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(10);
    while state(&boss, id).await.round(1).unwrap().pairings().next().unwrap().1.games[0].result.is_none() {
        assert!(Instant::now() < deadline, "the result is recorded");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let correct = TdRequest::Result {
        tournament: id,
        round: 1,
        table: 1,
        game: 1,
        outcome: TdOutcome::FirstWins,
        reason: "A2: illegal move found later".into(),
        correct: true,
        end_game: false,
    };
    boss.td(correct).await.expect("corrected");

    let check = |t: &Tournament| {
        let by: Vec<&Director> = t.acts().iter().map(|a| &a.by).collect();
        let boss_ = Director::Account("boss".into());
        assert_eq!(by, [&boss_, &boss_, &Director::Secret, &boss_, &boss_, &boss_], "{:?}", t.acts());
        assert!(t.acts()[2].what.contains("Knights"), "{:?}", t.acts()[2]);
        let (_, p) = t.round(1).unwrap().pairings().next().unwrap();
        assert_eq!(p.games[0].result.as_ref().unwrap().by, Some(boss_), "the result names its director");
    };
    check(&state(&boss, id).await);
    let games = match boss
        .td(TdRequest::Publish { tournament: id, what: TdExport::Games, language: String::new() })
        .await
        .unwrap()
    {
        Reply::Text(t) => t,
        other => panic!("{other:?}"),
    };
    let games = words(&games);
    assert!(games.contains("director boss: tournament result FirstWins"), "{games}");
    shvedka_records::parse_bpgn(&games).expect("still BPGN");

    let server = server.restart().await;
    let boss = Client::connect_as(
        server.addr,
        shvedka_client::Trust::Fingerprint(server.pin),
        "boss",
        &TestServer::password("boss"),
    )
    .await
    .unwrap();
    check(&state(&boss, id).await);
    server.stop().await;
}

async fn roles(c: &Client) -> Vec<String> {
    match c.request(shvedka_proto::ClientMsg::Roles).await.expect("the roles") {
        shvedka_proto::Reply::Roles { roles } => roles,
        other => panic!("expected the roles: {other:?}"),
    }
}

/// Issue 30: the roles a session acts in, as the server finds them now: a role granted or revoked
/// after the log-in shows at the next ask (the web page asks every few seconds), and a presented
/// secret counts as its role.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_role_granted_or_revoked_after_the_log_in_shows_in_the_roles_asked_for() {
    let server = TestServer::start("arbiter_token = \"s3cret-whistle-of-arbiters\"").await;
    let boss = server.account("boss").await;
    assert!(roles(&boss).await.is_empty(), "no role at first");
    grant(&server, "boss", Role::Director).await;
    assert_eq!(roles(&boss).await, ["director"], "granted after the log-in");
    boss.arbiter("s3cret-whistle-of-arbiters").await.expect("the arbiters' secret");
    assert_eq!(roles(&boss).await, ["arbiter", "director"]);
    let store = store(&server).await;
    let account = store.account_by_name("boss").await.unwrap().expect("registered");
    store.set_role(account.id, Role::Director, false).await.unwrap();
    assert_eq!(roles(&boss).await, ["arbiter"], "revoked: the secret's role stays");
    let guest = server.client("guest").await;
    assert!(roles(&guest).await.is_empty());
    server.stop().await;
}
