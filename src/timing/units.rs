//! Time as the table counts it, in whole seconds since the Unix epoch, and as players read it:
//! spans ("1 day 4 hours"), time left and moments in plain words.

/// Seconds since the Unix epoch.
pub type Instant = i64;

pub const MINUTE: i64 = 60;
pub const HOUR: i64 = 60 * MINUTE;
pub const DAY: i64 = 24 * HOUR;

/// A span of time in words: "3 days", "1 day 4 hours", "5 hours", "20 minutes"; "no time" for
/// none (never "now", which reads wrongly in "{} left" or "in {}").
pub fn span(seconds: i64) -> String {
    let seconds = seconds.max(0);
    let (days, hours, minutes) = (seconds / DAY, seconds % DAY / HOUR, seconds % HOUR / MINUTE);
    let unit = |n: i64, word: &str| format!("{n} {word}{}", if n == 1 { "" } else { "s" });
    match (days, hours, minutes) {
        (0, 0, 0) if seconds > 0 => unit(seconds, "second"),
        (0, 0, 0) => "no time".into(),
        (0, 0, m) => unit(m, "minute"),
        (0, h, 0) => unit(h, "hour"),
        (0, h, m) => format!("{} {}", unit(h, "hour"), unit(m, "minute")),
        (d, 0, _) => unit(d, "day"),
        (d, h, _) => format!("{} {}", unit(d, "day"), unit(h, "hour")),
    }
}

/// The time a clock has left in words: "2 days left", or "out of time" once it is spent.
pub fn time_left(seconds: i64) -> String {
    if seconds <= 0 {
        "out of time".into()
    } else {
        format!("{} left", span(seconds))
    }
}

/// A moment as plain text for the console, where Discord's timestamps (`<t:…:f>`) would be
/// printed raw: "Thu 26 Nov 22:45 UTC (in 3 days)", "(2 hours ago)" or "(now)" from `now`.
pub fn plain_time(at: Instant, now: Instant) -> String {
    let when = match jiff::Timestamp::from_second(at) {
        Ok(t) if year(at) == year(now) => t.strftime("%a %-d %b %H:%M UTC").to_string(),
        Ok(t) => t.strftime("%a %-d %b %Y %H:%M UTC").to_string(),
        Err(_) => format!("{at} seconds after 1970"),
    };
    let from_now = match at.saturating_sub(now) {
        0 => "now".to_string(),
        ahead if ahead > 0 => format!("in {}", span(ahead)),
        behind => format!("{} ago", span(behind.saturating_neg())),
    };
    format!("{when} ({from_now})")
}

/// The UTC year at `at` (none outside the years a timestamp can show).
fn year(at: Instant) -> Option<i16> {
    jiff::Timestamp::from_second(at)
        .ok()
        .map(|t| t.to_zoned_datetime(jiff::tz::TimeZone::UTC).year())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spans_read_as_players_say_them() {
        assert_eq!(span(3 * DAY), "3 days");
        assert_eq!(span(DAY + 4 * HOUR + 59), "1 day 4 hours");
        assert_eq!(span(5 * HOUR), "5 hours");
        assert_eq!(span(HOUR + 20 * MINUTE), "1 hour 20 minutes");
        assert_eq!(span(45), "45 seconds");
        assert_eq!(span(-3), "no time");
    }

    #[test]
    fn a_clock_at_zero_is_out_of_time_never_now_left() {
        assert_eq!(time_left(2 * DAY), "2 days left");
        assert_eq!(time_left(0), "out of time");
        assert_eq!(time_left(-40), "out of time");
        for seconds in [-DAY, -1, 0, 1, 59, 60] {
            let text = time_left(seconds);
            assert!(!text.contains("now"), "{seconds}: {text}");
        }
    }

    #[test]
    fn moments_read_as_plain_text_without_discord_markup() {
        // 2026-11-26 22:45 UTC, a Thursday.
        let at = 1_795_733_100;
        assert_eq!(
            plain_time(at, at - 3 * DAY),
            "Thu 26 Nov 22:45 UTC (in 3 days)"
        );
        assert_eq!(
            plain_time(at, at + 2 * HOUR),
            "Thu 26 Nov 22:45 UTC (2 hours ago)"
        );
        assert_eq!(plain_time(at, at), "Thu 26 Nov 22:45 UTC (now)");
        // Another year says which.
        assert_eq!(
            plain_time(at, at - 400 * DAY),
            "Thu 26 Nov 2026 22:45 UTC (in 400 days)"
        );
        assert!(!plain_time(i64::MAX, 0).contains("<t:"));
    }
}
