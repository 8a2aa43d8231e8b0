-- Prizes (录取名次与单项奖) of a tournament, per group once an event holds several (docs/rules.md
-- decisions D24, D25). The settings row is the prizes' aggregate: its version guards every edit
-- of the prizes too.
CREATE TABLE prize_settings (
    tournament_id INTEGER PRIMARY KEY NOT NULL REFERENCES tournaments(id) ON DELETE CASCADE,
    -- A player who qualifies for two prizes: the higher only (the next in line takes the
    -- other), or both.
    double_rule TEXT NOT NULL DEFAULT 'higher' CHECK (double_rule IN ('higher', 'both')),
    award_withdrawn BOOLEAN NOT NULL DEFAULT FALSE,
    -- The certificate's template: with a border, or plain for pre-printed paper.
    template TEXT NOT NULL DEFAULT 'classic' CHECK (template IN ('classic', 'plain')),
    -- The organizer's name line on the certificates (主办单位).
    organizer TEXT NOT NULL DEFAULT '',
    published BOOLEAN NOT NULL DEFAULT FALSE,
    version INTEGER NOT NULL DEFAULT 1,
    updated_at TEXT NOT NULL
);

-- One prize; `position` is the organizer's order of precedence (1 the highest), `kind` the
-- domain's `prizes::Kind` as JSON.
CREATE TABLE prizes (
    id SERIAL PRIMARY KEY,
    tournament_id INTEGER NOT NULL REFERENCES tournaments(id) ON DELETE CASCADE,
    position INTEGER NOT NULL,
    kind TEXT NOT NULL,
    name TEXT NOT NULL DEFAULT '',
    amount TEXT NOT NULL DEFAULT '',
    created_at TEXT NOT NULL
);
CREATE INDEX prizes_tournament ON prizes (tournament_id, position);
