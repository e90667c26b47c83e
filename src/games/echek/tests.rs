use super::*;
use crate::engine::testing::{self, Config, check_game};

#[test]
fn random_games_keep_the_contract() {
    let mut config = Config::<Echek>::new(EchekOptions::default(), 2, 0..20);
    config.actions_checked_per_state = 8;
    let report = check_game(&config);
    assert_eq!(report.games, 20);
}

/// A position from rows (top row first; the bottom-left token is at `origin`): `.` empty,
/// upper-case letters White's pieces, lower-case Black's. Supplies hold what is not on the board.
fn position(rows: &[&str], origin: (i16, i16), turn: Color) -> Echek {
    let mut g = Echek::new(&EchekOptions::default(), 2, &mut GameRng::from_seed(1)).unwrap();
    g.pieces.clear();
    let height = rows.len() as i16;
    for (r, row) in rows.iter().enumerate() {
        for (x, c) in row.split_whitespace().enumerate() {
            let c = c.chars().next().unwrap();
            if c == '.' {
                continue;
            }
            let color = if c.is_ascii_uppercase() {
                Color::White
            } else {
                Color::Black
            };
            let role = Role::from_letter(c.to_ascii_uppercase()).unwrap();
            let at = Sq::new(origin.0 + x as i16, origin.1 + height - 1 - r as i16);
            g.pieces.insert(at, Piece { color, role });
            let supply = &mut g.supply[color.index()];
            if let Some(i) = supply.iter().position(|&s| s == role) {
                supply.remove(i);
            }
        }
    }
    g.turn = turn;
    g.history = vec![g.position_key()];
    g
}

fn sq(x: i16, y: i16) -> Sq {
    Sq::new(x, y)
}

fn seat(c: Color) -> Seat {
    seat_of(c)
}

fn play(g: &mut Echek, text: &str) -> Vec<String> {
    testing::play_text(g, seat(g.turn), text)
}

/// Why `text`, read as an action, is refused now (the state unchanged).
fn refused(g: &Echek, text: &str) -> String {
    let reason = testing::refusal(g, seat(g.turn), text);
    let understood = g.parse_action(seat(g.turn), text).unwrap_err().understood;
    assert!(understood, "{text} should be read, then refused: {reason}");
    reason
}

/// Why `text` cannot be read as an action at all.
fn unreadable(g: &Echek, text: &str) -> String {
    let reason = testing::refusal(g, seat(g.turn), text);
    let understood = g.parse_action(seat(g.turn), text).unwrap_err().understood;
    assert!(!understood, "{text} should not be read: {reason}");
    reason
}

fn texts(g: &Echek) -> Vec<String> {
    testing::legal_texts(g, seat(g.turn))
}

#[test]
fn the_kings_start_face_to_face_and_white_puts_a_piece_next_to_its_own() {
    let g = Echek::new(&EchekOptions::default(), 2, &mut GameRng::from_seed(1)).unwrap();
    assert_eq!(
        g.pieces[&sq(0, 0)],
        Piece {
            color: Color::White,
            role: Role::King
        }
    );
    assert_eq!(
        g.pieces[&sq(0, 1)],
        Piece {
            color: Color::Black,
            role: Role::King
        }
    );
    assert_eq!(g.to_act(), ToAct::one(Seat(0)));
    assert_eq!(g.supply(Color::White), &SUPPLY);
    // Beside the black king (-1,1 and 1,1) is forbidden; 0,-1, -1,0, 1,0, -1,-1, 1,-1 remain.
    let knights: Vec<String> = texts(&g)
        .into_iter()
        .filter(|t| t.starts_with("N@"))
        .collect();
    assert_eq!(
        knights,
        vec!["N@-1,-1", "N@-1,0", "N@0,-1", "N@1,-1", "N@1,0"]
    );
    assert_eq!(
        refused(&g, "N@1,1"),
        "1,1 is beside the black king: no piece may be put above, below, left or right of the \
         opposing king"
    );
    assert_eq!(
        refused(&g, "N@2,0"),
        "2,0 does not touch a piece of yours (by a side or a corner)"
    );
    assert_eq!(refused(&g, "N@0,1"), "the black king stands on 0,1");
    // The king may step, but never apart from its group... it is alone, so anywhere free.
    assert!(texts(&g).contains(&"K 0,0 to 1,0".to_string()));
    assert!(
        !texts(&g).contains(&"swap".to_string()),
        "no rook in play yet"
    );
}

#[test]
fn every_piece_stays_within_one_floating_4x4_window() {
    // White's pieces span x = 0..3: nothing may go to x = 4 or x = -1.
    let g = position(&["k . . .", "K Q N R"], (0, 0), Color::White);
    assert!(
        !texts(&g)
            .iter()
            .any(|t| t.contains("@4,") || t.contains("@-1,")),
        "{:?}",
        texts(&g)
    );
    assert_eq!(
        refused(&g, "K 0,0 to -1,0"),
        "that would leave the 4x4 limit"
    );
    assert!(texts(&g).contains(&"R 3,0 to 3,1".to_string()));
    // The window floats: with the pieces on x = 0..1 it may shift left or right.
    let g = position(&["k .", "K Q"], (0, 0), Color::White);
    assert_eq!(area(&g.pieces), (sq(-2, -2), sq(3, 3)));
    assert!(texts(&g).contains(&"N@-1,0".to_string()) && texts(&g).contains(&"N@2,0".to_string()));
}

#[test]
fn each_colour_stays_one_group() {
    // The white queen links king and rook; moving it away would split them.
    let g = position(&["k . . .", "K Q R ."], (0, 0), Color::White);
    assert_eq!(
        refused(&g, "Q 1,0 to 1,-2"),
        "that would split your group: your pieces must keep touching, by a side or a corner"
    );
    // A corner contact is enough.
    assert!(texts(&g).contains(&"R 2,0 to 2,-1".to_string()));
}

#[test]
fn sliders_pass_their_own_pieces_but_never_the_opponents() {
    let g = position(&["k . . .", "R K . .", ". . . ."], (0, -1), Color::White);
    // The rook on 0,0 slides right over its own king to 2,0 and 3,0.
    assert!(texts(&g).contains(&"R 0,0 to 2,0".to_string()));
    let g = position(&[". . . .", "R k . .", "K . . ."], (0, -1), Color::White);
    assert!(!texts(&g).contains(&"R 0,0 to 2,0".to_string()));
    assert_eq!(
        refused(&g, "R 0,0 to 2,0"),
        "the black king on 1,0 is in the way; pieces slide past their own colour only"
    );
    // Knights jump anything.
    let g = position(&["n k .", "K N ."], (0, 0), Color::White);
    assert!(
        texts(&g).contains(&"N 1,0 to -1,1".to_string()),
        "{:?}",
        texts(&g)
    );
    assert_eq!(
        refused(&g, "K 0,0 to 0,1"),
        "the black knight stands on 0,1; pieces never capture"
    );
}

#[test]
fn the_rook_swaps_with_the_king_once() {
    let mut g = position(&["k . .", "K R ."], (0, 0), Color::White);
    assert!(texts(&g).contains(&"swap".to_string()));
    let events = play(&mut g, "swap");
    assert_eq!(events[0], "White exchanges rook and king (1,0 and 0,0)");
    assert_eq!(g.pieces[&sq(1, 0)].role, Role::King);
    assert_eq!(g.pieces[&sq(0, 0)].role, Role::Rook);
    play(&mut g, "Q@-1,1");
    assert!(!texts(&g).contains(&"swap".to_string()));
    assert_eq!(
        refused(&g, "swap"),
        "you have already exchanged your rook and king this game"
    );
}

#[test]
fn a_surrounded_queen_leaves_the_game() {
    // A full 4x4 window: beyond it lies the limit. The black knight fills the white queen's
    // last free neighbour.
    let mut g = position(
        &[". . . k", ". . b n", "R . . .", "Q K . ."],
        (0, 0),
        Color::Black,
    );
    assert_eq!(free_neighbours(&g.pieces, sq(0, 0)), 1);
    let events = play(&mut g, "N 3,2 to 1,1");
    assert_eq!(
        events[1],
        "The white queen on 0,0 is surrounded and leaves the game"
    );
    assert!(!g.pieces.contains_key(&sq(0, 0)));
    assert!(
        !g.supply(Color::White).contains(&Role::Queen),
        "gone for good, not to the supply"
    );
    assert!(g.outcome.is_none());
}

#[test]
fn the_bishop_sends_a_piece_back_and_the_pawn_steps_as_it_arrives() {
    let mut g = position(&["k n .", "K Q ."], (0, 0), Color::White);
    let bishops: Vec<String> = texts(&g)
        .into_iter()
        .filter(|t| t.starts_with("B@2,0"))
        .collect();
    // The black knight may go back; White's queen may not (it links king and bishop), nor a king.
    assert_eq!(bishops, vec!["B@2,0 return 1,1"]);
    assert_eq!(
        refused(&g, "B@2,0 return 1,0"),
        "sending back the white queen on 1,0 would split your group"
    );
    assert_eq!(
        refused(&g, "B@2,0"),
        "the bishop must send a piece back to its owner's supply: for example B@2,0 return 1,1"
    );
    assert_eq!(refused(&g, "B@2,0 return 0,1"), "a king is never sent back");
    assert_eq!(
        refused(&g, "B@2,0 return 2,0"),
        "the bishop cannot send itself back"
    );
    assert_eq!(
        refused(&g, "B@2,0 return 2,1"),
        "there is no piece on 2,1 to send back"
    );
    let events = play(&mut g, "B@2,0 return 1,1");
    assert_eq!(
        events[0],
        "White puts a bishop on 2,0 and sends the black knight on 1,1 back to its supply"
    );
    assert!(g.supply(Color::Black).contains(&Role::Knight));
    // A pawn may step at once, as part of the same turn.
    let pawn: Vec<String> = texts(&g)
        .into_iter()
        .filter(|t| t.starts_with("P@-1,1"))
        .collect();
    assert!(
        pawn.contains(&"P@-1,1".to_string()) && pawn.contains(&"P@-1,1 to -1,2".to_string()),
        "{pawn:?}"
    );
    play(&mut g, "P@-1,1 to -1,2");
    assert_eq!(
        g.pieces[&sq(-1, 2)],
        Piece {
            color: Color::Black,
            role: Role::Pawn
        }
    );
    assert_eq!(
        refused(&g, "N@2,1 to 2,2"),
        "only a pawn moves as it comes into play"
    );
}

#[test]
fn a_surrounded_king_loses_and_surrounding_both_loses_for_the_actor() {
    // The black king in the corner of a full window; the white rook closes its last square.
    let mut g = position(
        &[". . n k", ". . b .", ". B Q .", "K . . R"],
        (0, 0),
        Color::White,
    );
    let events = play(&mut g, "R 3,0 to 3,2");
    assert_eq!(
        events.last().unwrap(),
        "Game over: White won by surrounding Black's king"
    );
    assert_eq!(
        g.to_act(),
        ToAct::Over(Outcome::winner(Seat(0), 2, "surrounding the king"))
    );
    // One pawn step closes both kings in: the player who made it loses.
    let mut g = position(
        &["n b r q", "k p . .", "R . P .", "K Q . ."],
        (0, 0),
        Color::White,
    );
    let events = play(&mut g, "P 2,1 to 1,1");
    assert_eq!(
        events.last().unwrap(),
        "Game over: White surrounded both kings at once and lost"
    );
    assert_eq!(
        g.to_act(),
        ToAct::Over(Outcome::winner(Seat(1), 2, ending::BOTH_KINGS))
    );
    assert!(g.legal_actions(Seat(1)).is_empty());
}

#[test]
fn repetition_and_fifty_quiet_turns_draw() {
    let mut g = position(&["k .", "K ."], (0, 0), Color::White);
    g.supply = [vec![], vec![]];
    g.history = vec![g.position_key()];
    for _ in 0..2 {
        for text in [
            "K 0,0 to 1,0",
            "K 0,1 to -1,1",
            "K 1,0 to 0,0",
            "K -1,1 to 0,1",
        ] {
            assert!(g.outcome.is_none());
            play(&mut g, text);
        }
    }
    assert_eq!(
        g.to_act(),
        ToAct::Over(Outcome::draw(2, "threefold repetition"))
    );

    let mut g = position(&["k .", "K ."], (0, 0), Color::White);
    g.quiet = QUIET_TURNS - 1;
    let events = play(&mut g, "K 0,0 to 1,0");
    assert_eq!(
        events.last().unwrap(),
        "Game over: Draw by fifty turns each without a piece put in play or a queen leaving"
    );
    let mut g = position(&["k .", "K ."], (0, 0), Color::White);
    g.quiet = QUIET_TURNS - 1;
    play(&mut g, "N@1,0");
    assert!(
        g.outcome.is_none(),
        "putting a piece in play starts the count again"
    );
}

#[test]
fn a_player_who_cannot_act_passes() {
    // Found in a random game: every black move would split Black's group or leave the window,
    // both supplies are empty and both rook exchanges are spent. White can still act, so the
    // game goes on.
    let mut g = position(
        &[". k n .", "b B N r", ". R p P", ". . K ."],
        (-2, 0),
        Color::Black,
    );
    g.supply = [vec![], vec![]];
    g.swap_used = [true, true];
    assert_eq!(texts(&g), vec!["pass"]);
    let events = play(&mut g, "pass");
    assert_eq!(events, vec!["Black cannot act and passes"]);
    assert_eq!(g.turn, Color::White);
    assert!(g.outcome.is_none());
    assert!(!texts(&g).contains(&"pass".to_string()));
    assert_eq!(
        refused(&g, "pass"),
        "you may pass only when you can do nothing else"
    );
}

#[test]
fn a_slider_may_cross_further_than_the_window_as_the_window_follows() {
    // The queen leaves the left edge: afterwards every piece spans x = 0..2.
    let g = position(&[". . k .", "Q . K .", ". N . B"], (-2, -1), Color::White);
    assert!(
        texts(&g).contains(&"Q -2,0 to 2,0".to_string()),
        "{:?}",
        texts(&g)
    );
    assert_eq!(
        refused(&g, "N -1,-1 to 0,-1"),
        "a knight moves one square straight and one diagonally, as in chess"
    );
    assert_eq!(refused(&g, "K 0,0 to 0,0"), "the king is already on 0,0");
}

#[test]
fn a_pawn_step_to_a_negative_square_reads_as_that_square() {
    let g = position(&["k .", "K ."], (0, 0), Color::White);
    let put = g.parse_action(Seat(0), "P@-1,0 -1,-1").unwrap();
    assert_eq!(
        put,
        Action::Put {
            role: Role::Pawn,
            at: sq(-1, 0),
            then: Some(sq(-1, -1)),
            back: None
        }
    );
    assert_eq!(g.format_action(&put), "P@-1,0 to -1,-1");
}

// ---- who did what at the end, and warnings before losing moves ----

#[test]
fn a_player_who_closes_in_their_own_king_loses_and_the_result_says_so() {
    // A full window: White's king in the corner keeps one free square, 0,1; the pawn steps
    // onto it. The black king has room.
    let mut g = position(
        &[". . . k", "P . . .", ". Q . .", "K N . ."],
        (0, 0),
        Color::White,
    );
    let step = g.parse_action(Seat(0), "P 0,2 to 0,1").unwrap();
    assert_eq!(
        g.warning(Seat(0), &step).as_deref(),
        Some("this closes in your own king and loses")
    );
    let elsewhere = g.parse_action(Seat(0), "N 1,0 to 2,2").unwrap();
    assert_eq!(
        g.warning(Seat(0), &elsewhere),
        None,
        "a move that loses nothing"
    );
    let events = play(&mut g, "P 0,2 to 0,1");
    assert_eq!(
        events.last().unwrap(),
        "Game over: Black won: White closed in their own king"
    );
    assert_eq!(
        g.to_act(),
        ToAct::Over(Outcome::winner(Seat(1), 2, ending::OWN_KING))
    );
    assert_eq!(
        g.view(Viewer::Spectator).status,
        "Game over: Black won: White closed in their own king"
    );
}

#[test]
fn a_rook_swap_onto_a_closed_in_square_is_legal_warned_and_loses() {
    // The rook's corner is walled in by the knight and the pawn; the king would take it, the
    // rook the king's square.
    let mut g = position(
        &["k . . .", ". . . .", ". . N P", ". . K R"],
        (0, 0),
        Color::White,
    );
    assert!(texts(&g).contains(&"swap".to_string()), "still legal");
    assert_eq!(
        g.warning(Seat(0), &Action::Swap).as_deref(),
        Some("this puts your king on 3,0, closed in on every side, and loses")
    );
    let events = play(&mut g, "swap");
    assert_eq!(
        events.last().unwrap(),
        "Game over: Black won: White closed in their own king"
    );
}

#[test]
fn surrounding_both_kings_is_warned_and_surrounding_the_other_is_not() {
    let g = position(
        &["n b r q", "k p . .", "R . P .", "K Q . ."],
        (0, 0),
        Color::White,
    );
    let both = g.parse_action(Seat(0), "P 2,1 to 1,1").unwrap();
    assert_eq!(
        g.warning(Seat(0), &both).as_deref(),
        Some("this surrounds both kings at once, and the player who does that loses")
    );
    let g = position(
        &[". . n k", ". . b .", ". B Q .", "K . . R"],
        (0, 0),
        Color::White,
    );
    let win = g.parse_action(Seat(0), "R 3,0 to 3,2").unwrap();
    assert_eq!(g.warning(Seat(0), &win), None, "it wins");
    assert_eq!(g.warning(Seat(1), &win), None, "not Black's turn");
}

#[test]
fn every_ending_reads_in_the_games_words() {
    let g = Echek::new(&EchekOptions::default(), 2, &mut GameRng::from_seed(1)).unwrap();
    let cases = [
        (
            Outcome::winner(Seat(0), 2, ending::SURROUNDED),
            "White won by surrounding Black's king",
        ),
        (
            Outcome::winner(Seat(1), 2, ending::OWN_KING),
            "Black won: White closed in their own king",
        ),
        (
            Outcome::winner(Seat(0), 2, ending::BOTH_KINGS),
            "Black surrounded both kings at once and lost",
        ),
        (
            Outcome::draw(2, ending::STUCK),
            "Draw: neither player can act",
        ),
        (
            Outcome::draw(2, ending::REPETITION),
            "Draw by threefold repetition",
        ),
        (
            Outcome::draw(2, ending::QUIET),
            "Draw by fifty turns each without a piece put in play or a queen leaving",
        ),
        (
            Outcome::winner(Seat(1), 2, "resignation"),
            "Black won by resignation",
        ),
        (Outcome::draw(2, "agreement"), "Draw by agreement"),
    ];
    for (outcome, words) in cases {
        assert_eq!(g.describe(&outcome), words);
    }
}

// ---- one reason, the one that applies ----

#[test]
fn a_pawn_step_is_refused_for_the_one_rule_it_breaks() {
    let g = position(&["k .", "K ."], (0, 0), Color::White);
    assert_eq!(
        refused(&g, "P@1,0 to 2,0"),
        "the pawn's step would split your group: your pieces must keep touching, by a side \
         or a corner"
    );
    assert_eq!(
        refused(&g, "P@1,0 to 2,1"),
        "a pawn moves one square up, down, left or right"
    );
    assert_eq!(refused(&g, "P@1,0 to 1,0"), "the pawn is already on 1,0");
    assert_eq!(
        refused(&g, "P@1,0 to 0,0"),
        "the white king stands on 0,0; pieces never capture"
    );
    let g = position(&["k . . .", "K Q N R"], (0, 0), Color::White);
    assert_eq!(
        refused(&g, "P@3,-1 to 4,-1"),
        "the pawn's step would leave the 4x4 limit"
    );
}

#[test]
fn putting_a_piece_names_what_is_missing() {
    let mut g = position(&["k . . .", "K Q N R"], (0, 0), Color::White);
    assert_eq!(refused(&g, "N@0,-1"), "your knight is already in play");
    assert_eq!(
        refused(&g, "K@0,-1"),
        "your king is always in play; put a piece from your supply"
    );
    assert_eq!(
        refused(&g, "Q 1,0 to 3,1"),
        "a queen moves along a row, a column or a diagonal"
    );
    g.pieces.remove(&sq(1, 0));
    assert_eq!(
        refused(&g, "Q@1,-1"),
        "your queen has left the game for good"
    );
    assert_eq!(
        refused(&g, "R 3,0 to 2,1"),
        "a rook moves along a row or a column"
    );
    assert_eq!(
        refused(&g, "K 0,0 to 0,-2"),
        "a king moves one square in any direction"
    );
    assert_eq!(
        refused(&g, "N 2,0 to 2,1"),
        "a knight moves one square straight and one diagonally, as in chess"
    );
    assert_eq!(
        refused(&g, "Q 2,0 to 3,0"),
        "the piece on 2,0 is a knight, not a queen"
    );
    assert_eq!(
        refused(&g, "K 0,1 to 1,1"),
        "the black king on 0,1 is not yours"
    );
    assert_eq!(refused(&g, "K 5,5 to 5,6"), "there is no piece on 5,5");
    assert!(unreadable(&g, "N@1").starts_with("write the square as x,y"));
    assert_eq!(
        g.parse_action(Seat(1), "N@0,2").unwrap_err().to_string(),
        "it is not your turn"
    );
}

// ---- help for players ----

#[test]
fn legal_actions_group_by_piece_and_the_help_is_short_with_real_examples() {
    let g = Echek::new(&EchekOptions::default(), 2, &mut GameRng::from_seed(1)).unwrap();
    let mut groups: Vec<String> = g
        .legal_actions(Seat(0))
        .iter()
        .map(|a| g.action_group(a))
        .collect();
    groups.dedup();
    assert_eq!(
        groups,
        [
            "put queen",
            "put rook",
            "put bishop",
            "put knight",
            "put pawn",
            "king"
        ]
    );
    let g = position(&["k . .", "K R ."], (0, 0), Color::White);
    assert_eq!(g.action_group(&Action::Swap), "swap");
    let rook = g.parse_action(Seat(0), "R 1,0 to 1,-1").unwrap();
    assert_eq!(g.action_group(&rook), "rook");

    let lines: Vec<&str> = Echek::NOTATION.lines().collect();
    assert!((2..=8).contains(&lines.len()), "{lines:?}");
    assert!(lines.iter().all(|l| l.len() < 100), "{lines:?}");
    let start = Echek::new(&EchekOptions::default(), 2, &mut GameRng::from_seed(1)).unwrap();
    // The help's first example is a legal first action.
    assert!(Echek::NOTATION.contains("N@1,-1"));
    start.parse_action(Seat(0), "N@1,-1").unwrap();
}
