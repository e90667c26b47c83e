//! Challenges in storage: a challenge to a game waits for its invited players' answers in the
//! database (migration 0005), so it survives a restart and its id is never reused.
//!
//! Accepting is one `BEGIN IMMEDIATE` transaction that records the acceptance and, when it was
//! the last one, creates the match and marks the challenge accepted with it: two players
//! accepting at once both count, and a final Accept pressed twice creates one match. Every
//! function takes the time (`now`, unix seconds) from its caller, never from the system clock,
//! so tests and a simulated clock decide what has expired.

use super::db::{Connection, OptionalExtension, params};
use super::{
    MatchId, Place, Player, PlayerId, Store, StoreError, Timing, insert_match, set_timing,
};
use crate::games::GameKind;
use thiserror::Error;

pub type ChallengeId = i64;

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ChallengeStatus {
    /// Waiting for answers.
    Open,
    /// Everyone accepted; the match was created.
    Accepted,
    Declined,
    Expired,
}

impl ChallengeStatus {
    fn parse(text: &str) -> Option<ChallengeStatus> {
        Some(match text {
            "open" => ChallengeStatus::Open,
            "accepted" => ChallengeStatus::Accepted,
            "declined" => ChallengeStatus::Declined,
            "expired" => ChallengeStatus::Expired,
            _ => return None,
        })
    }
}

/// A challenge to store ([`Store::create_challenge`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewChallenge {
    pub game: GameKind,
    pub options: Vec<(String, String)>,
    /// The time control's text ("none" for no clock).
    pub time_control: String,
    /// The seed the match will be played with.
    pub seed: u64,
    /// Seat order, the challenger's seat among them (see [`Store::create_challenge_by`]).
    pub players: Vec<PlayerId>,
    pub guild_id: Option<String>,
    pub channel_id: Option<String>,
    /// How long it stays open, in seconds.
    pub lasts: i64,
    /// Whether the match will count for ratings.
    pub rated: bool,
}

/// A challenge as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Challenge {
    pub id: ChallengeId,
    pub game: GameKind,
    pub options: Vec<(String, String)>,
    pub time_control: String,
    pub seed: u64,
    pub guild_id: Option<String>,
    pub channel_id: Option<String>,
    /// The message with the challenge's buttons, once posted.
    pub message_id: Option<String>,
    pub created_at: i64,
    pub expires_at: i64,
    pub status: ChallengeStatus,
    /// The match it became, once accepted.
    pub match_id: Option<MatchId>,
    /// Seat order (the challenger's seat is `challenger`).
    pub seats: Vec<ChallengeSeat>,
    /// The seat of the player who challenged (and accepted by challenging).
    pub challenger: usize,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChallengeSeat {
    pub player: Player,
    pub accepted_at: Option<i64>,
}

impl Challenge {
    /// The player who challenged.
    pub fn challenger(&self) -> &Player {
        &self.seats[self.challenger.min(self.seats.len() - 1)].player
    }

    /// Everyone else, in seat order.
    pub fn invited(&self) -> Vec<&Player> {
        self.seats
            .iter()
            .enumerate()
            .filter(|&(i, _)| i != self.challenger)
            .map(|(_, s)| &s.player)
            .collect()
    }

    /// The players who have not accepted yet, in seat order.
    pub fn waiting(&self) -> Vec<&Player> {
        self.seats
            .iter()
            .filter(|s| s.accepted_at.is_none())
            .map(|s| &s.player)
            .collect()
    }
}

/// What an acceptance did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Accepted {
    /// Recorded; others still have to accept.
    Waiting(Challenge),
    /// It was the last acceptance: the match was created.
    Started {
        challenge: Challenge,
        match_id: MatchId,
    },
}

/// The most active matches one person may play against the computer at once.
pub const MOST_COMPUTER_MATCHES: usize = 10;

/// Why a challenge cannot be answered.
#[derive(Debug, Error)]
pub enum ChallengeError {
    #[error("there is no challenge #{0}")]
    NoSuchChallenge(ChallengeId),
    #[error("challenge #{0} is not addressed to you")]
    NotAddressed(ChallengeId),
    #[error("you have already accepted challenge #{0}")]
    AlreadyAccepted(ChallengeId),
    #[error("challenge #{0} was declined")]
    Declined(ChallengeId),
    /// Open past its time (whether or not anything marked it expired yet): `at` is when it
    /// expired, in unix seconds.
    #[error("challenge #{id} expired at {at}")]
    Expired { id: ChallengeId, at: i64 },
    /// Everyone accepted before: the match it became, and its thread once it has one.
    #[error("challenge #{id} was already accepted: it is match #{match_id}")]
    AlreadyStarted {
        id: ChallengeId,
        match_id: MatchId,
        thread_id: Option<String>,
    },
    /// Everyone accepted, but the match's thread could not be made: the match was called off.
    #[error("challenge #{id} was accepted, but its match #{match_id} was called off")]
    CalledOff { id: ChallengeId, match_id: MatchId },
    /// This server asks members to wait between challenges: the next may be made at `until`
    /// (unix seconds).
    #[error("this server asks you to wait until {until} before your next challenge")]
    Cooldown { until: i64 },
    /// The one challenging already plays the computer in this many active matches.
    #[error("you already play the computer in {most} matches")]
    ComputerMatches { most: usize },
    #[error("challenge #{id} is damaged in storage: {detail}")]
    Corrupt { id: ChallengeId, detail: String },
    #[error(transparent)]
    Store(#[from] StoreError),
}

impl From<super::db::DbError> for ChallengeError {
    fn from(e: super::db::DbError) -> Self {
        ChallengeError::Store(e.into())
    }
}

impl Store {
    /// Stores a new open challenge made at `now`; the challenger (seat 0) has accepted by
    /// making it.
    pub fn create_challenge(
        &mut self,
        new: &NewChallenge,
        now: i64,
    ) -> Result<Challenge, ChallengeError> {
        self.create_challenge_by(new, 0, now)
    }

    /// [`Store::create_challenge`] made by the player in seat `challenger` (a rematch keeps
    /// the seats turned round, whoever asks for it).
    pub fn create_challenge_by(
        &mut self,
        new: &NewChallenge,
        challenger: usize,
        now: i64,
    ) -> Result<Challenge, ChallengeError> {
        let tx = self.write()?;
        // A server's cooldown between two challenges from one member, checked in the same
        // transaction, so two challenges sent at once cannot both slip through.
        if let (Some(guild), Some(&player)) = (&new.guild_id, new.players.get(challenger)) {
            let until = super::admin::cooldown_until(&tx, guild, player)?;
            if let Some(until) = until.filter(|&until| until > now) {
                return Err(ChallengeError::Cooldown { until });
            }
        }
        // The computer's matches are each read whenever it looks for its turns: one member
        // may play it in only so many at once, open challenges included.
        if let Some(&player) = new.players.get(challenger)
            && any_computer(&tx, &new.players)?
        {
            computer_room(&tx, player, now, None)?;
        }
        let options = serde_json::to_string(&new.options).expect("pairs serialise");
        let id: i64 = tx.query_row(
            "INSERT INTO challenges (game, options, time_control, seed, guild_id, channel_id,
                                     created_at, expires_at, challenger, rated)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10) RETURNING id",
            params![
                new.game.id(),
                options,
                new.time_control,
                new.seed as i64,
                new.guild_id,
                new.channel_id,
                now,
                now + new.lasts,
                challenger as i64,
                new.rated
            ],
            |r| r.get(0),
        )?;
        for (seat, player) in new.players.iter().enumerate() {
            tx.execute(
                "INSERT INTO challenge_seats (challenge_id, seat, player_id, accepted_at)
                 VALUES (?1, ?2, ?3, ?4)",
                params![id, seat as i64, player, (seat == challenger).then_some(now)],
            )?;
        }
        let challenge = read(&tx, id)?.ok_or(ChallengeError::NoSuchChallenge(id))?;
        tx.commit()?;
        Ok(challenge)
    }

    /// The challenge `id` as stored (whatever its status).
    pub fn challenge(&self, id: ChallengeId) -> Result<Challenge, ChallengeError> {
        read(&self.conn, id)?.ok_or(ChallengeError::NoSuchChallenge(id))
    }

    /// Records the message that carries the challenge's buttons.
    pub fn set_challenge_message(
        &mut self,
        id: ChallengeId,
        message_id: &str,
    ) -> Result<(), ChallengeError> {
        let n = self.conn.execute(
            "UPDATE challenges SET message_id = ?1 WHERE id = ?2",
            params![message_id, id],
        )?;
        if n == 0 {
            return Err(ChallengeError::NoSuchChallenge(id));
        }
        Ok(())
    }

    /// `player` accepts challenge `id` at `now`, in one write transaction: the acceptance is
    /// recorded and, when it was the last, the match is created (seats in the challenge's
    /// order, no thread yet, with `timing` as its clock) and the challenge marked accepted
    /// with it.
    pub fn accept_challenge(
        &mut self,
        id: ChallengeId,
        player: PlayerId,
        now: i64,
        timing: Option<Timing>,
    ) -> Result<Accepted, ChallengeError> {
        let tx = self.write()?;
        let challenge = answerable(&tx, id, player, now)?;
        let seat = seat_of(&challenge, player).expect("answerable checks the seat");
        if challenge.seats[seat].accepted_at.is_some() {
            return Err(ChallengeError::AlreadyAccepted(id));
        }
        let players: Vec<PlayerId> = challenge.seats.iter().map(|s| s.player.id).collect();
        if !any_computer(&tx, &[player])? && any_computer(&tx, &players)? {
            computer_room(&tx, player, now, Some(id))?;
        }
        tx.execute(
            "UPDATE challenge_seats SET accepted_at = ?1 WHERE challenge_id = ?2 AND seat = ?3",
            params![now, id, seat as i64],
        )?;
        let last = challenge.waiting().len() == 1;
        let mut started = None;
        if last {
            let place = Place {
                guild_id: challenge.guild_id.clone(),
                channel_id: challenge.channel_id.clone(),
                thread_id: None,
            };
            let game = challenge.game;
            let match_id = insert_match(
                &tx,
                game,
                &challenge.options,
                challenge.seed,
                &players,
                &place,
                game.rules(),
                now,
            )?;
            if let Some(timing) = timing {
                set_timing(&tx, match_id, &timing)?;
            }
            tx.execute(
                "UPDATE challenges SET status = 'accepted', match_id = ?1 WHERE id = ?2",
                params![match_id, id],
            )?;
            // Rated or casual, as the challenge said.
            tx.execute(
                "UPDATE matches SET rated = (SELECT rated FROM challenges WHERE id = ?2)
                 WHERE id = ?1",
                params![match_id, id],
            )?;
            started = Some(match_id);
        }
        let after = read(&tx, id)?.ok_or(ChallengeError::NoSuchChallenge(id))?;
        tx.commit()?;
        Ok(match started {
            Some(match_id) => Accepted::Started {
                challenge: after,
                match_id,
            },
            None => Accepted::Waiting(after),
        })
    }

    /// `player` (the challenger withdrawing, or an invited player) declines challenge `id`.
    pub fn decline_challenge(
        &mut self,
        id: ChallengeId,
        player: PlayerId,
        now: i64,
    ) -> Result<Challenge, ChallengeError> {
        let tx = self.write()?;
        answerable(&tx, id, player, now)?;
        tx.execute(
            "UPDATE challenges SET status = 'declined' WHERE id = ?1 AND status = 'open'",
            [id],
        )?;
        let after = read(&tx, id)?.ok_or(ChallengeError::NoSuchChallenge(id))?;
        tx.commit()?;
        Ok(after)
    }

    /// Marks challenge `id` expired if it is open and its time is up at `now`; says whether it
    /// did (false: answered before, or not yet due).
    pub fn expire_challenge(&mut self, id: ChallengeId, now: i64) -> Result<bool, ChallengeError> {
        let n = self.conn.execute(
            "UPDATE challenges SET status = 'expired'
             WHERE id = ?1 AND status = 'open' AND expires_at <= ?2",
            params![id, now],
        )?;
        if n == 0 {
            self.challenge(id)?;
        }
        Ok(n > 0)
    }

    /// When the next open challenge expires, if one is open.
    pub fn next_challenge_expiry(&self) -> Result<Option<i64>, ChallengeError> {
        Ok(self.conn.query_row(
            "SELECT MIN(expires_at) FROM challenges WHERE status = 'open'",
            [],
            |r| r.get(0),
        )?)
    }

    /// Open challenges whose time is up at `now`, soonest first: what a scheduler expires.
    pub fn due_challenges(&self, now: i64) -> Result<Vec<ChallengeId>, ChallengeError> {
        let mut stmt = self.conn.prepare(
            "SELECT id FROM challenges WHERE status = 'open' AND expires_at <= ?1
             ORDER BY expires_at, id",
        )?;
        let rows = stmt.query_map([now], |r| r.get(0))?;
        Ok(rows.collect::<Result<_, _>>()?)
    }
}

fn seat_of(challenge: &Challenge, player: PlayerId) -> Option<usize> {
    challenge.seats.iter().position(|s| s.player.id == player)
}

/// The challenge, if it is open at `now` and `player` holds one of its seats; otherwise why
/// not.
fn answerable(
    conn: &Connection,
    id: ChallengeId,
    player: PlayerId,
    now: i64,
) -> Result<Challenge, ChallengeError> {
    let challenge = read(conn, id)?.ok_or(ChallengeError::NoSuchChallenge(id))?;
    match challenge.status {
        ChallengeStatus::Accepted => {
            let match_id = challenge.match_id.ok_or_else(|| ChallengeError::Corrupt {
                id,
                detail: "accepted without a match".into(),
            })?;
            let found: Option<(Option<String>, String)> = conn
                .query_row(
                    "SELECT thread_id, status FROM matches WHERE id = ?1",
                    [match_id],
                    |r| Ok((r.get(0)?, r.get(1)?)),
                )
                .optional()?;
            let (thread_id, status) = found.unzip();
            let thread_id = thread_id.flatten();
            // Called off before its thread ever opened (it could not be made).
            if thread_id.is_none() && status.as_deref() == Some("aborted") {
                return Err(ChallengeError::CalledOff { id, match_id });
            }
            return Err(ChallengeError::AlreadyStarted {
                id,
                match_id,
                thread_id,
            });
        }
        ChallengeStatus::Declined => return Err(ChallengeError::Declined(id)),
        ChallengeStatus::Expired => {
            return Err(ChallengeError::Expired {
                id,
                at: challenge.expires_at,
            });
        }
        ChallengeStatus::Open if now >= challenge.expires_at => {
            return Err(ChallengeError::Expired {
                id,
                at: challenge.expires_at,
            });
        }
        ChallengeStatus::Open => {}
    }
    if seat_of(&challenge, player).is_none() {
        return Err(ChallengeError::NotAddressed(id));
    }
    Ok(challenge)
}

fn read(conn: &Connection, id: ChallengeId) -> Result<Option<Challenge>, ChallengeError> {
    type Row = (
        String,
        String,
        String,
        i64,
        Option<String>,
        Option<String>,
        Option<String>,
        i64,
        i64,
        String,
        Option<MatchId>,
        i64,
    );
    let row: Option<Row> = conn
        .query_row(
            "SELECT game, options, time_control, seed, guild_id, channel_id, message_id,
                    created_at, expires_at, status, match_id, challenger
             FROM challenges WHERE id = ?1",
            [id],
            |r| {
                Ok((
                    r.get(0)?,
                    r.get(1)?,
                    r.get(2)?,
                    r.get(3)?,
                    r.get(4)?,
                    r.get(5)?,
                    r.get(6)?,
                    r.get(7)?,
                    r.get(8)?,
                    r.get(9)?,
                    r.get(10)?,
                    r.get(11)?,
                ))
            },
        )
        .optional()?;
    let Some((
        game,
        options,
        time_control,
        seed,
        guild_id,
        channel_id,
        message_id,
        created_at,
        expires_at,
        status,
        match_id,
        challenger,
    )) = row
    else {
        return Ok(None);
    };
    let corrupt = |detail: String| ChallengeError::Corrupt { id, detail };
    let mut stmt = conn.prepare(
        "SELECT p.id, p.name, p.discord_id, s.accepted_at FROM challenge_seats s
         JOIN players p ON p.id = s.player_id
         WHERE s.challenge_id = ?1 ORDER BY s.seat",
    )?;
    let seats = stmt
        .query_map([id], |r| {
            Ok(ChallengeSeat {
                player: Player {
                    id: r.get(0)?,
                    name: r.get(1)?,
                    discord_id: r.get(2)?,
                },
                accepted_at: r.get(3)?,
            })
        })?
        .collect::<Result<Vec<_>, _>>()?;
    if seats.len() < 2 {
        return Err(corrupt(format!("{} seats", seats.len())));
    }
    let challenger = usize::try_from(challenger)
        .ok()
        .filter(|&c| c < seats.len())
        .ok_or_else(|| {
            corrupt(format!(
                "challenger in seat {challenger} of {}",
                seats.len()
            ))
        })?;
    Ok(Some(Challenge {
        id,
        game: game.parse().map_err(corrupt)?,
        options: serde_json::from_str(&options)
            .map_err(|e| corrupt(format!("bad options: {e}")))?,
        time_control,
        seed: seed as u64,
        guild_id,
        channel_id,
        message_id,
        created_at,
        expires_at,
        status: ChallengeStatus::parse(&status)
            .ok_or_else(|| corrupt(format!("bad status {status:?}")))?,
        match_id,
        seats,
        challenger,
    }))
}

/// Whether any of `players` is the computer.
fn any_computer(tx: &Connection, players: &[PlayerId]) -> Result<bool, StoreError> {
    for player in players {
        let computer: i64 = tx.query_row(
            "SELECT COUNT(*) FROM players WHERE id = ?1 AND computer IS NOT NULL",
            [player],
            |r| r.get(0),
        )?;
        if computer > 0 {
            return Ok(true);
        }
    }
    Ok(false)
}

/// Refuses when `player` already plays the computer in [`MOST_COMPUTER_MATCHES`] active
/// matches and open challenges (`except` this one).
fn computer_room(
    tx: &Connection,
    player: PlayerId,
    now: i64,
    except: Option<ChallengeId>,
) -> Result<(), ChallengeError> {
    let matches: i64 = tx.query_row(
        "SELECT COUNT(DISTINCT m.id) FROM matches m
         JOIN seats me ON me.match_id = m.id AND me.player_id = ?1
         JOIN seats c ON c.match_id = m.id
         JOIN players p ON p.id = c.player_id
         WHERE m.status = 'active' AND p.computer IS NOT NULL",
        [player],
        |r| r.get(0),
    )?;
    let challenges: i64 = tx.query_row(
        "SELECT COUNT(DISTINCT ch.id) FROM challenges ch
         JOIN challenge_seats me ON me.challenge_id = ch.id AND me.player_id = ?1
         JOIN challenge_seats c ON c.challenge_id = ch.id
         JOIN players p ON p.id = c.player_id
         WHERE ch.status = 'open' AND ch.expires_at > ?2 AND ch.id <> ?3
           AND p.computer IS NOT NULL",
        params![player, now, except.unwrap_or(-1)],
        |r| r.get(0),
    )?;
    if matches + challenges >= MOST_COMPUTER_MATCHES as i64 {
        return Err(ChallengeError::ComputerMatches {
            most: MOST_COMPUTER_MATCHES,
        });
    }
    Ok(())
}

#[cfg(test)]
#[path = "tests/challenges.rs"]
mod tests;
