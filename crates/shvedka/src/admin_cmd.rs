//! `shvedka admin`: accounts and roles, run on the server's own database (its data directory,
//! or `--database-url`), not over the network — whoever runs it can read that database anyway,
//! so it needs no other credential. It lists, disables and enables accounts, resets passwords,
//! grants and revokes the arbiter and director roles, and copies the embedded database while the
//! server runs (`backup FILE`, [`shvedka_storage::backup`]). Disabling an account or resetting its
//! password ends its sessions (their tokens never resume) and the server closes their connections
//! within `session_check_ms`; a role granted or revoked counts from the account's next privileged
//! request (the server reads an account's roles at each one), sessions already open included.
//!
//! It acts only on a database that is there: a data directory without `shvedka.db` (a typo) or a
//! PostgreSQL database without the schema is refused, saying so, unless `--create` asks for a new
//! one. On PostgreSQL it takes no writer lock (`shvedka_storage::open_tool`), so it runs beside
//! the server.

use std::io::Write;
use std::path::PathBuf;

use anyhow::Context;
use clap::{Args, Subcommand};
use shvedka_server::ServerConfig;
use shvedka_storage::{Revoke, Role, Store};

use crate::Failure;
use crate::login_args::read_password;

/// Arguments of `shvedka admin`.
#[derive(Debug, Args)]
pub(crate) struct AdminArgs {
    /// The server's configuration file (its data_dir and database_url).
    #[arg(long)]
    config: Option<PathBuf>,
    /// The server's data directory (its SQLite database), instead of the configured one.
    #[arg(long)]
    data_dir: Option<PathBuf>,
    /// The server's PostgreSQL database, instead of the configured one.
    #[arg(long, env = "SHVEDKA_DATABASE_URL", hide_env_values = true)]
    database_url: Option<String>,
    /// Make the database if there is none (a new data directory, readable by its owner alone, or
    /// the schema in an empty PostgreSQL database); without it a missing one is refused.
    #[arg(long)]
    create: bool,
    #[command(subcommand)]
    command: AdminCommand,
}

/// What to do.
#[derive(Debug, Subcommand)]
enum AdminCommand {
    /// Every account: name, bot, disabled, roles.
    List,
    /// Grant a role (arbiter or director) to an account.
    Grant {
        /// The account.
        name: String,
        /// arbiter or director.
        role: String,
    },
    /// Revoke a role.
    Revoke {
        /// The account.
        name: String,
        /// arbiter or director.
        role: String,
    },
    /// Disable an account: it cannot log in, and its sessions end.
    Disable {
        /// The account.
        name: String,
    },
    /// Enable a disabled account.
    Enable {
        /// The account.
        name: String,
    },
    /// Set a new password (from --password-file, SHVEDKA_PASSWORD or a prompt); the account's
    /// sessions end.
    ResetPassword {
        /// The account.
        name: String,
        /// A file whose first line is the new password.
        #[arg(long, value_name = "FILE")]
        password_file: Option<PathBuf>,
    },
    /// Copy the embedded database to FILE (a new file, the owner's alone), consistent, while the
    /// server runs: every move acknowledged before it began. PostgreSQL: use pg_dump.
    Backup {
        /// The new file.
        file: PathBuf,
    },
}

pub(crate) fn run(args: &AdminArgs, out: &mut dyn Write) -> anyhow::Result<()> {
    let config = ServerConfig::load(args.config.as_deref())?;
    let data_dir = args.data_dir.clone().unwrap_or(config.data_dir);
    let url = args.database_url.clone().or((!config.database_url.is_empty()).then_some(config.database_url));
    if let AdminCommand::Backup { file } = &args.command {
        return backup(url.is_some(), &data_dir, file, out);
    }
    let runtime = tokio::runtime::Runtime::new().context("cannot start the async runtime")?;
    runtime.block_on(async {
        let found =
            shvedka_storage::exists(url.as_deref(), &data_dir).await.context("cannot open the database")?;
        if !found && !args.create {
            return Err(missing(url.is_some(), &data_dir).into());
        }
        if !found && url.is_none() {
            private_dir(&data_dir)?;
        }
        let store = shvedka_storage::open_tool(url.as_deref(), &data_dir)
            .await
            .context("cannot open the database")?;
        act(&*store, &args.command, out).await
    })
}

/// `admin backup FILE`: the embedded database copied while the server runs.
fn backup(
    postgres: bool,
    data_dir: &std::path::Path,
    file: &std::path::Path,
    out: &mut dyn Write,
) -> anyhow::Result<()> {
    if postgres {
        return Err(Failure {
            code: 2,
            message: "a PostgreSQL database is backed up with its own tools: pg_dump --format=custom, or \
                      continuous archiving (docs/operators.md, Backups)"
                .into(),
        }
        .into());
    }
    let done = shvedka_storage::backup(data_dir, file).map_err(|e| {
        let code = match e {
            shvedka_storage::BackupError::NoDatabase(_) | shvedka_storage::BackupError::Exists(_) => 2,
            _ => 1,
        };
        Failure { code, message: e.to_string() }
    })?;
    writeln!(
        out,
        "backed up to {}: {} bytes, {} matches, {} accounts",
        done.path.display(),
        done.bytes,
        done.matches,
        done.accounts
    )?;
    Ok(())
}

/// Why there is no database to act on, and what to do.
fn missing(postgres: bool, data_dir: &std::path::Path) -> Failure {
    let message = if postgres {
        "the PostgreSQL database of the database URL holds no shvedka database (no shvedka_migrations \
         table): give the server's database_url, or say --create to make the schema in this one"
            .to_owned()
    } else {
        let what = if data_dir.is_dir() {
            format!("the data directory {} holds no shvedka database (no shvedka.db)", data_dir.display())
        } else {
            format!("the data directory {} does not exist", data_dir.display())
        };
        format!(
            "{what}: give the server's data directory (--data-dir, or data_dir in the file of \
             --config), or say --create to make a new, empty one"
        )
    };
    Failure { code: 2, message }
}

/// Creates a data directory readable by its owner alone, as the server does.
fn private_dir(dir: &std::path::Path) -> anyhow::Result<()> {
    let mut builder = std::fs::DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
    builder.create(dir).with_context(|| format!("cannot create {}", dir.display()))
}

async fn act(store: &dyn Store, command: &AdminCommand, out: &mut dyn Write) -> anyhow::Result<()> {
    let account = async |name: &str| {
        store
            .account_by_name(&name.to_ascii_lowercase())
            .await?
            .ok_or_else(|| anyhow::Error::from(Failure { code: 1, message: format!("no account {name}") }))
    };
    let role = |text: &str| {
        Role::parse(text).ok_or_else(|| Failure {
            code: 2,
            message: format!("role {text:?}: expected arbiter or director"),
        })
    };
    match command {
        AdminCommand::List => {
            let accounts = store.accounts().await?;
            if accounts.is_empty() {
                // On stderr: a script reading the list reads nothing.
                eprintln!(
                    "no accounts yet: players register them (\"new account\" on the web page, or shvedka play --account NAME --register)"
                );
            }
            for a in accounts {
                let roles: Vec<&str> = a.roles.iter().map(|r| r.as_str()).collect();
                let flags = [a.bot.then_some("bot"), a.disabled.then_some("disabled")];
                let flags: Vec<&str> = flags.into_iter().flatten().collect();
                writeln!(out, "{}\t{}\t{}", a.name, flags.join(","), roles.join(","))?;
            }
        }
        AdminCommand::Grant { name, role: r } | AdminCommand::Revoke { name, role: r } => {
            let granted = matches!(command, AdminCommand::Grant { .. });
            let (a, r) = (account(name).await?, role(r)?);
            store.set_role(a.id, r, granted).await?;
            let verb = if granted { "granted to" } else { "revoked from" };
            writeln!(out, "{} {verb} {} (from its next privileged request)", r.as_str(), a.name)?;
        }
        AdminCommand::Disable { name } | AdminCommand::Enable { name } => {
            let disabled = matches!(command, AdminCommand::Disable { .. });
            let a = account(name).await?;
            store.set_disabled(a.id, disabled).await?;
            if disabled {
                store.revoke_sessions(Revoke::Account { id: a.id, keep: None }).await?;
            }
            writeln!(
                out,
                "{} {}",
                a.name,
                if disabled { "disabled; its sessions ended" } else { "enabled" }
            )?;
        }
        AdminCommand::ResetPassword { name, password_file } => {
            let a = account(name).await?;
            let password = read_password(password_file.as_deref(), &format!("new password of {}: ", a.name))?;
            let hash =
                shvedka_server::hash_password(&password).map_err(|m| Failure { code: 2, message: m })?;
            store.set_password(a.id, &hash).await?;
            store.revoke_sessions(Revoke::Account { id: a.id, keep: None }).await?;
            writeln!(out, "password of {} reset; its sessions ended", a.name)?;
        }
        // Run before any store is opened ([`run`]).
        AdminCommand::Backup { .. } => unreachable!("a backup opens no store"),
    }
    Ok(())
}
