//! A certificate for `public_host` from an ACME CA (RFC 8555: Let's Encrypt; Debian's `pebble`
//! in the tests), obtained at start and renewed `acme_renew_before_days` before its end, without
//! a restart: the new certificate goes into [`WebCerts`] and every handshake after it gets it.
//!
//! The CA proves the name with the HTTP-01 challenge: it asks
//! `http://public_host/.well-known/acme-challenge/TOKEN` on `http_listen` (port 80 for a public
//! CA), which answers from [`Challenges`] while an order is open. The account's key, and the
//! certificate with its key (one file, replaced whole), are kept in `data_dir/acme` for each CA
//! directory (owner-only files), so a restart serves the certificate it has and asks the CA only
//! when it is due. Until the first certificate
//! arrives, HTTPS serves the self-signed one (browsers warn; the log says why).
//!
//! A failed attempt is logged with the CA's words and tried again after 5 minutes, doubling to an
//! hour (Let's Encrypt allows five failed validations an hour); `/metrics` shows the
//! certificate's end and the failures (`shvedka_certificate_expiry_timestamp_seconds`,
//! `shvedka_acme_failures_total`).

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use anyhow::{Context, bail};
use instant_acme::{
    Account, AuthorizationStatus, ChallengeType, Identifier, NewAccount, NewOrder, OrderStatus, RetryPolicy,
};
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer};
use rustls::sign::CertifiedKey;
use tokio::sync::{Notify, watch};

use crate::config::ServerConfig;
use crate::service::metrics::Metrics;
use crate::transport::tls::{provider, write_private};
use crate::transport::web_certs::{Served, WebCerts, names, not_after, validity};

/// The first wait after a failed attempt; it doubles up to [`MOST_BACKOFF`].
const FIRST_BACKOFF: Duration = Duration::from_secs(300);
const MOST_BACKOFF: Duration = Duration::from_secs(3600);
/// The longest single sleep of the renewal task (a suspended machine's clock jumps).
const LONGEST_SLEEP: Duration = Duration::from_secs(24 * 3600);
/// The longest one order may take, from the account to the certificate (a CA that stops
/// answering mid-order).
const ORDER_TIMEOUT: Duration = Duration::from_secs(300);
/// Challenge tokens held at once at most (one name has one open order; a CA may retry).
const MOST_TOKENS: usize = 16;

/// The key authorizations the CA's HTTP-01 requests are answered with, while an order is open.
#[derive(Debug, Default)]
pub(crate) struct Challenges(Mutex<HashMap<String, String>>);

impl Challenges {
    /// The answer to `token`, if an order is waiting for it.
    pub(crate) fn answer(&self, token: &str) -> Option<String> {
        self.lock().get(token).cloned()
    }

    fn put(&self, token: String, authorization: String) {
        let mut tokens = self.lock();
        if tokens.len() >= MOST_TOKENS {
            tokens.clear();
        }
        tokens.insert(token, authorization);
    }

    fn clear(&self) {
        self.lock().clear();
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, String>> {
        self.0.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

/// The ACME side of one server.
pub(crate) struct Acme {
    directory: String,
    contact: String,
    roots: PathBuf,
    host: String,
    dir: PathBuf,
    renew_before: Duration,
    certs: Arc<WebCerts>,
    pub(crate) challenges: Arc<Challenges>,
    /// Wakes the renewal task to renew now (`Server::renew_certificate`).
    pub(crate) renew_now: Notify,
    metrics: Arc<Metrics>,
}

impl Acme {
    pub(crate) fn new(config: &ServerConfig, certs: Arc<WebCerts>, metrics: Arc<Metrics>) -> Acme {
        Acme {
            directory: config.acme_directory.clone(),
            contact: config.acme_contact.clone(),
            roots: config.acme_ca_roots.clone(),
            host: config.public_host.clone(),
            dir: config.data_dir.join("acme"),
            renew_before: Duration::from_secs(u64::from(config.acme_renew_before_days) * 24 * 3600),
            certs,
            challenges: Arc::default(),
            renew_now: Notify::new(),
            metrics,
        }
    }

    /// The certificate kept from an earlier run, if it is for `public_host` and still valid.
    pub(crate) fn stored(&self, now: SystemTime) -> Option<Served> {
        let kept = self.kept();
        if !kept.exists() {
            return None;
        }
        match load(&kept, &kept) {
            Ok(key) => {
                let leaf = key.cert.first()?.as_ref();
                let valid = not_after(leaf).is_some_and(|end| end > now);
                (valid && names(leaf, &self.host)).then(|| Served { key: Arc::new(key), issued: true })
            }
            Err(e) => {
                tracing::warn!(error = %format!("{e:#}"), "the kept ACME certificate cannot be read; asking for a new one");
                None
            }
        }
    }

    /// The file of the certificate and its key from this directory (one file, replaced whole: a
    /// crash or a full disk never leaves a key beside another's certificate; one per directory,
    /// so that the staging CA's certificate is not served once the real one is configured).
    fn kept(&self) -> PathBuf {
        let digest = crate::transport::tls::fingerprint(self.directory.as_bytes());
        self.dir.join(format!("certificate-{}.pem", &digest[..16]))
    }

    /// Obtains and renews until `stop` says so.
    pub(crate) fn spawn(self: &Arc<Self>, mut stop: watch::Receiver<bool>) {
        let acme = self.clone();
        tokio::spawn(async move {
            let (mut failures, mut renewed) = (0u32, false);
            loop {
                let wait = match failures {
                    0 => due_in(&acme.certs.current(), acme.renew_before, crate::service::wall::now()),
                    n => (FIRST_BACKOFF * 2u32.saturating_pow(n - 1)).min(MOST_BACKOFF),
                };
                // A certificate due as soon as it arrived (a clock far ahead, dates that cannot be
                // read) is not asked for again and again: the CA would rate-limit the name.
                let wait = if renewed && wait < FIRST_BACKOFF {
                    tracing::error!(
                        host = %acme.host,
                        "the certificate just obtained is due for renewal at once: is the clock right?"
                    );
                    FIRST_BACKOFF
                } else {
                    wait
                };
                renewed = false;
                let current = acme.certs.current();
                acme.metrics.set_certificate_expiry(current.issued.then(|| current.not_after()).flatten());
                if !wait.is_zero() {
                    tokio::select! {
                        () = tokio::time::sleep(wait.min(LONGEST_SLEEP)) => {
                            if wait > LONGEST_SLEEP { continue }
                        }
                        () = acme.renew_now.notified() => {}
                        _ = stop.wait_for(|s| *s) => return,
                    }
                }
                // A CA that stops answering must not stop the renewals for good.
                let attempt = tokio::select! {
                    got = tokio::time::timeout(ORDER_TIMEOUT, acme.obtain()) => got.unwrap_or_else(|_| {
                        Err(anyhow::anyhow!("the CA did not finish the order within {ORDER_TIMEOUT:?}"))
                    }),
                    _ = stop.wait_for(|s| *s) => return,
                };
                acme.challenges.clear();
                match attempt {
                    Ok(served) => {
                        (failures, renewed) = (0, true);
                        tracing::info!(
                            host = %acme.host, not_after = ?served.not_after(),
                            "obtained a certificate from the ACME CA; new connections get it"
                        );
                        acme.certs.replace(served);
                    }
                    Err(e) => {
                        failures = failures.saturating_add(1);
                        acme.metrics.acme_failed();
                        tracing::error!(
                            host = %acme.host, directory = %acme.directory, failures,
                            error = %format!("{e:#}"),
                            "cannot obtain a certificate from the ACME CA; trying again later"
                        );
                    }
                }
            }
        });
    }

    /// One order: account, HTTP-01 for `public_host`, a new key and its certificate, kept.
    async fn obtain(&self) -> anyhow::Result<Served> {
        let account = self.account().await?;
        let ids = [Identifier::Dns(self.host.clone())];
        let mut order = account.new_order(&NewOrder::new(&ids)).await.context("the CA refused the order")?;
        let mut authorizations = order.authorizations();
        while let Some(authorization) = authorizations.next().await {
            let mut authorization = authorization?;
            match authorization.status {
                AuthorizationStatus::Pending => {}
                AuthorizationStatus::Valid => continue,
                other => bail!("the CA's authorization for {} is {other:?}", self.host),
            }
            let mut challenge = authorization
                .challenge(ChallengeType::Http01)
                .context("the CA offers no HTTP-01 challenge")?;
            let answer = challenge.key_authorization().as_str().to_owned();
            self.challenges.put(challenge.token.clone(), answer);
            challenge.set_ready().await.context("the CA refused the challenge")?;
        }
        let retries = RetryPolicy::new().timeout(Duration::from_secs(90));
        let status = order.poll_ready(&retries).await?;
        if status != OrderStatus::Ready {
            let why = order.state().error.as_ref().map(ToString::to_string).unwrap_or_default();
            bail!(
                "the order for {} is {status:?} (the CA could not fetch \
                 http://{}/.well-known/acme-challenge/…: http_listen must be reachable on port 80) {why}",
                self.host,
                self.host
            );
        }
        let key_pem = order.finalize().await?;
        let chain_pem = order.poll_certificate(&retries).await?;
        std::fs::create_dir_all(&self.dir)
            .with_context(|| format!("cannot create {}", self.dir.display()))?;
        // Key and chain in one file, written beside and renamed over the old: whole or not at all.
        let (kept, next) = (self.kept(), self.kept().with_extension("pem.new"));
        let _ = std::fs::remove_file(&next);
        write_private(&next, format!("{key_pem}\n{chain_pem}").as_bytes())
            .and_then(|()| std::fs::File::open(&next)?.sync_all())
            .with_context(|| format!("cannot write {}", next.display()))?;
        let key = load(&next, &next)?;
        std::fs::rename(&next, &kept).with_context(|| format!("cannot replace {}", kept.display()))?;
        Ok(Served { key: Arc::new(key), issued: true })
    }

    /// The account kept for this directory, or a new one (kept).
    async fn account(&self) -> anyhow::Result<Account> {
        let builder = || -> anyhow::Result<_> {
            Ok(if self.roots.as_os_str().is_empty() {
                Account::builder()?
            } else {
                Account::builder_with_root(&self.roots)
                    .with_context(|| format!("cannot read acme_ca_roots {}", self.roots.display()))?
            })
        };
        let digest = crate::transport::tls::fingerprint(self.directory.as_bytes());
        let path = self.dir.join(format!("account-{}.json", &digest[..16]));
        if let Ok(text) = std::fs::read_to_string(&path) {
            let credentials =
                serde_json::from_str(&text).with_context(|| format!("bad {}", path.display()))?;
            return Ok(builder()?.from_credentials(credentials).await?);
        }
        let contact: Vec<&str> = [self.contact.as_str()].into_iter().filter(|c| !c.is_empty()).collect();
        let new =
            NewAccount { contact: &contact, terms_of_service_agreed: true, only_return_existing: false };
        let (account, credentials) = builder()?
            .create(&new, self.directory.clone(), None)
            .await
            .with_context(|| format!("cannot open an account at {}", self.directory))?;
        std::fs::create_dir_all(&self.dir)
            .with_context(|| format!("cannot create {}", self.dir.display()))?;
        write_private(&path, serde_json::to_string(&credentials)?.as_bytes())?;
        tracing::info!(directory = %self.directory, "opened an account at the ACME CA");
        Ok(account)
    }
}

/// How long until `served` is due for renewal at `now`: at once for the self-signed stand-in or
/// one whose dates cannot be read; else `renew_before` ahead of its end, but never in its first
/// two thirds (a short-lived certificate, say a 6-day one, is renewed at two thirds of its life,
/// not again and again).
pub(crate) fn due_in(served: &Served, renew_before: Duration, now: SystemTime) -> Duration {
    if !served.issued {
        return Duration::ZERO;
    }
    let Some((start, end)) = served.key.cert.first().and_then(|leaf| validity(leaf.as_ref())) else {
        return Duration::ZERO;
    };
    let life = end.duration_since(start).unwrap_or(Duration::ZERO);
    let due = end.checked_sub(renew_before.min(life / 3)).unwrap_or(UNIX_EPOCH);
    due.duration_since(now).unwrap_or(Duration::ZERO)
}

/// A PEM chain and key as a TLS key.
fn load(cert: &std::path::Path, key: &std::path::Path) -> anyhow::Result<CertifiedKey> {
    let chain = CertificateDer::pem_file_iter(cert)
        .with_context(|| format!("cannot read {}", cert.display()))?
        .collect::<Result<Vec<_>, _>>()
        .with_context(|| format!("bad certificate in {}", cert.display()))?;
    anyhow::ensure!(!chain.is_empty(), "no certificate in {}", cert.display());
    let key = PrivateKeyDer::from_pem_file(key).with_context(|| format!("bad key in {}", key.display()))?;
    Ok(CertifiedKey::from_der(chain, key, &provider())?)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn served(not_after_days: i64, now: SystemTime, issued: bool) -> Served {
        served_from(1, not_after_days, now, issued)
    }

    fn served_from(before_days: i64, not_after_days: i64, now: SystemTime, issued: bool) -> Served {
        let mut params = rcgen::CertificateParams::new(vec!["chess.example.org".to_owned()]).unwrap();
        let secs = now.duration_since(UNIX_EPOCH).unwrap().as_secs() as i64;
        params.not_before = time::OffsetDateTime::from_unix_timestamp(secs - before_days * 86_400).unwrap();
        params.not_after = time::OffsetDateTime::from_unix_timestamp(secs + not_after_days * 86_400).unwrap();
        let signing = rcgen::KeyPair::generate_for(&rcgen::PKCS_ECDSA_P256_SHA256).unwrap();
        let cert = params.self_signed(&signing).unwrap();
        let key = PrivateKeyDer::try_from(signing.serialize_der()).unwrap();
        let key = CertifiedKey::from_der(vec![cert.der().clone()], key, &provider()).unwrap();
        Served { key: Arc::new(key), issued }
    }

    #[test]
    fn a_certificate_is_renewed_its_renewal_margin_before_its_end_and_a_stand_in_at_once() {
        let now = UNIX_EPOCH + Duration::from_secs(1_900_000_000);
        let day = Duration::from_secs(86_400);
        // 90 days to run, renewed 30 before: due in 60 days.
        assert_eq!(due_in(&served_from(0, 90, now, true), 30 * day, now), 60 * day);
        // Inside the margin: at once.
        assert_eq!(due_in(&served_from(70, 20, now, true), 30 * day, now), Duration::ZERO);
        // A short-lived one (7 days in all) at two thirds of its life, not at once and again.
        let week = due_in(&served(6, now, true), 30 * day, now);
        assert!(week > 3 * day && week < 4 * day, "{week:?}");
        // The self-signed stand-in is replaced as soon as the CA answers.
        assert_eq!(due_in(&served(365, now, false), 30 * day, now), Duration::ZERO);
        assert!(names(served(1, now, true).key.cert[0].as_ref(), "CHESS.example.org"));
        assert!(!names(served(1, now, true).key.cert[0].as_ref(), "example.org"));
    }

    #[test]
    fn challenge_tokens_are_bounded() {
        let challenges = Challenges::default();
        for i in 0..100 {
            challenges.put(format!("t{i}"), format!("a{i}"));
        }
        assert!(challenges.lock().len() <= MOST_TOKENS);
        assert_eq!(challenges.answer("t99").as_deref(), Some("a99"));
        challenges.clear();
        assert_eq!(challenges.answer("t99"), None);
    }
}
