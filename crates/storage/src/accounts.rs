//! Accounts: a registered name with the argon2id hash of its password, a bot flag, a disabled
//! flag and roles. The store keeps rows and enforces one rule itself — a name is unique without
//! regard to case (the caller gives the lower-case `name_key`, which is `UNIQUE` in the schema,
//! so two registrations racing for one name cannot both win). Hashing, name rules and login
//! limits are the server's.

use crate::StoreError;

/// A registered account.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AccountRow {
    /// Its id (given by the database).
    pub id: u64,
    /// The name as registered.
    pub name: String,
    /// The argon2id PHC string of its password.
    pub password_hash: String,
    /// A program playing (shown as a bot).
    pub bot: bool,
    /// Refused at log-in and resume.
    pub disabled: bool,
    /// Its roles, sorted.
    pub roles: Vec<Role>,
    /// When it was registered, milliseconds since the Unix epoch.
    pub created_ms: u64,
}

/// A role granted to an account.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Role {
    /// May pause, correct, adjudicate and annul matches.
    Arbiter,
    /// May run tournaments.
    Director,
}

impl Role {
    /// Every role.
    pub const ALL: [Role; 2] = [Role::Arbiter, Role::Director];

    /// The stored (and typed) word.
    pub fn as_str(self) -> &'static str {
        match self {
            Role::Arbiter => "arbiter",
            Role::Director => "director",
        }
    }

    /// Reads a word.
    pub fn parse(text: &str) -> Option<Role> {
        Role::ALL.into_iter().find(|r| r.as_str() == text)
    }
}

/// A new account to register.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewAccount {
    /// The name as registered.
    pub name: String,
    /// Its lower-case form: unique.
    pub name_key: String,
    /// The argon2id PHC string of its password.
    pub password_hash: String,
    /// A program playing.
    pub bot: bool,
    /// Milliseconds since the Unix epoch.
    pub created_ms: u64,
}

/// What the server keeps of accounts. Part of every [`crate::Store`].
#[async_trait::async_trait]
pub trait Accounts: Send + Sync {
    /// Registers an account; `None` when its `name_key` is taken.
    async fn add_account(&self, account: &NewAccount) -> Result<Option<u64>, StoreError>;
    /// The account whose lower-case name is `name_key`.
    async fn account_by_name(&self, name_key: &str) -> Result<Option<AccountRow>, StoreError>;
    /// One account.
    async fn account(&self, id: u64) -> Result<Option<AccountRow>, StoreError>;
    /// Every account, by id.
    async fn accounts(&self) -> Result<Vec<AccountRow>, StoreError>;
    /// Replaces an account's password hash.
    async fn set_password(&self, id: u64, password_hash: &str) -> Result<(), StoreError>;
    /// Disables or enables an account.
    async fn set_disabled(&self, id: u64, disabled: bool) -> Result<(), StoreError>;
    /// Grants (`true`) or revokes a role.
    async fn set_role(&self, id: u64, role: Role, granted: bool) -> Result<(), StoreError>;
    /// Revokes sessions: the one whose token has this SHA-256, or with `account` every session
    /// of that account except `keep` (a token hash). A revoked session never resumes.
    async fn revoke_sessions(&self, which: Revoke<'_>) -> Result<(), StoreError>;
}

/// Which sessions [`Accounts::revoke_sessions`] revokes.
#[derive(Clone, Copy, Debug)]
pub enum Revoke<'a> {
    /// The session whose token has this SHA-256 (a log-out).
    Token(&'a str),
    /// Every session of an account, but the one with this token hash if any (a password change
    /// keeps the session that made it; a reset or a disable keeps none).
    Account {
        /// The account.
        id: u64,
        /// The token hash of the session to keep.
        keep: Option<&'a str>,
    },
}

/// The SQL of [`Accounts`] for a store with a `pool`, as `sql_store!` does for `Store`.
macro_rules! sql_accounts {
    ($store:ident) => {
        impl $store {
            async fn roles_of(&self, id: i64) -> Result<Vec<Role>, StoreError> {
                let rows = sqlx::query("SELECT role FROM account_roles WHERE account_id = $1 ORDER BY role")
                    .bind(id)
                    .fetch_all(self.db()?)
                    .await?;
                let mut roles: Vec<Role> = rows
                    .iter()
                    .filter_map(|r| r.try_get::<String, _>(0).ok().and_then(|w| Role::parse(&w)))
                    .collect();
                roles.sort();
                Ok(roles)
            }

            async fn account_where(&self, key: AccountKey<'_>) -> Result<Vec<AccountRow>, StoreError> {
                let query = match key {
                    AccountKey::All => sqlx::query(
                        "SELECT id, name, password_hash, bot, disabled, created_ms FROM accounts ORDER BY id",
                    ),
                    AccountKey::Id(id) => sqlx::query(
                        "SELECT id, name, password_hash, bot, disabled, created_ms FROM accounts WHERE id = $1",
                    )
                    .bind(id),
                    AccountKey::Name(k) => sqlx::query(
                        "SELECT id, name, password_hash, bot, disabled, created_ms FROM accounts WHERE name_key = $1",
                    )
                    .bind(k),
                };
                let rows = query.fetch_all(self.db()?).await?;
                let mut out = Vec::with_capacity(rows.len());
                for r in &rows {
                    let id: i64 = r.try_get(0)?;
                    out.push(AccountRow {
                        id: to_u64(id)?,
                        name: r.try_get(1)?,
                        password_hash: r.try_get(2)?,
                        bot: r.try_get::<i64, _>(3)? != 0,
                        disabled: r.try_get::<i64, _>(4)? != 0,
                        roles: self.roles_of(id).await?,
                        created_ms: to_u64(r.try_get(5)?)?,
                    });
                }
                Ok(out)
            }
        }

        #[async_trait::async_trait]
        impl Accounts for $store {
            async fn add_account(&self, a: &NewAccount) -> Result<Option<u64>, StoreError> {
                let row = sqlx::query(
                    "INSERT INTO accounts (name, name_key, password_hash, bot, disabled, created_ms) \
                     VALUES ($1, $2, $3, $4, 0, $5) ON CONFLICT (name_key) DO NOTHING RETURNING id",
                )
                .bind(&a.name)
                .bind(&a.name_key)
                .bind(&a.password_hash)
                .bind(i64::from(a.bot))
                .bind(to_i64(a.created_ms)?)
                .fetch_optional(self.db()?)
                .await?;
                row.map(|r| to_u64(r.try_get(0)?)).transpose()
            }

            async fn account_by_name(&self, name_key: &str) -> Result<Option<AccountRow>, StoreError> {
                Ok(self.account_where(AccountKey::Name(name_key)).await?.pop())
            }

            async fn account(&self, id: u64) -> Result<Option<AccountRow>, StoreError> {
                Ok(self.account_where(AccountKey::Id(to_i64(id)?)).await?.pop())
            }

            async fn accounts(&self) -> Result<Vec<AccountRow>, StoreError> {
                self.account_where(AccountKey::All).await
            }

            async fn set_password(&self, id: u64, password_hash: &str) -> Result<(), StoreError> {
                sqlx::query("UPDATE accounts SET password_hash = $1 WHERE id = $2")
                    .bind(password_hash)
                    .bind(to_i64(id)?)
                    .execute(self.db()?)
                    .await?;
                Ok(())
            }

            async fn set_disabled(&self, id: u64, disabled: bool) -> Result<(), StoreError> {
                sqlx::query("UPDATE accounts SET disabled = $1 WHERE id = $2")
                    .bind(i64::from(disabled))
                    .bind(to_i64(id)?)
                    .execute(self.db()?)
                    .await?;
                Ok(())
            }

            async fn set_role(&self, id: u64, role: Role, granted: bool) -> Result<(), StoreError> {
                let sql = if granted {
                    "INSERT INTO account_roles (account_id, role) VALUES ($1, $2) \
                     ON CONFLICT (account_id, role) DO NOTHING"
                } else {
                    "DELETE FROM account_roles WHERE account_id = $1 AND role = $2"
                };
                sqlx::query(sql).bind(to_i64(id)?).bind(role.as_str()).execute(self.db()?).await?;
                Ok(())
            }

            async fn revoke_sessions(&self, which: Revoke<'_>) -> Result<(), StoreError> {
                match which {
                    Revoke::Token(hash) => {
                        sqlx::query("UPDATE players SET revoked = 1 WHERE token_hash = $1")
                            .bind(hash)
                            .execute(self.db()?)
                            .await?;
                    }
                    Revoke::Account { id, keep } => {
                        sqlx::query("UPDATE players SET revoked = 1 WHERE account_id = $1 AND token_hash <> $2")
                            .bind(to_i64(id)?)
                            .bind(keep.unwrap_or(""))
                            .execute(self.db()?)
                            .await?;
                    }
                }
                Ok(())
            }
        }
    };
}

pub(crate) use sql_accounts;

/// What `account_where` binds.
pub(crate) enum AccountKey<'a> {
    All,
    Id(i64),
    Name(&'a str),
}
