//! Issue 58 ("Shown by"): a browser opens a public server's web client over HTTPS and plays over
//! WebTransport with no certificate hashes. The server has no certificate of its own: it obtains
//! one for its public name `chess.test` from an ACME CA (Debian's `pebble` on loopback,
//! `testkit::pebble`), configured as in `https.rs`. Headless Chromium trusts that CA's issuing
//! root as a browser trusts Let's Encrypt's: the root is in the NSS database of a HOME made for
//! it (`certutil`, Debian's `libnss3-tools`), where Chromium on Linux reads its user's trusted
//! roots. `web/e2e/https.mjs` maps `chess.test` to 127.0.0.1 in the browser's resolver, opens
//! `https://chess.test:PORT/`, checks the page is a secure context served with the CA's
//! certificate, that it opened WebTransport to `chess.test` with no hashes, and plays against the
//! server's bots. Screenshots land in `target/e2e/https/`.
//!
//! For WebTransport Chromium also wants the root to be one of its built-in public ones, which no
//! test CA's is: the script launches it with `--webtransport-developer-mode`, which lifts only
//! that; the chain is still verified against the NSS root (without it the session is refused),
//! and the script checks that a certificate not for the name dialled is still refused.

use std::path::Path;
use std::process::Stdio;
use std::time::Duration;

use shvedka_server::Server;

use crate::browser::{CHROMIUM, ensure_node_modules, script_passed, web_dir};
use crate::https::HOST;

/// How long the CA may take to issue the server's certificate.
const PATIENCE: Duration = Duration::from_secs(60);

/// Runs `certutil ARGS`; panics with its output unless it succeeded.
fn certutil(args: &[&str]) {
    let out = std::process::Command::new("certutil").args(args).output().unwrap_or_else(|e| {
        panic!("certutil is needed to make the browser trust the CA (apt-get install libnss3-tools; ./test does): {e}")
    });
    assert!(
        out.status.success(),
        "certutil {args:?} failed:\n{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// A HOME whose NSS database (`.pki/nssdb`, Chromium's on Linux) trusts `root` (PEM) to issue
/// server certificates, and nothing else of its own.
fn home_trusting(dir: &Path, root: &str) -> std::path::PathBuf {
    let home = dir.join("home");
    let nssdb = home.join(".pki/nssdb");
    std::fs::create_dir_all(&nssdb).expect("the NSS database's directory");
    let pem = dir.join("pebble-root.pem");
    std::fs::write(&pem, root).expect("the root's PEM");
    let db = format!("sql:{}", nssdb.display());
    certutil(&["-N", "-d", &db, "--empty-password"]);
    certutil(&["-A", "-d", &db, "-t", "C,,", "-n", "pebble", "-i", pem.to_str().expect("a UTF-8 path")]);
    home
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn chromium_trusting_the_acme_cas_root_opens_the_public_name_over_https_and_plays_over_webtransport_without_hashes()
 {
    assert!(
        Path::new(CHROMIUM).exists(),
        "the browser tests need Debian's Chromium at {CHROMIUM} (apt-get install chromium; ./test does)"
    );
    ensure_node_modules();
    let dir = tempfile::tempdir().expect("a directory");
    let reserved = testkit::pebble::Reserved::new();
    let config = crate::https::config(&dir.path().join("data"), &reserved.directory(), &reserved.tls_root);
    let server = Server::bind(config).await.expect("the server binds");
    let http = server.http_addr().unwrap().expect("plain HTTP");
    let https = server.https_addr().unwrap().expect("HTTPS");
    let ca = reserved.start(http.port());
    let mut served = server.certificates().expect("ACME is on").watch();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let running = tokio::spawn(server.run(async {
        let _ = stopped.await;
    }));
    let got = tokio::time::timeout(PATIENCE, served.wait_for(|s| s.issued)).await;
    got.unwrap_or_else(|_| panic!("no certificate within {PATIENCE:?}; the CA's log:\n{}", ca.log()))
        .expect("the server runs");

    // The browser trusts the CA's root, as everyone's trusts Let's Encrypt's; nothing else.
    let home = home_trusting(dir.path(), &ca.issuing_root());
    let out_dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/e2e/https");
    let _ = std::fs::remove_dir_all(&out_dir);
    std::fs::create_dir_all(&out_dir).expect("the screenshot directory");
    let url = format!("https://{HOST}:{}/", https.port());
    let child = tokio::process::Command::new("node")
        .arg(web_dir().join("e2e/https.mjs"))
        .args(["--url", &url, "--transport", "webtransport", "--out"])
        .arg(&out_dir)
        .env("HOME", &home)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .expect("node runs");
    script_passed(child).await;
    for shot in ["https-playing.png", "https-resigned.png"] {
        assert!(out_dir.join(shot).exists(), "the script's screenshot {shot} in {}", out_dir.display());
    }

    let _ = stop.send(());
    running.await.expect("the server task").expect("a clean stop");
}
