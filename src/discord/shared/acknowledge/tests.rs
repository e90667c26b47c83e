use super::*;

/// Every command a user can run (the leaves: a command with subcommands is never run itself),
/// by its qualified name ("league close", as the framework names it).
fn leaves(
    commands: &[poise::Command<crate::discord::Data, crate::discord::Error>],
    parent: &str,
    into: &mut Vec<String>,
) {
    for c in commands {
        let name = format!("{parent}{}", c.name);
        if c.subcommands.is_empty() {
            into.push(name);
        } else {
            leaves(&c.subcommands, &format!("{name} "), into);
        }
    }
}

#[test]
fn every_command_is_acknowledged_one_way_or_the_other() {
    let mut names = Vec::new();
    leaves(&crate::discord::commands(), "", &mut names);
    assert!(names.len() > 30, "{names:?}");
    let missing: Vec<&String> = names.iter().filter(|n| ack_of(n, &[]).is_none()).collect();
    assert!(
        missing.is_empty(),
        "no acknowledgement chosen for {missing:?}"
    );
}

#[test]
fn private_answers_are_deferred_privately() {
    for name in [
        "view",
        "games",
        "settings me",
        "admin log",
        "rating",
        "league pairings",
        "nudge",
    ] {
        assert_eq!(ack_of(name, &[]), Some(Ack::Private), "{name}");
    }
    for name in ["play", "move", "board", "league close"] {
        assert_eq!(ack_of(name, &[]), Some(Ack::Public), "{name}");
    }
    // Showing a league's settings is private; changing them is announced.
    assert_eq!(ack_of("league settings", &["name"]), Some(Ack::Private));
    assert_eq!(
        ack_of("league settings", &["name", "rated"]),
        Some(Ack::Public)
    );
    assert_eq!(ack_of("no such command", &[]), None);
}
