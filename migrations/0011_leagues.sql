-- Whether a casual match counts for ratings, chosen at /play (kept with the challenge until the
-- match exists). League matches follow their league.
ALTER TABLE challenges ADD COLUMN rated INTEGER NOT NULL DEFAULT 1;
ALTER TABLE matches ADD COLUMN rated INTEGER NOT NULL DEFAULT 1;

-- Leagues: a league (a game, its options and clock, a format) runs seasons; a season has
-- registered players and rounds; a round's pairings link players to the matches they play.

CREATE TABLE leagues (
    id               INTEGER PRIMARY KEY,
    -- Where it runs: a Discord server and its announcements channel; NULL for the console.
    guild_id         TEXT,
    channel_id       TEXT,
    name             TEXT NOT NULL,
    game             TEXT NOT NULL,
    -- JSON array of [key, value] pairs, as for a match.
    options          TEXT NOT NULL DEFAULT '[]',
    time_control     TEXT NOT NULL DEFAULT 'none',
    format           TEXT NOT NULL CHECK (format IN ('round_robin', 'double_round_robin')),
    -- Whether its games count for ratings.
    rated            INTEGER NOT NULL DEFAULT 1,
    -- JSON array of tiebreak names, in order.
    tiebreaks        TEXT NOT NULL,
    -- Days from a round's start to its deadline.
    round_days       INTEGER NOT NULL DEFAULT 7,
    -- A player who forfeits this many games is dropped; 0: never.
    forfeits_to_drop INTEGER NOT NULL DEFAULT 2,
    created_at       INTEGER NOT NULL
);
-- A league's name is unique where it runs (COALESCE: the console counts as one place).
CREATE UNIQUE INDEX leagues_name ON leagues(COALESCE(guild_id, ''), name);

CREATE TABLE seasons (
    id          INTEGER PRIMARY KEY,
    league_id   INTEGER NOT NULL REFERENCES leagues(id),
    number      INTEGER NOT NULL,
    status      TEXT NOT NULL DEFAULT 'registration'
                CHECK (status IN ('registration', 'running', 'finished')),
    -- How many rounds, fixed when the season starts.
    rounds      INTEGER,
    created_at  INTEGER NOT NULL,
    UNIQUE (league_id, number)
);

CREATE TABLE registrations (
    season_id   INTEGER NOT NULL REFERENCES seasons(id),
    player_id   INTEGER NOT NULL REFERENCES players(id),
    -- The start number, given when the season starts (registration order).
    number      INTEGER,
    status      TEXT NOT NULL DEFAULT 'active'
                CHECK (status IN ('active', 'withdrawn', 'dropped')),
    joined_at   INTEGER NOT NULL,
    PRIMARY KEY (season_id, player_id),
    UNIQUE (season_id, number)
);

-- Rounds a player said they cannot play: a half-point bye instead of a game.
CREATE TABLE unavailable (
    season_id   INTEGER NOT NULL REFERENCES seasons(id),
    player_id   INTEGER NOT NULL REFERENCES players(id),
    round       INTEGER NOT NULL,
    PRIMARY KEY (season_id, player_id, round)
);

CREATE TABLE rounds (
    season_id   INTEGER NOT NULL REFERENCES seasons(id),
    number      INTEGER NOT NULL,
    starts_at   INTEGER NOT NULL,
    deadline    INTEGER NOT NULL,
    status      TEXT NOT NULL DEFAULT 'running' CHECK (status IN ('running', 'closed')),
    -- Whether the players of unfinished games were reminded of the deadline.
    reminded    INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (season_id, number)
);

-- A round's games and byes. `black` is NULL for a bye; `match_id` is the match played, if one
-- was. `result`: 1-0, 0-1, 1/2-1/2 over the board; 1X-0F, 0F-1X, 0F-0F by forfeit; bye
-- (a point), half-bye (an announced absence), zero-bye (a withdrawn player); NULL while open.
CREATE TABLE pairings (
    season_id   INTEGER NOT NULL REFERENCES seasons(id),
    round       INTEGER NOT NULL,
    board       INTEGER NOT NULL,
    white       INTEGER NOT NULL REFERENCES players(id),
    black       INTEGER REFERENCES players(id),
    match_id    INTEGER REFERENCES matches(id),
    result      TEXT CHECK (result IN ('1-0', '0-1', '1/2-1/2', '1X-0F', '0F-1X', '0F-0F',
                                       'bye', 'half-bye', 'zero-bye')),
    PRIMARY KEY (season_id, round, board)
);
CREATE INDEX pairings_match ON pairings(match_id);
