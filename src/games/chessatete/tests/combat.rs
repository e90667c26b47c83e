//! Chess-à-Tête combat: attacks, damage, defences, and what each side may know of the other.

use super::*;

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
