//! Durations and time controls as players write them: the one reader of times, its refusals
//! (huge numbers included, never an overflow), and fuzzing of both readers.

use super::control::*;
use super::units::*;
use proptest::prelude::*;

#[test]
fn durations_read_every_unit_largest_first() {
    for (text, seconds) in [
        ("30s", 30),
        ("90m", 90 * MINUTE),
        ("1h30m", HOUR + 30 * MINUTE),
        ("2d3h", 2 * DAY + 3 * HOUR),
        ("1d 12h", 36 * HOUR),
        (" 2D3H ", 2 * DAY + 3 * HOUR),
        ("1d2h3m4s", DAY + 2 * HOUR + 3 * MINUTE + 4),
        ("3650d", LONGEST_DURATION),
    ] {
        assert_eq!(read_duration(text), Ok(seconds), "{text}");
        assert_eq!(read_duration(&short(seconds)), Ok(seconds), "{text}");
    }
    assert_eq!(short(DAY + 90), "1d1m30s");
}

#[test]
fn bad_durations_say_what_is_wrong() {
    for (text, words) in [
        ("", "write it like 30s, 90m, 1h30m or 2d3h"),
        ("soon", "write it like 30s"),
        ("1.5h", "write it like 30s"),
        ("30", "say the unit of 30, like 30m or 30h"),
        ("h", "put a number before each unit"),
        ("30m2h", "the largest first"),
        ("1h1h", "each unit once"),
        ("0h", "no time at all"),
        ("0d0s", "no time at all"),
        ("3651d", "too long: at most 3650 days"),
        ("99999999999999999999d", "too long"),
        (
            "99999999999999999999999999999999",
            "say the unit of 315360000",
        ),
        ("9223372036854775807s", "too long"),
        ("3649d999h", "too long"),
        ("-3d", "write it like"),
        ("٣d", "write it like"),
    ] {
        let err = read_duration(text).unwrap_err();
        assert!(err.contains(words), "{text:?}: {err}");
    }
}

/// Texts close to durations and time controls: digits, units, separators and a few strays.
fn near_time_text() -> impl Strategy<Value = String> {
    proptest::collection::vec(
        prop_oneof![
            "[0-9]{1,25}",
            "[dhmsDHMS]",
            Just("+".to_string()),
            Just(" max ".to_string()),
            Just(" ".to_string()),
            Just("none".to_string()),
            "\\PC{0,3}",
        ],
        0..8,
    )
    .prop_map(|parts| parts.concat())
}

proptest! {
    #![proptest_config(crate::fuzzing::config(512))]

    #[test]
    fn fuzz_durations_are_read_within_bounds_or_refused_with_words(
        text in prop_oneof![near_time_text(), "\\PC{0,40}"],
    ) {
        match read_duration(&text) {
            Ok(seconds) => {
                prop_assert!((1..=LONGEST_DURATION).contains(&seconds), "{text:?}: {seconds}");
                prop_assert_eq!(read_duration(&short(seconds)), Ok(seconds));
            }
            Err(why) => prop_assert!(!why.trim().is_empty()),
        }
    }

    #[test]
    fn fuzz_time_controls_round_trip_or_are_refused_with_words(
        text in prop_oneof![near_time_text(), "\\PC{0,40}"],
    ) {
        match TimeControl::parse(&text) {
            Ok(control) => {
                prop_assert_eq!(TimeControl::parse(&control.text()), Ok(control));
                prop_assert!(!control.describe().is_empty());
            }
            Err(why) => prop_assert!(!why.trim().is_empty()),
        }
    }

    #[test]
    fn fuzz_written_durations_read_back_exactly(seconds in 1..=LONGEST_DURATION) {
        prop_assert_eq!(read_duration(&short(seconds)), Ok(seconds));
    }
}
