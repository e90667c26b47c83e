-- The match of a thread and the computer's seats, found by index (see ../0022_lookups.sql).
CREATE INDEX matches_thread ON matches(thread_id);
CREATE INDEX players_computer ON players(id) WHERE computer IS NOT NULL;
