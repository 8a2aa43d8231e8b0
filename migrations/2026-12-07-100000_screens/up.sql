-- Display screens (大屏) of an event: each a page a projector's browser opens with no login,
-- at `/screen/{token}`. The token is random (128 bits) and stored only as its SHA-256, like a
-- session's; revoking clears it (NULL), so the address is a 404 at once. What the screen shows:
-- `contents` (comma-separated codes of `domain::screens::Content`, in showing order), the
-- groups (comma-separated tournament ids; empty: every group of the event), the pace (seconds
-- per page), the columns and rows of a page, and an announcement line.
CREATE TABLE screens (
    id INTEGER PRIMARY KEY NOT NULL,
    event_id INTEGER NOT NULL REFERENCES events(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    token_hash TEXT UNIQUE,
    contents TEXT NOT NULL,
    group_ids TEXT NOT NULL DEFAULT '',
    pace INTEGER NOT NULL,
    page_columns INTEGER NOT NULL,
    page_rows INTEGER NOT NULL,
    announcement TEXT NOT NULL DEFAULT '',
    version INTEGER NOT NULL DEFAULT 1,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
);
CREATE INDEX screens_event ON screens (event_id);
