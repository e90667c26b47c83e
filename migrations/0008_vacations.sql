-- Vacations: a player pauses every clock of theirs from starts_at until ends_at (whole days),
-- or until ended_at when they came back early. At most 14 days in a calendar year (UTC),
-- counted in the year a vacation starts.
CREATE TABLE vacations (
    id INTEGER PRIMARY KEY,
    player_id INTEGER NOT NULL REFERENCES players(id),
    starts_at INTEGER NOT NULL,
    ends_at INTEGER NOT NULL CHECK (ends_at > starts_at),
    ended_at INTEGER
);
CREATE INDEX vacations_of_player ON vacations (player_id, starts_at);
