//! How a game is written as PGN, for the games a PGN reader knows ([`crate::engine::Game::PGN`]).

/// A game's PGN form: its `Variant` tag (None for standard chess), and the words that start an
/// extra step after a chess move in its actions (`d3 enthrall Nc6 g1`): such a step is written
/// as a comment after its move, which any PGN reader skips.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PgnStyle {
    pub variant: Option<&'static str>,
    pub extra_steps: &'static [&'static str],
}

impl PgnStyle {
    /// An action's text as a PGN move and the comment that follows it, if any.
    pub fn split(&self, action: &str) -> (String, Option<String>) {
        let extra = self
            .extra_steps
            .iter()
            .find_map(|word| action.find(&format!(" {word} ")));
        match extra {
            Some(at) => (action[..at].to_string(), Some(action[at + 1..].to_string())),
            None => (action.to_string(), None),
        }
    }
}
