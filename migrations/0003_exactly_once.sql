-- Exactly-once requests, logs that check themselves, snapshots and rules revisions.

-- How many actions the log holds, kept in the same transaction as each action: a log that lost
-- rows (a damaged file) no longer agrees with it.
ALTER TABLE matches ADD COLUMN plies INTEGER NOT NULL DEFAULT 0;
UPDATE matches SET plies = (SELECT COUNT(*) FROM actions WHERE actions.match_id = matches.id);

-- The revision of its game's rules the match is played under. Matches stored before revisions
-- were kept played under the first.
ALTER TABLE matches ADD COLUMN rules INTEGER NOT NULL DEFAULT 1;

-- Every request that changed a match or was refused by it, under the key its adapter gave it
-- (a Discord interaction or message id, a console session and line): the same key again is the
-- same request, answered as it was the first time and applied no second time.
CREATE TABLE requests (
    key         TEXT PRIMARY KEY,
    match_id    INTEGER NOT NULL REFERENCES matches(id),
    -- The match's version once the request was applied.
    version     INTEGER NOT NULL,
    -- JSON: the lines the request produced, for everyone and for single seats.
    lines       TEXT NOT NULL,
    created_at  INTEGER NOT NULL
);
CREATE INDEX requests_match ON requests(match_id);

-- The latest state of each match, so loading one replays at most a short tail of its log. The
-- log stays the truth: a snapshot that cannot be read is ignored and the log replayed.
CREATE TABLE snapshots (
    match_id    INTEGER PRIMARY KEY REFERENCES matches(id),
    -- The number of actions the state has taken in.
    plies       INTEGER NOT NULL,
    rules       INTEGER NOT NULL,
    -- JSON: the game state and its random source.
    state       TEXT NOT NULL
);
