-- Players, matches, their seats, the append-only action log, and outcomes.

CREATE TABLE players (
    id          INTEGER PRIMARY KEY,
    name        TEXT NOT NULL,
    -- Discord user id; NULL for players of the local console, who are known by name.
    discord_id  TEXT UNIQUE,
    created_at  INTEGER NOT NULL
);
CREATE UNIQUE INDEX players_local_name ON players(name) WHERE discord_id IS NULL;

CREATE TABLE matches (
    id          INTEGER PRIMARY KEY,
    game        TEXT NOT NULL,
    -- JSON array of [key, value] pairs, as given when the match was created.
    options     TEXT NOT NULL,
    -- The random seed (u64 stored as its i64 bit pattern). Never shown to players.
    seed        INTEGER NOT NULL,
    status      TEXT NOT NULL CHECK (status IN ('active', 'finished', 'aborted')),
    -- Number of changes so far (actions, resignations, draw offers): a stale request
    -- carries an older version and is refused.
    version     INTEGER NOT NULL DEFAULT 0,
    -- Where it is played: a Discord server, channel and thread, or NULL for the console.
    guild_id    TEXT,
    channel_id  TEXT,
    thread_id   TEXT,
    -- The seat with a pending draw offer, if any.
    draw_offer  INTEGER,
    created_at  INTEGER NOT NULL,
    updated_at  INTEGER NOT NULL
);

CREATE TABLE seats (
    match_id    INTEGER NOT NULL REFERENCES matches(id),
    seat        INTEGER NOT NULL,
    player_id   INTEGER NOT NULL REFERENCES players(id),
    PRIMARY KEY (match_id, seat)
);
CREATE INDEX seats_player ON seats(player_id);

CREATE TABLE actions (
    match_id    INTEGER NOT NULL REFERENCES matches(id),
    -- Position in the game's log, from 1.
    ply         INTEGER NOT NULL,
    seat        INTEGER NOT NULL,
    -- The action's canonical text, as the game formats it.
    action      TEXT NOT NULL,
    created_at  INTEGER NOT NULL,
    PRIMARY KEY (match_id, ply)
);
CREATE TRIGGER actions_no_update BEFORE UPDATE ON actions
BEGIN SELECT RAISE(ABORT, 'the action log is append-only'); END;
CREATE TRIGGER actions_no_delete BEFORE DELETE ON actions
BEGIN SELECT RAISE(ABORT, 'the action log is append-only'); END;

CREATE TABLE outcomes (
    match_id    INTEGER PRIMARY KEY REFERENCES matches(id),
    -- JSON array of places, best first, each an array of seats.
    places      TEXT NOT NULL,
    reason      TEXT NOT NULL,
    finished_at INTEGER NOT NULL
);
