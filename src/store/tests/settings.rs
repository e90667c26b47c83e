//! Players' settings: quiet hours in a fixed offset or a named time zone across the changes to
//! and from daylight saving time, time zones read or refused, rows stored before zone names
//! were allowed still read, and the settings kept per player.

use super::*;
use crate::store::migrations::MIGRATIONS;
use jiff::civil::date;

/// Seconds since the epoch of a UTC wall time.
fn utc(y: i16, mo: i8, d: i8, h: i8, mi: i8) -> i64 {
    TimeZone::UTC
        .to_ambiguous_timestamp(date(y, mo, d).at(h, mi, 0, 0))
        .compatible()
        .unwrap()
        .as_second()
}

fn quiet_in(zone: &str, start: u16, end: u16) -> Settings {
    Settings {
        quiet: Some((start, end)),
        zone: Settings::read_zone(zone).unwrap(),
        ..Settings::default()
    }
}

#[test]
fn quiet_hours_hold_in_the_players_own_time_zone_and_may_wrap_past_midnight() {
    // 22:00 to 07:00 at UTC+2.
    let s = quiet_in("+2", 22 * 60, 7 * 60);
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
fn quiet_hours_in_paris_follow_the_change_to_summer_time_on_the_last_sunday_of_march() {
    // 2026-03-29: at 01:00 UTC Paris goes from 02:00 CET (+1) to 03:00 CEST (+2).
    let s = quiet_in("Europe/Paris", 22 * 60, 7 * 60);
    // Saturday 23:00 CET: quiet until Sunday 07:00 CEST, 05:00 UTC (a fixed +1 says 06:00).
    assert_eq!(
        s.quiet_until(utc(2026, 3, 28, 22, 0)),
        Some(utc(2026, 3, 29, 5, 0))
    );
    // Sunday 04:30 UTC is 06:30 CEST: quiet half an hour more; 05:00 UTC is 07:00, awake.
    assert_eq!(
        s.quiet_until(utc(2026, 3, 29, 4, 30)),
        Some(utc(2026, 3, 29, 5, 0))
    );
    assert_eq!(s.quiet_until(utc(2026, 3, 29, 5, 0)), None);
    // The evening before, 21:30 CET is 20:30 UTC: not quiet yet; at 21:00 UTC it is.
    assert_eq!(s.quiet_until(utc(2026, 3, 28, 20, 30)), None);
    assert!(s.quiet_until(utc(2026, 3, 28, 21, 0)).is_some());
    // Quiet hours ending in the hour skipped (02:30) end when the clocks jump, at 01:00 UTC.
    let skipped = quiet_in("Europe/Paris", 22 * 60, 2 * 60 + 30);
    assert_eq!(
        skipped.quiet_until(utc(2026, 3, 28, 23, 30)),
        Some(utc(2026, 3, 29, 1, 0))
    );
}

#[test]
fn quiet_hours_in_paris_follow_the_change_to_winter_time_on_the_last_sunday_of_october() {
    // 2026-10-25: at 01:00 UTC Paris goes from 03:00 CEST (+2) back to 02:00 CET (+1).
    let s = quiet_in("Europe/Paris", 22 * 60, 7 * 60);
    // Saturday 23:00 CEST: quiet until Sunday 07:00 CET, 06:00 UTC (a fixed +2 says 05:00).
    assert_eq!(
        s.quiet_until(utc(2026, 10, 24, 21, 0)),
        Some(utc(2026, 10, 25, 6, 0))
    );
    assert_eq!(
        s.quiet_until(utc(2026, 10, 25, 5, 30)),
        Some(utc(2026, 10, 25, 6, 0))
    );
    assert_eq!(s.quiet_until(utc(2026, 10, 25, 6, 0)), None);
    // Quiet hours ending at 02:30, a wall time the night shows twice: the first one ahead.
    let twice = quiet_in("Europe/Paris", 22 * 60, 2 * 60 + 30);
    // 00:10 UTC is 02:10 CEST, the first time round: quiet until 02:30 CEST, 00:30 UTC.
    assert_eq!(
        twice.quiet_until(utc(2026, 10, 25, 0, 10)),
        Some(utc(2026, 10, 25, 0, 30))
    );
    // 01:10 UTC is 02:10 CET, the second time round: quiet until 02:30 CET, 01:30 UTC.
    assert_eq!(
        twice.quiet_until(utc(2026, 10, 25, 1, 10)),
        Some(utc(2026, 10, 25, 1, 30))
    );
}

#[test]
fn quiet_hours_in_new_york_follow_its_own_change_in_march() {
    // 2026-03-08: New York goes from EST (-5) to EDT (-4) at 02:00 local.
    let s = quiet_in("america/new_york", 22 * 60, 7 * 60);
    assert_eq!(s.zone, Zone::Named("America/New_York".into()));
    // Saturday 23:00 EST (04:00 UTC): quiet until 07:00 EDT, 11:00 UTC.
    assert_eq!(
        s.quiet_until(utc(2026, 3, 8, 4, 0)),
        Some(utc(2026, 3, 8, 11, 0))
    );
}

#[test]
fn time_zones_are_read_as_names_or_offsets_and_unknown_names_are_refused() {
    for (text, zone) in [
        ("Europe/Paris", Zone::Named("Europe/Paris".into())),
        (" europe/paris ", Zone::Named("Europe/Paris".into())),
        ("+2", Zone::Offset(120)),
        ("-05:30", Zone::Offset(-330)),
        ("UTC+1", Zone::Offset(60)),
        ("gmt-3", Zone::Offset(-180)),
        ("UTC", Zone::Offset(0)),
        ("", Zone::Offset(0)),
    ] {
        assert_eq!(Settings::read_zone(text), Ok(zone), "{text:?}");
    }
    for (text, words) in [
        ("Europe/Pariss", "unknown time zone \"Europe/Pariss\""),
        ("Mars/Olympus", "like Europe/Paris or America/New_York"),
        ("Etc/Unknown", "unknown time zone"),
        ("+15", "at most 14 hours"),
        ("+2x", "cannot read the time zone"),
        ("../../etc/passwd", "unknown time zone"),
        // Found by fuzzing: hours past 1092 overflowed when turned into minutes.
        ("+1100", "cannot read the time zone"),
    ] {
        let err = Settings::read_zone(text).unwrap_err();
        assert!(err.contains(words), "{text:?}: {err}");
    }
    assert_eq!(Zone::Offset(-330).to_string(), "UTC-5:30");
    assert_eq!(Zone::Offset(0).to_string(), "UTC");
    assert_eq!(
        Zone::Named("Europe/Paris".into()).to_string(),
        "Europe/Paris"
    );
}

#[test]
fn quiet_hours_with_huge_hours_are_refused_not_overflowed() {
    // Found by fuzzing: "1100-7" panicked (1100 * 60 overflows minutes) before it was refused.
    for text in ["1100-7", "22-65535", "22-7:1100", "99999-1"] {
        let err = Settings::read_quiet(text).unwrap_err();
        assert!(err.contains("cannot read the quiet hours"), "{text}: {err}");
    }
}

#[test]
fn settings_are_stored_per_player_with_defaults() {
    let mut store = crate::store::testing::scratch();
    let ann = store.local_player("ann").unwrap().id;
    let ben = store.local_player("ben").unwrap().id;
    assert_eq!(store.settings(ann).unwrap(), Settings::default());
    let chosen = Settings {
        reminders: false,
        dm_on_turn: true,
        quiet: Some((60, 420)),
        zone: Zone::Offset(-300),
        view_by_dm: true,
    };
    store.set_settings(ann, &chosen).unwrap();
    assert_eq!(store.settings(ann).unwrap(), chosen);
    let paris = Settings {
        zone: Zone::Named("Europe/Paris".into()),
        ..chosen.clone()
    };
    store.set_settings(ben, &paris).unwrap();
    assert_eq!(store.settings(ben).unwrap(), paris);
    // Back from a name to an offset: the name is forgotten.
    store.set_settings(ben, &chosen).unwrap();
    assert_eq!(store.settings(ben).unwrap(), chosen);
}

#[test]
fn settings_stored_before_zone_names_keep_their_fixed_offset() {
    let mut old = Store {
        conn: crate::store::db::Connection::sqlite(rusqlite::Connection::open_in_memory().unwrap()),
    };
    let before_names = MIGRATIONS
        .iter()
        .position(|(name, _)| *name == "0015_time_zone")
        .unwrap();
    old.migrate(before_names).unwrap();
    old.conn
        .execute_batch(
            "INSERT INTO players (id, name, created_at) VALUES (1, 'ann', 0);
             INSERT INTO player_settings (player_id, reminders, dm_on_turn, quiet_start,
                 quiet_end, utc_offset, view_by_dm) VALUES (1, 1, 0, 1320, 420, 120, 0);",
        )
        .unwrap();
    old.migrate(MIGRATIONS.len()).unwrap();
    let s = old.settings(1).unwrap();
    assert_eq!(s.zone, Zone::Offset(120));
    assert_eq!(s.quiet, Some((22 * 60, 7 * 60)));
    // A fixed offset does not follow Paris's summer time: 23:00 at +2 is 21:00 UTC in any month.
    assert_eq!(
        s.quiet_until(utc(2026, 1, 10, 21, 0)),
        Some(utc(2026, 1, 11, 5, 0))
    );
}
