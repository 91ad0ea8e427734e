//! The HTTP side's listeners started together: HTTPS with the whole web side (and plain HTTP
//! only redirecting to it), or plain HTTP with the whole web side when there is no HTTPS.

use std::sync::Arc;
use std::time::Duration;

use rustls::server::ResolvesServerCert;
use tokio::net::TcpListener;
use tokio::sync::watch;
use tokio::task::JoinHandle;

use crate::transport::acme::Challenges;
use crate::transport::frames::Conversation;
use crate::transport::redirect::{self, Target};
use crate::transport::{http_accept, tls, web};

/// What the HTTP side listens on.
pub(crate) struct Listeners {
    pub(crate) http: Option<TcpListener>,
    pub(crate) https: Option<TcpListener>,
    /// The HTTPS listener's certificate.
    pub(crate) certs: Arc<dyn ResolvesServerCert>,
    /// The ACME orders' answers, when the certificate comes from a CA.
    pub(crate) challenges: Option<Arc<Challenges>>,
}

/// Serves each listener until `stop` says so; the tasks end once their connections have.
///
/// # Errors
/// A TLS configuration that cannot be built, or a listener that cannot say its address.
pub(crate) fn spawn<C: Conversation>(
    listeners: Listeners,
    shared: &web::Shared<C>,
    stop: &watch::Sender<bool>,
) -> anyhow::Result<Vec<JoinHandle<()>>> {
    let stopped = || {
        let mut stop = stop.subscribe();
        async move {
            let _ = stop.wait_for(|s| *s).await;
        }
    };
    let mut tasks = Vec::new();
    let Listeners { http, https, certs, challenges } = listeners;
    let https_port = match &https {
        Some(listener) => Some(listener.local_addr()?.port()),
        None => None,
    };
    if let Some(listener) = https {
        let acceptor = tls::https_acceptor(certs)?;
        tasks.push(tokio::spawn(web::serve(listener, shared.clone(), Some(acceptor), stopped())));
    }
    if let Some(listener) = http {
        let task = match https_port {
            None => tokio::spawn(web::serve(listener, shared.clone(), None, stopped())),
            Some(port) => {
                let target = Target { host: shared.config.public_host.clone(), port, challenges };
                let settings = http_accept::Settings {
                    header_timeout: Duration::from_millis(shared.config.http_header_timeout_ms),
                    proxies: shared.proxies.clone(),
                    tls: None,
                };
                let app = redirect::router(target);
                tokio::spawn(http_accept::serve(listener, app, shared.admission.clone(), settings, stopped()))
            }
        };
        tasks.push(task);
    }
    Ok(tasks)
}
