//! The certificate that browsers and web-PKI clients verify: the configured one, or the one
//! obtained from an ACME CA (`acme.rs`) and replaced at each renewal. HTTPS, the browsers' QUIC
//! endpoint and — for a handshake that asks for `public_host` by name — the native endpoint
//! resolve every handshake to the current one, so a renewal needs no restart: handshakes after
//! it get the new certificate, established connections keep theirs and nobody is dropped.
//!
//! Native clients that pin the server's long-lived fingerprint ask for `localhost` (the client
//! crate's pinned mode) and keep getting the pinned identity ([`ByName`]); a client verifying
//! with the web PKI asks for the public name and gets the CA's certificate.

use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use rustls::server::{ClientHello, ResolvesServerCert};
use rustls::sign::CertifiedKey;
use tokio::sync::watch;

/// The certificate served now.
#[derive(Clone, Debug)]
pub struct Served {
    /// The chain and key.
    pub key: Arc<CertifiedKey>,
    /// Issued by the ACME CA (not the self-signed stand-in used until the first one arrives).
    pub issued: bool,
}

impl Served {
    /// The end of the leaf certificate's validity, if it can be read.
    pub fn not_after(&self) -> Option<SystemTime> {
        not_after(self.key.cert.first()?.as_ref())
    }
}

/// The end of a DER certificate's validity.
pub(crate) fn not_after(der: &[u8]) -> Option<SystemTime> {
    validity(der).map(|(_, end)| end)
}

/// The start and end of a DER certificate's validity.
pub(crate) fn validity(der: &[u8]) -> Option<(SystemTime, SystemTime)> {
    let (_, cert) = x509_parser::parse_x509_certificate(der).ok()?;
    let at = |t: x509_parser::time::ASN1Time| {
        u64::try_from(t.timestamp()).ok().map(|secs| UNIX_EPOCH + Duration::from_secs(secs))
    };
    Some((at(cert.validity().not_before)?, at(cert.validity().not_after)?))
}

/// Whether a DER certificate names `host` among its DNS names (case aside).
pub(crate) fn names(der: &[u8], host: &str) -> bool {
    let Ok((_, cert)) = x509_parser::parse_x509_certificate(der) else { return false };
    let Ok(Some(san)) = cert.subject_alternative_name() else { return false };
    san.value.general_names.iter().any(|name| {
        matches!(name, x509_parser::extensions::GeneralName::DNSName(dns) if dns.eq_ignore_ascii_case(host))
    })
}

/// The current web certificate, shared by every endpoint that serves it.
pub(crate) struct WebCerts {
    current: watch::Sender<Served>,
}

impl std::fmt::Debug for WebCerts {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("WebCerts").field("issued", &self.current.borrow().issued).finish_non_exhaustive()
    }
}

impl WebCerts {
    pub(crate) fn new(first: Served) -> Arc<WebCerts> {
        Arc::new(WebCerts { current: watch::Sender::new(first) })
    }

    pub(crate) fn current(&self) -> Served {
        self.current.borrow().clone()
    }

    /// Serves `next` from the next handshake on.
    pub(crate) fn replace(&self, next: Served) {
        self.current.send_replace(next);
    }

    /// Follows the replacements (the first value is the current one).
    pub(crate) fn watch(&self) -> watch::Receiver<Served> {
        self.current.subscribe()
    }
}

impl ResolvesServerCert for WebCerts {
    fn resolve(&self, _hello: ClientHello<'_>) -> Option<Arc<CertifiedKey>> {
        Some(self.current.borrow().key.clone())
    }
}

/// The native endpoint's certificates: the web certificate for a handshake that names
/// `public_host`, the pinned identity for every other (pinned clients ask for `localhost`; the
/// server's own bots connect by address and name nothing).
#[derive(Debug)]
pub(crate) struct ByName {
    pub(crate) host: String,
    pub(crate) web: Arc<WebCerts>,
    pub(crate) pinned: Arc<CertifiedKey>,
}

impl ResolvesServerCert for ByName {
    fn resolve(&self, hello: ClientHello<'_>) -> Option<Arc<CertifiedKey>> {
        match hello.server_name() {
            Some(name) if name.eq_ignore_ascii_case(&self.host) => self.web.resolve(hello),
            _ => Some(self.pinned.clone()),
        }
    }
}
