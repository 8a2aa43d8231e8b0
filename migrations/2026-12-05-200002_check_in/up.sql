-- Check-in (签到) before a round: who checked in (at the desk or on their own phone), the
-- round's deadline (UTC) and when the organizer closed it (those not checked in then became
-- round_absences), and the short per-event code shown at the venue for self check-in.
CREATE TABLE check_ins (
    tournament_id INTEGER NOT NULL REFERENCES tournaments(id) ON DELETE CASCADE,
    round_number INTEGER NOT NULL CHECK (round_number >= 1),
    entrant_id INTEGER NOT NULL REFERENCES entrants(id) ON DELETE CASCADE,
    by_self BOOLEAN NOT NULL DEFAULT 0,
    checked_in_at TEXT NOT NULL,
    PRIMARY KEY (tournament_id, round_number, entrant_id)
);
CREATE TABLE check_in_rounds (
    tournament_id INTEGER NOT NULL REFERENCES tournaments(id) ON DELETE CASCADE,
    round_number INTEGER NOT NULL CHECK (round_number >= 1),
    deadline TEXT,
    closed_at TEXT,
    version INTEGER NOT NULL DEFAULT 1,
    PRIMARY KEY (tournament_id, round_number)
);
CREATE TABLE check_in_codes (
    tournament_id INTEGER PRIMARY KEY NOT NULL REFERENCES tournaments(id) ON DELETE CASCADE,
    code TEXT NOT NULL,
    updated_at TEXT NOT NULL
);
