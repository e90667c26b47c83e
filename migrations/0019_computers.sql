-- The computer player. Each computer seat is a player of its own without a Discord account
-- ('cpu-hard', and 'cpu-hard-2' for a second one at a table), marked with the level it plays
-- at; a person's row never has one.
ALTER TABLE players ADD COLUMN computer TEXT
    CHECK (computer IS NULL OR (computer IN ('easy', 'medium', 'hard') AND discord_id IS NULL));

-- Whether a server's matches against the computer may count for ratings (off: they never do).
ALTER TABLE server_settings ADD COLUMN computers_rated INTEGER NOT NULL DEFAULT 0;
