-- Two lookups that read every match before: the match of a thread (each message typed in a
-- thread asks it), and the computer's seats (its worker asks every few seconds), which now
-- start from the few computer players instead of every seat.
CREATE INDEX matches_thread ON matches(thread_id);
CREATE INDEX players_computer ON players(id) WHERE computer IS NOT NULL;
