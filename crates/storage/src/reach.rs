//! Why a PostgreSQL database cannot be reached, in an operator's words (issue 61): where it was
//! looked for (host and port, never the password), the cause once, and what to check — not
//! sqlx's chain of causes, each repeating the one under it, nor a PostgreSQL source line.

use std::time::Duration;

use sqlx::postgres::PgConnectOptions;

use crate::StoreError;

/// How long a connection to the database may take before the server says it did not answer.
pub(crate) const CONNECT_WITHIN: Duration = Duration::from_secs(10);

/// Refuses a `database_url` that is not PostgreSQL's, before anything is tried.
///
/// # Errors
/// [`StoreError::Unreachable`] naming the scheme.
pub(crate) fn check_scheme(url: &str) -> Result<(), StoreError> {
    let scheme = url.split_once("://").map_or("", |(s, _)| s);
    if matches!(scheme, "postgres" | "postgresql") {
        return Ok(());
    }
    let shown =
        if scheme.is_empty() { "a URL without a scheme".to_owned() } else { format!("{scheme}://…") };
    Err(StoreError::Unreachable(format!(
        "database_url is {shown}: only PostgreSQL is supported (postgres://USER:PASSWORD@HOST:PORT/DATABASE); \
         leave database_url out for the embedded SQLite database in data_dir"
    )))
}

/// Where the database was looked for: `HOST:PORT`, database `NAME`, user `USER`.
fn place(options: &PgConnectOptions) -> String {
    let database = options.get_database().unwrap_or(options.get_username());
    format!(
        "PostgreSQL at {}:{} (database {database:?}, user {:?})",
        options.get_host(),
        options.get_port(),
        options.get_username()
    )
}

/// A connection that failed, said once with where and what to check; other failures as they
/// are.
pub(crate) fn unreachable(options: &PgConnectOptions, e: StoreError) -> StoreError {
    let StoreError::Database(e) = e else { return e };
    let at = place(options);
    StoreError::Unreachable(match &e {
        sqlx::Error::Io(io) => format!(
            "cannot reach {at}: {}; is PostgreSQL running there, and are database_url's host and port right?",
            io_cause(io)
        ),
        sqlx::Error::PoolTimedOut => format!(
            "{at} did not answer within {} s; is the host right, and does a firewall let its port through?",
            CONNECT_WITHIN.as_secs()
        ),
        sqlx::Error::Tls(why) => format!("{at}: the TLS connection failed: {why}"),
        sqlx::Error::Database(db) => match db.code().as_deref() {
            Some("28P01" | "28000") => {
                format!("{at} refused the log-in: {}; check database_url's user and password", db.message())
            }
            Some("3D000") => {
                format!("{at}: there is no such database; create it (createdb) or correct database_url")
            }
            _ => format!("{at}: {}", db.message()),
        },
        other => format!("{at}: {other}"),
    })
}

/// A connection that took longer than [`CONNECT_WITHIN`].
pub(crate) fn timed_out(options: &PgConnectOptions) -> StoreError {
    unreachable(options, StoreError::Database(sqlx::Error::PoolTimedOut))
}

fn io_cause(io: &std::io::Error) -> String {
    match io.kind() {
        std::io::ErrorKind::ConnectionRefused => "the connection was refused".to_owned(),
        std::io::ErrorKind::TimedOut => "the connection timed out".to_owned(),
        _ => io.to_string(),
    }
}
