-- A game record as uploaded, byte for byte (GBK and Big5 files too; issue 15 item 6). `sgf` keeps
-- the decoded text for reading; the download serves these bytes.
ALTER TABLE results ADD COLUMN sgf_bytes BLOB;
