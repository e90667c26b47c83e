use super::*;

#[test]
fn a_reader_sees_what_the_store_commits_and_cannot_write() {
    let path = std::env::temp_dir().join(format!(
        "deckmate-reader-{}-{:?}.db",
        std::process::id(),
        std::thread::current().id()
    ));
    let _ = std::fs::remove_file(&path);
    let mut store = Store::open(&path).unwrap();
    let mut reader = store.reader().unwrap().expect("a file has a reader");
    assert_eq!(reader.discord_player_id("42").unwrap(), None);
    let player = store.discord_player("42", "ann").unwrap();
    assert_eq!(reader.discord_player_id("42").unwrap(), Some(player.id));
    assert_eq!(
        reader.known_discord_player("42").unwrap(),
        Some(player.clone())
    );
    // A new name is seen once the store records it.
    store.discord_player("42", "ann b").unwrap();
    let renamed = reader.known_discord_player("42").unwrap().unwrap();
    assert_eq!((renamed.id, renamed.name.as_str()), (player.id, "ann b"));
    // Any write through the reader is refused by SQLite.
    assert!(reader.discord_player("43", "bob").is_err());
    assert_eq!(store.discord_player_id("43").unwrap(), None);
    assert!(Store::open_in_memory().unwrap().reader().unwrap().is_none());
    drop((store, reader));
    for suffix in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{suffix}", path.display()));
    }
}
