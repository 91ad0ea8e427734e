//! Who may open a connection, over every transport: a permit of the server's one
//! `max_connections` semaphore and a place among its address's `max_connections_per_address`
//! (IPv6 by its /64), both taken before any handshake and held while the connection lives, so no
//! address can take the slots of all the others; and no address opens more than
//! `new_connections_per_address_per_second` (after a burst of ten seconds' worth), since even a
//! refused-at-once QUIC or TCP connection costs the server its handshake. QUIC handshakes come
//! before any proof that their
//! address is real (a spoofed one costs the attacker nothing): while more than
//! `retry_handshakes_above` are in flight, a new one must first prove its address with a Retry
//! (QUIC's address validation), so spoofed handshakes hold nothing.

use std::net::IpAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use tokio::sync::{OwnedSemaphorePermit, Semaphore};

use crate::service::addresses::{AtOnce, Held, Rate};

/// An address's burst of new connections: this many seconds' worth at once.
const BURST_SECONDS: u32 = 10;
use crate::service::metrics::{Metrics, Refusal};
use crate::transport::refused::{self, RefusalLog, TELLING};

/// The server's connection limits.
pub(crate) struct Admission {
    permits: Arc<Semaphore>,
    per_address: Arc<AtOnce>,
    /// New connections per address and second (a burst of ten seconds' worth).
    rate: Rate,
    handshakes: Arc<AtomicUsize>,
    retry_above: usize,
    metrics: Arc<Metrics>,
    /// The configured `max_connections`, `max_connections_per_address` and
    /// `new_connections_per_address_per_second`, which a refused connection and the log are told.
    configured: (usize, usize, u32),
    /// Refusals logged without flooding the log, and QUIC refusals being told why.
    log: RefusalLog,
    telling: Arc<Semaphore>,
}

/// What an admitted connection holds while it lives: a place of `max_connections`, and one of
/// its address's (none for a reverse proxy's connection: each of its WebSocket sessions takes
/// its client's).
#[derive(Debug)]
pub(crate) struct Admitted {
    _permit: OwnedSemaphorePermit,
    _address: Option<Held>,
}

/// A QUIC handshake in flight, counted until it is dropped.
pub(crate) struct Handshaking(Arc<AtomicUsize>);

impl Drop for Handshaking {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::Relaxed);
    }
}

impl Admission {
    /// `max_connections` in all, `per_address` from one address, a Retry above `retry_above`
    /// handshakes in flight.
    pub(crate) fn new(
        max_connections: usize,
        per_address: usize,
        (retry_above, per_second): (usize, u32),
        metrics: Arc<Metrics>,
    ) -> Admission {
        Admission {
            permits: Arc::new(Semaphore::new(max_connections)),
            per_address: AtOnce::new(per_address),
            rate: Rate::per_second(per_second, per_second.saturating_mul(BURST_SECONDS)),
            handshakes: Arc::default(),
            retry_above,
            metrics,
            configured: (max_connections, per_address, per_second),
            log: RefusalLog::default(),
            telling: Arc::new(Semaphore::new(TELLING)),
        }
    }

    /// Logs a connection from `remote` refused at `limit` (throttled, `refused.rs`).
    pub(crate) fn log_refused(&self, limit: Refusal, remote: impl std::fmt::Display, transport: &str) {
        self.log.note(limit, self.configured(limit), remote, transport);
    }

    /// Refuses a QUIC connection at `limit`, telling it which when it may (`refused.rs`), and
    /// logs it.
    pub(crate) fn refuse_quic(&self, incoming: quinn::Incoming, limit: Refusal, transport: &str) {
        self.log_refused(limit, incoming.remote_address(), transport);
        refused::refuse_quic(incoming, limit, self.configured(limit), &self.telling);
    }

    /// What a refused HTTP or WebSocket connection is told: the limit and its value.
    pub(crate) fn words(&self, limit: Refusal) -> String {
        refused::words(limit, self.configured(limit))
    }

    /// The configured value of the limit that refused a connection (`max_connections`,
    /// `max_connections_per_address`, `new_connections_per_address_per_second`).
    pub(crate) fn configured(&self, limit: Refusal) -> u64 {
        match limit {
            Refusal::ConnectionsPerAddress => self.configured.1 as u64,
            Refusal::ConnectionRate => u64::from(self.configured.2),
            _ => self.configured.0 as u64,
        }
    }

    /// Admits a connection from `addr`, or says which limit refuses it (counted in the metrics).
    pub(crate) fn admit(&self, addr: IpAddr) -> Result<Admitted, Refusal> {
        let refuse = |limit| {
            self.metrics.refused(limit);
            Err(limit)
        };
        if !self.rate.take(addr) {
            return refuse(Refusal::ConnectionRate);
        }
        let Some(address) = self.per_address.take(addr) else {
            return refuse(Refusal::ConnectionsPerAddress);
        };
        let Ok(permit) = self.permits.clone().try_acquire_owned() else {
            return refuse(Refusal::MaxConnections);
        };
        Ok(Admitted { _permit: permit, _address: Some(address) })
    }

    /// Admits a connection of a trusted reverse proxy: a place of `max_connections` alone (the
    /// proxy speaks for many addresses).
    pub(crate) fn admit_total(&self) -> Result<Admitted, Refusal> {
        let Ok(permit) = self.permits.clone().try_acquire_owned() else {
            self.metrics.refused(Refusal::MaxConnections);
            return Err(Refusal::MaxConnections);
        };
        Ok(Admitted { _permit: permit, _address: None })
    }

    /// A place of `addr`'s for a session a trusted proxy forwards from it.
    pub(crate) fn admit_address(&self, addr: IpAddr) -> Result<Held, Refusal> {
        self.per_address.take(addr).ok_or_else(|| {
            self.metrics.refused(Refusal::ConnectionsPerAddress);
            Refusal::ConnectionsPerAddress
        })
    }

    /// Whether a QUIC handshake must first prove its address: too many are in flight and its
    /// address is not validated yet.
    pub(crate) fn must_retry(&self, incoming: &quinn::Incoming) -> bool {
        !incoming.remote_address_validated() && self.handshakes.load(Ordering::Relaxed) >= self.retry_above
    }

    /// Counts a handshake in flight until the result is dropped.
    pub(crate) fn handshaking(&self) -> Handshaking {
        self.handshakes.fetch_add(1, Ordering::Relaxed);
        Handshaking(self.handshakes.clone())
    }
}
