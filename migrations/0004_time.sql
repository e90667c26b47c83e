-- Slow play: each match's time control and its seats' clocks, and every deadline the scheduler
-- waits on (a clock running out, a reminder, Memory's reveal; later challenges and league rounds).

-- The time control as the players chose it ('none', '3d', '10d+1d max 20d').
ALTER TABLE matches ADD COLUMN time_control TEXT NOT NULL DEFAULT 'none';
-- JSON: each seat's clock (time left, running since), changed in the same transaction as the
-- action that starts or stops it.
ALTER TABLE matches ADD COLUMN clocks TEXT NOT NULL DEFAULT '[]';

CREATE TABLE deadlines (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    -- What the deadline is, unique: the same deadline computed again is the same row, so one
    -- already fired is not added (or fired) again.
    key         TEXT NOT NULL UNIQUE,
    due_at      INTEGER NOT NULL,
    -- 'timeout', 'reminder', 'expire'.
    kind        TEXT NOT NULL,
    match_id    INTEGER REFERENCES matches(id),
    seat        INTEGER,
    -- What the kind needs: a reminder's time left, the version an expiry was set for.
    payload     INTEGER NOT NULL DEFAULT 0,
    -- Set, in the same transaction as the deadline's effect, when it fired.
    fired_at    INTEGER
);
CREATE INDEX deadlines_due ON deadlines(due_at) WHERE fired_at IS NULL;
CREATE INDEX deadlines_match ON deadlines(match_id) WHERE fired_at IS NULL;
