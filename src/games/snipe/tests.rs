use super::*;
use crate::engine::testing::{self, Config, check_game};

const OPEN: &str = "..........";

/// A forest from ten rows of spaces, rank 10 first, file a first (spaces and `|` are ignored):
/// `.` open, `T` tree, `R` rotate 90, `U` rotate 180, `F` flag, `S` feather. `pieces` lists
/// pieces as `Ka1 Pc3 ke10 pf9` (upper case White, lower case Black). The move phase, White to
/// move unless `turn` says otherwise.
fn board(rows: [&str; 10], pieces: &str, options: SnipeOptions, turn: Color) -> Snipe {
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

fn open_forest(pieces: &str) -> Snipe {
    board([OPEN; 10], pieces, SnipeOptions::default(), Color::White)
}

fn sq(name: &str) -> Sq {
    let (sq, rest) = notation_square(name);
    assert!(rest.is_empty(), "{name}");
    sq
}

fn notation_square(name: &str) -> (Sq, &str) {
    let file = name.as_bytes()[0];
    let end = name[1..]
        .find(|c: char| !c.is_ascii_digit())
        .map_or(name.len(), |e| e + 1);
    let rank: i16 = name[1..end].parse().unwrap();
    (Sq::new(i16::from(file - b'a'), rank - 1), &name[end..])
}

fn play(g: &mut Snipe, text: &str) -> Vec<String> {
    testing::play_text(g, seat_of(g.turn), text)
}

fn refused(g: &Snipe, text: &str) -> String {
    testing::refusal(g, seat_of(g.turn), text)
}

fn texts(g: &Snipe) -> Vec<String> {
    testing::legal_texts(g, seat_of(g.turn))
}

/// Where the piece on `from` may go, as squares.
fn targets(g: &Snipe, from: &str) -> Vec<String> {
    let mut out: Vec<String> = g
        .legal(g.turn)
        .into_iter()
        .filter_map(|a| match a {
            Action::Move { from: f, to } if f == sq(from) => Some(square(to)),
            _ => None,
        })
        .collect();
    out.sort();
    out
}

fn piece_at(g: &Snipe, at: &str) -> Option<(Color, Role)> {
    g.pieces.get(&sq(at)).map(|p| (p.color, p.role))
}

#[test]
fn random_games_keep_the_contract() {
    for options in [
        SnipeOptions::default(),
        SnipeOptions {
            last_chance: true,
            ..SnipeOptions::default()
        },
        SnipeOptions {
            auto: true,
            last_chance: true,
            feather: true,
        },
    ] {
        let mut config = Config::<Snipe>::new(options, 2, 0..10);
        config.actions_checked_per_state = 8;
        let report = check_game(&config);
        assert_eq!(report.games, 10);
    }
}

#[test]
fn squares_are_named_a1_to_j10_and_cards_by_their_lower_left_space() {
    assert_eq!(square(Sq::new(0, 0)), "a1");
    assert_eq!(square(Sq::new(9, 9)), "j10");
    assert_eq!(CardAt::of(sq("d6")), CardAt { cx: 1, cy: 2 });
    assert_eq!(square(CardAt::of(sq("d6")).corner()), "c5");
    let card = CardAt { cx: 0, cy: 0 };
    // A quarter turn clockwise, seen from above with White at the bottom.
    let turn = |s: &str| square(card.clockwise(sq(s)));
    assert_eq!(
        [turn("a1"), turn("a2"), turn("b2"), turn("b1")],
        ["a2", "b2", "b1", "a1"]
    );
}

// ---- setup ----

/// A forest for the setup tests. White's home row (ranks 1-2): j1 is a dead corner (j2 and i1
/// are trees); c1 breathes only through b1 (c2 and d1 are trees), and b1's card has a second
/// open space, a1.
fn setup_forest() -> Snipe {
    let mut rows = [OPEN; 10];
    rows[8] = "TTT......T";
    rows[9] = "...T....T.";
    let mut g = board(rows, "", SnipeOptions::default(), Color::White);
    g.phase = Phase::Setup;
    g.history.clear();
    g
}

#[test]
fn the_setup_alternates_white_first_one_piece_per_home_card() {
    let mut g = setup_forest();
    assert_eq!(g.to_act(), ToAct::one(Seat(0)));
    let legal = texts(&g);
    assert!(legal.iter().all(|t| {
        let rank: i16 = t[3..].parse().unwrap();
        rank <= 2
    }));
    assert!(legal.contains(&"K@e1".to_string()) && legal.contains(&"P@e1".to_string()));
    assert!(refused(&g, "K@e3").contains("home row of cards (ranks 1 and 2)"));
    assert_eq!(refused(&g, "K@a2"), "a2 is a tree");
    assert_eq!(
        refused(&g, "K@k1"),
        "k1 is off the board: files a to j, ranks 1 to 10"
    );
    assert_eq!(
        refused(&g, "Ka11"),
        "a11 is off the board: files a to j, ranks 1 to 10"
    );
    play(&mut g, "K@e1");
    assert_eq!(g.to_act(), ToAct::one(Seat(1)), "Black places next");
    assert!(refused(&g, "K@e1").contains("home row of cards (ranks 9 and 10)"));
    play(&mut g, "k@e10");
    assert_eq!(
        refused(&g, "P@f2"),
        "that card already holds your king on e1; one piece per card"
    );
    assert_eq!(refused(&g, "K@g1"), "your king is already placed");
    play(&mut g, "g1");
    assert_eq!(
        piece_at(&g, "g1"),
        Some((Color::White, Role::Pawn)),
        "only pawns left, so a bare square places one"
    );
    for (black, white) in [("P@a10", "P@a1"), ("P@c10", "P@c1"), ("P@g10", "P@i2")] {
        play(&mut g, black);
        play(&mut g, white);
    }
    assert_eq!(g.phase, Phase::Setup, "Black's last pawn is still to come");
    play(&mut g, "P@i9");
    assert_eq!(g.phase, Phase::Move);
    assert_eq!(g.to_act(), ToAct::one(Seat(0)), "White moves first");
    for color in [Color::White, Color::Black] {
        for cx in 0..CARDS {
            let card = CardAt {
                cx,
                cy: home_row(color),
            };
            let on = card
                .squares()
                .iter()
                .filter(|s| g.pieces.get(s).is_some_and(|p| p.color == color))
                .count();
            assert_eq!(on, 1, "one piece on each home card");
        }
    }
}

#[test]
fn a_king_is_never_set_up_without_a_free_neighbour() {
    let mut g = setup_forest();
    assert_eq!(
        refused(&g, "K@j1"),
        "your king would have no free space beside it"
    );
    play(&mut g, "K@c1");
    play(&mut g, "k@a10");
    assert_eq!(refused(&g, "P@b2"), "b2 is a tree");
    assert_eq!(
        refused(&g, "P@b1"),
        "that would leave your king no free space beside it"
    );
    assert!(texts(&g).contains(&"P@a1".to_string()));
}

#[test]
fn the_auto_option_places_every_piece_at_random() {
    let auto = SnipeOptions {
        auto: true,
        ..SnipeOptions::default()
    };
    let mut layouts = std::collections::BTreeSet::new();
    for seed in 0..20 {
        let g = Snipe::new(&auto, 2, &mut GameRng::from_seed(seed)).unwrap();
        assert_eq!(g.phase, Phase::Move);
        assert_eq!(g.pieces.len(), 10);
        for color in [Color::White, Color::Black] {
            assert!(g.free_neighbours(color).unwrap() > 0);
            for cx in 0..CARDS {
                let card = CardAt {
                    cx,
                    cy: home_row(color),
                };
                let n = card
                    .squares()
                    .iter()
                    .filter(|s| g.pieces.get(s).is_some_and(|p| p.color == color))
                    .count();
                assert_eq!(n, 1);
            }
        }
        layouts.insert(format!("{:?}", g.pieces));
    }
    assert_eq!(layouts.len(), 20, "different seeds, different setups");
    let manual = Snipe::new(&SnipeOptions::default(), 2, &mut GameRng::from_seed(1)).unwrap();
    assert_eq!(manual.phase, Phase::Setup);
    assert!(manual.pieces.is_empty());
}

#[test]
fn a_forest_nobody_can_set_up_on_is_dealt_again() {
    // Black's home row: every open space is a dead end (trees around, edge above).
    let mut rows = [OPEN; 10];
    rows[0] = ".T.T.T.T.T";
    rows[1] = "TTTTTTTTTT";
    let g = board(rows, "", SnipeOptions::default(), Color::White);
    let empty = BTreeMap::new();
    assert!(!g.setup_possible(Color::Black, &empty));
    assert!(g.setup_possible(Color::White, &empty));
    for seed in 0..200 {
        let g = Snipe::new(&SnipeOptions::default(), 2, &mut GameRng::from_seed(seed)).unwrap();
        assert!(g.setup_possible(Color::White, &empty) && g.setup_possible(Color::Black, &empty));
        let mut cards: Vec<u8> = g.forest.iter().flatten().map(|d| d.card).collect();
        cards.extend(&g.stock);
        cards.sort();
        assert_eq!(cards, (0..33).collect::<Vec<u8>>(), "25 dealt, 8 unused");
    }
}

// ---- moves ----

#[test]
fn pieces_slide_through_their_own_colour_but_not_trees_or_the_opponent() {
    let mut rows = [OPEN; 10];
    rows[5] = "..T.......";
    let g = board(
        rows,
        "Pc3 Kc4 Pe3 pg3 kj10",
        SnipeOptions::default(),
        Color::White,
    );
    assert_eq!(targets(&g, "c3"), ["a3", "b3", "c1", "c2", "d3", "f3"]);
    assert_eq!(refused(&g, "Pc3-c6"), "a tree on c5 blocks the way");
    assert_eq!(
        refused(&g, "Pc3-g3"),
        "the opponent's pawn on g3 blocks the way; nothing is captured"
    );
    assert_eq!(
        refused(&g, "Pc3-h3"),
        "the opponent's pawn on g3 blocks the way"
    );
    assert_eq!(
        refused(&g, "Pc3-e3"),
        "your pawn stands on e3; pieces pass their own colour but do not stop on it"
    );
    assert_eq!(
        refused(&g, "Pc3-d4"),
        "pieces move in a straight line along a rank or a file, never diagonally"
    );
    assert_eq!(
        refused(&g, "Pc3-c3"),
        "the pawn is already on c3; move at least one space"
    );
    assert_eq!(refused(&g, "Pg3-g4"), "the pawn on g3 is not yours");
    assert_eq!(
        refused(&g, "Kc3-c2"),
        "the piece on c3 is a pawn, not a king"
    );
    assert_eq!(refused(&g, "Ph3-h4"), "there is no piece on h3");
    assert_eq!(refused(&g, "done"), "you must move a piece");
    let mut g = g;
    play(&mut g, "c3 to f3");
    assert_eq!(piece_at(&g, "f3"), Some((Color::White, Role::Pawn)));
    assert_eq!(g.to_act(), ToAct::one(Seat(1)));
    assert_eq!(g.last.as_ref().unwrap().squares, [sq("c3"), sq("f3")]);
}

// ---- rotations ----

#[test]
fn a_pawn_on_a_90_degree_space_turns_one_card_and_its_pieces_turn_with_it() {
    let mut rows = [OPEN; 10];
    rows[4] = "T...R.....";
    let mut g = board(
        rows,
        "Pe3 pb6 Ka1 kj10",
        SnipeOptions::default(),
        Color::White,
    );
    assert_eq!(g.space(sq("e6")), Some(Space::Rotate90));
    play(&mut g, "Pe3-e6");
    assert_eq!(
        g.to_act(),
        ToAct::one(Seat(0)),
        "still White: the rotation step"
    );
    let legal = texts(&g);
    assert!(legal.contains(&"rotate a5 cw".into()) && legal.contains(&"rotate a5 ccw".into()));
    assert!(legal.contains(&"done".into()));
    assert!(!legal.iter().any(|t| t.ends_with("180")));
    assert_eq!(
        refused(&g, "rotate a5 180"),
        "this rotation space turns cards by 90 degrees: write rotate a5 cw or ccw"
    );
    // Named by any of its spaces: b6 is on the card at a5.
    play(&mut g, "rotate b6 clockwise");
    assert_eq!(
        g.space(sq("b6")),
        Some(Space::Tree),
        "top-left went top-right"
    );
    assert_eq!(g.space(sq("a6")), Some(Space::Open));
    assert_eq!(
        piece_at(&g, "b5"),
        Some((Color::Black, Role::Pawn)),
        "top-right went bottom-right"
    );
    assert_eq!(piece_at(&g, "b6"), None);
    assert_eq!(g.card(CardAt { cx: 0, cy: 2 }).quarters, 1);
    assert_eq!(
        g.to_act(),
        ToAct::one(Seat(1)),
        "a pawn turns one card, then the turn ends"
    );
    assert_eq!(g.last.as_ref().unwrap().cards, [CardAt { cx: 0, cy: 2 }]);
}

#[test]
fn a_king_turns_up_to_three_different_cards_either_way_itself_included() {
    let mut rows = [OPEN; 10];
    rows[6] = ".......R..";
    rows[8] = ".T........";
    let mut g = board(rows, "Kh1 Pa1 kj10", SnipeOptions::default(), Color::White);
    play(&mut g, "Kh1-h4");
    assert!(matches!(
        g.phase,
        Phase::Rotate {
            left: 3,
            angle: 90,
            ..
        }
    ));
    // Anticlockwise: bottom-left to bottom-right, top-right to top-left.
    play(&mut g, "rotate a1 ccw");
    assert_eq!(piece_at(&g, "b1"), Some((Color::White, Role::Pawn)));
    assert_eq!(g.space(sq("a2")), Some(Space::Tree));
    assert_eq!(g.card(CardAt { cx: 0, cy: 0 }).quarters, 3);
    assert_eq!(
        refused(&g, "rotate b2 cw"),
        "the card at a1 has already turned this turn"
    );
    // The king's own card: h4 is its top-right space, which goes bottom-right (h3).
    play(&mut g, "rotate g3 cw");
    assert_eq!(piece_at(&g, "h3"), Some((Color::White, Role::King)));
    assert_eq!(
        g.space(sq("h3")),
        Some(Space::Rotate90),
        "the space turned too"
    );
    assert_eq!(
        g.last.as_ref().unwrap().squares,
        [sq("h1"), sq("h3")],
        "the last move follows the king"
    );
    assert_eq!(g.to_act(), ToAct::one(Seat(0)), "one more card to go");
    play(&mut g, "rotate e5 cw");
    assert_eq!(
        g.to_act(),
        ToAct::one(Seat(1)),
        "three cards, and the turn ends"
    );
    assert_eq!(g.last.as_ref().unwrap().cards.len(), 3);
}

#[test]
fn a_king_may_stop_rotating_early() {
    let mut rows = [OPEN; 10];
    rows[6] = ".......R..";
    let mut g = board(rows, "Kh1 kj10", SnipeOptions::default(), Color::White);
    play(&mut g, "Kh1-h4");
    play(&mut g, "rotate a1 cw");
    play(&mut g, "done");
    assert_eq!(g.to_act(), ToAct::one(Seat(1)));
    assert_eq!(g.phase, Phase::Move);
}

#[test]
fn a_180_degree_space_turns_a_card_half_way_round() {
    let mut rows = [OPEN; 10];
    rows[4] = "....U.....";
    rows[8] = "T.........";
    let mut g = board(
        rows,
        "Pe3 Pb1 Ka3 kj10",
        SnipeOptions::default(),
        Color::White,
    );
    play(&mut g, "Pe3-e6");
    assert!(texts(&g).iter().all(|t| t == "done" || t.ends_with(" 180")));
    assert_eq!(
        refused(&g, "rotate a1 cw"),
        "this rotation space turns cards by 180 degrees: write rotate a1 180"
    );
    play(&mut g, "rotate a1 180");
    assert_eq!(
        g.space(sq("b1")),
        Some(Space::Tree),
        "top-left went bottom-right"
    );
    assert_eq!(
        piece_at(&g, "a2"),
        Some((Color::White, Role::Pawn)),
        "bottom-right went top-left"
    );
    assert_eq!(g.card(CardAt { cx: 0, cy: 0 }).quarters, 2);
}

#[test]
fn a_piece_must_move_onto_the_rotation_space_to_rotate() {
    let mut rows = [OPEN; 10];
    rows[4] = "....R.....";
    let mut g = board(rows, "Pe6 Ka1 kj10", SnipeOptions::default(), Color::White);
    assert_eq!(g.space(sq("e6")), Some(Space::Rotate90));
    assert_eq!(refused(&g, "rotate a1 cw"), "move a piece: write Kc1-c4");
    play(&mut g, "Pe6-e8");
    assert_eq!(
        g.to_act(),
        ToAct::one(Seat(1)),
        "moving off it gives no rotation"
    );
    play(&mut g, "kj10-j9");
    play(&mut g, "Pe8-e6");
    assert!(
        matches!(g.phase, Phase::Rotate { .. }),
        "moving back onto it does"
    );
}

// ---- the end ----

#[test]
fn trapping_the_king_wins() {
    let mut rows = [OPEN; 10];
    rows[8] = "T.........";
    let mut g = board(rows, "Ka1 kj10 pb5", SnipeOptions::default(), Color::Black);
    assert_eq!(g.free_neighbours(Color::White), Some(1));
    let events = play(&mut g, "pb5-b1");
    let outcome = g.to_act().outcome().cloned().unwrap();
    assert_eq!(outcome.winners(), [Seat(1)]);
    assert_eq!(
        events.last().unwrap(),
        "Game over: Black won by trapping the king"
    );
}

#[test]
fn trapping_both_kings_at_once_wins_for_the_mover_and_trapping_your_own_loses() {
    let mut rows = [OPEN; 10];
    rows[8] = "T.T.......";
    rows[9] = "...T......";
    let mut g = board(rows, "Ka1 kc1 Pb5", SnipeOptions::default(), Color::White);
    play(&mut g, "Pb5-b1");
    let outcome = g.to_act().outcome().cloned().unwrap();
    assert_eq!(outcome.winners(), [Seat(0)]);
    assert_eq!(outcome.reason, "trapping both kings at once");
    rows[9] = OPEN;
    let mut g = board(rows, "Ka1 kc1 Pb5", SnipeOptions::default(), Color::White);
    play(&mut g, "Pb5-b1");
    let outcome = g.to_act().outcome().cloned().unwrap();
    assert_eq!(outcome.winners(), [Seat(1)], "White walled in its own king");
}

#[test]
fn a_rotation_that_traps_a_king_ends_the_game_after_the_turn() {
    // The black king on i10 breathes only through h10; a quarter turn of card g9 puts the
    // tree from g10 there.
    let mut rows = [OPEN; 10];
    rows[0] = "......T..T";
    rows[1] = "........T.";
    rows[6] = ".......R..";
    let mut g = board(rows, "Kh1 ki10", SnipeOptions::default(), Color::White);
    assert_eq!(g.free_neighbours(Color::Black), Some(1));
    play(&mut g, "Kh1-h4");
    play(&mut g, "rotate g9 cw");
    assert_eq!(g.space(sq("h10")), Some(Space::Tree));
    assert_eq!(
        g.to_act(),
        ToAct::one(Seat(0)),
        "not yet: the king may turn more cards"
    );
    assert!(g.trapped(Color::Black));
    play(&mut g, "done");
    assert_eq!(g.to_act().outcome().unwrap().winners(), [Seat(0)]);
}

fn last_chance() -> SnipeOptions {
    SnipeOptions {
        last_chance: true,
        ..SnipeOptions::default()
    }
}

#[test]
fn the_last_chance_option_lets_a_trapped_king_be_freed_once() {
    let mut rows = [OPEN; 10];
    rows[5] = "....R.....";
    rows[8] = "T.........";
    let mut g = board(rows, "Ka1 Pe1 kj10 pb5 pa8", last_chance(), Color::Black);
    let events = play(&mut g, "pb5-b1");
    assert!(events.last().unwrap().contains("last chance"), "{events:?}");
    assert_eq!(g.turns, 1, "the trapping turn counts");
    assert_eq!(g.to_act(), ToAct::one(Seat(0)));
    assert_eq!(texts(&g), ["Pe1-e5"], "only a pawn onto a rotation space");
    assert_eq!(refused(&g, "Pe1-e3"), "e3 is not a rotation space");
    play(&mut g, "Pe1-e5");
    assert_eq!(
        g.view(Viewer::Spectator).status,
        "White must turn a card so that the king is free again"
    );
    assert_eq!(
        texts(&g),
        ["rotate a1 cw", "rotate a1 ccw"],
        "only turns that free the king"
    );
    assert_eq!(
        refused(&g, "done"),
        "your king is still trapped: a rotation that frees it must be taken"
    );
    assert_eq!(
        refused(&g, "rotate c1 cw"),
        "that turn does not free your king; choose one that does"
    );
    play(&mut g, "rotate a1 cw");
    assert_eq!(piece_at(&g, "a2"), Some((Color::White, Role::King)));
    assert_eq!(g.turns, 2, "and so does the last chance");
    assert_eq!(g.to_act(), ToAct::one(Seat(1)), "the game goes on");
    // Trapped again: no second chance.
    assert_eq!(g.free_neighbours(Color::White), Some(1));
    play(&mut g, "pa8-a3");
    assert_eq!(g.to_act().outcome().unwrap().winners(), [Seat(1)]);
}

#[test]
fn the_last_chance_is_lost_without_a_pawn_route_or_a_freeing_turn() {
    let mut rows = [OPEN; 10];
    rows[8] = "T.........";
    let mut g = board(rows, "Ka1 Pe1 kj10 pb5", last_chance(), Color::Black);
    play(&mut g, "pb5-b1");
    let outcome = g.to_act().outcome().cloned().unwrap();
    assert_eq!(outcome.winners(), [Seat(1)]);
    assert_eq!(
        outcome.reason,
        "trapping the king (no pawn could reach a rotation space)"
    );

    // The king on a1 is walled in whichever way its card turns.
    let mut rows = [OPEN; 10];
    rows[5] = "....R.....";
    rows[7] = "TT........";
    rows[8] = "T.T.......";
    rows[9] = ".TT.......";
    let mut g = board(rows, "Ka1 Pe1 kj10", last_chance(), Color::Black);
    assert!(g.trapped(Color::White));
    play(&mut g, "kj10-j9");
    play(&mut g, "Pe1-e5");
    let outcome = g.to_act().outcome().cloned().unwrap();
    assert_eq!(
        outcome.reason,
        "trapping the king (no rotation could free it)"
    );
    assert_eq!(outcome.winners(), [Seat(1)]);
}

#[test]
fn a_last_chance_move_that_closes_in_the_other_king_too_wins() {
    // White's king on a1 cannot be freed by any turn of a card; the pawn's move onto i10 closes
    // in the black king on j10 as well: one turn, both kings, the mover wins.
    let mut rows = [OPEN; 10];
    rows[0] = "........R.";
    rows[1] = ".........T";
    rows[7] = "TT........";
    rows[8] = "T.T.......";
    rows[9] = ".TT.......";
    let mut g = board(rows, "Ka1 Pi1 kj10 pe10", last_chance(), Color::Black);
    play(&mut g, "pe10-e9");
    assert_eq!(texts(&g), ["Pi1-i10"]);
    play(&mut g, "Pi1-i10");
    let outcome = g.to_act().outcome().cloned().unwrap();
    assert_eq!(outcome.winners(), [Seat(0)]);
    assert_eq!(outcome.reason, "trapping both kings at once");
}

#[test]
fn without_the_option_a_trapped_king_loses_at_once() {
    let mut rows = [OPEN; 10];
    rows[5] = "....R.....";
    rows[8] = "T.........";
    let mut g = board(
        rows,
        "Ka1 Pe1 kj10 pb5",
        SnipeOptions::default(),
        Color::Black,
    );
    play(&mut g, "pb5-b1");
    assert_eq!(g.to_act().outcome().unwrap().winners(), [Seat(1)]);
}

fn feather() -> SnipeOptions {
    SnipeOptions {
        feather: true,
        ..SnipeOptions::default()
    }
}

#[test]
fn the_feather_option_lets_a_king_replace_an_empty_card() {
    let mut rows = [OPEN; 10];
    rows[6] = "..S.......";
    let mut g = board(rows, "Kc1 Pa5 kj10", feather(), Color::White);
    let unused = g.stock.clone();
    assert_eq!(unused.len(), 8);
    play(&mut g, "Kc1-c4");
    assert_eq!(g.phase, Phase::Feather);
    let name = |c: u8| forest()[usize::from(c)].name.clone();
    let legal = texts(&g);
    assert_eq!(
        legal.len(),
        (25 - 3) * 8 + 1,
        "every empty card (not c3, a5, i9) with every unused card, or done"
    );
    assert_eq!(
        refused(&g, &format!("replace c4 with {}", name(unused[0]))),
        "the card at c3 has a piece on it; only an empty card may be replaced"
    );
    let dealt = g.card(CardAt { cx: 2, cy: 2 }).card;
    assert_eq!(
        refused(&g, &format!("replace a1 with {}", name(dealt))),
        "that card is not among the unused cards"
    );
    let old = g.card(CardAt { cx: 0, cy: 0 }).card;
    play(
        &mut g,
        &format!("replace a1 with {}", name(unused[0]).to_lowercase()),
    );
    assert_eq!(g.card(CardAt { cx: 0, cy: 0 }).card, unused[0]);
    assert_eq!(
        g.card(CardAt { cx: 0, cy: 0 }).spaces,
        forest()[usize::from(unused[0])].spaces
    );
    assert!(g.stock.contains(&old) && !g.stock.contains(&unused[0]));
    assert_eq!(g.to_act(), ToAct::one(Seat(1)));

    // A pawn on a feather, or the option off: nothing happens.
    let mut g = board(rows, "Kc1 Pa4 kj10", feather(), Color::White);
    play(&mut g, "Pa4-c4");
    assert_eq!(g.phase, Phase::Move);
    let mut g = board(rows, "Kc1 kj10", SnipeOptions::default(), Color::White);
    play(&mut g, "Kc1-c4");
    assert_eq!(g.to_act(), ToAct::one(Seat(1)));
}

#[test]
fn a_feather_turn_may_end_without_replacing() {
    let mut rows = [OPEN; 10];
    rows[6] = "..S.......";
    let mut g = board(rows, "Kc1 kj10", feather(), Color::White);
    let before = g.forest;
    play(&mut g, "Kc1-c4");
    play(&mut g, "done");
    assert_eq!(g.forest, before);
    assert_eq!(g.to_act(), ToAct::one(Seat(1)));
}

// ---- draws ----

#[test]
fn threefold_repetition_and_the_turn_limit_draw() {
    let mut g = open_forest("Ke1 ke10");
    for _ in 0..2 {
        for text in ["Ke1-e2", "ke10-e9", "Ke2-e1", "ke9-e10"] {
            assert!(g.to_act().outcome().is_none());
            play(&mut g, text);
        }
    }
    assert_eq!(g.to_act().outcome().unwrap().reason, "threefold repetition");

    let mut g = open_forest("Ke1 ke10");
    g.turns = TURN_LIMIT - 1;
    play(&mut g, "Ke1-e5");
    let outcome = g.to_act().outcome().cloned().unwrap();
    assert!(outcome.is_draw());
    assert_eq!(outcome.reason, format!("reaching {TURN_LIMIT} turns"));
}

#[test]
fn a_card_turned_to_look_the_same_is_the_same_position() {
    let mut rows = [OPEN; 10];
    rows[4] = "T.........";
    let mut g = board(rows, "Ke1 ke10", SnipeOptions::default(), Color::White);
    let before = g.position_key();
    g.rotate(CardAt { cx: 2, cy: 2 }, Turn::Clockwise);
    assert_eq!(
        g.position_key(),
        before,
        "an empty open card looks the same turned"
    );
    g.rotate(CardAt { cx: 0, cy: 2 }, Turn::Clockwise);
    assert_ne!(g.position_key(), before, "a tree moved");
    let mut f = board(rows, "Ke1 ke10", feather(), Color::White);
    let before = f.position_key();
    f.forest[2][2].card = f.stock[0];
    assert_ne!(
        f.position_key(),
        before,
        "under the feather rule which card lies where matters"
    );
}

// ---- notation ----

#[test]
fn actions_read_leniently_and_refuse_precisely() {
    let g = open_forest("Ke1 Pc3 ke10");
    let read = |t: &str| g.format_action(&g.parse_action(Seat(0), t).unwrap());
    for text in [
        "Ke1-e4",
        "ke1 e4",
        "K e1 to e4",
        "e1-e4",
        "king e1 e4",
        "E1>E4",
    ] {
        assert_eq!(read(text), "Ke1-e4", "{text}");
    }
    assert_eq!(
        g.parse_action(Seat(0), "").unwrap_err().reason,
        format!("say what to do; {}", notation::FORMS)
    );
    assert_eq!(
        g.parse_action(Seat(0), "hello").unwrap_err().reason,
        notation::FORMS
    );
    assert_eq!(
        g.parse_action(Seat(1), "ke10-e9").unwrap_err().reason,
        "it is not your turn"
    );
    assert_eq!(
        g.parse_action(Seat(0), "rotate c3 sideways")
            .unwrap_err()
            .reason,
        "\"sideways\" is not a way to turn: cw, ccw or 180"
    );
    assert_eq!(
        g.parse_action(Seat(0), "rotate Nowhere cw")
            .unwrap_err()
            .reason,
        "no card in the forest is called or stands on \"nowhere\""
    );
    assert_eq!(
        g.parse_action(Seat(0), "rotate c3 cw").unwrap_err().reason,
        "move a piece: write Kc1-c4"
    );
    assert_eq!(
        g.parse_action(Seat(0), "Ke1-k1").unwrap_err().reason,
        "k1 is off the board: files a to j, ranks 1 to 10"
    );
    assert_eq!(
        g.parse_action(Seat(0), "rotate k5 cw").unwrap_err().reason,
        "k5 is off the board: files a to j, ranks 1 to 10"
    );
    assert_eq!(
        g.parse_action(Seat(0), "rotate c3").unwrap_err().reason,
        "say which way: rotate c3 cw or rotate c3 ccw"
    );
    assert_eq!(
        g.parse_action(Seat(0), "replace c3 with Deep Woods")
            .unwrap_err()
            .reason,
        "the Deep Woods is set aside in Snipe Chess; choose one of the unused cards"
    );
    assert_eq!(
        g.parse_action(Seat(0), "replace c3 with Nowhere")
            .unwrap_err()
            .reason,
        "there is no card called \"nowhere\""
    );
    // A card may be named by its name.
    let mut rows = [OPEN; 10];
    rows[4] = "....R.....";
    let mut g = board(rows, "Pe3 Ka1 kj10", SnipeOptions::default(), Color::White);
    play(&mut g, "Pe3-e6");
    let name = g.card(CardAt { cx: 1, cy: 1 }).name().to_string();
    assert_eq!(
        g.format_action(
            &g.parse_action(Seat(0), &format!("turn {name} left"))
                .unwrap()
        ),
        "rotate c3 ccw"
    );
    let name = g.card(CardAt { cx: 1, cy: 1 }).name().replace('\'', "");
    assert_eq!(
        g.format_action(
            &g.parse_action(Seat(0), &format!("turn {name} counter-clockwise"))
                .unwrap()
        ),
        "rotate c3 ccw",
        "apostrophes may be left out"
    );
    // On a 180 space the direction may go unsaid.
    let mut rows = [OPEN; 10];
    rows[4] = "....U.....";
    let mut g = board(rows, "Pe3 Ka1 kj10", SnipeOptions::default(), Color::White);
    play(&mut g, "Pe3-e6");
    assert_eq!(
        g.format_action(&g.parse_action(Seat(0), "rotate c3").unwrap()),
        "rotate c3 180"
    );
}
