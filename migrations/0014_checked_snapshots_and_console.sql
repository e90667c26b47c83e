-- Snapshots that name what they summarise, and what a console keeps between runs.

-- A digest of the snapshot's match, plies and rules revision, the log's action it follows and
-- its state: a snapshot that does not match its log (copied from elsewhere, damaged, left
-- behind) is not used, and the log is replayed instead. Snapshots saved before have none and
-- are replaced by the next action.
ALTER TABLE snapshots ADD COLUMN digest TEXT;

-- The simulated time of a match played on the console's simulated clock, so that resuming it
-- goes on at the time `wait` had reached.
CREATE TABLE console_clocks (
    match_id    INTEGER PRIMARY KEY REFERENCES matches(id),
    now         INTEGER NOT NULL
);

-- The lines a named console session ran, by number: the same session fed a script again
-- skips what it did, and refuses a line that differs from what that number held.
CREATE TABLE console_lines (
    session     TEXT NOT NULL,
    match_id    INTEGER NOT NULL REFERENCES matches(id),
    line        INTEGER NOT NULL,
    text        TEXT NOT NULL,
    PRIMARY KEY (session, match_id, line)
);
