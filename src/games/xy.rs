//! Reading actions written with `x,y` squares, shared by the games whose board has no fixed
//! edges (En Prise, Echek n°1): normalising player text, whole squares, piece letters, and the
//! move form `[letter] x,y to x,y`.

use crate::board::Sq;
use crate::games::chess::Role;

/// Lower-cases, drops brackets and marks, removes the spaces around commas, and squeezes
/// whitespace.
pub fn normalise(text: &str) -> String {
    let mut s: String = text
        .trim()
        .to_ascii_lowercase()
        .chars()
        .filter(|c| !matches!(c, '(' | ')' | '[' | ']' | '+' | '#' | '!' | '?'))
        .collect();
    while s.contains(" ,") || s.contains(", ") {
        s = s.replace(" ,", ",").replace(", ", ",");
    }
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Reads a whole text as one square.
pub fn only_square(s: &str) -> Option<Sq> {
    Sq::parse_xy(s.trim()).and_then(|(sq, rest)| rest.trim().is_empty().then_some(sq))
}

/// A piece letter (K Q R B N P, any case), or a message saying it is not one.
pub fn role_letter(c: char) -> Result<Role, String> {
    Role::from_letter(c.to_ascii_uppercase()).ok_or_else(|| {
        format!(
            "\"{}\" is not a piece letter (K Q R B N P)",
            c.escape_debug()
        )
    })
}

/// What went wrong reading a move.
#[derive(Debug, PartialEq, Eq)]
pub enum MoveText {
    /// Not a move at all.
    NotAMove,
    /// A move with a bad piece letter.
    BadLetter(String),
}

/// Reads `[letter] x,y (to|x|-|>|->|takes| ) x,y` from normalised text. A `-` right after the
/// first square is the separator; after a space it is a minus sign (`0,0 -2,2` goes to -2,2).
pub fn read_move(s: &str) -> Result<(Option<Role>, Sq, Sq), MoveText> {
    let mut rest = s;
    let mut letter = None;
    if let Some(c) = rest.chars().next()
        && c.is_ascii_alphabetic()
    {
        if rest[1..].starts_with(|n: char| n.is_ascii_alphabetic()) {
            return Err(MoveText::NotAMove);
        }
        letter = Some(role_letter(c).map_err(MoveText::BadLetter)?);
        rest = rest[1..].trim_start();
    }
    let (from, after) = Sq::parse_xy(rest).ok_or(MoveText::NotAMove)?;
    let spaced = after.starts_with(' ');
    let after = after.trim_start();
    let to_text = if let Some(r) = ["takes ", "to ", "->", "x", ">"]
        .iter()
        .find_map(|sep| after.strip_prefix(sep))
    {
        r
    } else if let Some(r) = after.strip_prefix('-') {
        if spaced && only_square(after).is_some() {
            after
        } else {
            r
        }
    } else {
        after
    };
    let to = only_square(to_text).ok_or(MoveText::NotAMove)?;
    Ok((letter, from, to))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_read_with_any_separator_and_negative_squares() {
        let sq = Sq::new;
        for text in [
            "Q 2,2 to 1,1",
            "q 2,2-1,1",
            "2,2 1,1",
            "Q(2,2)->(1,1)",
            "Q 2, 2 to 1 ,1",
        ] {
            let (_, from, to) = read_move(&normalise(text)).unwrap();
            assert_eq!((from, to), (sq(2, 2), sq(1, 1)), "{text}");
        }
        assert_eq!(read_move("0,0 -2,2").unwrap().2, sq(-2, 2));
        assert_eq!(read_move("0,0-2,2").unwrap().2, sq(2, 2));
        assert_eq!(read_move("0,0--2,2").unwrap().2, sq(-2, 2));
        assert_eq!(read_move("hello"), Err(MoveText::NotAMove));
        assert!(matches!(
            read_move("z 0,0 to 1,1"),
            Err(MoveText::BadLetter(_))
        ));
    }
}
