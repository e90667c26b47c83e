//! The search and the levels in play.

use super::*;
