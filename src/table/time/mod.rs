//! The time machinery of the table: the clock time enters through, each match's clocks and
//! deadlines, the scheduler that fires them, and vacations. The time controls players write
//! are pure arithmetic below the table, in `crate::timing` (re-exported as `time_control`).

pub mod clock;
pub(in crate::table) mod clocks;
pub(in crate::table) mod scheduler;
pub(in crate::table) mod vacations;

pub use crate::timing::control as time_control;
