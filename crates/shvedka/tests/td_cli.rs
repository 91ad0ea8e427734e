//! `shvedka td` against a running server: an over-the-board tournament night run by the
//! director from the command line (RULES.md S3).

use std::process::{Command, Output};
use std::time::{Duration, Instant};

use shvedka_tests::TestServer;

fn td(server: &TestServer, token: &str, args: &[&str]) -> Output {
    td_in(server, token, args, "C.UTF-8")
}

/// `td` in a terminal whose locale is `lang` (the exports a person reads follow it).
fn td_in(server: &TestServer, token: &str, args: &[&str], lang: &str) -> Output {
    let pin: String = server.pin.iter().map(|b| format!("{b:02x}")).collect();
    Command::new(env!("CARGO_BIN_EXE_shvedka"))
        .args(["td", "--server", &server.addr.to_string(), "--fingerprint", &pin])
        .args(args)
        .env("SHVEDKA_DIRECTOR_TOKEN", token)
        .env_remove("LC_ALL")
        .env_remove("LC_MESSAGES")
        .env("LANG", lang)
        .output()
        .expect("shvedka runs")
}

fn ok(o: &Output) -> String {
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn refused(o: &Output) -> String {
    assert_eq!(o.status.code(), Some(1), "{}", String::from_utf8_lossy(&o.stdout));
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn s3_an_over_the_board_night_from_the_command_line() {
    let server = TestServer::start("director_token = \"td-secret-of-the-night\"").await;
    // Teams are of accounts.
    for name in ["anna", "boris", "vera", "gleb", "dina", "egor", "xena", "yuri", "pavel", "quinn"] {
        server.account(name).await.close().await;
    }
    assert!(refused(&td(&server, "guess", &["start", "1"])).contains("secret"));
    let id = ok(&td(
        &server,
        "td-secret-of-the-night",
        &["create", "OTB night", "--over-the-board", "--time-control", "5+0"],
    ));
    let id = id.trim();
    for (n, (team, a, b)) in
        [("Rooks", "anna", "boris"), ("Knights", "vera", "gleb"), ("Pawns", "dina", "egor")]
            .into_iter()
            .enumerate()
    {
        assert_eq!(
            ok(&td(&server, "td-secret-of-the-night", &["register", id, team, a, b])).trim(),
            (n + 1).to_string()
        );
    }
    assert!(
        refused(&td(&server, "td-secret-of-the-night", &["register", id, "Rooks", "xena", "yuri"]))
            .contains("another team has this name"),
        "said from the refusal's code, in the locale's language"
    );
    ok(&td(&server, "td-secret-of-the-night", &["start", id]));
    assert!(
        !refused(&td(&server, "td-secret-of-the-night", &["register", id, "Late", "pavel", "quinn"]))
            .is_empty()
    );
    assert_eq!(ok(&td(&server, "td-secret-of-the-night", &["pair", id, "--choices-s", "0"])).trim(), "1");
    assert!(
        !refused(&td(&server, "td-secret-of-the-night", &["pair", id])).is_empty(),
        "not before the round is complete"
    );

    // The choices' deadline has passed: the defaults fill the sheet.
    let deadline = Instant::now() + Duration::from_secs(10);
    let sheet = loop {
        let sheet = ok(&td(&server, "td-secret-of-the-night", &["publish", id, "sheet", "--round", "1"]));
        if !sheet.contains("pending") {
            break sheet;
        }
        assert!(Instant::now() < deadline, "defaults applied: {sheet}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    // Berger tables for three teams: Knights and Pawns meet, Rooks have the bye.
    assert!(sheet.contains("Table 1: Knights – Pawns") && sheet.contains("dina"), "{sheet}");
    assert!(sheet.to_lowercase().contains("bye"), "three teams: one has the bye\n{sheet}");

    ok(&td(
        &server,
        "td-secret-of-the-night",
        &["result", id, "1", "1", "1", "first", "mate", "on", "board", "A"],
    ));
    let twice =
        refused(&td(&server, "td-secret-of-the-night", &["result", id, "1", "1", "1", "draw", "again"]));
    assert!(!twice.is_empty());
    ok(&td(&server, "td-secret-of-the-night", &["result", id, "1", "1", "2", "first", "flag"]));
    ok(&td(
        &server,
        "td-secret-of-the-night",
        &["result", id, "1", "1", "2", "draw", "arbiter", "correction", "--correct"],
    ));
    assert!(
        !refused(&td(&server, "td-secret-of-the-night", &["result", id, "1", "9", "1", "first", "x"]))
            .is_empty(),
        "no table 9"
    );
    assert!(!refused(&td(&server, "td-secret-of-the-night", &["withdraw", id, "7"])).is_empty(), "no team 7");

    // Knights (named first) 1 + ½, Pawns ½, Rooks 2 for the bye.
    let csv = ok(&td(&server, "td-secret-of-the-night", &["publish", id, "standings-csv"]));
    let points = |team: &str| -> String {
        let line = csv.lines().find(|l| l.contains(team)).unwrap_or_else(|| panic!("{team} in {csv}"));
        line.split(',').nth(2).unwrap().to_owned()
    };
    assert_eq!(
        (points("Rooks"), points("Knights"), points("Pawns")),
        ("2".into(), "1.5".into(), "0.5".into()),
        "{csv}"
    );
    let html = ok(&td(&server, "td-secret-of-the-night", &["publish", id, "html"]));
    assert!(html.starts_with("<!DOCTYPE html>") || html.starts_with("<!doctype html>"), "{html}");
    let text = ok(&td(&server, "td-secret-of-the-night", &["publish", id, "crosstable"]));
    assert!(text.contains("Knights"), "{text}");
    // Issue 31: in the director's language, by --lang or by the terminal's locale.
    let html = ok(&td(&server, "td-secret-of-the-night", &["publish", id, "html", "--lang", "ru"]));
    assert!(html.contains("<html lang=\"ru\">") && html.contains("Турнирное положение"), "{html}");
    assert!(!html.contains("Standings"), "{html}");
    let sheet = ok(&td_in(
        &server,
        "td-secret-of-the-night",
        &["publish", id, "sheet", "--round", "1"],
        "ru_RU.UTF-8",
    ));
    assert!(sheet.contains("тур 1") && sheet.contains("Стол 1"), "{sheet}");
    let standings = ok(&td_in(
        &server,
        "td-secret-of-the-night",
        &["publish", id, "standings", "--lang", "en"],
        "ru_RU.UTF-8",
    ));
    assert!(standings.starts_with("Rank"), "--lang wins over the locale: {standings}");

    // Over the board: no online match was created.
    let c = server.client("someone").await;
    assert!(c.list_matches().await.unwrap().is_empty());
    server.stop().await;
}
