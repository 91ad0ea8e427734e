-- Players: a session's name and the SHA-256 of its token (the token itself is never stored).
CREATE TABLE players (
    id          INTEGER PRIMARY KEY,
    name        TEXT    NOT NULL,
    token_hash  TEXT    NOT NULL UNIQUE,
    created_ms  INTEGER NOT NULL
);

-- Matches: how each was created (the config replay needs) and, once decided, its result.
CREATE TABLE matches (
    id           INTEGER PRIMARY KEY,
    rules        TEXT    NOT NULL,
    time_control TEXT    NOT NULL,
    listed       INTEGER NOT NULL,
    config       TEXT    NOT NULL,
    created_ms   INTEGER NOT NULL,
    finished_ms  INTEGER,
    result       TEXT
);

-- The append-only event log of each match: the machine's event (JSON) and its wire view.
CREATE TABLE events (
    match_id INTEGER NOT NULL REFERENCES matches (id),
    seq      INTEGER NOT NULL,
    at_us    INTEGER NOT NULL,
    event    TEXT    NOT NULL,
    view     TEXT    NOT NULL,
    PRIMARY KEY (match_id, seq)
);
