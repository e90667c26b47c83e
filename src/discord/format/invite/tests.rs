use super::*;

#[test]
fn the_invite_integer_grants_exactly_the_permissions_the_bot_uses() {
    assert_eq!(invite_permissions().bits(), INVITE_PERMISSIONS);
    // Decoded by Discord's documented bit values (serenity's names for them).
    let granted = serenity::Permissions::from_bits(INVITE_PERMISSIONS).expect("known bits only");
    let mut names: Vec<&str> = granted.iter_names().map(|(name, _)| name).collect();
    names.sort();
    assert_eq!(
        names,
        [
            "ADD_REACTIONS",
            "ATTACH_FILES",
            "CREATE_PUBLIC_THREADS",
            "EMBED_LINKS",
            "MANAGE_THREADS",
            "READ_MESSAGE_HISTORY",
            "SEND_MESSAGES",
            "SEND_MESSAGES_IN_THREADS",
            "VIEW_CHANNEL",
        ]
    );
    // Bit by bit, as Discord documents them.
    let bits = [6, 10, 11, 14, 15, 16, 34, 35, 38];
    assert_eq!(
        bits.iter().map(|b| 1u64 << b).sum::<u64>(),
        INVITE_PERMISSIONS
    );
}

#[test]
fn readme_and_the_admin_page_give_the_same_link_and_say_what_each_permission_is_for() {
    let readme = include_str!("../../../../README.md");
    let admin = include_str!("../../../../docs/admin.md");
    let link = format!("permissions={INVITE_PERMISSIONS}");
    assert!(readme.contains(&link), "README's invite link");
    assert!(admin.contains(&INVITE_PERMISSIONS.to_string()));
    assert!(readme.contains("docs/admin.md"));
    for (permission, _) in PERMISSIONS {
        for name in permission.get_permission_names() {
            assert!(readme.contains(name), "README names {name}");
            assert!(admin.contains(name), "docs/admin.md names {name}");
        }
    }
}
