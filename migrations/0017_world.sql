-- Discord's world changing under the bot.

-- Servers the bot was removed from (GUILD_DELETE, not an outage): their matches are held and
-- their leagues suspended until the bot is back (GUILD_CREATE).
CREATE TABLE removed_guilds (
    guild_id    TEXT PRIMARY KEY,
    since       INTEGER NOT NULL
);

-- Matches whose clocks are held, and why: 'server' (the bot was removed from the server) or
-- 'thread' (the match's thread, or the channel holding it, was deleted). A match runs again
-- once it has no hold left.
CREATE TABLE match_holds (
    match_id    INTEGER NOT NULL REFERENCES matches(id),
    reason      TEXT NOT NULL CHECK (reason IN ('server', 'thread')),
    since       INTEGER NOT NULL,
    PRIMARY KEY (match_id, reason)
);

-- For each match thread, the id (a Discord snowflake) of the last message the bot read there:
-- at start-up it reads what was posted after it.
CREATE TABLE last_seen (
    channel_id  TEXT PRIMARY KEY,
    message_id  INTEGER NOT NULL
);

-- Discord users whose direct messages refused the bot (50007), since when: what would go to
-- their DMs goes to the match thread instead, until a direct message gets through again.
CREATE TABLE closed_dms (
    discord_id  TEXT PRIMARY KEY,
    since       INTEGER NOT NULL
);
