-- Lifecycle (issue 15): sessions expire after an idle time, so each player row says when its
-- session was last seen; a match may end without a result (annulled by the arbiter, or expired
-- while nobody sat in it), so each match says how it ended.
ALTER TABLE players ADD COLUMN last_seen_ms BIGINT;
UPDATE players SET last_seen_ms = created_ms;
ALTER TABLE matches ADD COLUMN ending TEXT;
UPDATE matches SET ending = 'decided' WHERE finished_ms IS NOT NULL;
