-- Whether a server's leagues, matches and players are served on the public web pages
-- (`/admin server web:on`). Off until an admin turns it on: nothing is public by default.
ALTER TABLE server_settings ADD COLUMN web INTEGER NOT NULL DEFAULT 0;
-- A server's pages ask what changed among its matches on every request they do not serve from
-- memory: its matches are found by their server, not by reading them all.
CREATE INDEX matches_guild ON matches(guild_id);
