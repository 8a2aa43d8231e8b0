DROP TABLE team_board_games;
DROP TRIGGER relay_events_append_only;
DROP TABLE relay_events;
DROP TABLE team_matches;
DROP TABLE team_rounds;
DROP TABLE team_members;
DROP TABLE teams;
DROP TABLE team_settings;
