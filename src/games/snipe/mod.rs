//! Snipe Chess (in progress): the forest deck is in place; the game itself is not yet playable.
//! See docs/rules/snipe.md.

pub mod deck;
