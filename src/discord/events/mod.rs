//! The top floor's gateway side: one file per kind of event the bot handles (component
//! presses, messages in threads and DMs, the world changing, catching up after downtime).

pub mod buttons;
pub mod catch_up;
pub mod chat;
pub mod direct;
pub mod world;
