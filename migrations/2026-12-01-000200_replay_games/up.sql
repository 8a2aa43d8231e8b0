-- A replay game (重赛, rules.md §9) is a game of its own.
--
-- The link to the game it replays moves from the result sheet to the game itself
-- (`games.replay_of`), so that every reader of games (pairing history and review, printed
-- sheets and lists, CSV, exports, public pages) knows a replay from a second pairing of the
-- same table. The sheet's copy is dropped (the results table is rebuilt without it: SQLite
-- cannot drop a column that references another table).
ALTER TABLE games ADD COLUMN replay_of INTEGER REFERENCES games(id) ON DELETE CASCADE;
UPDATE games SET replay_of = (SELECT r.replay_of FROM results r WHERE r.game_id = games.id);
CREATE INDEX games_replay_of ON games(replay_of);

CREATE TABLE results_new (
    game_id INTEGER PRIMARY KEY NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    tournament_id INTEGER NOT NULL REFERENCES tournaments(id) ON DELETE CASCADE,
    version INTEGER NOT NULL DEFAULT 1,
    entry TEXT,
    outcome TEXT,
    method TEXT,
    winner TEXT CHECK (winner IN ('black', 'white')),
    black_halves INTEGER,
    white_halves INTEGER,
    margin_q INTEGER,
    penalty_black INTEGER NOT NULL DEFAULT 0,
    penalty_white INTEGER NOT NULL DEFAULT 0,
    warnings_black INTEGER NOT NULL DEFAULT 0,
    warnings_white INTEGER NOT NULL DEFAULT 0,
    confirmed_black BOOLEAN NOT NULL DEFAULT 0,
    confirmed_white BOOLEAN NOT NULL DEFAULT 0,
    confirmed_arbiter BOOLEAN NOT NULL DEFAULT 0,
    locked BOOLEAN NOT NULL DEFAULT 0,
    clock_black_secs INTEGER,
    clock_white_secs INTEGER,
    resumed BOOLEAN NOT NULL DEFAULT 0,
    starts_at TEXT,
    sgf TEXT,
    sgf_name TEXT,
    sgf_report TEXT,
    entered_by TEXT,
    entered_at TEXT,
    updated_at TEXT NOT NULL
);
INSERT INTO results_new SELECT game_id, tournament_id, version, entry, outcome, method, winner,
    black_halves, white_halves, margin_q, penalty_black, penalty_white, warnings_black,
    warnings_white, confirmed_black, confirmed_white, confirmed_arbiter, locked, clock_black_secs,
    clock_white_secs, resumed, starts_at, sgf, sgf_name, sgf_report, entered_by, entered_at,
    updated_at FROM results;
DROP TABLE results;
ALTER TABLE results_new RENAME TO results;
CREATE INDEX results_tournament ON results(tournament_id);

-- A replay starts apart from its round: its own start (`results.starts_at`) and its own
-- arrivals, so lateness to the original game never decides the replay. The round's sheet
-- (`round_times`, `arrivals`) stays the lateness of the games paired for the round.
CREATE TABLE game_arrivals (
    game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    entrant_id INTEGER NOT NULL REFERENCES entrants(id) ON DELETE CASCADE,
    arrived_at TEXT NOT NULL,      -- 'HH:MM' or 'HH:MM:SS'
    recorded_by TEXT NOT NULL,
    recorded_at TEXT NOT NULL,
    PRIMARY KEY (game_id, entrant_id)
);
