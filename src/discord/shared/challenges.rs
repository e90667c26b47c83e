//! Challenges in Discord: the message `/play` posts, with Accept and Decline buttons, and what
//! the buttons do. They answer the challenge in the store, so a challenge survives a restart,
//! its id is never reused, and the last acceptance creates exactly one match, held until the
//! outbox's sender has made its thread ([`crate::discord::shared::threads`]).

use crate::discord::format::boards::mention;
use crate::discord::format::ids::ButtonAction;
use crate::discord::format::plain::plain;
use crate::discord::format::{limits, logs};
use crate::discord::shared::press::Press;
use crate::discord::shared::press::refuse as refuse_press;
use crate::discord::{Data, Error};
use crate::store::{Accepted, Challenge, ChallengeError, ChallengeId, PlayerId};
use crate::table::Table;
use crate::table::time_control::TimeControl;
use poise::serenity_prelude as serenity;
use std::time::Duration;

/// How long a challenge waits for its answers.
pub const CHALLENGE_TTL: Duration = Duration::from_secs(15 * 60);

pub(crate) fn challenge_buttons(id: ChallengeId) -> Vec<serenity::CreateActionRow> {
    vec![serenity::CreateActionRow::Buttons(vec![
        serenity::CreateButton::new(ButtonAction::AcceptChallenge(id).custom_id())
            .label("Accept")
            .style(serenity::ButtonStyle::Success),
        serenity::CreateButton::new(ButtonAction::DeclineChallenge(id).custom_id())
            .label("Decline")
            .style(serenity::ButtonStyle::Danger),
    ])]
}

/// Why these players cannot be challenged, if they cannot.
pub fn challenge_problem(players: &[serenity::User]) -> Option<String> {
    if players.iter().skip(1).any(|u| u.bot) {
        return Some("Bots cannot play; challenge people.".into());
    }
    for (i, user) in players.iter().enumerate() {
        if players[..i].iter().any(|u| u.id == user.id) {
            return Some(if i > 0 && user.id == players[0].id {
                "You cannot challenge yourself.".into()
            } else {
                format!("{} is named twice.", plain(&user.name))
            });
        }
    }
    None
}

/// The most of a challenge's options its message shows, in characters.
const OPTIONS_SHOWN: usize = 800;

/// The challenge's message: who challenges whom to what, and who is still awaited until when.
pub(crate) fn challenge_text(c: &Challenge) -> String {
    let invited: Vec<String> = c.invited().into_iter().map(mention).collect();
    let mut text = format!(
        "{} challenges {} to {}.",
        mention(c.challenger()),
        invited.join(", "),
        c.game.name()
    );
    if c.challenger != 0 {
        // Not the usual order: everyone sees where they would sit before accepting.
        let order: Vec<String> = c.seats.iter().map(|s| mention(&s.player)).collect();
        text.push_str(&format!(" Seats in order: {}.", order.join(", ")));
    }
    if !c.options.is_empty() {
        let options: Vec<String> = c.options.iter().map(|(k, v)| format!("{k}={v}")).collect();
        // Options are the challenger's own words: cut so the message keeps within its limit.
        let options = plain(&limits::cut(&options.join(" "), OPTIONS_SHOWN));
        text.push_str(&format!(" Options: {options}."));
    }
    match TimeControl::parse(&c.time_control) {
        Ok(TimeControl::None) | Err(_) => {}
        Ok(time) => text.push_str(&format!(" Clock: {}.", time.describe())),
    }
    let waiting: Vec<String> = c.waiting().into_iter().map(mention).collect();
    text.push_str(&format!(
        "\nWaiting for {} to accept (until <t:{}:t>, <t:{}:R>).",
        waiting.join(", "),
        c.expires_at,
        c.expires_at
    ));
    text
}

/// What the presser is told when a challenge cannot be answered; None for a failure on our
/// side (logged and answered as one).
pub(crate) fn refusal(error: &ChallengeError) -> Option<String> {
    Some(match error {
        ChallengeError::NoSuchChallenge(_) => {
            "This challenge is not known here. Start a new one with /play.".into()
        }
        ChallengeError::NotAddressed(_) => "This challenge is not addressed to you.".into(),
        ChallengeError::AlreadyAccepted(_) => {
            "You have already accepted this challenge; waiting for the others.".into()
        }
        ChallengeError::Declined(_) => {
            "This challenge was declined. Start a new one with /play.".into()
        }
        ChallengeError::Expired { at, .. } => {
            format!("This challenge expired on <t:{at}:f>. Start a new one with /play.")
        }
        ChallengeError::AlreadyStarted {
            match_id,
            thread_id: Some(thread),
            ..
        } => {
            format!("This challenge was already accepted: match #{match_id} is on in <#{thread}>.")
        }
        ChallengeError::AlreadyStarted { match_id, .. } => format!(
            "This challenge was already accepted: match #{match_id} is starting; its thread \
             opens in a moment."
        ),
        ChallengeError::CalledOff { match_id, .. } => format!(
            "This challenge was accepted, but match #{match_id} was called off: its thread \
             could not be made. Start a new one with /play."
        ),
        ChallengeError::Cooldown { until } => format!(
            "This server asks members to wait between challenges: you can challenge again \
             <t:{until}:R>."
        ),
        ChallengeError::ComputerMatches { most } => format!(
            "You already play the computer in {most} matches, the most at once: finish or \
             resign one of them first."
        ),
        ChallengeError::Corrupt { .. } | ChallengeError::Store(_) => return None,
    })
}

/// Runs `work` on the store for the presser (made a player first), at the adapter's time.
async fn answer_challenge<R: Send + 'static>(
    data: &Data,
    press: &Press<'_>,
    work: impl FnOnce(&mut Table, i64, i64) -> Result<R, ChallengeError> + Send + 'static,
) -> Result<Result<R, ChallengeError>, Error> {
    let (user, name) = (
        press.user.id.to_string(),
        press.user.display_name().to_string(),
    );
    Ok(data
        .table
        .call(move |t| {
            let player = t.store().discord_player(&user, &name)?.id;
            let now = t.now();
            work(t, player, now)
        })
        .await?)
}

/// Refuses a press for a reason the challenge gives, or fails it when storage failed.
async fn refuse_for(
    ctx: &serenity::Context,
    press: &Press<'_>,
    error: ChallengeError,
) -> Result<(), Error> {
    match refusal(&error) {
        Some(reason) => refuse_press(ctx, press, &reason).await,
        None => Err(error.into()),
    }
}

pub(crate) async fn accept_challenge(
    ctx: &serenity::Context,
    press: &Press<'_>,
    data: &Data,
    id: ChallengeId,
) -> Result<(), Error> {
    // The last acceptance creates the match, held with its thread owed to the outbox, in one
    // transaction (see table/openings.rs); the outbox's sender makes the thread and posts the
    // first board. The sender is woken once this press has answered, so that its note of where
    // the match is on comes after this answer.
    let from = press.message.id.to_string();
    let (user, name) = (
        press.user.id.to_string(),
        press.user.display_name().to_string(),
    );
    let accepted = data
        .table
        .call_quietly(move |t| {
            let player = t.store().discord_player(&user, &name)?.id;
            t.accept_challenge(id, player, Some(&from))
        })
        .await?;
    let (challenge, match_id) = match accepted {
        Err(e) => return refuse_for(ctx, press, e).await,
        Ok(Accepted::Waiting(challenge)) => {
            return press.edit(ctx, challenge_text(&challenge), None).await;
        }
        Ok(Accepted::Started {
            challenge,
            match_id,
        }) => (challenge, match_id),
    };
    tracing::info!(
        match_id,
        challenge = id,
        game = challenge.game.name(),
        "a challenge was accepted and its match created; its thread opens next"
    );
    let settled = press
        .settle(
            ctx,
            format!("Challenge accepted: match #{match_id} starts; its thread opens in a moment."),
        )
        .await;
    // Answered (or failed to): the thread is made now, its note coming after this answer.
    if let Ok(Err(e)) = data.table.call(move |t| t.opening_answered(match_id)).await {
        tracing::error!(match_id, error = %logs::chain(&e), "an accepted match's thread could not be made due now; it is made when its lease ends");
    }
    data.table.owed().notify_one();
    data.table.changed().notify_one();
    settled
}

pub(crate) async fn decline_challenge(
    ctx: &serenity::Context,
    press: &Press<'_>,
    data: &Data,
    id: ChallengeId,
) -> Result<(), Error> {
    let declined = answer_challenge(data, press, move |t, player, now| {
        let store = t.store();
        store.decline_challenge(id, player, now)
    })
    .await?;
    let challenge = match declined {
        Ok(challenge) => challenge,
        Err(e) => return refuse_for(ctx, press, e).await,
    };
    let challenger = challenge.challenger().discord_id.as_deref();
    let verb = if challenger == Some(press.user.id.to_string().as_str()) {
        "withdrew"
    } else {
        "declined"
    };
    press
        .settle(
            ctx,
            format!(
                "<@{}> {verb} the challenge to {}.",
                press.user.id,
                challenge.game.name()
            ),
        )
        .await
}

/// The computer's seats of the new challenge `c` accept at once. When nobody else is awaited,
/// the last of them is held back and returned: it accepts once the challenge's message is
/// posted ([`start_alone`]), so the match's thread starts from that message.
pub(crate) fn computers_accept(
    t: &mut Table,
    mut c: Challenge,
) -> Result<(Challenge, Option<PlayerId>), ChallengeError> {
    let mut computers = Vec::new();
    for seat in c.waiting() {
        if t.store().computer_level(seat.id)?.is_some() {
            computers.push(seat.id);
        }
    }
    let alone = !computers.is_empty() && c.waiting().len() == computers.len();
    let last = if alone { computers.pop() } else { None };
    for player in computers {
        if let Accepted::Waiting(after) = t.accept_challenge(c.id, player, None)? {
            c = after;
        }
    }
    Ok((c, last))
}

/// The computer's last acceptance of challenge `id` (see [`computers_accept`]), once its
/// message `from` is posted: the match starts, its thread made from that message (or on its
/// own when there is none).
pub(crate) async fn start_alone(
    data: &Data,
    id: ChallengeId,
    computer: PlayerId,
    from: Option<String>,
) -> Result<(), Error> {
    let started = data
        .table
        .call(move |t| t.accept_challenge(id, computer, from.as_deref()))
        .await?;
    match started {
        Ok(Accepted::Started { match_id, .. }) => {
            tracing::info!(
                match_id,
                challenge = id,
                "a match against the computer starts"
            );
            if let Ok(Err(e)) = data.table.call(move |t| t.opening_answered(match_id)).await {
                tracing::error!(match_id, error = %logs::chain(&e), "a match against the computer was not opened at once; it opens when its lease ends");
            }
            Ok(())
        }
        Ok(Accepted::Waiting(_)) => Ok(()),
        Err(e) => Err(e.into()),
    }
}

/// The message of a challenge only the computer is left to accept: who plays whom, starting
/// now.
pub(crate) fn against_text(c: &Challenge) -> String {
    let others: Vec<String> = c.invited().into_iter().map(mention).collect();
    format!(
        "{} plays {} at {}. The match starts now; its thread opens in a moment.",
        mention(c.challenger()),
        others.join(", "),
        c.game.name()
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::GameKind;
    use crate::store::{ChallengeSeat, ChallengeStatus, Player};

    fn challenge(accepted: &[bool]) -> Challenge {
        let seats = accepted
            .iter()
            .enumerate()
            .map(|(i, &accepted)| ChallengeSeat {
                player: Player {
                    id: i as i64 + 1,
                    name: format!("p{i}"),
                    discord_id: Some(format!("{}", i + 1)),
                },
                accepted_at: accepted.then_some(5),
            })
            .collect();
        Challenge {
            id: 1,
            game: GameKind::Chess,
            options: vec![("fen".into(), "x".into())],
            time_control: "none".into(),
            seed: 0,
            guild_id: None,
            channel_id: None,
            message_id: None,
            created_at: 100,
            expires_at: 1000,
            status: ChallengeStatus::Open,
            match_id: None,
            seats,
            challenger: 0,
        }
    }

    #[test]
    fn challenge_text_names_who_is_still_awaited_and_until_when() {
        let text = challenge_text(&challenge(&[true, false]));
        assert!(
            text.starts_with("<@1> challenges <@2> to Chess. Options: fen=x."),
            "{text}"
        );
        assert!(
            text.ends_with("Waiting for <@2> to accept (until <t:1000:t>, <t:1000:R>)."),
            "{text}"
        );
        let text = challenge_text(&challenge(&[true, true, false]));
        assert!(text.contains("challenges <@2>, <@3>"), "{text}");
        assert!(text.contains("Waiting for <@3> to accept"), "{text}");
        assert!(!text.contains("Seats in order"), "the usual order: {text}");
        // A challenger sitting second is named first all the same, and the order is shown.
        let mut second = challenge(&[false, true]);
        second.challenger = 1;
        let text = challenge_text(&second);
        assert!(
            text.starts_with("<@2> challenges <@1> to Chess. Seats in order: <@1>, <@2>."),
            "{text}"
        );
        assert!(text.contains("Waiting for <@1> to accept"), "{text}");
    }

    #[test]
    fn a_bot_or_the_author_named_is_refused_whatever_seat_is_asked_later() {
        let user = |id: u64, name: &str, bot: bool| {
            let mut user = serenity::User::default();
            user.id = serenity::UserId::new(id);
            user.name = name.into();
            user.bot = bot;
            user
        };
        let alice = user(1, "alice", false);
        let other_bot = user(9, "otherbot", true);
        let bob = user(2, "bob", false);
        assert_eq!(
            challenge_problem(&[alice.clone(), other_bot]).as_deref(),
            Some("Bots cannot play; challenge people.")
        );
        assert_eq!(
            challenge_problem(&[alice.clone(), bob.clone(), alice.clone()]).as_deref(),
            Some("You cannot challenge yourself.")
        );
        assert_eq!(
            challenge_problem(&[alice, bob.clone(), bob]).as_deref(),
            Some("bob is named twice.")
        );
    }

    #[test]
    fn every_refusal_says_what_happened() {
        let cases = [
            (ChallengeError::NoSuchChallenge(1), "not known"),
            (ChallengeError::NotAddressed(1), "not addressed to you"),
            (ChallengeError::AlreadyAccepted(1), "already accepted"),
            (ChallengeError::Declined(1), "was declined"),
            (
                ChallengeError::Expired { id: 1, at: 1000 },
                "expired on <t:1000:f>. Start a new one with /play.",
            ),
            (
                ChallengeError::AlreadyStarted {
                    id: 1,
                    match_id: 4,
                    thread_id: Some("77".into()),
                },
                "already accepted: match #4 is on in <#77>.",
            ),
            (
                ChallengeError::AlreadyStarted {
                    id: 1,
                    match_id: 4,
                    thread_id: None,
                },
                "match #4 is starting",
            ),
        ];
        for (error, expected) in cases {
            let text = refusal(&error).unwrap();
            assert!(text.contains(expected), "{error:?}: {text}");
        }
        let storage = ChallengeError::Store(crate::store::StoreError::Duplicate("k".into()));
        assert_eq!(refusal(&storage), None, "a failure is not a refusal");
    }
}
