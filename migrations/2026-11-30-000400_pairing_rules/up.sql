-- The pairing settings the engines had only as defaults (McMahon bar and floor, the
-- handicap rule, who holds the stones in a nigiri, knockout draws and double losses), as one
-- JSON value of domain::settings::PairingRules. Every part has serde defaults, so '{}' (the
-- value of every tournament made before) reads as the engines' defaults: what they paired with.
ALTER TABLE tournaments ADD COLUMN pairing_rules TEXT NOT NULL DEFAULT '{}';
