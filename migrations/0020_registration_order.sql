-- The order registrations came in, kept in a column of its own: it used to be SQLite's hidden
-- rowid, which PostgreSQL has no equivalent of. Rows already stored keep the order they had.
ALTER TABLE registrations ADD COLUMN came INTEGER;
UPDATE registrations SET came = rowid;
