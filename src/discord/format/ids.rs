//! What a button or menu does, written into its custom id with the match and version it was
//! made for, and read back when it is pressed.

use crate::store::ChallengeId;

/// What a button does, written into its custom id with the match and version it was made for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ButtonAction {
    AcceptChallenge(ChallengeId),
    DeclineChallenge(ChallengeId),
    /// A challenge's button from before challenges were stored (`dm:challenge:…`): its id may
    /// name a newer challenge, so it is never looked up.
    OldChallenge,
    AcceptDraw {
        match_id: i64,
        version: u64,
    },
    DeclineDraw {
        match_id: i64,
        version: u64,
    },
    /// Play this action (a button offering one of a few choices).
    Act {
        match_id: i64,
        version: u64,
        text: String,
    },
    /// Play this action although it loses on the spot (the answer to a warning).
    Confirm {
        match_id: i64,
        version: u64,
        text: String,
    },
    /// Play the action picked in this menu (the choice comes with the interaction), or open the
    /// group picked.
    Choose {
        match_id: i64,
        version: u64,
    },
    /// Show the presser their own choices, privately.
    Mine {
        match_id: i64,
    },
    /// Claim the win over an opponent out of time (a match played with on_time=claim).
    ClaimWin {
        match_id: i64,
    },
    /// Wait for an opponent out of time instead of claiming the win now.
    WaitOnTime {
        match_id: i64,
    },
    /// Challenge the same players to the same game again, the seats turned round.
    Rematch {
        match_id: i64,
    },
}

impl ButtonAction {
    /// The match the button belongs to (none for a challenge, which has no match yet).
    pub fn match_id(&self) -> Option<i64> {
        match self {
            ButtonAction::AcceptChallenge(_)
            | ButtonAction::DeclineChallenge(_)
            | ButtonAction::OldChallenge => None,
            ButtonAction::AcceptDraw { match_id, .. }
            | ButtonAction::DeclineDraw { match_id, .. }
            | ButtonAction::Act { match_id, .. }
            | ButtonAction::Confirm { match_id, .. }
            | ButtonAction::Choose { match_id, .. }
            | ButtonAction::Mine { match_id }
            | ButtonAction::ClaimWin { match_id }
            | ButtonAction::WaitOnTime { match_id }
            | ButtonAction::Rematch { match_id } => Some(*match_id),
        }
    }

    pub fn custom_id(&self) -> String {
        match self {
            ButtonAction::AcceptChallenge(id) => format!("dm:chal:{id}:accept"),
            ButtonAction::DeclineChallenge(id) => format!("dm:chal:{id}:decline"),
            ButtonAction::OldChallenge => "dm:challenge:old".into(),
            ButtonAction::AcceptDraw { match_id, version } => {
                format!("dm:draw:{match_id}:{version}:accept")
            }
            ButtonAction::DeclineDraw { match_id, version } => {
                format!("dm:draw:{match_id}:{version}:decline")
            }
            ButtonAction::Act {
                match_id,
                version,
                text,
            } => format!("dm:act:{match_id}:{version}:{text}"),
            ButtonAction::Confirm {
                match_id,
                version,
                text,
            } => format!("dm:sure:{match_id}:{version}:{text}"),
            ButtonAction::Choose { match_id, version } => {
                format!("dm:choose:{match_id}:{version}")
            }
            ButtonAction::Mine { match_id } => format!("dm:mine:{match_id}"),
            ButtonAction::ClaimWin { match_id } => format!("dm:claim:{match_id}"),
            ButtonAction::WaitOnTime { match_id } => format!("dm:wait:{match_id}"),
            ButtonAction::Rematch { match_id } => format!("dm:again:{match_id}"),
        }
    }

    pub fn parse(custom_id: &str) -> Option<ButtonAction> {
        for (prefix, confirm) in [("dm:act:", false), ("dm:sure:", true)] {
            let Some(rest) = custom_id.strip_prefix(prefix) else {
                continue;
            };
            let mut parts = rest.splitn(3, ':');
            let match_id = parts.next()?.parse().ok()?;
            let version = parts.next()?.parse().ok()?;
            let text = parts.next().filter(|t| !t.is_empty())?.to_string();
            return Some(if confirm {
                ButtonAction::Confirm {
                    match_id,
                    version,
                    text,
                }
            } else {
                ButtonAction::Act {
                    match_id,
                    version,
                    text,
                }
            });
        }
        let parts: Vec<&str> = custom_id.split(':').collect();
        match parts.as_slice() {
            ["dm", "chal", id, "accept"] => Some(ButtonAction::AcceptChallenge(id.parse().ok()?)),
            ["dm", "chal", id, "decline"] => Some(ButtonAction::DeclineChallenge(id.parse().ok()?)),
            ["dm", "challenge", ..] => Some(ButtonAction::OldChallenge),
            ["dm", "mine", m] => Some(ButtonAction::Mine {
                match_id: m.parse().ok()?,
            }),
            ["dm", "claim", m] => Some(ButtonAction::ClaimWin {
                match_id: m.parse().ok()?,
            }),
            ["dm", "wait", m] => Some(ButtonAction::WaitOnTime {
                match_id: m.parse().ok()?,
            }),
            ["dm", "again", m] => Some(ButtonAction::Rematch {
                match_id: m.parse().ok()?,
            }),
            ["dm", "choose", m, v] => Some(ButtonAction::Choose {
                match_id: m.parse().ok()?,
                version: v.parse().ok()?,
            }),
            ["dm", "draw", m, v, answer] => {
                let (match_id, version) = (m.parse().ok()?, v.parse().ok()?);
                match *answer {
                    "accept" => Some(ButtonAction::AcceptDraw { match_id, version }),
                    "decline" => Some(ButtonAction::DeclineDraw { match_id, version }),
                    _ => None,
                }
            }
            _ => None,
        }
    }
}
