//! Each player's settings for slow play: reminders on or off, quiet hours in their own time
//! zone, and reminders by direct message. A player who never chose has the defaults.
//!
//! A time zone is a name from the IANA time zone database ("Europe/Paris"), so quiet hours
//! follow daylight saving time, or a fixed offset from UTC ("+2"), the only form stored before
//! names were allowed; both are read and kept. The database is the one `jiff` embeds, so a
//! machine without /usr/share/zoneinfo knows the same zones.

use super::db::{OptionalExtension, params};
use super::{PlayerId, Store, StoreError};
use crate::engine::echo;
use jiff::Timestamp;
use jiff::tz::{AmbiguousOffset, Offset, TimeZone};
use std::fmt;

/// A player's time zone.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Zone {
    /// A fixed offset, in minutes east of UTC (no daylight saving time).
    Offset(i16),
    /// A zone of the time zone database by its canonical name ("Europe/Paris").
    Named(String),
}

impl Default for Zone {
    fn default() -> Self {
        Zone::Offset(0)
    }
}

impl fmt::Display for Zone {
    /// "UTC", "UTC+2:00", "UTC-5:30", "Europe/Paris".
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Zone::Offset(0) => write!(f, "UTC"),
            Zone::Offset(m) => {
                let sign = if *m < 0 { '-' } else { '+' };
                write!(f, "UTC{sign}{}:{:02}", m.abs() / 60, m.abs() % 60)
            }
            Zone::Named(name) => write!(f, "{name}"),
        }
    }
}

impl Zone {
    /// The zone's rules. A stored name the embedded database no longer knows (it never
    /// happens with names this program accepted) counts as UTC rather than failing.
    pub fn time_zone(&self) -> TimeZone {
        match self {
            Zone::Offset(m) => Offset::from_seconds(i32::from(*m) * 60)
                .map(TimeZone::fixed)
                .unwrap_or(TimeZone::UTC),
            Zone::Named(name) => jiff::tz::db().get(name).unwrap_or(TimeZone::UTC),
        }
    }
}

/// A player's settings; the default is reminders on, no quiet hours, UTC, no direct messages.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settings {
    pub reminders: bool,
    /// Reminders go by direct message instead of the match's thread.
    pub dm_on_turn: bool,
    /// Quiet hours as minutes after local midnight, from `.0` up to `.1` (may wrap past
    /// midnight: 22:00 to 07:00).
    pub quiet: Option<(u16, u16)>,
    /// The player's time zone.
    pub zone: Zone,
    /// With each turn message, their own view of the match (their hand, their battleplan).
    pub view_by_dm: bool,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            reminders: true,
            dm_on_turn: false,
            quiet: None,
            zone: Zone::default(),
            view_by_dm: false,
        }
    }
}

impl Settings {
    /// When quiet hours that hold at `now` (seconds since the epoch) end, if they hold: the
    /// first moment after `now` when the player's wall clock shows the end. On a day when the
    /// clocks change, the end is read as the zone's rules say: an end that falls in the hour
    /// skipped in spring comes as the clocks jump, and in autumn it is the first time the
    /// wall clock shows it after `now`.
    pub fn quiet_until(&self, now: i64) -> Option<i64> {
        let (start, end) = self.quiet?;
        let tz = self.zone.time_zone();
        let local = tz.to_datetime(Timestamp::from_second(now).ok()?);
        let minute = i64::from(local.hour()) * 60 + i64::from(local.minute());
        let (start, end) = (i64::from(start), i64::from(end));
        let quiet = if start <= end {
            (start..end).contains(&minute)
        } else {
            minute >= start || minute < end
        };
        if !quiet {
            return None;
        }
        // The end comes later today, or else tomorrow (hours that wrap past midnight).
        let day = if minute < end {
            local.date()
        } else {
            local.date().tomorrow().ok()?
        };
        let wall = day.at((end / 60) as i8, (end % 60) as i8, 0, 0);
        let ends = tz.to_ambiguous_timestamp(wall);
        let candidates = match ends.offset() {
            // The clocks jump over the end in spring: quiet hours end with the jump.
            AmbiguousOffset::Gap { .. } => {
                let before_jump = ends.earlier().ok()?;
                vec![tz.following(before_jump).next()?.timestamp()]
            }
            // In autumn the end's wall time may come twice: the first of them still ahead.
            _ => [ends.earlier(), ends.later()]
                .into_iter()
                .flatten()
                .collect(),
        };
        candidates
            .into_iter()
            .map(Timestamp::as_second)
            .find(|&at| at > now)
    }

    /// Reads quiet hours: "22-7", "22:30-07:00"; minutes after local midnight.
    pub fn read_quiet(text: &str) -> Result<(u16, u16), String> {
        let bad = || {
            format!(
                "cannot read the quiet hours \"{}\": write them like 22-7 or 22:30-07:00",
                echo(text)
            )
        };
        let (start, end) = text.trim().split_once('-').ok_or_else(bad)?;
        let (start, end) = (
            minutes(start).ok_or_else(bad)?,
            minutes(end).ok_or_else(bad)?,
        );
        if start == end {
            return Err("quiet hours must start and end at different times".into());
        }
        Ok((start, end))
    }

    /// Reads a time zone: a name from the time zone database ("Europe/Paris",
    /// "america/new_york"; daylight saving time included), or a fixed offset from UTC ("+2",
    /// "-05:30", "UTC+1", "UTC"). An empty text is UTC.
    pub fn read_zone(text: &str) -> Result<Zone, String> {
        let zone = text.trim();
        let offset = zone
            .strip_prefix("UTC")
            .or_else(|| zone.strip_prefix("utc"))
            .or_else(|| zone.strip_prefix("GMT"))
            .or_else(|| zone.strip_prefix("gmt"))
            .unwrap_or(zone);
        let (sign, rest) = match offset.as_bytes().first() {
            None => return Ok(Zone::Offset(0)),
            Some(b'+') => (1, &offset[1..]),
            Some(b'-') => (-1, &offset[1..]),
            Some(_) => return named_zone(zone),
        };
        let minutes = minutes(rest).filter(|m| *m <= 14 * 60).ok_or_else(|| {
            format!(
                "cannot read the time zone \"{}\": write an offset like +2, -05:30 or UTC+1 \
                 (at most 14 hours), or a name like Europe/Paris",
                echo(text)
            )
        })?;
        Ok(Zone::Offset(sign * minutes as i16))
    }
}

/// The zone called `name` in the embedded database, by its canonical spelling.
fn named_zone(name: &str) -> Result<Zone, String> {
    let unknown = || {
        format!(
            "unknown time zone \"{}\": write a name like Europe/Paris or America/New_York, \
             or an offset like +2",
            echo(name)
        )
    };
    // Names are short ASCII ("America/Argentina/ComodRivadavia" is among the longest).
    if name.len() > 64 || !name.is_ascii() {
        return Err(unknown());
    }
    let tz = jiff::tz::db().get(name).map_err(|_| unknown())?;
    let canonical = tz
        .iana_name()
        .filter(|n| !n.eq_ignore_ascii_case("Etc/Unknown"))
        .ok_or_else(unknown)?;
    Ok(Zone::Named(canonical.to_string()))
}

/// "7", "07:30": minutes after midnight.
fn minutes(text: &str) -> Option<u16> {
    let (h, m) = text.trim().split_once(':').unwrap_or((text.trim(), "0"));
    let (h, m): (u16, u16) = (h.parse().ok()?, m.parse().ok()?);
    // `then`, not `then_some`: 24 hours or more must not be multiplied (1100 * 60 overflows).
    (h < 24 && m < 60).then(|| h * 60 + m)
}

impl Store {
    /// `player`'s settings (the defaults when they never chose). A row without a zone name
    /// (every row stored before names were allowed) has the fixed offset it stored.
    pub fn settings(&self, player: PlayerId) -> Result<Settings, StoreError> {
        Ok(self
            .conn
            .query_row(
                "SELECT reminders, dm_on_turn, quiet_start, quiet_end, utc_offset, view_by_dm,
                        time_zone
                 FROM player_settings WHERE player_id = ?1",
                [player],
                |r| {
                    let quiet = match (r.get::<_, Option<u16>>(2)?, r.get::<_, Option<u16>>(3)?) {
                        (Some(start), Some(end)) => Some((start, end)),
                        _ => None,
                    };
                    let zone = match r.get::<_, Option<String>>(6)? {
                        Some(name) => Zone::Named(name),
                        None => Zone::Offset(r.get(4)?),
                    };
                    Ok(Settings {
                        reminders: r.get(0)?,
                        dm_on_turn: r.get(1)?,
                        quiet,
                        zone,
                        view_by_dm: r.get(5)?,
                    })
                },
            )
            .optional()?
            .unwrap_or_default())
    }

    /// Stores `player`'s settings.
    pub fn set_settings(&mut self, player: PlayerId, s: &Settings) -> Result<(), StoreError> {
        let (offset, name) = match &s.zone {
            Zone::Offset(m) => (*m, None),
            Zone::Named(name) => (0, Some(name.as_str())),
        };
        self.conn.execute(
            "INSERT INTO player_settings
                 (player_id, reminders, dm_on_turn, quiet_start, quiet_end, utc_offset, view_by_dm,
                  time_zone)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)
             ON CONFLICT (player_id) DO UPDATE SET reminders = excluded.reminders,
                 dm_on_turn = excluded.dm_on_turn, quiet_start = excluded.quiet_start,
                 quiet_end = excluded.quiet_end, utc_offset = excluded.utc_offset,
                 view_by_dm = excluded.view_by_dm, time_zone = excluded.time_zone",
            params![
                player,
                s.reminders,
                s.dm_on_turn,
                s.quiet.map(|q| q.0),
                s.quiet.map(|q| q.1),
                offset,
                s.view_by_dm,
                name
            ],
        )?;
        Ok(())
    }
}

#[cfg(test)]
#[path = "tests/settings.rs"]
mod tests;
