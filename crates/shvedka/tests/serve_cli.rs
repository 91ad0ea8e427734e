//! `shvedka serve` as a process: it starts on embedded defaults, keeps its certificate in the
//! data directory across restarts, refuses bad configuration, and stops cleanly on Ctrl-C or
//! SIGTERM.

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Starts the server in `dir`, returns it and the four lines it prints (address, certificate,
/// web client, how to join).
fn start(dir: &std::path::Path) -> (std::process::Child, Vec<String>) {
    start_with(dir, &[])
}

/// [`start`] with more arguments.
fn start_with(dir: &std::path::Path, extra: &[&str]) -> (std::process::Child, Vec<String>) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_shvedka"))
        .args(["serve", "--listen", "127.0.0.1:0", "--http-listen", "127.0.0.1:0"])
        .args(["--webtransport-listen", "127.0.0.1:0"])
        .args(extra)
        .current_dir(dir)
        .env("RUST_LOG", "warn")
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("run shvedka serve");
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let first: Vec<String> = (0..4).map(|_| lines.next().unwrap().unwrap()).collect();
    assert!(first[2].starts_with("web client on http://127.0.0.1:"), "{first:?}");
    assert!(first[3].starts_with("join with: shvedka play --server 127.0.0.1:"), "{first:?}");
    (child, first)
}

fn interrupt_and_wait(child: std::process::Child) -> std::process::ExitStatus {
    signal_and_wait(child, "-INT")
}

/// Sends `signal` (`-INT`, `-TERM`) and waits for the server to exit.
fn signal_and_wait(mut child: std::process::Child, signal: &str) -> std::process::ExitStatus {
    let killed = Command::new("kill").args([signal, &child.id().to_string()]).status().unwrap();
    assert!(killed.success());
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return status;
        }
        assert!(Instant::now() < deadline, "the server did not stop within 10 s of {signal}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn serve_runs_on_defaults_keeps_its_certificate_and_stops_on_ctrl_c() {
    let dir = tempfile::tempdir().unwrap();
    let (child, lines) = start(dir.path());
    assert!(lines[0].starts_with("shvedka listening on 127.0.0.1:"), "{lines:?}");
    let fingerprint = lines[1].strip_prefix("certificate sha256 ").unwrap().to_owned();
    assert_eq!(fingerprint.len(), 64);
    assert!(dir.path().join("data/cert.pem").exists());
    assert!(interrupt_and_wait(child).success(), "a clean exit after Ctrl-C");

    let (child, lines) = start(dir.path());
    assert_eq!(lines[1], format!("certificate sha256 {fingerprint}"), "the same certificate after a restart");

    // A second server on the same data directory is refused at once, naming the first's process.
    let mut second = Command::new(env!("CARGO_BIN_EXE_shvedka"))
        .args(["serve", "--listen", "127.0.0.1:0", "--http-listen", "127.0.0.1:0"])
        .args(["--webtransport-listen", "127.0.0.1:0"])
        .current_dir(dir.path())
        .env("RUST_LOG", "warn")
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(10);
    while second.try_wait().unwrap().is_none() {
        if Instant::now() > deadline {
            let _ = second.kill();
            panic!("a second server on the same data directory kept running");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let second = second.wait_with_output().unwrap();
    assert_eq!(second.status.code(), Some(2));
    let err = String::from_utf8_lossy(&second.stderr);
    let first_pid = format!("in use by another shvedka server (process {})", child.id());
    assert!(err.contains(&first_pid), "{err}");
    assert!(interrupt_and_wait(child).success());
    // Once it stopped, the directory is free again; SIGTERM (what systemd sends) is the same
    // clean shutdown as Ctrl-C: exit 0, its lock released for the next start.
    let (child, _) = start(dir.path());
    assert!(signal_and_wait(child, "-TERM").success(), "a clean exit after SIGTERM, not 143");

    // Issue 61: `--data-dir` puts everything in another directory (relative to the working one),
    // beside a server still on the first: its own certificate, its own lock.
    let (first, _) = start(dir.path());
    let (child, lines) = start_with(dir.path(), &["--data-dir", "night-2"]);
    assert!(dir.path().join("night-2/cert.pem").exists() && dir.path().join("night-2/shvedka.db").exists());
    assert_ne!(lines[1], format!("certificate sha256 {fingerprint}"), "its own certificate");
    assert!(interrupt_and_wait(child).success());
    assert!(interrupt_and_wait(first).success());
}

#[test]
fn serve_refuses_a_bad_configuration_with_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bad.toml");
    // `serve --config` on `text`: refused (exit 2) before it binds anything.
    let refused = |text: &str| {
        std::fs::write(&path, text).unwrap();
        let out = Command::new(env!("CARGO_BIN_EXE_shvedka"))
            .args(["serve", "--config", path.to_str().unwrap()])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{out:?}");
        out
    };
    let out = refused("listen = \"127.0.0.1:0\"\nmax_conections = 5\n");
    let err = String::from_utf8_lossy(&out.stderr);
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines.len(), 1, "one line on stderr, nothing more: {err:?}");
    assert!(lines[0].contains("unknown key `max_conections`; did you mean `max_connections`?"), "{err}");
    assert!(out.stdout.is_empty(), "nothing on stdout: {:?}", String::from_utf8_lossy(&out.stdout));

    // A top-level key written under [cluster] (cert and key, as a node's config was once shown):
    // said to belong above it.
    let out = refused("[cluster]\nnode = \"n1\"\nnats_url = \"nats://127.0.0.1:4222\"\ncert = \"c.pem\"\n");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("unknown key `cert` in [cluster]; `cert` is a top-level key: put it above [cluster]"),
        "{err}"
    );

    // A value only the seeks read (a quick pool's time control) is refused before anything is
    // made: no database migrated, no certificate generated in the data directory.
    let data = dir.path().join("data");
    std::fs::write(
        &path,
        format!(
            "listen = \"127.0.0.1:0\"\ndata_dir = {:?}\nquick_pools = [\"soon\"]\n",
            data.to_str().unwrap()
        ),
    )
    .unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_shvedka"))
        .args(["serve", "--config", path.to_str().unwrap()])
        .env("RUST_LOG", "info")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("quick pool \"soon\""), "{err}");
    assert!(!data.join("shvedka.db").exists() && !data.join("cert.pem").exists(), "nothing made: {err}");
}
