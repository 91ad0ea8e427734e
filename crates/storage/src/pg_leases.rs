//! PostgreSQL's leases (`crate::leases`): the [`Leases`] of a [`PgStore`] that joined a cluster as a
//! node — heartbeats, takes and releases by the database's clock, and the fence check in every
//! append's own transaction.

use std::collections::HashMap;

use sqlx::Row;

use crate::leases::{IdKind, Leases, Node, NodeRow, TOURNAMENTS, Take};
use crate::stores::PgStore;
use crate::{StoreError, to_i64, to_u64};

/// The database's clock, milliseconds since the Unix epoch (`clock_timestamp()`: the time of
/// the statement, not of its transaction's start), as SQL text for `concat!`.
macro_rules! now_ms {
    () => {
        "(extract(epoch from clock_timestamp()) * 1000)::bigint"
    };
}

/// Forgets a key only while it still maps to the value given.
trait RemoveIfEq {
    fn remove_if_eq(&mut self, key: u64, value: u64);
}

impl RemoveIfEq for HashMap<u64, u64> {
    fn remove_if_eq(&mut self, key: u64, value: u64) {
        if self.get(&key) == Some(&value) {
            self.remove(&key);
        }
    }
}

impl PgStore {
    /// Refuses a batch unless the fence each append names is still its match's current one,
    /// and this node's, and holds the lease rows locked until the transaction `conn` is in
    /// commits. Nothing when this store is not a node of a cluster.
    pub(crate) async fn check_fences(
        &self,
        conn: &mut sqlx::PgConnection,
        batch: &[crate::Appending<'_>],
    ) -> Result<(), StoreError> {
        let Some(node) = self.cluster_node() else { return Ok(()) };
        let mut wanted: Vec<(u64, Option<u64>)> =
            batch.iter().filter(|a| !a.events.is_empty()).map(|a| (a.match_id, a.fence)).collect();
        wanted.sort_unstable();
        wanted.dedup();
        let ids = wanted.iter().map(|&(id, _)| to_i64(id)).collect::<Result<Vec<_>, _>>()?;
        // In id order, so two appends lock their rows in one order and never deadlock.
        let rows = sqlx::query(
            "SELECT match_id, fence, node FROM match_leases WHERE match_id = ANY($1) ORDER BY match_id FOR SHARE",
        )
        .bind(&ids)
        .fetch_all(&mut *conn)
        .await?;
        let mut current = HashMap::new();
        for r in &rows {
            // A released lease (no node) is nobody's: no fence is current for it.
            if let Some(holder) = r.try_get::<Option<String>, _>(2)? {
                current.insert(to_u64(r.try_get(0)?)?, (to_u64(r.try_get(1)?)?, holder));
            }
        }
        for (match_id, fence) in wanted {
            let held = current.get(&match_id);
            let now = held.map(|(f, _)| *f);
            if fence.is_none() || fence != now || held.is_some_and(|(_, n)| *n != node.name) {
                return Err(StoreError::Fenced { match_id, fence, current: now });
            }
        }
        Ok(())
    }

    /// Refuses to save the tournaments unless this node still holds their role under the fence it
    /// took, and holds the role's row locked until the transaction `conn` is in commits (a
    /// take-over waits for the save, or comes first and the save is refused). Nothing when this
    /// store is not a node of a cluster.
    pub(crate) async fn check_role(&self, conn: &mut sqlx::PgConnection) -> Result<(), StoreError> {
        let Some(node) = self.cluster_node() else { return Ok(()) };
        let fence = node.roles.lock().expect("roles lock").get(TOURNAMENTS).copied();
        let row = sqlx::query("SELECT node, fence FROM cluster_roles WHERE role = $1 FOR SHARE")
            .bind(TOURNAMENTS)
            .fetch_optional(&mut *conn)
            .await?;
        let current = match &row {
            Some(r) if r.try_get::<String, _>(0)? == node.name => Some(to_u64(r.try_get(1)?)?),
            _ => None,
        };
        if fence.is_none() || fence != current {
            return Err(StoreError::RoleFenced { role: TOURNAMENTS.to_owned(), fence, current });
        }
        Ok(())
    }

    fn node_or_err(&self) -> Result<&Node, StoreError> {
        self.cluster_node().ok_or_else(|| StoreError::Range("this store has not joined a cluster".into()))
    }
}

#[async_trait::async_trait]
impl Leases for PgStore {
    fn node(&self) -> &str {
        self.cluster_node().map_or("", |n| n.name.as_str())
    }

    async fn heartbeat(&self) -> Result<(), StoreError> {
        let node = self.node_or_err()?;
        sqlx::query(concat!(
            "INSERT INTO cluster_nodes (node, started_ms, expires_ms) VALUES ($1, ",
            now_ms!(),
            ", ",
            now_ms!(),
            " + $2) \
             ON CONFLICT (node) DO UPDATE SET expires_ms = excluded.expires_ms"
        ))
        .bind(&node.name)
        .bind(node.lease_ms)
        .execute(self.beats())
        .await?;
        Ok(())
    }

    async fn leave(&self) -> Result<(), StoreError> {
        let node = self.node_or_err()?;
        sqlx::query(concat!("UPDATE cluster_nodes SET expires_ms = ", now_ms!(), " - 1 WHERE node = $1"))
            .bind(&node.name)
            .execute(self.pool()?)
            .await?;
        Ok(())
    }

    async fn take_lease(&self, match_id: u64) -> Result<Take, StoreError> {
        let node = self.node_or_err()?;
        let id = to_i64(match_id)?;
        // One statement: the conflicting row is locked and the condition checked on its newest
        // version, so of two nodes taking at once exactly one raises the fence.
        let taken = sqlx::query(concat!(
            "INSERT INTO match_leases (match_id, node, fence) VALUES ($1, $2, 1) \
             ON CONFLICT (match_id) DO UPDATE SET node = excluded.node, fence = match_leases.fence + 1 \
             WHERE match_leases.node = excluded.node OR NOT EXISTS \
               (SELECT 1 FROM cluster_nodes n WHERE n.node = match_leases.node AND n.expires_ms > ",
            now_ms!(),
            ") \
             RETURNING fence"
        ))
        .bind(id)
        .bind(&node.name)
        .fetch_optional(self.pool()?)
        .await?;
        if let Some(row) = taken {
            let fence = to_u64(row.try_get(0)?)?;
            node.fences.lock().expect("fences lock").insert(match_id, fence);
            return Ok(Take::Taken { fence });
        }
        node.fences.lock().expect("fences lock").remove(&match_id);
        let holder = sqlx::query("SELECT COALESCE(node, '') FROM match_leases WHERE match_id = $1")
            .bind(id)
            .fetch_optional(self.pool()?)
            .await?;
        let node = holder.map(|r| r.try_get::<String, _>(0)).transpose()?.unwrap_or_default();
        Ok(Take::Held { node })
    }

    async fn take_role(&self, role: &str) -> Result<Take, StoreError> {
        let node = self.node_or_err()?;
        let taken = sqlx::query(concat!(
            "INSERT INTO cluster_roles (role, node, fence) VALUES ($1, $2, 1) \
             ON CONFLICT (role) DO UPDATE SET node = excluded.node, \
               fence = cluster_roles.fence + CASE WHEN cluster_roles.node = excluded.node THEN 0 ELSE 1 END \
             WHERE cluster_roles.node = excluded.node OR NOT EXISTS \
               (SELECT 1 FROM cluster_nodes n WHERE n.node = cluster_roles.node AND n.expires_ms > ",
            now_ms!(),
            ") RETURNING fence"
        ))
        .bind(role)
        .bind(&node.name)
        .fetch_optional(self.pool()?)
        .await?;
        if let Some(row) = taken {
            let fence = to_u64(row.try_get(0)?)?;
            node.roles.lock().expect("roles lock").insert(role.to_owned(), fence);
            return Ok(Take::Taken { fence });
        }
        node.roles.lock().expect("roles lock").remove(role);
        let holder = sqlx::query("SELECT node FROM cluster_roles WHERE role = $1")
            .bind(role)
            .fetch_optional(self.pool()?)
            .await?;
        let node = holder.map(|r| r.try_get::<String, _>(0)).transpose()?.unwrap_or_default();
        Ok(Take::Held { node })
    }

    async fn release_lease(&self, match_id: u64) -> Result<(), StoreError> {
        let node = self.node_or_err()?;
        let Some(fence) = node.fence(match_id) else { return Ok(()) };
        self.release_lease_taken(match_id, fence).await
    }

    async fn release_lease_taken(&self, match_id: u64, fence: u64) -> Result<(), StoreError> {
        let node = self.node_or_err()?;
        // The row stays, without a node: the next taker raises the fence above this one.
        // The node is remembered as the last to hold it (`last_holder`).
        sqlx::query(
            "UPDATE match_leases SET node = NULL, last_node = node WHERE match_id = $1 AND fence = $2",
        )
        .bind(to_i64(match_id)?)
        .bind(to_i64(fence)?)
        .execute(self.pool()?)
        .await?;
        node.fences.lock().expect("fences lock").remove_if_eq(match_id, fence);
        Ok(())
    }

    fn fence(&self, match_id: u64) -> Option<u64> {
        self.cluster_node().and_then(|n| n.fence(match_id))
    }

    async fn orphans(&self) -> Result<Vec<u64>, StoreError> {
        let node = self.node_or_err()?;
        // A match without a lease is an orphan only once it is older than a lease: its node
        // stores its row first and takes its lease next, and a scan in between must not take
        // it from under its creator.
        //
        // A lease in this node's name that this process never took is an orphan too: the node
        // was restarted (a process of the same name ran it before, killed) and, renewing its
        // row, keeps every other node from taking it; nobody else will run it.
        let taken: Vec<i64> = node
            .fences
            .lock()
            .expect("fences lock")
            .keys()
            .map(|&id| to_i64(id))
            .collect::<Result<_, _>>()?;
        let rows = sqlx::query(concat!(
            "SELECT m.id FROM matches m \
             LEFT JOIN match_leases l ON l.match_id = m.id \
             LEFT JOIN cluster_nodes n ON n.node = l.node \
             WHERE m.finished_ms IS NULL AND (((n.node IS NULL OR n.expires_ms <= ",
            now_ms!(),
            ") AND (l.match_id IS NOT NULL OR m.created_ms <= ",
            now_ms!(),
            " - $1)) OR (l.node = $2 AND NOT (m.id = ANY($3)))) \
             ORDER BY m.id"
        ))
        .bind(node.lease_ms)
        .bind(&node.name)
        .bind(&taken)
        .fetch_all(self.pool()?)
        .await?;
        rows.iter().map(|r| to_u64(r.try_get(0)?)).collect()
    }

    async fn last_holder(&self, match_id: u64) -> Result<Option<NodeRow>, StoreError> {
        let row = sqlx::query(concat!(
            "SELECT l.last_node, COALESCE(n.expires_ms > ",
            now_ms!(),
            ", false), \
               (SELECT COUNT(*) FROM match_leases o WHERE o.node = l.last_node) \
             FROM match_leases l LEFT JOIN cluster_nodes n ON n.node = l.last_node \
             WHERE l.match_id = $1 AND l.node IS NULL AND l.last_node IS NOT NULL"
        ))
        .bind(to_i64(match_id)?)
        .fetch_optional(self.pool()?)
        .await?;
        row.as_ref().map(node_row).transpose()
    }

    async fn next_id(&self, kind: IdKind) -> Result<u64, StoreError> {
        // The row lock orders the nodes; the highest stored id covers ids given out before the
        // database served a cluster.
        macro_rules! next {
            ($kind:literal, $table:literal) => {
                concat!(
                    "INSERT INTO cluster_ids (kind, last) VALUES ('",
                    $kind,
                    "', (SELECT COALESCE(MAX(id), 0) FROM ",
                    $table,
                    ") + 1) ON CONFLICT (kind) DO UPDATE SET last = \
                     GREATEST(cluster_ids.last, (SELECT COALESCE(MAX(id), 0) FROM ",
                    $table,
                    ")) + 1 RETURNING last"
                )
            };
        }
        let sql = match kind {
            IdKind::Match => next!("match", "matches"),
            IdKind::Player => next!("player", "players"),
        };
        let row = sqlx::query(sql).fetch_one(self.pool()?).await?;
        to_u64(row.try_get(0)?)
    }

    async fn holder(&self, match_id: u64) -> Result<Option<NodeRow>, StoreError> {
        let row = sqlx::query(concat!(
            "SELECT l.node, COALESCE(n.expires_ms > ",
            now_ms!(),
            ", false), \
               (SELECT COUNT(*) FROM match_leases o WHERE o.node = l.node) \
             FROM match_leases l LEFT JOIN cluster_nodes n ON n.node = l.node \
             WHERE l.match_id = $1 AND l.node IS NOT NULL"
        ))
        .bind(to_i64(match_id)?)
        .fetch_optional(self.pool()?)
        .await?;
        row.as_ref().map(node_row).transpose()
    }

    async fn nodes(&self) -> Result<Vec<NodeRow>, StoreError> {
        let rows = sqlx::query(concat!(
            "SELECT n.node, n.expires_ms > ",
            now_ms!(),
            ", \
               (SELECT COUNT(*) FROM match_leases l WHERE l.node = n.node) \
             FROM cluster_nodes n ORDER BY n.node"
        ))
        .fetch_all(self.pool()?)
        .await?;
        rows.iter().map(node_row).collect()
    }
}

/// A node's row read as (name, alive, matches held).
fn node_row(r: &sqlx::postgres::PgRow) -> Result<NodeRow, StoreError> {
    Ok(NodeRow { node: r.try_get(0)?, alive: r.try_get(1)?, matches: to_u64(r.try_get(2)?)? })
}
