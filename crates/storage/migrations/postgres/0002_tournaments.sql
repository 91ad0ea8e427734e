-- Tournaments: the whole state of each (teams, rounds, pairings, choices, results) as JSON,
-- replaced as a whole on every change.
CREATE TABLE tournaments (
    id         BIGINT PRIMARY KEY,
    state      TEXT   NOT NULL,
    updated_ms BIGINT NOT NULL
);
