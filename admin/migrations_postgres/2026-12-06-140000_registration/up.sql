-- Online registration (网上报名) of an event. The settings are one row per event, written
-- whole and versioned: open or closed, the deadline (UTC, shown in the event's zone), the
-- fields the public form asks (JSON of `domain::registration::Fields`) and each group's part
-- (JSON: the group's tournament id → `domain::registration::GroupRule`, takes and cap).
CREATE TABLE registration_settings (
    event_id INTEGER PRIMARY KEY NOT NULL REFERENCES events(id) ON DELETE CASCADE,
    version INTEGER NOT NULL DEFAULT 1,
    is_open BOOLEAN NOT NULL DEFAULT FALSE,
    deadline TEXT,
    fields TEXT NOT NULL DEFAULT '',
    group_rules TEXT NOT NULL DEFAULT '',
    updated_at TEXT NOT NULL
);

-- One registration: the group chosen (a tournament of the event), the private reference of its
-- status page, its state (pending, accepted, rejected, change), the entrant as typed (JSON of
-- `domain::entrant::EntrantInput`), the contact (shown to the organizer only), the organizer's
-- message (a reason or the change asked for), and the entrant it became once accepted.
CREATE TABLE registrations (
    id SERIAL PRIMARY KEY,
    event_id INTEGER NOT NULL REFERENCES events(id) ON DELETE CASCADE,
    tournament_id INTEGER NOT NULL REFERENCES tournaments(id) ON DELETE CASCADE,
    reference TEXT NOT NULL UNIQUE,
    state TEXT NOT NULL DEFAULT 'pending',
    version INTEGER NOT NULL DEFAULT 1,
    entrant TEXT NOT NULL,
    phone TEXT NOT NULL DEFAULT '',
    email TEXT NOT NULL DEFAULT '',
    message TEXT NOT NULL DEFAULT '',
    entrant_id INTEGER REFERENCES entrants(id) ON DELETE SET NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
);
CREATE INDEX registrations_event ON registrations (event_id, state);
