//! One writer per PostgreSQL database: the lock that keeps a second server off a database
//! another one writes, as the data directory's lock file does for SQLite.
//!
//! Two standalone servers (no `[cluster]`) on one database, or a standalone server on a
//! cluster's, each restore the same matches and write events into the same logs: a match forks,
//! and the node running it ends it (`StoreError::Conflict`). So every server holds a session-level
//! advisory lock, [`WRITER_LOCK`], on one connection of its own for its whole life: a standalone
//! server exclusively (`pg_try_advisory_lock`), a cluster node shared
//! (`pg_try_advisory_lock_shared`). Two standalone servers conflict, a standalone server and any
//! node conflict, and nodes coexist (they fence each other per match, `leases.rs`). The lock's
//! connection is named (`application_name`: what runs, on which host, as which process), so a
//! server refused at start names the holder from `pg_locks` and `pg_stat_activity`
//! ([`StoreError::InUse`]). Tools (`shvedka admin`) take no lock: they run beside the server.
//!
//! The schema is migrated only under the writer lock, and under [`MIGRATION_LOCK`] (exclusive,
//! for the migration alone) so that two nodes starting at once never migrate together; a tool
//! that finds the schema behind its build's takes the writer lock exclusively to migrate it.
//!
//! While it runs the lock's connection sits in `pg_sleep` ([`CHECK_EVERY`]) over and over, so
//! its loss (the backend terminated, the database restarted, the connection cut) is seen at
//! once, or within [`ANSWER_WITHIN`] when nothing answers. From then on the store refuses every
//! request but the long reads ([`StoreError::NotWriter`]; the server pauses its matches and
//! retries, as in any outage) and tries to take the lock back every [`CHECK_EVERY`]. Taken back,
//! it writes again. Found held by another writer, it never writes again ([`Writing::TakenBy`]):
//! the server stops, since what it holds in memory is no longer what the database holds.

use std::time::Duration;

use sqlx::postgres::{PgConnectOptions, PgConnection};
use sqlx::{ConnectOptions, Connection, Row};
use tokio::sync::{oneshot, watch};

use crate::StoreError;

/// The advisory lock every server holds on its database while it runs (the bytes `shvedka\0`):
/// in `pg_locks` it is `locktype = 'advisory'`, `classid = 1936225893`, `objid = 1684758784`,
/// `objsubid = 1`.
pub const WRITER_LOCK: i64 = 0x7368_7665_646b_6100;

/// The advisory lock held (exclusively, on the writer lock's connection) while the schema is
/// migrated.
pub(crate) const MIGRATION_LOCK: i64 = WRITER_LOCK + 1;

/// How long the lock's connection sleeps in each watch, and how often a lost lock is asked for
/// again. It also bounds how long a server that ended without closing (killed) holds the lock.
pub const CHECK_EVERY: Duration = Duration::from_millis(500);

/// How long a watch or an attempt to take the lock back may go unanswered before the lock is
/// taken to be lost.
pub const ANSWER_WITHIN: Duration = Duration::from_secs(10);

/// How long a server starting asks again for a lock it found held, before it refuses: a server
/// that was killed releases it within [`CHECK_EVERY`], and a restart must not be refused by its
/// own predecessor.
const START_WAIT: Duration = Duration::from_millis(1500);

/// Who opens the database.
#[derive(Clone, Debug)]
pub(crate) enum Access {
    /// A server without `[cluster]`: the database's only writer.
    Standalone,
    /// The node of this name of a cluster: one writer of several, each fenced per match.
    Node(String),
    /// A tool beside the server (`shvedka admin`): takes the lock only to migrate the schema.
    Tool,
}

impl Access {
    fn exclusive(&self) -> bool {
        !matches!(self, Access::Node(_))
    }

    /// The lock connection's `application_name` (PostgreSQL keeps 63 bytes).
    fn application_name(&self) -> String {
        static STORES: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
        let n = STORES.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let what = match self {
            Access::Standalone => "shvedka standalone".to_owned(),
            Access::Node(name) => format!("shvedka node {name}"),
            Access::Tool => "shvedka admin".to_owned(),
        };
        let store = if n == 0 { String::new() } else { format!(" store {}", n + 1) };
        let mut name = format!("{what} on {} pid {}{store}", host(), std::process::id());
        name.retain(|c| c.is_ascii_graphic() || c == ' ');
        name.truncate(63);
        name
    }
}

/// This machine's name.
fn host() -> String {
    std::fs::read_to_string("/proc/sys/kernel/hostname")
        .ok()
        .or_else(|| std::env::var("HOSTNAME").ok())
        .map(|h| h.trim().to_owned())
        .filter(|h| !h.is_empty())
        .unwrap_or_else(|| "localhost".to_owned())
}

/// A session holding the writer lock, as the database shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Holder {
    /// Its `application_name` (`shvedka standalone on HOST pid N`, `shvedka node NAME on …`).
    pub name: String,
    /// Its client's address (empty for a Unix socket).
    pub from: String,
    /// When its connection began (UTC).
    pub since: String,
    /// Its backend process in the database server.
    pub pid: i32,
    /// Whether it holds the lock exclusively (a standalone server) or shared (a node).
    pub exclusive: bool,
}

impl std::fmt::Display for Holder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let name = if self.name.is_empty() { "a session without an application_name" } else { &self.name };
        let from = if self.from.is_empty() { "a local socket" } else { &self.from };
        write!(f, "«{name}» (connected from {from} since {} UTC, database backend {})", self.since, self.pid)
    }
}

/// Whether this server may write now.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Writing {
    /// It holds the writer lock.
    Held,
    /// The lock's connection was lost (why): nothing is written while it is asked for again.
    Lost(String),
    /// Another server holds the lock now (who): this server must never write again.
    TakenBy(String),
    /// The store was closed and the lock released.
    Released,
}

/// The writer lock's state, with how many times it was lost so far.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WriterState {
    /// Now.
    pub writing: Writing,
    /// Losses since the store was opened.
    pub losses: u64,
}

/// The writer lock of an open store: the task watching its connection, and its state.
pub(crate) struct WriterLock {
    state: watch::Receiver<WriterState>,
    stop: std::sync::Mutex<Option<oneshot::Sender<oneshot::Sender<()>>>>,
}

/// The options of the lock's connection: `options` under this store's `application_name`.
pub(crate) fn named(options: &PgConnectOptions, access: &Access) -> PgConnectOptions {
    options.clone().application_name(&access.application_name())
}

/// Opens the lock's connection (`options`, [`named`]) and takes the lock as `access` does,
/// asking again for [`START_WAIT`] while it is held; refuses naming the holders.
pub(crate) async fn take(options: &PgConnectOptions, access: &Access) -> Result<PgConnection, StoreError> {
    let mut conn = options.connect().await?;
    let started = tokio::time::Instant::now();
    loop {
        if try_lock(&mut conn, access).await? {
            return Ok(conn);
        }
        let holders = holders(&mut conn).await?;
        if started.elapsed() >= START_WAIT && !holders.is_empty() {
            let _ = conn.close().await;
            return Err(StoreError::InUse(refusal(access, &holders)));
        }
        tokio::time::sleep(CHECK_EVERY / 5).await;
    }
}

async fn try_lock(conn: &mut PgConnection, access: &Access) -> Result<bool, StoreError> {
    let sql = if access.exclusive() {
        "SELECT pg_try_advisory_lock($1)"
    } else {
        "SELECT pg_try_advisory_lock_shared($1)"
    };
    Ok(sqlx::query(sql).bind(WRITER_LOCK).fetch_one(&mut *conn).await?.try_get(0)?)
}

/// Every session holding the writer lock now, oldest first.
pub(crate) async fn holders(conn: &mut PgConnection) -> Result<Vec<Holder>, StoreError> {
    let rows = sqlx::query(
        "SELECT COALESCE(a.application_name, ''), COALESCE(host(a.client_addr), ''), \
         COALESCE(to_char(a.backend_start AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS'), '?'), l.pid, l.mode \
         FROM pg_locks l LEFT JOIN pg_stat_activity a ON a.pid = l.pid \
         WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 1 \
         AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database()) \
         AND l.classid::bigint = $1 AND l.objid::bigint = $2 \
         ORDER BY a.backend_start, l.pid",
    )
    .bind(WRITER_LOCK >> 32)
    .bind(WRITER_LOCK & 0xffff_ffff)
    .fetch_all(&mut *conn)
    .await?;
    rows.iter()
        .map(|r| {
            Ok(Holder {
                name: r.try_get(0)?,
                from: r.try_get(1)?,
                since: r.try_get(2)?,
                pid: r.try_get::<Option<i32>, _>(3)?.unwrap_or(0),
                exclusive: r.try_get::<String, _>(4)? == "ExclusiveLock",
            })
        })
        .collect()
}

fn list(holders: &[Holder]) -> String {
    holders.iter().map(Holder::to_string).collect::<Vec<_>>().join(", ")
}

/// What a server refused at start reads, and what to do about it.
fn refusal(access: &Access, holders: &[Holder]) -> String {
    let standalone = holders.iter().find(|h| h.exclusive);
    match (access, standalone) {
        (Access::Tool, _) => format!(
            "the database's schema is older than this build's, and a shvedka server runs on it: {}. \
             Migrating it under a running server could break that server: stop it, or upgrade it first \
             (a server migrates the schema when it starts), then run this again",
            list(holders)
        ),
        (Access::Standalone, Some(h)) => format!(
            "the PostgreSQL database of database_url is in use by another standalone shvedka server: {h}. \
             Only one server without [cluster] may write a database: stop that one, or give this one \
             another database_url"
        ),
        (Access::Standalone, None) => format!(
            "the PostgreSQL database of database_url is a cluster's: {} node(s) run on it: {}. A server \
             without [cluster] would write beside them and fork their matches: make this one a node of \
             the cluster (a [cluster] section with the cluster's nats_url and a node name of its own), \
             or give it another database_url",
            holders.len(),
            list(holders)
        ),
        (Access::Node(_), Some(h)) => format!(
            "the PostgreSQL database of database_url is in use by a standalone shvedka server (one \
             without [cluster]): {h}. A cluster node would write beside it and fork its matches: stop \
             that server (the cluster's nodes take its unfinished matches over), or give the cluster \
             another database_url"
        ),
        // A shared lock is refused only by an exclusive one.
        (Access::Node(_), None) => format!("the database's writer lock is held: {}", list(holders)),
    }
}

/// Migrates under [`MIGRATION_LOCK`], held on `conn` (which holds the writer lock).
pub(crate) async fn migrating<F: std::future::Future<Output = Result<(), StoreError>>>(
    conn: &mut PgConnection,
    migrate: F,
) -> Result<(), StoreError> {
    sqlx::query("SELECT pg_advisory_lock($1)").bind(MIGRATION_LOCK).execute(&mut *conn).await?;
    let done = migrate.await;
    sqlx::query("SELECT pg_advisory_unlock($1)").bind(MIGRATION_LOCK).execute(&mut *conn).await?;
    done
}

impl WriterLock {
    /// Watches the lock held on `conn` (opened with `options`, [`named`]) from now on (see the
    /// module's documentation).
    pub(crate) fn watch(conn: PgConnection, options: PgConnectOptions, access: Access) -> WriterLock {
        let (tx, state) = watch::channel(WriterState { writing: Writing::Held, losses: 0 });
        let (stop, stopped) = oneshot::channel();
        tokio::spawn(keep(conn, options, access, tx, stopped));
        WriterLock { state, stop: std::sync::Mutex::new(Some(stop)) }
    }

    /// The lock's state, to wait on.
    pub(crate) fn state(&self) -> watch::Receiver<WriterState> {
        self.state.clone()
    }

    /// `Ok` while the lock is held; else why nothing may be written.
    pub(crate) fn check(&self) -> Result<(), StoreError> {
        match &self.state.borrow().writing {
            Writing::Held => Ok(()),
            Writing::Lost(why) => {
                Err(StoreError::NotWriter(format!("its connection was lost ({why}); it is being taken back")))
            }
            Writing::TakenBy(who) => Err(StoreError::NotWriter(format!("another server took it: {who}"))),
            Writing::Released => Err(StoreError::NotWriter("the store was closed".to_owned())),
        }
    }

    /// Releases the lock and closes its connection; returns once the database has released it.
    pub(crate) async fn release(&self) {
        let stop = self.stop.lock().unwrap_or_else(std::sync::PoisonError::into_inner).take();
        if let Some(stop) = stop {
            let (done, released) = oneshot::channel();
            if stop.send(done).is_ok() {
                let _ = released.await;
            }
        }
    }
}

/// The watching task: keeps the lock, takes it back when lost, releases it when told (or when
/// the store is dropped).
async fn keep(
    conn: PgConnection,
    options: PgConnectOptions,
    access: Access,
    tx: watch::Sender<WriterState>,
    mut stop: oneshot::Receiver<oneshot::Sender<()>>,
) {
    let mut conn = Some(conn);
    loop {
        let Some(held) = conn.as_mut() else {
            // Lost: asked for again every `CHECK_EVERY`.
            tokio::select! {
                () = tokio::time::sleep(CHECK_EVERY) => {}
                done = &mut stop => {
                    tx.send_modify(|s| s.writing = Writing::Released);
                    if let Ok(done) = done { let _ = done.send(()); }
                    return;
                }
            }
            match tokio::time::timeout(ANSWER_WITHIN, retake(&options, &access)).await {
                Ok(Ok(Some(fresh))) => {
                    conn = Some(fresh);
                    tx.send_modify(|s| s.writing = Writing::Held);
                    tracing::info!("this server holds the database's writer lock again: it writes again");
                }
                Ok(Ok(None)) => {}
                Ok(Err(StoreError::InUse(who))) => {
                    tracing::error!(
                        holder = %who,
                        "another server took the database's writer lock while this one had lost it: this \
                         server writes nothing more and stops; keep the other one, or stop it and start \
                         this one again"
                    );
                    tx.send_modify(|s| s.writing = Writing::TakenBy(who));
                    if let Ok(done) = stop.await {
                        let _ = done.send(());
                    }
                    return;
                }
                Ok(Err(e)) => {
                    tracing::debug!(error = %e, "the database's writer lock cannot be asked for yet")
                }
                Err(_) => tracing::debug!("the database did not answer a request for its writer lock"),
            }
            continue;
        };
        let woke = {
            let sleep =
                sqlx::query("SELECT pg_sleep($1)").bind(CHECK_EVERY.as_secs_f64()).execute(&mut *held);
            tokio::select! {
                answered = tokio::time::timeout(ANSWER_WITHIN, sleep) => Ok(answered),
                done = &mut stop => Err(done),
            }
        };
        let why = match woke {
            Ok(Ok(Ok(_))) => continue,
            Ok(Ok(Err(e))) => e.to_string(),
            Ok(Err(_)) => format!("no answer within {} s", ANSWER_WITHIN.as_secs()),
            Err(done) => {
                // Released by a statement, so that the next server is not refused by a backend
                // that has not yet seen this connection close.
                let _ = sqlx::query("SELECT pg_advisory_unlock_all()").execute(&mut *held).await;
                if let Some(c) = conn.take() {
                    let _ = c.close().await;
                }
                tx.send_modify(|s| s.writing = Writing::Released);
                if let Ok(done) = done {
                    let _ = done.send(());
                }
                return;
            }
        };
        tracing::error!(
            error = %why,
            "this server lost the connection holding the database's writer lock: it writes nothing \
             (its matches pause) until it holds the lock again"
        );
        conn = None;
        tx.send_modify(|s| {
            s.writing = Writing::Lost(why);
            s.losses += 1;
        });
    }
}

/// One attempt to take a lost lock back: the connection holding it, `None` when the database
/// cannot be reached or only this server's own lost connection still holds it, or
/// [`StoreError::InUse`] naming another holder.
async fn retake(options: &PgConnectOptions, access: &Access) -> Result<Option<PgConnection>, StoreError> {
    let Ok(mut conn) = options.connect().await else { return Ok(None) };
    if try_lock(&mut conn, access).await? {
        return Ok(Some(conn));
    }
    let mine = options.get_application_name().unwrap_or_default().to_owned();
    let others: Vec<Holder> = holders(&mut conn).await?.into_iter().filter(|h| h.name != mine).collect();
    let _ = conn.close().await;
    let blocking: Vec<Holder> =
        if access.exclusive() { others } else { others.into_iter().filter(|h| h.exclusive).collect() };
    if blocking.is_empty() {
        // This server's lost connection, not yet ended by the database.
        return Ok(None);
    }
    Err(StoreError::InUse(list(&blocking)))
}
