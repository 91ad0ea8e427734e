//! The browsers' development certificate. A browser trusts a self-signed certificate through
//! WebTransport's `serverCertificateHashes` only if it is ECDSA P-256 and valid for at most 14
//! days, so the server makes one itself, in memory, and replaces it at half its life; the page
//! learns its SHA-256 hash from `/connect.json` before every connection. Native clients keep
//! the long-lived certificate they pin (`tls::Identity`) on their own endpoint; the browsers'
//! endpoint resolves every handshake to the current development certificate.

use std::sync::{Arc, RwLock};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use rustls::crypto::CryptoProvider;
use rustls::pki_types::{CertificateDer, PrivateKeyDer, PrivatePkcs8KeyDer};
use rustls::server::{ClientHello, ResolvesServerCert};
use rustls::sign::CertifiedKey;

use crate::transport::tls::fingerprint;

/// The whole validity of a certificate, from `not_before` to `not_after`: under the browsers'
/// limit of 14 days, with an hour's room for clocks that run ahead.
pub(crate) const LIFETIME: Duration = Duration::from_secs(13 * 24 * 3600);
/// How far in the past `not_before` lies (for clients whose clocks lag a little).
const BACKDATE: Duration = Duration::from_secs(3600);
/// A certificate is replaced when it is this old, so every page gets one with a week to run.
pub(crate) const ROTATE_AFTER: Duration = Duration::from_secs(6 * 24 * 3600);

/// One generated certificate.
pub(crate) struct DevCert {
    pub(crate) key: Arc<CertifiedKey>,
    /// SHA-256 of the DER certificate, lower-case hex (what the page hands the browser).
    pub(crate) hash: String,
    pub(crate) not_before: SystemTime,
    pub(crate) not_after: SystemTime,
    /// When it was made (rotation is measured from here).
    pub(crate) made: SystemTime,
}

impl DevCert {
    /// A new ECDSA P-256 certificate for the loopback names, valid from an hour before `now` for
    /// [`LIFETIME`].
    pub(crate) fn generate(now: SystemTime, provider: &CryptoProvider) -> anyhow::Result<DevCert> {
        let names = vec!["localhost".to_owned(), "127.0.0.1".to_owned(), "::1".to_owned()];
        let mut params = rcgen::CertificateParams::new(names)?;
        let not_before = now - BACKDATE;
        let not_after = not_before + LIFETIME;
        params.not_before = offset(not_before)?;
        params.not_after = offset(not_after)?;
        let signing = rcgen::KeyPair::generate_for(&rcgen::PKCS_ECDSA_P256_SHA256)?;
        let cert = params.self_signed(&signing)?;
        let der = CertificateDer::from(cert.der().to_vec());
        let key = PrivateKeyDer::Pkcs8(PrivatePkcs8KeyDer::from(signing.serialize_der()));
        let hash = fingerprint(der.as_ref());
        let key = CertifiedKey::from_der(vec![der], key, provider)?;
        Ok(DevCert { key: Arc::new(key), hash, not_before, not_after, made: now })
    }

    /// Whether the certificate is due for replacement at `now`.
    pub(crate) fn due(&self, now: SystemTime) -> bool {
        now.duration_since(self.made).is_ok_and(|age| age >= ROTATE_AFTER) || now >= self.not_after
    }
}

/// Whole seconds since the epoch as the date type of rcgen.
fn offset(t: SystemTime) -> anyhow::Result<time::OffsetDateTime> {
    let secs = t.duration_since(UNIX_EPOCH)?.as_secs();
    Ok(time::OffsetDateTime::from_unix_timestamp(i64::try_from(secs)?)?)
}

/// The current development certificate, shared by the TLS layer and the HTTP side.
pub(crate) struct DevCerts {
    current: RwLock<Arc<DevCert>>,
    provider: Arc<CryptoProvider>,
}

/// Shown without its keys (a TLS resolver must be `Debug`).
impl std::fmt::Debug for DevCerts {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DevCerts").field("hash", &self.current().hash).finish_non_exhaustive()
    }
}

impl DevCerts {
    pub(crate) fn new(now: SystemTime, provider: Arc<CryptoProvider>) -> anyhow::Result<DevCerts> {
        let first = DevCert::generate(now, &provider)?;
        Ok(DevCerts { current: RwLock::new(Arc::new(first)), provider })
    }

    pub(crate) fn current(&self) -> Arc<DevCert> {
        self.current.read().unwrap_or_else(std::sync::PoisonError::into_inner).clone()
    }

    /// Replaces the certificate if it is due at `now`; whether it did.
    ///
    /// # Errors
    /// If a new certificate cannot be made (the old one stays).
    pub(crate) fn rotate_if_due(&self, now: SystemTime) -> anyhow::Result<bool> {
        if !self.current().due(now) {
            return Ok(false);
        }
        let next = Arc::new(DevCert::generate(now, &self.provider)?);
        tracing::info!(
            hash = %next.hash, not_before = ?next.not_before, not_after = ?next.not_after,
            "rotated the browsers' development certificate"
        );
        *self.current.write().unwrap_or_else(std::sync::PoisonError::into_inner) = next;
        Ok(true)
    }

    /// Checks every hour for as long as `certs` lives.
    pub(crate) fn spawn_rotation(certs: &Arc<DevCerts>) {
        let weak = Arc::downgrade(certs);
        tokio::spawn(async move {
            let mut tick = tokio::time::interval(Duration::from_secs(3600));
            loop {
                tick.tick().await;
                let Some(certs) = weak.upgrade() else { return };
                if let Err(e) = certs.rotate_if_due(crate::service::wall::now()) {
                    tracing::error!(error = %e, "cannot rotate the development certificate");
                }
            }
        });
    }
}

/// Every handshake of the browsers' endpoint gets the current certificate (a rotation applies
/// to the next handshake; established connections keep theirs).
impl ResolvesServerCert for DevCerts {
    fn resolve(&self, _hello: ClientHello<'_>) -> Option<Arc<CertifiedKey>> {
        Some(self.current().key.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use x509_parser::prelude::*;

    fn provider() -> Arc<CryptoProvider> {
        crate::transport::tls::provider()
    }

    #[test]
    fn dev_certificate_is_p256_and_valid_at_most_14_days() {
        let now = SystemTime::now();
        let cert = DevCert::generate(now, &provider()).unwrap();
        let der = cert.key.cert[0].clone();
        let (_, parsed) = X509Certificate::from_der(der.as_ref()).unwrap();
        let validity = parsed.validity();
        let span = validity.not_after.timestamp() - validity.not_before.timestamp();
        assert!(span <= 14 * 24 * 3600, "valid for {span} s");
        assert!(span >= 7 * 24 * 3600, "valid for only {span} s");
        assert!(validity.is_valid(), "not valid now: {validity:?}");
        let spki = parsed.public_key();
        assert_eq!(spki.algorithm.algorithm, x509_parser::oid_registry::OID_KEY_TYPE_EC_PUBLIC_KEY);
        let curve = spki.algorithm.parameters.as_ref().unwrap().as_oid().unwrap();
        assert_eq!(curve, x509_parser::oid_registry::OID_EC_P256, "not P-256");
        assert_eq!(
            parsed.signature_algorithm.algorithm,
            x509_parser::oid_registry::OID_SIG_ECDSA_WITH_SHA256
        );
        assert_eq!(cert.hash, fingerprint(der.as_ref()));
        assert_eq!(cert.hash.len(), 64);
    }

    #[test]
    fn rotation_happens_at_half_life_and_not_before() {
        let start = UNIX_EPOCH + Duration::from_secs(1_800_000_000);
        let certs = DevCerts::new(start, provider()).unwrap();
        let first = certs.current().hash.clone();
        let day = Duration::from_secs(24 * 3600);
        assert!(!certs.rotate_if_due(start + 5 * day).unwrap());
        assert_eq!(certs.current().hash, first);
        assert!(certs.rotate_if_due(start + 6 * day).unwrap());
        let second = certs.current();
        assert_ne!(second.hash, first);
        assert!(second.not_before <= start + 6 * day && second.not_after > start + 12 * day);
        // The replacement always has more than a week to run when handed out.
        assert!(second.not_after.duration_since(start + 6 * day).unwrap() > 7 * day);
        assert!(!certs.rotate_if_due(start + 7 * day).unwrap());
    }
}
