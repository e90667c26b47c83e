//! The time machinery of the table: the clock time enters through, each match's clocks and
//! deadlines, the scheduler that fires them, vacations, and the time controls players write.

pub mod clock;
pub(in crate::table) mod clocks;
pub(in crate::table) mod scheduler;
pub mod time_control;
pub(in crate::table) mod vacations;
