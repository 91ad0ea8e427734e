//! The two stores. One body of SQL serves both (`sql_store!`): numbered placeholders (`$1`) and
//! 64-bit integers mean the same in SQLite and PostgreSQL.

use std::path::Path;
use std::str::FromStr;
use std::time::Duration;

use sqlx::Row;
use sqlx::postgres::{PgPool, PgPoolOptions};
use sqlx::sqlite::{
    SqliteConnectOptions, SqliteJournalMode, SqlitePool, SqlitePoolOptions, SqliteSynchronous,
};

use crate::accounts::{AccountKey, sql_accounts};
use crate::leases::{Leases, Node};
use crate::ratings::{history_row, rating_row, sql_ratings};
use crate::writer::{self, Access, WriterLock, WriterState};
use crate::{
    AccountRow, Accounts, Appending, BoardRow, Ending, EventRow, HistoryRow, MatchRow, NewAccount, NewMatch,
    PlayerRow, RatedMatch, RatingRow, Ratings, Revoke, Role, Store, StoreError, migrate, to_i64, to_u64,
};

/// Milliseconds since the Unix epoch.
pub(crate) fn now_ms() -> i64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_millis() as i64)
}

/// Event rows one `INSERT` carries (five parameters each: well under SQLite's 32,766 and
/// PostgreSQL's 65,535 bound parameters per statement).
const ROWS_PER_INSERT: usize = 500;

/// Connections of a store's pool for the reads that may take long (`reads`), apart from the one
/// the appends, the leases and everything else use.
pub(crate) const READ_CONNECTIONS: u32 = 2;

/// One event row's parameters: its match, number and time, and the row.
type Params<'a> = (i64, i64, i64, &'a EventRow);

/// The write-ahead log's reserve is made only with this many times its size free on the disk.
const FREE_FOR_RESERVE: u64 = 4;

/// The bytes an unprivileged writer may still use on the file system of `path`'s directory.
#[cfg(unix)]
fn free_bytes(path: &Path) -> Option<u64> {
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let vfs = rustix::fs::statvfs(dir).ok()?;
    Some(vfs.f_bavail.saturating_mul(vfs.f_frsize))
}

#[cfg(not(unix))]
fn free_bytes(_: &Path) -> Option<u64> {
    None
}

/// How often the write-ahead log is copied into the database file (a checkpoint).
const CHECKPOINT_EVERY: Duration = Duration::from_secs(1);

/// The write-ahead log's size on opening (see [`Appender::reserve_log`]): about what a busy
/// server appends between two checkpoints (a second of 2,000 commits of two pages each).
const LOG_RESERVE: u64 = 16 << 20;

/// SQLite in one file: WAL journal, `synchronous = FULL` (a commit is on disk before it returns).
///
/// SQLite's automatic checkpoint runs inside the commit that fills the log past 1,000 pages: that
/// commit copies the log into the database and flushes it too, and every match waiting on it
/// waits as long. Under load (a few MB of events a second) that is once a second, and it was the
/// tail of move latency. Here no commit checkpoints; a task of the store does, every
/// second, on a connection of its own (in WAL mode a checkpoint does not block the
/// writer), so the log stays a few seconds of writes long.
///
/// Events are appended on a connection of their own (`Appender`), not one taken from the
/// pool, and on the committing thread itself, not on sqlx's worker thread.
pub struct SqliteStore {
    pool: SqlitePool,
    /// The reads that may take long (review pages, records, profiles): connections of their own
    /// ([`READ_CONNECTIONS`]), so that no read waits in front of a commit or a lease renewal.
    reads: SqlitePool,
    appender: Appender,
    checkpointer: tokio::task::JoinHandle<()>,
}

impl Drop for SqliteStore {
    fn drop(&mut self) {
        self.checkpointer.abort();
    }
}

/// Makes the database file its owner's alone (mode 0600) before SQLite opens it, whatever the
/// umask and the directory's mode (a data directory made beforehand at 0755, as packages and
/// systemd's `StateDirectory` make it): it holds the accounts' password hashes and the session
/// tokens' hashes. SQLite gives its write-ahead log and shared-memory files the database file's
/// mode. A file an older build left readable by others is made the owner's alone, and said.
#[cfg(unix)]
fn owners_alone(path: &Path) -> std::io::Result<()> {
    use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
    match std::fs::OpenOptions::new().write(true).create_new(true).mode(0o600).open(path) {
        Ok(_) => return Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {}
        Err(e) => return Err(e),
    }
    let beside = |suffix: &str| {
        let mut name = path.as_os_str().to_owned();
        name.push(suffix);
        std::path::PathBuf::from(name)
    };
    for file in [path.to_path_buf(), beside("-wal"), beside("-shm")] {
        let Ok(meta) = std::fs::metadata(&file) else { continue };
        if meta.permissions().mode() & 0o077 != 0 {
            std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o600))?;
            tracing::warn!(file = %file.display(), "the database file was readable by others: made its owner's alone (0600)");
        }
    }
    Ok(())
}

#[cfg(not(unix))]
fn owners_alone(_: &Path) -> std::io::Result<()> {
    Ok(())
}

impl SqliteStore {
    /// Opens (creating if needed) the database file and migrates it.
    ///
    /// # Errors
    /// [`StoreError`] when the file cannot be opened or migrated.
    pub async fn open(path: &Path) -> Result<SqliteStore, StoreError> {
        SqliteStore::open_checkpointing(path, CHECKPOINT_EVERY, LOG_RESERVE).await
    }

    /// As [`SqliteStore::open`], checkpointing every `every` (tests use a long time, to see
    /// that no commit checkpoints), with a write-ahead log of at least `log_reserve` bytes from
    /// the start.
    ///
    /// # Errors
    /// As [`SqliteStore::open`].
    pub async fn open_checkpointing(
        path: &Path,
        every: Duration,
        log_reserve: u64,
    ) -> Result<SqliteStore, StoreError> {
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).map_err(|e| StoreError::Database(sqlx::Error::Io(e)))?;
        }
        owners_alone(path).map_err(|e| StoreError::Database(sqlx::Error::Io(e)))?;
        let options = SqliteConnectOptions::new()
            .filename(path)
            .create_if_missing(true)
            .journal_mode(SqliteJournalMode::Wal)
            .synchronous(SqliteSynchronous::Full)
            .foreign_keys(true)
            .busy_timeout(BUSY_TIMEOUT)
            .pragma("wal_autocheckpoint", "0");
        // No ping before each use: a file does not drop its connections as a server can.
        let pool = SqlitePoolOptions::new()
            .max_connections(4)
            .test_before_acquire(false)
            .connect_with(options.clone())
            .await?;
        // In WAL mode readers never block the writer, nor it them.
        let reads = SqlitePoolOptions::new()
            .max_connections(READ_CONNECTIONS)
            .test_before_acquire(false)
            .connect_with(options.clone().read_only(true).create_if_missing(false))
            .await?;
        let appender = Appender::open(path)?;
        // The checkpoints' own connection: a restart waits for the write lock and the readers
        // only a moment (see `checkpoints`).
        let checkpointing =
            sqlx::ConnectOptions::connect(&options.clone().busy_timeout(RESTART_WAIT)).await?;
        let checkpointer = tokio::spawn(checkpoints(checkpointing, every));
        let store = SqliteStore { pool, reads, appender, checkpointer };
        store.migrate(migrate::SQLITE).await?;
        // On a disk with little room the reserve would take what the database needs.
        let log_reserve = if free_bytes(path).is_some_and(|free| free < FREE_FOR_RESERVE * log_reserve) {
            tracing::warn!(
                "less than {} MiB free beside the database: no write-ahead log reserve (commits are slower)",
                (FREE_FOR_RESERVE * log_reserve) >> 20
            );
            0
        } else {
            log_reserve
        };
        match on_this_thread(|| store.appender.reserve_log(log_reserve)) {
            // A nearly full disk: the server starts without the reserve (its reads are served;
            // its writes are refused as a full disk's until space returns).
            Err(e) if e.is_full() => {
                // What the reserve wrote before the disk filled is given back.
                let truncated = on_this_thread(|| store.appender.truncate_log());
                tracing::warn!(error = %e, truncated = truncated.is_ok(), "no room on the disk for the write-ahead log's reserve; going on without it");
            }
            reserved => reserved?,
        }
        Ok(store)
    }

    /// Appends `rows` on the calling thread, atomically and durably (see [`Appender`]). While
    /// another connection holds SQLite's write lock, the append waits in place only a moment
    /// ([`BUSY_TRIES`] of [`BUSY_RETRY`], 5 ms); past it, it gives the thread back to the runtime and tries again
    /// ([`BUSY_WAIT`], until [`BUSY_TIMEOUT`]). Waiting in place longer could wait forever: the
    /// write lock's holder may be a transaction of the pool (a session's row) whose next
    /// statement needs a task of this very runtime, which a thread held in place does not run
    /// (on one thread; and on several, when that task is queued behind this one).
    async fn append_rows(&self, _: &[Appending<'_>], rows: &[Params<'_>]) -> Result<(), StoreError> {
        let started = std::time::Instant::now();
        loop {
            match on_this_thread(|| self.appender.append(rows)) {
                Err(e) if is_busy(&e) && started.elapsed() < BUSY_TIMEOUT => {
                    tokio::time::sleep(BUSY_WAIT).await;
                }
                done => return done,
            }
        }
    }

    #[allow(clippy::unused_async)]
    async fn check_role(&self, _: &mut sqlx::SqliteConnection) -> Result<(), StoreError> {
        Ok(())
    }

    fn as_leases(&self) -> Option<&dyn Leases> {
        None
    }

    /// The pool. A data directory has a lock of its own (the server's, on its file `lock`).
    #[allow(clippy::unnecessary_wraps)]
    fn db(&self) -> Result<&SqlitePool, StoreError> {
        Ok(&self.pool)
    }

    #[allow(clippy::unused_self)]
    fn writer_lock(&self) -> Option<tokio::sync::watch::Receiver<WriterState>> {
        None
    }

    #[allow(clippy::unused_async, clippy::unused_self)]
    async fn release(&self) {}
}

/// SQLite's appends, through rusqlite on a connection of their own, run on the thread that asks
/// ([`on_this_thread`]). sqlx runs each statement of a connection on a worker thread of its own;
/// a commit then cost two wake-ups of sleeping threads, there and back, on top of the flush
/// (a commit alone, measured here: 300–330 µs through sqlx, 190–230 µs in place).
struct Appender(std::sync::Mutex<rusqlite::Connection>);

/// How often, and how many times, the appender tries again in place while another connection
/// writes: 100 µs apart for 5 ms (longer than a flush of the pool's transactions takes).
const BUSY_RETRY: Duration = Duration::from_micros(100);
const BUSY_TRIES: i32 = 50;

/// How long an append that found the file busy for 5 ms waits, off the thread, before
/// it tries again; and how long it tries at most (the pool's busy timeout).
const BUSY_WAIT: Duration = Duration::from_millis(1);
const BUSY_TIMEOUT: Duration = Duration::from_secs(10); // the pool's busy timeout too

/// The appender's busy handler. SQLite's own (`busy_timeout`) sleeps 1, 2, 5, 10 … 100 ms
/// between tries, so a commit that found the pool writing (a new guest's row, a session seen)
/// waited up to tens of milliseconds after the file was free again, and every match of the
/// batch with it. This one tries again every 100 µs: under a crowd of 2,000 guests arriving and
/// leaving (each a row written through the pool) the honest p99 went from 95–127 ms to 36–66 ms
/// (docs/benchmarks.md, the attack suite's crowd). It gives up after 5 ms: the append
/// then waits off the thread (`SqliteStore::append_rows`).
fn retry_soon(tries: i32) -> bool {
    if tries >= BUSY_TRIES {
        return false;
    }
    std::thread::sleep(BUSY_RETRY);
    true
}

/// Whether an append failed only because another connection held the write lock (nothing of it
/// was written: a statement or transaction that gets `SQLITE_BUSY` is not committed).
fn is_busy(e: &StoreError) -> bool {
    matches!(e, StoreError::Sqlite(rusqlite::Error::SqliteFailure(f, _))
        if f.code == rusqlite::ErrorCode::DatabaseBusy)
}

impl Appender {
    /// Opens the database file (created by the pool, in WAL mode) with the settings of the pool's
    /// connections.
    fn open(path: &Path) -> Result<Appender, StoreError> {
        let conn = rusqlite::Connection::open(path)?;
        conn.busy_handler(Some(retry_soon))?;
        let mode: String = conn.query_row("PRAGMA journal_mode", [], |r| r.get(0))?;
        if !mode.eq_ignore_ascii_case("wal") {
            return Err(StoreError::Range(format!("the SQLite journal is {mode}, not WAL")));
        }
        conn.execute_batch(
            "PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON; PRAGMA wal_autocheckpoint = 0;",
        )?;
        Ok(Appender(std::sync::Mutex::new(conn)))
    }

    /// Grows the write-ahead log to at least `bytes`, committing nothing. A commit that appends
    /// to the log's end grows the file, and its flush then also writes the file system's record
    /// of the new blocks and size: measured here, a one-row commit took 210–400 µs so, against
    /// 110–140 µs writing over a log already that long (the log is reused from its start after
    /// each checkpoint, so a server that has run a while writes over it anyway). The reserve is
    /// written by SQLite itself: a transaction too big for a tiny page cache spills its pages
    /// into the log and is rolled back; frames past the last commit are never read.
    fn reserve_log(&self, bytes: u64) -> Result<(), StoreError> {
        let mut conn = self.0.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        let wal = conn.path().map(|p| std::path::PathBuf::from(format!("{p}-wal")));
        if bytes == 0 || wal.is_some_and(|w| std::fs::metadata(w).is_ok_and(|m| m.len() >= bytes)) {
            return Ok(());
        }
        let cache: i64 = conn.query_row("PRAGMA cache_size", [], |r| r.get(0))?;
        conn.execute_batch("PRAGMA cache_size = -64")?;
        let reserved = (|| {
            let tx = conn.transaction()?;
            tx.execute_batch("CREATE TABLE shvedka_log_reserve (b BLOB)")?;
            tx.execute("INSERT INTO shvedka_log_reserve VALUES (zeroblob(?1))", [to_i64(bytes)?])?;
            tx.rollback()?;
            Ok::<(), StoreError>(())
        })();
        // The page cache is the appends' own again, whether the reserve was made or not.
        conn.pragma_update(None, "cache_size", cache)?;
        reserved
    }

    /// Empties the write-ahead log (after a checkpoint of what it holds) and gives its file's
    /// space back.
    fn truncate_log(&self) -> Result<(), StoreError> {
        let conn = self.0.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        conn.query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |_| Ok(()))?;
        Ok(())
    }

    /// Appends `rows` atomically and durably: one statement usually; a row stored already makes
    /// it fail whole and untouched, and the careful path then tells a retried commit (the same
    /// event) from a forked log (another), in one transaction.
    fn append(&self, rows: &[Params<'_>]) -> Result<(), StoreError> {
        // A panic while it was held (a bug) left no transaction open: `Transaction` rolls back
        // when dropped.
        let mut conn = self.0.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if rows.len() <= ROWS_PER_INSERT {
            match conn.prepare_cached(&insert_sql(rows.len(), false))?.execute(params(rows)) {
                Ok(_) => return Ok(()),
                Err(rusqlite::Error::SqliteFailure(e, _))
                    if e.extended_code == rusqlite::ffi::SQLITE_CONSTRAINT_PRIMARYKEY
                        || e.extended_code == rusqlite::ffi::SQLITE_CONSTRAINT_UNIQUE => {}
                Err(e) => return Err(e.into()),
            }
        }
        let tx = conn.transaction()?;
        for chunk in rows.chunks(ROWS_PER_INSERT) {
            let inserted = {
                let mut insert = tx.prepare_cached(&insert_sql(chunk.len(), true))?;
                insert
                    .query_map(params(chunk), |r| Ok((r.get::<_, i64>(0)?, r.get::<_, i64>(1)?)))?
                    .collect::<Result<std::collections::HashSet<_>, _>>()?
            };
            for &(id, seq, _, e) in chunk {
                if inserted.contains(&(id, seq)) {
                    continue;
                }
                let stored: String = tx
                    .prepare_cached("SELECT event FROM events WHERE match_id = ?1 AND seq = ?2")?
                    .query_row((id, seq), |r| r.get(0))?;
                if stored != e.event {
                    return Err(StoreError::Conflict { match_id: to_u64(id)?, seq: e.seq });
                }
            }
        }
        tx.commit()?;
        Ok(())
    }
}

/// `INSERT` of `n` event rows; with `careful`, rows stored already are skipped and the stored
/// ones returned.
fn insert_sql(n: usize, careful: bool) -> String {
    let mut sql = String::with_capacity(64 + 16 * n);
    sql.push_str("INSERT INTO events (match_id, seq, at_us, event, view) VALUES ");
    for i in 0..n {
        sql.push_str(if i == 0 { "(?, ?, ?, ?, ?)" } else { ", (?, ?, ?, ?, ?)" });
    }
    if careful {
        sql.push_str(" ON CONFLICT (match_id, seq) DO NOTHING RETURNING match_id, seq");
    }
    sql
}

/// The parameters of `rows`, in the order of [`insert_sql`].
fn params<'a>(
    rows: &'a [Params<'a>],
) -> rusqlite::ParamsFromIter<impl Iterator<Item = &'a dyn rusqlite::ToSql>> {
    rusqlite::params_from_iter(
        rows.iter()
            .flat_map(|(id, seq, at_us, e)| [id as &dyn rusqlite::ToSql, seq, at_us, &e.event, &e.view]),
    )
}

/// Runs `f`, which blocks (a disk flush), on this thread: on a multi-threaded tokio runtime in
/// [`tokio::task::block_in_place`], so the worker's other tasks move to another thread
/// meanwhile; elsewhere (a current-thread runtime, as in tests) simply in place.
fn on_this_thread<T>(f: impl FnOnce() -> T) -> T {
    match tokio::runtime::Handle::try_current() {
        Ok(h) if h.runtime_flavor() == tokio::runtime::RuntimeFlavor::MultiThread => {
            tokio::task::block_in_place(f)
        }
        _ => f(),
    }
}

/// Log frames (pages) past which a checkpoint also restarts the log: [`LOG_RESERVE`]'s worth.
const RESTART_ABOVE: i64 = (LOG_RESERVE / 4096) as i64;

/// How long a restarting checkpoint waits for the write lock and for readers of the old log
/// before it gives up until the next one: appends wait behind it meanwhile.
const RESTART_WAIT: Duration = Duration::from_millis(20);

/// Copies the write-ahead log into the database every `every` (`PASSIVE`: what no reader still
/// needs; the rest next time). A failure is logged and tried again: the log only grows
/// meanwhile, and the next commit still works.
///
/// SQLite writes the log from its start again only after a checkpoint found every frame copied.
/// Under steady load commits land while each passive checkpoint copies, so none ever does: at
/// 2,000 matches the log grew by 35 MB a second without end (2.3 GB after 70 s, and the kernel
/// zeroing each new block was 5 % of the server's CPU). So once the log is longer than its
/// reserve, a `RESTART` checkpoint follows: it holds the next commit back while it copies the
/// few frames committed since the passive one, so that the next commit starts the log over. It
/// waits at most [`RESTART_WAIT`] for a reader still on the old log; then the next tick tries.
async fn checkpoints(mut conn: sqlx::SqliteConnection, every: Duration) {
    let mut every = tokio::time::interval_at(tokio::time::Instant::now() + every, every);
    every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    // Failures in a row (a full disk fails every tick): said at the first, then once a minute.
    let (mut failures, mut said) = (0u64, tokio::time::Instant::now());
    loop {
        every.tick().await;
        let log = match sqlx::query_as::<_, (i64, i64, i64)>("PRAGMA wal_checkpoint(PASSIVE)")
            .fetch_one(&mut conn)
            .await
        {
            Ok((_, log, _)) => {
                if failures > 0 {
                    tracing::info!(failures, "SQLite checkpoints succeed again");
                    failures = 0;
                }
                log
            }
            Err(e) => {
                failures += 1;
                if failures == 1 || said.elapsed() >= Duration::from_secs(60) {
                    said = tokio::time::Instant::now();
                    let e = StoreError::Database(e);
                    let full = e.is_full();
                    tracing::warn!(error = %e, failures, full, "SQLite checkpoint failed; trying again every tick");
                }
                continue;
            }
        };
        if log > RESTART_ABOVE
            && let Err(e) = sqlx::query("PRAGMA wal_checkpoint(RESTART)").execute(&mut conn).await
        {
            tracing::debug!(error = %e, frames = log, "the SQLite log could not be restarted now; next time");
        }
    }
}

/// Connections for a node's heartbeats, at most: as many as it may have on their way at once
/// over a slow link (the server sends one every `lease_renew_ms`, at most four at a time).
pub const BEAT_CONNECTIONS: u32 = 4;

/// PostgreSQL at a URL (`postgres://user:pass@host/db`); with [`PgStore::connect_node`], one
/// node of a cluster, whose appends are fenced by its leases (`leases.rs`).
pub struct PgStore {
    pool: PgPool,
    /// The reads that may take long, on connections of their own ([`READ_CONNECTIONS`]): the
    /// appends and the leases' renewals never wait behind a crowd's reviews.
    reads: PgPool,
    /// A node's heartbeats, on connections of their own (one kept open, up to
    /// [`BEAT_CONNECTIONS`]): a renewal never waits for a connection busy with appends, and the
    /// node may have several on their way at once over a slow link.
    beats: Option<PgPool>,
    node: Option<Node>,
    /// The database's writer lock held for this server (`writer.rs`); `None` for a tool.
    lock: Option<WriterLock>,
}

impl PgStore {
    /// Connects and migrates, as the database's only writer (a server without `[cluster]`):
    /// holds the database's writer lock exclusively while the store is open (`writer.rs`).
    ///
    /// # Errors
    /// [`StoreError::InUse`], naming the holder, while another server holds the writer lock;
    /// [`StoreError`] when the server cannot be reached or the schema cannot be migrated.
    pub async fn connect(url: &str) -> Result<PgStore, StoreError> {
        PgStore::connect_as(url, None, Access::Standalone).await
    }

    /// As a tool beside the server (`shvedka admin`, a test's look at the database): takes no
    /// writer lock, except to migrate a schema older than this build's (refused while a server
    /// runs on it).
    ///
    /// # Errors
    /// As [`PgStore::connect`].
    pub async fn connect_tool(url: &str) -> Result<PgStore, StoreError> {
        PgStore::connect_as(url, None, Access::Tool).await
    }

    /// Connects and migrates as the node `name` of a cluster, whose leases last `lease` after
    /// each [`Leases::heartbeat`]: every append then needs this node's current lease on its match.
    ///
    /// # Errors
    /// As [`PgStore::connect`]; a lease too long to count in milliseconds.
    pub async fn connect_node(url: &str, name: &str, lease: Duration) -> Result<PgStore, StoreError> {
        PgStore::connect_as(url, Some(Node::new(name, lease)?), Access::Node(name.to_owned())).await
    }

    async fn connect_as(url: &str, node: Option<Node>, access: Access) -> Result<PgStore, StoreError> {
        crate::reach::check_scheme(url)?;
        let mut options = sqlx::postgres::PgConnectOptions::from_str(url).map_err(|e| {
            StoreError::Unreachable(format!("database_url does not read as a PostgreSQL URL: {e}"))
        })?;
        if let Some(node) = &node {
            // A node cut off in the middle of an append holds its transaction open, and with it
            // the lock on the match's lease row that a take-over waits for: the database ends
            // such a transaction after a lease (by then the node has let its matches go).
            options = options.options([("idle_in_transaction_session_timeout", node.lease_ms().to_string())]);
        }
        // The writer lock first: nothing is read or migrated by a server that may not write.
        let named = writer::named(&options, &access);
        let reach = |e| crate::reach::unreachable(&options, e);
        let held = match access {
            Access::Tool => None,
            _ => Some(
                tokio::time::timeout(crate::reach::CONNECT_WITHIN, writer::take(&named, &access))
                    .await
                    .map_err(|_| crate::reach::timed_out(&options))?
                    .map_err(reach)?,
            ),
        };
        // No ping before each use (a round trip to the server on every commit): a connection the
        // server dropped fails its next statement, which is retried on a fresh one.
        let pool = PgPoolOptions::new()
            .max_connections(8)
            .acquire_timeout(crate::reach::CONNECT_WITHIN)
            .test_before_acquire(false)
            .connect_with(options.clone())
            .await
            .map_err(|e| reach(e.into()))?;
        let reads = PgPoolOptions::new()
            .max_connections(READ_CONNECTIONS)
            .acquire_timeout(crate::reach::CONNECT_WITHIN)
            .test_before_acquire(false)
            .connect_with(options.clone())
            .await
            .map_err(|e| reach(e.into()))?;
        let beats = match &node {
            Some(_) => Some(
                PgPoolOptions::new()
                    .max_connections(BEAT_CONNECTIONS)
                    .min_connections(1)
                    .acquire_timeout(Duration::from_secs(10))
                    .test_before_acquire(false)
                    .connect_with(options.clone())
                    .await?,
            ),
            None => None,
        };
        let mut store = PgStore { pool, reads, beats, node, lock: None };
        match held {
            Some(mut conn) => {
                writer::migrating(&mut conn, store.migrate(migrate::POSTGRES)).await?;
                store.lock = Some(WriterLock::watch(conn, named, access));
            }
            None if store.behind(migrate::POSTGRES).await? => {
                // A tool migrates only as the database's one writer, for the migration.
                let mut conn = writer::take(&named, &Access::Tool).await?;
                writer::migrating(&mut conn, store.migrate(migrate::POSTGRES)).await?;
                let _ = sqlx::Connection::close(conn).await;
            }
            None => {}
        }
        Ok(store)
    }

    /// Whether the schema lacks a script of `scripts` (a database no server of this build has
    /// migrated yet).
    async fn behind(&self, scripts: &[(i64, &str)]) -> Result<bool, StoreError> {
        let ledger: Option<String> = sqlx::query("SELECT to_regclass('shvedka_migrations')::text")
            .fetch_one(&self.pool)
            .await?
            .try_get(0)?;
        if ledger.is_none() {
            return Ok(true);
        }
        let applied: Vec<i64> = sqlx::query("SELECT version FROM shvedka_migrations")
            .fetch_all(&self.pool)
            .await?
            .iter()
            .map(|r| r.try_get::<i64, _>(0))
            .collect::<Result<_, _>>()?;
        Ok(scripts.iter().any(|(v, _)| !applied.contains(v)))
    }

    /// The pool, while this server holds the database's writer lock (a tool always).
    fn db(&self) -> Result<&PgPool, StoreError> {
        if let Some(lock) = &self.lock {
            lock.check()?;
        }
        Ok(&self.pool)
    }

    fn writer_lock(&self) -> Option<tokio::sync::watch::Receiver<WriterState>> {
        self.lock.as_ref().map(WriterLock::state)
    }

    async fn release(&self) {
        if let Some(lock) = &self.lock {
            lock.release().await;
        }
    }

    /// The connection events are appended on: one from the pool.
    async fn writer(&self) -> Result<sqlx::pool::PoolConnection<sqlx::Postgres>, StoreError> {
        Ok(self.db()?.acquire().await?)
    }

    /// This store as a node of a cluster, if it is one.
    pub(crate) fn cluster_node(&self) -> Option<&Node> {
        self.node.as_ref()
    }

    pub(crate) fn pool(&self) -> Result<&PgPool, StoreError> {
        self.db()
    }

    /// Where a node's heartbeats go (see `beats`).
    pub(crate) fn beats(&self) -> &PgPool {
        self.beats.as_ref().unwrap_or(&self.pool)
    }

    /// A node's appends are fenced: they take the careful path, in a transaction.
    fn fenced(&self) -> bool {
        self.node.is_some()
    }

    fn as_leases(&self) -> Option<&dyn Leases> {
        self.node.is_some().then_some(self as &dyn Leases)
    }
}

impl PgStore {
    /// Appends `rows` (those of `batch`), atomically and durably.
    async fn append_rows(&self, batch: &[Appending<'_>], rows: &[Params<'_>]) -> Result<(), StoreError> {
        let insert = |chunk: &[Params<'_>]| {
            let mut insert =
                sqlx::QueryBuilder::new("INSERT INTO events (match_id, seq, at_us, event, view) ");
            insert.push_values(chunk.iter().copied(), |mut row, (id, seq, at_us, e)| {
                row.push_bind(id).push_bind(seq).push_bind(at_us).push_bind(&e.event).push_bind(&e.view);
            });
            insert
        };
        // The usual commit: one statement, atomic and durable by itself, so one trip to
        // the database instead of three (begin, insert, commit). A row stored already makes it fail whole and untouched; the
        // careful path below then tells a retry from a fork.
        let mut writer = crate::careful::Careful::new(self.writer().await?);
        if rows.len() <= ROWS_PER_INSERT && !self.fenced() {
            match insert(rows).build().execute(&mut **writer).await {
                Ok(_) => {
                    writer.done();
                    return Ok(());
                }
                Err(sqlx::Error::Database(e)) if e.is_unique_violation() => {}
                Err(e) => return Err(e.into()),
            }
        }
        let mut tx = sqlx::Connection::begin(&mut **writer).await?;
        // A node of a cluster: its fences, checked and held until the commit.
        self.check_fences(&mut tx, batch).await?;
        // One statement per chunk of rows, not one per row: each statement is a trip to
        // the database, and a busy server appends a few events for each of dozens of
        // matches per commit.
        for chunk in rows.chunks(ROWS_PER_INSERT) {
            let mut insert = insert(chunk);
            insert.push(" ON CONFLICT (match_id, seq) DO NOTHING RETURNING match_id, seq");
            let inserted: std::collections::HashSet<(i64, i64)> = insert
                .build()
                .fetch_all(&mut *tx)
                .await?
                .iter()
                .map(|r| Ok::<_, StoreError>((r.try_get(0)?, r.try_get(1)?)))
                .collect::<Result<_, _>>()?;
            for &(id, seq, _, e) in chunk {
                if inserted.contains(&(id, seq)) {
                    continue;
                }
                // Stored already: the same event retried after a lost acknowledgement is
                // written; anything else would fork the log (and the whole batch rolls
                // back).
                let stored = sqlx::query("SELECT event FROM events WHERE match_id = $1 AND seq = $2")
                    .bind(id)
                    .bind(seq)
                    .fetch_one(&mut *tx)
                    .await?;
                if stored.try_get::<String, _>(0)? != e.event {
                    return Err(StoreError::Conflict { match_id: to_u64(id)?, seq: e.seq });
                }
            }
        }
        tx.commit().await?;
        writer.done();
        Ok(())
    }
}

macro_rules! match_row {
    ($r:expr) => {{
        let r = $r;
        let finished: Option<i64> = r.try_get(6)?;
        Ok(MatchRow {
            created: NewMatch {
                id: to_u64(r.try_get(0)?)?,
                rules: r.try_get(1)?,
                time_control: r.try_get(2)?,
                listed: r.try_get::<i64, _>(3)? != 0,
                config: r.try_get(4)?,
                created_ms: to_u64(r.try_get(5)?)?,
                invite_hash: r.try_get(9)?,
                rated: r.try_get::<i64, _>(10)? != 0,
            },
            finished_ms: finished.map(to_u64).transpose()?,
            result: r.try_get(7)?,
            ending: r.try_get::<Option<String>, _>(8)?.as_deref().and_then(Ending::parse),
        })
    }};
}

macro_rules! player_row {
    ($r:expr) => {{
        let r = $r;
        let created_ms = to_u64(r.try_get(3)?)?;
        let last_seen: Option<i64> = r.try_get(4)?;
        Ok::<_, StoreError>(PlayerRow {
            id: to_u64(r.try_get(0)?)?,
            name: r.try_get(1)?,
            token_hash: r.try_get(2)?,
            created_ms,
            last_seen_ms: last_seen.map(to_u64).transpose()?.unwrap_or(created_ms),
            account: r.try_get::<Option<i64>, _>(5)?.map(to_u64).transpose()?,
            revoked: r.try_get::<i64, _>(6)? != 0,
        })
    }};
}

macro_rules! sql_store {
    ($store:ident, $kind:literal) => {
        impl $store {
            async fn migrate(&self, scripts: &'static [(i64, &'static str)]) -> Result<(), StoreError> {
                sqlx::raw_sql(migrate::CREATE_LEDGER).execute(&self.pool).await?;
                let applied: Vec<i64> = sqlx::query("SELECT version FROM shvedka_migrations")
                    .fetch_all(&self.pool)
                    .await?
                    .iter()
                    .map(|r| r.try_get::<i64, _>(0))
                    .collect::<Result<_, _>>()?;
                for &(version, script) in scripts {
                    if applied.contains(&version) {
                        continue;
                    }
                    let wrap = |source| StoreError::Migration { version, source };
                    let mut tx = self.pool.begin().await.map_err(wrap)?;
                    sqlx::raw_sql(script).execute(&mut *tx).await.map_err(wrap)?;
                    sqlx::query("INSERT INTO shvedka_migrations (version, applied_ms) VALUES ($1, $2)")
                        .bind(version)
                        .bind(now_ms())
                        .execute(&mut *tx)
                        .await
                        .map_err(wrap)?;
                    tx.commit().await.map_err(wrap)?;
                    tracing::info!(version, store = $kind, "database migrated");
                }
                Ok(())
            }
        }

        #[async_trait::async_trait]
        impl Store for $store {
            fn kind(&self) -> &'static str {
                $kind
            }

            fn leases(&self) -> Option<&dyn Leases> {
                self.as_leases()
            }

            fn writer_lock(&self) -> Option<tokio::sync::watch::Receiver<WriterState>> {
                $store::writer_lock(self)
            }

            async fn close(&self) {
                self.release().await;
            }

            async fn add_player(&self, p: &PlayerRow) -> Result<(), StoreError> {
                self.write_players(std::slice::from_ref(p), &[]).await
            }

            async fn player_by_token(&self, token_hash: &str) -> Result<Option<PlayerRow>, StoreError> {
                let row = sqlx::query(
                    "SELECT id, name, token_hash, created_ms, last_seen_ms, account_id, revoked FROM players WHERE token_hash = $1",
                )
                .bind(token_hash)
                .fetch_optional(self.db()?)
                .await?;
                row.as_ref().map(|r| player_row!(r)).transpose()
            }

            async fn player(&self, id: u64) -> Result<Option<PlayerRow>, StoreError> {
                let row = sqlx::query(
                    "SELECT id, name, token_hash, created_ms, last_seen_ms, account_id, revoked FROM players WHERE id = $1",
                )
                .bind(to_i64(id)?)
                .fetch_optional(self.db()?)
                .await?;
                row.as_ref().map(|r| player_row!(r)).transpose()
            }

            async fn touch_player(&self, id: u64, ms: u64) -> Result<(), StoreError> {
                self.write_players(&[], &[(id, ms)]).await
            }

            async fn write_players(&self, added: &[PlayerRow], seen: &[(u64, u64)]) -> Result<(), StoreError> {
                let mut tx = self.db()?.begin().await?;
                for p in added {
                    sqlx::query(
                        "INSERT INTO players (id, name, token_hash, created_ms, last_seen_ms, account_id, revoked) \
                         VALUES ($1, $2, $3, $4, $5, $6, $7)",
                    )
                    .bind(to_i64(p.id)?)
                    .bind(&p.name)
                    .bind(&p.token_hash)
                    .bind(to_i64(p.created_ms)?)
                    .bind(to_i64(p.last_seen_ms)?)
                    .bind(p.account.map(to_i64).transpose()?)
                    .bind(i64::from(p.revoked))
                    .execute(&mut *tx)
                    .await?;
                }
                for &(id, ms) in seen {
                    sqlx::query("UPDATE players SET last_seen_ms = $1 WHERE id = $2")
                        .bind(to_i64(ms)?)
                        .bind(to_i64(id)?)
                        .execute(&mut *tx)
                        .await?;
                }
                tx.commit().await?;
                Ok(())
            }

            async fn add_match(&self, m: &NewMatch) -> Result<(), StoreError> {
                sqlx::query(
                    "INSERT INTO matches (id, rules, time_control, listed, config, created_ms, invite_hash, rated) \
                     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
                )
                .bind(to_i64(m.id)?)
                .bind(&m.rules)
                .bind(&m.time_control)
                .bind(i64::from(m.listed))
                .bind(&m.config)
                .bind(to_i64(m.created_ms)?)
                .bind(&m.invite_hash)
                .bind(i64::from(m.rated))
                .execute(self.db()?)
                .await?;
                Ok(())
            }

            async fn append(&self, match_id: u64, events: &[EventRow]) -> Result<(), StoreError> {
                let fence = self.leases().and_then(|l| l.fence(match_id));
                self.append_batch(&[Appending { match_id, fence, events }]).await
            }

            async fn append_batch(&self, batch: &[Appending<'_>]) -> Result<(), StoreError> {
                if batch.iter().all(|a| a.events.is_empty()) {
                    return Ok(());
                }
                let mut rows = Vec::new();
                for &Appending { match_id, events, .. } in batch {
                    for e in events {
                        rows.push((to_i64(match_id)?, to_i64(e.seq)?, to_i64(e.at_us)?, e));
                    }
                }
                self.append_rows(batch, &rows).await
            }

            async fn finish(&self, match_id: u64, result: &str, finished_ms: u64) -> Result<(), StoreError> {
                sqlx::query("UPDATE matches SET result = $1, finished_ms = $2, ending = $3 WHERE id = $4")
                    .bind(result)
                    .bind(to_i64(finished_ms)?)
                    .bind(Ending::Decided.as_str())
                    .bind(to_i64(match_id)?)
                    .execute(self.db()?)
                    .await?;
                Ok(())
            }

            async fn add_match_players(&self, match_id: u64, names: &[String; 4]) -> Result<(), StoreError> {
                let mut tx = self.db()?.begin().await?;
                for (seat, name) in names.iter().enumerate() {
                    sqlx::query(
                        "INSERT INTO match_players (match_id, seat, name, name_key) VALUES ($1, $2, $3, $4) \
                         ON CONFLICT (match_id, seat) DO NOTHING",
                    )
                    .bind(to_i64(match_id)?)
                    .bind(seat as i64)
                    .bind(name)
                    .bind(name.to_lowercase())
                    .execute(&mut *tx)
                    .await?;
                }
                tx.commit().await?;
                Ok(())
            }

            async fn player_matches(&self, name: &str, limit: u32) -> Result<Vec<u64>, StoreError> {
                let rows = sqlx::query(
                    "SELECT DISTINCT match_id FROM match_players WHERE name_key = $1 ORDER BY match_id DESC LIMIT $2",
                )
                .bind(name.to_lowercase())
                .bind(i64::from(limit))
                .fetch_all(&self.reads)
                .await?;
                rows.iter().map(|r| to_u64(r.try_get::<i64, _>(0)?)).collect()
            }

            async fn match_players(&self, match_id: u64) -> Result<Vec<(u8, String)>, StoreError> {
                let rows = sqlx::query("SELECT seat, name FROM match_players WHERE match_id = $1 ORDER BY seat")
                    .bind(to_i64(match_id)?)
                    .fetch_all(&self.reads)
                    .await?;
                rows.iter()
                    .map(|r| Ok((u8::try_from(r.try_get::<i64, _>(0)?).unwrap_or(u8::MAX), r.try_get::<String, _>(1)?)))
                    .collect()
            }

            async fn end_match(&self, match_id: u64, ending: Ending, ended_ms: u64) -> Result<(), StoreError> {
                sqlx::query("UPDATE matches SET finished_ms = $1, ending = $2, result = NULL WHERE id = $3")
                    .bind(to_i64(ended_ms)?)
                    .bind(ending.as_str())
                    .bind(to_i64(match_id)?)
                    .execute(self.db()?)
                    .await?;
                Ok(())
            }

            async fn matches(&self, unfinished_only: bool) -> Result<Vec<MatchRow>, StoreError> {
                let sql = if unfinished_only {
                    "SELECT id, rules, time_control, listed, config, created_ms, finished_ms, result, ending, invite_hash, rated \
                     FROM matches WHERE finished_ms IS NULL ORDER BY id"
                } else {
                    "SELECT id, rules, time_control, listed, config, created_ms, finished_ms, result, ending, invite_hash, rated \
                     FROM matches ORDER BY id"
                };
                let rows = sqlx::query(sql).fetch_all(self.db()?).await?;
                rows.iter().map(|r| match_row!(r)).collect()
            }

            async fn find_match(&self, match_id: u64) -> Result<Option<MatchRow>, StoreError> {
                let row = sqlx::query(
                    "SELECT id, rules, time_control, listed, config, created_ms, finished_ms, result, ending, invite_hash, rated \
                     FROM matches WHERE id = $1",
                )
                .bind(to_i64(match_id)?)
                .fetch_optional(self.db()?)
                .await?;
                row.as_ref().map(|r| match_row!(r)).transpose()
            }

            async fn events_page(&self, match_id: u64, from: u64, limit: u32) -> Result<Vec<EventRow>, StoreError> {
                let rows = sqlx::query(
                    "SELECT seq, at_us, event, view FROM events WHERE match_id = $1 AND seq >= $2 ORDER BY seq LIMIT $3",
                )
                .bind(to_i64(match_id)?)
                .bind(to_i64(from)?)
                .bind(i64::from(limit))
                .fetch_all(&self.reads)
                .await?;
                rows.iter()
                    .map(|r| {
                        Ok(EventRow {
                            seq: to_u64(r.try_get(0)?)?,
                            at_us: to_u64(r.try_get(1)?)?,
                            event: r.try_get(2)?,
                            view: r.try_get(3)?,
                        })
                    })
                    .collect()
            }

            async fn events(&self, match_id: u64) -> Result<Vec<EventRow>, StoreError> {
                self.events_page(match_id, 0, u32::MAX).await
            }

            async fn save_tournament(&self, id: u64, state: &str) -> Result<(), StoreError> {
                let mut tx = self.db()?.begin().await?;
                // A node of a cluster saves only while it drives the tournaments.
                self.check_role(&mut *tx).await?;
                sqlx::query(
                    "INSERT INTO tournaments (id, state, updated_ms) VALUES ($1, $2, $3) \
                     ON CONFLICT (id) DO UPDATE SET state = excluded.state, updated_ms = excluded.updated_ms",
                )
                .bind(to_i64(id)?)
                .bind(state)
                .bind(now_ms())
                .execute(&mut *tx)
                .await?;
                tx.commit().await?;
                Ok(())
            }

            async fn tournaments(&self) -> Result<Vec<(u64, String)>, StoreError> {
                let rows = sqlx::query("SELECT id, state FROM tournaments ORDER BY id").fetch_all(self.db()?).await?;
                rows.iter().map(|r| Ok((to_u64(r.try_get(0)?)?, r.try_get(1)?))).collect()
            }

            async fn max_ids(&self) -> Result<(u64, u64), StoreError> {
                let m: Option<i64> =
                    sqlx::query("SELECT MAX(id) FROM matches").fetch_one(self.db()?).await?.try_get(0)?;
                let p: Option<i64> =
                    sqlx::query("SELECT MAX(id) FROM players").fetch_one(self.db()?).await?.try_get(0)?;
                Ok((to_u64(m.unwrap_or(0))?, to_u64(p.unwrap_or(0))?))
            }
        }
    };
}

sql_store!(SqliteStore, "sqlite");
sql_store!(PgStore, "postgres");
sql_accounts!(SqliteStore);
sql_accounts!(PgStore);
sql_ratings!(SqliteStore);
sql_ratings!(PgStore);
