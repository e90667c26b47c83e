//! The league maths' tests, a file a subject: the Dutch Swiss pairings (and their digest of
//! many seasons), the matching they rest on, and the TRF16 files.

use super::*;

mod dutch;
mod dutch_digest;
mod matching;
mod trf;
