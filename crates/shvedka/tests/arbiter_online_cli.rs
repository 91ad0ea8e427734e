//! `shvedka arbiter` against a running server (RULES.md A2, K5, A4).

use std::process::{Command, Output};

use shvedka_proto::{ArbiterRequest, Board, EventView};
use shvedka_tests::{TestServer, wait_event};

fn arbiter(server: &TestServer, token: &str, args: &[&str]) -> Output {
    arbiter_in("en", server, token, args)
}

/// `shvedka arbiter … --lang LANG`.
fn arbiter_in(lang: &str, server: &TestServer, token: &str, args: &[&str]) -> Output {
    let pin: String = server.pin.iter().map(|b| format!("{b:02x}")).collect();
    Command::new(env!("CARGO_BIN_EXE_shvedka"))
        .arg("arbiter")
        .args(args)
        .args(["--lang", lang])
        .args(["--server", &server.addr.to_string(), "--fingerprint", &pin])
        .env("SHVEDKA_ARBITER_TOKEN", token)
        .output()
        .expect("shvedka runs")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a2_k5_arbiter_command_line_lists_pauses_adjusts_takes_back_shows_declares_and_exports() {
    let server = TestServer::start("arbiter_token = \"s3cret-whistle-of-arbiters\"").await;
    let (id, mut c) = server.seated_match("mgimo-2017", "blitz").await;
    let id = id.0.to_string();
    c[0].play(Board::A, "e4", None).await.unwrap();
    c[1].play(Board::A, "e5", None).await.unwrap();

    let wrong = arbiter(&server, "guess", &["list"]);
    assert_eq!(wrong.status.code(), Some(1), "a wrong secret is refused");
    assert!(String::from_utf8_lossy(&wrong.stderr).contains("secret"));

    let list = arbiter(&server, "s3cret-whistle-of-arbiters", &["list"]);
    assert!(list.status.success());
    assert!(
        stdout(&list).starts_with(&format!("{id} mgimo-2017 3+0 running white-A=white-A")),
        "{}",
        stdout(&list)
    );

    let pause = arbiter(&server, "s3cret-whistle-of-arbiters", &["pause", &id]);
    assert!(pause.status.success());
    assert_eq!(
        stdout(&pause),
        format!("done: the arbiter stopped the clocks (match {id})\n"),
        "words, not Debug"
    );
    wait_event(&mut c[2], |e| matches!(&e.kind, EventView::ArbiterActed { act: ArbiterRequest::Pause, .. }))
        .await;
    // In Russian, with the seat typed in Russian.
    let adjust = arbiter_in("ru", &server, "s3cret-whistle-of-arbiters", &["adjust", &id, "чёрные-A", "-30"]);
    assert!(adjust.status.success(), "{}", String::from_utf8_lossy(&adjust.stderr));
    assert!(stdout(&adjust).starts_with("сделано: судья изменил время: чёрные A -"), "{}", stdout(&adjust));
    assert!(stdout(&adjust).ends_with(&format!("(матч {id})\n")), "{}", stdout(&adjust));
    let e = wait_event(
        &mut c[2],
        |e| matches!(&e.kind, EventView::ArbiterActed { act: ArbiterRequest::AdjustClock { delta_ms, .. }, .. } if *delta_ms < 0),
    )
    .await;
    assert!(e.clocks_ms[1] <= 150_000, "30 s removed from black-A: {:?}", e.clocks_ms);
    assert!(arbiter(&server, "s3cret-whistle-of-arbiters", &["take-back", &id, "a"]).status.success());
    assert!(arbiter(&server, "s3cret-whistle-of-arbiters", &["resume", &id]).status.success());
    let bad = arbiter(&server, "s3cret-whistle-of-arbiters", &["adjust", &id, "a-purple", "10"]);
    assert_eq!(bad.status.code(), Some(2), "a bad seat is bad input");
    let bad = arbiter_in("ru", &server, "s3cret-whistle-of-arbiters", &["adjust", &id, "синие-A", "10"]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("место «синие-A»: ожидается белые-A"), "{bad:?}");

    // Review the live match from the server's record: after move 1 (1A. e4).
    let show = arbiter(&server, "s3cret-whistle-of-arbiters", &["show", &id, "--after-move", "1"]);
    assert!(show.status.success(), "{}", String::from_utf8_lossy(&show.stderr));
    let text = stdout(&show);
    assert!(text.starts_with("after move 1 (1A. e4)"), "{text}");
    assert!(text.contains("mate on board: no"), "{text}");

    let declare = arbiter(
        &server,
        "s3cret-whistle-of-arbiters",
        &["declare", &id, "draw", "power", "cut", "in", "the", "hall"],
    );
    assert!(declare.status.success());
    let end = wait_event(&mut c[0], |e| matches!(e.kind, EventView::Ended(_))).await;
    let EventView::Ended(r) = end.kind else { unreachable!() };
    assert_eq!((r.winner, r.rule.as_str()), (None, "A2"));

    let export = arbiter(&server, "s3cret-whistle-of-arbiters", &["export", &id]);
    // Comments wrap at 80 columns: compare with the whitespace collapsed.
    let bpgn = stdout(&export).split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(bpgn.contains("[Result \"1/2-1/2\"]") && bpgn.contains("power cut in the hall"), "{bpgn}");
    // The acts in their machine-readable form (docs/bpgn.md), each naming who made it.
    assert!(bpgn.contains("[%act adjust t=") && bpgn.contains("seat=black-A delta=-30.000"), "{bpgn}");
    assert!(bpgn.contains("[%act takeback t=") && bpgn.contains("board=A position="), "{bpgn}");
    assert!(bpgn.contains("by=(secret)"), "{bpgn}");
    let pgn = stdout(&arbiter(&server, "s3cret-whistle-of-arbiters", &["export", &id, "--pgn", "a"]));
    assert!(pgn.contains("[White \"white-A\"]") && pgn.contains("1. e4"), "{pgn}");
    server.stop().await;
}

/// A5, A6: `shvedka arbiter replay MATCH setup|hint|other [WORDS]` plays the game again: the
/// players see both boards back at the start; an unknown reason is bad input (exit 2), refused
/// before anything reaches the server.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a5_a6_arbiter_command_line_replays_a_game() {
    let server = TestServer::start("arbiter_token = \"s3cret-whistle-of-arbiters\"").await;
    let (id, mut c) = server.seated_match("mgimo-2017", "blitz").await;
    let id = id.0.to_string();
    c[0].play(Board::A, "e4", None).await.unwrap();

    let bad = arbiter(&server, "s3cret-whistle-of-arbiters", &["replay", &id, "because"]);
    assert_eq!(bad.status.code(), Some(2), "an unknown reason is bad input");
    assert!(String::from_utf8_lossy(&bad.stderr).contains("setup, hint or other"));

    let done = arbiter(&server, "s3cret-whistle-of-arbiters", &["replay", &id, "hint", "a", "spectator"]);
    assert!(done.status.success(), "{}", String::from_utf8_lossy(&done.stderr));
    let e = wait_event(&mut c[3], |e| {
        matches!(&e.kind, EventView::ArbiterActed { act: ArbiterRequest::Replay { .. }, .. })
    })
    .await;
    let EventView::ArbiterActed { act: ArbiterRequest::Replay { reason, note }, .. } = &e.kind else {
        unreachable!()
    };
    assert_eq!((*reason, note.as_str()), (shvedka_proto::ReplayReason::OutsideHint, "a spectator"));
    assert!(
        e.bfen.as_deref().is_some_and(|b| b.starts_with("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w"))
    );
    server.stop().await;
}

/// A2: the arbiters' secret never on the command line (`ps` shows it to every user): `--token`
/// is refused (exit 2) with where to put it, before anything reaches the server; `--token-file`
/// gives it; without a secret or an account the command says what it needs; a wrong secret is
/// said in the reader's language from its code.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a2_the_arbiters_secret_comes_from_a_file_or_the_environment_never_the_command_line() {
    let server = TestServer::start("arbiter_token = \"s3cret-whistle-of-arbiters\"").await;
    let pin: String = server.pin.iter().map(|b| format!("{b:02x}")).collect();
    let run = |lang: &str, args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_shvedka"))
            .arg("arbiter")
            .args(args)
            .args(["--lang", lang])
            .args(["--server", &server.addr.to_string(), "--fingerprint", &pin])
            .env_remove("SHVEDKA_ARBITER_TOKEN")
            .output()
            .expect("shvedka runs")
    };
    let stderr = |o: &Output| String::from_utf8_lossy(&o.stderr).into_owned();

    let given = run("en", &["list", "--token", "s3cret-whistle-of-arbiters"]);
    assert_eq!(given.status.code(), Some(2), "{}", stderr(&given));
    assert!(stderr(&given).contains("SHVEDKA_ARBITER_TOKEN") && stderr(&given).contains("--token-file"));
    assert!(!stderr(&given).contains("s3cret"), "the secret is not echoed: {}", stderr(&given));

    let none = run("en", &["list"]);
    assert_eq!(none.status.code(), Some(2), "{}", stderr(&none));
    assert!(stderr(&none).contains("--account NAME"), "{}", stderr(&none));

    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("arbiter.token");
    std::fs::write(&file, "s3cret-whistle-of-arbiters\n").unwrap();
    let file = file.to_str().unwrap();
    let list = run("en", &["list", "--token-file", file]);
    assert!(list.status.success(), "{}", stderr(&list));

    std::fs::write(dir.path().join("wrong"), "a-guess-at-the-secret\n").unwrap();
    let wrong = dir.path().join("wrong");
    let wrong = run("ru", &["list", "--token-file", wrong.to_str().unwrap()]);
    assert_eq!(wrong.status.code(), Some(1), "{}", stderr(&wrong));
    assert!(
        stderr(&wrong).contains("это не секрет роли «судья»"),
        "in Russian, from the code: {}",
        stderr(&wrong)
    );
    server.stop().await;
}
