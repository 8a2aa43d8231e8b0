DROP TABLE live_delays;
DROP TABLE game_moves;
