-- Taking back a wrongly recorded relay event. relay_events stays append-only: a
-- withdrawal is its own row naming the event (once), with the reason and who withdrew it. The
-- match is RelayMatch::replay of the events not withdrawn (domain team::withdraw); the program
-- refuses a withdrawal that would leave a later event invalid. Rows are never changed (the
-- trigger) and never deleted (only deleting the whole tournament does, by cascade).
CREATE TABLE relay_withdrawals (
    id INTEGER PRIMARY KEY NOT NULL,
    match_id INTEGER NOT NULL REFERENCES team_matches(id) ON DELETE CASCADE,
    event_id INTEGER NOT NULL UNIQUE REFERENCES relay_events(id) ON DELETE CASCADE,
    reason TEXT NOT NULL CHECK (length(trim(reason)) > 0),
    user_id INTEGER,
    actor TEXT NOT NULL,
    recorded_at TEXT NOT NULL
);
CREATE INDEX relay_withdrawals_match ON relay_withdrawals(match_id);
CREATE TRIGGER relay_withdrawals_append_only BEFORE UPDATE ON relay_withdrawals
BEGIN
    SELECT RAISE(ABORT, 'relay_withdrawals is append-only');
END;
