//! The computer in console seats: `cpu` and `cpu:LEVEL` in `--players` become seats it plays,
//! its moves are printed like a player's and stored like one, and a table of computers plays
//! itself to the end.

use super::*;

fn with_players(db: &Path, game: &str, players: &[&str]) -> ConsoleConfig {
    ConsoleConfig {
        game: game.parse().unwrap(),
        players: players.iter().map(|p| p.to_string()).collect(),
        ..config(db, "none", None)
    }
}

#[test]
fn the_computer_answers_each_move_in_its_seat() {
    let db = temp_db("computer-answers");
    let (mut console, opening) =
        Console::start(&with_players(&db, "chess", &["ann", "cpu:easy"])).unwrap();
    assert!(
        opening[0].contains("ann (White) vs cpu-easy (Black)"),
        "{opening:?}"
    );
    let lines = run_lines(&mut console, "e4");
    assert!(
        lines.iter().any(|l| l.starts_with("cpu-easy: ")),
        "{lines:?}"
    );
    assert!(
        lines.iter().any(|l| l.starts_with("Black plays")),
        "{lines:?}"
    );
    assert_eq!(lines.last().unwrap(), "to move: ann", "{lines:?}");
    // Nobody speaks for the computer: not to resign, not to move.
    for line in ["cpu-easy: resign", "CPU-EASY: draw"] {
        let refused = run_lines(&mut console, line);
        assert!(
            refused
                .iter()
                .any(|l| l.contains("cpu-easy is the computer")),
            "{line}: {refused:?}"
        );
    }
    drop(console);
    let store = Store::open(&db).unwrap();
    assert_eq!(
        store.load(1).unwrap().actions.len(),
        2,
        "both moves are stored"
    );
}

#[test]
fn computers_alone_play_to_the_end_and_names_say_their_level() {
    let db = temp_db("computer-alone");
    let (_, opening) =
        Console::start(&with_players(&db, "tictactoe", &["cpu:hard", "CPU:hard"])).unwrap();
    assert!(
        opening[0].contains("cpu-hard (White) vs cpu-hard-2 (Black)"),
        "{opening:?}"
    );
    assert!(
        opening.iter().any(|l| l == "result: Draw by a full board"),
        "two perfect players draw: {opening:?}"
    );
    let refused = Console::start(&with_players(&db, "chess", &["ann", "cpu:wizard"]));
    assert!(
        matches!(refused, Err(ConsoleError::Usage(why)) if why.contains("easy, medium or hard"))
    );
    for name in ["cpu-hard", "CPU-Hard"] {
        let impostor = Console::start(&with_players(&db, "chess", &[name, "ann"]));
        assert!(
            matches!(impostor, Err(ConsoleError::Usage(why)) if why.contains("write cpu:hard")),
            "a person cannot take the computer's name: {name}"
        );
    }
    assert_eq!(computer_level("cpu-easy-2"), Some(Level::Easy));
    assert_eq!(computer_level("cpu-hardly"), None);
    assert_eq!(computer_level("cpu-hard-1"), None);
}

/// Should the computer stop on its turn (an error, or a long match of computers), a command
/// without a name is the one person's at the table, never the computer's; with more people
/// than one, or none, it must name who speaks.
#[test]
fn a_command_without_a_name_is_never_the_computers() {
    let db = temp_db("computer-unnamed");
    let (mut console, _) =
        Console::start(&with_players(&db, "chess", &["ann", "cpu:easy"])).unwrap();
    // Ann moves behind the console's back, so the computer has not answered yet.
    let ann = console.players[0].id;
    console.table.act(console.id, ann, None, "e4").unwrap();
    let lines = run_lines(&mut console, "resign");
    assert!(
        lines.iter().any(|l| l.contains("Black won")),
        "ann resigned, not the computer: {lines:?}"
    );
    let (mut console, _) =
        Console::start(&with_players(&db, "enprise", &["ann", "bob", "cpu:easy"])).unwrap();
    let cpu_to_act = |c: &Console| {
        c.table
            .waiting_for(c.id)
            .unwrap()
            .contains(&c.players[2].name)
    };
    let people_act_until_the_computer_must = |console: &mut Console| {
        while !cpu_to_act(console) {
            let waiting = console.table.waiting_for(console.id).unwrap();
            let person = (console.players.iter())
                .find(|p| waiting.contains(&p.name))
                .unwrap()
                .id;
            let text = (console.table)
                .computer_action(console.id, person, Level::Easy, &|| true)
                .unwrap()
                .unwrap();
            console.table.act(console.id, person, None, &text).unwrap();
        }
    };
    people_act_until_the_computer_must(&mut console);
    let lines = run_lines(&mut console, "resign");
    assert!(
        lines
            .iter()
            .any(|l| l.contains("cpu-easy is the computer, and it is its turn")),
        "{lines:?}"
    );
    // Nobody resigned; the computer then took its turn itself.
    let log = console.table.history(console.id).unwrap();
    assert!(log.iter().all(|(_, _, text)| text != "resign"), "{log:?}");
    assert_eq!(log.last().unwrap().1, "cpu-easy");
    // A reading command needs no name.
    people_act_until_the_computer_must(&mut console);
    let lines = run_lines(&mut console, "board");
    assert!(lines.iter().all(|l| !l.starts_with("error")), "{lines:?}");
}
