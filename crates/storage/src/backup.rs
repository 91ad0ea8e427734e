//! A backup of the embedded database while the server runs (`shvedka admin backup FILE`): SQLite's
//! `VACUUM INTO` on a connection of its own, which copies one consistent snapshot of the
//! database — every transaction committed before it began, so every move the server acknowledged
//! by then (it acknowledges a move only once its commit is durable) — into a new, compact file,
//! while the server goes on writing beside it (in WAL mode a reader never blocks the writer).
//!
//! The copy holds the password hashes: it is written in a private directory beside the
//! destination and made the owner's alone (0600) before it is moved to its name, so it is never
//! readable by others, not even for a moment. A destination that exists is refused (a backup
//! never overwrites one). It is restored by putting it in a data directory as `shvedka.db` while
//! no server runs there (docs/operators.md, Backups).

use std::path::{Path, PathBuf};

/// What a backup wrote.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Backup {
    /// Where.
    pub path: PathBuf,
    /// Its size in bytes.
    pub bytes: u64,
    /// Matches and accounts it holds.
    pub matches: u64,
    /// Accounts it holds.
    pub accounts: u64,
}

/// Why a backup was not made.
#[derive(Debug, thiserror::Error)]
pub enum BackupError {
    /// There is no database to copy.
    #[error("{0} holds no shvedka database: give the server's data directory")]
    NoDatabase(PathBuf),
    /// The destination is there already.
    #[error("{0} exists: a backup never overwrites a file; give a new name")]
    Exists(PathBuf),
    /// A file could not be written or moved.
    #[error("cannot write the backup {path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// SQLite refused.
    #[error("the database could not be copied: {0}")]
    Sqlite(#[from] rusqlite::Error),
}

/// Copies the database of `data_dir` to `dest`, a new file.
///
/// # Errors
/// [`BackupError`]: no database, a destination that exists, a file that cannot be written, or
/// SQLite's refusal (the disk full, a database it cannot read).
pub fn backup(data_dir: &Path, dest: &Path) -> Result<Backup, BackupError> {
    let db = data_dir.join("shvedka.db");
    if !db.is_file() {
        return Err(BackupError::NoDatabase(data_dir.to_path_buf()));
    }
    if dest.exists() {
        return Err(BackupError::Exists(dest.to_path_buf()));
    }
    let io = |path: &Path| {
        let path = path.to_path_buf();
        move |source| BackupError::Io { path, source }
    };
    let parent = match dest.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    // A private directory on the destination's file system: the copy is moved to its name in one
    // rename, the owner's alone from its first byte.
    let private =
        tempfile::Builder::new().prefix(".shvedka-backup-").tempdir_in(&parent).map_err(io(dest))?;
    let copy = private.path().join("shvedka.db");
    let conn = rusqlite::Connection::open_with_flags(
        &db,
        rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY | rusqlite::OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )?;
    conn.busy_timeout(std::time::Duration::from_secs(10))?;
    let target = copy.to_str().ok_or_else(|| BackupError::Io {
        path: dest.to_path_buf(),
        source: std::io::Error::other("the path is not UTF-8"),
    })?;
    conn.execute("VACUUM INTO ?1", [target])?;
    drop(conn);
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&copy, std::fs::Permissions::from_mode(0o600)).map_err(io(dest))?;
    }
    let check = rusqlite::Connection::open_with_flags(&copy, rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY)?;
    let count = |table: &str| -> Result<u64, rusqlite::Error> {
        check
            .query_row(&format!("SELECT COUNT(*) FROM {table}"), [], |r| r.get::<_, i64>(0))
            .map(|n| n.max(0) as u64)
    };
    let (matches, accounts) = (count("matches")?, count("accounts")?);
    drop(check);
    if dest.exists() {
        return Err(BackupError::Exists(dest.to_path_buf()));
    }
    std::fs::rename(&copy, dest).map_err(io(dest))?;
    let bytes = std::fs::metadata(dest).map_err(io(dest))?.len();
    Ok(Backup { path: dest.to_path_buf(), bytes, matches, accounts })
}
