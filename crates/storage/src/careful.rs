//! A pooled PostgreSQL connection that is closed, never given back, when the work on it is
//! abandoned midway (its future dropped: a match task that let its match go, a timeout).
//!
//! sqlx counts a transaction as open only once the server has answered its `BEGIN`. Dropped
//! while that answer is on its way (a slow or cut link), it gives the connection back to the pool
//! as if no transaction were open; when the `BEGIN` lands, the server holds one open, and every
//! later statement on that connection — an append its caller takes for committed — runs inside
//! it and is never committed (the server ends it after `idle_in_transaction_session_timeout`,
//! discarding them). Closing such a connection costs one reconnect and loses nothing.

use std::ops::{Deref, DerefMut};

use sqlx::Postgres;
use sqlx::pool::PoolConnection;

/// A connection given back to the pool only by [`Careful::done`]; dropped otherwise (abandoned,
/// or after an error), it is closed.
pub(crate) struct Careful(Option<PoolConnection<Postgres>>);

impl Careful {
    pub(crate) fn new(conn: PoolConnection<Postgres>) -> Careful {
        Careful(Some(conn))
    }

    /// The work finished cleanly: the connection goes back to the pool.
    pub(crate) fn done(mut self) {
        drop(self.0.take());
    }
}

impl Deref for Careful {
    type Target = PoolConnection<Postgres>;

    fn deref(&self) -> &Self::Target {
        self.0.as_ref().expect("held until done")
    }
}

impl DerefMut for Careful {
    fn deref_mut(&mut self) -> &mut Self::Target {
        self.0.as_mut().expect("held until done")
    }
}

impl Drop for Careful {
    fn drop(&mut self) {
        if let Some(conn) = &mut self.0 {
            conn.close_on_drop();
        }
    }
}
