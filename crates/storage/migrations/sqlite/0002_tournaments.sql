-- Tournaments: the whole state of each (teams, rounds, pairings, choices, results) as JSON,
-- replaced as a whole on every change.
CREATE TABLE tournaments (
    id         INTEGER PRIMARY KEY,
    state      TEXT    NOT NULL,
    updated_ms INTEGER NOT NULL
);
