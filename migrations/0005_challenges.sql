-- Open challenges, kept in the database so they survive a restart. Ids come from AUTOINCREMENT
-- and are never reused (not even after the newest row is deleted): an Accept button from an
-- older challenge can never accept a newer one.
CREATE TABLE challenges (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    game         TEXT NOT NULL,
    -- JSON array of [key, value] pairs, as given with /play.
    options      TEXT NOT NULL,
    -- The time control the match will be played under ('none': no clock).
    time_control TEXT NOT NULL DEFAULT 'none',
    -- The match's random seed, chosen (and checked to give a playable start) with the challenge.
    seed         INTEGER NOT NULL,
    -- Where it was made: a Discord server and channel, and the message with its buttons.
    guild_id     TEXT,
    channel_id   TEXT,
    message_id   TEXT,
    -- Unix seconds.
    created_at   INTEGER NOT NULL,
    expires_at   INTEGER NOT NULL,
    status       TEXT NOT NULL DEFAULT 'open'
                 CHECK (status IN ('open', 'accepted', 'declined', 'expired')),
    -- The match the challenge became, once everyone accepted.
    match_id     INTEGER REFERENCES matches(id),
    CHECK ((status = 'accepted') = (match_id IS NOT NULL))
);
-- What a scheduler looks for: open challenges by the time they expire.
CREATE INDEX challenges_open_expiry ON challenges(expires_at) WHERE status = 'open';

-- Who is challenged, in seat order (seat 0 made the challenge), and when each accepted.
CREATE TABLE challenge_seats (
    challenge_id INTEGER NOT NULL REFERENCES challenges(id) ON DELETE CASCADE,
    seat         INTEGER NOT NULL,
    player_id    INTEGER NOT NULL REFERENCES players(id),
    accepted_at  INTEGER,
    PRIMARY KEY (challenge_id, seat),
    UNIQUE (challenge_id, player_id)
);
