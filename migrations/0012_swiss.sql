-- Swiss leagues: a league's format may be 'swiss' (two-player games, the Dutch system) or
-- 'pods' (tables of three or four, grouped by score), played over a set number of rounds a
-- season. SQLite cannot change a CHECK in place, so the table is rebuilt with the same rows
-- (the migration runs with foreign keys off and checks them before it commits).

CREATE TABLE leagues_new (
    id               INTEGER PRIMARY KEY,
    guild_id         TEXT,
    channel_id       TEXT,
    name             TEXT NOT NULL,
    game             TEXT NOT NULL,
    options          TEXT NOT NULL DEFAULT '[]',
    time_control     TEXT NOT NULL DEFAULT 'none',
    format           TEXT NOT NULL
                     CHECK (format IN ('round_robin', 'double_round_robin', 'swiss', 'pods')),
    rated            INTEGER NOT NULL DEFAULT 1,
    tiebreaks        TEXT NOT NULL,
    round_days       INTEGER NOT NULL DEFAULT 7,
    forfeits_to_drop INTEGER NOT NULL DEFAULT 2,
    created_at       INTEGER NOT NULL,
    -- A Swiss season's number of rounds; NULL for a round robin (every player meets every
    -- other).
    rounds           INTEGER CHECK (rounds IS NULL OR rounds BETWEEN 1 AND 50),
    -- What a win, a draw and a loss score, in points: '1,0.5,0'; En Prise leagues score
    -- draws as nothing ('1,0,0').
    scoring          TEXT NOT NULL DEFAULT '1,0.5,0'
);
INSERT INTO leagues_new (id, guild_id, channel_id, name, game, options, time_control, format,
                         rated, tiebreaks, round_days, forfeits_to_drop, created_at, scoring)
    SELECT id, guild_id, channel_id, name, game, options, time_control, format,
           rated, tiebreaks, round_days, forfeits_to_drop, created_at,
           CASE game WHEN 'enprise' THEN '1,0,0' ELSE '1,0.5,0' END
    FROM leagues;
DROP TABLE leagues;
ALTER TABLE leagues_new RENAME TO leagues;
CREATE UNIQUE INDEX leagues_name ON leagues(COALESCE(guild_id, ''), name);

-- The seats of a pods table, in seat order (the pairing's white and black are its first two),
-- with the points each scored (in half points: two for each player finished ahead of), NULL
-- until the table is over; `forfeit` marks the player who never began the game.
CREATE TABLE pairing_seats (
    season_id   INTEGER NOT NULL,
    round       INTEGER NOT NULL,
    board       INTEGER NOT NULL,
    seat        INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 3),
    player_id   INTEGER NOT NULL REFERENCES players(id),
    points      INTEGER CHECK (points IS NULL OR points BETWEEN 0 AND 6),
    forfeit     INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (season_id, round, board, seat),
    FOREIGN KEY (season_id, round, board) REFERENCES pairings(season_id, round, board)
);

-- League requests carried out (closing or re-pairing a round), under the key their adapter
-- gave them (a Discord interaction): the same key again is not carried out a second time.
CREATE TABLE league_requests (
    key         TEXT PRIMARY KEY,
    league_id   INTEGER NOT NULL REFERENCES leagues(id),
    created_at  INTEGER NOT NULL
);
