ALTER TABLE tournaments DROP COLUMN name_order;
