//! A throwaway ACME CA for tests: Debian's `pebble` (Let's Encrypt's test server; `./test`
//! installs it) on loopback, with `pebble-challtestsrv` as its DNS server answering every name
//! with 127.0.0.1, so that the CA validates a test server's HTTP-01 challenge at
//! `http://<any name>:<its HTTP port>/` for real. Killed and deleted when dropped.
//!
//! pebble takes fixed ports from its configuration: free loopback ports are found by binding
//! port 0 and letting go ([`Reserved::new`]) before the server to test is configured with the
//! directory's URL; the CA is started once that server's HTTP port is known ([`Reserved::start`]).
//! pebble's own HTTPS is signed by a CA made here ([`Reserved::tls_root`]: the server's
//! `acme_ca_roots`); the certificates it issues chain to a root it makes at start
//! ([`TempPebble::issuing_root`]: what a client trusts, as a browser trusts Let's Encrypt's).
//! pebble's deliberate faults (random nonce rejections, random validation sleeps, reused
//! authorizations) are off: the tests check the server, not its patience.

use std::io::{Read, Write};
use std::net::{Ipv4Addr, SocketAddr, TcpListener, UdpSocket};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The longest wait for pebble to answer.
pub const START_TIMEOUT: Duration = Duration::from_secs(15);

/// Loopback ports for one CA, found free.
#[derive(Clone, Copy, Debug)]
struct Ports {
    directory: u16,
    management: u16,
    dns: u16,
    dns_management: u16,
}

/// A CA to start: its ports and its HTTPS certificate, ready.
pub struct Reserved {
    /// The PEM file of the CA that signs pebble's own HTTPS (the server's `acme_ca_roots`).
    pub tls_root: PathBuf,
    ports: Ports,
    dir: PathBuf,
}

impl Reserved {
    /// Ports no socket of this machine holds now, and pebble's HTTPS certificate.
    pub fn new() -> Reserved {
        let tcp = || TcpListener::bind((Ipv4Addr::LOCALHOST, 0)).expect("a free TCP port");
        let (a, b, c) = (tcp(), tcp(), tcp());
        let dns = UdpSocket::bind((Ipv4Addr::LOCALHOST, 0)).expect("a free UDP port");
        let port = |addr: std::io::Result<SocketAddr>| addr.expect("a bound port").port();
        let ports = Ports {
            directory: port(a.local_addr()),
            management: port(b.local_addr()),
            dns: port(dns.local_addr()),
            dns_management: port(c.local_addr()),
        };
        let dir =
            std::env::temp_dir().join(format!("shvedka-pebble-{}-{}", std::process::id(), crate::unique()));
        std::fs::create_dir_all(&dir).expect("a temporary directory");
        write_certificates(&dir);
        Reserved { tls_root: dir.join("tls-root.pem"), ports, dir }
    }

    /// The ACME directory's URL, for the server's `acme_directory`.
    pub fn directory(&self) -> String {
        format!("https://127.0.0.1:{}/dir", self.ports.directory)
    }

    /// Starts the CA, validating HTTP-01 challenges on `http_port`.
    ///
    /// # Panics
    /// When pebble is not installed, or does not answer within [`START_TIMEOUT`].
    pub fn start(self, http_port: u16) -> TempPebble {
        TempPebble::start(self.dir, self.ports, http_port)
    }
}

impl Default for Reserved {
    fn default() -> Reserved {
        Reserved::new()
    }
}

/// A running CA.
pub struct TempPebble {
    tls_root: PathBuf,
    ports: Ports,
    pebble: Child,
    dns: Child,
    dir: PathBuf,
}

impl TempPebble {
    fn start(dir: PathBuf, ports: Ports, http_port: u16) -> TempPebble {
        let config = dir.join("pebble.json");
        let text = serde_json::json!({"pebble": {
            "listenAddress": format!("127.0.0.1:{}", ports.directory),
            "managementListenAddress": format!("127.0.0.1:{}", ports.management),
            "certificate": dir.join("tls.pem"),
            "privateKey": dir.join("tls.key"),
            "httpPort": http_port,
            "tlsPort": 1,
            "ocspResponderURL": "",
            "externalAccountBindingRequired": false,
        }});
        std::fs::write(&config, text.to_string()).expect("pebble's configuration");
        let log = |name: &str| std::fs::File::create(dir.join(name)).expect("a log file");
        let dns = Command::new(exe("pebble-challtestsrv"))
            .args(["-dns01", &format!("127.0.0.1:{}", ports.dns), "-http01", "", "-https01", ""])
            .args(["-tlsalpn01", "", "-management", &format!("127.0.0.1:{}", ports.dns_management)])
            .args(["-defaultIPv4", "127.0.0.1", "-defaultIPv6", ""])
            .stdin(Stdio::null())
            .stdout(log("dns.log"))
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| {
                panic!("cannot start pebble-challtestsrv ({e}): install Debian's `pebble` (./test does)")
            });
        let pebble = Command::new(exe("pebble"))
            .arg("-config")
            .arg(&config)
            .args(["-dnsserver", &format!("127.0.0.1:{}", ports.dns)])
            .env("PEBBLE_VA_NOSLEEP", "1")
            .env("PEBBLE_WFE_NONCEREJECT", "0")
            .env("PEBBLE_AUTHZREUSE", "0")
            .stdin(Stdio::null())
            .stdout(log("pebble.log"))
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start pebble ({e}): install Debian's `pebble` (./test does)"));
        let ca = TempPebble { tls_root: dir.join("tls-root.pem"), ports, pebble, dns, dir };
        let deadline = Instant::now() + START_TIMEOUT;
        while ca.get(ca.ports.management, "/roots/0").is_err() {
            assert!(
                Instant::now() < deadline,
                "pebble did not answer within {START_TIMEOUT:?}: {}",
                ca.log()
            );
            std::thread::sleep(Duration::from_millis(50));
        }
        ca
    }

    /// The PEM root every certificate this CA issues chains to.
    pub fn issuing_root(&self) -> String {
        self.get(self.ports.management, "/roots/0").expect("pebble's root")
    }

    /// pebble's log so far (for a failing test's message).
    pub fn log(&self) -> String {
        std::fs::read_to_string(self.dir.join("pebble.log")).unwrap_or_default()
    }

    /// `GET path` over HTTPS from pebble on `port`, trusting its TLS root.
    fn get(&self, port: u16, path: &str) -> std::io::Result<String> {
        let mut roots = rustls::RootCertStore::empty();
        let pem = std::fs::read(&self.tls_root)?;
        for cert in rustls::pki_types::CertificateDer::pem_slice_iter(&pem) {
            roots.add(cert.map_err(std::io::Error::other)?).map_err(std::io::Error::other)?;
        }
        let provider = Arc::new(rustls::crypto::ring::default_provider());
        let config = rustls::ClientConfig::builder_with_provider(provider)
            .with_safe_default_protocol_versions()
            .map_err(std::io::Error::other)?
            .with_root_certificates(roots)
            .with_no_client_auth();
        let name = rustls::pki_types::ServerName::try_from("127.0.0.1").map_err(std::io::Error::other)?;
        let conn = rustls::ClientConnection::new(Arc::new(config), name).map_err(std::io::Error::other)?;
        let tcp = std::net::TcpStream::connect((Ipv4Addr::LOCALHOST, port))?;
        tcp.set_read_timeout(Some(Duration::from_secs(5)))?;
        let mut tls = rustls::StreamOwned::new(conn, tcp);
        write!(tls, "GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")?;
        let mut answer = String::new();
        // pebble closes without a TLS close_notify: what arrived is the answer.
        if let Err(e) = tls.read_to_string(&mut answer)
            && answer.is_empty()
        {
            return Err(e);
        }
        let body = answer.split_once("\r\n\r\n").map(|(_, b)| b.to_owned()).unwrap_or_default();
        if !answer.starts_with("HTTP/1.1 200") || !body.contains("BEGIN CERTIFICATE") {
            return Err(std::io::Error::other(format!("pebble answered {answer:?}")));
        }
        Ok(body)
    }
}

use rustls::pki_types::pem::PemObject;

/// pebble's HTTPS certificate (for 127.0.0.1) and the CA that signed it.
fn write_certificates(dir: &std::path::Path) {
    let mut ca = rcgen::CertificateParams::new(Vec::<String>::new()).expect("CA parameters");
    ca.is_ca = rcgen::IsCa::Ca(rcgen::BasicConstraints::Unconstrained);
    ca.distinguished_name.push(rcgen::DnType::CommonName, "shvedka test ACME TLS CA");
    let ca_key = rcgen::KeyPair::generate().expect("a CA key");
    let ca = rcgen::CertifiedIssuer::self_signed(ca, ca_key).expect("a CA certificate");
    let key = rcgen::KeyPair::generate().expect("a key");
    let cert = rcgen::CertificateParams::new(vec!["127.0.0.1".to_owned(), "localhost".to_owned()])
        .expect("parameters")
        .signed_by(&key, &ca)
        .expect("a certificate");
    std::fs::write(dir.join("tls-root.pem"), ca.pem()).expect("tls-root.pem");
    std::fs::write(dir.join("tls.pem"), cert.pem()).expect("tls.pem");
    std::fs::write(dir.join("tls.key"), key.serialize_pem()).expect("tls.key");
}

impl Drop for TempPebble {
    fn drop(&mut self) {
        for child in [&mut self.pebble, &mut self.dns] {
            let _ = child.kill();
            let _ = child.wait();
        }
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// An installed program: on `PATH`, else where Debian puts it.
fn exe(name: &str) -> PathBuf {
    let on_path = std::env::var_os("PATH")
        .into_iter()
        .flat_map(|p| std::env::split_paths(&p).collect::<Vec<_>>())
        .map(|d| d.join(name))
        .find(|p| p.exists());
    on_path.unwrap_or_else(|| PathBuf::from("/usr/bin").join(name))
}
