ALTER TABLE tournaments DROP COLUMN pairing_rules;
