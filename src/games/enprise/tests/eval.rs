//! The evaluation a computer player's cut playouts use: material, threats, king safety, and
//! the places of those already out.

use super::*;

fn sum(v: &[f64]) -> f64 {
    v.iter().sum()
}

#[test]
fn an_extra_queen_and_a_free_king_rate_higher() {
    let g = position(
        2,
        open(),
        &[
            ". . . . .", //
            "wK . wQ . bK",
            ". . . . .",
        ],
        &["PP", "PP"],
    );
    let c = g.evaluate().unwrap();
    assert!(c[0] > 0.8, "{c:?}");
    assert!((sum(&c) - 1.0).abs() < 1e-9, "{c:?}");
}

#[test]
fn a_piece_an_opponent_attacks_counts_for_less() {
    // Black's rook on 4,0 attacks White's rook on 2,0, unless a white pawn stands between.
    let rows = |bottom: &'static str| ["wK . - . bK", ". . - . .", bottom];
    let attacked = position(2, open(), &rows(". . wR . bR"), &["PP", "PP"]);
    let safe = position(2, open(), &rows(". . wR wP bR"), &["PP", "PP"]);
    let a = attacked.evaluate().unwrap()[0];
    let s = safe.evaluate().unwrap()[0];
    assert!(s > a, "safe {s} attacked {a}");
}

#[test]
fn a_king_in_check_with_no_flight_is_nearly_lost() {
    // With three players the mate waits for White's turn, so the game goes on meanwhile.
    let mut g = mate_in_one(3);
    g.current = Seat(1);
    let mut mated = g.clone();
    play(&mut mated, Seat(1), "N 3,3 to 1,2");
    let before = g.evaluate().unwrap()[0];
    let after = mated.evaluate().unwrap()[0];
    assert!(after < before, "before {before} after {after}");
}

#[test]
fn seats_already_out_keep_their_place_and_the_rest_share_the_others() {
    let mut g = with_kings(
        position(
            4,
            open(),
            &[". . . . .", "wK . wQ . bK", ". . . . ."],
            &["PP", "PP", "PP", "PP"],
        ),
        4,
    );
    g.alive[3] = false;
    g.eliminated.push(Elimination {
        seat: Seat(3),
        out: Out::Stalemate,
    });
    let c = g.evaluate().unwrap();
    assert_eq!(c[3], 0.0, "{c:?}");
    // The places left are worth 1, 2/3 and 1/3: two in all.
    assert!((sum(&c) - 2.0).abs() < 1e-9, "{c:?}");
    assert!(c[0] > c[1] && c[0] > c[2], "{c:?}");
    assert!(c.iter().all(|v| (0.0..=1.0).contains(v)), "{c:?}");
}

#[test]
fn partners_share_their_team_chances() {
    let opts = EnPriseOptions {
        alliance: true,
        ..open()
    };
    let g = with_kings(
        position(
            4,
            opts,
            &[". . . . .", "wK . wQ . bK", ". . . . ."],
            &["PP"; 4],
        ),
        4,
    );
    let c = g.evaluate().unwrap();
    assert_eq!(c[0], c[2], "{c:?}");
    assert_eq!(c[1], c[3], "{c:?}");
    assert!(c[0] > c[1], "{c:?}");
}

#[test]
fn a_finished_game_rates_as_its_places() {
    let mut g = mate_in_one(2);
    g.current = Seat(1);
    play(&mut g, Seat(1), "N 3,3 to 1,2");
    let Phase::Over(outcome) = &g.phase else {
        panic!("not over: {:?}", g.phase);
    };
    assert_eq!(outcome.places[0], vec![Seat(1)]);
    assert_eq!(g.evaluate().unwrap(), vec![0.0, 1.0]);
}
