//! The registration list's machinery: [`register_games!`] turns one line a game into
//! [`GameKind`](super::GameKind), [`AnyGame`](super::AnyGame) and
//! [`AnyView`](super::AnyView) with their stored (serde) forms, and the three places that match
//! over them once: [`GameKind::info`](super::GameKind::info), `AnyGame::as_game` and
//! `AnyView::as_view`. Everything else reaches a game through the traits those return.

use super::{AnyGame, AnyView, GameKind};
use crate::engine::options_from_pairs;
use crate::engine::{Game, GameRng, PgnStyle, Scoring, Seat, SetupError, Showcase};
use std::marker::PhantomData;

/// A game on the registration list: its kind and how its view is wrapped. Written by
/// [`register_games!`], never by hand.
pub trait Registered: Game + Into<AnyGame> {
    const KIND: GameKind;
    fn any_view(view: Self::View) -> AnyView;
}

/// What a kind of game declares, before any match of it exists: the constants and static
/// hooks of [`Game`], and a way to start one. [`GameKind::info`](super::GameKind::info) gives
/// it for any kind.
pub trait GameInfo: Send + Sync {
    fn id(&self) -> &'static str;
    fn name(&self) -> &'static str;
    fn seats(&self) -> (usize, usize);
    fn notation(&self) -> &'static str;
    fn summary(&self) -> &'static str;
    fn rules(&self) -> u32;
    fn scoring(&self) -> Scoring;
    fn pgn(&self) -> Option<PgnStyle>;
    fn showcase(&self) -> &'static [Showcase];
    fn seat_name(&self, seat: Seat) -> String;
    /// A new game from `key=value` options, under the current rules.
    fn start(
        &self,
        options: &[(String, String)],
        seats: usize,
        rng: &mut GameRng,
    ) -> Result<AnyGame, SetupError>;
}

/// The [`GameInfo`] of game `G`: a marker with no data.
pub struct Info<G>(PhantomData<fn() -> G>);

impl<G> Info<G> {
    pub const OF: Info<G> = Info(PhantomData);
}

impl<G: Registered> GameInfo for Info<G> {
    fn id(&self) -> &'static str {
        G::ID
    }
    fn name(&self) -> &'static str {
        G::NAME
    }
    fn seats(&self) -> (usize, usize) {
        G::SEATS
    }
    fn notation(&self) -> &'static str {
        G::NOTATION
    }
    fn summary(&self) -> &'static str {
        G::SUMMARY
    }
    fn rules(&self) -> u32 {
        G::RULES
    }
    fn scoring(&self) -> Scoring {
        G::SCORING
    }
    fn pgn(&self) -> Option<PgnStyle> {
        G::PGN
    }
    fn showcase(&self) -> &'static [Showcase] {
        G::SHOWCASE
    }
    fn seat_name(&self, seat: Seat) -> String {
        G::seat_name(seat)
    }
    fn start(
        &self,
        options: &[(String, String)],
        seats: usize,
        rng: &mut GameRng,
    ) -> Result<AnyGame, SetupError> {
        let options = options_from_pairs(G::NAME, options)?;
        Ok(G::new(&options, seats, rng)?.into())
    }
}

/// The registration list: `Variant => module::Game,` a line, in the order players are offered
/// the games (the module is declared beside the list, where rustfmt and readers find it). The variant's snake-case name is the game's id in storage, so it must never
/// change; a line may carry attributes (`#[cfg(test)]` for a game only tests know).
macro_rules! register_games {
    ($( $(#[$attr:meta])* $variant:ident => $module:ident :: $game:ident, )*) => {
        /// The games deckmate hosts. Stored by id ("chess"), as the registration list names them.
        #[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
        #[serde(rename_all = "snake_case")]
        pub enum GameKind {
            $( $(#[$attr])* $variant, )*
        }

        /// A game of any kind. Stored as the game's own state, tagged with its id; used through
        /// the text-level [`TextGame`] it dereferences to.
        #[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
        #[serde(tag = "game", rename_all = "snake_case")]
        pub enum AnyGame {
            $( $(#[$attr])* $variant($module::$game), )*
        }

        /// What one viewer sees of any game, tagged with the game's id.
        #[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
        #[serde(tag = "game", rename_all = "snake_case")]
        pub enum AnyView {
            $( $(#[$attr])* $variant(<$module::$game as $crate::engine::Game>::View), )*
        }

        $(
            $(#[$attr])*
            impl From<$module::$game> for AnyGame {
                fn from(game: $module::$game) -> AnyGame {
                    AnyGame::$variant(game)
                }
            }

            $(#[$attr])*
            impl $crate::games::registry::Registered for $module::$game {
                const KIND: GameKind = GameKind::$variant;
                fn any_view(view: Self::View) -> AnyView {
                    AnyView::$variant(view)
                }
            }
        )*

        impl GameKind {
            /// Every game players are offered, in the order of the registration list (a game
            /// that declares itself not [`Game::OFFERED`] is left out).
            pub const ALL: [GameKind; Self::OFFERED_COUNT] = {
                let mut all = [Self::REGISTERED[0]; Self::OFFERED_COUNT];
                let (mut from, mut to) = (0, 0);
                while to < all.len() {
                    if Self::OFFERED[from] {
                        all[to] = Self::REGISTERED[from];
                        to += 1;
                    }
                    from += 1;
                }
                all
            };

            /// Every game of the registration list, offered or not: what a stored id is read
            /// against.
            pub const REGISTERED: &'static [GameKind] =
                &[ $( $(#[$attr])* GameKind::$variant, )* ];

            const OFFERED: &'static [bool] =
                &[ $( $(#[$attr])* <$module::$game as $crate::engine::Game>::OFFERED, )* ];

            const OFFERED_COUNT: usize = {
                let mut count = 0;
                let mut i = 0;
                while i < Self::OFFERED.len() {
                    count += Self::OFFERED[i] as usize;
                    i += 1;
                }
                count
            };

            /// What this kind of game declares (its id, name, seats, notation, …).
            pub fn info(self) -> &'static dyn $crate::games::registry::GameInfo {
                match self {
                    $( $(#[$attr])* GameKind::$variant =>
                        &$crate::games::registry::Info::<$module::$game>::OF, )*
                }
            }
        }

        impl AnyGame {
            /// The game, through the text-level interface every game shares.
            pub fn as_game(&self) -> &(dyn TextGame + 'static) {
                match self {
                    $( $(#[$attr])* AnyGame::$variant(game) => game, )*
                }
            }

            pub fn as_game_mut(&mut self) -> &mut (dyn TextGame + 'static) {
                match self {
                    $( $(#[$attr])* AnyGame::$variant(game) => game, )*
                }
            }

            /// The game under revision `rules` of its rules ([`Game::under_rules`]).
            pub(crate) fn under_rules(self, rules: u32) -> AnyGame {
                match self {
                    $( $(#[$attr])* AnyGame::$variant(game) => {
                        AnyGame::$variant($crate::engine::Game::under_rules(game, rules))
                    } )*
                }
            }
        }

        impl AnyView {
            /// The view, through what every game's view answers.
            pub fn as_view(&self) -> &dyn $crate::engine::GameView {
                match self {
                    $( $(#[$attr])* AnyView::$variant(view) => view, )*
                }
            }

            pub fn as_view_mut(&mut self) -> &mut dyn $crate::engine::GameView {
                match self {
                    $( $(#[$attr])* AnyView::$variant(view) => view, )*
                }
            }
        }
    };
}

pub(crate) use register_games;
