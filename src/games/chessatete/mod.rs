//! Chess-à-Tête (in progress): the cards and the deck-building rules are in place; the game
//! itself is not yet playable. See docs/rules/chessatete.md.

pub mod deck;
