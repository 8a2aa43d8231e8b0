-- How lists ordered by name are ordered: by pinyin (the default) or by stroke count.
ALTER TABLE tournaments ADD COLUMN name_order TEXT NOT NULL DEFAULT 'pinyin';
