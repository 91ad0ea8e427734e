//! Durable records of shvedka: players, matches and the append-only event log of each match, so a
//! tournament night never loses a game.
//!
//! [`Store`] is what the server needs of a database; two real implementations sit behind it:
//! [`SqliteStore`] (embedded, the default: a file under the data directory, WAL journal with
//! `synchronous = FULL`, so a committed event survives a crash of the process or the machine) and
//! [`PgStore`] (PostgreSQL, chosen by a `database_url`). Both run the same SQL — numbered
//! placeholders and 64-bit integers mean the same in both — generated from one body by
//! `sql_store!`, and both apply the schema with the same small migration runner (`migrate.rs`):
//! numbered scripts per database, each applied once, in a transaction, recorded in
//! `shvedka_migrations`. A PostgreSQL database has one writer at a time (`writer.rs`): a
//! standalone server, or the nodes of one cluster, never both, each holding the database's
//! writer lock from before it migrates until it closes.
//!
//! The storage knows rows, not rules: events are stored as the server hands them over (the match
//! machine's event and its wire view, both as JSON text), so a log replays exactly with the
//! machine's own replay. A session token is never stored, only its SHA-256; nor a password, only
//! its argon2id hash ([`Accounts`], `accounts.rs`). Ratings and their history ([`Ratings`],
//! `ratings.rs`) are applied once per rated match.

mod accounts;
mod backup;
mod careful;
mod leases;
mod migrate;
mod pg_leases;
mod ratings;
mod reach;
mod rows;
mod stores;
mod writer;

use std::path::Path;
use std::sync::Arc;

pub use accounts::{AccountRow, Accounts, NewAccount, Revoke, Role};
pub use backup::{Backup, BackupError, backup};
pub use leases::{IdKind, Leases, NodeRow, Take};
pub use ratings::{BoardRow, HistoryRow, PlayerChange, RatedMatch, RatingRow, Ratings};
pub use rows::{Appending, Ending, EventRow, MatchRow, NewMatch, PlayerRow};
pub use stores::{BEAT_CONNECTIONS, PgStore, SqliteStore};
pub use writer::{ANSWER_WITHIN, CHECK_EVERY, Holder, WRITER_LOCK, WriterState, Writing};

/// A storage failure.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The database refused or failed.
    #[error("database: {0}")]
    Database(#[from] sqlx::Error),
    /// SQLite refused or failed an append (appends run on rusqlite, the rest on sqlx).
    #[error("database: {0}")]
    Sqlite(#[from] rusqlite::Error),
    /// A value does not fit the schema (an id beyond 2^63, a negative number read back).
    #[error("stored value out of range: {0}")]
    Range(String),
    /// An event with this match and number is stored already with other content: the log would
    /// fork (two writers, or a bug), so nothing of the batch is written.
    #[error("match {match_id}: event {seq} is stored already with other content")]
    Conflict {
        /// The match.
        match_id: u64,
        /// The event number.
        seq: u64,
    },
    /// This node may not append to the match: its lease was taken over by another node (the
    /// match's fence is no longer the one this node took it with), or it never held one. Nothing
    /// of the batch is written.
    #[error(
        "match {match_id}: this node's lease (fence {fence:?}) is not the match's current one \
         ({current:?}): another node runs it"
    )]
    Fenced {
        /// The match.
        match_id: u64,
        /// The fence this node took it with; `None` when it never took it.
        fence: Option<u64>,
        /// The match's fence now; `None` when nobody holds it.
        current: Option<u64>,
    },
    /// This node may not save the tournaments: another node took their driver's role (or this
    /// one never held it). Nothing is written.
    #[error(
        "the {role} role: this node's fence {fence:?} is not the current one ({current:?}): another node drives them"
    )]
    RoleFenced {
        /// The role.
        role: String,
        /// The fence this node took it with; `None` when it does not hold it.
        fence: Option<u64>,
        /// The role's fence now; `None` when nobody holds it.
        current: Option<u64>,
    },
    /// The PostgreSQL database cannot be reached or logged in to, or `database_url` is not
    /// PostgreSQL's: where it was looked for, the cause once and what to check (`reach.rs`).
    #[error("{0}")]
    Unreachable(String),
    /// Another server holds the PostgreSQL database's writer lock (`writer.rs`): the message
    /// names it and says what to do. Nothing was read or written.
    #[error("{0}")]
    InUse(String),
    /// This server does not hold the database's writer lock now (its connection was lost, or
    /// another server took it): nothing is written.
    #[error(
        "this server does not hold the database's writer lock: {0}; nothing is written while it does not"
    )]
    NotWriter(String),
    /// A migration failed.
    #[error("migration {version}: {source}")]
    Migration {
        /// Which.
        version: i64,
        /// Why.
        source: sqlx::Error,
    },
}

impl StoreError {
    /// Whether the database could not grow: SQLite's `SQLITE_FULL` (its disk is full, or the
    /// file reached its page limit), PostgreSQL's `disk_full` (53100), or the file system's
    /// `ENOSPC`. Nothing of the failed write is stored; it can succeed once space returns.
    pub fn is_full(&self) -> bool {
        match self {
            StoreError::Sqlite(rusqlite::Error::SqliteFailure(e, _)) => {
                e.code == rusqlite::ErrorCode::DiskFull
            }
            StoreError::Database(sqlx::Error::Database(e)) => {
                // SQLite's primary result code, PostgreSQL's SQLSTATE.
                let code = e.code();
                let code = code.as_deref().unwrap_or("");
                code == "53100" || code.parse::<i32>().is_ok_and(|c| c & 0xff == rusqlite::ffi::SQLITE_FULL)
            }
            StoreError::Database(sqlx::Error::Io(e)) => full_io(e),
            StoreError::Migration { source: sqlx::Error::Io(e), .. } => full_io(e),
            _ => false,
        }
    }
}

fn full_io(e: &std::io::Error) -> bool {
    e.kind() == std::io::ErrorKind::StorageFull || e.raw_os_error() == Some(28) // ENOSPC
}

/// What the server keeps durable. Every method either completes or fails as a whole:
/// [`Store::append`] writes all its events in one transaction.
#[async_trait::async_trait]
pub trait Store: Accounts + Ratings + Send + Sync {
    /// `sqlite` or `postgres`.
    fn kind(&self) -> &'static str;
    /// The leases of a node of a cluster (`None` unless the store was opened as one, with
    /// [`PgStore::connect_node`]).
    fn leases(&self) -> Option<&dyn Leases> {
        None
    }
    /// The state of the database's writer lock this store holds (`None` without one: SQLite,
    /// whose data directory the server locks, or a tool's store), to wait on.
    fn writer_lock(&self) -> Option<tokio::sync::watch::Receiver<WriterState>> {
        None
    }
    /// Releases what the store holds for this server (the writer lock) and returns once it is
    /// released, so that a server started next is not refused by this one. Nothing is written
    /// afterwards.
    async fn close(&self) {}
    /// Records a new player (session).
    async fn add_player(&self, player: &PlayerRow) -> Result<(), StoreError>;
    /// The player whose session token has this SHA-256.
    async fn player_by_token(&self, token_hash: &str) -> Result<Option<PlayerRow>, StoreError>;
    /// One player.
    async fn player(&self, id: u64) -> Result<Option<PlayerRow>, StoreError>;
    /// Notes that a player's session was seen at `ms` (milliseconds since the Unix epoch).
    async fn touch_player(&self, id: u64, ms: u64) -> Result<(), StoreError>;
    /// Records new players and notes when players were seen (`(id, ms)`), all in one
    /// transaction, all or none: one disk flush for a crowd's sessions arriving and leaving. The
    /// default writes them one by one (not atomic), for stores that have no transactions.
    async fn write_players(&self, added: &[PlayerRow], seen: &[(u64, u64)]) -> Result<(), StoreError> {
        for p in added {
            self.add_player(p).await?;
        }
        for &(id, ms) in seen {
            self.touch_player(id, ms).await?;
        }
        Ok(())
    }
    /// Records a new match.
    async fn add_match(&self, m: &NewMatch) -> Result<(), StoreError>;
    /// Appends events to a match's log, all or none; returns once they are durable. Idempotent:
    /// an event stored already with the same content (a commit whose acknowledgement was lost,
    /// retried) is taken as written; one stored with other content is a
    /// [`StoreError::Conflict`]. A node of a cluster appends under the fence it holds for the
    /// match now.
    async fn append(&self, match_id: u64, events: &[EventRow]) -> Result<(), StoreError>;
    /// Appends to the logs of several matches in one transaction, all or none, as
    /// [`Store::append`] does for one: one disk flush for every match's pending events (group
    /// commit). A node of a cluster checks each under the fence it names
    /// ([`Appending::fence`]). The default appends match by match (not atomic across matches),
    /// for stores that have no transactions (and no fences).
    async fn append_batch(&self, batch: &[Appending<'_>]) -> Result<(), StoreError> {
        for a in batch {
            self.append(a.match_id, a.events).await?;
        }
        Ok(())
    }
    /// Records a match's result (JSON text) and the time it was decided.
    async fn finish(&self, match_id: u64, result: &str, finished_ms: u64) -> Result<(), StoreError>;
    /// Records that a match ended without a result (annulled or expired) at `ended_ms`.
    async fn end_match(&self, match_id: u64, ending: Ending, ended_ms: u64) -> Result<(), StoreError>;
    /// Matches, by id: all, or only those that have not ended.
    async fn matches(&self, unfinished_only: bool) -> Result<Vec<MatchRow>, StoreError>;
    /// One match.
    async fn find_match(&self, match_id: u64) -> Result<Option<MatchRow>, StoreError>;
    /// Notes who played a match, by seat (again: nothing changes).
    async fn add_match_players(&self, match_id: u64, names: &[String; 4]) -> Result<(), StoreError>;
    /// The matches a player (by name, any case) played, newest first, at most `limit`.
    async fn player_matches(&self, name: &str, limit: u32) -> Result<Vec<u64>, StoreError>;
    /// Who played a match, by seat (empty when not noted).
    async fn match_players(&self, match_id: u64) -> Result<Vec<(u8, String)>, StoreError>;
    /// A match's whole log, in order.
    async fn events(&self, match_id: u64) -> Result<Vec<EventRow>, StoreError>;
    /// At most `limit` events of a match's log from `from` on, in order (a page to review).
    async fn events_page(&self, match_id: u64, from: u64, limit: u32) -> Result<Vec<EventRow>, StoreError> {
        let all = self.events(match_id).await?;
        Ok(all.into_iter().filter(|e| e.seq >= from).take(limit as usize).collect())
    }
    /// The highest match id and player id so far (0 when none).
    async fn max_ids(&self) -> Result<(u64, u64), StoreError>;
    /// Stores a tournament's whole state (JSON), replacing the previous one.
    async fn save_tournament(&self, id: u64, state: &str) -> Result<(), StoreError>;
    /// Every tournament: id and state, by id.
    async fn tournaments(&self) -> Result<Vec<(u64, String)>, StoreError>;
}

/// Opens the configured store: PostgreSQL at `database_url` when given, else SQLite in
/// `data_dir/shvedka.db`. Applies pending migrations.
///
/// # Errors
/// [`StoreError`] when the database cannot be opened or migrated.
pub async fn open(database_url: Option<&str>, data_dir: &Path) -> Result<Arc<dyn Store>, StoreError> {
    Ok(match database_url {
        Some(url) => Arc::new(PgStore::connect(url).await?),
        None => Arc::new(SqliteStore::open(&data_dir.join("shvedka.db")).await?),
    })
}

/// As [`open`], for a tool beside the server (`shvedka admin`): PostgreSQL without its writer
/// lock ([`PgStore::connect_tool`]), SQLite as [`open`].
///
/// # Errors
/// As [`open`].
pub async fn open_tool(database_url: Option<&str>, data_dir: &Path) -> Result<Arc<dyn Store>, StoreError> {
    Ok(match database_url {
        Some(url) => Arc::new(PgStore::connect_tool(url).await?),
        None => Arc::new(SqliteStore::open(&data_dir.join("shvedka.db")).await?),
    })
}

/// Whether there is a shvedka database where [`open`] would look: SQLite's file
/// `data_dir/shvedka.db`, or PostgreSQL's schema (its migrations' ledger) at `database_url`. A
/// tool (`shvedka admin`) asks first, so that a mistyped directory or URL is not made a new, empty
/// database.
///
/// # Errors
/// [`StoreError`] when PostgreSQL cannot be reached (a database of that name that does not exist
/// among them).
pub async fn exists(database_url: Option<&str>, data_dir: &Path) -> Result<bool, StoreError> {
    use sqlx::{Connection, Row};
    match database_url {
        Some(url) => {
            let mut conn = sqlx::PgConnection::connect(url).await?;
            let found = sqlx::query("SELECT to_regclass('shvedka_migrations') IS NOT NULL")
                .fetch_one(&mut conn)
                .await?
                .try_get(0)?;
            let _ = conn.close().await;
            Ok(found)
        }
        None => Ok(data_dir.join("shvedka.db").is_file()),
    }
}

pub(crate) fn to_i64(v: u64) -> Result<i64, StoreError> {
    i64::try_from(v).map_err(|_| StoreError::Range(format!("{v} does not fit a 64-bit signed integer")))
}

pub(crate) fn to_u64(v: i64) -> Result<u64, StoreError> {
    u64::try_from(v).map_err(|_| StoreError::Range(format!("negative value {v} read back")))
}
