DROP INDEX games_tournament;
CREATE INDEX games_tournament ON games(tournament_id, round_number);
