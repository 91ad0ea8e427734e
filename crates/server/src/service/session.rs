//! Players' sessions: who a connection is, surviving lost connections. A session is kept in
//! memory only while something live holds it — a connection, or a live match it follows — and
//! is read back from the store when its token comes back, so memory and start-up grow with
//! what is live, not with every session ever opened. A token expires after a configured time
//! unused (`session_expiry_s`).

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use bughouse_match::PlayerId;
use dashmap::DashMap;
use dashmap::mapref::entry::Entry;
use shvedka_proto::{ErrorCode, ErrorMsg, MatchId, PlayerKind, SessionEnd, SessionRefusal};
use shvedka_storage::{PlayerRow, Revoke, Store};

use crate::service::convert::error;
use crate::service::player_rows::PlayerRows;
use crate::service::wall::unix_ms;

/// The most invitations to private matches one session holds at once.
pub(crate) const MAX_INVITATIONS: usize = 16;

/// A player's session.
#[derive(Debug)]
pub(crate) struct Session {
    /// The SHA-256 of the session token (the token itself is known only to its client).
    pub(crate) key: String,
    pub(crate) name: String,
    pub(crate) player: PlayerId,
    /// The account the session is logged in as; `None` for a guest.
    pub(crate) account: Option<u64>,
    /// Logged out, or ended by its account's password change: it never resumes.
    revoked: AtomicBool,
    /// Set once the session ends for good while connections may serve it (logged out, the
    /// password changed, the account disabled): each of its connections says why and closes.
    ended: tokio::sync::watch::Sender<Option<SessionEnd>>,
    /// A program playing: a bot account, or a session that said so (`ClientMsg::Bot`).
    pub(crate) bot: AtomicBool,
    /// The match the session follows, if any.
    room: Mutex<Option<MatchId>>,
    /// The match it followed until that match closed (to tell a late request why).
    closed_room: Mutex<Option<MatchId>>,
    /// Whether the session presented the arbiters' secret (an account's role is read from the
    /// store at each act, `roles::official`).
    pub(crate) arbiter_secret: AtomicBool,
    /// Whether the session presented the tournament directors' secret.
    pub(crate) director_secret: AtomicBool,
    /// The roles (by `roles::proof_bit`) whose proof, made by the session's own node of a
    /// cluster, this node refused: that node's secret differs from this one's, or this one has
    /// none. Said in the refusal the official reads (`roles::official`).
    pub(crate) proofs_refused: std::sync::atomic::AtomicU8,
    /// Private matches it holds the invitation code of (or created), the latest
    /// [`MAX_INVITATIONS`].
    invited: Mutex<Vec<MatchId>>,
    /// Connections serving the session now.
    connections: AtomicUsize,
    /// When it was last opened, resumed or left, Unix milliseconds.
    last_seen_ms: AtomicU64,
}

impl Session {
    fn from_row(row: PlayerRow) -> Session {
        Session {
            key: row.token_hash,
            name: row.name,
            player: PlayerId(row.id),
            account: row.account,
            revoked: AtomicBool::new(row.revoked),
            bot: AtomicBool::default(),
            ended: tokio::sync::watch::Sender::new(None),
            room: Mutex::default(),
            closed_room: Mutex::default(),
            arbiter_secret: AtomicBool::default(),
            director_secret: AtomicBool::default(),
            proofs_refused: std::sync::atomic::AtomicU8::default(),
            invited: Mutex::default(),
            connections: AtomicUsize::new(0),
            last_seen_ms: AtomicU64::new(row.last_seen_ms),
        }
    }

    /// A spectator who is nobody: no account, and a player id no player has, so he sits in no
    /// match (a node's follower serving its spectators of another node's match).
    pub(crate) fn nobody(key: String) -> Session {
        Session::remote(key, "spectators".into(), u64::MAX, None)
    }

    /// Whether this is [`Session::nobody`].
    pub(crate) fn is_nobody(&self) -> bool {
        self.player.0 == u64::MAX && self.account.is_none()
    }

    /// A session as the store would give it back (for tests, and for [`Session::nobody`]).
    pub(crate) fn remote(key: String, name: String, player: u64, account: Option<u64>) -> Session {
        let row = PlayerRow {
            id: player,
            name,
            token_hash: key,
            created_ms: 0,
            last_seen_ms: unix_ms(),
            account,
            revoked: false,
        };
        Session::from_row(row)
    }

    /// Ends the session for good: its token never resumes, and every connection serving it is
    /// told why and closed ([`Session::ended`]).
    fn end(&self, reason: SessionEnd) {
        self.revoked.store(true, Ordering::SeqCst);
        // The first reason stands (a disabled account's session is not "logged out" after).
        self.ended.send_if_modified(|r| {
            let first = r.is_none();
            if first {
                *r = Some(reason);
            }
            first
        });
    }

    /// Resolves once the session has ended, with why.
    pub(crate) async fn ended(&self) -> SessionEnd {
        let mut rx = self.ended.subscribe();
        let reason = rx.wait_for(Option::is_some).await.map(|r| *r);
        match reason {
            Ok(Some(reason)) => reason,
            // The sender lives as long as the session: never reached while it is borrowed.
            _ => std::future::pending().await,
        }
    }

    /// What kind of player the session is, as names are shown.
    pub(crate) fn kind(&self) -> PlayerKind {
        match (self.bot.load(Ordering::Relaxed), self.account) {
            (true, _) => PlayerKind::Bot,
            (false, Some(_)) => PlayerKind::Account,
            (false, None) => PlayerKind::Guest,
        }
    }

    pub(crate) fn room(&self) -> Option<MatchId> {
        self.room.lock().map_or(None, |r| *r)
    }

    pub(crate) fn set_room(&self, id: Option<MatchId>) {
        if let Ok(mut room) = self.room.lock() {
            *room = id;
        }
    }

    /// Stops following `id` (if it still does): its match is closed.
    pub(crate) fn leave_room(&self, id: MatchId) {
        if let Ok(mut room) = self.room.lock()
            && *room == Some(id)
        {
            *room = None;
            if let Ok(mut closed) = self.closed_room.lock() {
                *closed = Some(id);
            }
        }
    }

    /// The match it followed until that match closed, if it follows none since.
    pub(crate) fn closed_room(&self) -> Option<MatchId> {
        if self.room().is_some() {
            return None;
        }
        self.closed_room.lock().map_or(None, |r| *r)
    }

    /// Notes that the session holds the invitation to private match `id`; the oldest of more
    /// than [`MAX_INVITATIONS`] is forgotten (its code redeemed again lets it back in).
    pub(crate) fn invite(&self, id: MatchId) {
        if let Ok(mut invited) = self.invited.lock() {
            invited.retain(|i| *i != id);
            if invited.len() >= MAX_INVITATIONS {
                invited.remove(0);
            }
            invited.push(id);
        }
    }

    /// Whether the session holds the invitation to `id`.
    pub(crate) fn is_invited(&self, id: MatchId) -> bool {
        self.invited.lock().is_ok_and(|i| i.contains(&id))
    }

    /// The session's account name: tournament seats and choices belong to accounts, never to a
    /// name a guest typed.
    ///
    /// # Errors
    /// `LoginRequired` for a guest.
    pub(crate) fn account_name(&self) -> Result<&str, shvedka_proto::ErrorMsg> {
        match self.account {
            Some(_) => Ok(&self.name),
            None => Err(crate::service::convert::error(
                shvedka_proto::ErrorCode::LoginRequired,
                "tournament play belongs to accounts: log in first",
            )),
        }
    }

    /// Whether nothing live holds the session: no connection, no match.
    fn idle(&self) -> bool {
        self.connections.load(Ordering::SeqCst) == 0 && self.room().is_none()
    }
}

/// Every session in memory, by the SHA-256 of its token, over the store that has them all.
pub(crate) struct Sessions {
    map: DashMap<String, Arc<Session>>,
    store: Arc<dyn Store>,
    /// New sessions' rows and last-seen times, written together ([`PlayerRows`]).
    rows: PlayerRows,
    next_player: AtomicU64,
    expiry: Duration,
}

impl Sessions {
    /// Sessions over `store`, numbering new players after `max_player`; starts the task that
    /// writes their rows (inside a tokio runtime).
    pub(crate) fn new(store: Arc<dyn Store>, max_player: u64, expiry: Duration) -> Sessions {
        let rows = PlayerRows::spawn(store.clone());
        Sessions { map: DashMap::new(), store, rows, next_player: AtomicU64::new(max_player + 1), expiry }
    }

    /// The session of `key` if it is in memory.
    pub(crate) fn held(&self, key: &str) -> Option<Arc<Session>> {
        self.map.get(key).map(|s| s.clone())
    }

    /// Sessions in memory now.
    pub(crate) fn len(&self) -> usize {
        self.map.len()
    }

    /// A new session for one connection, recorded before it is answered; gives the session and
    /// its token. A guest without a name is named `guest-N` (N its player id).
    pub(crate) async fn open(
        &self,
        name: String,
        account: Option<u64>,
    ) -> Result<(Arc<Session>, String), ErrorMsg> {
        let token = new_token();
        let key = token_key(&token);
        let now = unix_ms();
        let id = match self.store.leases() {
            // Nodes of a cluster share the ids: the database hands them out.
            Some(leases) => leases.next_id(shvedka_storage::IdKind::Player).await.map_err(|e| {
                tracing::error!(error = %e, "cannot get a new player id");
                error(ErrorCode::Unavailable, "the server cannot record the session now; try again")
            })?,
            None => self.next_player.fetch_add(1, Ordering::Relaxed),
        };
        let name =
            if name.is_empty() { format!("{}-{id}", crate::service::accounts::GUEST_PREFIX) } else { name };
        let row = PlayerRow {
            id,
            name,
            token_hash: key.clone(),
            created_ms: now,
            last_seen_ms: now,
            account,
            revoked: false,
        };
        self.rows.add(row.clone()).await.map_err(|e| {
            tracing::error!(error = %e, "cannot record a new session");
            error(ErrorCode::Unavailable, "the server cannot record the session now; try again")
        })?;
        let session = Arc::new(Session::from_row(row));
        session.connections.store(1, Ordering::SeqCst);
        self.map.insert(key, session.clone());
        Ok((session, token))
    }

    /// The session of `token` for one more connection: from memory, or read back from the
    /// store. Refused when the token is unknown or expired.
    pub(crate) async fn resume(&self, token: &str) -> Result<Arc<Session>, ErrorMsg> {
        let key = token_key(token);
        let now = unix_ms();
        let held = self.map.get(&key).map(|s| s.clone());
        if let Some(s) = held {
            // An account's sessions may be ended from outside this process (`shvedka admin`
            // resets a password or disables the account in the database): ask the store.
            if s.account.is_some()
                && !s.revoked.load(Ordering::SeqCst)
                && matches!(self.store.player_by_token(&key).await, Ok(Some(row)) if row.revoked)
            {
                s.revoked.store(true, Ordering::SeqCst);
            }
            if s.revoked.load(Ordering::SeqCst) {
                return Err(self.ended_why(s.account).await);
            }
            self.check_expiry(
                s.connections.load(Ordering::SeqCst),
                s.last_seen_ms.load(Ordering::SeqCst),
                now,
            )?;
            // The store was asked above: meanwhile the session's last connection may have
            // ended and evicted it. Hold it in the map again, or a log-out or password change
            // that walks the map would miss this connection.
            let s = self.hold(key, s);
            s.last_seen_ms.store(now, Ordering::SeqCst);
            return Ok(s);
        }
        let row = self.store.player_by_token(&key).await.map_err(|e| {
            tracing::error!(error = %e, "cannot read a session");
            error(ErrorCode::Unavailable, "the server cannot read the session now; try again")
        })?;
        let row = row.ok_or_else(|| {
            refused(SessionRefusal::UnknownToken, "unknown session token; start a new session".into())
        })?;
        if row.revoked {
            return Err(self.ended_why(row.account).await);
        }
        self.check_expiry(0, row.last_seen_ms, now)?;
        let session = self.hold(key, Arc::new(Session::from_row(row)));
        session.last_seen_ms.store(now, Ordering::SeqCst);
        self.touch(&session).await;
        Ok(session)
    }

    /// Why a revoked session of `account` is refused: its account disabled (a bot's operator reads
    /// that, not "logged out"), else logged out.
    async fn ended_why(&self, account: Option<u64>) -> ErrorMsg {
        if let Some(id) = account
            && matches!(self.store.account(id).await, Ok(Some(a)) if a.disabled)
        {
            return refused(SessionRefusal::AccountDisabled, "the account is disabled".into());
        }
        logged_out()
    }

    /// The session of `key` with one more connection: the one in the map, else `found` put
    /// there. Counted under the map's lock, so [`Sessions::evict_if_idle`] never removes a
    /// session between its being found and its connection being counted.
    fn hold(&self, key: String, found: Arc<Session>) -> Arc<Session> {
        let entry = self.map.entry(key).or_insert(found);
        entry.connections.fetch_add(1, Ordering::SeqCst);
        entry.clone()
    }

    fn check_expiry(&self, connections: usize, last_seen_ms: u64, now: u64) -> Result<(), ErrorMsg> {
        let unused = Duration::from_millis(now.saturating_sub(last_seen_ms));
        if connections == 0 && unused > self.expiry {
            let days = u32::try_from(self.expiry.as_secs() / 86_400).unwrap_or(u32::MAX);
            return Err(refused(
                SessionRefusal::Expired { days },
                format!(
                    "the session expired after {days} days unused (session_expiry_s); start a new session"
                ),
            ));
        }
        Ok(())
    }

    /// The session of `key` as a request another node of the cluster forwarded names it: the one
    /// this node holds, else the store's (not held: it has no connection here). Who it is comes
    /// from here, never from the forwarding node's word, so a request forged on NATS acts for
    /// nobody.
    ///
    /// # Errors
    /// `Forbidden` for a key of no session, or of one that ended; `Unavailable` when the store
    /// cannot say.
    pub(crate) async fn of_another_node(&self, key: &str) -> Result<Arc<Session>, shvedka_proto::ErrorMsg> {
        use shvedka_proto::ErrorCode;
        let refused = || {
            crate::service::convert::error(
                ErrorCode::Forbidden,
                "the forwarded request names no live session",
            )
        };
        if let Some(s) = self.held(key) {
            return if s.revoked.load(Ordering::SeqCst) { Err(refused()) } else { Ok(s) };
        }
        let row = self.store.player_by_token(key).await.map_err(|e| {
            tracing::error!(error = %e, "cannot read a session");
            crate::service::convert::error(ErrorCode::Unavailable, "the server cannot read the session now")
        })?;
        match row {
            Some(row) if !row.revoked => Ok(Arc::new(Session::from_row(row))),
            _ => {
                tracing::warn!(key, "a forwarded request named no live session");
                Err(refused())
            }
        }
    }

    /// Ends a session for good (a log-out): its token never resumes.
    pub(crate) async fn revoke(&self, session: &Session) -> Result<(), String> {
        session.end(SessionEnd::LoggedOut);
        self.store.revoke_sessions(Revoke::Token(&session.key)).await.map_err(|e| {
            tracing::error!(error = %e, "cannot revoke a session");
            "the server cannot end the session now; try again".to_owned()
        })
    }

    /// Ends every session of an account but `keep` (a password change).
    pub(crate) async fn revoke_account(&self, account: u64, keep: Option<&str>) -> Result<(), String> {
        for s in &self.map {
            if s.account == Some(account) && Some(s.key.as_str()) != keep {
                s.end(SessionEnd::PasswordChanged);
            }
        }
        self.store.revoke_sessions(Revoke::Account { id: account, keep }).await.map_err(|e| {
            tracing::error!(error = %e, "cannot revoke sessions");
            "the server cannot end the account's other sessions now; try again".to_owned()
        })
    }

    /// Ends the connected sessions of accounts that were ended in the store by another process
    /// (`shvedka admin` disabled the account or reset its password): one read per connected
    /// account session, every `session_check_ms`.
    pub(crate) async fn sweep(&self) {
        let connected: Vec<Arc<Session>> = self
            .map
            .iter()
            .filter(|s| {
                s.account.is_some()
                    && s.connections.load(Ordering::SeqCst) > 0
                    && !s.revoked.load(Ordering::SeqCst)
            })
            .map(|s| s.clone())
            .collect();
        for s in connected {
            match self.store.player_by_token(&s.key).await {
                Ok(Some(row)) if row.revoked => {}
                Ok(_) => continue,
                Err(e) => {
                    tracing::warn!(error = %e, "cannot look for ended sessions now; next time");
                    return;
                }
            }
            let disabled = match s.account {
                Some(id) => matches!(self.store.account(id).await, Ok(Some(a)) if a.disabled),
                None => false,
            };
            tracing::info!(name = %s.name, disabled, "a session was ended in the store: closing its connections");
            s.end(if disabled { SessionEnd::AccountDisabled } else { SessionEnd::PasswordChanged });
        }
    }

    /// One connection of the session has ended: it is seen now, and leaves memory when nothing
    /// live holds it any more.
    pub(crate) async fn release(&self, session: &Arc<Session>) {
        session.last_seen_ms.store(unix_ms(), Ordering::SeqCst);
        session.connections.fetch_sub(1, Ordering::SeqCst);
        self.touch(session).await;
        self.evict_if_idle(session);
    }

    /// Forgets the session if no connection and no live match holds it (its match closed, or
    /// its last connection ended). The store keeps it for a resume.
    pub(crate) fn evict_if_idle(&self, session: &Session) {
        self.map.remove_if(&session.key, |_, s| s.idle());
    }

    /// A seated player of a match restored at start, held by that match.
    ///
    /// # Errors
    /// When the store cannot be read.
    pub(crate) async fn restore(
        &self,
        player: PlayerId,
        room: MatchId,
    ) -> anyhow::Result<Option<Arc<Session>>> {
        let Some(row) = self.store.player(player.0).await? else { return Ok(None) };
        let session = match self.map.entry(row.token_hash.clone()) {
            Entry::Occupied(e) => e.get().clone(),
            Entry::Vacant(v) => v.insert(Arc::new(Session::from_row(row))).clone(),
        };
        session.set_room(Some(room));
        Ok(Some(session))
    }

    async fn touch(&self, session: &Session) {
        let seen = session.last_seen_ms.load(Ordering::SeqCst);
        if let Err(e) = self.rows.seen(session.player.0, seen).await {
            tracing::warn!(error = %e, player = session.player.0, "cannot note when a session was seen");
        }
    }
}

/// Runs [`Sessions::sweep`] every `every` until `stop` says so (or the server is gone).
pub(crate) fn spawn_sweeper(
    sessions: std::sync::Weak<Sessions>,
    every: Duration,
    mut stop: tokio::sync::watch::Receiver<bool>,
) {
    tokio::spawn(async move {
        let mut tick = tokio::time::interval(every);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tokio::select! {
                _ = tick.tick() => {}
                _ = stop.wait_for(|stop| *stop) => return,
            }
            let Some(sessions) = sessions.upgrade() else { return };
            sessions.sweep().await;
        }
    });
}

/// Why a revoked session's token is refused.
fn logged_out() -> ErrorMsg {
    refused(SessionRefusal::LoggedOut, "the session was logged out; log in again".into())
}

/// A session refused, and why.
pub(crate) fn refused(why: SessionRefusal, message: String) -> ErrorMsg {
    ErrorMsg { code: ErrorCode::Session(why), rule: None, message }
}

/// The SHA-256 of a secret, lower-case hex: what is stored and compared instead of the secret.
pub(crate) fn token_key(token: &str) -> String {
    use sha2::Digest;
    sha2::Sha256::digest(token.as_bytes()).iter().map(|b| format!("{b:02x}")).collect()
}

/// 128 random bits as hex.
fn new_token() -> String {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes).expect("the system random source works");
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_store::MemStore;
    use shvedka_storage::Accounts as _;

    const DAY: Duration = Duration::from_secs(86_400);

    #[tokio::test]
    async fn a_session_is_in_memory_only_while_something_live_holds_it() {
        let sessions = Sessions::new(Arc::new(MemStore::default()), 0, 30 * DAY);
        let (anna, token) = sessions.open("anna".into(), None).await.unwrap();
        assert_eq!(sessions.len(), 1);
        sessions.release(&anna).await;
        assert_eq!(sessions.len(), 0, "no connection, no match: it leaves memory");
        let back = sessions.resume(&token).await.expect("read back from the store");
        assert_eq!((back.name.as_str(), back.player), ("anna", anna.player));
        back.set_room(Some(MatchId(7)));
        sessions.release(&back).await;
        assert_eq!(sessions.len(), 1, "a live match holds it");
        back.leave_room(MatchId(7));
        sessions.evict_if_idle(&back);
        assert_eq!(sessions.len(), 0, "its match closed: it leaves memory");
        assert!(sessions.resume("not a token").await.is_err());
    }

    #[tokio::test]
    async fn a_revoked_session_never_resumes_even_while_a_match_holds_it_in_memory() {
        let store = Arc::new(MemStore::default());
        let sessions = Sessions::new(store.clone(), 0, 30 * DAY);
        let (anna, token) = sessions.open("anna".into(), Some(1)).await.unwrap();
        anna.set_room(Some(MatchId(3)));
        sessions.release(&anna).await;
        assert_eq!(sessions.len(), 1, "held by its match");
        sessions.release(&sessions.resume(&token).await.expect("resumes")).await;
        // Ended in the database by another process (shvedka admin reset-password).
        store.revoke_sessions(Revoke::Account { id: 1, keep: None }).await.unwrap();
        assert_eq!(
            sessions.resume(&token).await.unwrap_err().code,
            ErrorCode::Session(SessionRefusal::LoggedOut)
        );
        let (boris, boris_token) = sessions.open("boris".into(), Some(2)).await.unwrap();
        sessions.revoke(&boris).await.unwrap();
        sessions.release(&boris).await;
        assert_eq!(
            sessions.resume(&boris_token).await.unwrap_err().code,
            ErrorCode::Session(SessionRefusal::LoggedOut),
            "logged out"
        );
    }

    /// Issue 17: a session ended — logged out, its password changed here, or its account disabled
    /// or its password reset in the store by another process (found by the sweep) — tells every
    /// connection serving it why, and only the sessions concerned.
    #[tokio::test]
    async fn an_ended_session_tells_its_connections_why_and_others_go_on() {
        use shvedka_storage::NewAccount;
        let store = Arc::new(MemStore::default());
        let sessions = Sessions::new(store.clone(), 0, 30 * DAY);
        let mut ids = Vec::new();
        for name in ["anna", "boris"] {
            let account = NewAccount {
                name: name.into(),
                name_key: name.into(),
                password_hash: "x".into(),
                bot: false,
                created_ms: 0,
            };
            ids.push(store.add_account(&account).await.unwrap().unwrap());
        }
        let ended = |s: &Arc<Session>| {
            let s = s.clone();
            async move { tokio::time::timeout(Duration::from_millis(100), s.ended()).await.ok() }
        };
        let (anna, _) = sessions.open("anna".into(), Some(ids[0])).await.unwrap();
        let (anna_phone, _) = sessions.open("anna".into(), Some(ids[0])).await.unwrap();
        let (boris, boris_token) = sessions.open("boris".into(), Some(ids[1])).await.unwrap();
        let (guest, _) = sessions.open("gleb".into(), None).await.unwrap();
        sessions.revoke_account(ids[0], Some(&anna.key)).await.unwrap();
        assert_eq!(ended(&anna_phone).await, Some(SessionEnd::PasswordChanged));
        assert_eq!(ended(&anna).await, None, "the session that changed it goes on");
        // Another process disables boris in the store: the sweep finds it.
        store.set_disabled(ids[1], true).await.unwrap();
        store.revoke_sessions(Revoke::Account { id: ids[1], keep: None }).await.unwrap();
        assert_eq!(ended(&boris).await, None, "not before the sweep");
        sessions.sweep().await;
        assert_eq!(ended(&boris).await, Some(SessionEnd::AccountDisabled));
        // Issue 61: his bot, resuming, is told its account is disabled, not "logged out" — from
        // memory and, once the session left it, from the store.
        let disabled = ErrorCode::Session(SessionRefusal::AccountDisabled);
        assert_eq!(sessions.resume(&boris_token).await.unwrap_err().code, disabled, "held in memory");
        sessions.release(&boris).await;
        assert_eq!(sessions.resume(&boris_token).await.unwrap_err().code, disabled, "read from the store");
        assert_eq!(ended(&anna).await, None);
        sessions.revoke(&anna).await.unwrap();
        assert_eq!(ended(&anna).await, Some(SessionEnd::LoggedOut));
        assert_eq!(ended(&guest).await, None, "a guest's session is nobody else's business");
    }

    /// A resume finds the session in memory, then asks the store; meanwhile the session's last
    /// connection ends and evicts it. The resumed connection must hold it in memory again, or a
    /// password change (which walks the sessions in memory) would not end it.
    #[tokio::test]
    async fn a_session_evicted_while_a_resume_asks_the_store_is_held_again() {
        let sessions = Sessions::new(Arc::new(MemStore::default()), 0, 30 * DAY);
        let (anna, _) = sessions.open("anna".into(), Some(1)).await.unwrap();
        let found = sessions.held(&anna.key).expect("in memory");
        sessions.release(&anna).await;
        assert_eq!(sessions.len(), 0, "its last connection ended: evicted");
        let resumed = sessions.hold(anna.key.clone(), found);
        assert_eq!(sessions.len(), 1, "held again by the resumed connection");
        assert!(Arc::ptr_eq(&resumed, &anna));
        sessions.revoke_account(1, None).await.unwrap();
        let ended = tokio::time::timeout(Duration::from_millis(100), resumed.ended()).await;
        assert_eq!(ended.ok(), Some(SessionEnd::PasswordChanged));
        // Found again while still in memory: the one there is counted, not a copy.
        let (boris, _) = sessions.open("boris".into(), None).await.unwrap();
        let copy = Arc::new(Session::from_row(shvedka_storage::PlayerRow {
            id: boris.player.0,
            name: "boris".into(),
            token_hash: boris.key.clone(),
            created_ms: 0,
            last_seen_ms: 0,
            account: None,
            revoked: false,
        }));
        let held = sessions.hold(boris.key.clone(), copy);
        assert!(Arc::ptr_eq(&held, &boris));
        assert_eq!(boris.connections.load(Ordering::SeqCst), 2);
    }

    #[tokio::test]
    async fn a_token_unused_for_the_expiry_time_is_refused() {
        let store = Arc::new(MemStore::default());
        let sessions = Sessions::new(store.clone(), 0, 30 * DAY);
        let (anna, token) = sessions.open("anna".into(), None).await.unwrap();
        sessions.release(&anna).await;
        // Last seen 29 days ago: still good.
        let ago = |d: Duration| unix_ms() - d.as_millis() as u64;
        store.touch_player(anna.player.0, ago(29 * DAY)).await.unwrap();
        let back = sessions.resume(&token).await.expect("within 30 days");
        sessions.release(&back).await;
        // Last seen 31 days ago: expired, whether read from the store or held in memory.
        store.touch_player(anna.player.0, ago(31 * DAY)).await.unwrap();
        let refused = sessions.resume(&token).await.unwrap_err();
        assert_eq!(refused.code, ErrorCode::Session(SessionRefusal::Expired { days: 30 }), "{refused:?}");
        let (boris, boris_token) = sessions.open("boris".into(), None).await.unwrap();
        boris.set_room(Some(MatchId(1)));
        sessions.release(&boris).await;
        boris.last_seen_ms.store(ago(31 * DAY), Ordering::SeqCst);
        assert_eq!(
            sessions.resume(&boris_token).await.unwrap_err().code,
            ErrorCode::Session(SessionRefusal::Expired { days: 30 })
        );
    }
}
