//! The shvedka match server: two quinn endpoints (TLS by rustls with one explicit crypto
//! provider), one for native clients (ALPN `shvedka/1`) and one for browsers by WebTransport
//! (ALPN `h3`), each with the transport limits of its protocol (`endpoint.rs`), an HTTP side with
//! the web client and a WebSocket fallback, one session per connection, a lobby of matches
//! indexed by `DashMap`s, and one tokio task per match that owns its sans-IO state machine
//! (`bughouse-match`) and both boards. Wire types come from `shvedka-proto`; nothing here knows
//! the rules beyond asking the match machine.
//!
//! [`Server::bind`] opens the endpoints (a self-signed certificate is generated on first start and
//! kept in the data directory; [`Server::fingerprint`] is what clients pin), [`Server::run`]
//! serves until its shutdown future completes, then closes every connection gracefully. One
//! semaphore of `max_connections` permits caps the connections of every transport together.

mod cluster;
mod config;
mod connection;
mod dispatch;
mod features;
mod lobby;
mod login;
mod service;
#[cfg(test)]
mod test_store;
mod transport;

use std::future::Future;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use anyhow::Context;

pub use config::ClusterConfig;
pub use config::ServerConfig;
pub use features::analysis::analyse_here;
pub use transport::certificates::Certificates;
pub use transport::tls::{fingerprint, provider, self_signed};
pub use transport::web_certs::Served;

use features::{bots, tournaments};
use service::{accounts, metrics, roles, session};
use transport::{certificates, endpoint, tls, web, webtransport};

/// The argon2id hash of an account's new password, as the server stores it (`shvedka admin
/// reset-password` writes it straight into the database).
///
/// # Errors
/// The password breaks the rules (8 to 128 characters), or cannot be hashed.
pub fn hash_password(password: &str) -> Result<String, String> {
    accounts::check_password(password).map_err(|e| e.message)?;
    accounts::hash_now(password).ok_or_else(|| "the password cannot be hashed".to_owned())
}

/// The cluster's wire version (`w<cluster messages>-p<client protocol>`): the nodes of a cluster
/// name it in the NATS subjects of their bincode messages and in their heartbeats, so that two
/// builds never misread each other; a node logs a warning when it hears one of another version.
#[must_use]
pub fn cluster_wire_version() -> String {
    cluster::wire::version()
}

use crate::lobby::Lobby;

/// A bound server, ready to run.
pub struct Server {
    /// Native clients (`listen`).
    endpoint: quinn::Endpoint,
    /// Browsers by WebTransport (`webtransport_listen`), unless that is off.
    browsers: Option<quinn::Endpoint>,
    http: Option<tokio::net::TcpListener>,
    /// HTTPS (`https_listen`), unless that is off, and its certificate.
    https: Option<tokio::net::TcpListener>,
    https_tls: Arc<dyn rustls::server::ResolvesServerCert>,
    /// The certificate from the ACME CA, with `acme_directory`.
    certificates: Option<certificates::Certificates>,
    lobby: Arc<Lobby>,
    config: Arc<ServerConfig>,
    fingerprint: String,
    connect: Arc<web::Connect>,
    /// The tournament driver, and how to stop it.
    ticker: tokio::task::JoinHandle<()>,
    stop_ticker: tokio::sync::watch::Sender<bool>,
    /// A node of a cluster: its heartbeat and take-overs.
    node: Option<cluster::NodeTasks>,
    /// The data directory held for this process while it serves ([`hold_data_dir`]).
    _data_dir: Option<std::fs::File>,
    /// The store, released last ([`Server::run`]).
    store: Arc<dyn shvedka_storage::Store>,
}

/// What a running server holds now: every count is bounded by what is live.
#[derive(Clone)]
pub struct Stats(Arc<Lobby>);

impl Stats {
    /// Live matches (forming, counting down, running, paused).
    pub fn live_matches(&self) -> usize {
        self.0.rooms.len()
    }

    /// Sessions in memory (connected, or following a live match).
    pub fn sessions_in_memory(&self) -> usize {
        self.0.sessions.len()
    }
}

impl std::fmt::Debug for Stats {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Stats")
            .field("live_matches", &self.live_matches())
            .field("sessions_in_memory", &self.sessions_in_memory())
            .finish()
    }
}

/// Creates the data directory, if it is missing, readable by the server's user alone: it holds
/// the database (accounts' password hashes, session tokens' hashes) and the TLS private key, so
/// the process's umask must not decide who may read them. An existing directory is left as its
/// operator made it.
fn private_dir(dir: &std::path::Path) -> anyhow::Result<()> {
    if dir.as_os_str().is_empty() || dir.exists() {
        return Ok(());
    }
    let mut builder = std::fs::DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
    builder.create(dir).with_context(|| format!("cannot create {}", dir.display()))
}

/// Holds the data directory for this process (an exclusive lock on its file `lock`, which the
/// system releases when the process ends, however it ends): a second server started on the same
/// directory — its SQLite database, records and certificate — is refused at once, naming the
/// first one's process, rather than running matches of the same numbers beside it.
fn hold_data_dir(dir: &std::path::Path) -> anyhow::Result<Option<std::fs::File>> {
    use std::io::{Read, Seek, Write};
    if dir.as_os_str().is_empty() {
        return Ok(None);
    }
    let path = dir.join("lock");
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .read(true)
        .write(true)
        .open(&path)
        .with_context(|| format!("cannot open {}", path.display()))?;
    match file.try_lock() {
        Ok(()) => {}
        Err(std::fs::TryLockError::WouldBlock) => {
            let mut pid = String::new();
            let _ = file.read_to_string(&mut pid);
            anyhow::bail!(
                "the data directory {} is in use by another shvedka server (process {}): stop it, or give \
                 this one another data_dir",
                dir.display(),
                pid.trim()
            );
        }
        Err(std::fs::TryLockError::Error(e)) => {
            return Err(e).with_context(|| format!("cannot lock {}", path.display()));
        }
    }
    file.set_len(0)?;
    file.rewind()?;
    writeln!(file, "{}", std::process::id())?;
    Ok(Some(file))
}

/// How long a shutdown waits for the match tasks to store their last events.
const SHUTDOWN_WAIT: Duration = Duration::from_secs(10);

impl Server {
    /// Opens the database (restoring every undecided match, paused until its players are back)
    /// and the endpoints.
    ///
    /// # Errors
    /// Unreadable or invalid certificate or clock files, a database that cannot be opened or
    /// migrated, or an address that cannot be bound.
    pub async fn bind(config: ServerConfig) -> anyhow::Result<Server> {
        // Settings read only later are checked first: a bad one must not leave a database
        // migrated and a certificate made behind it.
        features::seeks::SeekSettings::of(&config, &config.clock_config()?)?;
        private_dir(&config.data_dir)?;
        let held = hold_data_dir(&config.data_dir)?;
        let store = match &config.cluster {
            Some(cluster) => cluster::open_store(&config.database_url, cluster).await?,
            None => {
                let url = (!config.database_url.is_empty()).then_some(config.database_url.as_str());
                shvedka_storage::open(url, &config.data_dir).await.context("cannot open the database")?
            }
        };
        let mut server = Server::bind_with_store(config, store).await?;
        server._data_dir = held;
        Ok(server)
    }

    /// As [`Server::bind`], on a store opened by the caller (the configuration's database
    /// settings are then not used): for embedding, and for tests that make storage fail.
    ///
    /// # Errors
    /// As [`Server::bind`].
    pub async fn bind_with_store(
        config: ServerConfig,
        store: Arc<dyn shvedka_storage::Store>,
    ) -> anyhow::Result<Server> {
        if config.cluster.is_some() && store.leases().is_none() {
            anyhow::bail!("cluster mode needs the store of a node (PgStore::connect_node)");
        }
        let clock = config.clock_config()?;
        let identity = tls::Identity::load(&config)?;
        if config.cluster.is_some() && config.cert.as_os_str().is_empty() {
            // Its clients pin one fingerprint and resume on any node.
            tracing::warn!(
                "this node has no cert and key configured and serves a certificate of its own: a client \
                 pinned to another node's fingerprint cannot resume here; give every node the same cert \
                 and key (docs/operators.md, the nodes' one certificate)"
            );
        }
        let resolvers = certificates::Resolvers::of(&config, &identity)?;
        let endpoint = endpoint::native(&config, resolvers.native.clone())?;
        let browsers = endpoint::browsers(&config, resolvers.browsers.clone())?;
        tracing::info!(store = store.kind(), "database open");
        let seeks = features::seeks::SeekSettings::of(&config, &clock)?;
        // A single server always runs its matches; a node only while it holds its leases.
        let (standing_tx, standing) = service::standing::channel();
        // A node of a cluster: its links to the others, and the nodes it hears.
        let node = match &config.cluster {
            Some(cluster) => {
                let rematches = (Duration::from_secs(config.rematch_offer_s), config.max_rematch_offers);
                let peers = Arc::new(cluster::Peers::new(cluster.lease(), cluster.max_nodes));
                let roles = roles::Roles::new(&roles::Secrets {
                    arbiter: &config.arbiter_token,
                    director: &config.director_token,
                });
                Some((
                    cluster::Cluster::connect(
                        cluster,
                        store.clone(),
                        rematches,
                        peers.clone(),
                        roles,
                        config.spectator_events_kept,
                    )
                    .await?,
                    peers,
                ))
            }
            None => None,
        };
        let setup = lobby::LobbySetup {
            seeks,
            clock,
            limits: service::rooms::MatchLimits::of(&config),
            ratings: features::rater::RatingRules::of(&config),
            session_expiry: Duration::from_secs(config.session_expiry_s),
            store: store.clone(),
            secrets: roles::Secrets { arbiter: &config.arbiter_token, director: &config.director_token },
            records_dir: Some(config.data_dir.join("records")),
            bots: bots::Bots::new(
                endpoint.local_addr()?,
                sha2::Digest::finalize(<sha2::Sha256 as sha2::Digest>::new_with_prefix(
                    identity.chain[0].as_ref(),
                ))
                .into(),
                config.max_bots,
                Duration::from_millis(config.bot_pace_ms),
            ),
            rematches: (Duration::from_secs(config.rematch_offer_s), config.max_rematch_offers),
            analysis: features::analysis::AnalysisLimits {
                queued: config.max_analyses_queued,
                per_address: config.analyses_per_address,
                nodes: config.analysis_nodes,
            },
            login: service::attempts::AttemptLimits::of(&config),
            login_failure_delay: Duration::from_millis(config.login_failure_delay_ms),
            placement: match &node {
                Some((cluster, _)) => cluster.clone(),
                None => Arc::new(service::placement::Local),
            },
            remote: match &node {
                Some((cluster, _)) => cluster.clone(),
                None => Arc::new(features::remote::Alone),
            },
            standing,
        };
        let lobby = Arc::new(Lobby::open(setup).await?);
        let node = match (&config.cluster, node) {
            (Some(settings), Some((cluster, peers))) => {
                let here = Arc::new(cluster::Here {
                    seeks: lobby.seeks.clone(),
                    rooms: lobby.rooms.clone(),
                    sessions: lobby.sessions.clone(),
                    tournaments: lobby.tournaments.clone(),
                    rematches: lobby.rematches.clone(),
                    bots: lobby.bots.clone(),
                    metrics: lobby.metrics.clone(),
                    peers,
                    accounts: lobby.accounts.clone(),
                    roles: roles::Roles::new(&roles::Secrets {
                        arbiter: &config.arbiter_token,
                        director: &config.director_token,
                    }),
                });
                Some(cluster::NodeTasks::spawn(store.clone(), settings, here, &cluster, standing_tx))
            }
            _ => None,
        };
        let (stop_ticker, stop) = tokio::sync::watch::channel(false);
        session::spawn_sweeper(
            Arc::downgrade(&lobby.sessions),
            Duration::from_millis(config.session_check_ms.max(1)),
            stop.clone(),
        );
        let ticker =
            tournaments::spawn_ticker(Arc::downgrade(&lobby.tournaments), Arc::downgrade(&lobby.rooms), stop);
        let http = web::bind(&config).await.with_context(|| format!("cannot bind {}", config.http_listen))?;
        let https = match config.https_addr()? {
            Some(addr) => Some(
                tokio::net::TcpListener::bind(addr).await.with_context(|| format!("cannot bind {addr}"))?,
            ),
            None => None,
        };
        let webtransport = browsers.as_ref().map(quinn::Endpoint::local_addr).transpose()?;
        let connect = web::Connect { webtransport, certs: resolvers.dev.clone() };
        let certificates = resolvers.web.clone().map(|web| {
            let acme = Arc::new(transport::acme::Acme::new(&config, web.clone(), lobby.metrics.clone()));
            if let Some(kept) = acme.stored(service::wall::now()) {
                tracing::info!(not_after = ?kept.not_after(), "serving the certificate kept from the ACME CA");
                web.replace(kept);
            }
            certificates::Certificates { web, acme }
        });
        Ok(Server {
            endpoint,
            browsers,
            http,
            https,
            https_tls: resolvers.https,
            certificates,
            lobby,
            fingerprint: identity.fingerprint(),
            config: Arc::new(config),
            connect: Arc::new(connect),
            ticker,
            stop_ticker,
            node,
            _data_dir: None,
            store,
        })
    }

    /// The bound address (with the real port when the config asked for port 0).
    ///
    /// # Errors
    /// If the socket cannot say.
    pub fn local_addr(&self) -> std::io::Result<SocketAddr> {
        self.endpoint.local_addr()
    }

    /// The bound address of the browsers' endpoint (WebTransport), when enabled.
    ///
    /// # Errors
    /// If the socket cannot say.
    pub fn webtransport_addr(&self) -> std::io::Result<Option<SocketAddr>> {
        self.browsers.as_ref().map(quinn::Endpoint::local_addr).transpose()
    }

    /// The bound HTTP address (web client and WebSocket), when enabled.
    ///
    /// # Errors
    /// If the socket cannot say.
    pub fn http_addr(&self) -> std::io::Result<Option<SocketAddr>> {
        self.http.as_ref().map(tokio::net::TcpListener::local_addr).transpose()
    }

    /// The bound HTTPS address, when enabled.
    ///
    /// # Errors
    /// If the socket cannot say.
    pub fn https_addr(&self) -> std::io::Result<Option<SocketAddr>> {
        self.https.as_ref().map(tokio::net::TcpListener::local_addr).transpose()
    }

    /// The certificate obtained from the ACME CA, with `acme_directory`.
    pub fn certificates(&self) -> Option<Certificates> {
        self.certificates.clone()
    }

    /// The SHA-256 fingerprint of the server's certificate, lower-case hex.
    pub fn fingerprint(&self) -> &str {
        &self.fingerprint
    }

    /// A handle on the server's live counts, valid while it runs.
    pub fn stats(&self) -> Stats {
        Stats(self.lobby.clone())
    }

    /// Serves until `shutdown` completes, then closes every connection and waits (at most a few
    /// seconds) for the close to reach the clients; last it releases the store (the database's
    /// writer lock), so that a server started next is not refused by this one.
    ///
    /// # Errors
    /// A configuration that was not checked (`trusted_proxies`, `metrics_allowed`); another
    /// server took the database's writer lock while this one had lost its connection (the
    /// server stops then: it can store nothing more).
    pub async fn run(mut self, shutdown: impl Future<Output = ()>) -> anyhow::Result<()> {
        let proxies = config::networks(&self.config.trusted_proxies, "trusted_proxies")?;
        let metrics_allowed = config::networks(&self.config.metrics_allowed, "metrics_allowed")?;
        let admission = Arc::new(transport::admission::Admission::new(
            self.config.max_connections,
            self.config.max_connections_per_address,
            (self.config.retry_handshakes_above, self.config.new_connections_per_address_per_second),
            self.lobby.metrics.clone(),
        ));
        let connections =
            Arc::new(connection::Connections { lobby: self.lobby.clone(), config: self.config.clone() });
        tokio::pin!(shutdown);
        let (stop_http, _) = tokio::sync::watch::channel(false);
        let shared = web::Shared {
            conversation: connections.clone(),
            config: self.config.clone(),
            connect: self.connect.clone(),
            admission: admission.clone(),
            proxies: Arc::new(proxies),
            metrics_allowed: Arc::new(metrics_allowed),
            plain_logins: Arc::new(config::networks(&self.config.plain_http_logins, "plain_http_logins")?),
        };
        let listeners = transport::listeners::Listeners {
            http: self.http.take(),
            https: self.https.take(),
            certs: self.https_tls.clone(),
            challenges: self.certificates.as_ref().map(|c| c.acme.challenges.clone()),
        };
        let http = transport::listeners::spawn(listeners, &shared, &stop_http)?;
        if let Some(certificates) = &self.certificates {
            certificates.acme.spawn(stop_http.subscribe());
        }
        // The server's bots of the matches restored at start sit again, now that the endpoint
        // they connect to is served.
        self.lobby.bots.resume_restored(&self.lobby.rooms, &self.lobby.metrics);
        let taken = taken_over(self.store.writer_lock());
        tokio::pin!(taken);
        let mut taken_by = None;
        loop {
            let (incoming, browser) = tokio::select! {
                () = &mut shutdown => break,
                who = &mut taken => {
                    tracing::error!(
                        holder = %who,
                        "another server holds this database's writer lock now: this server stops"
                    );
                    taken_by = Some(who);
                    break;
                }
                incoming = self.endpoint.accept() => match incoming {
                    Some(incoming) => (incoming, false),
                    None => break,
                },
                Some(incoming) = accept(self.browsers.as_ref()) => (incoming, true),
            };
            if admission.must_retry(&incoming) {
                // Too many handshakes in flight: this one proves its address first.
                match incoming.retry() {
                    Ok(()) => self.lobby.metrics.retried(),
                    Err(e) => e.into_incoming().refuse(),
                }
                continue;
            }
            let admitted = match admission.admit(incoming.remote_address().ip()) {
                Ok(admitted) => admitted,
                Err(limit) => {
                    // Counted in the metrics, logged without flooding, told why when it may be.
                    admission.refuse_quic(incoming, limit, if browser { "WebTransport" } else { "QUIC" });
                    continue;
                }
            };
            let (lobby, connections, admission) =
                (self.lobby.clone(), connections.clone(), admission.clone());
            tokio::spawn(async move {
                let _admitted = admitted;
                let transport =
                    if browser { metrics::Transport::Webtransport } else { metrics::Transport::Quic };
                let _counted = lobby.metrics.connection(transport);
                let handshake = admission.handshaking();
                let connected = incoming.await;
                drop(handshake);
                match connected {
                    // Boxed: the task holds only the branch it takes (a connection's task lives
                    // as long as the connection, and both inline cost every one the larger).
                    Ok(conn) if browser => Box::pin(webtransport::serve(conn, connections)).await,
                    Ok(conn) => Box::pin(transport::native::serve(conn, connections)).await,
                    Err(e) => tracing::debug!(error = %e, "handshake failed"),
                }
            });
        }
        let _ = stop_http.send(true);
        let _ = tokio::time::timeout(Duration::from_secs(3), futures_util::future::join_all(http)).await;
        // The tournament driver stops between two changes; every match pauses play and stores
        // it, so a restart charges nobody for the time the server was down.
        let _ = self.stop_ticker.send(true);
        let _ = tokio::time::timeout(SHUTDOWN_WAIT, &mut self.ticker).await;
        self.lobby.bots.stop();
        if let Some(node) = &mut self.node {
            node.stop_taking_over().await;
        }
        self.lobby.rooms.shutdown(SHUTDOWN_WAIT).await;
        // The matches stored their last events: the other nodes may take them at once.
        if let Some(node) = self.node.take() {
            node.stop().await;
        }
        let endpoints: Vec<&quinn::Endpoint> =
            std::iter::once(&self.endpoint).chain(&self.browsers).collect();
        for endpoint in &endpoints {
            endpoint.close(0u32.into(), b"server shutting down");
        }
        let idle = async {
            for endpoint in &endpoints {
                endpoint.wait_idle().await;
            }
        };
        let _ = tokio::time::timeout(Duration::from_secs(3), idle).await;
        self.store.close().await;
        if let Some(who) = taken_by {
            anyhow::bail!(
                "another shvedka server took this database's writer lock while this one had lost its \
                 connection to the database: {who}. This server stopped, since it could store nothing \
                 more (its matches are stored up to the loss; the other server runs them now): keep the \
                 other one, or stop it and start this one again"
            );
        }
        Ok(())
    }
}

/// Completes, naming the holder, once another server took the database's writer lock from this
/// one (`shvedka_storage::Writing::TakenBy`); never for a store without one.
async fn taken_over(state: Option<tokio::sync::watch::Receiver<shvedka_storage::WriterState>>) -> String {
    if let Some(mut state) = state
        && let Ok(now) = state.wait_for(|s| matches!(s.writing, shvedka_storage::Writing::TakenBy(_))).await
        && let shvedka_storage::Writing::TakenBy(who) = &now.writing
    {
        return who.clone();
    }
    std::future::pending().await
}

/// The next connection attempt on `endpoint`; never, without one (or once it is closed: `None`).
async fn accept(endpoint: Option<&quinn::Endpoint>) -> Option<quinn::Incoming> {
    match endpoint {
        Some(endpoint) => endpoint.accept().await,
        None => std::future::pending().await,
    }
}
