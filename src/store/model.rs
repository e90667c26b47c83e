//! What the store keeps, as the rest of the program sees it: players, places, matches, their
//! actions and snapshots, the changes a match takes, and the store's errors.

use super::NewDeadline;
use super::db::DbError;
use crate::engine::{Outcome, Seat};
use crate::games::GameKind;
use rusqlite::ErrorCode;
use thiserror::Error;

pub type MatchId = i64;
pub type PlayerId = i64;

#[derive(Debug, Error)]
pub enum StoreError {
    #[error("database error: {0}")]
    Db(#[from] DbError),
    #[error("there is no match #{0}")]
    NoSuchMatch(MatchId),
    #[error(
        "match #{id} has moved on (you saw version {expected}, it is at {actual}); look again and retry"
    )]
    Stale {
        id: MatchId,
        expected: u64,
        actual: u64,
    },
    #[error("match #{id} is {status}")]
    NotActive { id: MatchId, status: Status },
    #[error("match #{id} is damaged in storage: {detail}")]
    Corrupt { id: MatchId, detail: String },
    #[error(
        "the database was written by a newer deckmate (schema {found}, this build knows {known})"
    )]
    NewerSchema { found: u32, known: u32 },
    #[error("the database file is damaged: {0}")]
    Damaged(String),
    /// A request with this key was applied before.
    #[error("request {0} was already applied")]
    Duplicate(String),
}

impl StoreError {
    /// What went wrong, in a few words a user can act on ("the database is read-only"); the
    /// error itself keeps SQLite's detail for the log.
    pub fn short(&self) -> &'static str {
        let code = match self {
            StoreError::Db(e) if e.is_disconnected() => {
                return "the database server cannot be reached";
            }
            StoreError::Db(e) => match e.sqlstate() {
                Some("53100") => return "the disk is full",
                Some("25006") => return "the database is read-only",
                Some(_) => return "storage failed",
                None => e.sqlite_error_code(),
            },
            StoreError::Damaged(_) => return "the database file is damaged",
            StoreError::Corrupt { .. } => return "the match is damaged in storage",
            StoreError::NewerSchema { .. } => return "the database is from a newer deckmate",
            _ => return "storage failed",
        };
        match code {
            Some(ErrorCode::ReadOnly) => "the database is read-only",
            Some(ErrorCode::DatabaseBusy | ErrorCode::DatabaseLocked) => {
                "the database is locked by another program"
            }
            Some(ErrorCode::DatabaseCorrupt | ErrorCode::NotADatabase) => {
                "the database file is damaged"
            }
            Some(ErrorCode::DiskFull) => "the disk is full",
            Some(ErrorCode::CannotOpen | ErrorCode::PermissionDenied) => {
                "the database file cannot be opened"
            }
            Some(ErrorCode::SystemIoFailure) => "the disk could not be read or written",
            _ => "storage failed",
        }
    }
}

impl From<rusqlite::Error> for StoreError {
    fn from(e: rusqlite::Error) -> Self {
        StoreError::Db(DbError::Sqlite(e))
    }
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Status {
    Active,
    Finished,
    Aborted,
}

impl Status {
    pub(super) fn as_str(self) -> &'static str {
        match self {
            Status::Active => "active",
            Status::Finished => "finished",
            Status::Aborted => "aborted",
        }
    }

    pub(super) fn parse(text: &str) -> Option<Status> {
        Some(match text {
            "active" => Status::Active,
            "finished" => Status::Finished,
            "aborted" => Status::Aborted,
            _ => return None,
        })
    }
}

impl std::fmt::Display for Status {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Player {
    pub id: PlayerId,
    pub name: String,
    pub discord_id: Option<String>,
}

/// Where a match is played; all None for the console.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Place {
    pub guild_id: Option<String>,
    pub channel_id: Option<String>,
    pub thread_id: Option<String>,
}

/// A match's state as last saved: the game and its random source after `plies` actions, as
/// JSON the table reads back ([`Change::Snapshot`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Snapshot {
    pub plies: u64,
    pub rules: u32,
    pub state: String,
    /// What the snapshot summarises, as the table computes it; None for one saved before
    /// snapshots were checked.
    pub digest: Option<String>,
}

/// What a request did when it was first applied ([`Store::request`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Applied {
    pub match_id: MatchId,
    pub version: u64,
    /// JSON of the lines it produced, as the table stored them.
    pub lines: String,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredAction {
    pub seat: Seat,
    pub text: String,
}

/// A match as stored, before its log is replayed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredMatch {
    pub id: MatchId,
    pub game: GameKind,
    pub options: Vec<(String, String)>,
    pub seed: u64,
    pub status: Status,
    pub version: u64,
    /// The revision of the game's rules the match is played under.
    pub rules: u32,
    /// How many actions the log holds.
    pub plies: u64,
    /// Seat i is `players[i]`.
    pub players: Vec<Player>,
    /// The log from action `first_ply + 1` on: the whole log from [`Store::load`], none of it
    /// from [`Store::load_head`].
    pub actions: Vec<StoredAction>,
    pub first_ply: u64,
    pub outcome: Option<Outcome>,
    /// Seats that have agreed to a draw since the last action, in seat order.
    pub draw_votes: Vec<Seat>,
    pub place: Place,
    /// The time control as stored ("none", "3d"), and the seats' clocks (JSON), for the table.
    pub time_control: String,
    pub clocks: String,
}

/// A new match's clock: its time control, the seats' clocks (JSON) and its first deadlines.
#[derive(Clone, Copy, Debug)]
pub struct Timing<'a> {
    pub control: &'a str,
    pub clocks: &'a str,
    pub deadlines: &'a [NewDeadline],
}

/// One line of a player's match list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MatchSummary {
    pub id: MatchId,
    pub game: GameKind,
    pub status: Status,
    pub version: u64,
    pub seat: Seat,
}

/// What a change does besides bumping the version.
#[derive(Clone, Debug, PartialEq)]
pub enum Change<'a> {
    /// Appends an action to the log and clears any draw votes.
    Action {
        seat: Seat,
        text: &'a str,
    },
    /// Sets the seats that agree to a draw (empty: no offer stands).
    DrawVotes(&'a [Seat]),
    Finish(&'a Outcome),
    Abort,
    /// Saves the game's state after the change (replacing the previous snapshot).
    Snapshot(&'a Snapshot),
    /// Records the request that made the change under its key; the key used before makes the
    /// whole change fail with [`StoreError::Duplicate`], unless `replaces` names exactly the
    /// lines stored under it: a refusal this request supersedes (an action refused until its
    /// player confirmed it, and now confirmed).
    Request {
        key: &'a str,
        lines: &'a str,
        replaces: Option<&'a str>,
    },
    /// Sets the seats' clocks (JSON).
    Clocks(&'a str),
    /// Makes these the match's pending deadlines.
    Deadlines(&'a [NewDeadline]),
    /// Marks the deadline that caused the change as fired; one fired already makes the whole
    /// change fail with [`StoreError::Duplicate`].
    Claim {
        deadline: i64,
    },
    /// Gives `seat` to another player (a substitute an admin named).
    Reseat {
        seat: Seat,
        player: PlayerId,
    },
    /// Records an admin's action on the match in the server's admin log.
    Admin {
        admin: PlayerId,
        action: &'a str,
        detail: &'a str,
    },
    /// Writes a post the change owes to the outbox ([`outbox`]).
    Owe(&'a super::outbox::NewPost),
}

impl Change<'_> {
    /// A change checked before the version: a repeat of it is a duplicate, not a stale version.
    pub(super) fn is_precondition(&self) -> bool {
        matches!(self, Change::Request { .. } | Change::Claim { .. })
    }
}
