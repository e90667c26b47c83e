-- A server's own rules for the bot, set by its admins with /admin settings: the channels /play
-- may be used in, the default time control, whether typed moves are read in match threads, and
-- how long a member waits between two challenges.
CREATE TABLE server_settings (
    guild_id        TEXT PRIMARY KEY,
    -- JSON array of channel ids; empty: /play may be used anywhere.
    play_channels   TEXT NOT NULL DEFAULT '[]',
    -- The time control a /play without one gets ('none': no clock).
    time_control    TEXT NOT NULL DEFAULT 'none',
    chat_moves      INTEGER NOT NULL DEFAULT 1,
    -- Seconds between two challenges from one member; 0: no cooldown.
    cooldown        INTEGER NOT NULL DEFAULT 0,
    -- A role whose members may use /admin without the Manage Server permission.
    referee_role    TEXT
);

-- Every admin action: a match cancelled, adjudicated or given a substitute, a setting changed.
-- Written in the same transaction as the change it records.
CREATE TABLE admin_actions (
    id          INTEGER PRIMARY KEY,
    guild_id    TEXT NOT NULL,
    -- The match acted on; NULL for a server setting.
    match_id    INTEGER REFERENCES matches(id),
    admin_id    INTEGER NOT NULL REFERENCES players(id),
    -- cancel, adjudicate, substitute, settings
    action      TEXT NOT NULL,
    -- What was done and why, in words.
    detail      TEXT NOT NULL,
    -- The request that did it (a Discord interaction), so a redelivered one is applied once.
    request_key TEXT UNIQUE,
    created_at  INTEGER NOT NULL
);
CREATE INDEX admin_actions_guild ON admin_actions(guild_id, id);
CREATE TRIGGER admin_actions_no_update BEFORE UPDATE ON admin_actions
BEGIN SELECT RAISE(ABORT, 'the admin log is append-only'); END;
CREATE TRIGGER admin_actions_no_delete BEFORE DELETE ON admin_actions
BEGIN SELECT RAISE(ABORT, 'the admin log is append-only'); END;

-- The seat of the player who made each challenge (a rematch may be asked for from any seat),
-- for a server's cooldown between challenges.
ALTER TABLE challenges ADD COLUMN challenger INTEGER NOT NULL DEFAULT 0;
