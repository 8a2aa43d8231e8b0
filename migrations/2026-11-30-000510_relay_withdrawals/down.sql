DROP TRIGGER relay_withdrawals_append_only;
DROP TABLE relay_withdrawals;
