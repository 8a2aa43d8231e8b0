ALTER TABLE team_board_games DROP COLUMN forfeit;
ALTER TABLE team_settings DROP COLUMN rr_bye;
ALTER TABLE team_matches DROP COLUMN nominal_lot;
ALTER TABLE team_matches DROP COLUMN nominal_winner_team_id;
ALTER TABLE team_matches DROP COLUMN replay_of;
