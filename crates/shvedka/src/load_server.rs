//! The server a `shvedka load` run starts for itself (the default): one in this process, on its
//! own threads, with a fresh embedded database in a temporary directory, on loopback ports the
//! system picks. Sizing a server this way can never touch a tournament's data, and the run ends by
//! stopping it and deleting the directory: nothing it played is left anywhere. The settings being
//! sized come from `--server-config` (or the defaults); only what no real night shares with a load
//! run is set here — the directory, the addresses, and the limits per address, since all of the
//! run's players come from one address.

use std::path::Path;
use std::sync::mpsc;

use anyhow::{Context, bail};
use shvedka_server::{Server, ServerConfig, Stats};
use tokio::sync::oneshot;

use crate::client_cmds::ConnectArgs;

/// A per-address limit lifted for the run: every simulated player comes from one address.
const LIFTED: u32 = 1_000_000;

/// The run's own server, stopped (and its directory deleted) by [`OwnServer::stop`] or on drop.
pub(crate) struct OwnServer {
    addr: std::net::SocketAddr,
    fingerprint: String,
    stats: Stats,
    max_connections: usize,
    stop: Option<oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<anyhow::Result<()>>>,
    dir: Option<tempfile::TempDir>,
}

impl OwnServer {
    /// Starts a server with the settings of `config` (or the defaults) in a temporary directory.
    pub(crate) fn start(config: Option<&Path>) -> anyhow::Result<OwnServer> {
        let mut config = ServerConfig::load(config)?;
        if !config.database_url.is_empty() || config.cluster.is_some() {
            bail!(
                "--server-config names a database_url or a [cluster]: the server load starts uses a \
                 temporary embedded database of its own. To size a server on PostgreSQL or a cluster, \
                 start it on a database of no tournament's and give load --server … --running-server"
            );
        }
        let dir = tempfile::Builder::new()
            .prefix("shvedka-load-")
            .tempdir()
            .context("cannot make the load run's temporary data directory")?;
        config.data_dir = dir.path().to_path_buf();
        config.listen = ([127, 0, 0, 1], 0).into();
        config.http_listen = String::new();
        config.webtransport_listen = String::new();
        config.max_connections_per_address = LIFTED as usize;
        config.retry_handshakes_above = LIFTED as usize;
        config.new_connections_per_address_per_second = LIFTED;
        config.guest_sessions_per_address_per_hour = LIFTED;
        let max_connections = config.max_connections;
        let (started_tx, started) = mpsc::channel();
        let (stop, stopped) = oneshot::channel::<()>();
        let thread = std::thread::Builder::new()
            .name("load-server".into())
            .spawn(move || serve(config, &started_tx, stopped))
            .context("cannot start the server's thread")?;
        let (addr, fingerprint, stats) = match started.recv() {
            Ok(started) => started,
            Err(_) => {
                let why = thread.join().map_err(|_| anyhow::anyhow!("the server's thread panicked"))?;
                return Err(why.err().unwrap_or_else(|| anyhow::anyhow!("the server did not start")));
            }
        };
        Ok(OwnServer {
            addr,
            fingerprint,
            stats,
            max_connections,
            stop: Some(stop),
            thread: Some(thread),
            dir: Some(dir),
        })
    }

    /// How the run's clients reach it.
    pub(crate) fn connect(&self) -> ConnectArgs {
        ConnectArgs::new(self.addr.to_string(), Some(self.fingerprint.clone()))
    }

    /// Its `max_connections`, which the run's connections must fit.
    pub(crate) fn max_connections(&self) -> usize {
        self.max_connections
    }

    /// Live matches and sessions it holds once the run's last connections have closed (at most
    /// `wait` for them: a session leaves memory when its connection's task has ended).
    pub(crate) fn held(&self, wait: std::time::Duration) -> (usize, usize) {
        let until = std::time::Instant::now() + wait;
        loop {
            let held = (self.stats.live_matches(), self.stats.sessions_in_memory());
            if held == (0, 0) || std::time::Instant::now() >= until {
                return held;
            }
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
    }

    /// Stops the server (as Ctrl-C does: every match pauses and is stored) and deletes its
    /// directory.
    pub(crate) fn stop(mut self) -> anyhow::Result<()> {
        self.shut_down()
    }

    fn shut_down(&mut self) -> anyhow::Result<()> {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        let served = match self.thread.take() {
            Some(thread) => thread.join().map_err(|_| anyhow::anyhow!("the server's thread panicked"))?,
            None => Ok(()),
        };
        if let Some(dir) = self.dir.take() {
            let path = dir.path().to_path_buf();
            dir.close().with_context(|| format!("cannot delete {}", path.display()))?;
        }
        served
    }
}

impl Drop for OwnServer {
    fn drop(&mut self) {
        let _ = self.shut_down();
    }
}

/// The server's thread: its own runtime, so the load's tasks and the server's never share one.
fn serve(
    config: ServerConfig,
    started: &mpsc::Sender<(std::net::SocketAddr, String, Stats)>,
    stopped: oneshot::Receiver<()>,
) -> anyhow::Result<()> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .thread_name("load-server")
        .build()
        .context("cannot start the server's runtime")?;
    runtime.block_on(async {
        let server = Server::bind(config).await?;
        let _ = started.send((server.local_addr()?, server.fingerprint().to_owned(), server.stats()));
        server
            .run(async {
                let _ = stopped.await;
            })
            .await
    })
}
