//! Nonces for the messages of one owed post. Each message the outbox sends for a post carries
//! a nonce of its own (the post's id and the message's place among the post's messages), and
//! asks Discord to enforce it: when the same post is sent again within Discord's few minutes
//! (its sender died before recording it sent, or a lease ran out while Discord was slow),
//! Discord returns the message it has and shows nothing twice. Discord checks a nonce against
//! the bot's other messages, wherever they went, and the post's id is unique in the database,
//! so two messages never share one.

use poise::serenity_prelude as serenity;
use std::sync::atomic::{AtomicU32, Ordering};

/// The nonces of post `post`'s messages, in the order they are sent.
pub struct Nonces {
    post: i64,
    sent: AtomicU32,
}

impl Nonces {
    pub fn new(post: i64) -> Nonces {
        Nonces {
            post,
            sent: AtomicU32::new(0),
        }
    }

    /// `message` as the post's next message: with its nonce, enforced.
    pub fn stamp(&self, message: serenity::CreateMessage) -> serenity::CreateMessage {
        let n = self.sent.fetch_add(1, Ordering::Relaxed);
        message
            .nonce(serenity::Nonce::String(nonce(self.post, n)))
            .enforce_nonce(true)
    }
}

/// The nonce of message `n` of post `post`: at most 25 characters, as Discord requires (16
/// hexadecimal digits, a dot and a decimal count of at most 7 digits).
pub fn nonce(post: i64, n: u32) -> String {
    format!("o{:x}.{}", post as u64, n.min(9_999_999))
}
