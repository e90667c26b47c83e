//! Pure time arithmetic, below the table: the units the table's clock counts in and the words
//! players read them in (`units`), and the time controls players write and the clocks they
//! run (`control`). No clock is read here: the table passes the time in.

pub mod control;
pub mod units;

#[cfg(test)]
mod tests;
