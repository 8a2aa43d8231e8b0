-- A game record as uploaded, byte for byte (GBK and Big5 files too). `sgf` keeps
-- the decoded text for reading; the download serves these bytes.
ALTER TABLE results ADD COLUMN sgf_bytes BLOB;
