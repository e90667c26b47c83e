-- Matches whose thread is still to open, and posts whose refusal was dealt with.

-- A match created for Discord (an accepted challenge, a league board with a channel) is held
-- for 'opening' until its thread exists: its clocks start when the thread is made. SQLite
-- cannot change a CHECK constraint, so the table is made again with the new reason.
CREATE TABLE match_holds_new (
    match_id    INTEGER NOT NULL REFERENCES matches(id),
    reason      TEXT NOT NULL CHECK (reason IN ('server', 'thread', 'opening')),
    since       INTEGER NOT NULL,
    PRIMARY KEY (match_id, reason)
);
INSERT INTO match_holds_new (match_id, reason, since)
    SELECT match_id, reason, since FROM match_holds;
DROP TABLE match_holds;
ALTER TABLE match_holds_new RENAME TO match_holds;

-- An outbox post may end 'handled': Discord refused it for good and the refusal was dealt with
-- (a match whose thread cannot be made called off or held, its players told), so nothing is
-- left owed. 'failed' stays for a refusal nothing dealt with.
CREATE TABLE outbox_new (
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
    state TEXT NOT NULL DEFAULT 'pending'
        CHECK (state IN ('pending', 'sent', 'failed', 'handled')),
    last_error TEXT,
    done_at INTEGER
);
INSERT INTO outbox_new SELECT id, match_id, league_id, destination, kind, payload, version,
    created_at, attempts, next_attempt, state, last_error, done_at FROM outbox;
DROP TABLE outbox;
ALTER TABLE outbox_new RENAME TO outbox;
CREATE INDEX outbox_pending ON outbox (state, destination, id);
CREATE INDEX outbox_match ON outbox (match_id, version);
