//! The QUIC stateless-reset key, kept in the data directory so that it survives a restart.
//!
//! A server that restarts forgets its connections; their clients keep sending to the old ones.
//! QUIC lets the new process end each such connection at once with a stateless reset (RFC 9000
//! §10.3), a packet only the holder of the key the connection was made under can forge. quinn
//! draws a new random key in every process by default, so a restarted server could not, and its
//! clients noticed only when their idle timeout ran out: in the fault benchmark four players of a
//! match on a node killed and restarted came back 29–36 s later, and their matches, restored
//! paused for them on other nodes, stalled that long (issue 36). With the key kept, a client
//! learns of the restart with the next packet it sends (its keep-alive at the latest).
//!
//! Each node of a cluster keeps its own key (its own data directory): a node never resets
//! another's connections.

use std::path::Path;
use std::sync::Arc;

use anyhow::Context;
use hmac::{KeyInit, Mac};

/// The least time between two resets the endpoint sends.
const MIN_RESET_INTERVAL: std::time::Duration = std::time::Duration::from_micros(100);

/// The file in the data directory.
pub(crate) const FILE: &str = "stateless-reset.key";

type HmacSha256 = hmac::Hmac<sha2::Sha256>;

/// HMAC-SHA256 under the kept key: quinn derives each connection's reset token with it.
pub(crate) struct ResetKey(HmacSha256);

impl quinn::crypto::HmacKey for ResetKey {
    fn sign(&self, data: &[u8], signature_out: &mut [u8]) {
        let mut mac = self.0.clone();
        mac.update(data);
        let tag = mac.finalize().into_bytes();
        let n = signature_out.len().min(tag.len());
        signature_out[..n].copy_from_slice(&tag[..n]);
    }

    fn signature_len(&self) -> usize {
        32
    }

    fn verify(&self, data: &[u8], signature: &[u8]) -> Result<(), quinn::crypto::CryptoError> {
        let mut mac = self.0.clone();
        mac.update(data);
        mac.verify_slice(signature).map_err(|_| quinn::crypto::CryptoError)
    }
}

/// The endpoint's configuration with the kept key: its reset key, and the key of its
/// connection ids. quinn's ids carry a keyed hash that the endpoint checks before it answers a
/// packet for a connection it does not know, so a new process with a new id key drops such
/// packets as garbage instead of resetting their connections: the id key must be kept too.
///
/// # Errors
/// As [`load_or_create`].
pub(crate) fn endpoint_config(data_dir: &Path) -> anyhow::Result<quinn::EndpointConfig> {
    let key = load_or_create(data_dir)?;
    let mut cid_key = [0u8; 32];
    quinn::crypto::HmacKey::sign(key.as_ref(), b"shvedka connection ids", &mut cid_key);
    let cid_key = u64::from_le_bytes(cid_key[..8].try_into().expect("eight bytes"));
    let mut config = quinn::EndpointConfig::new(key);
    config.cid_generator(move || Box::new(quinn_proto::HashedConnectionIdGenerator::from_key(cid_key)));
    // quinn's 20 ms between resets would let a restarted server reset 50 connections a second,
    // and its clients find out one by one over minutes. A reset is always smaller than the
    // packet that asked for it, so a faster pace amplifies nothing.
    config.min_reset_interval(MIN_RESET_INTERVAL);
    Ok(config)
}

/// The key kept in `data_dir`, made (64 random bytes, readable by the owner only) the first time.
///
/// # Errors
/// A data directory that cannot be written, or a key file of the wrong length.
pub(crate) fn load_or_create(data_dir: &Path) -> anyhow::Result<Arc<ResetKey>> {
    let path = data_dir.join(FILE);
    let secret = match std::fs::read(&path) {
        Ok(secret) => secret,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            std::fs::create_dir_all(data_dir)
                .with_context(|| format!("cannot create {}", data_dir.display()))?;
            let mut secret = vec![0u8; 64];
            getrandom::fill(&mut secret).expect("the system random source works");
            super::tls::write_private(&path, &secret)
                .with_context(|| format!("cannot write {}", path.display()))?;
            secret
        }
        Err(e) => return Err(e).with_context(|| format!("cannot read {}", path.display())),
    };
    anyhow::ensure!(
        secret.len() == 64,
        "{} is {} bytes, not 64: remove it and the server makes a new one",
        path.display(),
        secret.len()
    );
    Ok(Arc::new(ResetKey(HmacSha256::new_from_slice(&secret).expect("HMAC takes a key of any length"))))
}

#[cfg(test)]
mod tests {
    use quinn::crypto::HmacKey;

    use super::*;

    #[test]
    fn the_key_is_made_once_and_signs_alike_after_a_restart() {
        let dir = tempfile::tempdir().unwrap();
        let first = load_or_create(dir.path()).unwrap();
        let again = load_or_create(dir.path()).unwrap();
        let (mut a, mut b) = ([0u8; 32], [0u8; 32]);
        first.sign(b"connection id", &mut a);
        again.sign(b"connection id", &mut b);
        assert_eq!(a, b, "the same token after a restart");
        assert!(again.verify(b"connection id", &a).is_ok());
        assert!(again.verify(b"another id", &a).is_err());
        let other = tempfile::tempdir().unwrap();
        let mut c = [0u8; 32];
        load_or_create(other.path()).unwrap().sign(b"connection id", &mut c);
        assert_ne!(a, c, "another data directory, another key");
    }

    #[test]
    fn a_key_file_of_the_wrong_length_is_refused_by_name() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join(FILE), b"short").unwrap();
        let err = load_or_create(dir.path()).err().expect("refused").to_string();
        assert!(err.contains(FILE) && err.contains("5 bytes"), "{err}");
    }
}
