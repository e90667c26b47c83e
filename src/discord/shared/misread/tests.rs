//! Why an option cannot be read, in words: ranges as the command declares them, and the
//! user's own text shown back as plain text, cut short.

use super::{Declared, out_of_range, shown, wanted};
use poise::serenity_prelude as serenity;
use serenity::{CommandOptionType as Kind, ResolvedValue as Value};

fn range(min: Option<f64>, max: Option<f64>) -> Declared {
    Declared {
        kind: Some(Kind::Integer),
        min,
        max,
        min_length: None,
        max_length: None,
    }
}

#[test]
fn a_number_outside_the_declared_range_is_told_with_the_range() {
    let both = range(Some(1.0), Some(14.0));
    assert_eq!(out_of_range(1.0, &both), None);
    assert_eq!(out_of_range(14.0, &both), None);
    assert_eq!(
        out_of_range(15.0, &both).as_deref(),
        Some("it must be from 1 to 14, not 15")
    );
    assert_eq!(
        out_of_range(-3.0, &range(Some(0.0), None)).as_deref(),
        Some("it must be at least 0, not -3")
    );
    assert_eq!(
        out_of_range(21.0, &range(None, Some(20.0))).as_deref(),
        Some("it must be at most 20, not 21")
    );
    assert_eq!(out_of_range(1e9, &range(None, None)), None);
}

#[test]
fn the_users_text_is_shown_as_plain_text_and_cut_short() {
    assert_eq!(
        shown(&Value::String("@everyone **now**")),
        "\"@\u{200b}everyone \\*\\*now\\*\\*\""
    );
    let long = "x".repeat(100);
    let told = shown(&Value::String(&long));
    assert_eq!(told, format!("\"{}…\"", "x".repeat(40)));
    assert_eq!(shown(&Value::Integer(7)), "7");
    assert_eq!(shown(&Value::Boolean(true)), "true");
}

#[test]
fn every_kind_of_option_is_named_in_words() {
    for kind in [
        Kind::String,
        Kind::Integer,
        Kind::Number,
        Kind::Boolean,
        Kind::User,
        Kind::Channel,
        Kind::Role,
        Kind::Mentionable,
        Kind::Attachment,
    ] {
        assert_ne!(wanted(kind), "something else", "{kind:?}");
    }
}
