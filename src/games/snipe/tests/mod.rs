//! Snipe Chess tests: setup, moves and rotations (`rules`) and how games end (`endings`).
//! This file holds only the fixtures they share.

use super::*;
use crate::engine::testing;

mod endings;
mod rules;

pub(super) const OPEN: &str = "..........";

/// A forest from ten rows of spaces, rank 10 first, file a first (spaces and `|` are ignored):
/// `.` open, `T` tree, `R` rotate 90, `U` rotate 180, `F` flag, `S` feather. `pieces` lists
/// pieces as `Ka1 Pc3 ke10 pf9` (upper case White, lower case Black). The move phase, White to
/// move unless `turn` says otherwise.
pub(super) fn board(rows: [&str; 10], pieces: &str, options: SnipeOptions, turn: Color) -> Snipe {
    let auto = SnipeOptions {
        auto: true,
        ..options.clone()
    };
    let mut g = Snipe::new(&auto, 2, &mut GameRng::from_seed(1)).unwrap();
    g.options = options;
    let grid: Vec<Vec<Space>> = rows
        .iter()
        .rev()
        .map(|row| {
            row.chars()
                .filter(|c| !c.is_whitespace() && *c != '|')
                .map(|c| Space::from_letter(c).unwrap_or_else(|| panic!("space {c}")))
                .collect()
        })
        .collect();
    assert!(grid.iter().all(|r| r.len() == 10), "ten spaces a row");
    for at in CardAt::all() {
        let (x, y) = (at.corner().x as usize, at.corner().y as usize);
        let dealt = g.card_mut(at);
        dealt.spaces = [
            [grid[y + 1][x], grid[y + 1][x + 1]],
            [grid[y][x], grid[y][x + 1]],
        ];
        dealt.quarters = 0;
    }
    g.pieces.clear();
    for token in pieces.split_whitespace() {
        let letter = token.chars().next().unwrap();
        let color = if letter.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        let role = Role::from_letter(letter.to_ascii_uppercase()).unwrap();
        g.pieces.insert(sq(&token[1..]), Piece { color, role });
    }
    g.phase = Phase::Move;
    g.turn = turn;
    g.turns = 0;
    g.last = None;
    g.history = vec![g.position_key()];
    g
}

pub(super) fn feather() -> SnipeOptions {
    SnipeOptions {
        feather: true,
        ..SnipeOptions::default()
    }
}

pub(super) fn open_forest(pieces: &str) -> Snipe {
    board([OPEN; 10], pieces, SnipeOptions::default(), Color::White)
}

pub(super) fn piece_at(g: &Snipe, at: &str) -> Option<(Color, Role)> {
    g.pieces.get(&sq(at)).map(|p| (p.color, p.role))
}

pub(super) fn play(g: &mut Snipe, text: &str) -> Vec<String> {
    testing::play_text(g, seat_of(g.turn), text)
}

/// Why `text`, read as an action, is refused now (the state unchanged).
pub(super) fn refused(g: &Snipe, text: &str) -> String {
    let reason = testing::refusal(g, seat_of(g.turn), text);
    let understood = g
        .parse_action(seat_of(g.turn), text)
        .unwrap_err()
        .understood;
    assert!(understood, "{text} should be read, then refused: {reason}");
    reason
}

pub(super) fn sq(name: &str) -> Sq {
    let (sq, rest) = notation_square(name);
    assert!(rest.is_empty(), "{name}");
    sq
}

pub(super) fn texts(g: &Snipe) -> Vec<String> {
    testing::legal_texts(g, seat_of(g.turn))
}

pub(super) fn notation_square(name: &str) -> (Sq, &str) {
    let file = name.as_bytes()[0];
    let end = name[1..]
        .find(|c: char| !c.is_ascii_digit())
        .map_or(name.len(), |e| e + 1);
    let rank: i16 = name[1..end].parse().unwrap();
    (Sq::new(i16::from(file - b'a'), rank - 1), &name[end..])
}
