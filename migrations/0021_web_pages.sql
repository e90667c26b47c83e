-- Whether a server's leagues, matches and players are served on the public web pages
-- (`/admin server web:on`). Off until an admin turns it on: nothing is public by default.
ALTER TABLE server_settings ADD COLUMN web INTEGER NOT NULL DEFAULT 0;
