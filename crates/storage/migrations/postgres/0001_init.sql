-- Players: a session's name and the SHA-256 of its token (the token itself is never stored).
CREATE TABLE players (
    id          BIGINT  PRIMARY KEY,
    name        TEXT    NOT NULL,
    token_hash  TEXT    NOT NULL UNIQUE,
    created_ms  BIGINT  NOT NULL
);

-- Matches: how each was created (the config replay needs) and, once decided, its result.
CREATE TABLE matches (
    id           BIGINT  PRIMARY KEY,
    rules        TEXT    NOT NULL,
    time_control TEXT    NOT NULL,
    listed       BIGINT  NOT NULL,
    config       TEXT    NOT NULL,
    created_ms   BIGINT  NOT NULL,
    finished_ms  BIGINT,
    result       TEXT
);

-- The append-only event log of each match: the machine's event (JSON) and its wire view.
CREATE TABLE events (
    match_id BIGINT NOT NULL REFERENCES matches (id),
    seq      BIGINT NOT NULL,
    at_us    BIGINT NOT NULL,
    event    TEXT   NOT NULL,
    view     TEXT   NOT NULL,
    PRIMARY KEY (match_id, seq)
);
