//! Each player's settings for slow play: reminders on or off, quiet hours in their own time
//! zone, and reminders by direct message. A player who never chose has the defaults.

use super::{PlayerId, Store, StoreError};
use rusqlite::{OptionalExtension, params};

/// A player's settings; the default is reminders on, no quiet hours, UTC, no direct messages.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Settings {
    pub reminders: bool,
    /// Reminders go by direct message instead of the match's thread.
    pub dm_on_turn: bool,
    /// Quiet hours as minutes after local midnight, from `.0` up to `.1` (may wrap past
    /// midnight: 22:00 to 07:00).
    pub quiet: Option<(u16, u16)>,
    /// The player's time zone, in minutes east of UTC.
    pub utc_offset: i16,
    /// With each turn message, their own view of the match (their hand, their battleplan).
    pub view_by_dm: bool,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            reminders: true,
            dm_on_turn: false,
            quiet: None,
            utc_offset: 0,
            view_by_dm: false,
        }
    }
}

const MINUTES_A_DAY: i64 = 24 * 60;

impl Settings {
    /// When quiet hours that hold at `now` (seconds since the epoch) end, if they hold.
    pub fn quiet_until(&self, now: i64) -> Option<i64> {
        let (start, end) = self.quiet?;
        let (start, end) = (i64::from(start), i64::from(end));
        let local = now + i64::from(self.utc_offset) * 60;
        let minute = local.div_euclid(60).rem_euclid(MINUTES_A_DAY);
        let quiet = if start <= end {
            (start..end).contains(&minute)
        } else {
            minute >= start || minute < end
        };
        if !quiet {
            return None;
        }
        let until_end = (end - minute).rem_euclid(MINUTES_A_DAY);
        // To the start of that minute.
        Some(now - local.rem_euclid(60) + until_end * 60)
    }
}

impl Settings {
    /// Reads quiet hours: "22-7", "22:30-07:00"; minutes after local midnight.
    pub fn read_quiet(text: &str) -> Result<(u16, u16), String> {
        let bad = || {
            format!(
                "cannot read the quiet hours \"{}\": write them like 22-7 or 22:30-07:00",
                crate::engine::echo(text)
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

    /// Reads a time zone as an offset from UTC: "+2", "-05:30", "UTC+1"; minutes east of UTC.
    pub fn read_zone(text: &str) -> Result<i16, String> {
        let bad = || {
            format!(
                "cannot read the time zone \"{}\": write it like +2, -05:30 or UTC+1",
                crate::engine::echo(text)
            )
        };
        let zone = text.trim();
        let zone = zone
            .strip_prefix("UTC")
            .or_else(|| zone.strip_prefix("utc"))
            .or_else(|| zone.strip_prefix("GMT"))
            .unwrap_or(zone);
        let (sign, rest) = match zone.chars().next() {
            Some('+') => (1, &zone[1..]),
            Some('-') => (-1, &zone[1..]),
            None => return Ok(0),
            _ => return Err(bad()),
        };
        let offset = minutes(rest).filter(|m| *m <= 14 * 60).ok_or_else(bad)?;
        Ok(sign * offset as i16)
    }
}

/// "7", "07:30": minutes after midnight.
fn minutes(text: &str) -> Option<u16> {
    let (h, m) = text.trim().split_once(':').unwrap_or((text.trim(), "0"));
    let (h, m): (u16, u16) = (h.parse().ok()?, m.parse().ok()?);
    (h < 24 && m < 60).then_some(h * 60 + m)
}

impl Store {
    /// `player`'s settings (the defaults when they never chose).
    pub fn settings(&self, player: PlayerId) -> Result<Settings, StoreError> {
        Ok(self
            .conn
            .query_row(
                "SELECT reminders, dm_on_turn, quiet_start, quiet_end, utc_offset, view_by_dm
                 FROM player_settings WHERE player_id = ?1",
                [player],
                |r| {
                    let quiet = match (r.get::<_, Option<u16>>(2)?, r.get::<_, Option<u16>>(3)?) {
                        (Some(start), Some(end)) => Some((start, end)),
                        _ => None,
                    };
                    Ok(Settings {
                        reminders: r.get(0)?,
                        dm_on_turn: r.get(1)?,
                        quiet,
                        utc_offset: r.get(4)?,
                        view_by_dm: r.get(5)?,
                    })
                },
            )
            .optional()?
            .unwrap_or_default())
    }

    /// Stores `player`'s settings.
    pub fn set_settings(&mut self, player: PlayerId, s: &Settings) -> Result<(), StoreError> {
        self.conn.execute(
            "INSERT INTO player_settings
                 (player_id, reminders, dm_on_turn, quiet_start, quiet_end, utc_offset, view_by_dm)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
             ON CONFLICT (player_id) DO UPDATE SET reminders = excluded.reminders,
                 dm_on_turn = excluded.dm_on_turn, quiet_start = excluded.quiet_start,
                 quiet_end = excluded.quiet_end, utc_offset = excluded.utc_offset,
                 view_by_dm = excluded.view_by_dm",
            params![
                player,
                s.reminders,
                s.dm_on_turn,
                s.quiet.map(|q| q.0),
                s.quiet.map(|q| q.1),
                s.utc_offset,
                s.view_by_dm
            ],
        )?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quiet_hours_hold_in_the_players_own_time_zone_and_may_wrap_past_midnight() {
        // 22:00 to 07:00 at UTC+2.
        let s = Settings {
            quiet: Some((22 * 60, 7 * 60)),
            utc_offset: 120,
            ..Settings::default()
        };
        let day = 1_800_000_000 - 1_800_000_000 % 86_400; // a UTC midnight
        // 21:30 UTC is 23:30 local: quiet until 07:00 local, 05:00 UTC.
        assert_eq!(s.quiet_until(day + 21 * 3600 + 1800), Some(day + 29 * 3600));
        // 04:59:30 UTC is 06:59:30 local: quiet until 05:00 UTC.
        assert_eq!(s.quiet_until(day + 5 * 3600 - 30), Some(day + 5 * 3600));
        // 05:00 UTC is 07:00 local: no longer quiet; nor at noon.
        assert_eq!(s.quiet_until(day + 5 * 3600), None);
        assert_eq!(s.quiet_until(day + 10 * 3600), None);
        assert_eq!(Settings::default().quiet_until(day), None);
    }

    #[test]
    fn settings_are_stored_per_player_with_defaults() {
        let mut store = Store::open_in_memory().unwrap();
        let ann = store.local_player("ann").unwrap().id;
        assert_eq!(store.settings(ann).unwrap(), Settings::default());
        let chosen = Settings {
            reminders: false,
            dm_on_turn: true,
            quiet: Some((60, 420)),
            utc_offset: -300,
            view_by_dm: true,
        };
        store.set_settings(ann, &chosen).unwrap();
        assert_eq!(store.settings(ann).unwrap(), chosen);
    }
}
