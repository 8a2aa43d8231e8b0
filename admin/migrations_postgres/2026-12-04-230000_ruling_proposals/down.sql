ALTER TABLE rulings DROP COLUMN confirmed_at;
ALTER TABLE rulings DROP COLUMN confirmed_by_id;
ALTER TABLE rulings DROP COLUMN confirmed_by;
ALTER TABLE rulings DROP COLUMN pending;
