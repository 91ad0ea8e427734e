//! The real `shvedka play` binary in a pseudo-terminal against a real server: the screen is read
//! back through a terminal emulator (vt100) and keys are typed into the terminal.

use std::io::{Read, Write};
use std::num::NonZeroU16;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use portable_pty::{CommandBuilder, PtySize, native_pty_system};
use shvedka_proto::{Board, ChatScope, EventView, SeatId, ServerMsg};
use shvedka_tests::{TestServer, wait_event, wait_msg};

/// The binary under a pseudo-terminal, its screen kept current by a reader thread.
struct Tty {
    screen: Arc<Mutex<vt100::Parser>>,
    writer: Box<dyn Write + Send>,
    child: Box<dyn portable_pty::Child + Send + Sync>,
}

/// A user's configuration directory of his own (where `/lang` remembers the language), and the
/// locale: the tests never read or write the real user's choice.
struct Locale<'a> {
    config: &'a std::path::Path,
    lang: &'a str,
}

impl Tty {
    /// The client in English, with a configuration directory of its own.
    fn spawn(args: &[&str]) -> Tty {
        let config = tempfile::tempdir().expect("a directory");
        let tty = Tty::spawn_in(args, &Locale { config: config.path(), lang: "C.UTF-8" });
        // The directory may go: nothing is written to it unless /lang is typed.
        drop(config);
        tty
    }

    fn spawn_in(args: &[&str], locale: &Locale<'_>) -> Tty {
        let pty = native_pty_system()
            .openpty(PtySize { rows: 40, cols: 120, pixel_width: 0, pixel_height: 0 })
            .expect("a pseudo-terminal");
        let mut cmd = CommandBuilder::new(env!("CARGO_BIN_EXE_shvedka"));
        cmd.args(args);
        cmd.env("TERM", "xterm-256color");
        cmd.env("XDG_CONFIG_HOME", locale.config);
        cmd.env("LANG", locale.lang);
        cmd.env_remove("LC_ALL");
        cmd.env_remove("LC_MESSAGES");
        let child = pty.slave.spawn_command(cmd).expect("shvedka starts");
        drop(pty.slave);
        let screen = Arc::new(Mutex::new(vt100::Parser::new(
            NonZeroU16::new(40).expect("rows"),
            NonZeroU16::new(120).expect("cols"),
            0,
        )));
        let mut reader = pty.master.try_clone_reader().expect("a reader");
        let parser = screen.clone();
        std::thread::spawn(move || {
            let mut buf = [0u8; 8192];
            while let Ok(n) = reader.read(&mut buf) {
                if n == 0 {
                    break;
                }
                parser.lock().expect("screen").process(&buf[..n]);
            }
        });
        let writer = pty.master.take_writer().expect("a writer");
        // The master must live as long as the child: leak it into the writer's lifetime.
        std::mem::forget(pty.master);
        Tty { screen, writer, child }
    }

    fn text(&self) -> String {
        self.screen.lock().expect("screen").screen().contents()
    }

    /// Waits (at most 15 s) until the screen shows `needle`.
    async fn wait_for(&self, needle: &str) {
        let deadline = Instant::now() + Duration::from_secs(15);
        while !self.text().contains(needle) {
            assert!(Instant::now() < deadline, "the screen never showed {needle:?}:\n{}", self.text());
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    fn keys(&mut self, text: &str) {
        self.writer.write_all(text.as_bytes()).expect("type");
        self.writer.flush().expect("flush");
    }

    /// Sends a signal to the process.
    fn signal(&self, sig: &str) {
        let pid = self.child.process_id().expect("a pid").to_string();
        let status = std::process::Command::new("kill").args([sig, &pid]).status().expect("kill runs");
        assert!(status.success());
    }
}

/// bob, carol and dave in a listed blitz match, at black-A, white-B and black-B, ready: white-A
/// is left for the client under test.
async fn three_ready(server: &TestServer) -> Vec<shvedka_client::Client> {
    let mut others = Vec::new();
    for name in ["bob", "carol", "dave"] {
        others.push(server.client(name).await);
    }
    let id = others[0].create_match("mgimo-2017", "blitz", true).await.unwrap();
    for (c, seat) in others.iter().zip([SeatId::BlackA, SeatId::WhiteB, SeatId::BlackB]) {
        c.take_seat(id, seat).await.unwrap();
        c.ready(true).await.unwrap();
    }
    others
}

fn hex(pin: &[u8; 32]) -> String {
    pin.iter().map(|b| format!("{b:02x}")).collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn s1_k1_a_player_sits_moves_is_refused_chats_survives_a_lost_connection_and_resigns() {
    // A short idle timeout, so a stopped client is dropped by the server quickly.
    let server = TestServer::start("idle_timeout_ms = 1500\nkeep_alive_ms = 500").await;
    let mut others = three_ready(&server).await;
    let addr = server.addr.to_string();
    let pin = hex(&server.pin);
    let mut tty = Tty::spawn(&["play", "--server", &addr, "--fingerprint", &pin, "--name", "alice"]);

    // The lobby lists the match with its three players; 1 takes the white-A seat.
    tty.wait_for("bob").await;
    tty.wait_for("carol").await;
    tty.keys("1");
    tty.wait_for("you play white-A").await;
    // Enter says ready; with four ready the clocks start and alice is to move.
    tty.keys("\r");
    tty.wait_for("▶ alice (guest) (you) white-A").await;
    tty.keys("e4\r");
    let e = wait_event(&mut others[0], |e| matches!(e.kind, EventView::Moved { .. })).await;
    assert!(matches!(&e.kind, EventView::Moved { seat: SeatId::WhiteA, san, .. } if san == "e4"));
    tty.wait_for("last: white-A e4").await;
    others[0].play(Board::A, "e5", None).await.unwrap();
    tty.wait_for("last: black-A e5").await;

    // An illegal move: the server's reason with its rule, and nothing changes.
    tty.keys("Ke3\r");
    tty.wait_for("impossible move Ke3 on board A: not a legal chess move here (FIDE)").await;
    assert!(tty.text().contains("▶ alice (guest) (you) white-A"), "still alice's turn:\n{}", tty.text());

    // Team chat, typed and quick (F1), reaches the partner (black-B).
    tty.keys("/t hello partner\r");
    let chat = wait_msg(&mut others[2], |m| matches!(m, ServerMsg::Chat { .. })).await;
    assert!(
        matches!(chat, ServerMsg::Chat { scope: ChatScope::Team, ref text, .. } if text == "hello partner")
    );
    tty.keys("\x1bOP");
    let chat = wait_msg(&mut others[2], |m| matches!(m, ServerMsg::Chat { .. })).await;
    assert!(matches!(chat, ServerMsg::Chat { ref text, .. } if text == "need a knight"), "{chat:?}");

    // The connection is lost (the process is stopped past the server's idle timeout): the client
    // says so, reconnects, resumes, and sees what happened meanwhile.
    tty.signal("-STOP");
    tokio::time::sleep(Duration::from_millis(2500)).await;
    tty.signal("-CONT");
    tty.wait_for("reconnected: the session is resumed").await;
    tty.keys("Nf3\r");
    tty.wait_for("last: white-A Nf3").await;

    // Resignation ends the match for the team; the result shows with its reason and rule.
    tty.keys("/resign\r");
    tty.wait_for("type /resign again to confirm").await;
    tty.keys("/resign\r");
    tty.wait_for("team 2 wins: white-A resigned (E10)").await;
    tty.keys("\x03");
    let status = ended(&mut tty).await;
    assert!(status.success(), "{status:?}");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_terminal_client_given_a_list_connects_to_the_first_node_that_answers_and_says_which() {
    let server = TestServer::start("").await;
    let host = server.client("bob").await;
    // Its match in the lobby shows the session works.
    host.create_match("mgimo-2017", "blitz", true).await.unwrap();
    // A node that never answers comes first in the list; it costs one bounded try.
    let dead = std::net::UdpSocket::bind("127.0.0.1:0").unwrap();
    let list = format!("{},{}", dead.local_addr().unwrap(), server.addr);
    let pin = hex(&server.pin);
    let mut tty = Tty::spawn(&["play", "--server", &list, "--fingerprint", &pin, "--name", "alice"]);
    tty.wait_for(&format!("connected to {}", server.addr)).await;
    tty.wait_for("mgimo-2017 3+0   forming").await;
    tty.keys("\x03");
    let deadline = Instant::now() + Duration::from_secs(10);
    while tty.child.try_wait().expect("wait").is_none() {
        assert!(Instant::now() < deadline, "Ctrl-C ends the client");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    drop(dead);
    server.stop().await;
}

/// Waits (at most 10 s) for the client to end after Ctrl-C.
async fn quit(tty: &mut Tty) {
    tty.keys("\x03");
    let _ = ended(tty).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_russian_player_reads_the_lobby_the_boards_and_a_refused_move_in_russian_and_the_choice_is_remembered()
 {
    let server = TestServer::start("").await;
    let others = three_ready(&server).await;
    let addr = server.addr.to_string();
    let pin = hex(&server.pin);
    let config = tempfile::tempdir().unwrap();
    let russian = Locale { config: config.path(), lang: "ru_RU.UTF-8" };
    let args = ["play", "--server", &addr, "--fingerprint", &pin, "--name", "alice"];
    let mut tty = Tty::spawn_in(&args, &russian);

    // The lobby in Russian: its columns and the match's phase.
    tty.wait_for("shvedka · alice · лобби").await;
    tty.wait_for("стадия").await;
    tty.wait_for("mgimo-2017 3+0   сбор").await;
    tty.wait_for("bob (гость)").await;
    tty.keys("1");
    tty.wait_for("ваше место: белые A").await;
    tty.wait_for("запас: —").await;
    tty.keys("\r");
    tty.wait_for("▶ alice (гость) (вы) белые A").await;
    tty.keys("e4\r");
    tty.wait_for("Доска A · последний ход: белые A e4").await;
    tty.wait_for("1 ход").await;

    // A refused move, from the server's code and rule, in Russian; the server's words nowhere.
    others[0].play(Board::A, "e5", None).await.unwrap();
    tty.wait_for("последний ход: чёрные A e5").await;
    tty.keys("Ke3\r");
    tty.wait_for("невозможный ход Ke3 на доске A: по шахматным правилам так ходить нельзя (FIDE)").await;
    // Not one's turn: refused, with the rule (K1).
    tty.keys("Nf3\r");
    tty.wait_for("последний ход: белые A Nf3").await;
    tty.keys("d4\r");
    tty.wait_for("ход d4 на доске A отклонён: сейчас не ваш ход (K1)").await;
    let text = tty.text();
    for english in ["illegal", "Board", "reserve", "lobby ", "you play", "refused"] {
        assert!(!text.contains(english), "{english:?} on a Russian screen:\n{text}");
    }
    // The partner's quick message reads in Russian.
    others[2].chat(ChatScope::Team, "need a knight").await.unwrap();
    tty.wait_for("[команде] dave (гость): нужен конь").await;
    // A drop from an empty reserve: whose reserve and which piece, in the genitive (P1).
    others[0].play(Board::A, "Nc6", None).await.unwrap();
    tty.wait_for("последний ход: чёрные A Nc6").await;
    tty.keys("N@e5\r");
    tty.wait_for("невозможный ход N@e5 на доске A: в запасе белых A нет коня (P1)").await;
    // The result, from its cause.
    tty.keys("/resign\r");
    tty.wait_for("наберите /resign ещё раз").await;
    tty.keys("/resign\r");
    tty.wait_for("победила команда 2: белые A сдались (E10)").await;

    // /lang en switches at once and is remembered.
    tty.keys("/lang en\r");
    tty.wait_for("language: English").await;
    tty.wait_for("Board A").await;
    let stored = std::fs::read_to_string(config.path().join("shvedka").join("language")).unwrap();
    assert_eq!(stored.trim(), "en");
    quit(&mut tty).await;

    // The remembered choice wins over LANG…
    let mut tty = Tty::spawn_in(&args, &russian);
    tty.wait_for("shvedka · alice · lobby").await;
    quit(&mut tty).await;
    // …and the flag over both.
    let flagged = [&args[..], &["--lang", "ru"]].concat();
    let mut tty = Tty::spawn_in(&flagged, &russian);
    tty.wait_for("shvedka · alice · лобби").await;
    quit(&mut tty).await;
    server.stop().await;
}

/// Waits (at most 10 s) for the client to end by itself; its exit status.
async fn ended(tty: &mut Tty) -> portable_pty::ExitStatus {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        if let Some(status) = tty.child.try_wait().expect("wait") {
            return status;
        }
        assert!(Instant::now() < deadline, "the client ends by itself:\n{}", tty.text());
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// A session that cannot be opened, before the client's screen: a Russian reader is asked for
/// his password and told why in Russian, from the refusal's code — never the server's English
/// words — and the client ends with status 1 (refused), as for a refused move.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_session_refused_before_the_screen_is_said_in_the_readers_language() {
    let server = TestServer::start("").await;
    drop(server.account("ivan").await);
    let (addr, pin) = (server.addr.to_string(), hex(&server.pin));
    let config = tempfile::tempdir().unwrap();
    let russian = Locale { config: config.path(), lang: "ru_RU.UTF-8" };

    // A guest asking for an account's name.
    let mut tty =
        Tty::spawn_in(&["play", "--server", &addr, "--fingerprint", &pin, "--name", "ivan"], &russian);
    tty.wait_for("не удалось открыть сеанс с").await;
    tty.wait_for("это имя принадлежит учётной записи: войдите или возьмите другое имя").await;
    assert_eq!(ended(&mut tty).await.exit_code(), 1);
    assert!(!tty.text().contains("registered"), "no English:\n{}", tty.text());

    // The account with a wrong password, typed at a Russian prompt.
    let mut tty =
        Tty::spawn_in(&["play", "--server", &addr, "--fingerprint", &pin, "--account", "ivan"], &russian);
    tty.wait_for("пароль ivan:").await;
    tty.keys("not-the-password\r");
    tty.wait_for("неверное имя или пароль").await;
    assert_eq!(ended(&mut tty).await.exit_code(), 1);
    assert!(!tty.text().contains("wrong name"), "no English:\n{}", tty.text());

    // In English, the same refusal in English words.
    let config = tempfile::tempdir().unwrap();
    let english = Locale { config: config.path(), lang: "C.UTF-8" };
    let mut tty =
        Tty::spawn_in(&["play", "--server", &addr, "--fingerprint", &pin, "--name", "ivan"], &english);
    tty.wait_for("cannot open a session with").await;
    assert_eq!(ended(&mut tty).await.exit_code(), 1);
    server.stop().await;
}

/// A player whose terminal closed mid-match runs `shvedka play` again and is back in his seat:
/// the account's session is kept between runs in his own configuration directory (no password
/// asked again), as a browser keeps its tab's; a kept session the server no longer knows is
/// replaced by a log-in.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_whose_client_closed_mid_match_comes_back_to_his_seat() {
    let server = TestServer::start("").await;
    drop(server.account("ivan").await);
    let mut others = three_ready(&server).await;
    let (addr, pin) = (server.addr.to_string(), hex(&server.pin));
    let config = tempfile::tempdir().unwrap();
    let english = Locale { config: config.path(), lang: "C.UTF-8" };
    let password = config.path().join("password");
    std::fs::write(&password, TestServer::password("ivan")).unwrap();
    let password = password.to_str().unwrap();
    let with_password =
        ["play", "--server", &addr, "--fingerprint", &pin, "--account", "ivan", "--password-file", password];
    let mut tty = Tty::spawn_in(&with_password, &english);
    tty.wait_for("bob").await;
    tty.keys("1");
    tty.wait_for("you play white-A").await;
    tty.keys("\r");
    tty.wait_for("▶ ivan (you) white-A").await;
    tty.keys("e4\r");
    tty.wait_for("last: white-A e4").await;
    // The terminal closes: the process is killed, its session left on the server.
    tty.signal("-KILL");
    let _ = ended(&mut tty).await;
    others[0].play(Board::A, "e5", None).await.unwrap();

    // Again, with no password anywhere: the kept session is resumed, and ivan plays on.
    let without = ["play", "--server", &addr, "--fingerprint", &pin, "--account", "ivan"];
    let mut tty = Tty::spawn_in(&without, &english);
    tty.wait_for("bob").await;
    assert!(!tty.text().contains("password of ivan"), "no password asked:\n{}", tty.text());
    tty.keys("\r");
    tty.wait_for("▶ ivan (you) white-A").await;
    tty.keys("Nf3\r");
    tty.wait_for("last: white-A Nf3").await;
    let e =
        wait_event(&mut others[0], |e| matches!(&e.kind, EventView::Moved { san, .. } if san == "Nf3")).await;
    assert!(matches!(e.kind, EventView::Moved { seat: SeatId::WhiteA, .. }), "his seat's move: {e:?}");
    // His team resigns; his profile lists the match with its result, as /help promises.
    tty.keys("/resign\r");
    tty.keys("/resign\r");
    tty.wait_for("team 2 wins: white-A resigned (E10)").await;
    tty.keys("/profile\r");
    tty.wait_for("match 1 (mgimo-2017 3+0): team 1 (ivan, dave) against team 2 (bob, carol): team 2 wins")
        .await;
    quit(&mut tty).await;

    // A kept session the server no longer knows (a restarted test server has another database):
    // the client logs in as if none were kept, and keeps the new one.
    let kept = std::fs::read_dir(config.path().join("shvedka").join("sessions")).unwrap().count();
    assert_eq!(kept, 1, "one session kept, ivan's on this server");
    let file =
        std::fs::read_dir(config.path().join("shvedka").join("sessions")).unwrap().next().unwrap().unwrap();
    std::fs::write(file.path(), "ivan\nnot-a-token-the-server-knows\n").unwrap();
    let mut tty = Tty::spawn_in(&with_password, &english);
    tty.wait_for("shvedka · ivan · lobby").await;
    quit(&mut tty).await;
    let token = std::fs::read_to_string(file.path()).unwrap();
    assert!(token.starts_with("ivan\n") && !token.contains("not-a-token"), "the new session kept: {token:?}");
    server.stop().await;
}
