-- Cluster mode (issue 22): the nodes, each alive until `expires_ms` (the database's clock, renewed
-- by the node), and which node runs each match, with a fencing number raised on every take-over.
-- A node appends a match's events only while the lease row still carries the fence it took:
-- the append locks the row (FOR SHARE) in its own transaction, so a take-over either waits for it
-- or comes first and the append is refused. Renewal touches only the node's row, never a lease.
CREATE TABLE cluster_nodes (
    node       TEXT   PRIMARY KEY,
    started_ms BIGINT NOT NULL,
    expires_ms BIGINT NOT NULL
);

CREATE TABLE match_leases (
    match_id BIGINT PRIMARY KEY REFERENCES matches (id),
    node     TEXT   NOT NULL REFERENCES cluster_nodes (node),
    fence    BIGINT NOT NULL
);
CREATE INDEX match_leases_node ON match_leases (node);

-- Ids of new matches and players, handed out by the database so that nodes never pick the same
-- one: each is one above both the last handed out and the highest stored (a database used by a
-- single server before keeps its ids).
CREATE TABLE cluster_ids (
    kind TEXT   PRIMARY KEY,
    last BIGINT NOT NULL
);

-- Work one node of the cluster does for all, by the same rule as a match's lease: the tournament
-- driver ("tournaments").
CREATE TABLE cluster_roles (
    role  TEXT   PRIMARY KEY,
    node  TEXT   NOT NULL REFERENCES cluster_nodes (node),
    fence BIGINT NOT NULL
);
