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

fn refused(g: &Echek, text: &str) -> String {
    testing::refusal(g, seat(g.turn), text)
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
        "a piece may not be put on a side square of the opposing king"
    );
    assert_eq!(refused(&g, "N@2,0"), "2,0 does not touch a piece of yours");
    assert_eq!(refused(&g, "N@0,1"), "0,1 is occupied");
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
        "your pieces must stay in one group, touching by sides or corners"
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
    assert!(refused(&g, "R 0,0 to 2,0").contains("never past the opponent's pieces"));
    // Knights jump anything.
    let g = position(&["n k .", "K N ."], (0, 0), Color::White);
    assert!(
        texts(&g).contains(&"N 1,0 to -1,1".to_string()),
        "{:?}",
        texts(&g)
    );
    assert_eq!(
        refused(&g, "K 0,0 to 0,1"),
        "0,1 is occupied; pieces never capture"
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
    assert!(refused(&g, "B@2,0 return 1,0").contains("both colours must stay in one group"));
    assert_eq!(
        refused(&g, "B@2,0"),
        "the bishop must send a piece back to its supply: add return x,y"
    );
    assert!(refused(&g, "B@2,0 return 0,1").contains("cannot go back"));
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
    assert!(refused(&g, "N@2,1 to 2,2").contains("only a pawn moves as it comes into play"));
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
        "Game over: White won by surrounding the king"
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
        "Game over: Black won by surrounding both kings at once"
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
        "Game over: Draw by fifty turns each without a piece put in play"
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
        "the knight on -1,-1 cannot reach 0,-1 (the knight's L)"
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
