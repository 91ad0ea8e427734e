//! Which certificate each listener serves, decided once at start from the configuration:
//!
//! | configured            | native (`listen`)                 | browsers (WebTransport) | HTTPS         |
//! |-----------------------|-----------------------------------|-------------------------|---------------|
//! | nothing               | self-signed, pinned               | development (14 days)   | self-signed   |
//! | `cert`/`key`          | that one                          | that one                | that one      |
//! | `acme_directory`      | pinned; the CA's for `public_host` | the CA's               | the CA's      |
//!
//! With ACME the CA's certificate is replaced at each renewal ([`WebCerts`]); until the first
//! arrives the self-signed one stands in.

use std::sync::Arc;

use rustls::server::ResolvesServerCert;
use tokio::sync::watch;

use crate::config::ServerConfig;
use crate::transport::acme::Acme;
use crate::transport::devcert::DevCerts;
use crate::transport::tls::{Identity, provider};
use crate::transport::web_certs::{ByName, Served, WebCerts};

/// The certificate resolvers of the server's listeners.
pub(crate) struct Resolvers {
    pub(crate) native: Arc<dyn ResolvesServerCert>,
    pub(crate) browsers: Arc<dyn ResolvesServerCert>,
    pub(crate) https: Arc<dyn ResolvesServerCert>,
    /// The browsers' development certificates, when nothing is configured.
    pub(crate) dev: Option<Arc<DevCerts>>,
    /// The CA's certificate, with ACME.
    pub(crate) web: Option<Arc<WebCerts>>,
}

impl Resolvers {
    /// # Errors
    /// A key the crypto provider cannot use; a development certificate that cannot be made.
    pub(crate) fn of(config: &ServerConfig, identity: &Identity) -> anyhow::Result<Resolvers> {
        let pinned = identity.resolver()?;
        if config.acme() {
            let key = Arc::new(rustls::sign::CertifiedKey::from_der(
                identity.chain.clone(),
                identity.key.clone_key(),
                &provider(),
            )?);
            let web = WebCerts::new(Served { key: key.clone(), issued: false });
            let native = Arc::new(ByName { host: config.public_host.clone(), web: web.clone(), pinned: key });
            return Ok(Resolvers {
                native,
                browsers: web.clone(),
                https: web.clone(),
                dev: None,
                web: Some(web),
            });
        }
        let configured = !config.cert.as_os_str().is_empty();
        let dev = if config.webtransport_addr()?.is_some() && !configured {
            let certs = Arc::new(DevCerts::new(crate::service::wall::now(), provider())?);
            DevCerts::spawn_rotation(&certs);
            Some(certs)
        } else {
            None
        };
        let browsers = match &dev {
            Some(certs) => certs.clone() as Arc<dyn ResolvesServerCert>,
            None => pinned.clone(),
        };
        Ok(Resolvers { native: pinned.clone(), browsers, https: pinned, dev, web: None })
    }
}

/// The certificate a server obtains from its ACME CA, as its embedder (and the tests) see it.
#[derive(Clone)]
pub struct Certificates {
    pub(crate) web: Arc<WebCerts>,
    pub(crate) acme: Arc<Acme>,
}

impl Certificates {
    /// The certificate served now, and each that replaces it.
    pub fn watch(&self) -> watch::Receiver<Served> {
        self.web.watch()
    }

    /// Asks the CA for a new certificate now, whatever the current one's end (an operator's
    /// renewal after a key compromise; the tests' renewal with players connected).
    pub fn renew_now(&self) {
        self.acme.renew_now.notify_one();
    }
}
