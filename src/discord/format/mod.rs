//! The lowest floor: message builders that need neither the table nor Discord's API: plain
//! text, mentions, Discord's limits, custom ids, boards' text and components, notices, the
//! picture files, and the invite link.

pub mod boards;
pub mod ids;
pub mod invite;
pub mod limits;
pub mod logs;
pub mod menu;
pub mod notices;
pub mod options;
pub mod pages;
pub mod pictures;
pub mod pings;
pub mod plain;
