-- A draw, a replay or a double loss is the chief arbiter's ruling (seed 000 Arts. 17.5, 17.6):
-- ruled by a plain arbiter it is a proposal (`pending`), counted nowhere until the chief
-- arbiter confirms it (`confirmed_by`, `confirmed_by_id`, `confirmed_at`) or rejects it (the
-- row is deleted; the audit keeps it). Rows written before are rulings that stand.
ALTER TABLE rulings ADD COLUMN pending BOOLEAN NOT NULL DEFAULT 0;
ALTER TABLE rulings ADD COLUMN confirmed_by TEXT;
ALTER TABLE rulings ADD COLUMN confirmed_by_id INTEGER;
ALTER TABLE rulings ADD COLUMN confirmed_at TEXT;
