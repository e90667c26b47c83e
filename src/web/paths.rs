//! The public pages' addresses: built here for the pages' own links and for the buttons the
//! bot posts under PUBLIC_URL, and read back by the router. A server is its Discord id; the
//! console's own leagues (served by `deckmate web` alone) are under `local`.

use crate::games::GameKind;
use crate::store::{MatchId, PlayerId};

/// Whose pages: a Discord server's, or the console's.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Scope {
    Server(String),
    Local,
}

/// The longest league name an address may carry (a league's name is at most this long).
pub const NAME_LIMIT: usize = 100;

impl Scope {
    /// The scope an address names: a Discord id (1 to 20 digits) or `local`.
    pub fn parse(text: &str) -> Option<Scope> {
        match text {
            "local" => Some(Scope::Local),
            id if (1..=20).contains(&id.len()) && id.bytes().all(|b| b.is_ascii_digit()) => {
                Some(Scope::Server(id.to_string()))
            }
            _ => None,
        }
    }

    /// The scope of something played in server `guild` (None: the console).
    pub fn of(guild: Option<&str>) -> Scope {
        guild.map_or(Scope::Local, |g| Scope::Server(g.to_string()))
    }

    /// The server's Discord id; None for the console.
    pub fn guild(&self) -> Option<&str> {
        match self {
            Scope::Server(id) => Some(id),
            Scope::Local => None,
        }
    }

    fn segment(&self) -> &str {
        self.guild().unwrap_or("local")
    }

    /// The server's page: its leagues and leaderboards.
    pub fn home(&self) -> String {
        format!("/s/{}", self.segment())
    }

    /// A league's page: its seasons.
    pub fn league(&self, name: &str) -> String {
        format!("{}/leagues/{}", self.home(), encode(name))
    }

    /// A season's page.
    pub fn season(&self, league: &str, season: u32) -> String {
        format!("{}/{season}", self.league(league))
    }

    /// A season's TRF16 file.
    pub fn trf(&self, league: &str, season: u32) -> String {
        format!("{}/{season}/trf", self.league(league))
    }

    /// A match's page.
    pub fn game(&self, id: MatchId) -> String {
        format!("{}/matches/{id}", self.home())
    }

    /// A player's page in this server.
    pub fn player(&self, id: PlayerId) -> String {
        format!("{}/players/{id}", self.home())
    }

    /// The server's leaderboard in `game`.
    pub fn leaderboard(&self, game: GameKind) -> String {
        format!("{}/leaderboard/{}", self.home(), game.id())
    }
}

/// `text` as one segment of an address: every byte but letters, digits and `-._~`
/// percent-encoded.
pub fn encode(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for b in text.bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' => {
                out.push(b as char)
            }
            _ => out.push_str(&format!("%{b:02X}")),
        }
    }
    out
}

/// A page's full address under `public` (PUBLIC_URL, with or without a trailing slash).
pub fn absolute(public: &str, path: &str) -> String {
    format!("{}{path}", public.trim_end_matches('/'))
}
