//! Accounts end to end (issue 17): register, log in, resume, log out, change the password; guests
//! never take a registered name; repeated wrong passwords are slowed and refused; and the
//! impersonation scenario: a connection calling itself alice gets none of alice's tournament
//! rights.

use std::time::{Duration, Instant};

use shvedka_client::{Client, ClientError, Trust, Update};
use shvedka_proto::{ErrorCode, Limit, Reply, SeatId, ServerMsg, SessionEnd, TdChoice, TdExport, TdRequest};
use shvedka_tests::TestServer;
use shvedka_tournament::Tournament;

fn code(r: Result<impl std::fmt::Debug, ClientError>) -> ErrorCode {
    match r {
        Err(ClientError::Server(e)) => e.code,
        other => panic!("expected a refusal, got {other:?}"),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn register_log_in_resume_log_out_and_change_the_password() {
    let server = TestServer::start("").await;
    let trust = || Trust::Fingerprint(server.pin);
    let mut alice = server.client("").await;
    let account = alice.register("Alice", "correct horse", false).await.expect("registered");
    assert_eq!((account.name.as_str(), account.bot, account.roles.len()), ("Alice", false, 0));
    // Names are unique without regard to case; the rules of names are checked.
    let mut other = server.client("").await;
    assert_eq!(code(other.register("ALICE", "another password", false).await), ErrorCode::NameTaken);
    let name = ErrorCode::Invalid(shvedka_proto::Invalid::AccountName { min: 2, max: 24 });
    assert_eq!(code(other.register("a b", "another password", false).await), name);
    let password = ErrorCode::Invalid(shvedka_proto::Invalid::Password { min: 8, max: 128 });
    assert_eq!(code(other.register("bob", "short", false).await), password);
    // A guest can never take a registered name, in any case.
    for name in ["Alice", "alice", "ALICE"] {
        let refused = Client::connect(server.addr, trust(), name).await.err().expect("refused");
        let registered = ErrorCode::Session(shvedka_proto::SessionRefusal::NameRegistered);
        assert!(matches!(refused, ClientError::Refused(ref r) if r.code == registered), "{refused:?}");
    }
    // The session belongs to the account: it resumes after a lost connection.
    alice.drop_connection();
    alice.resume().await.expect("the account's session resumes");
    alice.list_matches().await.expect("and serves");
    // A second log-in (another device), in any case; a wrong password is refused like an unknown
    // name.
    assert_eq!(code(other.login("alice", "wrong password").await), ErrorCode::BadCredentials);
    assert_eq!(code(other.login("nobody", "wrong password").await), ErrorCode::BadCredentials);
    let mut phone =
        Client::connect_as(server.addr, trust(), "aLiCe", "correct horse").await.expect("logs in");
    // A password change needs the old password and ends every other session of the account.
    assert_eq!(code(phone.change_password("not it", "battery staple").await), ErrorCode::BadCredentials);
    phone.change_password("correct horse", "battery staple").await.expect("changed");
    // The other session's connection is told why and closed (a lost connection reported before
    // alice resumed may come first).
    let mut told = Vec::new();
    while !matches!(told.last(), Some(Update::Disconnected(_))) || told.len() < 2 {
        match tokio::time::timeout(Duration::from_secs(10), alice.next_update()).await {
            Ok(Some(u)) => told.push(u),
            other => panic!("told {told:?}, then {other:?}"),
        }
    }
    let ended = Update::Server(ServerMsg::SessionEnded { reason: SessionEnd::PasswordChanged });
    assert_eq!(told[told.len() - 2], ended, "{told:?}");
    alice.drop_connection();
    assert!(matches!(alice.resume().await, Err(ClientError::Refused(_))), "the other session ended");
    phone.drop_connection();
    phone.resume().await.expect("the session that changed it goes on");
    assert_eq!(code(other.login("alice", "correct horse").await), ErrorCode::BadCredentials);
    // A guest has no password to change.
    assert_eq!(code(other.change_password("x", "new password").await), ErrorCode::LoginRequired);
    // Log out: the token never resumes again.
    phone.logout().await.expect("logged out");
    phone.drop_connection();
    assert!(matches!(phone.resume().await, Err(ClientError::Refused(_))), "a logged-out token is dead");
    Client::connect_as(server.addr, trust(), "alice", "battery staple").await.expect("the new password");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn repeated_wrong_passwords_are_slowed_and_refused_and_the_account_logs_in_afterwards() {
    let server = TestServer::start(
        "login_failures_per_name = 3\nlogin_lockout_ms = 1500\nlogin_failure_delay_ms = 200\nrate_burst = 100",
    )
    .await;
    let mut alice = server.client("").await;
    alice.register("alice", "correct horse", false).await.unwrap();
    alice.close().await;
    let mut guesser = server.client("").await;
    for i in 0..4 {
        let start = Instant::now();
        let refused = code(guesser.login("alice", &format!("guess {i}")).await);
        assert_eq!(refused, ErrorCode::BadCredentials, "guess {i} is checked");
        assert!(start.elapsed() >= Duration::from_millis(200), "and answered late: {:?}", start.elapsed());
    }
    // Locked out for the guessing address: every attempt from it is refused unchecked, the right
    // password too, from a new connection as well.
    for password in ["guess 5", "correct horse"] {
        assert_eq!(code(guesser.login("alice", password).await), ErrorCode::Limit(Limit::LoginAttempts));
    }
    let mut same_address = server.client("").await;
    let refused = code(same_address.login("alice", "correct horse").await);
    assert_eq!(refused, ErrorCode::Limit(Limit::LoginAttempts), "a new connection of the guesser");
    // The account's owner, from his own address, logs in meanwhile: nobody can lock him out.
    let mut owner = server.client_from(std::net::Ipv4Addr::new(127, 0, 0, 2), "").await;
    let owner_in = owner.login("alice", "correct horse").await.expect("the owner logs in from elsewhere");
    assert_eq!(owner_in.name, "alice");
    tokio::time::sleep(Duration::from_millis(1600)).await;
    let back =
        same_address.login("alice", "correct horse").await.expect("after the lockout, the right password");
    assert_eq!(back.name, "alice");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn registrations_from_one_address_are_limited_and_another_address_still_registers() {
    let server = TestServer::start("registrations_per_address_per_hour = 3\nrate_burst = 100").await;
    let mut flood = server.client("").await;
    for i in 0..3 {
        flood.register(&format!("flood{i}"), "correct horse", false).await.expect("within the allowance");
        flood.logout().await.ok();
        flood = server.client("").await;
    }
    let refused = code(flood.register("flood3", "correct horse", false).await);
    assert_eq!(refused, ErrorCode::Limit(Limit::Registrations));
    let mut other = server.client_from(std::net::Ipv4Addr::new(127, 0, 0, 2), "").await;
    other.register("honest", "correct horse", false).await.expect("another address registers");
    server.stop().await;
}

async fn state(td: &Client, tournament: u64) -> Tournament {
    match td.td(TdRequest::Publish { tournament, what: TdExport::State }).await.expect("publish") {
        Reply::Text(t) => serde_json::from_str(&t).expect("the state reads"),
        other => panic!("expected text, got {other:?}"),
    }
}

/// The impersonation scenario of issue 17: a director registers team ("alice", "bob"); a third
/// connection that calls itself alice gets neither the S3 choice, nor the reserved seat, nor any
/// move, and cannot log in as alice without her password.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn s3_a_connection_calling_itself_alice_gets_none_of_her_rights() {
    let server = TestServer::start("director_token = \"td-secret-of-the-night\"").await;
    let mut accounts = Vec::new();
    for name in ["alice", "bob", "carol", "dave", "mallory"] {
        accounts.push(server.account(name).await);
    }
    let [alice, _bob, carol, _dave, mallory] = <[Client; 5]>::try_from(accounts).ok().unwrap();
    let td = server.client("").await;
    td.director("td-secret-of-the-night").await.unwrap();
    let id = match td
        .td(TdRequest::Create {
            name: "Cup".into(),
            rules: "mgimo-2017".into(),
            time_control: "1+0".into(),
            swiss_rounds: None,
            online: true,
            check_in: false,
            chess960: false,
        })
        .await
        .unwrap()
    {
        Reply::Id(id) => id,
        other => panic!("{other:?}"),
    };
    // Teams name accounts; a name nobody registered is refused.
    let register = |team: &str, a: &str, b: &str| TdRequest::Register {
        tournament: id,
        team: team.into(),
        players: [a.into(), b.into()],
    };
    assert_eq!(code(td.td(register("Ghosts", "alice", "nobody")).await), ErrorCode::NoSuchAccount);
    td.td(register("Rooks", "Alice", "bob")).await.expect("accounts, named in any case");
    td.td(register("Knights", "carol", "dave")).await.unwrap();
    td.td(TdRequest::Start { tournament: id }).await.unwrap();
    td.td(TdRequest::PairNext { tournament: id, choice_window_ms: 60_000 }).await.unwrap();
    let t = state(&td, id).await;
    let (_, pairing) = t.round(1).unwrap().pairings().next().expect("one pairing");
    let rooks_first = t.teams()[pairing.first.0 as usize - 1].name == "Rooks";
    assert!(t.teams().iter().any(|team| team.players == ["alice", "bob"]), "stored as registered");

    // The impostors: a guest cannot even call itself alice; a guest of another name and another
    // account are refused the S3 choice.
    let refused = Client::connect(server.addr, Trust::Fingerprint(server.pin), "alice").await.err().unwrap();
    assert!(matches!(refused, ClientError::Refused(_)), "{refused:?}");
    let mut guest = server.client("alice2").await;
    let rooks_choice = if rooks_first { TdChoice::Crossed } else { TdChoice::WhiteOnB };
    let knights_choice = if rooks_first { TdChoice::WhiteOnB } else { TdChoice::Crossed };
    assert_eq!(code(guest.choose(id, 1, 1, rooks_choice).await), ErrorCode::LoginRequired);
    assert_eq!(code(guest.assignment(id).await), ErrorCode::LoginRequired);
    assert_eq!(
        code(mallory.choose(id, 1, 1, rooks_choice).await),
        ErrorCode::Tournament(shvedka_proto::TourRefusal::NotAMember)
    );
    assert_eq!(code(guest.login("alice", "alice-passwor").await), ErrorCode::BadCredentials);
    assert_eq!(mallory.assignment(id).await.unwrap(), (None, false), "mallory plays nowhere");

    // The real alice chooses; so does the other team: the match is made with reserved seats.
    alice.choose(id, 1, 1, rooks_choice).await.expect("alice chooses for her team");
    carol.choose(id, 1, 1, knights_choice).await.expect("carol for hers");
    let deadline = Instant::now() + Duration::from_secs(10);
    let (match_id, seat) = loop {
        if let (Some(game), _) = alice.assignment(id).await.unwrap() {
            break game;
        }
        assert!(Instant::now() < deadline, "the match is made");
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    // Alice's reserved seat: refused to the guest and to another account.
    assert_eq!(code(guest.take_seat(match_id, seat).await), ErrorCode::Forbidden);
    assert_eq!(code(mallory.take_seat(match_id, seat).await), ErrorCode::Forbidden);
    // Any move: neither of them sits in the match.
    let board = if matches!(seat, SeatId::WhiteA | SeatId::BlackA) {
        shvedka_proto::Board::A
    } else {
        shvedka_proto::Board::B
    };
    assert_eq!(code(guest.play(board, "e4", None).await), ErrorCode::NotInMatch);
    assert_eq!(code(mallory.play(board, "e4", None).await), ErrorCode::NotInMatch);
    mallory.watch(match_id).await.expect("anyone may watch a tournament game");
    let moved = mallory.play(board, "e4", None).await;
    assert!(matches!(moved, Err(ClientError::Server(_))), "a spectator's move is refused: {moved:?}");
    // Alice sits in her own seat.
    alice.take_seat(match_id, seat).await.expect("alice's own seat");
    guest.drop_connection();
    server.stop().await;
}
