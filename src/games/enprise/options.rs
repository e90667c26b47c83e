//! The En Prise options (variant, alliance, Blind's peek, Memory's time) and the check, at set-up,
//! that they fit together and fit the number of players.

use crate::engine::SetupError;
use serde::{Deserialize, Deserializer, Serialize};

/// How the battleplans are shown.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Variant {
    /// Every plan face-up for everyone.
    #[default]
    Open,
    /// Plans hidden from opponents; the owner sees them as `peek` says.
    Blind,
    /// Every plan shown to all for `memory_seconds`, then hidden from everyone.
    Memory,
    /// Plans hidden from everyone; the opponent to the placer's left picks the card.
    Casino,
}

impl Variant {
    pub fn name(self) -> &'static str {
        match self {
            Variant::Open => "open",
            Variant::Blind => "blind",
            Variant::Memory => "memory",
            Variant::Casino => "casino",
        }
    }
}

/// What the owner of a blind plan sees.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Peek {
    #[default]
    Plan,
    Next,
}

/// The options of a match. `peek` and `memory_seconds` are None when not given, so that giving
/// one to a variant it does not belong to can be refused.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct EnPriseOptions {
    pub variant: Variant,
    /// Four players in two teams: seats 1 and 3 against seats 2 and 4.
    pub alliance: bool,
    /// Blind only: the owner sees the whole plan (the default), or only the next card.
    pub peek: Option<Peek>,
    /// Memory only: how long the plans are shown at the start (default 60 seconds).
    #[serde(deserialize_with = "seconds")]
    pub memory_seconds: Option<u32>,
}

/// The memorising time when none is given.
pub const MEMORY_SECONDS: u32 = 60;
/// The longest memorising time.
pub const MAX_MEMORY_SECONDS: u32 = 3600;

impl EnPriseOptions {
    pub fn peek(&self) -> Peek {
        self.peek.unwrap_or_default()
    }

    pub fn memory_seconds(&self) -> u32 {
        self.memory_seconds.unwrap_or(MEMORY_SECONDS)
    }

    /// Refuses options that do not fit the variant or the number of players, naming the
    /// option and what it needs.
    pub fn check(&self, seats: usize) -> Result<(), SetupError> {
        let refuse = |text: String| Err(SetupError::Options(text));
        let variant = self.variant.name();
        if self.alliance && seats != 4 {
            return refuse(format!(
                "alliance=true needs four players (two teams of two), not {seats}"
            ));
        }
        if self.peek.is_some() && self.variant != Variant::Blind {
            return refuse(format!(
                "peek is for variant=blind only (it says how much of their own hidden plan a \
                 player sees); this match is variant={variant}"
            ));
        }
        if let Some(seconds) = self.memory_seconds {
            if self.variant != Variant::Memory {
                return refuse(format!(
                    "memory_seconds is for variant=memory only (how long the plans are shown); \
                     this match is variant={variant}"
                ));
            }
            if !(1..=MAX_MEMORY_SECONDS).contains(&seconds) {
                return refuse(format!(
                    "memory_seconds must be between 1 and {MAX_MEMORY_SECONDS}, not {seconds}"
                ));
            }
        }
        Ok(())
    }
}

/// Reads `memory_seconds`: a whole number, said plainly when it is not one.
fn seconds<'de, D: Deserializer<'de>>(d: D) -> Result<Option<u32>, D::Error> {
    let value = Option::<serde_json::Value>::deserialize(d)?;
    match value {
        None | Some(serde_json::Value::Null) => Ok(None),
        Some(v) => v
            .as_u64()
            .and_then(|n| u32::try_from(n).ok())
            .map(Some)
            .ok_or_else(|| {
                serde::de::Error::custom(format!(
                    "takes a whole number of seconds from 1 to {MAX_MEMORY_SECONDS}, not {v}"
                ))
            }),
    }
}
