ALTER TABLE team_settings DROP COLUMN knockout_draw;
ALTER TABLE team_settings DROP COLUMN cycle;
