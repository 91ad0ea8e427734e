//! The arbiters' and tournament directors' roles: a session gets one by presenting the role's
//! secret from the configuration, of which the server keeps only the SHA-256.

use std::sync::atomic::{AtomicBool, Ordering};

use shvedka_proto::{ErrorCode, ErrorMsg, Reply};

use crate::convert::error;
use crate::session::{Session, token_key};

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
        grant(session, self.arbiter_key.as_deref(), token, &session.arbiter, "arbiter")
    }

    /// Makes the session a director if `token` is the directors' secret.
    pub(crate) fn grant_director(&self, session: &Session, token: &str) -> Result<Reply, ErrorMsg> {
        grant(session, self.director_key.as_deref(), token, &session.director, "director")
    }
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
