//! The bot's logs end to end, in a test process of their own. tracing caches whether a
//! callsite is enabled once for the whole process; in a process whose other tests run the bot
//! at the same moment without capturing logs, that cache can be left saying "disabled" for the
//! test that captures them, and an expected line never arrives.

mod fake_discord;
#[path = "discord_e2e/logs_and_redelivery.rs"]
mod logs_and_redelivery;
