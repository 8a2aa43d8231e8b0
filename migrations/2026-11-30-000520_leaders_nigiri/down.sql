ALTER TABLE team_matches DROP COLUMN nigiri;
ALTER TABLE team_settings DROP COLUMN colours;
