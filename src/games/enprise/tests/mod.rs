//! En Prise tests: the generic contract on random games, and the helpers the scenario files
//! share (a position drawn as rows of tokens, playing and refusing text).

use super::*;
use crate::engine::testing::{Config, check_game};

/// Another order of every card `seat` cannot see: a state `seat` must not tell apart.
fn reshuffle_hidden(game: &EnPrise, seat: Seat, rng: &mut GameRng) -> Option<EnPrise> {
    let mut other = game.clone();
    let mut changed = false;
    for owner in Seat::all(game.seats) {
        let hidden: Vec<usize> = (0..game.plans[owner.index()].len())
            .filter(|&i| !game.card_visible(owner, i, Viewer::Seat(seat)))
            .collect();
        let mut roles: Vec<Role> = hidden
            .iter()
            .map(|&i| game.plans[owner.index()][i].role)
            .collect();
        rng.shuffle(&mut roles);
        for (&i, role) in hidden.iter().zip(roles) {
            changed |= other.plans[owner.index()][i].role != role;
            other.plans[owner.index()][i].role = role;
        }
    }
    changed.then_some(other)
}

fn options(variant: Variant) -> EnPriseOptions {
    EnPriseOptions {
        variant,
        ..EnPriseOptions::default()
    }
}

fn run(options: EnPriseOptions, seats: usize, seeds: std::ops::Range<u64>) {
    let mut config = Config::new(options.clone(), seats, seeds.clone());
    config.actions_checked_per_state = 6;
    config.perturb_hidden = Some(reshuffle_hidden);
    let report = check_game(&config);
    assert_eq!(report.games, seeds.count());
    if options.variant != Variant::Open {
        assert!(report.leak_checks > 0, "{options:?}: no leak check ran");
    }
}

#[test]
fn random_games_keep_the_contract_for_every_seat_count() {
    for seats in 2..=4 {
        run(EnPriseOptions::default(), seats, 0..3);
    }
}

#[test]
fn random_games_keep_the_contract_in_every_variant() {
    for variant in [Variant::Blind, Variant::Memory, Variant::Casino] {
        for seats in 2..=4 {
            run(options(variant), seats, 10..12);
        }
    }
    let next_only = EnPriseOptions {
        variant: Variant::Blind,
        peek: Some(Peek::Next),
        ..EnPriseOptions::default()
    };
    run(next_only, 3, 20..22);
    for variant in [Variant::Open, Variant::Blind, Variant::Casino] {
        let alliance = EnPriseOptions {
            alliance: true,
            ..options(variant)
        };
        run(alliance, 4, 30..32);
    }
}

// ---- scenarios ------------------------------------------------------------------------------

fn roles(letters: &str) -> Vec<Card> {
    letters
        .chars()
        .map(|c| Card {
            role: Role::from_letter(c).unwrap(),
            shown: false,
        })
        .collect()
}

/// A game with `seats` players whose board is drawn in `rows` (top row first, the bottom-left
/// token at 0,0; tokens: `.` vacant square, `-` no square, `wK` `bQ` `rN` `uP`: a piece of
/// White, Black, Red or Blue). Plans are set to `plans` (letters, next card first); kings on
/// the board are out of hand.
fn position(seats: usize, opts: EnPriseOptions, rows: &[&str], plans: &[&str]) -> EnPrise {
    let mut g = EnPrise::new(&opts, seats, &mut GameRng::from_seed(7)).unwrap();
    g.phase = Phase::Turn;
    let height = rows.len() as i16;
    for (r, row) in rows.iter().enumerate() {
        for (x, token) in row.split_whitespace().enumerate() {
            let sq = Sq::new(x as i16, height - 1 - r as i16);
            match token {
                "-" => {}
                "." => g.board.set(sq, None),
                t => {
                    let mut ch = t.chars();
                    let owner = match ch.next().unwrap() {
                        'w' => Seat(0),
                        'b' => Seat(1),
                        'r' => Seat(2),
                        'u' => Seat(3),
                        c => panic!("bad owner {c}"),
                    };
                    let role = Role::from_letter(ch.next().unwrap()).unwrap();
                    g.board.set(sq, Some(Piece { owner, role }));
                    if role == Role::King {
                        g.king_in_hand[owner.index()] = false;
                        g.kings_summoned = true;
                    }
                }
            }
        }
    }
    for (i, plan) in plans.iter().take(seats).enumerate() {
        g.plans[i] = roles(plan);
    }
    g
}

fn open() -> EnPriseOptions {
    EnPriseOptions::default()
}

fn sq(x: i16, y: i16) -> Sq {
    Sq::new(x, y)
}

/// Plays `text` for `seat`, panicking with the reason if refused.
fn play(g: &mut EnPrise, seat: Seat, text: &str) -> Vec<String> {
    let action = g
        .parse_action(seat, text)
        .unwrap_or_else(|e| panic!("{text}: {e}"));
    g.apply(seat, &action, &mut GameRng::from_seed(1))
        .unwrap_or_else(|e| panic!("{text}: {e}"))
        .into_iter()
        .map(|e| e.text)
        .collect()
}

/// The reason `text` is refused for `seat`: text understood as an action that a rule forbids.
/// The state must be unchanged.
fn refused(g: &EnPrise, seat: Seat, text: &str) -> String {
    let before = serde_json::to_string(g).unwrap();
    let reason = match g.parse_action(seat, text) {
        Err(e) => {
            assert!(e.understood, "{text}: read as unreadable: {}", e.reason);
            e.reason
        }
        Ok(action) => {
            let mut copy = g.clone();
            match copy.apply(seat, &action, &mut GameRng::from_seed(1)) {
                Err(e) => e.to_string(),
                Ok(_) => panic!("{text} was allowed"),
            }
        }
    };
    assert_eq!(before, serde_json::to_string(g).unwrap());
    reason
}

/// The reason `text` cannot be read at all.
fn unreadable(g: &EnPrise, seat: Seat, text: &str) -> String {
    let e = g.parse_action(seat, text).unwrap_err();
    assert!(!e.understood, "{text}: understood: {}", e.reason);
    e.reason
}

fn texts(g: &EnPrise, seat: Seat) -> Vec<String> {
    g.legal_actions(seat)
        .iter()
        .map(|a| g.format_action(a))
        .collect()
}

/// Rows of kings for the seats beyond the first two, far from the action.
fn with_kings(mut g: EnPrise, seats: usize) -> EnPrise {
    for s in 2..seats {
        let at = sq(10 + 2 * s as i16, 0);
        g.board.set(
            at,
            Some(Piece {
                owner: Seat(s as u8),
                role: Role::King,
            }),
        );
        g.king_in_hand[s] = false;
        g.plans[s] = roles("PPPPPPPP");
    }
    g
}

/// White's king boxed in the corner by its own pawns; Black's knight mates from 1,2.
fn mate_in_one(seats: usize) -> EnPrise {
    let g = position(
        seats,
        open(),
        &[". . . bN", ". . . .", "wP wP . .", "wK wP . bK"],
        &["P", "P"],
    );
    with_kings(g, seats)
}

/// Three seats, Red's rook checking Black's king, and White's knight on 3,2 one new square
/// (4,2) short of reaching Black's king; White holds a knight to place.
fn knight_waiting_for_a_square() -> EnPrise {
    let mut g = position(
        3,
        open(),
        &[
            "- - - - - - -",
            ". . . . - . rK",
            "wK . . . . . .",
            "- - - - bK . rR",
        ],
        &["N", "P", "P"],
    );
    g.board.set(
        sq(3, 2),
        Some(Piece {
            owner: Seat(0),
            role: Role::Knight,
        }),
    );
    g
}

fn seat_view(g: &EnPrise, seat: u8) -> EnPriseView {
    g.view(Viewer::Seat(Seat(seat)))
}

fn visible_cards(view: &EnPriseView, owner: usize) -> usize {
    view.players[owner].plan.cards.iter().flatten().count()
}

mod eval;
mod fairness;
mod messages;
mod rules;
mod variants;

/// White's king on 0,0 in check from Black's rook on 2,0 over the vacant 1,0. A pawn may block
/// there; a knight may not, as it would check Black's king on 3,1 over 1,1 and 2,1.
fn checked_by_a_rook() -> [&'static str; 2] {
    [". . . bK", "wK . bR"]
}
