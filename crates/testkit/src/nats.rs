//! A throwaway NATS server for tests: `nats-server` (Debian's `nats-server` package; `./test`
//! installs it) on loopback, on a port the server picks itself (so tests running at once cannot
//! collide), with its files in a temporary directory; killed and deleted when dropped.
//!
//! Secured as the README tells an operator to secure one: TLS only (a certificate for 127.0.0.1
//! signed by a CA made for the test, [`TempNats::ca`]), and every client must log in — the nodes
//! as [`NODE_USER`] with [`TempNats::password`], allowed shvedka's subjects, and a
//! [`VISITOR_USER`] (password [`VISITOR_PASSWORD`]) allowed only subjects of its own, to show that
//! a client with credentials but without the nodes' permissions cannot speak to them.
//!
//! The port is read from the ports file the server writes (`--ports_file_dir`) once it listens,
//! waiting at most [`START_TIMEOUT`]; so is its monitoring port (plain HTTP on loopback), where a
//! test sees which connections have subscribed to what ([`TempNats::subscribers`]) instead of
//! guessing how long a node takes to subscribe.

use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// The longest wait for a started server to listen.
pub const START_TIMEOUT: Duration = Duration::from_secs(10);

/// The nodes' NATS user.
pub const NODE_USER: &str = "node";
/// A user who may log in but not use shvedka's subjects.
pub const VISITOR_USER: &str = "visitor";
/// The visitor's password.
pub const VISITOR_PASSWORD: &str = "visitor-password";

/// A NATS server for one test.
pub struct TempNats {
    /// The client URL (`tls://127.0.0.1:PORT`).
    pub url: String,
    /// The nodes' password (random).
    pub password: String,
    /// The PEM file of the CA that signed the server's certificate.
    pub ca: PathBuf,
    /// The monitoring endpoint (`127.0.0.1:PORT`, plain HTTP).
    monitoring: String,
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
        let password = format!("pw{}", crate::unique());
        let ca = dir.join("ca.pem");
        write_certificates(&dir);
        let config = dir.join("nats.conf");
        std::fs::write(&config, server_config(&dir, &password)).expect("the NATS configuration");
        let child = Command::new(exe())
            .arg("-c")
            .arg(&config)
            .args(["-a", "127.0.0.1", "-p", "-1", "-m", "-1", "--ports_file_dir"])
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
        let mut server = TempNats { url: String::new(), password, ca, monitoring: String::new(), child, dir };
        let ports = server.dir.join(format!("nats-server_{}.ports", server.child.id()));
        let deadline = Instant::now() + START_TIMEOUT;
        loop {
            let written = std::fs::read_to_string(&ports).unwrap_or_default();
            if let (Some(url), Some(monitoring)) = (client_url(&written), monitoring_addr(&written)) {
                server.url = url;
                server.monitoring = monitoring;
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

impl TempNats {
    /// The `[cluster]` lines that connect a node to this server (after `nats_url`).
    pub fn node_settings(&self) -> String {
        format!(
            "nats_url = {:?}\nnats_user = {NODE_USER:?}\nnats_password = {:?}\nnats_ca = {:?}\n",
            self.url,
            self.password,
            self.ca.display().to_string()
        )
    }
}

impl TempNats {
    /// The names of the client connections (a node's is its node name) subscribed now to exactly
    /// `subject`, as the server itself counts them: a message published after this lists a
    /// connection reaches it.
    ///
    /// # Panics
    /// When the monitoring endpoint does not answer.
    pub fn subscribers(&self, subject: &str) -> Vec<String> {
        use std::io::{Read, Write};
        let mut tcp = std::net::TcpStream::connect(&self.monitoring).expect("the NATS monitoring port");
        tcp.set_read_timeout(Some(START_TIMEOUT)).expect("a read timeout");
        let request = "GET /connz?subs=1&limit=1024 HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n";
        tcp.write_all(request.as_bytes()).expect("the monitoring request");
        let mut response = String::new();
        tcp.read_to_string(&mut response).expect("the monitoring answer");
        let body = response.split_once("\r\n\r\n").map_or("", |(_, body)| body);
        let connz: serde_json::Value =
            serde_json::from_str(body).unwrap_or_else(|e| panic!("connz: {e}: {body}"));
        let connections = connz["connections"].as_array().cloned().unwrap_or_default();
        connections
            .iter()
            .filter(|c| {
                c["subscriptions_list"]
                    .as_array()
                    .is_some_and(|subs| subs.iter().any(|s| s.as_str() == Some(subject)))
            })
            .map(|c| c["name"].as_str().unwrap_or_default().to_owned())
            .collect()
    }
}

/// The server's configuration: TLS alone, and the two users with their permissions.
fn server_config(dir: &std::path::Path, password: &str) -> String {
    let file = |name: &str| format!("{:?}", dir.join(name).display().to_string());
    format!(
        "tls {{\n  cert_file: {}\n  key_file: {}\n}}\n\
         authorization {{\n  users = [\n\
         {{ user: {NODE_USER:?}, password: {password:?}, permissions: {{ \
         publish: [\"shvedka.>\", \"_INBOX.>\"], subscribe: [\"shvedka.>\", \"_INBOX.>\"] }} }}\n\
         {{ user: {VISITOR_USER:?}, password: {VISITOR_PASSWORD:?}, permissions: {{ \
         publish: [\"visitors.>\"], subscribe: [\"visitors.>\", \"_INBOX.>\"] }} }}\n  ]\n}}\n",
        file("server.pem"),
        file("server.key"),
    )
}

/// A CA (`ca.pem`) and the server's certificate for 127.0.0.1 it signed (`server.pem`,
/// `server.key`), in `dir`.
fn write_certificates(dir: &std::path::Path) {
    let mut ca = rcgen::CertificateParams::new(Vec::<String>::new()).expect("CA parameters");
    ca.is_ca = rcgen::IsCa::Ca(rcgen::BasicConstraints::Unconstrained);
    ca.distinguished_name.push(rcgen::DnType::CommonName, "shvedka test NATS CA");
    let ca_key = rcgen::KeyPair::generate().expect("a CA key");
    let ca = rcgen::CertifiedIssuer::self_signed(ca, ca_key).expect("a CA certificate");
    let server_key = rcgen::KeyPair::generate().expect("a server key");
    let server = rcgen::CertificateParams::new(vec!["127.0.0.1".to_owned(), "localhost".to_owned()])
        .expect("server parameters")
        .signed_by(&server_key, &ca)
        .expect("a server certificate");
    std::fs::write(dir.join("ca.pem"), ca.pem()).expect("ca.pem");
    std::fs::write(dir.join("server.pem"), server.pem()).expect("server.pem");
    std::fs::write(dir.join("server.key"), server_key.serialize_pem()).expect("server.key");
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

/// The client URL in a ports file (`{"nats":["tls://127.0.0.1:4222"],...}`; a server without
/// TLS says `nats://`).
fn client_url(ports: &str) -> Option<String> {
    let start = ports.find("tls://").or_else(|| ports.find("nats://"))?;
    let end = start + ports[start..].find('"')?;
    Some(ports[start..end].to_owned())
}

/// The monitoring address in a ports file (`"monitoring":["http://127.0.0.1:8222"]`).
fn monitoring_addr(ports: &str) -> Option<String> {
    let after = &ports[ports.find("\"monitoring\"")?..];
    let start = after.find("http://")? + "http://".len();
    let end = start + after[start..].find('"')?;
    Some(after[start..end].to_owned())
}

#[cfg(test)]
mod tests {
    use std::io::{BufRead, BufReader};
    use std::net::TcpStream;

    use super::*;

    #[test]
    fn a_started_server_greets_on_loopback_and_is_gone_when_dropped() {
        let server = TempNats::start();
        let addr = server.url.strip_prefix("tls://").expect("a tls URL").to_owned();
        assert!(addr.starts_with("127.0.0.1:"), "{addr}");
        let stream = TcpStream::connect(&addr).expect("it listens");
        stream.set_read_timeout(Some(START_TIMEOUT)).unwrap();
        let mut line = String::new();
        BufReader::new(stream).read_line(&mut line).expect("a greeting");
        assert!(line.starts_with("INFO {"), "{line}");
        assert!(line.contains("\"auth_required\":true") && line.contains("\"tls_required\":true"), "{line}");
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
        assert_eq!(
            client_url(r#"{"nats":["tls://127.0.0.1:44285"],"monitoring":[]}"#).as_deref(),
            Some("tls://127.0.0.1:44285")
        );
        assert_eq!(client_url("{}"), None);
        assert_eq!(
            monitoring_addr(r#"{"nats":["tls://127.0.0.1:1"],"monitoring":["http://127.0.0.1:41879"]}"#)
                .as_deref(),
            Some("127.0.0.1:41879")
        );
        assert_eq!(monitoring_addr(r#"{"nats":["tls://127.0.0.1:1"],"monitoring":[]}"#), None);
        assert_eq!(client_url(r#"{"nats":["nats://127.0.0.1:"#), None);
    }
}
