-- How lists ordered by name are ordered: by pinyin (the default) or by stroke count (issue 15 item 3).
ALTER TABLE tournaments ADD COLUMN name_order TEXT NOT NULL DEFAULT 'pinyin';
