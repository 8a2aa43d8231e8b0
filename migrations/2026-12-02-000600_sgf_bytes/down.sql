ALTER TABLE results DROP COLUMN sgf_bytes;
