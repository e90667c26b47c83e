//! The schema migrations, in the order they run; a database's `PRAGMA user_version` is how
//! many of them it has had.

/// The schema migrations, applied in order; `PRAGMA user_version` records how many ran.
pub const MIGRATIONS: &[(&str, &str)] = &[
    (
        "0001_matches",
        include_str!("../../migrations/0001_matches.sql"),
    ),
    (
        "0002_draw_votes",
        include_str!("../../migrations/0002_draw_votes.sql"),
    ),
    (
        "0003_exactly_once",
        include_str!("../../migrations/0003_exactly_once.sql"),
    ),
    ("0004_time", include_str!("../../migrations/0004_time.sql")),
    (
        "0005_challenges",
        include_str!("../../migrations/0005_challenges.sql"),
    ),
    (
        "0006_settings",
        include_str!("../../migrations/0006_settings.sql"),
    ),
    (
        "0007_nudges",
        include_str!("../../migrations/0007_nudges.sql"),
    ),
    (
        "0008_vacations",
        include_str!("../../migrations/0008_vacations.sql"),
    ),
    (
        "0009_view_by_dm",
        include_str!("../../migrations/0009_view_by_dm.sql"),
    ),
    (
        "0010_admin",
        include_str!("../../migrations/0010_admin.sql"),
    ),
    (
        "0011_leagues",
        include_str!("../../migrations/0011_leagues.sql"),
    ),
    (
        "0012_swiss",
        include_str!("../../migrations/0012_swiss.sql"),
    ),
    (
        "0013_substitutes",
        include_str!("../../migrations/0013_substitutes.sql"),
    ),
    (
        "0014_checked_snapshots_and_console",
        include_str!("../../migrations/0014_checked_snapshots_and_console.sql"),
    ),
    (
        "0015_time_zone",
        include_str!("../../migrations/0015_time_zone.sql"),
    ),
    (
        "0016_outbox",
        include_str!("../../migrations/0016_outbox.sql"),
    ),
];
