//! The server's TLS identity: a configured certificate, or a self-signed one generated on first
//! start and kept in the data directory, pinned by clients through its SHA-256 fingerprint.
//!
//! Each QUIC endpoint has its own ALPN and certificate (`endpoint.rs`): native clients
//! (`shvedka/1`) get this identity; browsers (`h3`, WebTransport) get it too when it is
//! configured, else the short-lived development certificate of `devcert`.

use std::path::Path;
use std::sync::Arc;

use anyhow::Context;
use rustls::crypto::{CryptoProvider, ring};
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer};
use rustls::server::ResolvesServerCert;
use rustls::sign::{CertifiedKey, SingleCertAndKey};
use sha2::{Digest, Sha256};

use crate::config::ServerConfig;

/// The one crypto provider of the process (quinn's and rustls's defaults differ; naming it
/// everywhere means no default is ever consulted).
pub fn provider() -> Arc<CryptoProvider> {
    Arc::new(ring::default_provider())
}

/// The SHA-256 fingerprint of a DER certificate, as lower-case hex.
pub fn fingerprint(der: &[u8]) -> String {
    let digest: [u8; 32] = Sha256::digest(der).into();
    digest.iter().map(|b| format!("{b:02x}")).collect()
}

/// A new self-signed ECDSA P-256 certificate for `names` (host names or addresses), valid from an
/// hour ago for `days`: the certificate's and its key's PEM texts and its SHA-256 fingerprint
/// (`shvedka cert`, the nodes' one certificate).
///
/// # Errors
/// A name rcgen cannot put in a certificate.
pub fn self_signed(names: &[String], days: u32) -> anyhow::Result<(String, String, String)> {
    let mut params = rcgen::CertificateParams::new(names.to_vec())?;
    let now = crate::service::wall::now().duration_since(std::time::UNIX_EPOCH)?.as_secs();
    let start = i64::try_from(now)? - 3600;
    params.not_before = time::OffsetDateTime::from_unix_timestamp(start)?;
    params.not_after = time::OffsetDateTime::from_unix_timestamp(start + i64::from(days) * 86_400)?;
    params
        .distinguished_name
        .push(rcgen::DnType::CommonName, names.first().map_or("shvedka", String::as_str));
    let signing = rcgen::KeyPair::generate_for(&rcgen::PKCS_ECDSA_P256_SHA256)?;
    let cert = params.self_signed(&signing)?;
    Ok((cert.pem(), signing.serialize_pem(), fingerprint(cert.der())))
}

/// The certificate chain and key to serve with.
pub(crate) struct Identity {
    pub(crate) chain: Vec<CertificateDer<'static>>,
    pub(crate) key: PrivateKeyDer<'static>,
}

impl Identity {
    pub(crate) fn load(config: &ServerConfig) -> anyhow::Result<Identity> {
        if !config.cert.as_os_str().is_empty() {
            return Identity::from_files(&config.cert, &config.key);
        }
        let (cert, key) = (config.data_dir.join("cert.pem"), config.data_dir.join("key.pem"));
        if !cert.exists() || !key.exists() {
            std::fs::create_dir_all(&config.data_dir)
                .with_context(|| format!("cannot create {}", config.data_dir.display()))?;
            let names = vec!["localhost".to_owned(), "127.0.0.1".to_owned(), "::1".to_owned()];
            let rcgen::CertifiedKey { cert: c, signing_key } = rcgen::generate_simple_self_signed(names)?;
            std::fs::write(&cert, c.pem())?;
            write_private(&key, signing_key.serialize_pem().as_bytes())?;
            tracing::info!(path = %cert.display(), "generated a self-signed certificate");
        }
        Identity::from_files(&cert, &key)
    }

    fn from_files(cert: &Path, key: &Path) -> anyhow::Result<Identity> {
        let chain = CertificateDer::pem_file_iter(cert)
            .with_context(|| format!("cannot read {}", cert.display()))?
            .collect::<Result<Vec<_>, _>>()
            .with_context(|| format!("bad certificate in {}", cert.display()))?;
        anyhow::ensure!(!chain.is_empty(), "no certificate in {}", cert.display());
        let key =
            PrivateKeyDer::from_pem_file(key).with_context(|| format!("bad key in {}", key.display()))?;
        Ok(Identity { chain, key })
    }

    pub(crate) fn fingerprint(&self) -> String {
        fingerprint(self.chain[0].as_ref())
    }

    /// The identity as a TLS certificate resolver.
    ///
    /// # Errors
    /// A key the crypto provider cannot use, or one that does not match the certificate.
    pub(crate) fn resolver(&self) -> anyhow::Result<Arc<dyn ResolvesServerCert>> {
        let key = CertifiedKey::from_der(self.chain.clone(), self.key.clone_key(), &provider())?;
        Ok(Arc::new(SingleCertAndKey::from(key)))
    }
}

/// The QUIC server crypto of one endpoint: TLS 1.3, the one ALPN `alpn`, no 0-RTT, the
/// certificate `certs` gives.
pub(crate) fn server_crypto(
    alpn: &[u8],
    certs: Arc<dyn ResolvesServerCert>,
) -> anyhow::Result<quinn::crypto::rustls::QuicServerConfig> {
    let mut tls = rustls::ServerConfig::builder_with_provider(provider())
        .with_protocol_versions(&[&rustls::version::TLS13])?
        .with_no_client_auth()
        .with_cert_resolver(certs);
    tls.alpn_protocols = vec![alpn.to_vec()];
    tls.max_early_data_size = 0;
    Ok(quinn::crypto::rustls::QuicServerConfig::try_from(tls)?)
}

/// The TLS of the HTTPS listener: TLS 1.3 (every browser of the last years speaks it), HTTP/1.1
/// (the HTTP side serves no HTTP/2), the certificate `certs` gives.
pub(crate) fn https_acceptor(
    certs: Arc<dyn ResolvesServerCert>,
) -> anyhow::Result<tokio_rustls::TlsAcceptor> {
    let mut tls = rustls::ServerConfig::builder_with_provider(provider())
        .with_protocol_versions(&[&rustls::version::TLS13])?
        .with_no_client_auth()
        .with_cert_resolver(certs);
    tls.alpn_protocols = vec![b"http/1.1".to_vec()];
    Ok(tokio_rustls::TlsAcceptor::from(Arc::new(tls)))
}

/// The ALPN of HTTP/3, which browsers offer for WebTransport.
pub(crate) const ALPN_H3: &[u8] = b"h3";

#[cfg(unix)]
pub(super) fn write_private(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    use std::io::Write;
    use std::os::unix::fs::OpenOptionsExt;
    let mut f = std::fs::OpenOptions::new().write(true).create(true).truncate(true).mode(0o600).open(path)?;
    f.write_all(bytes)
}

#[cfg(not(unix))]
pub(super) fn write_private(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    std::fs::write(path, bytes)
}
