DROP TABLE sessions;
CREATE TABLE sessions (
    token TEXT PRIMARY KEY NOT NULL,
    user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    csrf TEXT NOT NULL,
    created_at TEXT NOT NULL,
    expires_at TEXT NOT NULL
);
CREATE INDEX sessions_user ON sessions(user_id);
DROP INDEX users_one_admin;
ALTER TABLE users DROP COLUMN created_by;
ALTER TABLE users DROP COLUMN admin;
