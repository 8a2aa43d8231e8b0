-- The language a user chose follows the account across logins and devices.
-- A table of its own (not a users column) so account changes and preferences stay apart.
CREATE TABLE user_prefs (
    user_id INTEGER PRIMARY KEY NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    lang TEXT NOT NULL CHECK (lang IN ('en', 'zh-CN'))
);
