//! Scenario tests of Chess-à-Tête's damage rule, the endings (their words and the final view),
//! warnings, refusals told apart from unreadable text, and how legal actions are grouped.

use super::*;
use std::collections::BTreeSet;

fn sorted(mut v: Vec<String>) -> Vec<String> {
    v.sort();
    v
}

#[test]
fn damage_is_absorbed_exactly_when_some_pieces_add_up_to_it() {
    // 2 damage against a Knight (2 hit points) and two Peasants (1 each): a Peasant alone, which
    // the King's 7 would once have covered the rest of, is refused.
    let mut g = battle(
        &["Skirmish"],
        &["Peasant"],
        &["Spy"],
        &["Knight", "Peasant", "Peasant"],
    );
    play(&mut g, "attack Skirmish");
    let events = play(&mut g, "take");
    assert_eq!(
        events.last().unwrap(),
        "Black chooses which pieces absorb 2 damage (pieces worth exactly 2 hit points)"
    );
    assert_eq!(sorted(texts(&g)), ["lose Knight", "lose Peasant, Peasant"]);
    let exactly = "lose pieces worth exactly 2 hit points: lose Knight, or lose Peasant, Peasant";
    for (text, reason) in [
        ("lose Peasant", exactly),
        ("lose Knight, Peasant", exactly),
        ("lose King", "the King is never lost to damage"),
        ("lose Rook", "your board has no Rook"),
        ("lose 3 Peasant", "your board holds only 2 Peasants"),
        (
            "end",
            "first choose the pieces that absorb the 2 damage: lose Knight, or lose Peasant, \
             Peasant",
        ),
    ] {
        assert_eq!(refused(&g, text), reason, "{text}");
    }
    play(&mut g, "lose peasant, PEASANT");
    assert_eq!(g.sides[1].board, ids(&["King", "Knight"]));

    // One Peasant only: the Knight is the one way to lose 2, taken at once.
    let mut g = battle(
        &["Skirmish"],
        &["Peasant"],
        &["Spy"],
        &["Knight", "Peasant"],
    );
    play(&mut g, "attack Skirmish");
    assert_eq!(
        play(&mut g, "take"),
        ["Black lets the attack through", "Black loses Knight"]
    );
    assert_eq!(g.sides[1].board, ids(&["King", "Peasant"]));
}

#[test]
fn with_no_exact_total_the_largest_total_below_the_damage_is_lost() {
    // Flank's 5 against a Queen (4) and a Knight (2): nothing makes 5 (the two make 6), and the
    // most below it is the Queen's 4. The Knight alone is not enough.
    let mut g = battle(
        &["Flank"],
        &["Knight", "Bishop"],
        &["Spy"],
        &["Queen", "Knight"],
    );
    play(&mut g, "attack Flank");
    assert_eq!(
        play(&mut g, "take"),
        ["Black lets the attack through", "Black loses Queen"]
    );
    assert_eq!(g.sides[1].board, ids(&["King", "Knight"]));

    // With two Knights, two ways reach 4: the defender chooses.
    let mut g = battle(
        &["Flank"],
        &["Knight", "Bishop"],
        &["Spy"],
        &["Queen", "Knight", "Knight"],
    );
    play(&mut g, "attack Flank");
    let events = play(&mut g, "take");
    let worth = "(pieces worth 4 hit points: none add up to 5)";
    assert_eq!(
        events.last().unwrap(),
        &format!("Black chooses which pieces absorb 5 damage {worth}")
    );
    assert_eq!(
        g.view(Viewer::Spectator).status,
        format!("Black to choose the pieces that absorb 5 damage {worth}")
    );
    assert_eq!(sorted(texts(&g)), ["lose Knight, Knight", "lose Queen"]);
    assert_eq!(
        refused(&g, "lose Knight"),
        "no pieces of yours add up to 5 hit points, so lose pieces worth 4: lose Queen, or \
         lose Knight, Knight"
    );
    play(&mut g, "lose 2 Knight");
    assert_eq!(g.sides[1].board, ids(&["King", "Queen"]));
}

#[test]
fn fortress_changes_which_pieces_add_up_to_the_damage() {
    // Pawn Storm's 3 against a Knight and two Peasants.
    let attack = |fortress: bool| {
        let mut g = battle(
            &["Pawn Storm"],
            &["Peasant", "Peasant"],
            &["Spy"],
            &["Knight", "Peasant", "Peasant"],
        );
        if fortress {
            g.sides[1].ongoing = ids(&["Fortress"]);
        }
        play(&mut g, "attack Pawn Storm");
        let events = play(&mut g, "take");
        (g, events)
    };
    // Plain: a Knight and a Peasant make 3 exactly, the one way, taken at once.
    let (g, events) = attack(false);
    assert_eq!(events.last().unwrap(), "Black loses Knight, Peasant");
    assert_eq!(g.sides[1].board, ids(&["King", "Peasant"]));
    // Fortress makes each Peasant 2: nothing makes 3, so 2: the Knight or one Peasant.
    let (g, _) = attack(true);
    assert_eq!(sorted(texts(&g)), ["lose Knight", "lose Peasant"]);
}

/// The pieces `color` loses absorbing `amount` damage, by brute force over every subset of the
/// board: the sets (sorted) whose hit points make the largest total at most `amount`.
fn best_losses(g: &ChessATete, color: Color, amount: u32) -> BTreeSet<Vec<CardId>> {
    let pieces: Vec<CardId> = g
        .side(color)
        .board
        .iter()
        .copied()
        .filter(|&id| piece_kind(id) != Some(PieceKind::King))
        .collect();
    let bonus = g.pawn_bonus(color);
    let mut best = 0;
    let mut sets = BTreeSet::new();
    for mask in 0u32..(1 << pieces.len()) {
        let mut set: Vec<CardId> = (0..pieces.len())
            .filter(|i| mask & (1 << i) != 0)
            .map(|i| pieces[i])
            .collect();
        let total: u32 = set
            .iter()
            .map(|&id| crate::games::chessatete::combat::hp(id, bonus))
            .sum();
        if total > amount || total < best {
            continue;
        }
        if total > best {
            best = total;
            sets.clear();
        }
        set.sort();
        sets.insert(set);
    }
    sets
}

#[test]
fn every_attack_taken_costs_the_most_hit_points_up_to_its_power() {
    let mut checked = (0, 0);
    for seed in 0..40 {
        let mut rng = GameRng::from_seed(seed);
        let mut g = ChessATete::new(&ChessATeteOptions::default(), 2, &mut rng).unwrap();
        for _ in 0..3000 {
            if g.to_act().outcome().is_some() {
                break;
            }
            let seat = seat_of(g.actor());
            let legal = g.legal_actions(seat);
            // Attack and take whenever possible, so that damage comes often.
            let pick = legal
                .iter()
                .find(|a| matches!(a, Action::Attack { .. } | Action::Take))
                .cloned()
                .unwrap_or_else(|| legal[rng.below(legal.len())].clone());
            let expected = match (&g.phase, &pick) {
                (Phase::Defend(attack), Action::Take) => {
                    Some(best_losses(&g, g.actor(), attack.power))
                }
                _ => None,
            };
            let defender = g.actor();
            let before = g.side(defender).board.clone();
            g.apply(seat, &pick, &mut rng).unwrap();
            let (Some(expected), None) = (expected, g.to_act().outcome()) else {
                continue;
            };
            if let Phase::Damage { .. } = g.phase {
                let offered: BTreeSet<Vec<CardId>> = g
                    .legal_actions(seat_of(defender))
                    .into_iter()
                    .map(|a| match a {
                        Action::Lose(pieces) => pieces,
                        other => panic!("seed {seed}: {other:?} while absorbing damage"),
                    })
                    .collect();
                assert_eq!(offered, expected, "seed {seed}");
                checked.0 += 1;
            } else {
                let mut lost = before.clone();
                for id in &g.side(defender).board {
                    let at = lost.iter().position(|b| b == id).unwrap();
                    lost.remove(at);
                }
                lost.sort();
                assert_eq!(BTreeSet::from([lost]), expected, "seed {seed}: the one way");
                checked.1 += 1;
            }
        }
    }
    assert!(checked.0 > 5 && checked.1 > 20, "{checked:?}");
}

#[test]
fn the_final_view_shows_the_winning_attack_and_the_result() {
    let mut g = battle(
        &["Royal Command"],
        &["Queen", "Peasant", "Peasant"],
        &["Spy"],
        &[],
    );
    play(&mut g, "attack Royal Command");
    assert_eq!(
        g.view(Viewer::Spectator).decisive,
        None,
        "not while it waits"
    );
    play(&mut g, "take");
    let expected = DecisiveView {
        by: Color::White,
        card: "Royal Command".into(),
        power: Some(8),
        pieces: vec!["Queen".into(), "Peasant".into(), "Peasant".into()],
        text: "White's Royal Command (power 8), with Queen, Peasant, Peasant, exceeded Black's 7 \
               hit points"
            .into(),
        result: "White won by defeating Black's King".into(),
    };
    for viewer in [
        Viewer::Spectator,
        Viewer::Seat(Seat(0)),
        Viewer::Seat(Seat(1)),
    ] {
        let view = g.view(viewer);
        assert_eq!(view.decisive.as_ref(), Some(&expected), "{viewer:?}");
        assert_eq!(view.attack, None, "no attack waits for an answer");
    }
    let spectator = g.view(Viewer::Spectator);
    assert!(spectator.sides.iter().all(|s| s.hand.is_none()));
    // The state keeps it through a save.
    let saved: ChessATete = serde_json::from_str(&serde_json::to_string(&g).unwrap()).unwrap();
    assert_eq!(saved.view(Viewer::Spectator), spectator);

    // Checkmate: the card and the pieces that met its conditions.
    let mut g = battle(
        &["Checkmate"],
        &["Rook", "Queen", "Knight", "Bishop"],
        &[],
        &[],
    );
    play(&mut g, "play Checkmate");
    let decisive = g.view(Viewer::Spectator).decisive.unwrap();
    assert_eq!(
        (
            decisive.card.as_str(),
            decisive.power,
            decisive.pieces.len()
        ),
        ("Checkmate", None, 4)
    );
    assert_eq!(
        decisive.text,
        "White played Checkmate with Queen, Knight, Bishop, Rook on their board"
    );
    assert_eq!(decisive.result, "White won by playing Checkmate");

    // An ending by the deck has no decisive play to show.
    let mut g = white(
        &["Knight", "Rook", "Block", "Spy", "Fork", "Siege", "Flank"],
        &[],
        &["Bishop"],
    );
    play(&mut g, "Knight");
    play(&mut g, "Rook");
    play(&mut g, "end");
    let view = g.view(Viewer::Spectator);
    assert_eq!(view.decisive, None);
    assert_eq!(
        view.status,
        "Game over: Black won: White could not draw back to seven cards"
    );
}

#[test]
fn each_ending_is_described_in_the_games_words() {
    let g = new_game();
    for (outcome, words) in [
        (
            Outcome::winner(Seat(0), 2, "defeating the king"),
            "White won by defeating Black's King",
        ),
        (
            Outcome::winner(Seat(1), 2, "checkmate"),
            "Black won by playing Checkmate",
        ),
        (
            Outcome::winner(Seat(0), 2, "exhausting the opponent's deck"),
            "White won: Black could not draw back to seven cards",
        ),
        (
            Outcome::draw(2, "two turns in a row without a card played"),
            "Draw: two turns in a row passed without a card played or burned",
        ),
        (
            Outcome::winner(Seat(1), 2, "resignation"),
            "Black won by resignation",
        ),
        (Outcome::draw(2, "agreement"), "Draw by agreement"),
    ] {
        assert_eq!(g.describe(&outcome), words);
    }

    // The idle draw, as played: its events and status use the same words.
    let mut g = battle(&["Fork"; 7], &[], &["Fork"; 7], &[]);
    assert_eq!(
        play(&mut g, "end"),
        ["White draws no cards and ends the turn"]
    );
    let events = play(&mut g, "end");
    assert_eq!(
        events.last().unwrap(),
        "Game over: Draw: two turns in a row passed without a card played or burned"
    );
    assert_eq!(
        g.view(Viewer::Spectator).status,
        "Game over: Draw: two turns in a row passed without a card played or burned"
    );
}

#[test]
fn actions_that_lose_on_the_spot_are_warned_of() {
    // Ending the turn with a deck too short to draw back to seven.
    let mut g = white(
        &["Knight", "Rook", "Block", "Spy", "Fork", "Siege", "Flank"],
        &[],
        &["Bishop"],
    );
    play(&mut g, "Knight");
    assert_eq!(
        g.warning(Seat(0), &Action::End),
        None,
        "one card to draw, one in the deck"
    );
    play(&mut g, "Rook");
    assert_eq!(
        g.warning(Seat(0), &Action::End).as_deref(),
        Some(
            "your deck holds 1 card and you need 2 cards to draw back to seven: ending the turn \
             loses the game"
        )
    );
    assert_eq!(g.warning(Seat(0), &Action::Burn(id("Spy"))), None);

    // Taking an attack stronger than the whole board.
    let mut g = battle(
        &["Royal Command"],
        &["Queen", "Peasant", "Peasant"],
        &["Spy"],
        &[],
    );
    play(&mut g, "attack Royal Command");
    assert_eq!(
        g.warning(Seat(1), &Action::Take).as_deref(),
        Some(
            "the attack's power of 8 exceeds your board's 7 hit points: taking it defeats your \
             King and loses the game"
        )
    );
    let mut g = battle(&["Fork"], &["Knight", "Knight", "Peasant"], &["Spy"], &[]);
    play(&mut g, "attack Fork");
    assert_eq!(
        g.warning(Seat(1), &Action::Take),
        None,
        "7 does not exceed 7"
    );
}

#[test]
fn refusals_of_understood_text_are_told_apart_from_unreadable_text() {
    let mut g = battle(
        &["Flank", "Medic", "Pawn Storm"],
        &["Knight", "Bishop", "Rook", "Peasant", "Peasant"],
        &["Spy"],
        &[],
    );
    g.sides[0].graveyard = ids(&["Peasant"]);
    let read = |g: &ChessATete, seat: u8, text: &str| {
        let e = g.parse_action(Seat(seat), text).unwrap_err();
        (e.understood, e.to_string())
    };
    for (seat, text, understood, message) in [
        (
            0,
            "play Dragon",
            false,
            "cannot read \"play Dragon\": there is no card called \"Dragon\"",
        ),
        (
            0,
            "attack Flank",
            false,
            "cannot read \"attack Flank\": say which pieces: attack Flank with ...",
        ),
        (
            0,
            "play Medic",
            false,
            "cannot read \"play Medic\": say which card Medic takes: play Medic on Peasant",
        ),
        (
            0,
            "end",
            true,
            "play at least one card before ending the turn",
        ),
        (
            0,
            "play Pawn Storm",
            true,
            "Pawn Storm is a combat card: attack with it (attack Pawn Storm with Peasant, Peasant)",
        ),
        (1, "play Spy", true, "it is not your turn"),
    ] {
        assert_eq!(
            read(&g, seat, text),
            (understood, message.to_string()),
            "{text}"
        );
    }
    // Once the game is over, every text is refused as such.
    g.outcome = Some(Outcome::draw(2, "agreement"));
    assert_eq!(read(&g, 0, "end"), (true, "the game is over".to_string()));
}

#[test]
fn legal_actions_group_by_combat_card_and_by_kind() {
    let g = battle(
        &["Flank", "Pawn Storm", "Knight", "Spy"],
        &["Knight", "Bishop", "Rook", "Peasant", "Support"],
        &[],
        &[],
    );
    let mut groups: Vec<(String, usize)> = Vec::new();
    for action in g.legal_actions(Seat(0)) {
        let group = g.action_group(&action);
        match groups.iter_mut().find(|(g, _)| *g == group) {
            Some((_, n)) => *n += 1,
            None => groups.push((group, 1)),
        }
    }
    let expected: Vec<(String, usize)> =
        [("play", 2), ("attack Pawn Storm", 1), ("attack Flank", 2)]
            .map(|(g, n)| (g.to_string(), n))
            .to_vec();
    assert_eq!(groups, expected);
}

#[test]
fn the_notation_help_is_short_and_its_examples_are_the_rules_pages() {
    let lines: Vec<&str> = ChessATete::NOTATION.lines().collect();
    assert!(lines.len() <= 8, "{lines:?}");
    assert!(lines.iter().all(|l| l.chars().count() < 100), "{lines:?}");
    let page = include_str!("../../../../docs/rules/chessatete.md");
    for example in [
        "play Knight",
        "play Medic on Peasant",
        "attack Fork with Knight, Knight, Peasant",
        "burn Skirmish",
        "defend Castle Wall with Rook, Rook, Sentinel",
        "play Block",
        "lose Bishop, Peasant, Peasant",
        "lose 2 Bishop",
    ] {
        assert!(ChessATete::NOTATION.contains(example), "{example}");
        assert!(
            page.contains(&format!("`{example}`")),
            "{example} on the rules page"
        );
    }
}
