//! The schema as numbered scripts per database. The runner (generated with each store by
//! `sql_store!`) applies each script once, in its own transaction, and records it in
//! `shvedka_migrations`; a database migrated by a newer server keeps its extra versions.
//!
//! So an older server still runs on a database a newer one migrated (going back after an
//! upgrade, or a cluster's nodes stopped one by one): every script after the first only adds —
//! tables, indexes, columns an older server need not write — and fills what it added. The tests
//! below refuse anything else, unless it is listed with the reason it is safe.

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
    (11, include_str!("../migrations/postgres/0011_last_holder.sql")),
];

/// The table that records applied scripts.
pub(crate) const CREATE_LEDGER: &str =
    "CREATE TABLE IF NOT EXISTS shvedka_migrations (version BIGINT PRIMARY KEY, applied_ms BIGINT NOT NULL)";

#[cfg(test)]
mod tests {
    use super::{POSTGRES, SQLITE};

    /// Changes to a schema an older server could not run on: it would find a table, column or
    /// row gone, a name changed, or a value it cannot read.
    const NOT_ADDITIVE: &[&str] =
        &["DROP TABLE", "DROP COLUMN", "RENAME", "ALTER COLUMN", "TRUNCATE", "DELETE FROM", "DROP VIEW"];

    /// The statements allowed although they match [`NOT_ADDITIVE`], each with why an older
    /// server lives with it.
    const KNOWN: &[(&str, i64, &str, &str)] = &[(
        "postgres",
        10,
        "ALTER TABLE match_leases ALTER COLUMN node DROP NOT NULL",
        "a lease's node may be NULL (released); only cluster nodes read leases, and a cluster runs \
         one build (operators.md, \"Upgrading a cluster\": all nodes at once)",
    )];

    /// A script's statements, comments dropped, whitespace made single spaces, upper case.
    fn statements(script: &str) -> Vec<String> {
        let text: String =
            script.lines().map(|l| l.split("--").next().unwrap_or("")).collect::<Vec<_>>().join(" ");
        text.split(';')
            .map(|s| s.split_whitespace().collect::<Vec<_>>().join(" ").to_uppercase())
            .filter(|s| !s.is_empty())
            .collect()
    }

    /// What is wrong with one statement of a script after the first, if anything.
    fn refusal(statement: &str) -> Option<String> {
        if let Some(bad) = NOT_ADDITIVE.iter().find(|bad| statement.contains(*bad)) {
            return Some(format!("{bad}: an older server would miss what it changes"));
        }
        // A column an older server does not know of must take rows without it.
        if statement.contains("ADD COLUMN")
            && statement.contains("NOT NULL")
            && !statement.contains("DEFAULT")
        {
            return Some("a NOT NULL column with no DEFAULT: an older server's inserts fail".into());
        }
        None
    }

    fn refusals(db: &str, scripts: &[(i64, &str)]) -> Vec<String> {
        let mut found = Vec::new();
        for &(version, script) in scripts.iter().filter(|(v, _)| *v > 1) {
            for statement in statements(script) {
                let Some(why) = refusal(&statement) else { continue };
                let known = KNOWN
                    .iter()
                    .any(|&(d, v, s, _)| d == db && v == version && s.eq_ignore_ascii_case(&statement));
                if !known {
                    found.push(format!("{db} {version}: {statement}: {why}"));
                }
            }
        }
        found
    }

    #[test]
    fn every_migration_after_the_first_only_adds_so_an_older_server_runs_on_a_newer_database() {
        let mut found = refusals("sqlite", SQLITE);
        found.extend(refusals("postgres", POSTGRES));
        assert!(found.is_empty(), "migrations an older server could not run on:\n{}", found.join("\n"));
        // Every exception still names a statement that is there (none kept for a script changed).
        for &(db, version, statement, _) in KNOWN {
            let scripts = if db == "sqlite" { SQLITE } else { POSTGRES };
            let script = scripts.iter().find(|(v, _)| *v == version).map(|(_, s)| *s).unwrap_or("");
            assert!(
                statements(script).iter().any(|s| s.eq_ignore_ascii_case(statement)),
                "{db} {version}: {statement} is gone"
            );
        }
    }

    #[test]
    fn what_an_older_server_cannot_run_on_is_refused() {
        let refused = [
            "ALTER TABLE events DROP COLUMN view",
            "DROP TABLE ratings",
            "ALTER TABLE matches RENAME COLUMN rated TO is_rated",
            "ALTER TABLE matches ALTER COLUMN rated TYPE TEXT",
            "ALTER TABLE matches ADD COLUMN lane BIGINT NOT NULL",
            "DELETE FROM events WHERE seq > 10",
        ];
        for statement in refused {
            assert!(refusal(statement).is_some(), "not refused: {statement}");
        }
        let taken = [
            "CREATE TABLE IF NOT EXISTS notes (id BIGINT PRIMARY KEY)",
            "CREATE INDEX IF NOT EXISTS notes_by_id ON notes (id)",
            "ALTER TABLE matches ADD COLUMN lane BIGINT NOT NULL DEFAULT 0",
            "ALTER TABLE matches ADD COLUMN ending TEXT",
            "UPDATE matches SET ending = 'decided' WHERE finished_ms IS NOT NULL",
        ];
        for statement in taken {
            assert_eq!(refusal(statement), None, "{statement}");
        }
        // Comments do not count, and statements are told apart.
        let script = "-- DROP TABLE x is not done here\nALTER TABLE a ADD COLUMN b TEXT;\nDROP TABLE c;";
        assert_eq!(statements(script), ["ALTER TABLE A ADD COLUMN B TEXT", "DROP TABLE C"]);
    }

    #[test]
    fn versions_rise_and_both_databases_share_each_common_one() {
        for scripts in [SQLITE, POSTGRES] {
            assert!(scripts.windows(2).all(|w| w[0].0 < w[1].0), "versions in rising order");
        }
        // PostgreSQL may have versions of its own (cluster mode); SQLite has none PostgreSQL lacks.
        for (version, _) in SQLITE {
            assert!(POSTGRES.iter().any(|(v, _)| v == version), "sqlite {version} has no PostgreSQL twin");
        }
    }
}
