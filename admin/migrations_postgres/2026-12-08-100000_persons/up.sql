-- The player registry: people who come back from event to event. A person holds what stays
-- true of them (names, the pinyin derived from the Chinese name as an entrant's is, birth date,
-- sex, unit, federation ids) and the contact an organizer may keep (never shown in public).
-- An entrant keeps its own copy of name, rank and unit (what was true at its event) and points
-- at its person; `person_ranks` is the person's rank history, one row per event it was
-- recorded at (or none: a rank told outside an event).
CREATE TABLE persons (
    id SERIAL PRIMARY KEY,
    family_name_zh TEXT NOT NULL DEFAULT '',
    given_name_zh TEXT NOT NULL DEFAULT '',
    family_name_latin TEXT NOT NULL DEFAULT '',
    given_name_latin TEXT NOT NULL DEFAULT '',
    birth_date TEXT,
    sex TEXT,
    unit TEXT NOT NULL DEFAULT '',
    egd_pin TEXT NOT NULL DEFAULT '',
    federation_id TEXT NOT NULL DEFAULT '',
    email TEXT NOT NULL DEFAULT '',
    phone TEXT NOT NULL DEFAULT '',
    version INTEGER NOT NULL DEFAULT 1,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
);

CREATE TABLE person_ranks (
    id SERIAL PRIMARY KEY,
    person_id INTEGER NOT NULL REFERENCES persons(id) ON DELETE CASCADE,
    rank TEXT NOT NULL,
    rank_value INTEGER NOT NULL,
    rating INTEGER,
    recorded_on TEXT NOT NULL,
    tournament_id INTEGER REFERENCES tournaments(id) ON DELETE SET NULL
);
CREATE INDEX person_ranks_person ON person_ranks (person_id);

ALTER TABLE entrants ADD COLUMN person_id INTEGER REFERENCES persons(id) ON DELETE SET NULL;
CREATE INDEX entrants_person ON entrants (person_id);
