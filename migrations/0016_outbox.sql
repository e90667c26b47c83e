-- The outbox: every post the bot owes Discord, written in the same transaction as the change
-- that owes it, and drained by one sender in order per destination.
-- destination: 'match:<id>' (the match's thread, resolved when sent), 'channel:<id>' or
-- 'user:<discord id>' (a direct message). version: the match version a board post shows, by
-- which the interaction that already showed it marks it sent.
-- state: 'pending' (next_attempt says when), 'sent', or 'failed' (refused for good: last_error).
CREATE TABLE outbox (
    id INTEGER PRIMARY KEY,
    match_id INTEGER,
    league_id INTEGER,
    destination TEXT NOT NULL,
    kind TEXT NOT NULL,
    payload TEXT NOT NULL,
    version INTEGER,
    created_at INTEGER NOT NULL,
    attempts INTEGER NOT NULL DEFAULT 0,
    next_attempt INTEGER NOT NULL,
    state TEXT NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'sent', 'failed')),
    last_error TEXT,
    done_at INTEGER
);

CREATE INDEX outbox_pending ON outbox (state, destination, id);
CREATE INDEX outbox_match ON outbox (match_id, version);
