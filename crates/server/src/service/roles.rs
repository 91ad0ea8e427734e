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
use hmac::Mac;
use shvedka_proto::{ErrorCode, ErrorMsg, OfficialRefusal, OfficialRole, Reply};
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
        grant(session, self.arbiter_key.as_deref(), token, &session.arbiter_secret, Role::Arbiter)
    }

    /// Makes the session a director if `token` is the directors' secret.
    pub(crate) fn grant_director(&self, session: &Session, token: &str) -> Result<Reply, ErrorMsg> {
        grant(session, self.director_key.as_deref(), token, &session.director_secret, Role::Director)
    }

    /// The proof, for another node of the cluster, that `session` presented `role`'s secret
    /// here: an HMAC-SHA256 of the session's key under the secret's SHA-256, which only a node
    /// configured with the same secret can make or check. `None` when it did not present it.
    pub(crate) fn proof(&self, session: &Session, role: Role) -> Option<String> {
        let (key, flag) = self.of(session, role);
        if !flag.load(Ordering::Relaxed) {
            return None;
        }
        key.map(|key| hex(&mac(key, &session.key).finalize().into_bytes()))
    }

    /// Gives `session` (of another node) `role` when `proof` is that node's proof that it
    /// presented the role's secret there ([`Roles::proof`]); a wrong proof gives nothing.
    pub(crate) fn accept_proof(&self, session: &Session, role: Role, proof: &str) {
        let (key, flag) = self.of(session, role);
        // Compared in constant time by the MAC itself.
        let valid = key
            .zip(unhex(proof))
            .is_some_and(|(key, bytes)| mac(key, &session.key).verify_slice(&bytes).is_ok());
        if valid {
            flag.store(true, Ordering::Relaxed);
            session.proofs_refused.fetch_and(!proof_bit(role), Ordering::Relaxed);
        } else {
            // Only the nodes speak on NATS: a proof this node cannot check was made under
            // another secret (rotated on one node only), or this node has none.
            tracing::warn!(
                name = %session.name,
                role = role.as_str(),
                secret_here = key.is_some(),
                "refused a forwarded role proof: the node that made it has another secret for the role; give every node the same one"
            );
            session.proofs_refused.fetch_or(proof_bit(role), Ordering::Relaxed);
        }
    }

    fn of<'s>(&self, session: &'s Session, role: Role) -> (Option<&str>, &'s AtomicBool) {
        match role {
            Role::Arbiter => (self.arbiter_key.as_deref(), &session.arbiter_secret),
            Role::Director => (self.director_key.as_deref(), &session.director_secret),
        }
    }
}

/// A role's bit in [`Session::proofs_refused`].
fn proof_bit(role: Role) -> u8 {
    match role {
        Role::Arbiter => 1,
        Role::Director => 2,
    }
}

type HmacSha256 = hmac::Hmac<sha2::Sha256>;

fn mac(key: &str, session_key: &str) -> HmacSha256 {
    use hmac::KeyInit;
    let mut mac = HmacSha256::new_from_slice(key.as_bytes()).expect("HMAC takes a key of any length");
    mac.update(session_key.as_bytes());
    mac
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn unhex(text: &str) -> Option<Vec<u8>> {
    if text.len() != 64 {
        return None;
    }
    (0..text.len()).step_by(2).map(|i| u8::from_str_radix(text.get(i..i + 2)?, 16).ok()).collect()
}

/// Who `session` acts as in `role`: its account, when the account (enabled) holds the role in the
/// store now; else "secret", when the session presented the role's secret.
///
/// # Errors
/// `Official(Needed)` (or `SecretDiffers`) when it is neither; `Unavailable` when the store cannot say.
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
    if session.proofs_refused.load(Ordering::Relaxed) & proof_bit(role) != 0 {
        let key = match role {
            Role::Arbiter => "arbiter_token",
            Role::Director => "director_token",
        };
        return Err(error(
            ErrorCode::Official(OfficialRefusal::SecretDiffers { role: wire(role) }),
            format!(
                "the {} secret you presented was accepted by the node you are connected to, but the node that runs this is configured with another `{key}` (or none): every node of a cluster needs the same one (docs/operators.md, Secrets); until then log in as an account with the {} role",
                role.as_str(),
                role.as_str()
            ),
        ));
    }
    Err(error(
        ErrorCode::Official(OfficialRefusal::Needed { role: wire(role) }),
        format!(
            "only {who} may do this: log in as an account with the {} role, or present the secret",
            role.as_str()
        ),
    ))
}

/// The role as the wire names it.
fn wire(role: Role) -> OfficialRole {
    match role {
        Role::Arbiter => OfficialRole::Arbiter,
        Role::Director => OfficialRole::Director,
    }
}

/// Gives the session a role if `token` is the role's secret (whose SHA-256 is `key`; `None`
/// when the role is disabled).
fn grant(
    session: &Session,
    key: Option<&str>,
    token: &str,
    flag: &AtomicBool,
    role: Role,
) -> Result<Reply, ErrorMsg> {
    let name = role.as_str();
    if key.is_none_or(|key| key != token_key(token)) {
        tracing::warn!(name = %session.name, role = name, "refused a secret");
        return Err(error(
            ErrorCode::Official(OfficialRefusal::WrongSecret { role: wire(role) }),
            format!("not the {name}s' secret (or the role is disabled)"),
        ));
    }
    flag.store(true, Ordering::Relaxed);
    tracing::info!(name = %session.name, role = name, "role granted");
    Ok(Reply::Ok)
}

/// The roles `session` acts in now, as [`official`] would find them: its account's (enabled, read
/// from the store now) and those whose secret it presented; each named once, `arbiter` first.
///
/// # Errors
/// `Unavailable` when the store cannot say.
pub(crate) async fn roles_of(accounts: &Accounts, session: &Session) -> Result<Vec<String>, ErrorMsg> {
    let held = match session.account {
        Some(id) => {
            accounts.account(id).await?.filter(|row| !row.disabled).map(|row| row.roles).unwrap_or_default()
        }
        None => Vec::new(),
    };
    Ok(Role::ALL
        .into_iter()
        .filter(|role| {
            let secret = match role {
                Role::Arbiter => &session.arbiter_secret,
                Role::Director => &session.director_secret,
            };
            held.contains(role) || secret.load(Ordering::Relaxed)
        })
        .map(|role| role.as_str().to_owned())
        .collect())
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::Ordering;

    use shvedka_storage::Role;

    use super::{Roles, Secrets};
    use crate::service::session::Session;

    fn roles(arbiter: &str) -> Roles {
        Roles::new(&Secrets { arbiter, director: "directors-secret-long-enough" })
    }

    fn session(key: &str) -> Session {
        Session::remote(key.into(), "anna".into(), 1, None)
    }

    #[test]
    fn a_forwarded_role_is_given_only_for_a_proof_made_with_the_same_secret_for_the_same_session() {
        let here = roles("arbiters-secret-long-enough");
        let anna = session("aa11");
        assert_eq!(here.proof(&anna, Role::Arbiter), None, "no proof before the secret is presented");
        here.grant_arbiter(&anna, "arbiters-secret-long-enough").expect("the secret");
        let proof = here.proof(&anna, Role::Arbiter).expect("a proof");
        assert_eq!(here.proof(&anna, Role::Director), None, "one role proves nothing of the other");

        // The owner, configured alike, accepts it for her session alone.
        let owner = roles("arbiters-secret-long-enough");
        let (there, boris) = (session("aa11"), session("bb22"));
        owner.accept_proof(&boris, Role::Arbiter, &proof);
        assert!(!boris.arbiter_secret.load(Ordering::Relaxed), "another session's proof");
        owner.accept_proof(&there, Role::Director, &proof);
        assert!(!there.director_secret.load(Ordering::Relaxed), "a proof of another role");
        owner.accept_proof(&there, Role::Arbiter, "00");
        owner.accept_proof(&there, Role::Arbiter, &"0".repeat(64));
        assert!(!there.arbiter_secret.load(Ordering::Relaxed), "a forged proof");
        roles("another-secret-entirely").accept_proof(&there, Role::Arbiter, &proof);
        assert!(!there.arbiter_secret.load(Ordering::Relaxed), "a node with another secret");
        owner.accept_proof(&there, Role::Arbiter, &proof);
        assert!(there.arbiter_secret.load(Ordering::Relaxed), "the right proof");
    }
}
