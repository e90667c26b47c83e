//! Tests of the registration list and the text interface every adapter drives games through
//! ([`GameKind`], [`AnyGame`]), a file a subject: kinds and text play (`kinds`), what the list
//! generates (`registry`), and the fuzzing of every game's options and action text (`fuzz`).
//! This file holds only what they share.

mod fuzz;
mod kinds;
mod registry;

use super::*;
use crate::engine::{GameRng, Seat, SetupError, Viewer};
