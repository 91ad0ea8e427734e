//! `shvedka admin` on a running server's data directory (issue 17): list accounts, grant and
//! revoke roles, disable and enable, reset a password — each seen by the server at once.

use std::process::{Command, Output};

use shvedka_client::Update;
use shvedka_client::{Client, ClientError, Trust};
use shvedka_proto::{ErrorCode, OfficialRefusal, OfficialRole, ServerMsg, SessionEnd};
use shvedka_tests::{TestServer, wait_msg};

fn admin(server: &TestServer, args: &[&str], password: Option<&str>) -> Output {
    let mut c = Command::new(env!("CARGO_BIN_EXE_shvedka"));
    c.arg("admin").arg("--data-dir").arg(server.data_dir()).args(args).env_remove("SHVEDKA_PASSWORD");
    if let Some(p) = password {
        c.env("SHVEDKA_PASSWORD", p);
    }
    c.output().expect("shvedka runs")
}

fn ok(o: &Output) -> String {
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn code(r: Result<Client, ClientError>) -> ErrorCode {
    match r {
        Err(ClientError::Server(e)) => e.code,
        Err(other) => panic!("expected a refusal, got {other:?}"),
        Ok(_) => panic!("expected a refusal, got a session"),
    }
}

/// The refusal of an arbiter's request to a session that is none.
const NO_ARBITER: OfficialRefusal = OfficialRefusal::Needed { role: OfficialRole::Arbiter };

fn code_of<T: std::fmt::Debug>(r: Result<T, ClientError>) -> ErrorCode {
    match r {
        Err(ClientError::Server(e)) => e.code,
        other => panic!("expected a refusal, got {other:?}"),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn admin_lists_grants_disables_and_resets_accounts_of_a_running_server() {
    let server = TestServer::start("session_check_ms = 100").await;
    let trust = || Trust::Fingerprint(server.pin);
    let mut alice = server.account("alice").await;
    server.account("bob").await.close().await;
    let list = ok(&admin(&server, &["list"], None));
    assert_eq!(list, "alice\t\t\nbob\t\t\n");

    // Roles take effect without a restart, at the account's next privileged request: the session
    // alice opened before the grant has the power at once, and loses it at once on revocation.
    assert_eq!(code_of(alice.list_live().await), ErrorCode::Official(NO_ARBITER), "no role yet");
    assert_eq!(
        ok(&admin(&server, &["grant", "ALICE", "arbiter"], None)).trim(),
        "arbiter granted to alice (from its next privileged request)"
    );
    alice.list_live().await.expect("the open session is an arbiter now, without the shared secret");
    let pw = TestServer::password("alice");
    let again = Client::connect_as(server.addr, trust(), "alice", &pw).await.expect("logs in");
    again.list_live().await.expect("a new log-in too");
    assert!(ok(&admin(&server, &["list"], None)).contains("alice\t\tarbiter"));
    ok(&admin(&server, &["revoke", "alice", "arbiter"], None));
    assert_eq!(
        code_of(alice.list_live().await),
        ErrorCode::Official(NO_ARBITER),
        "revoked for the open session"
    );
    assert_eq!(code_of(again.list_live().await), ErrorCode::Official(NO_ARBITER), "and for the other");
    let plain = Client::connect_as(server.addr, trust(), "alice", &pw).await.unwrap();
    assert_eq!(code_of(plain.list_live().await), ErrorCode::Official(NO_ARBITER), "and for a new log-in");

    // Disabled: its connected sessions are told why and closed (within session_check_ms), no
    // log-in, and its sessions do not resume.
    assert!(ok(&admin(&server, &["disable", "alice"], None)).contains("disabled"));
    let told = wait_msg(&mut alice, |m| matches!(m, ServerMsg::SessionEnded { .. })).await;
    assert_eq!(told, ServerMsg::SessionEnded { reason: SessionEnd::AccountDisabled });
    let closed = tokio::time::timeout(std::time::Duration::from_secs(5), alice.next_update()).await;
    assert!(matches!(closed, Ok(Some(Update::Disconnected(_)))), "and its connection closed: {closed:?}");
    assert_eq!(
        code(Client::connect_as(server.addr, trust(), "alice", &pw).await),
        ErrorCode::AccountDisabled
    );
    alice.drop_connection();
    assert!(matches!(alice.resume().await, Err(ClientError::Refused(_))));
    ok(&admin(&server, &["enable", "alice"], None));
    Client::connect_as(server.addr, trust(), "alice", &pw).await.expect("enabled again");

    // A reset password: the old one no longer works, the new one does.
    let out = admin(&server, &["reset-password", "alice"], Some("a brand new password"));
    assert!(ok(&out).contains("reset"));
    assert_eq!(code(Client::connect_as(server.addr, trust(), "alice", &pw).await), ErrorCode::BadCredentials);
    Client::connect_as(server.addr, trust(), "alice", "a brand new password")
        .await
        .expect("the new password");

    // Bad input: a typed error and an exit status, nothing changed.
    let unknown = admin(&server, &["disable", "nobody"], None);
    assert_eq!(unknown.status.code(), Some(1), "{}", String::from_utf8_lossy(&unknown.stderr));
    let bad_role = admin(&server, &["grant", "bob", "king"], None);
    assert_eq!(bad_role.status.code(), Some(2), "{}", String::from_utf8_lossy(&bad_role.stderr));
    let short = admin(&server, &["reset-password", "bob"], Some("short"));
    assert_eq!(short.status.code(), Some(2), "{}", String::from_utf8_lossy(&short.stderr));
    Client::connect_as(server.addr, trust(), "bob", &TestServer::password("bob"))
        .await
        .expect("bob unchanged");
    server.stop().await;
}

/// `shvedka admin ARGS` with no configuration file and no database URL from the environment.
fn admin_at(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_shvedka"))
        .arg("admin")
        .args(args)
        .env_remove("SHVEDKA_DATABASE_URL")
        .output()
        .expect("shvedka runs")
}

fn refused(o: &Output) -> String {
    assert_eq!(o.status.code(), Some(2), "refused: {}", String::from_utf8_lossy(&o.stdout));
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn admin_refuses_a_data_directory_or_database_that_does_not_exist_and_creates_one_when_told() {
    use std::os::unix::fs::PermissionsExt;
    let tmp = tempfile::tempdir().unwrap();
    let typo = tmp.path().join("typo-dir");
    let at = typo.to_str().unwrap();
    let err = refused(&admin_at(&["--data-dir", at, "list"]));
    assert!(err.contains(&format!("the data directory {at} does not exist")), "{err}");
    assert!(err.contains("or say --create to make a new, empty one"), "{err}");
    assert!(!typo.exists(), "nothing made");
    // A directory that holds no database is refused too, and left as it was.
    let empty = tmp.path().join("empty");
    std::fs::create_dir(&empty).unwrap();
    let err = refused(&admin_at(&["--data-dir", empty.to_str().unwrap(), "list"]));
    assert!(err.contains("holds no shvedka database (no shvedka.db)"), "{err}");
    assert_eq!(std::fs::read_dir(&empty).unwrap().count(), 0, "nothing made");
    // Told to, it makes one, its directory readable by its owner alone; then it is found.
    assert_eq!(ok(&admin_at(&["--data-dir", at, "--create", "list"])), "");
    assert_eq!(std::fs::metadata(&typo).unwrap().permissions().mode() & 0o777, 0o700);
    assert!(typo.join("shvedka.db").is_file());
    let empty_list = admin_at(&["--data-dir", at, "list"]);
    assert_eq!(ok(&empty_list), "", "a script reads no account");
    let said = String::from_utf8_lossy(&empty_list.stderr);
    assert!(said.contains("no accounts yet") && said.contains("--register"), "a person reads why: {said}");

    // PostgreSQL: a database without the schema is refused, and given it when told to.
    let pg = testkit::postgres::TempPostgres::start();
    let err = refused(&admin_at(&["--database-url", &pg.url, "list"]));
    assert!(err.contains("holds no shvedka database (no shvedka_migrations table)"), "{err}");
    assert!(err.contains("or say --create to make the schema in this one"), "{err}");
    assert_eq!(ok(&admin_at(&["--database-url", &pg.url, "--create", "list"])), "");
    assert_eq!(ok(&admin_at(&["--database-url", &pg.url, "list"])), "");
    // A database name that does not exist: PostgreSQL's own word for it.
    let typo_url = pg.url.replacen("/postgres?", "/typo_db?", 1);
    assert_ne!(typo_url, pg.url);
    let err = refused(&admin_at(&["--database-url", &typo_url, "list"]));
    assert!(err.contains("cannot open the database") && err.contains("\"typo_db\" does not exist"), "{err}");
}
