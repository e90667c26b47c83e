-- Whether a server is served on the public web pages (see ../0021_web_pages.sql).
ALTER TABLE server_settings ADD COLUMN web BIGINT NOT NULL DEFAULT 0;
CREATE INDEX matches_guild ON matches(guild_id);
