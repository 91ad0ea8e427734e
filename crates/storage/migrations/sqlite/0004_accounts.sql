-- Accounts (issue 17): a registered name belongs to one person. `name` is as registered,
-- `name_key` its lower-case form, unique, so names are unique without regard to case. Only the
-- argon2id hash of the password is kept (a PHC string).
CREATE TABLE accounts (
    id            INTEGER PRIMARY KEY,
    name          TEXT    NOT NULL,
    name_key      TEXT    NOT NULL UNIQUE,
    password_hash TEXT    NOT NULL,
    bot           INTEGER NOT NULL,
    disabled      INTEGER NOT NULL,
    created_ms    INTEGER NOT NULL
);

-- Roles granted to accounts (`arbiter`, `director`).
CREATE TABLE account_roles (
    account_id INTEGER NOT NULL REFERENCES accounts (id),
    role       TEXT    NOT NULL,
    PRIMARY KEY (account_id, role)
);

-- A session belongs to the account it logged in as (NULL: a guest); a session logged out, or
-- ended by a password change, is revoked and never resumes.
ALTER TABLE players ADD COLUMN account_id INTEGER REFERENCES accounts (id);
ALTER TABLE players ADD COLUMN revoked INTEGER NOT NULL DEFAULT 0;

-- A private match is reached by an invitation code; the SHA-256 of the code is kept, not the code.
ALTER TABLE matches ADD COLUMN invite_hash TEXT;
