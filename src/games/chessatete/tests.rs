//! Scenario tests of Chess-à-Tête: turns, every card, combat; and the random-game checks.

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

/// Another state `seat` cannot tell apart: its own deck in another order, and the opponent's
/// hand and deck dealt again from the same cards.
pub(super) fn reshuffle_hidden(
    g: &ChessATete,
    seat: Seat,
    rng: &mut GameRng,
) -> Option<ChessATete> {
    let mut other = g.clone();
    let me = usize::from(seat.0);
    rng.shuffle(&mut other.sides[me].deck);
    let them = &mut other.sides[1 - me];
    let mut pool: Vec<CardId> = them.hand.iter().chain(&them.deck).copied().collect();
    rng.shuffle(&mut pool);
    them.deck = pool.split_off(them.hand.len());
    them.hand = pool;
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

#[test]
fn each_player_starts_with_the_king_on_the_board_and_seven_cards() {
    let g = new_game();
    for side in &g.sides {
        assert_eq!(side.board, ids(&["King"]));
        assert_eq!(side.hand.len(), HAND);
        assert_eq!(side.deck.len(), deck::DECK_SIZE - 1 - HAND);
        assert!(!side.hand.contains(&id("King")) && !side.deck.contains(&id("King")));
    }
    assert_eq!(g.to_act(), ToAct::one(Seat(0)), "White plays first");
    assert_ne!(
        g.sides[0].hand, g.sides[1].hand,
        "each deck is shuffled on its own"
    );
    let view = g.view(Viewer::Spectator);
    assert_eq!(view.sides[0].board_hp, 7, "the King's hit points count");
}

#[test]
fn a_turn_is_up_to_three_actions_within_the_board_limits() {
    let mut g = white(
        &[
            "Knight",
            "Knight",
            "Pawn Storm",
            "Peasant",
            "Rook",
            "Queen",
            "Block",
        ],
        &["Knight"],
        &["Sentinel", "Sentinel", "Sentinel", "Sentinel"],
    );
    assert_eq!(
        refused(&g, "end"),
        "play at least one card before ending the turn"
    );
    assert_eq!(
        refused(&g, "burn Block"),
        "play at least one card before burning"
    );
    assert_eq!(
        refused(&g, "play Pawn Storm"),
        "Pawn Storm is a combat card, played to attack, and it needs two pawns on your board"
    );
    assert_eq!(
        refused(&g, "play Bishop"),
        "there is no Bishop in your hand"
    );
    play(&mut g, "play Knight");
    assert_eq!(
        refused(&g, "play Knight"),
        "your board already holds 2 knights (the limit)"
    );
    play(&mut g, "Queen");
    play(&mut g, "play rook");
    assert_eq!(
        refused(&g, "play Peasant"),
        "you have used your three actions this turn: end the turn"
    );
    assert_eq!(texts(&g), ["end"], "three actions used");
    let events = play(&mut g, "end");
    assert_eq!(events, ["White draws 3 cards and ends the turn"]);
    assert_eq!(g.sides[0].hand.len(), HAND);
    assert_eq!(g.sides[0].board.len(), 5);
    assert_eq!(g.to_act(), ToAct::one(Seat(1)));
    assert_eq!(
        g.view(Viewer::Spectator).sides[0].board_hp,
        7 + 2 + 2 + 4 + 2
    );
}

#[test]
fn burning_ends_the_playing_and_draws_a_card_each() {
    let mut g = white(
        &[
            "Peasant", "Block", "Skirmish", "Spy", "Fork", "Siege", "Flank",
        ],
        &[],
        &["Knight", "Rook", "Bishop", "Queen"],
    );
    play(&mut g, "play Peasant");
    let events = play(&mut g, "burn block");
    assert_eq!(events, ["White burns Block and draws a card"]);
    assert_eq!(g.sides[0].graveyard, ids(&["Block"]));
    assert!(g.sides[0].hand.contains(&id("Queen")), "the top card");
    assert_eq!(
        refused(&g, "play Queen"),
        "after burning you may only burn more cards or end the turn"
    );
    play(&mut g, "burn Skirmish");
    assert_eq!(texts(&g), ["end"]);
    play(&mut g, "end");
    assert_eq!(g.sides[0].deck, ids(&["Knight"]), "drew back to seven");
}

#[test]
fn a_hand_with_nothing_to_play_may_burn_or_end_at_once() {
    let mut g = white(
        &[
            "Block", "Skirmish", "Block", "Fork", "Siege", "Flank", "Ambush",
        ],
        &[],
        &["Knight", "Rook"],
    );
    let legal = texts(&g);
    assert!(legal.contains(&"end".into()) && legal.contains(&"burn Ambush".into()));
    assert_eq!(
        refused(&g, "play Block"),
        "Block is played when your opponent attacks you"
    );
    play(&mut g, "burn Ambush");
    play(&mut g, "end");
    assert_eq!(g.to_act(), ToAct::one(Seat(1)));
}

#[test]
fn a_player_who_cannot_draw_back_to_seven_loses() {
    let mut g = white(
        &["Knight", "Rook", "Block", "Spy", "Fork", "Siege", "Flank"],
        &[],
        &["Bishop"],
    );
    play(&mut g, "Knight");
    play(&mut g, "Rook");
    let events = play(&mut g, "end");
    assert_eq!(events[0], "White cannot draw back to seven cards");
    let outcome = g.to_act().outcome().cloned().unwrap();
    assert_eq!(outcome.winners(), [Seat(1)]);
    assert_eq!(outcome.reason, "exhausting the opponent's deck");
}

#[test]
fn a_hand_is_seen_by_its_owner_only() {
    let g = new_game();
    let mine = g.view(Viewer::Seat(Seat(0)));
    assert_eq!(mine.sides[0].hand.as_ref().unwrap().len(), HAND);
    assert_eq!(mine.sides[1].hand, None);
    assert_eq!(mine.sides[1].hand_size, HAND);
    assert_eq!(mine.sides[1].deck_size, 47);
    let spectator = g.view(Viewer::Spectator);
    assert!(spectator.sides.iter().all(|s| s.hand.is_none()));
}

#[test]
fn a_custom_deck_is_used_and_a_bad_one_refused_with_each_breach() {
    let classic: Vec<String> = catalogue()
        .classic
        .iter()
        .map(|(i, n)| format!("{n} {}", catalogue().cards[*i].name))
        .collect();
    let custom = classic
        .join(", ")
        .replace("4 Knight", "6 Knight")
        .replace("4 Bishop", "2 Bishop");
    let options = ChessATeteOptions {
        white_deck: Some(custom),
        black_deck: None,
    };
    let g = ChessATete::new(&options, 2, &mut GameRng::from_seed(1)).unwrap();
    let all = |side: &Side| {
        side.hand
            .iter()
            .chain(&side.deck)
            .filter(|&&c| c == id("Knight"))
            .count()
    };
    assert_eq!(all(&g.sides[0]), 6);
    assert_eq!(all(&g.sides[1]), 4);
    let options = ChessATeteOptions {
        white_deck: None,
        black_deck: Some("King, 2 Queen, 40 Peasant".into()),
    };
    let err = ChessATete::new(&options, 2, &mut GameRng::from_seed(1)).unwrap_err();
    let text = err.to_string();
    assert!(
        text.starts_with("Black's deck: a deck has 14 combat cards, this one has 0"),
        "{text}"
    );
    assert!(
        text.contains("a deck has 16 pawns, this one has 40"),
        "{text}"
    );
    assert!(
        text.contains("a deck has exactly one queen, this one has 2"),
        "{text}"
    );
    assert!(
        !text.contains("royal pieces"),
        "the Queen is named instead: {text}"
    );
    // Both decks wrong: both are reported.
    let options = ChessATeteOptions {
        white_deck: Some("King, Queen, 4 Knigt".into()),
        black_deck: Some("King, Queen, 0 Rook".into()),
    };
    let text = ChessATete::new(&options, 2, &mut GameRng::from_seed(1))
        .unwrap_err()
        .to_string();
    assert!(
        text.starts_with("White's deck: there is no card called \"Knigt\" (did you mean Knight?)"),
        "{text}"
    );
    assert!(
        text.contains(
            "; Black's deck: \"0 Rook\": write how many copies before the name, like 4 Knight"
        ),
        "{text}"
    );
}

#[test]
fn actions_read_by_card_name() {
    let g = white(&["Queen", "Rook"], &[], &[]);
    let read = |t: &str| g.format_action(&g.parse_action(Seat(0), t).unwrap());
    assert_eq!(read("QUEEN"), "play Queen");
    assert_eq!(read(" play   rook "), "play Rook");
    assert_eq!(
        g.parse_action(Seat(0), "play Dragon").unwrap_err().reason,
        "there is no card called \"Dragon\"",
        "echoed as typed"
    );
    assert_eq!(
        refused(&g, "Quen"),
        "there is no card called \"Quen\" (did you mean Queen?)"
    );
    assert_eq!(
        refused(&g, "burn Skirmsh"),
        "there is no card called \"Skirmsh\" (did you mean Skirmish?)"
    );
    assert_eq!(
        g.parse_action(Seat(0), "play").unwrap_err().reason,
        "say which card: play Knight"
    );
    assert_eq!(
        g.parse_action(Seat(1), "play Queen").unwrap_err().reason,
        "it is not your turn"
    );
    assert_eq!(
        g.parse_action(Seat(0), "").unwrap_err().reason,
        "say what to do; write play Knight, attack Fork with Knight, Knight, Peasant, burn Skirmish, \
         or end"
    );
}

// ---- combat ----

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

#[test]
fn an_attack_needs_its_pieces_one_per_line() {
    let g = battle(
        &["Fork", "Flank", "Support Line"],
        &["Knight", "Peasant", "Support", "Bishop"],
        &[],
        &[],
    );
    assert_eq!(
        refused(&g, "attack Fork with Knight, Knight, Peasant"),
        "Fork needs two knights and a pawn on your board"
    );
    assert_eq!(
        refused(&g, "attack Support Line with Peasant, Peasant, Bishop"),
        "your board holds only 1 Peasant"
    );
    assert_eq!(
        refused(&g, "attack Support Line with Knight, Peasant, Bishop"),
        "Knight, Bishop, Peasant do not match what Support Line needs: a Support, a Peasant \
         and a bishop"
    );
    // "Any one of": the knight and either the bishop or... only the bishop is there.
    let legal = texts(&g);
    assert!(
        legal.contains(&"attack Flank with Knight, Bishop".into()),
        "{legal:?}"
    );
    assert!(legal.contains(&"attack Support Line with Bishop, Peasant, Support".into()));
    let mut g = battle(&["Flank"], &["Knight", "Bishop", "Rook"], &[], &[]);
    assert_eq!(
        refused(&g, "attack Flank"),
        "say which pieces: attack Flank with ..."
    );
    play(&mut g, "attack flank with rook, knight");
    play(&mut g, "take");
    assert_eq!(g.sides[0].graveyard, ids(&["Flank"]));
}

#[test]
fn an_undefended_attack_deals_damage_or_defeats_the_king() {
    // Black holds nothing that answers Fork, and is asked all the same: whether a defender
    // could answer is theirs to know. Taking it, the rook is the only piece 7 damage can
    // destroy.
    let mut g = battle(
        &["Fork"],
        &["Knight", "Knight", "Peasant"],
        &["Spy"],
        &["Rook"],
    );
    let events = play(&mut g, "attack Fork");
    assert_eq!(
        events,
        ["White attacks with Fork (power 7), mobilising Knight, Knight, Peasant"]
    );
    assert_eq!(g.to_act(), ToAct::one(Seat(1)));
    assert_eq!(texts(&g), ["take"]);
    let events = play(&mut g, "take");
    assert_eq!(
        events,
        ["Black lets the attack through", "Black loses Rook"]
    );
    assert_eq!(g.sides[1].board, ids(&["King"]));
    assert_eq!(g.sides[1].graveyard, ids(&["Rook"]));
    assert_eq!(
        g.sides[1].hand,
        ids(&["Spy"]),
        "taking plays no card: no draw"
    );
    assert_eq!(g.to_act(), ToAct::one(Seat(0)), "back to White's turn");
    assert_eq!(
        refused(&g, "attack Fork with Knight, Knight, Peasant"),
        "you have already attacked this turn (one combat card a turn)"
    );

    // Power equal to the board's hit points (the King's 7) is not enough...
    let mut g = battle(&["Fork"], &["Knight", "Knight", "Peasant"], &[], &[]);
    play(&mut g, "attack Fork");
    let events = play(&mut g, "take");
    assert_eq!(
        events[1],
        "Black loses no piece: the King stands alone, and it is never lost to damage"
    );
    assert!(g.to_act().outcome().is_none());
    // ...power beyond them defeats the King, and the attack is no longer shown as waiting.
    let mut g = battle(
        &["Royal Command"],
        &["Queen", "Peasant", "Peasant"],
        &[],
        &[],
    );
    play(&mut g, "attack Royal Command");
    let events = play(&mut g, "take");
    assert_eq!(
        events[1],
        "The attack's power of 8 exceeds Black's 7 hit points"
    );
    assert_eq!(
        events.last().unwrap(),
        "Game over: White won by defeating Black's King",
        "nothing after the end, no drawing back"
    );
    let outcome = g.to_act().outcome().cloned().unwrap();
    assert_eq!(outcome.winners(), [Seat(0)]);
    assert_eq!(outcome.reason, "defeating the king");
    let view = g.view(Viewer::Spectator);
    assert_eq!(view.attack, None, "no attack waits for an answer");
    assert_eq!(
        view.status,
        "Game over: White won by defeating Black's King"
    );
}

#[test]
fn the_attacker_cannot_tell_whether_the_defender_could_answer() {
    // Black holding Block, or holding nothing useful: White sees the same after attacking.
    let attacked = |black_hand: &[&str]| {
        let mut g = battle(
            &["Fork"],
            &["Knight", "Knight", "Peasant"],
            black_hand,
            &["Rook"],
        );
        play(&mut g, "attack Fork");
        g
    };
    let (with_block, without) = (attacked(&["Block", "Spy"]), attacked(&["Spy", "Spy"]));
    assert_eq!(with_block.to_act(), without.to_act());
    assert_eq!(
        with_block.view(Viewer::Seat(Seat(0))),
        without.view(Viewer::Seat(Seat(0)))
    );
    assert_eq!(texts(&with_block), ["take", "play Block"]);
}

#[test]
fn one_combat_card_a_turn() {
    let mut g = battle(
        &["Skirmish", "Pawn Storm"],
        &["Peasant", "Peasant"],
        &[],
        &["Queen"],
    );
    play(&mut g, "attack Skirmish with Peasant");
    play(&mut g, "take");
    assert_eq!(
        refused(&g, "attack Pawn Storm with Peasant, Peasant"),
        "you have already attacked this turn (one combat card a turn)"
    );
}

#[test]
fn the_defender_chooses_the_pieces_that_absorb_the_damage() {
    // The sheet's example: 4 damage, lost as a bishop and two pawns, or both bishops (or here
    // the queen); a bishop and one pawn would leave a pawn the last point could destroy.
    let mut g = battle(
        &["Cavalry Charge"],
        &["Knight", "Peasant"],
        &["Spy"],
        &["Queen", "Bishop", "Bishop", "Peasant", "Peasant"],
    );
    play(&mut g, "attack Cavalry Charge");
    let events = play(&mut g, "take");
    assert_eq!(
        events.last().unwrap(),
        "Black chooses which pieces absorb 4 damage (pieces worth exactly 4 hit points)"
    );
    assert_eq!(g.to_act(), ToAct::one(Seat(1)));
    let mut ways = texts(&g);
    ways.sort();
    assert_eq!(
        ways,
        [
            "lose Bishop, Bishop",
            "lose Bishop, Peasant, Peasant",
            "lose Queen"
        ]
    );
    assert_eq!(
        refused(&g, "lose Bishop, Peasant"),
        "lose pieces worth exactly 4 hit points: lose Queen, or lose Bishop, Bishop, or lose \
         Bishop, Peasant, Peasant"
    );
    assert_eq!(
        g.parse_action(Seat(0), "end").unwrap_err().reason,
        "it is not your turn: Black is choosing the pieces to lose"
    );
    play(&mut g, "lose 2 bishop");
    assert_eq!(
        g.sides[1].board,
        ids(&["King", "Queen", "Peasant", "Peasant"])
    );
    assert_eq!(g.to_act(), ToAct::one(Seat(0)));
}

#[test]
fn a_defence_of_higher_power_wins_the_battle_and_equal_power_is_a_stalemate() {
    let attack = || {
        battle(
            &["Fork"],
            &["Knight", "Knight", "Peasant"],
            &[
                "Castle Wall",
                "Royal Command",
                "Siege",
                "Reinforcements",
                "Spy",
            ],
            &["Rook", "Rook", "Sentinel", "Queen", "Peasant"],
        )
    };
    let mut g = attack();
    play(&mut g, "attack Fork");
    assert_eq!(g.to_act(), ToAct::one(Seat(1)), "Black answers");
    assert_eq!(
        g.view(Viewer::Spectator).status,
        "Black to answer Fork (power 7): defend or take"
    );
    assert_eq!(
        refused(&g, "defend Siege with Rook, Sentinel, Peasant"),
        "Siege has power 6; a defence needs 7 or more"
    );
    assert_eq!(
        refused(&g, "defend Castle Wall with Rook, Sentinel, Peasant"),
        "Rook, Peasant, Sentinel do not match what Castle Wall needs: two rooks and a pawn"
    );
    assert_eq!(
        refused(&g, "play Spy"),
        "Spy is played on your own turn, not in answer to an attack"
    );
    assert_eq!(refused(&g, "play Block"), "there is no Block in your hand");
    assert_eq!(
        refused(&g, "end"),
        "answer the attack first: defend with a combat card of power 7 or more, or take it"
    );
    assert_eq!(
        refused(&g, "defend"),
        "say which combat card: defend Castle Wall with Rook, Rook, Peasant"
    );
    // The attacker waits, whatever it types.
    assert_eq!(
        testing::refusal(&g, Seat(0), "attack Flank"),
        "it is not your turn: Black is answering the attack"
    );
    // Higher: the attacker loses its mobilised pieces.
    let events = play(&mut g, "defend Royal Command with Queen, Peasant, Sentinel");
    assert!(
        events.contains(&"White loses the battle".to_string()),
        "{events:?}"
    );
    assert_eq!(g.sides[0].board, ids(&["King"]));
    let mut buried = g.sides[0].graveyard.clone();
    buried.sort();
    let mut expected = ids(&["Knight", "Knight", "Peasant", "Fork"]);
    expected.sort();
    assert_eq!(buried, expected, "the mobilised pieces and the combat card");
    assert!(g.sides[1].graveyard.contains(&id("Royal Command")));
    assert_eq!(
        g.sides[1].board,
        ids(&["King", "Rook", "Rook", "Sentinel", "Queen", "Peasant"]),
        "the winner keeps its pieces"
    );
    assert_eq!(
        g.sides[1].hand.len(),
        HAND,
        "drew back to seven after playing out of turn"
    );
    assert_eq!(g.to_act(), ToAct::one(Seat(0)));

    // Equal: both sides lose their mobilised pieces.
    let mut g = attack();
    play(&mut g, "attack Fork");
    let events = play(&mut g, "defend Castle Wall with Rook, Rook, Peasant");
    assert!(
        events.contains(
            &"Stalemate (equal power): both sides lose the pieces they mobilised".to_string()
        ),
        "{events:?}"
    );
    assert_eq!(g.sides[0].board, ids(&["King"]));
    assert_eq!(g.sides[1].board, ids(&["King", "Sentinel", "Queen"]));

    // Taking the hit instead: damage as usual.
    let mut g = attack();
    play(&mut g, "attack Fork");
    play(&mut g, "take");
    assert_eq!(g.phase, Phase::Damage { amount: 7 });
}

// ---- every card's effect ----

/// Applies `text` for whoever acts and returns all events, private ones included.
pub(super) fn play_events(g: &mut ChessATete, text: &str) -> Vec<Event> {
    testing::play_seeded(g, seat_of(g.actor()), text, 5)
}

fn count(cards: &[CardId], name: &str) -> usize {
    cards.iter().filter(|&&c| c == id(name)).count()
}

#[test]
fn peasant_draws_one_then_two_with_its_match() {
    let mut g = battle(&["Peasant", "Peasant", "Spy"], &[], &[], &[]);
    play(&mut g, "Peasant");
    assert_eq!(g.sides[0].hand.len(), 3, "one played, one drawn");
    assert_eq!(g.sides[0].deck.len(), 9);
    play(&mut g, "Peasant");
    assert_eq!(g.sides[0].hand.len(), 4, "one played, two drawn");
    assert_eq!(g.sides[0].deck.len(), 7);
}

#[test]
fn support_adds_power_when_mobilised_and_more_as_a_pair() {
    let mut g = battle(
        &["Pawn Storm"],
        &["Support", "Peasant"],
        &["Spy"],
        &["Queen", "Rook"],
    );
    let events = play(&mut g, "attack Pawn Storm with Support, Peasant");
    assert!(events[0].contains("(power 4)"), "{events:?}");
    let mut g = battle(
        &["Pawn Storm"],
        &["Support", "Support"],
        &["Spy"],
        &["Queen", "Rook"],
    );
    let events = play(&mut g, "attack Pawn Storm with Support, Support");
    assert!(events[0].contains("(power 7)"), "3 + 2 + 2: {events:?}");

    // A defence counts Support too: Pawn Storm (3) answers a 4 only when it mobilises Support.
    let mut g = battle(
        &["Cavalry Charge"],
        &["Knight", "Peasant"],
        &["Pawn Storm"],
        &["Support", "Peasant", "Peasant"],
    );
    play(&mut g, "attack Cavalry Charge");
    assert_eq!(
        refused(&g, "defend Pawn Storm with Peasant, Peasant"),
        "Pawn Storm with Peasant, Peasant has power 3; a defence needs 4 or more"
    );
    let events = play(&mut g, "defend Pawn Storm with Peasant, Support");
    assert!(events[0].contains("(power 4)"), "{events:?}");
    assert!(
        events.contains(
            &"Stalemate (equal power): both sides lose the pieces they mobilised".to_string()
        ),
        "{events:?}"
    );
}

#[test]
fn squire_adds_power_to_the_next_attack_this_turn() {
    let mut g = battle(
        &["Squire", "Squire", "Pawn Storm"],
        &[],
        &["Spy"],
        &["Queen"],
    );
    play(&mut g, "Squire");
    assert_eq!(g.budget.turn_power, 1);
    play(&mut g, "Squire");
    assert_eq!(
        g.budget.turn_power, 4,
        "+1, then +3 with its match on the board"
    );
    let events = play(&mut g, "attack Pawn Storm with Squire, Squire");
    assert!(events[0].contains("(power 7)"), "{events:?}");
    assert_eq!(g.budget.turn_power, 0, "spent on the attack");
}

#[test]
fn scout_and_spy_show_cards_to_their_player_only() {
    let mut g = battle(&["Scout", "Scout", "Spy"], &[], &["Fork", "Block"], &[]);
    g.sides[0].deck = ids(&["Rook", "Knight", "Queen"]);
    let events = play_events(&mut g, "Scout");
    let peek = events
        .iter()
        .find(|e| e.text.starts_with("The top"))
        .unwrap();
    assert_eq!(peek.audience, crate::engine::Audience::Only(Seat(0)));
    assert_eq!(peek.text, "The top of your deck: Queen, Knight");
    let events = play_events(&mut g, "Scout");
    let peek = events
        .iter()
        .find(|e| e.text.starts_with("Black's hand"))
        .unwrap();
    assert_eq!(peek.audience, crate::engine::Audience::Only(Seat(0)));
    assert_eq!(peek.text, "Black's hand: Fork, Block");
    let events = play_events(&mut g, "Spy");
    assert!(events.iter().any(|e| e.text == "Black's hand: Fork, Block"));
    let seen = g.view(Viewer::Seat(Seat(1)));
    assert!(
        seen.last
            .iter()
            .all(|l| !l.contains("hand:") && !l.contains("top of")),
        "{:?}",
        seen.last
    );
}

#[test]
fn medic_recalls_a_pawn_then_any_piece() {
    let mut g = battle(&["Medic", "Medic"], &[], &[], &[]);
    g.sides[0].graveyard = ids(&["Knight", "Peasant"]);
    assert_eq!(
        refused(&g, "play Medic"),
        "say which card Medic takes: play Medic on Peasant"
    );
    assert_eq!(
        refused(&g, "play Medic on Knight"),
        "this Medic takes back only a pawn (a Medic played while another is on your board \
         takes back any piece)"
    );
    play(&mut g, "play Medic on Peasant");
    assert_eq!(count(&g.sides[0].hand, "Peasant"), 1);
    play(&mut g, "play Medic on Knight");
    assert_eq!(
        count(&g.sides[0].hand, "Knight"),
        1,
        "the second Medic takes any piece"
    );
    assert!(g.sides[0].graveyard.is_empty());
    // With nothing to recall, a Medic is simply played.
    let mut g = battle(&["Medic"], &[], &[], &[]);
    assert_eq!(texts(&g)[0], "play Medic");
    play(&mut g, "Medic");
}

#[test]
fn saboteur_and_sabotage_make_the_opponent_discard_at_random() {
    let mut g = battle(
        &["Saboteur", "Saboteur", "Sabotage"],
        &[],
        &[
            "Fork", "Block", "Spy", "Siege", "Flank", "Skirmish", "Ambush",
        ],
        &[],
    );
    play(&mut g, "Saboteur");
    assert_eq!(g.sides[1].hand.len(), 6);
    play(&mut g, "Saboteur");
    assert_eq!(
        g.sides[1].hand.len(),
        4,
        "two more with its match on the board"
    );
    play(&mut g, "Sabotage");
    assert_eq!(g.sides[1].hand.len(), 2);
    assert_eq!(
        g.sides[1].graveyard.len(),
        5,
        "the discarded cards are public"
    );
    // Every turn begins with seven cards in hand: Black makes the discards good from the deck.
    let events = play(&mut g, "end");
    assert_eq!(
        events.last().unwrap(),
        "Black begins the turn by drawing 5 cards back to seven"
    );
    assert_eq!((g.sides[1].hand.len(), g.sides[1].deck.len()), (HAND, 5));
}

#[test]
fn a_player_who_cannot_begin_the_turn_with_seven_cards_loses() {
    let mut g = battle(&["Sabotage"], &[], &["Fork"; 7], &[]);
    g.sides[1].deck = ids(&["Spy"]);
    play(&mut g, "Sabotage");
    let events = play(&mut g, "end");
    assert!(
        events.contains(&"Black cannot draw back to seven cards".to_string()),
        "{events:?}"
    );
    let outcome = g.to_act().outcome().cloned().unwrap();
    assert_eq!(
        (outcome.winners(), outcome.reason.as_str()),
        (&[Seat(0)][..], "exhausting the opponent's deck")
    );
}

#[test]
fn two_turns_in_a_row_without_a_card_played_or_burned_draw_the_game() {
    // Neither side can fill Fork's lines or play anything else.
    let stuck = || {
        let mut g = battle(&["Fork"; 7], &[], &["Fork"; 7], &[]);
        g.sides[0].deck = ids(&["Fork"; 5]);
        g.sides[1].deck = ids(&["Fork"; 5]);
        g
    };
    let mut g = stuck();
    assert_eq!(texts(&g), ["burn Fork", "end"]);
    play(&mut g, "end");
    assert!(
        g.to_act().outcome().is_none(),
        "one idle turn is not enough"
    );
    let events = play(&mut g, "end");
    assert!(
        events.contains(&"Two turns in a row without a card played or burned".to_string()),
        "{events:?}"
    );
    assert_eq!(
        g.to_act().outcome().cloned(),
        Some(Outcome::draw(2, "two turns in a row without a card played"))
    );
    // A burn in between starts the count again.
    let mut g = stuck();
    play(&mut g, "end");
    play(&mut g, "burn Fork");
    play(&mut g, "end");
    play(&mut g, "end");
    assert!(g.to_act().outcome().is_none());
}

#[test]
fn empty_decks_and_hands_are_said_plainly() {
    let mut g = battle(&["Scout", "Peasant", "Spy", "Squire"], &[], &[], &[]);
    g.sides[0].deck.clear();
    let said = |events: Vec<Event>| -> Vec<String> { events.into_iter().map(|e| e.text).collect() };
    assert!(
        said(play_events(&mut g, "Scout"))
            .contains(&"Your deck is empty: there is nothing to look at".to_string())
    );
    assert!(
        said(play_events(&mut g, "Peasant"))
            .contains(&"White's deck is empty: no card drawn".to_string())
    );
    assert!(said(play_events(&mut g, "Spy")).contains(&"Black's hand is empty".to_string()));
    let mut g = battle(&["Saboteur"], &[], &[], &[]);
    assert_eq!(
        play(&mut g, "Saboteur").last().unwrap(),
        "Black has no card to discard"
    );

    // A Squire after the turn's attack has no combat card left to strengthen.
    let mut g = battle(&["Skirmish", "Squire"], &["Peasant"], &[], &[]);
    play(&mut g, "attack Skirmish");
    play(&mut g, "take");
    assert_eq!(
        play(&mut g, "Squire").last().unwrap(),
        "White has already attacked this turn: the +1 power goes unused"
    );
    assert_eq!(g.budget.turn_power, 0);
}

#[test]
fn herald_fetches_the_first_power_piece_into_the_hand_then_onto_the_board() {
    let mut g = battle(&["Herald", "Herald"], &[], &[], &[]);
    g.sides[0].deck = ids(&["Sentinel", "Rook", "Peasant", "Bishop", "Peasant"]);
    let events = play_events(&mut g, "Herald");
    assert!(
        events.iter().any(|e| e.text == "You take a Bishop"
            && e.audience == crate::engine::Audience::Only(Seat(0)))
    );
    assert_eq!(count(&g.sides[0].hand, "Bishop"), 1);
    assert_eq!(g.sides[0].deck.len(), 4);
    play(&mut g, "Herald");
    assert_eq!(
        count(&g.sides[0].board, "Rook"),
        1,
        "the second Herald puts it on the board"
    );
    assert_eq!(g.sides[0].deck.len(), 3);
}

#[test]
fn sentinel_has_two_hit_points_peeks_then_draws() {
    let mut g = battle(&["Sentinel", "Sentinel"], &[], &[], &[]);
    g.sides[0].deck = ids(&["Rook", "Queen"]);
    let events = play_events(&mut g, "Sentinel");
    assert!(
        events
            .iter()
            .any(|e| e.text == "The top of your deck: Queen")
    );
    assert_eq!(g.view(Viewer::Spectator).sides[0].board_hp, 7 + 2);
    play(&mut g, "Sentinel");
    assert_eq!(count(&g.sides[0].hand, "Queen"), 1);
}

#[test]
fn block_cancels_an_attack() {
    let mut g = battle(
        &["Fork"],
        &["Knight", "Knight", "Peasant"],
        &["Block"],
        &["Rook"],
    );
    play(&mut g, "attack Fork");
    assert!(texts(&g).contains(&"play Block".into()));
    let events = play(&mut g, "play Block");
    assert!(events.contains(&"The attack is cancelled: no piece is lost".to_string()));
    assert_eq!(
        g.sides[0].board,
        ids(&["King", "Knight", "Knight", "Peasant"])
    );
    assert_eq!(g.sides[1].board, ids(&["King", "Rook"]));
    assert!(g.sides[0].graveyard.contains(&id("Fork")));
    assert!(g.sides[1].graveyard.contains(&id("Block")));
    assert_eq!(
        g.sides[1].hand.len(),
        HAND,
        "drew back after playing out of turn"
    );
    assert_eq!(g.to_act(), ToAct::one(Seat(0)));
}

#[test]
fn ambush_strengthens_the_defence_once_a_battle() {
    let mut g = battle(
        &["Fork"],
        &["Knight", "Knight", "Peasant"],
        &["Ambush", "Ambush", "Siege", "Block", "Crossfire"],
        &["Rook", "Peasant", "Peasant"],
    );
    play(&mut g, "attack Fork");
    assert_eq!(
        texts(&g),
        ["take", "play Block", "play Ambush"],
        "Siege's 6 is short of 7 without Ambush"
    );
    let events = play(&mut g, "play Ambush");
    assert_eq!(
        events.last().unwrap(),
        "Black draws 3 cards back toward seven",
        "a card played out of turn draws back at once"
    );
    assert_eq!(g.sides[1].hand.len(), HAND);
    // Ambush commits Black to a defence: no taking, no Block, no second Ambush.
    assert_eq!(texts(&g), ["defend Siege with Rook, Peasant, Peasant"]);
    assert_eq!(
        g.view(Viewer::Spectator).status,
        "Black to answer Fork (power 7): defend (after Ambush)"
    );
    for (text, reason) in [
        ("take", "you played Ambush: defend with a combat card"),
        ("play Block", "you played Ambush: defend with a combat card"),
        ("play Ambush", "Ambush is played once a battle"),
        (
            "defend",
            "say which combat card: defend Castle Wall with Rook, Rook, Peasant",
        ),
        // Crossfire would reach 8 with Ambush; the board is what it lacks.
        (
            "defend Crossfire with Rook, Peasant, Peasant",
            "Crossfire needs a bishop, a rook and a pawn on your board",
        ),
    ] {
        assert_eq!(refused(&g, text), reason, "{text}");
    }
    let events = play(&mut g, "defend Siege with Rook, Peasant, Peasant");
    assert!(events.iter().any(|e| e.contains("(power 8)")), "{events:?}");
    assert!(events.contains(&"White loses the battle".to_string()));
    assert_eq!(g.defend_bonus, 0);

    // With no combat card it could join, Ambush is not offered.
    let mut g = battle(
        &["Fork"],
        &["Knight", "Knight", "Peasant"],
        &["Ambush", "Skirmish", "Castle Wall"],
        &["Rook"],
    );
    play(&mut g, "attack Fork");
    assert_eq!(texts(&g), ["take"]);
    assert_eq!(
        refused(&g, "play Ambush"),
        "even with Ambush's +2, no combat card in your hand can defend against power 7 from \
         your board"
    );
}

#[test]
fn reinforcements_draw_two() {
    let mut g = battle(&["Reinforcements"], &[], &[], &[]);
    play(&mut g, "Reinforcements");
    assert_eq!(g.sides[0].hand.len(), 2);
    assert_eq!(g.sides[0].graveyard, ids(&["Reinforcements"]));
}

#[test]
fn resurrection_brings_a_piece_back_within_the_limits() {
    let mut g = battle(&["Resurrection"], &["Knight", "Knight"], &[], &[]);
    assert_eq!(
        refused(&g, "play Resurrection"),
        "your graveyard holds no piece for Resurrection to bring back"
    );
    g.sides[0].graveyard = ids(&["Knight", "Rook"]);
    assert_eq!(
        texts(&g)[0],
        "play Resurrection on Rook",
        "two knights already: only the rook"
    );
    play(&mut g, "play Resurrection on Rook");
    assert_eq!(count(&g.sides[0].board, "Rook"), 1);
}

#[test]
fn ongoing_cards_stay_in_play_until_demolished() {
    let mut g = battle(
        &["War Banner", "Fortress", "Skirmish"],
        &["Peasant"],
        &["Spy"],
        &["Rook"],
    );
    play(&mut g, "War Banner");
    play(&mut g, "Fortress");
    let view = g.view(Viewer::Spectator);
    assert_eq!(view.sides[0].ongoing, ["War Banner", "Fortress"]);
    assert_eq!(view.sides[0].board_hp, 7 + 1 + 1, "Fortress: pawns +1");
    let events = play(&mut g, "attack Skirmish");
    assert!(events[0].contains("(power 3)"), "War Banner +1: {events:?}");
    play(&mut g, "take");
    // Demolish sends one of them to its owner's graveyard.
    play(&mut g, "end");
    g.sides[1].hand.push(id("Demolish"));
    let mut ways = texts(&g);
    ways.retain(|t| t.starts_with("play Demolish"));
    assert_eq!(
        ways,
        ["play Demolish on Fortress", "play Demolish on War Banner"]
    );
    play(&mut g, "play Demolish on War Banner");
    assert_eq!(g.sides[0].ongoing, ids(&["Fortress"]));
    assert!(g.sides[0].graveyard.contains(&id("War Banner")));
}

#[test]
fn fortress_makes_pawns_harder_to_destroy() {
    let mut g = battle(
        &["Cavalry Charge"],
        &["Knight", "Peasant"],
        &["Spy"],
        &["Peasant", "Peasant", "Peasant"],
    );
    g.sides[1].ongoing = ids(&["Fortress"]);
    play(&mut g, "attack Cavalry Charge");
    play(&mut g, "take");
    assert_eq!(
        g.sides[1].board,
        ids(&["King", "Peasant"]),
        "4 damage takes two pawns of 2 hit points"
    );
}

#[test]
fn checkmate_wins_when_its_conditions_hold_even_out_of_turn() {
    let mut g = battle(
        &["Checkmate"],
        &["Queen", "Knight", "Rook"],
        &[],
        &["Queen"],
    );
    assert_eq!(
        refused(&g, "play Checkmate"),
        "Checkmate needs 3 power pieces (knights, bishops, rooks) on your board, and you have 2"
    );
    g.sides[0].board.push(id("Bishop"));
    assert_eq!(
        refused(&g, "play Checkmate"),
        "Checkmate needs Black to have no Queen on their board"
    );
    g.sides[1].board = ids(&["King"]);
    play(&mut g, "play Checkmate");
    let outcome = g.to_act().outcome().cloned().unwrap();
    assert_eq!(
        (outcome.winners(), outcome.reason.as_str()),
        (&[Seat(0)][..], "checkmate")
    );

    // Out of turn: in answer to an attack.
    let mut g = battle(
        &["Skirmish"],
        &["Peasant", "Queen"],
        &["Checkmate"],
        &["Queen", "Knight", "Bishop", "Rook"],
    );
    g.sides[0].board.retain(|&c| c != id("Queen"));
    play(&mut g, "attack Skirmish");
    play(&mut g, "play Checkmate");
    assert_eq!(g.to_act().outcome().unwrap().winners(), [Seat(1)]);
    assert_eq!(
        g.view(Viewer::Spectator).attack,
        None,
        "no attack waits any more"
    );
}
