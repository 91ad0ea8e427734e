//! The arbiters' and tournament directors' roles. A role belongs to an account (`shvedka admin
//! grant NAME arbiter`), or a session presents the role's shared secret from the configuration
//! (of which the server keeps only the SHA-256) — the way the first official is bootstrapped.
//!
//! An account's role is read from the store at every privileged request, never cached in the
//! session: a grant or a revocation made by `shvedka admin` on the database while the server runs
//! takes effect at the account's next privileged request, an open session included. Each act
//! names who made it ([`Official`]): the account, or "secret".

use std::sync::atomic::{AtomicBool, Ordering};

use bughouse_match::Official;
use shvedka_proto::{ErrorCode, ErrorMsg, Reply};
use shvedka_storage::Role;

use crate::service::accounts::Accounts;
use crate::service::convert::error;
use crate::service::session::{Session, token_key};

/// The roles' secrets from the configuration (empty: the role is disabled).
pub(crate) struct Secrets<'a> {
    pub(crate) arbiter: &'a str,
    pub(crate) director: &'a str,
}

/// The SHA-256 of each role's secret, for the roles that are enabled.
pub(crate) struct Roles {
    arbiter_key: Option<String>,
    director_key: Option<String>,
}

impl Roles {
    pub(crate) fn new(secrets: &Secrets<'_>) -> Roles {
        let key = |s: &str| (!s.is_empty()).then(|| token_key(s));
        Roles { arbiter_key: key(secrets.arbiter), director_key: key(secrets.director) }
    }

    /// Whether the server has arbiters at all.
    pub(crate) fn arbiters(&self) -> bool {
        self.arbiter_key.is_some()
    }

    /// Makes the session an arbiter if `token` is the arbiters' secret.
    pub(crate) fn grant_arbiter(&self, session: &Session, token: &str) -> Result<Reply, ErrorMsg> {
        grant(session, self.arbiter_key.as_deref(), token, &session.arbiter_secret, "arbiter")
    }

    /// Makes the session a director if `token` is the directors' secret.
    pub(crate) fn grant_director(&self, session: &Session, token: &str) -> Result<Reply, ErrorMsg> {
        grant(session, self.director_key.as_deref(), token, &session.director_secret, "director")
    }
}

/// Who `session` acts as in `role`: its account, when the account (enabled) holds the role in the
/// store now; else "secret", when the session presented the role's secret.
///
/// # Errors
/// `Forbidden` when it is neither; `Unavailable` when the store cannot say.
pub(crate) async fn official(
    accounts: &Accounts,
    session: &Session,
    role: Role,
) -> Result<Official, ErrorMsg> {
    if let Some(id) = session.account
        && let Some(row) = accounts.account(id).await?
        && !row.disabled
        && row.roles.contains(&role)
    {
        return Ok(Official::Account(row.name));
    }
    let secret = match role {
        Role::Arbiter => &session.arbiter_secret,
        Role::Director => &session.director_secret,
    };
    if secret.load(Ordering::Relaxed) {
        return Ok(Official::Secret);
    }
    let who = match role {
        Role::Arbiter => "an arbiter",
        Role::Director => "a tournament director",
    };
    Err(error(
        ErrorCode::Forbidden,
        format!(
            "only {who} may do this: log in as an account with the {} role, or present the secret",
            role.as_str()
        ),
    ))
}

/// Gives the session a role if `token` is the role's secret (whose SHA-256 is `key`; `None`
/// when the role is disabled).
fn grant(
    session: &Session,
    key: Option<&str>,
    token: &str,
    flag: &AtomicBool,
    role: &str,
) -> Result<Reply, ErrorMsg> {
    if key.is_none_or(|key| key != token_key(token)) {
        tracing::warn!(name = %session.name, role, "refused a secret");
        return Err(error(
            ErrorCode::Forbidden,
            format!("not the {role}s' secret (or the role is disabled)"),
        ));
    }
    flag.store(true, Ordering::Relaxed);
    tracing::info!(name = %session.name, role, "role granted");
    Ok(Reply::Ok)
}
