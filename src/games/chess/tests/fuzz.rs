//! Property tests of the text a user or a script hands the chess code: FEN (the `fen` option)
//! and PGN (imported games). Random and damaged input is accepted or refused with a message,
//! never a panic or a hang; an accepted FEN round-trips through the FEN writer and its moves
//! can be generated; a PGN game that replays writes and reads back to the same position.

use super::*;
use crate::games::chess::pgn::{read_all, replay};
use proptest::prelude::*;

fn fixture(name: &str) -> String {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name);
    std::fs::read_to_string(path).unwrap()
}

/// Valid positions to damage: the usual start, the perft test positions and the fixture's.
fn valid_fens() -> Vec<String> {
    let mut fens: Vec<String> = [
        START_FEN,
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    fens.extend(fixture("python-chess.fen").lines().map(str::to_string));
    fens
}

/// Characters that FEN and PGN are made of, and a few that they are not.
fn notation_char() -> impl Strategy<Value = char> {
    prop::sample::select(
        "rnbqkpRNBQKP12345678/ wb-KQkqaeh09xO+#=.{}()[]\";$%*\n\té\u{0}"
            .chars()
            .collect::<Vec<char>>(),
    )
}

/// One edit of a text: replace, insert or delete the character at a place.
#[derive(Clone, Debug)]
enum Edit {
    Replace(usize, char),
    Insert(usize, char),
    Delete(usize),
    Number(usize, u64),
}

fn edit() -> impl Strategy<Value = Edit> {
    prop_oneof![
        (any::<usize>(), notation_char()).prop_map(|(at, c)| Edit::Replace(at, c)),
        (any::<usize>(), notation_char()).prop_map(|(at, c)| Edit::Insert(at, c)),
        any::<usize>().prop_map(Edit::Delete),
        (any::<usize>(), any::<u64>()).prop_map(|(at, n)| Edit::Number(at, n)),
    ]
}

fn apply(text: &str, edits: &[Edit]) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    for edit in edits {
        let n = chars.len().max(1);
        match edit {
            Edit::Replace(at, c) => {
                if let Some(slot) = chars.get_mut(at % n) {
                    *slot = *c;
                }
            }
            Edit::Insert(at, c) => chars.insert((at % n).min(chars.len()), *c),
            Edit::Delete(at) => {
                if at % n < chars.len() {
                    chars.remove(at % n);
                }
            }
            Edit::Number(at, number) => {
                let at = (at % n).min(chars.len());
                chars.splice(at..at, number.to_string().chars());
            }
        }
    }
    chars.into_iter().collect()
}

/// What must hold of any text offered as a FEN.
fn check_fen(text: &str) -> Result<(), TestCaseError> {
    match Position::from_fen(text) {
        Err(e) => prop_assert!(!e.to_string().is_empty()),
        Ok(pos) => {
            let written = pos.fen();
            let again = Position::from_fen(&written);
            prop_assert_eq!(again.as_ref(), Ok(&pos), "{} wrote {}", text, written);
            prop_assert_eq!(again.map(|p| p.fen()), Ok(written.clone()));
            let moves = pos.legal_moves();
            prop_assert_eq!(perft(&pos, 1), moves.len() as u64);
            perft(&pos, 2);
            for mv in moves {
                prop_assert!(pos.is_legal(mv), "{} in {}", mv, written);
                let next = pos.play_unchecked(mv);
                prop_assert_eq!(
                    Position::from_fen(&next.fen()).map(|p| p.fen()),
                    Ok(next.fen())
                );
            }
            let options = ChessOptions {
                fen: Some(text.to_string()),
            };
            let _ = Chess::new(&options, 2, &mut GameRng::from_seed(0));
        }
    }
    Ok(())
}

/// What must hold of any text offered as PGN: read or refused with a message; each game read
/// replays or is refused; one that replays is written and read back to the same position.
fn check_pgn(text: &str) -> Result<(), TestCaseError> {
    match read_all(text) {
        Err(e) => prop_assert!(!e.to_string().is_empty()),
        Ok(games) => {
            for game in games {
                let _ = game.turns(&["enthrall", "liberate"]);
                let written = game.write();
                match replay(&game) {
                    Err(e) => prop_assert!(!e.to_string().is_empty()),
                    Ok(end) => {
                        let back = read_all(&written);
                        prop_assert!(back.is_ok(), "{:?} from {}", back, written);
                        let back = back.unwrap_or_default();
                        prop_assert_eq!(back.len(), 1, "{}", written);
                        let again = back.first().map(replay);
                        prop_assert_eq!(again, Some(Ok(end)), "{}", written);
                    }
                }
            }
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(crate::fuzzing::config(64))]

    #[test]
    fn fuzz_fen_random_text_is_refused_or_round_trips(text in "\\PC{0,100}") {
        check_fen(&text)?;
    }

    #[test]
    fn fuzz_fen_from_fen_characters_is_refused_or_round_trips(
        chars in prop::collection::vec(notation_char(), 0..90),
    ) {
        check_fen(&chars.into_iter().collect::<String>())?;
    }

    #[test]
    fn fuzz_fen_damaged_positions_are_refused_or_round_trip(
        which in any::<usize>(),
        edits in prop::collection::vec(edit(), 1..4),
    ) {
        let fens = valid_fens();
        let fen = &fens[which % fens.len()];
        check_fen(&apply(fen, &edits))?;
    }

    #[test]
    fn fuzz_pgn_random_text_is_refused_or_read(text in "\\PC{0,300}") {
        check_pgn(&text)?;
    }

    #[test]
    fn fuzz_pgn_damaged_games_are_refused_or_replay_the_same(
        edits in prop::collection::vec(edit(), 1..6),
    ) {
        check_pgn(&apply(&fixture("python-chess.pgn"), &edits))?;
    }
}
