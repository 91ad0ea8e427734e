//! The schema as numbered scripts per database. The runner (generated with each store by
//! `sql_store!`) applies each script once, in its own transaction, and records it in
//! `shvedka_migrations`; a database migrated by a newer server keeps its extra versions.

/// The SQLite scripts, in order.
pub(crate) const SQLITE: &[(i64, &str)] = &[
    (1, include_str!("../migrations/sqlite/0001_init.sql")),
    (2, include_str!("../migrations/sqlite/0002_tournaments.sql")),
    (3, include_str!("../migrations/sqlite/0003_lifecycle.sql")),
    (4, include_str!("../migrations/sqlite/0004_accounts.sql")),
    // 5 is kept for the accounts work landing beside this.
    (6, include_str!("../migrations/sqlite/0006_match_players.sql")),
    (7, include_str!("../migrations/sqlite/0007_ratings.sql")),
    (8, include_str!("../migrations/sqlite/0008_rated.sql")),
];

/// The PostgreSQL scripts, in order.
pub(crate) const POSTGRES: &[(i64, &str)] = &[
    (1, include_str!("../migrations/postgres/0001_init.sql")),
    (2, include_str!("../migrations/postgres/0002_tournaments.sql")),
    (3, include_str!("../migrations/postgres/0003_lifecycle.sql")),
    (4, include_str!("../migrations/postgres/0004_accounts.sql")),
    (6, include_str!("../migrations/postgres/0006_match_players.sql")),
    (7, include_str!("../migrations/postgres/0007_ratings.sql")),
    (8, include_str!("../migrations/postgres/0008_rated.sql")),
    // 9 is PostgreSQL's alone: leases exist only in cluster mode, which needs PostgreSQL.
    (9, include_str!("../migrations/postgres/0009_leases.sql")),
    (10, include_str!("../migrations/postgres/0010_released_leases.sql")),
];

/// The table that records applied scripts.
pub(crate) const CREATE_LEDGER: &str =
    "CREATE TABLE IF NOT EXISTS shvedka_migrations (version BIGINT PRIMARY KEY, applied_ms BIGINT NOT NULL)";
