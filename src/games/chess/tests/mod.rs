//! Chess tests: the rules (`rules`) and the fuzzing of positions and PGN (`fuzz`).

use super::*;

mod fuzz;
mod rules;
