-- Accounts: organizers and arbiters. The public needs no account.
CREATE TABLE users (
    id INTEGER PRIMARY KEY NOT NULL,
    username TEXT NOT NULL UNIQUE COLLATE NOCASE,
    display_name TEXT NOT NULL DEFAULT '',
    password_hash TEXT NOT NULL,
    role TEXT NOT NULL CHECK (role IN ('organizer', 'arbiter')),
    active BOOLEAN NOT NULL DEFAULT 1,
    created_at TEXT NOT NULL
);

-- Server-side sessions: the cookie holds only a random token; logout and password changes end
-- the session for real, and the per-session CSRF token lives here.
CREATE TABLE sessions (
    token TEXT PRIMARY KEY NOT NULL,
    user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    csrf TEXT NOT NULL,
    created_at TEXT NOT NULL,
    expires_at TEXT NOT NULL
);
CREATE INDEX sessions_user ON sessions(user_id);

CREATE TABLE tournaments (
    id INTEGER PRIMARY KEY NOT NULL,
    name_zh TEXT NOT NULL,
    name_latin TEXT NOT NULL,
    venue TEXT NOT NULL DEFAULT '',
    start_date TEXT NOT NULL,
    end_date TEXT NOT NULL,
    system TEXT NOT NULL,
    rounds INTEGER NOT NULL,
    ruleset TEXT NOT NULL,          -- JSON of rules::RuleSet (komi, warnings to loss, ...)
    points_scale TEXT NOT NULL,
    tiebreaks TEXT NOT NULL,        -- comma-separated criterion codes, in order
    colour_method TEXT NOT NULL,
    lateness TEXT NOT NULL,         -- JSON of the lateness policy
    bye_value TEXT NOT NULL,
    bye_sos TEXT NOT NULL,
    same_unit TEXT NOT NULL,        -- 'off', a number of rounds, or 'all'
    time_control TEXT NOT NULL,     -- JSON of the time control
    version INTEGER NOT NULL DEFAULT 1,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
);

-- Who runs a tournament: its organizers and arbiters.
CREATE TABLE tournament_staff (
    tournament_id INTEGER NOT NULL REFERENCES tournaments(id) ON DELETE CASCADE,
    user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    role TEXT NOT NULL CHECK (role IN ('organizer', 'arbiter')),
    PRIMARY KEY (tournament_id, user_id)
);

-- Rounds exist so that settings can be locked once a round is published.
CREATE TABLE rounds (
    id INTEGER PRIMARY KEY NOT NULL,
    tournament_id INTEGER NOT NULL REFERENCES tournaments(id) ON DELETE CASCADE,
    number INTEGER NOT NULL CHECK (number >= 1),
    published BOOLEAN NOT NULL DEFAULT 0,
    published_at TEXT,
    UNIQUE (tournament_id, number)
);

CREATE TABLE entrants (
    id INTEGER PRIMARY KEY NOT NULL,
    tournament_id INTEGER NOT NULL REFERENCES tournaments(id) ON DELETE CASCADE,
    family_name_zh TEXT NOT NULL DEFAULT '',
    given_name_zh TEXT NOT NULL DEFAULT '',
    family_name_latin TEXT NOT NULL DEFAULT '',
    given_name_latin TEXT NOT NULL DEFAULT '',
    rank TEXT NOT NULL,             -- display code: 30k..1k, 1d..9d, 1p..9p
    rank_value INTEGER NOT NULL,    -- Rank::value(), for sorting and pairing
    rating INTEGER,
    unit TEXT NOT NULL DEFAULT '',
    region TEXT NOT NULL DEFAULT '',
    birth_date TEXT,                -- YYYY-MM-DD
    sex TEXT,                       -- 'm' / 'f'
    notes TEXT NOT NULL DEFAULT '',
    status TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'withdrawn')),
    version INTEGER NOT NULL DEFAULT 1,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
);
CREATE INDEX entrants_tournament ON entrants(tournament_id);

-- Games as imported (OpenGotha); the pairing work will extend this table.
CREATE TABLE games (
    id INTEGER PRIMARY KEY NOT NULL,
    tournament_id INTEGER NOT NULL REFERENCES tournaments(id) ON DELETE CASCADE,
    round_number INTEGER NOT NULL,
    board INTEGER NOT NULL,
    black_id INTEGER REFERENCES entrants(id) ON DELETE CASCADE,
    white_id INTEGER REFERENCES entrants(id) ON DELETE CASCADE,
    handicap INTEGER NOT NULL DEFAULT 0,
    result TEXT NOT NULL DEFAULT ''
);
CREATE INDEX games_tournament ON games(tournament_id, round_number);

-- Every write: who, when, what before and after (JSON), why. No foreign keys, so the trail
-- outlives a deleted tournament or account.
CREATE TABLE audit (
    id INTEGER PRIMARY KEY NOT NULL,
    tournament_id INTEGER,
    user_id INTEGER,
    actor TEXT NOT NULL,
    at TEXT NOT NULL,
    action TEXT NOT NULL,
    entity TEXT NOT NULL,
    entity_id INTEGER,
    before TEXT,
    after TEXT,
    reason TEXT NOT NULL DEFAULT ''
);
CREATE INDEX audit_tournament ON audit(tournament_id, id);
