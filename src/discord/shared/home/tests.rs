//! Which channels can be a match's home, and what a refusal names.

use super::*;

const ALL: Permissions = Permissions::VIEW_CHANNEL
    .union(Permissions::SEND_MESSAGES)
    .union(Permissions::CREATE_PUBLIC_THREADS)
    .union(Permissions::SEND_MESSAGES_IN_THREADS)
    .union(Permissions::ATTACH_FILES);

#[test]
fn a_text_channel_with_every_permission_is_a_home() {
    assert_eq!(problem(Some(ChannelType::Text), Some(ALL)), None);
    assert_eq!(problem(Some(ChannelType::News), Some(ALL)), None);
    // Discord said nothing: nothing is assumed.
    assert_eq!(problem(None, None), None);
}

#[test]
fn a_missing_permission_is_named() {
    let without = ALL - Permissions::CREATE_PUBLIC_THREADS;
    assert_eq!(
        problem(Some(ChannelType::Text), Some(without)).as_deref(),
        Some(
            "I can't start a match here: I need Create Public Threads in this channel. A server \
             admin can grant it in the channel's permissions."
        )
    );
    let without = ALL - Permissions::SEND_MESSAGES - Permissions::ATTACH_FILES;
    let text = problem(Some(ChannelType::Text), Some(without)).unwrap();
    assert!(
        text.starts_with("I can't start a match here: I need Send Messages and Attach Files in"),
        "{text}"
    );
    let text = problem(Some(ChannelType::Text), Some(Permissions::empty())).unwrap();
    assert!(
        text.contains(
            "View Channel, Send Messages, Create Public Threads, Send Messages in Threads and \
             Attach Files"
        ),
        "{text}"
    );
}

#[test]
fn channels_that_cannot_hold_threads_are_named() {
    for (kind, words) in [
        (ChannelType::Private, "this is a direct message"),
        (ChannelType::PublicThread, "this is a thread"),
        (ChannelType::PrivateThread, "this is a thread"),
        (ChannelType::Voice, "this is a voice channel"),
        (ChannelType::Forum, "this is a forum channel"),
        (ChannelType::Category, "cannot hold threads"),
    ] {
        let text = problem(Some(kind), Some(ALL)).unwrap();
        assert!(text.contains(words), "{kind:?}: {text}");
    }
}
