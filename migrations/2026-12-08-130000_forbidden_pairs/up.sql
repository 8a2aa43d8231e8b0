-- Pairings that must not happen (回避): groups an organizer lists (two brothers, a family, a
-- club) no two members of which are paired, never (`until_round` NULL) or not before round
-- `until_round`. The pairing weighs such a pair like a rematch (`domain::pairing::avoid`).
-- `reason` is the organizer's words, never shown publicly; `created_by` the user who listed
-- the group. The members are rows of `forbidden_pair_members`; an entrant deleted leaves its
-- groups.
CREATE TABLE forbidden_pairs (
    id INTEGER PRIMARY KEY NOT NULL,
    tournament_id INTEGER NOT NULL REFERENCES tournaments(id) ON DELETE CASCADE,
    label TEXT NOT NULL,
    until_round INTEGER,
    reason TEXT NOT NULL DEFAULT '',
    created_by INTEGER REFERENCES users(id) ON DELETE SET NULL,
    version INTEGER NOT NULL DEFAULT 1,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
);
CREATE INDEX forbidden_pairs_tournament ON forbidden_pairs (tournament_id);
CREATE TABLE forbidden_pair_members (
    forbidden_pair_id INTEGER NOT NULL REFERENCES forbidden_pairs(id) ON DELETE CASCADE,
    entrant_id INTEGER NOT NULL REFERENCES entrants(id) ON DELETE CASCADE,
    PRIMARY KEY (forbidden_pair_id, entrant_id)
);
CREATE INDEX forbidden_pair_members_entrant ON forbidden_pair_members (entrant_id);
