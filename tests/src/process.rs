//! `shvedka serve` as a child process, for the tests that kill it (SIGKILL) and start it again or
//! run several nodes of a cluster. The process is read for the lines it prints on start (its
//! address, its certificate's fingerprint, its web client's address); its standard error goes to a
//! file, which a test that sees the process die before it printed them is shown. The process is killed when its handle
//! is dropped, so a test that fails midway leaves no server running.

use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use shvedka_client::parse_fingerprint;

/// A running `shvedka serve`.
pub struct Served {
    /// The process, killed when dropped (a test that panics leaves no server behind).
    pub child: Killed,
    /// Where it listens (QUIC): read from what it printed, so `listen = "127.0.0.1:0"` works.
    pub addr: SocketAddr,
    /// Its certificate's SHA-256.
    pub pin: [u8; 32],
    /// Where its HTTP side listens, if it has one.
    pub http: Option<SocketAddr>,
}

/// How long a starting server may take to print its lines (a migration of a throwaway database,
/// on a machine running the whole suite).
pub const START_WAIT: Duration = Duration::from_secs(60);

/// Starts `bin serve --config config` with its standard error written to `stderr`, and waits for
/// it to print its addresses and fingerprint. Panics with the process's exit status and standard
/// error when it ends before printing them (a bind that failed, a database not there), or has
/// not printed them within [`START_WAIT`]; the process is killed then, as on any panic here.
pub fn serve(bin: &str, config: &Path, stderr: &Path) -> Served {
    let mut child = Command::new(bin)
        .args(["serve", "--config"])
        .arg(config)
        .stdout(Stdio::piped())
        .stderr(std::fs::File::create(stderr).expect("the test's stderr file"))
        .spawn()
        .expect("shvedka serve starts");
    let stdout = child.stdout.take().expect("piped");
    // Killed if anything below panics.
    let mut child = Killed(child);
    // Read on a thread of its own (which then drains the rest), so a wait for a line is bounded.
    let (tx, printed) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { return };
            let _ = tx.send(line);
        }
    });
    let mut line = || {
        printed.recv_timeout(START_WAIT).unwrap_or_else(|waited| {
            let _ = child.kill();
            let status = child.wait().map_or_else(|e| e.to_string(), |s| s.to_string());
            let said = std::fs::read_to_string(stderr).unwrap_or_default();
            panic!("shvedka serve did not print its addresses ({waited}; {status}); its stderr:\n{said}");
        })
    };
    let address = line();
    let cert = line();
    let web = line();
    let addr = address
        .strip_prefix("shvedka listening on ")
        .and_then(|rest| rest.split_whitespace().next())
        .and_then(|a| a.parse().ok())
        .unwrap_or_else(|| panic!("not an address line: {address:?}"));
    let pin = parse_fingerprint(cert.trim_start_matches("certificate sha256 ")).expect("a fingerprint line");
    let http = web
        .strip_prefix("web client on http://")
        .and_then(|rest| rest.split('/').next())
        .map(|a| a.parse().unwrap_or_else(|_| panic!("not a web client line: {web:?}")));
    Served { child, addr, pin, http }
}

/// A child process that is killed (SIGKILL) and reaped when dropped, whether the test ends or
/// panics; otherwise used as the [`Child`] it holds.
pub struct Killed(pub Child);

impl std::ops::Deref for Killed {
    type Target = Child;
    fn deref(&self) -> &Child {
        &self.0
    }
}

impl std::ops::DerefMut for Killed {
    fn deref_mut(&mut self) -> &mut Child {
        &mut self.0
    }
}

impl Drop for Killed {
    fn drop(&mut self) {
        // Already gone when the test killed it: both fail quietly then.
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}
