-- Back to the link on the result sheet. games.replay_of stays (SQLite cannot drop a column that
-- references another table without rebuilding games, which the sheets and rulings reference);
-- the earlier code does not read it.
DROP TABLE game_arrivals;
ALTER TABLE results ADD COLUMN replay_of INTEGER REFERENCES games(id) ON DELETE CASCADE;
UPDATE results SET replay_of = (SELECT g.replay_of FROM games g WHERE g.id = results.game_id);
CREATE INDEX results_replay_of ON results(replay_of);
DROP INDEX games_replay_of;
