-- Ratings after the event (EGF GoR, `domain::gor`): one row per entrant of a tournament whose
-- change an organizer computed, replaced whole when computed again. Ratings are kept in
-- thousandths of a point (the EGF keeps three decimals); `games` counts the games rated
-- (played on the board); `computed_at` is UTC.
CREATE TABLE rating_changes (
    id SERIAL PRIMARY KEY,
    tournament_id INTEGER NOT NULL REFERENCES tournaments(id) ON DELETE CASCADE,
    entrant_id INTEGER NOT NULL REFERENCES entrants(id) ON DELETE CASCADE,
    rating_before INTEGER NOT NULL,
    rating_after INTEGER NOT NULL,
    games INTEGER NOT NULL,
    computed_at TEXT NOT NULL,
    UNIQUE (tournament_id, entrant_id)
);

-- How long registrations are kept after the event's last day, in days (the organizer's
-- choice; `domain::registration::DEFAULT_RETENTION_DAYS` pre-fills the form).
ALTER TABLE registration_settings ADD COLUMN retention_days INTEGER NOT NULL DEFAULT 180;
