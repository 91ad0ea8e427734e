//! The shvedka match server: one quinn endpoint (TLS by rustls with one explicit crypto
//! provider) serving native clients (ALPN `shvedka/1`) and browsers by WebTransport (ALPN `h3`),
//! an HTTP side with the web client and a WebSocket fallback, one session per connection, a lobby of matches indexed by `DashMap`s, and
//! one tokio task per match that owns its sans-IO state machine (`bughouse-match`) and both
//! boards. Wire types come from `shvedka-proto`; nothing here knows the rules beyond asking the
//! match machine.
//!
//! [`Server::bind`] opens the endpoint (a self-signed certificate is generated on first start and
//! kept in the data directory; [`Server::fingerprint`] is what clients pin), [`Server::run`]
//! serves until its shutdown future completes, then closes every connection gracefully.

mod config;
mod convert;
mod devcert;
mod encoding;
mod lobby;
mod record;
mod restore;
mod room;
mod session;
mod tls;
mod tournaments;
mod web;
mod web_files;
mod webtransport;

use std::future::Future;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use anyhow::Context;
use tokio::sync::Semaphore;

pub use config::ServerConfig;
pub use tls::{fingerprint, provider};

use crate::lobby::Lobby;

/// A bound server, ready to run.
pub struct Server {
    endpoint: quinn::Endpoint,
    http: Option<tokio::net::TcpListener>,
    lobby: Arc<Lobby>,
    config: Arc<ServerConfig>,
    fingerprint: String,
    connect: Arc<web::Connect>,
}

/// Streams of each kind a connection may open before its ALPN is known (HTTP/3 needs three
/// unidirectional ones and two bidirectional ones for a WebTransport session).
const H3_STREAMS: u32 = 4;

impl Server {
    /// Opens the database (restoring every undecided match, paused until its players are back)
    /// and the endpoint.
    ///
    /// # Errors
    /// Unreadable or invalid certificate or clock files, a database that cannot be opened or
    /// migrated, or an address that cannot be bound.
    pub async fn bind(config: ServerConfig) -> anyhow::Result<Server> {
        let clock = config.clock_config()?;
        let identity = tls::Identity::load(&config)?;
        // Browsers get a short-lived development certificate unless a real one is configured.
        let browsers = if config.cert.as_os_str().is_empty() {
            let certs = Arc::new(devcert::DevCerts::new(std::time::SystemTime::now(), provider())?);
            devcert::DevCerts::spawn_rotation(&certs);
            Some(certs)
        } else {
            None
        };
        let crypto = identity.server_crypto(browsers.clone())?;
        let mut server_config = quinn::ServerConfig::with_crypto(Arc::new(crypto));
        let mut transport = quinn::TransportConfig::default();
        // Room for HTTP/3 (its control and QPACK streams, the CONNECT stream and the session's
        // stream); a native connection is narrowed to its one stream once its ALPN is known.
        transport
            .max_idle_timeout(Some(quinn::IdleTimeout::try_from(config.idle_timeout())?))
            .keep_alive_interval(Some(config.keep_alive()))
            .max_concurrent_bidi_streams(H3_STREAMS.into())
            .max_concurrent_uni_streams(H3_STREAMS.into());
        server_config.transport_config(Arc::new(transport));
        let socket = udp_socket(config.listen, config.udp_recv_buffer)
            .with_context(|| format!("cannot bind {}", config.listen))?;
        let runtime = quinn::default_runtime().context("no async runtime")?;
        let endpoint =
            quinn::Endpoint::new(quinn::EndpointConfig::default(), Some(server_config), socket, runtime)?;
        let url = (!config.database_url.is_empty()).then_some(config.database_url.as_str());
        let store = shvedka_storage::open(url, &config.data_dir).await.context("cannot open the database")?;
        tracing::info!(store = store.kind(), "database open");
        let records = Some(config.data_dir.join("records"));
        let secrets = lobby::Secrets { arbiter: &config.arbiter_token, director: &config.director_token };
        let lobby = Arc::new(Lobby::open(clock, config.max_matches, store, secrets, records).await?);
        tournaments::spawn_ticker(Arc::downgrade(&lobby));
        let http = web::bind(&config).await.with_context(|| format!("cannot bind {}", config.http_listen))?;
        let quic = endpoint.local_addr()?;
        let quic_host = (!quic.ip().is_unspecified()).then_some(quic.ip());
        let connect = web::Connect { quic_host, quic_port: quic.port(), browsers };
        Ok(Server {
            endpoint,
            http,
            lobby,
            fingerprint: identity.fingerprint(),
            config: Arc::new(config),
            connect: Arc::new(connect),
        })
    }

    /// The bound address (with the real port when the config asked for port 0).
    ///
    /// # Errors
    /// If the socket cannot say.
    pub fn local_addr(&self) -> std::io::Result<SocketAddr> {
        self.endpoint.local_addr()
    }

    /// The bound HTTP address (web client and WebSocket), when enabled.
    ///
    /// # Errors
    /// If the socket cannot say.
    pub fn http_addr(&self) -> std::io::Result<Option<SocketAddr>> {
        self.http.as_ref().map(tokio::net::TcpListener::local_addr).transpose()
    }

    /// The SHA-256 fingerprint of the server's certificate, lower-case hex.
    pub fn fingerprint(&self) -> &str {
        &self.fingerprint
    }

    /// Serves until `shutdown` completes, then closes every connection and waits (at most a few
    /// seconds) for the close to reach the clients.
    ///
    /// # Errors
    /// None so far; the signature leaves room for fatal endpoint errors.
    pub async fn run(mut self, shutdown: impl Future<Output = ()>) -> anyhow::Result<()> {
        let permits = Arc::new(Semaphore::new(self.config.max_connections));
        tokio::pin!(shutdown);
        let (stop_http, mut http_stopped) = tokio::sync::watch::channel(false);
        let http = self.http.take().map(|listener| {
            let stopped = async move {
                let _ = http_stopped.wait_for(|stop| *stop).await;
            };
            let shared = web::Shared {
                lobby: self.lobby.clone(),
                config: self.config.clone(),
                connect: self.connect.clone(),
            };
            tokio::spawn(web::serve(listener, shared, stopped))
        });
        loop {
            let incoming = tokio::select! {
                () = &mut shutdown => break,
                incoming = self.endpoint.accept() => match incoming {
                    Some(incoming) => incoming,
                    None => break,
                },
            };
            let Ok(permit) = permits.clone().try_acquire_owned() else {
                tracing::warn!(remote = %incoming.remote_address(), "connection limit reached; refused");
                incoming.refuse();
                continue;
            };
            let (lobby, config) = (self.lobby.clone(), self.config.clone());
            tokio::spawn(async move {
                let _permit = permit;
                match incoming.await {
                    Ok(conn) if alpn(&conn).as_deref() == Some(tls::ALPN_H3) => {
                        webtransport::serve(conn, lobby, config).await;
                    }
                    Ok(conn) => {
                        conn.set_max_concurrent_bi_streams(1u32.into());
                        conn.set_max_concurrent_uni_streams(0u32.into());
                        session::serve(conn, lobby, config).await;
                    }
                    Err(e) => tracing::debug!(error = %e, "handshake failed"),
                }
            });
        }
        let _ = stop_http.send(true);
        if let Some(http) = http {
            let _ = tokio::time::timeout(Duration::from_secs(3), http).await;
        }
        self.endpoint.close(0u32.into(), b"server shutting down");
        let _ = tokio::time::timeout(Duration::from_secs(3), self.endpoint.wait_idle()).await;
        Ok(())
    }
}

/// The ALPN a connection negotiated.
fn alpn(conn: &quinn::Connection) -> Option<Vec<u8>> {
    conn.handshake_data()?.downcast::<quinn::crypto::rustls::HandshakeData>().ok()?.protocol
}

/// A UDP socket with a large receive buffer (quinn loses handshakes under bursts otherwise).
fn udp_socket(addr: SocketAddr, recv_buffer: usize) -> std::io::Result<std::net::UdpSocket> {
    use socket2::{Domain, Protocol, Socket, Type};
    let socket = Socket::new(Domain::for_address(addr), Type::DGRAM, Some(Protocol::UDP))?;
    if let Err(e) = socket.set_recv_buffer_size(recv_buffer) {
        tracing::warn!(error = %e, "cannot enlarge the UDP receive buffer");
    }
    tracing::debug!(requested = recv_buffer, effective = socket.recv_buffer_size()?, "UDP receive buffer");
    socket.bind(&addr.into())?;
    Ok(socket.into())
}
