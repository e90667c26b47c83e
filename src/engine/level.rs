//! How strongly a computer player plays: a level the computer player (src/ai) and a game's own
//! search ([`crate::engine::Game::own_search`]) both read.

use std::fmt;
use std::str::FromStr;

/// How strongly the computer plays.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Level {
    Easy,
    #[default]
    Medium,
    Hard,
}

impl Level {
    pub const ALL: [Level; 3] = [Level::Easy, Level::Medium, Level::Hard];

    pub fn name(self) -> &'static str {
        match self {
            Level::Easy => "easy",
            Level::Medium => "medium",
            Level::Hard => "hard",
        }
    }
}

impl Level {
    /// The most time a move may take at this level on one core, whatever the game: callers
    /// stop the search when it is spent (its budget of work is usually spent first).
    pub fn time_limit(self) -> std::time::Duration {
        std::time::Duration::from_millis(match self {
            Level::Easy => 250,
            Level::Medium => 800,
            Level::Hard => 2_000,
        })
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Level {
    type Err = String;
    fn from_str(text: &str) -> Result<Level, String> {
        let wanted = text.trim().to_ascii_lowercase();
        Level::ALL
            .into_iter()
            .find(|level| level.name() == wanted)
            .ok_or_else(|| {
                format!(
                    "unknown level \"{}\"; choose easy, medium or hard",
                    super::echo(text)
                )
            })
    }
}
