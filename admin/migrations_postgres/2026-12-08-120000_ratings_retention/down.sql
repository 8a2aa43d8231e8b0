ALTER TABLE registration_settings DROP COLUMN retention_days;
DROP TABLE rating_changes;
