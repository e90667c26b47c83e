//! Chess-à-Tête tests: the generic contract on random games, and the helpers the scenario
//! files share (a position from hands, boards and decks; playing and refusing text).

use super::*;
use crate::engine::testing::{self, Config, check_game};

pub(super) fn id(name: &str) -> CardId {
    catalogue().find(name).unwrap_or_else(|| panic!("{name}")) as CardId
}

pub(super) fn ids(names: &[&str]) -> Vec<CardId> {
    names.iter().map(|n| id(n)).collect()
}

pub(super) fn new_game() -> ChessATete {
    ChessATete::new(&ChessATeteOptions::default(), 2, &mut GameRng::from_seed(1)).unwrap()
}

/// White to play with this hand, board (besides the King) and deck (top last).
pub(super) fn white(hand: &[&str], board: &[&str], deck: &[&str]) -> ChessATete {
    let mut g = new_game();
    let side = &mut g.sides[0];
    side.hand = ids(hand);
    side.board = ids(&["King"]);
    side.board.extend(ids(board));
    side.deck = ids(deck);
    g
}

pub(super) fn play(g: &mut ChessATete, text: &str) -> Vec<String> {
    testing::play_text(g, seat_of(g.actor()), text)
}

pub(super) fn refused(g: &ChessATete, text: &str) -> String {
    testing::refusal(g, seat_of(g.actor()), text)
}

pub(super) fn texts(g: &ChessATete) -> Vec<String> {
    testing::legal_texts(g, seat_of(g.actor()))
}

/// Another state `seat` cannot tell apart, with all it has learnt: the part of its own deck
/// it has not looked at in another order, and the opponent's hand and deck dealt again from
/// the same cards, keeping in that hand the cards the seat knows are there and as many power
/// pieces as it knows of besides (all of them when the deck is known to hold none). Unlike the game's own deal, nothing is sorted first, so a
/// search that used the cards' order would show.
pub(super) fn reshuffle_hidden(
    g: &ChessATete,
    seat: Seat,
    rng: &mut GameRng,
) -> Option<ChessATete> {
    let mut other = g.clone();
    let me = usize::from(seat.0);
    let seen = &g.seen[me];
    let deck = &mut other.sides[me].deck;
    let unseen = deck.len() - seen.deck_top.len();
    rng.shuffle(&mut deck[..unseen]);
    let them = &mut other.sides[1 - me];
    let mut pool: Vec<CardId> = them.hand.iter().chain(&them.deck).copied().collect();
    rng.shuffle(&mut pool);
    let mut hand = Vec::new();
    for known in &seen.their_hand {
        let at = pool
            .iter()
            .position(|c| c == known)
            .expect("a known card is there");
        hand.push(pool.swap_remove(at));
    }
    for _ in 0..seen.their_power {
        let at = pool
            .iter()
            .position(|&c| super::knowledge::is_power(c))
            .expect("a known power piece is there");
        hand.push(pool.swap_remove(at));
    }
    if seen.their_deck_unpowered {
        let (power, rest): (Vec<CardId>, Vec<CardId>) = pool
            .into_iter()
            .partition(|&c| super::knowledge::is_power(c));
        hand.extend(power);
        pool = rest;
    }
    let size = them.hand.len();
    them.deck = pool.split_off(size - hand.len());
    hand.extend(pool);
    rng.shuffle(&mut hand);
    them.hand = hand;
    Some(other)
}

#[test]
fn random_games_keep_the_contract_and_never_show_a_hand_to_the_other_seat() {
    let mut config = Config::<ChessATete>::new(ChessATeteOptions::default(), 2, 0..10);
    config.actions_checked_per_state = 6;
    config.perturb_hidden = Some(reshuffle_hidden);
    let report = check_game(&config);
    assert_eq!(report.games, 10);
    assert!(report.leak_checks > 100, "{report:?}");
}

/// What happens next must not depend on what the acting seat cannot see: after the same action
/// in two states it cannot tell apart, the same seat is asked to act (an attack against a hand
/// with no answer once went through at once, telling the attacker so).
#[test]
fn who_acts_next_never_depends_on_cards_the_actor_cannot_see() {
    let mut compared = 0;
    for seed in 0..40 {
        let mut rng = GameRng::from_seed(seed);
        let mut g = ChessATete::new(&ChessATeteOptions::default(), 2, &mut rng).unwrap();
        while g.to_act().outcome().is_none() {
            let seat = seat_of(g.actor());
            let legal = g.legal_actions(seat);
            let other = reshuffle_hidden(&g, seat, &mut rng).unwrap();
            assert_eq!(
                legal,
                other.legal_actions(seat),
                "seed {seed}: same choices"
            );
            for action in &legal {
                let (mut a, mut b) = (g.clone(), other.clone());
                a.apply(seat, action, &mut GameRng::from_seed(seed))
                    .unwrap();
                b.apply(seat, action, &mut GameRng::from_seed(seed))
                    .unwrap();
                assert_eq!(
                    a.to_act(),
                    b.to_act(),
                    "seed {seed}: after {}",
                    g.format_action(action)
                );
                compared += 1;
            }
            let pick = legal[rng.below(legal.len())].clone();
            g.apply(seat, &pick, &mut rng).unwrap();
        }
    }
    assert!(compared > 1000, "{compared}");
}

/// White to play; each side's hand and board (besides the King); decks of Sentinels.
pub(super) fn battle(
    w_hand: &[&str],
    w_board: &[&str],
    b_hand: &[&str],
    b_board: &[&str],
) -> ChessATete {
    let mut g = white(w_hand, w_board, &["Sentinel"; 10]);
    let side = &mut g.sides[1];
    side.hand = ids(b_hand);
    side.board = ids(&["King"]);
    side.board.extend(ids(b_board));
    side.deck = ids(&["Sentinel"; 10]);
    g
}

/// Applies `text` for whoever acts and returns all events, private ones included.
pub(super) fn play_events(g: &mut ChessATete, text: &str) -> Vec<Event> {
    testing::play_seeded(g, seat_of(g.actor()), text, 5)
}

mod combat;
mod counts;
mod effects;
mod endings;
mod fairness;
mod knowledge;
mod turns;
