//! Options a slash command cannot read. Discord checks an option's kind, range, length and
//! choices in its own client, but a stale registration or a crafted interaction gets past
//! that, and poise then stops the command with no answer (its `CommandStructureMismatch`) or
//! a public one (its `ArgumentParse`). So every command's options are checked here against
//! what the command declares, before it is acknowledged ([`check`], poise's
//! `command_check`), and the caller is told privately which option and why; [`misread`]
//! also names the option for an error poise raises itself. Text the user typed is shown as
//! plain text, cut short.

use crate::discord::Context;
use crate::discord::format::plain::plain;
use poise::serenity_prelude as serenity;
use serenity::{CommandOptionType as Kind, ResolvedValue as Value};

/// A command stopped because an option it was sent cannot be read: what the caller is told.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct Misread(pub String);

/// Poise's `command_check`: a command whose options cannot be read does not run (and is not
/// acknowledged); its caller is told why ([`Misread`], answered privately by `on_error`).
pub async fn check(ctx: Context<'_>) -> Result<bool, crate::discord::Error> {
    match misread(ctx) {
        Some(told) => Err(Box::new(Misread(told))),
        None => Ok(true),
    }
}

/// Why an option of this command cannot be read, in words for its caller; None when every
/// option reads (and for autocomplete, whose options are half typed).
pub fn misread(ctx: Context<'_>) -> Option<String> {
    let poise::Context::Application(app) = ctx else {
        return None;
    };
    if app.interaction_type == poise::CommandInteractionType::Autocomplete {
        return None;
    }
    for parameter in &app.command().parameters {
        let given = app.args.iter().find(|o| o.name == parameter.name);
        let why = match given {
            None if parameter.required => Some("it must be given".to_string()),
            None => None,
            Some(option) => unreadable(parameter, &option.value),
        };
        if let Some(why) = why {
            return Some(format!(
                "Could not read option `{}`: {why}. Nothing was done.",
                parameter.name
            ));
        }
    }
    None
}

/// What a parameter declares (its kind and limits), as it is registered with Discord.
struct Declared {
    kind: Option<Kind>,
    min: Option<f64>,
    max: Option<f64>,
    min_length: Option<u64>,
    max_length: Option<u64>,
}

impl Declared {
    fn of<U, E>(parameter: &poise::CommandParameter<U, E>) -> Declared {
        let json = parameter
            .create_as_slash_command_option()
            .and_then(|option| serde_json::to_value(option).ok())
            .unwrap_or_default();
        Declared {
            kind: json["type"]
                .as_u64()
                .and_then(|k| u8::try_from(k).ok())
                .map(Kind::from),
            min: json["min_value"].as_f64(),
            max: json["max_value"].as_f64(),
            min_length: json["min_length"].as_u64(),
            max_length: json["max_length"].as_u64(),
        }
    }
}

/// Why `value` cannot be read for `parameter`; None when it can.
fn unreadable<U, E>(
    parameter: &poise::CommandParameter<U, E>,
    value: &Value<'_>,
) -> Option<String> {
    let declared = Declared::of(parameter);
    let kind = declared.kind?;
    match (kind, value) {
        (Kind::Integer, Value::Integer(n)) if !parameter.choices.is_empty() => {
            let names: Vec<&str> = parameter.choices.iter().map(|c| &*c.name).collect();
            let known = usize::try_from(*n).is_ok_and(|i| i < names.len());
            (!known).then(|| {
                format!(
                    "{n} is none of its choices ({})",
                    names
                        .iter()
                        .map(|n| plain(n))
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            })
        }
        (Kind::Integer, Value::Integer(n)) => out_of_range(*n as f64, &declared),
        (Kind::Number, Value::Number(x)) => out_of_range(*x, &declared),
        (Kind::Number, Value::Integer(n)) => out_of_range(*n as f64, &declared),
        (Kind::String, Value::String(text)) => {
            let length = text.chars().count() as u64;
            match (declared.min_length, declared.max_length) {
                (Some(min), _) if length < min => {
                    Some(format!("it takes at least {min} characters, not {length}"))
                }
                (_, Some(max)) if length > max => {
                    Some(format!("it takes at most {max} characters, not {length}"))
                }
                _ => None,
            }
        }
        (Kind::Boolean, Value::Boolean(_))
        | (Kind::User, Value::User(..))
        | (Kind::Role, Value::Role(_))
        | (Kind::Channel, Value::Channel(_))
        | (Kind::Attachment, Value::Attachment(_))
        | (Kind::Mentionable, Value::User(..) | Value::Role(_)) => None,
        (
            Kind::User | Kind::Mentionable,
            Value::Unresolved(serenity::Unresolved::User(_) | serenity::Unresolved::Mentionable(_)),
        ) => Some("the member it names was not found".into()),
        (Kind::Role, Value::Unresolved(serenity::Unresolved::RoleId(_))) => {
            Some("the role it names was not found".into())
        }
        (Kind::Channel, Value::Unresolved(serenity::Unresolved::Channel(_))) => {
            Some("the channel it names was not found".into())
        }
        (kind, value) => Some(format!("it takes {}, not {}", wanted(kind), shown(value))),
    }
}

/// Whether `x` is outside the declared range, in words.
fn out_of_range(x: f64, declared: &Declared) -> Option<String> {
    let below = declared.min.is_some_and(|min| x < min);
    let above = declared.max.is_some_and(|max| x > max);
    if !below && !above {
        return None;
    }
    let bound = |b: f64| format!("{b}");
    Some(match (declared.min, declared.max) {
        (Some(min), Some(max)) => {
            format!("it must be from {} to {}, not {x}", bound(min), bound(max))
        }
        (Some(min), None) => format!("it must be at least {}, not {x}", bound(min)),
        (None, Some(max)) => format!("it must be at most {}, not {x}", bound(max)),
        (None, None) => return None,
    })
}

/// What an option of `kind` takes, in words.
fn wanted(kind: Kind) -> &'static str {
    match kind {
        Kind::String => "text",
        Kind::Integer => "a whole number",
        Kind::Number => "a number",
        Kind::Boolean => "true or false",
        Kind::User => "a member",
        Kind::Channel => "a channel",
        Kind::Role => "a role",
        Kind::Mentionable => "a member or a role",
        Kind::Attachment => "a file",
        _ => "something else",
    }
}

/// The most of a user's text shown back to them.
const SHOWN: usize = 40;

/// `value` as the caller is shown it: their own text as plain text, cut short.
fn shown(value: &Value<'_>) -> String {
    match value {
        Value::String(text) | Value::Autocomplete { value: text, .. } => {
            let mut cut: String = text.chars().take(SHOWN).collect();
            if text.chars().count() > SHOWN {
                cut.push('…');
            }
            format!("\"{}\"", plain(&cut))
        }
        Value::Integer(n) => n.to_string(),
        Value::Number(x) => x.to_string(),
        Value::Boolean(b) => b.to_string(),
        Value::User(..) => "a member".into(),
        Value::Role(_) => "a role".into(),
        Value::Channel(_) => "a channel".into(),
        Value::Attachment(_) => "a file".into(),
        Value::SubCommand(_) | Value::SubCommandGroup(_) => "a subcommand".into(),
        _ => "something it cannot read".into(),
    }
}

#[cfg(test)]
mod tests;
