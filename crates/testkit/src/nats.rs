//! A throwaway NATS server for tests: `nats-server` (Debian's `nats-server` package; `./test`
//! installs it) on loopback, on a port the server picks itself (so tests running at once cannot
//! collide), with its files in a temporary directory; killed and deleted when dropped.
//!
//! The port is read from the ports file the server writes (`--ports_file_dir`) once it listens,
//! waiting at most [`START_TIMEOUT`].

use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// The longest wait for a started server to listen.
pub const START_TIMEOUT: Duration = Duration::from_secs(10);

/// A NATS server for one test.
pub struct TempNats {
    /// The client URL (`nats://127.0.0.1:PORT`).
    pub url: String,
    child: Child,
    dir: PathBuf,
}

impl TempNats {
    /// Starts a server on 127.0.0.1.
    ///
    /// # Panics
    /// When `nats-server` is not installed, or does not listen within [`START_TIMEOUT`].
    pub fn start() -> TempNats {
        let dir =
            std::env::temp_dir().join(format!("shvedka-nats-{}-{}", std::process::id(), crate::unique()));
        std::fs::create_dir_all(&dir).expect("a temporary directory");
        let child = Command::new(exe())
            .args(["-a", "127.0.0.1", "-p", "-1", "--ports_file_dir"])
            .arg(&dir)
            .arg("-l")
            .arg(dir.join("log"))
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| {
                panic!("cannot start nats-server ({e}): install Debian's `nats-server` package (./test does)")
            });
        let mut server = TempNats { url: String::new(), child, dir };
        let ports = server.dir.join(format!("nats-server_{}.ports", server.child.id()));
        let deadline = Instant::now() + START_TIMEOUT;
        loop {
            if let Some(url) = std::fs::read_to_string(&ports).ok().as_deref().and_then(client_url) {
                server.url = url;
                return server;
            }
            if let Ok(Some(status)) = server.child.try_wait() {
                panic!("nats-server exited at start ({status}); its log is in {}", server.dir.display());
            }
            assert!(Instant::now() < deadline, "nats-server did not listen within {START_TIMEOUT:?}");
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

impl Drop for TempNats {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// The installed server: on `PATH`, else where Debian puts it.
fn exe() -> PathBuf {
    let on_path = std::env::var_os("PATH")
        .into_iter()
        .flat_map(|p| std::env::split_paths(&p).collect::<Vec<_>>())
        .map(|d| d.join("nats-server"))
        .find(|p| p.exists());
    on_path.unwrap_or_else(|| PathBuf::from("/usr/sbin/nats-server"))
}

/// The client URL in a ports file (`{"nats":["nats://127.0.0.1:4222"],...}`).
fn client_url(ports: &str) -> Option<String> {
    let start = ports.find("nats://")?;
    let end = start + ports[start..].find('"')?;
    Some(ports[start..end].to_owned())
}

#[cfg(test)]
mod tests {
    use std::io::{BufRead, BufReader};
    use std::net::TcpStream;

    use super::*;

    #[test]
    fn a_started_server_greets_on_loopback_and_is_gone_when_dropped() {
        let server = TempNats::start();
        let addr = server.url.strip_prefix("nats://").expect("a nats URL").to_owned();
        assert!(addr.starts_with("127.0.0.1:"), "{addr}");
        let stream = TcpStream::connect(&addr).expect("it listens");
        stream.set_read_timeout(Some(START_TIMEOUT)).unwrap();
        let mut line = String::new();
        BufReader::new(stream).read_line(&mut line).expect("a greeting");
        assert!(line.starts_with("INFO {"), "{line}");
        let dir = server.dir.clone();
        drop(server);
        assert!(!dir.exists(), "its directory is deleted");
        assert!(TcpStream::connect(&addr).is_err(), "it no longer listens");
    }

    #[test]
    fn the_client_url_is_read_from_the_ports_file() {
        assert_eq!(
            client_url(r#"{"nats":["nats://127.0.0.1:44285"],"monitoring":[]}"#).as_deref(),
            Some("nats://127.0.0.1:44285")
        );
        assert_eq!(client_url("{}"), None);
        assert_eq!(client_url(r#"{"nats":["nats://127.0.0.1:"#), None);
    }
}
