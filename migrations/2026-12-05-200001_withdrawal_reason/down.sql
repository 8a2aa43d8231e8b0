ALTER TABLE entrants DROP COLUMN withdrawal_reason_public;
ALTER TABLE entrants DROP COLUMN withdrawal_reason;
ALTER TABLE entrants DROP COLUMN withdrawn_on;
