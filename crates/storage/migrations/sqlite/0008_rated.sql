-- Rated or casual (issue 18): a rated match changes its four players' ratings when it is
-- decided. Existing matches were all casual.
ALTER TABLE matches ADD COLUMN rated INTEGER NOT NULL DEFAULT 0;
