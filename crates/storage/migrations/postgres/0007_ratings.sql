-- Ratings (issue 18): Glicko-2 per account and time-control category, per partnership (the two
-- accounts in id order), and each rated match's changes, which are the history a profile shows.
-- A match is applied once: its changes' primary key refuses a second application.
CREATE TABLE ratings (
    account_id BIGINT NOT NULL REFERENCES accounts (id),
    category   TEXT    NOT NULL,
    rating     DOUBLE PRECISION    NOT NULL,
    deviation  DOUBLE PRECISION    NOT NULL,
    volatility DOUBLE PRECISION    NOT NULL,
    games      BIGINT NOT NULL,
    updated_ms BIGINT NOT NULL,
    PRIMARY KEY (account_id, category)
);
CREATE INDEX ratings_board ON ratings (category, rating);

CREATE TABLE partnership_ratings (
    first_id   BIGINT NOT NULL REFERENCES accounts (id),
    second_id  BIGINT NOT NULL REFERENCES accounts (id),
    category   TEXT    NOT NULL,
    rating     DOUBLE PRECISION    NOT NULL,
    deviation  DOUBLE PRECISION    NOT NULL,
    volatility DOUBLE PRECISION    NOT NULL,
    games      BIGINT NOT NULL,
    updated_ms BIGINT NOT NULL,
    PRIMARY KEY (first_id, second_id, category),
    CHECK (first_id < second_id)
);

CREATE TABLE rating_changes (
    match_id   BIGINT NOT NULL REFERENCES matches (id),
    account_id BIGINT NOT NULL REFERENCES accounts (id),
    category   TEXT    NOT NULL,
    rating_before DOUBLE PRECISION    NOT NULL,
    rating_after  DOUBLE PRECISION    NOT NULL,
    deviation  DOUBLE PRECISION    NOT NULL,
    at_ms      BIGINT NOT NULL,
    PRIMARY KEY (match_id, account_id)
);
CREATE INDEX rating_changes_history ON rating_changes (account_id, category, at_ms);
