-- Unix seconds are BigInt in the schema (db/schema.rs): PostgreSQL's INTEGER (4 bytes) could
-- not be read into them ("Error deserializing field 'start_at'"), and a relay match could not
-- be opened. SQLite's INTEGER holds 8 bytes, so only PostgreSQL needs this.
ALTER TABLE team_matches ALTER COLUMN start_at TYPE BIGINT;
ALTER TABLE relay_events ALTER COLUMN at TYPE BIGINT;
