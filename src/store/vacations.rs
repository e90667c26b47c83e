//! Vacations: a player pauses every clock of theirs for whole days, at most
//! [`VACATION_DAYS`] in a calendar year (UTC, counted in the year a vacation starts; a day
//! begun counts whole when they come back early). The table pauses and resumes the clocks.

use super::db::{OptionalExtension, params};
use super::{PlayerId, Store, StoreError};
use thiserror::Error;

/// The most vacation days a player may take in a calendar year.
pub const VACATION_DAYS: i64 = 14;

const DAY: i64 = 86_400;

/// A player's vacation: from `starts_at` until `ends_at` (when they came back, if early).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Vacation {
    pub id: i64,
    pub player: PlayerId,
    pub starts_at: i64,
    pub ends_at: i64,
}

#[derive(Debug, Error)]
pub enum VacationError {
    #[error(transparent)]
    Store(#[from] StoreError),
    /// The table says when it ends, in plain words (`until`, seconds since the epoch).
    #[error("you are on vacation already; end it first to declare another")]
    AlreadyAway { until: i64 },
    #[error("a vacation lasts whole days, from 1 to {VACATION_DAYS}, not {0}")]
    Days(i64),
    #[error(
        "you have {left} vacation day(s) left in {year} ({VACATION_DAYS} a year); {asked} is too many"
    )]
    TooMany { asked: i64, left: i64, year: i64 },
    #[error("you are not on vacation")]
    NotAway,
}

impl From<super::db::DbError> for VacationError {
    fn from(e: super::db::DbError) -> Self {
        VacationError::Store(e.into())
    }
}

/// The SQL for a vacation's days used: whole days, a day begun counting whole.
const DAYS_USED: &str =
    "(CASE WHEN ended_at < ends_at THEN ended_at ELSE ends_at END - starts_at + 86399) / 86400";

fn active(
    conn: &super::db::Connection,
    player: PlayerId,
    now: i64,
) -> Result<Option<Vacation>, super::db::DbError> {
    conn.query_row(
        "SELECT id, starts_at, CASE WHEN ended_at < ends_at THEN ended_at ELSE ends_at END FROM vacations
         WHERE player_id = ?1 AND starts_at <= ?2 AND COALESCE(ended_at, ends_at) > ?2
         ORDER BY starts_at DESC LIMIT 1",
        params![player, now],
        |r| {
            Ok(Vacation {
                id: r.get(0)?,
                player,
                starts_at: r.get(1)?,
                ends_at: r.get(2)?,
            })
        },
    )
    .optional()
}

fn used(
    conn: &super::db::Connection,
    player: PlayerId,
    now: i64,
) -> Result<(i64, i64), super::db::DbError> {
    let (year, from, until) = utc_year(now);
    let days = conn.query_row(
        &format!(
            "SELECT CAST(COALESCE(SUM({DAYS_USED}), 0) AS BIGINT) FROM vacations
             WHERE player_id = ?1 AND starts_at >= ?2 AND starts_at < ?3"
        ),
        params![player, from, until],
        |r| r.get(0),
    )?;
    Ok((days, year))
}

/// The UTC calendar year `now` falls in, and its first and one-past-last second.
fn utc_year(now: i64) -> (i64, i64, i64) {
    let utc = jiff::tz::TimeZone::UTC;
    // Past the last year a date can hold, the year never ends.
    let start = |year: i16| {
        jiff::civil::Date::new(year, 1, 1)
            .ok()
            .and_then(|d| utc.to_timestamp(d.at(0, 0, 0, 0)).ok())
            .map_or(i64::MAX, |t| t.as_second())
    };
    let year: i16 = jiff::Timestamp::from_second(now).map_or(1970, |t| utc.to_datetime(t).year());
    (i64::from(year), start(year), start(year.saturating_add(1)))
}

impl Store {
    /// Starts a vacation of `days` whole days for `player` at `now`, within the year's limit.
    pub fn start_vacation(
        &mut self,
        player: PlayerId,
        now: i64,
        days: i64,
    ) -> Result<Vacation, VacationError> {
        if !(1..=VACATION_DAYS).contains(&days) {
            return Err(VacationError::Days(days));
        }
        let tx = self.write()?;
        if let Some(away) = active(&tx, player, now)? {
            return Err(VacationError::AlreadyAway {
                until: away.ends_at,
            });
        }
        let (taken, year) = used(&tx, player, now)?;
        let left = VACATION_DAYS - taken;
        if days > left {
            return Err(VacationError::TooMany {
                asked: days,
                left: left.max(0),
                year,
            });
        }
        let ends_at = now + days * DAY;
        let id: i64 = tx.query_row(
            "INSERT INTO vacations (player_id, starts_at, ends_at) VALUES (?1, ?2, ?3) RETURNING id",
            params![player, now, ends_at], |r| r.get(0))?;
        tx.commit()?;
        Ok(Vacation {
            id,
            player,
            starts_at: now,
            ends_at,
        })
    }

    /// The player's vacation at `now`, if they are on one.
    pub fn vacation(&self, player: PlayerId, now: i64) -> Result<Option<Vacation>, StoreError> {
        Ok(active(&self.conn, player, now)?)
    }

    /// Ends the player's vacation at `now` (they came back early); returns it as it ended.
    pub fn end_vacation(&mut self, player: PlayerId, now: i64) -> Result<Vacation, VacationError> {
        let tx = self.write()?;
        let Some(mut away) = active(&tx, player, now)? else {
            return Err(VacationError::NotAway);
        };
        tx.execute(
            "UPDATE vacations SET ended_at = ?1 WHERE id = ?2",
            params![now, away.id],
        )?;
        tx.commit()?;
        away.ends_at = now;
        Ok(away)
    }

    /// The vacation days `player` has used in the calendar year of `now`, and that year.
    pub fn vacation_days_used(&self, player: PlayerId, now: i64) -> Result<(i64, i64), StoreError> {
        Ok(used(&self.conn, player, now)?)
    }

    /// For each of `players`, when the vacation they are on at `now` ends, if they are on one.
    pub fn away_until(
        &self,
        players: &[PlayerId],
        now: i64,
    ) -> Result<Vec<Option<i64>>, StoreError> {
        players
            .iter()
            .map(|&p| Ok(self.vacation(p, now)?.map(|v| v.ends_at)))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 2026-01-01T00:00:00Z.
    const NEW_YEAR: i64 = 1_767_225_600;

    #[test]
    fn vacations_are_whole_days_within_fourteen_a_calendar_year() {
        let mut store = crate::store::testing::scratch();
        let alice = store.local_player("alice").unwrap().id;
        let start = NEW_YEAR + 10 * DAY;
        let away = store.start_vacation(alice, start, 10).unwrap();
        assert_eq!(away.ends_at, start + 10 * DAY);
        assert_eq!(store.vacation(alice, start + DAY).unwrap(), Some(away));
        assert!(matches!(
            store.start_vacation(alice, start + DAY, 1),
            Err(VacationError::AlreadyAway { .. })
        ));
        // Back early after 2.5 days: 3 days count.
        let back = store.end_vacation(alice, start + 5 * DAY / 2).unwrap();
        assert_eq!(back.ends_at, start + 5 * DAY / 2);
        assert_eq!(store.vacation(alice, start + 3 * DAY).unwrap(), None);
        assert_eq!(
            store.vacation_days_used(alice, start + 3 * DAY).unwrap(),
            (3, 2026)
        );
        assert!(matches!(
            store.end_vacation(alice, start + 3 * DAY),
            Err(VacationError::NotAway)
        ));
        // 11 left this year: 12 is too many, 11 is fine, then none is left.
        let err = store
            .start_vacation(alice, start + 30 * DAY, 12)
            .unwrap_err();
        assert_eq!(
            err.to_string(),
            "you have 11 vacation day(s) left in 2026 (14 a year); 12 is too many"
        );
        store.start_vacation(alice, start + 30 * DAY, 11).unwrap();
        assert!(matches!(
            store.start_vacation(alice, start + 60 * DAY, 1),
            Err(VacationError::TooMany { left: 0, .. })
        ));
        // A new year brings fourteen days again.
        store
            .start_vacation(alice, NEW_YEAR + 366 * DAY, 14)
            .unwrap();
        for days in [0, 15, -1] {
            assert!(matches!(
                store.start_vacation(alice, NEW_YEAR + 400 * DAY, days),
                Err(VacationError::Days(_))
            ));
        }
        let bob = store.local_player("bob").unwrap().id;
        assert_eq!(
            store
                .away_until(&[alice, bob], NEW_YEAR + 367 * DAY)
                .unwrap(),
            [Some(NEW_YEAR + 380 * DAY), None]
        );
    }
}
