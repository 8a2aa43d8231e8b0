-- Results, rulings, lateness, confirmation, standings settings, public-page caching.
-- The games table is left as it is (pairing extends it on its own branch): everything a result
-- needs lives in `results`, one row per game that has anything recorded.

-- One result sheet per game: what the arbiter entered, the final result the rules crate
-- computed from it and the game's rulings, confirmations and lock, the replay link, the SGF.
CREATE TABLE results (
    game_id INTEGER PRIMARY KEY NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    tournament_id INTEGER NOT NULL REFERENCES tournaments(id) ON DELETE CASCADE,
    -- Every change (result, ruling, confirmation, record) bumps it; a stale form is refused.
    version INTEGER NOT NULL DEFAULT 1,
    entry TEXT,                    -- JSON of domain::results::Entry; NULL: nothing entered
    outcome TEXT,                  -- JSON of rules::rulings::GameResult; NULL: no result yet
    method TEXT,                   -- the outcome's method code (count, resignation, ...)
    winner TEXT CHECK (winner IN ('black', 'white')),
    black_halves INTEGER,          -- counted games: Black's count in half points
    white_halves INTEGER,          -- White's count when it was entered too
    margin_q INTEGER,              -- counted games: the margin in quarter stones
    penalty_black INTEGER NOT NULL DEFAULT 0,
    penalty_white INTEGER NOT NULL DEFAULT 0,
    warnings_black INTEGER NOT NULL DEFAULT 0,
    warnings_white INTEGER NOT NULL DEFAULT 0,
    confirmed_black BOOLEAN NOT NULL DEFAULT 0,
    confirmed_white BOOLEAN NOT NULL DEFAULT 0,
    confirmed_arbiter BOOLEAN NOT NULL DEFAULT 0,
    locked BOOLEAN NOT NULL DEFAULT 0,
    -- A replay game (重赛) points to the game it replays, and starts from the clocks noted.
    replay_of INTEGER REFERENCES games(id) ON DELETE CASCADE,
    clock_black_secs INTEGER,
    clock_white_secs INTEGER,
    -- Resumed (replay, adjourned game): lateness has no limit, the clock just runs (Art. 22.1).
    resumed BOOLEAN NOT NULL DEFAULT 0,
    starts_at TEXT,                -- 'HH:MM' when this game starts apart from its round
    sgf TEXT,
    sgf_name TEXT,
    sgf_report TEXT,               -- JSON: what the rules crate found replaying the record
    entered_by TEXT,
    entered_at TEXT,
    updated_at TEXT NOT NULL
);
CREATE INDEX results_tournament ON results(tournament_id);
CREATE INDEX results_replay_of ON results(replay_of);

-- The referee's rulings (rules.md §8, §11): the rules crate's catalogue, each with move
-- number, clock time, side, reason and arbiter. Their effect is recomputed, never stored alone.
CREATE TABLE rulings (
    id INTEGER PRIMARY KEY NOT NULL,
    game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    tournament_id INTEGER NOT NULL REFERENCES tournaments(id) ON DELETE CASCADE,
    kind TEXT NOT NULL,            -- JSON of rules::rulings::RulingKind
    against TEXT CHECK (against IN ('black', 'white')),
    move_number INTEGER NOT NULL CHECK (move_number >= 0),
    at_time TEXT NOT NULL DEFAULT '',   -- 'HH:MM' on the wall clock, if noted
    reason TEXT NOT NULL DEFAULT '',
    arbiter_id INTEGER,
    arbiter TEXT NOT NULL,
    created_at TEXT NOT NULL
);
CREATE INDEX rulings_game ON rulings(game_id, id);

-- Lateness (rules.md §7): the official start of each round, and each player's arrival.
CREATE TABLE round_times (
    tournament_id INTEGER NOT NULL REFERENCES tournaments(id) ON DELETE CASCADE,
    round_number INTEGER NOT NULL CHECK (round_number >= 1),
    starts_at TEXT NOT NULL,       -- 'HH:MM'
    version INTEGER NOT NULL DEFAULT 1,
    updated_at TEXT NOT NULL,
    PRIMARY KEY (tournament_id, round_number)
);

CREATE TABLE arrivals (
    tournament_id INTEGER NOT NULL REFERENCES tournaments(id) ON DELETE CASCADE,
    round_number INTEGER NOT NULL CHECK (round_number >= 1),
    entrant_id INTEGER NOT NULL REFERENCES entrants(id) ON DELETE CASCADE,
    arrived_at TEXT,               -- 'HH:MM' or 'HH:MM:SS'; NULL: marked absent
    recorded_by TEXT NOT NULL,
    recorded_at TEXT NOT NULL,
    PRIMARY KEY (tournament_id, round_number, entrant_id)
);

-- The chief arbiter (裁判长): at most one per tournament. Only they correct a locked result;
-- while none is named, the tournament's organizers act as chief arbiter.
ALTER TABLE tournament_staff ADD COLUMN chief_arbiter BOOLEAN NOT NULL DEFAULT 0;
CREATE UNIQUE INDEX tournament_staff_one_chief ON tournament_staff(tournament_id) WHERE chief_arbiter = 1;

-- Public pages: every audited write bumps the counter and draws a new random tag, which is
-- the pages' ETag (a restored backup brings back its own tag with its own state).
ALTER TABLE tournaments ADD COLUMN changes INTEGER NOT NULL DEFAULT 0;
ALTER TABLE tournaments ADD COLUMN change_tag TEXT NOT NULL DEFAULT '';
-- Standings: forfeited games in the opponents' scores; the seed of the tie-break lot.
ALTER TABLE tournaments ADD COLUMN forfeit_sos TEXT NOT NULL DEFAULT 'opponent';
ALTER TABLE tournaments ADD COLUMN lots_seed BIGINT NOT NULL DEFAULT 0;
UPDATE tournaments SET change_tag = lower(hex(randomblob(8))), lots_seed = abs(random() % 9007199254740991);

-- The stand-in JSON of the time control and lateness settings becomes rules::clock's types.
UPDATE tournaments SET time_control = CASE json_extract(time_control, '$.kind')
        WHEN 'absolute' THEN json_object('kind', 'absolute',
            'basic_secs', max(60, 60 * json_extract(time_control, '$.main_minutes')))
        ELSE json_object('kind', 'byo_yomi',
            'basic_secs', 60 * json_extract(time_control, '$.main_minutes'),
            'periods', max(1, json_extract(time_control, '$.periods')),
            'period_secs', max(1, json_extract(time_control, '$.period_seconds')))
    END
    WHERE json_valid(time_control) AND json_extract(time_control, '$.main_minutes') IS NOT NULL;
UPDATE tournaments SET lateness = json_object(
        'limit_minutes', json_extract(lateness, '$.limit_min'),
        'inclusive', json(CASE WHEN json_extract(lateness, '$.inclusive') THEN 'true' ELSE 'false' END),
        'double_deduction', json(CASE WHEN json_extract(lateness, '$.double_deduction') THEN 'true' ELSE 'false' END),
        'protect_reserve', json('false'),
        'absence_countdown', json('false'))
    WHERE json_valid(lateness) AND json_extract(lateness, '$.limit_min') IS NOT NULL;
