-- The login throttle's state (web::throttle), in the database so that every server of one
-- office shares it: a guesser gains nothing by spreading attempts over the servers. One row
-- per (scope, key): scope 'account' (a lower-cased user name) or 'address' (a client address);
-- tat_ms is the key's theoretical arrival time (GCRA) in milliseconds since 1970, UTC.
CREATE TABLE login_throttle (
    scope TEXT NOT NULL,
    key TEXT NOT NULL,
    tat_ms BIGINT NOT NULL,
    PRIMARY KEY (scope, key)
);
CREATE INDEX login_throttle_by_tat ON login_throttle (scope, tat_ms);
