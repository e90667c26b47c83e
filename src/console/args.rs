//! How the command line reads a game: by id or by the name players see, with the registration
//! list's ids offered in `--help` and in the error for an unknown one.

use crate::games::GameKind;
use clap::builder::{PossibleValue, TypedValueParser};
use clap::error::ErrorKind;

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
        let text = value.to_string_lossy();
        text.parse().map_err(|reason: String| {
            let arg = arg.map_or_else(|| "the game".into(), |a| format!("'{a}'"));
            let message = format!("invalid value '{text}' for {arg}: {reason}\n");
            clap::Error::raw(ErrorKind::ValueValidation, message).with_cmd(cmd)
        })
    }

    fn possible_values(&self) -> Option<Box<dyn Iterator<Item = PossibleValue> + '_>> {
        Some(Box::new(
            GameKind::ALL
                .into_iter()
                .map(|game| PossibleValue::new(game.id())),
        ))
    }
}
