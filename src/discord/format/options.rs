//! The options of a slash command that are read the same everywhere: the game, and
//! `key=value` game options.

use crate::games::GameKind;
use crate::table::time_control::read_duration;

/// A game chosen from a slash command's list: every game of the registration list, by the name
/// players see, in the list's order (Discord sends the chosen index).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GameChoice(GameKind);

impl GameChoice {
    pub fn kind(self) -> GameKind {
        self.0
    }
}

impl poise::ChoiceParameter for GameChoice {
    fn list() -> std::borrow::Cow<'static, [poise::CommandParameterChoice]> {
        GameKind::ALL
            .iter()
            .map(|game| poise::CommandParameterChoice {
                name: game.name().into(),
                localizations: std::borrow::Cow::Borrowed(&[]),
                __non_exhaustive: (),
            })
            .collect()
    }

    fn from_index(index: usize) -> Option<Self> {
        GameKind::ALL.get(index).copied().map(GameChoice)
    }

    fn from_name(name: &str) -> Option<Self> {
        GameKind::ALL
            .into_iter()
            .find(|game| game.name().eq_ignore_ascii_case(name))
            .map(GameChoice)
    }

    fn name(&self) -> &'static str {
        self.0.name()
    }

    fn localized_name(&self, _locale: &str) -> Option<&'static str> {
        None
    }
}

/// Reads "key=value key=value" (commas also separate). A value in quotes may hold spaces and
/// commas: `white_deck="King, Queen, 4 Knight, ..."`.
pub fn parse_options(text: &str) -> Result<Vec<(String, String)>, String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut quoted = false;
    for c in text.chars() {
        match c {
            '"' | '“' | '”' => quoted = !quoted,
            c if !quoted && (c.is_whitespace() || c == ',') => {
                if !word.is_empty() {
                    words.push(std::mem::take(&mut word));
                }
            }
            c => word.push(c),
        }
    }
    if quoted {
        return Err("a quoted option value is not closed: add the closing \"".into());
    }
    if !word.is_empty() {
        words.push(word);
    }
    words
        .iter()
        .map(|pair| {
            pair.split_once('=')
                .map(|(k, v)| (k.trim().to_string(), v.trim().to_string()))
                .ok_or_else(|| format!("options are written key=value; \"{pair}\" is not"))
        })
        .collect()
}

/// Channel mentions (`<#123>`) or bare ids; "anywhere" (or "all", "off") for no limit.
pub(crate) fn read_channels(text: &str) -> Result<Vec<String>, String> {
    let text = text.trim();
    if ["anywhere", "all", "any", "off", "none"].contains(&text.to_lowercase().as_str()) {
        return Ok(vec![]);
    }
    let mut channels = Vec::new();
    for word in text.split(|c: char| c.is_whitespace() || c == ',') {
        if word.is_empty() {
            continue;
        }
        let id = word
            .strip_prefix("<#")
            .and_then(|w| w.strip_suffix('>'))
            .unwrap_or(word);
        if id.is_empty() || !id.chars().all(|c| c.is_ascii_digit()) {
            return Err(format!(
                "\"{}\" is not a channel: mention channels like #chess, or say anywhere",
                crate::engine::echo(word)
            ));
        }
        if !channels.contains(&id.to_string()) {
            channels.push(id.to_string());
        }
    }
    if channels.is_empty() {
        return Err("Mention at least one channel, or say anywhere.".into());
    }
    Ok(channels)
}

/// "10m", "1h", "2d" or off (0), up to [`COOLDOWN_LIMIT`].
pub(crate) fn read_cooldown(text: &str) -> Result<i64, String> {
    let text = text.trim();
    if ["off", "none", "0"].contains(&text.to_lowercase().as_str()) {
        return Ok(0);
    }
    match read_duration(text) {
        Ok(seconds) if seconds <= COOLDOWN_LIMIT => Ok(seconds),
        Ok(_) => Err("A cooldown is at most 7 days.".into()),
        Err(why) => Err(format!("Say how long, like 10m, 1h or 1d, or off: {why}.")),
    }
}

/// The longest cooldown a server may ask for between two challenges.
pub(crate) const COOLDOWN_LIMIT: i64 = 7 * 24 * 3600;

/// `/play`'s `level:`: how strongly the computer plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, poise::ChoiceParameter)]
pub enum LevelChoice {
    #[name = "easy"]
    Easy,
    #[name = "medium"]
    Medium,
    #[name = "hard"]
    Hard,
}

impl LevelChoice {
    pub fn level(self) -> crate::ai::Level {
        match self {
            LevelChoice::Easy => crate::ai::Level::Easy,
            LevelChoice::Medium => crate::ai::Level::Medium,
            LevelChoice::Hard => crate::ai::Level::Hard,
        }
    }
}

/// A setting turned on or off (`/admin server web:on`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, poise::ChoiceParameter)]
pub enum Switch {
    #[name = "on"]
    On,
    #[name = "off"]
    Off,
}

impl Switch {
    pub fn on(self) -> bool {
        self == Switch::On
    }
}

/// `/play`'s `seat:`: where the one who challenges sits (first is White in chess).
#[derive(Clone, Copy, Debug, PartialEq, Eq, poise::ChoiceParameter)]
pub enum SeatChoice {
    #[name = "first (White)"]
    First,
    #[name = "second (Black)"]
    Second,
    #[name = "third"]
    Third,
    #[name = "fourth"]
    Fourth,
    #[name = "random"]
    Random,
}

impl SeatChoice {
    /// The seat's index, or None for a random one.
    pub fn index(self) -> Option<usize> {
        match self {
            SeatChoice::First => Some(0),
            SeatChoice::Second => Some(1),
            SeatChoice::Third => Some(2),
            SeatChoice::Fourth => Some(3),
            SeatChoice::Random => None,
        }
    }
}

/// `/play`'s `against:`: someone alone plays the computer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, poise::ChoiceParameter)]
pub enum Against {
    #[name = "computer"]
    Computer,
}
