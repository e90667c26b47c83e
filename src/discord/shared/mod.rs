//! The middle floor: what commands and events share: lookups (the caller's match, player and
//! admin rights), answers (acknowledging, replying, refusing), pages of long lists, and the
//! senders of what the bot owes (the outbox, turns, direct messages, round announcements).

pub mod acknowledge;
pub mod acting;
pub mod admins;
pub mod autocomplete;
pub mod challenges;
pub mod dm_memory;
pub mod home;
pub mod links;
pub mod lists;

pub mod lookups;
pub mod misread;
pub mod nonces;
pub mod outbox;

pub mod press;
pub mod redelivery;
pub mod rematch;
pub mod reopen;
pub mod reply;
pub mod rest;
pub mod rounds;
pub mod scheduler;
pub mod threads;
pub mod turns;
