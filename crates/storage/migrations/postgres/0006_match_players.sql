-- Who played each decided match (issue 20, a player's recent matches): one row per seat, the
-- name as the match showed it and in lower case for finding a player's matches by name.
-- Written when a match's task ends decided or annulled with four players.
CREATE TABLE match_players (
    match_id BIGINT NOT NULL,
    seat BIGINT NOT NULL,
    name TEXT NOT NULL,
    name_key TEXT NOT NULL,
    PRIMARY KEY (match_id, seat)
);
CREATE INDEX match_players_by_name ON match_players (name_key, match_id);
