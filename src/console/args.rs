//! How the command line reads a game: by id or by the name players see, with the registration
//! list's ids offered in `--help` and in the error for an unknown one.

use crate::games::GameKind;
use clap::builder::{PossibleValue, TypedValueParser};

/// clap's reader of a [`GameKind`].
#[derive(Clone, Copy, Debug)]
pub struct GameParser;

impl TypedValueParser for GameParser {
    type Value = GameKind;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> Result<GameKind, clap::Error> {
        // clap's own reader of a `FromStr` type, for its words around the reason.
        let read: fn(&str) -> Result<GameKind, String> = str::parse;
        read.parse_ref(cmd, arg, value)
    }

    fn possible_values(&self) -> Option<Box<dyn Iterator<Item = PossibleValue> + '_>> {
        Some(Box::new(
            GameKind::ALL
                .into_iter()
                .map(|game| PossibleValue::new(game.id())),
        ))
    }
}
