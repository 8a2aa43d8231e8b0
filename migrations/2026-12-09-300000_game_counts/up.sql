-- The count worked out from a game's final position (seed 000 Arts. 8, 9): the dead stones the
-- referee marked (`dead`: SGF letters of every dead stone, space-separated), Black's count in
-- half points it gives, and the confirmations. A player's confirmation is of this list; a change
-- of the list clears them. `confirmed_by` is set when the referee confirms after both players:
-- then the count is the game's result (written through the result sheet, with its audit).
CREATE TABLE game_counts (
    game_id INTEGER PRIMARY KEY NOT NULL REFERENCES games(id) ON DELETE CASCADE,
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
CREATE INDEX game_counts_tournament ON game_counts (tournament_id);
