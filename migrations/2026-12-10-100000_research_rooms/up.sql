-- The research room (研究室) of a team in a relay event (seed 003 Art. 10.1: the leader, captain,
-- coach and the players not at the board follow their team's game live): one row per team, its
-- address `/room/{token}` opened with no login. The token is random and stored only as its
-- SHA-256, like a session's or a display screen's; revoking clears it (NULL), so the address is a
-- 404 at once; a new address replaces the old one. Written whole and versioned.
CREATE TABLE research_rooms (
    id INTEGER PRIMARY KEY NOT NULL,
    tournament_id INTEGER NOT NULL REFERENCES tournaments(id) ON DELETE CASCADE,
    team_id INTEGER NOT NULL UNIQUE REFERENCES teams(id) ON DELETE CASCADE,
    token_hash TEXT UNIQUE,
    version INTEGER NOT NULL DEFAULT 1,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
);
CREATE INDEX research_rooms_tournament ON research_rooms (tournament_id);
