-- Accounts: the first account administers accounts (`admin`, at most one); every
-- other account remembers who added it (`created_by`), so an organizer manages only the staff
-- they added. Accounts made before this take the creator from their audit row.
ALTER TABLE users ADD COLUMN admin BOOLEAN NOT NULL DEFAULT 0;
ALTER TABLE users ADD COLUMN created_by INTEGER REFERENCES users(id) ON DELETE SET NULL;
UPDATE users SET admin = 1 WHERE id = (SELECT min(id) FROM users);
UPDATE users SET created_by = (
    SELECT a.user_id FROM audit a
    WHERE a.entity = 'user' AND a.action = 'create' AND a.entity_id = users.id
      AND a.user_id IS NOT NULL AND a.user_id <> users.id
    ORDER BY a.id LIMIT 1
);
CREATE UNIQUE INDEX users_one_admin ON users(admin) WHERE admin;

-- Sessions: the cookie's token is stored only as its SHA-256, so a backup or a stolen database
-- file holds no live session; `last_seen_at` ends idle sessions. Sessions stored in clear before
-- cannot be hashed in SQL: they end, and everyone logs in again once.
DROP TABLE sessions;
CREATE TABLE sessions (
    token_hash TEXT PRIMARY KEY NOT NULL,
    user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    csrf TEXT NOT NULL,
    created_at TEXT NOT NULL,
    expires_at TEXT NOT NULL,
    last_seen_at TEXT NOT NULL
);
CREATE INDEX sessions_user ON sessions(user_id);
