-- The count worked out from a relay game's final position (seed 003 Arts. 12, 16.4, 21.4), as
-- `game_counts` is for a game: the dead stones the referee marked (`dead`: SGF letters of every
-- dead stone, space-separated), Black's count in half points before penalty stones, and the
-- confirmations. `confirmed_black` / `confirmed_white`: that side's executing leader confirmed
-- this list (Art. 10.1); a change of the list clears them. `confirmed_by` is set when the
-- referee confirms after both leaders: then the count is recorded as the match's count event.
CREATE TABLE relay_counts (
    match_id INTEGER PRIMARY KEY NOT NULL REFERENCES team_matches(id) ON DELETE CASCADE,
    tournament_id INTEGER NOT NULL REFERENCES tournaments(id) ON DELETE CASCADE,
    version INTEGER NOT NULL DEFAULT 1,
    dead TEXT NOT NULL DEFAULT '',
    black_halves INTEGER NOT NULL,
    confirmed_black BOOLEAN NOT NULL DEFAULT FALSE,
    confirmed_white BOOLEAN NOT NULL DEFAULT FALSE,
    confirmed_by TEXT,
    confirmed_at TEXT,
    updated_at TEXT NOT NULL
);
CREATE INDEX relay_counts_tournament ON relay_counts (tournament_id);
