-- A tournament's games in the order every list shows them (round, table, id), read from the
-- index without a sort: the public pages' snapshot of a 10,000-player event sorted 50,000
-- rows for each first render.
DROP INDEX games_tournament;
CREATE INDEX games_tournament ON games(tournament_id, round_number, board, id);
