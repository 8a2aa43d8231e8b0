-- The moves of a game entered at the board (a recorder's or the referee's tablet): one row per
-- move in order (`seq` from 1), the colour that played ('B' or 'W'), the point in SGF
-- coordinates (NULL for a pass), who entered it and when. Each move was checked against the
-- game so far under the event's ko and suicide rule before it was written (`store::game_moves`).
-- `client_id` is the board page's own id of the entry: an entry sent again when the network
-- returns (the page's offline queue) is found by it and not written twice. Undoing the last
-- move deletes its row; its audit row keeps it.
CREATE TABLE game_moves (
    id SERIAL PRIMARY KEY,
    tournament_id INTEGER NOT NULL REFERENCES tournaments(id) ON DELETE CASCADE,
    game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    seq INTEGER NOT NULL,
    color TEXT NOT NULL,
    point TEXT,
    client_id TEXT NOT NULL,
    entered_by INTEGER REFERENCES users(id) ON DELETE SET NULL,
    entered_at TEXT NOT NULL,
    UNIQUE (game_id, seq),
    UNIQUE (game_id, client_id)
);
CREATE INDEX game_moves_tournament ON game_moves (tournament_id);
-- How many moves the public live board of a tournament's games stays behind the game (公开直播
-- 延迟 N 手), so the game cannot be helped from outside the hall. A tournament without a row
-- uses the default of `store::game_moves::DEFAULT_DELAY`.
CREATE TABLE live_delays (
    tournament_id INTEGER PRIMARY KEY NOT NULL REFERENCES tournaments(id) ON DELETE CASCADE,
    moves INTEGER NOT NULL,
    version INTEGER NOT NULL DEFAULT 1,
    updated_at TEXT NOT NULL
);
