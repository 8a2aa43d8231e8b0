ALTER TABLE team_settings DROP COLUMN playoff_clock;
