//! The search and the levels in play: material, mates, draws, determinism and the levels'
//! differences.

use super::alphabeta::Searcher;
use super::*;
use crate::engine::{Game, GameRng, Seat};
use crate::games::chess::{Chess, ChessOptions, Move};

fn uci(text: &str) -> Move {
    Move::parse_uci(text).expect("a UCI move")
}

#[test]
fn a_hanging_queen_is_taken() {
    let pos = position("rnb1kbnr/pppp1ppp/8/4p1q1/3P4/8/PPP1PPPP/RNBQKBNR w KQkq - 0 3");
    for depth in [1, 2, 3, 4] {
        assert_eq!(search_depth(&pos, depth).best, uci("c1g5"), "depth {depth}");
    }
}

#[test]
fn a_mate_in_one_is_found_at_depth_one_and_not_stalemate() {
    // Qc7 would stalemate; Qc8 mates.
    let pos = position("k7/8/1K6/8/8/8/8/2Q5 w - - 0 1");
    let report = search_depth(&pos, 1);
    assert_eq!(report.score, Score::Mate(1));
    assert_eq!(report.depth, 1);
    assert!(mated(&pos.play_unchecked(report.best)), "{}", report.best);
    assert_eq!(report.pv, vec![report.best]);
}

#[test]
fn a_threatened_mate_in_one_is_parried() {
    // Scholar's mate threatened: Qxf7 would mate.
    let pos = position("r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5Q2/PPPP1PPP/RNB1K1NR b KQkq - 3 3");
    assert!(forces_mate(&pos.play_unchecked(uci("a7a6")), 1));
    for depth in [2, 3, 4] {
        let report = search_depth(&pos, depth);
        let after = pos.play_unchecked(report.best);
        assert!(
            !forces_mate(&after, 1),
            "depth {depth}: {} allows mate",
            report.best
        );
    }
}

#[test]
fn stalemate_scores_zero_and_checkmate_scores_a_mate() {
    let never = || false;
    let stalemate = position("k7/2Q5/1K6/8/8/8/8/8 b - - 0 1");
    assert!(!stalemate.has_legal_move() && !stalemate.in_check());
    let key = stalemate.repetition_key();
    let mut searcher = Searcher::new(&[key], 10, u64::MAX, &never);
    assert_eq!(
        searcher.negamax(&stalemate, key, 3, -INFINITY, INFINITY, 1, true),
        0
    );
    let mate = position("k7/1Q6/1K6/8/8/8/8/8 b - - 0 1");
    assert!(mated(&mate));
    let key = mate.repetition_key();
    let mut searcher = Searcher::new(&[key], 10, u64::MAX, &never);
    assert_eq!(
        searcher.negamax(&mate, key, 3, -INFINITY, INFINITY, 1, true),
        -(MATE - 1)
    );
}

#[test]
fn search_returns_none_without_a_legal_move() {
    let stalemate = position("k7/2Q5/1K6/8/8/8/8/8 b - - 0 1");
    let got = search(&stalemate, &[], &Limits::default(), &|| false, &mut |_| {});
    assert_eq!(got, None);
}

#[test]
fn a_repetition_is_a_draw_the_losing_side_takes() {
    // White is a queen down; Kh2 returns to a position already seen twice in the game's
    // history, which the search must score as a draw and prefer.
    let pos = position("6k1/8/8/8/8/8/q7/7K w - - 10 60");
    let repeat = uci("h1g1");
    let next = pos.play_unchecked(repeat);
    let history = [0x1234, next.repetition_key(), pos.repetition_key()];
    let limits = Limits {
        depth: Some(3),
        nodes: None,
    };
    let report = search(&pos, &history, &limits, &|| false, &mut |_| {}).expect("moves");
    assert_eq!(report.best, repeat);
    assert_eq!(report.score, Score::Centipawns(0));
    // Without that history the same move is just a queen down.
    let fresh = search_depth(&pos, 3);
    assert!(
        matches!(fresh.score, Score::Centipawns(cp) if cp < -500),
        "{fresh:?}"
    );
}

#[test]
fn the_fifty_move_rule_is_a_draw() {
    // A queen up, but the next move that neither captures nor moves a pawn draws by the
    // fifty-move rule: every move here is such a move unless it mates.
    let pos = position("7k/8/8/8/8/8/2Q5/K7 w - - 99 120");
    let report = search_depth(&pos, 3);
    assert_eq!(report.score, Score::Centipawns(0), "{report:?}");
    let fresh = position("7k/8/8/8/8/8/2Q5/K7 w - - 0 120");
    assert!(matches!(search_depth(&fresh, 3).score, Score::Centipawns(cp) if cp > 500));
}

#[test]
fn the_same_search_twice_gives_the_same_report() {
    let pos = position("r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP2BPPP/R2QKB1R w KQ - 0 8");
    let limits = Limits {
        depth: None,
        nodes: Some(20_000),
    };
    let run = || {
        let mut depths = Vec::new();
        let report = search(&pos, &[], &limits, &|| false, &mut |r| depths.push(r.depth));
        (report, depths)
    };
    let (first, depths) = run();
    assert_eq!(run().0, first);
    assert_eq!(depths, (1..=depths.len() as u32).collect::<Vec<_>>());
    assert!(first.is_some_and(|r| pos.is_legal(r.best) && r.pv.first() == Some(&r.best)));
}

#[test]
fn depth_one_completes_even_when_stopped_at_once() {
    let pos = Position::default();
    let mut seen = 0;
    let report =
        search(&pos, &[], &Limits::default(), &|| true, &mut |_| seen += 1).expect("a move");
    assert_eq!((report.depth, seen), (1, 1));
    assert!(pos.is_legal(report.best));
}

#[test]
fn every_level_is_deterministic_for_a_seed() {
    let pos = position("r2qkb1r/ppp2ppp/2n1bn2/3pp3/4P3/2NP1N2/PPP1BPPP/R1BQK2R w KQkq - 2 6");
    let history = [pos.repetition_key()];
    for level in [Level::Easy, Level::Medium] {
        for seed in 0..4 {
            let a = choose(&pos, &history, level, seed, &|| false);
            assert_eq!(
                a,
                choose(&pos, &history, level, seed, &|| false),
                "{level} {seed}"
            );
            assert!(a.is_some_and(|mv| pos.is_legal(mv)));
        }
    }
}

#[test]
fn easy_differs_from_the_full_search_sometimes_and_always_plays_legally() {
    let fens = [
        "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
        "rnbqkb1r/pp2pppp/3p1n2/8/3NP3/8/PPP2PPP/RNBQKB1R w KQkq - 1 5",
        "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP2BPPP/R2QKB1R w KQ - 0 8",
    ];
    let mut differ = 0;
    let mut total = 0;
    for fen in fens {
        let pos = position(fen);
        let strong = search_depth(&pos, 4).best;
        for seed in 0..8 {
            let easy = choose(&pos, &[], Level::Easy, seed, &|| false).expect("a move");
            assert!(pos.is_legal(easy));
            total += 1;
            differ += usize::from(easy != strong);
        }
    }
    assert!(
        differ >= total / 4,
        "easy played the strong move too often: {differ} of {total} differ"
    );
}

#[test]
fn chess_offers_its_own_search_to_the_seat_to_move_only() {
    let mut rng = GameRng::from_seed(1);
    let game = Chess::new(&ChessOptions::default(), 2, &mut rng).expect("a game");
    assert_eq!(game.own_search(Seat(1), Level::Easy, 3, &|| false), None);
    let mv = game
        .own_search(Seat(0), Level::Medium, 3, &|| false)
        .expect("a move");
    assert!(game.position().is_legal(mv));
    // A stopped hard search still answers, from its first depth.
    let hard = game
        .own_search(Seat(0), Level::Hard, 3, &|| true)
        .expect("a move");
    assert!(game.position().is_legal(hard));
}

#[test]
fn the_incremental_key_equals_the_full_key_along_random_games() {
    let mut rng = GameRng::from_seed(7);
    // Positions with en passant chances, castling and promotions.
    let starts = [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    ];
    for fen in starts {
        let mut pos = position(fen);
        let mut key = pos.repetition_key();
        for _ in 0..200 {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            let mv = moves[rng.below(moves.len())];
            let next = pos.play_unchecked(mv);
            key = pos.key_after(key, mv, &next);
            assert_eq!(key, next.repetition_key(), "{} then {mv}", pos.fen());
            assert_eq!(
                key != key_without_ep(&next),
                ep_capture_legal(&next),
                "{}",
                next.fen()
            );
            let (passed, passed_key) = next.pass(key);
            assert_eq!(passed_key, passed.repetition_key());
            pos = next;
        }
    }
}

/// Whether an en passant capture is among the legal moves (when the en passant square counts
/// for repetition, as the key was first written).
fn ep_capture_legal(pos: &Position) -> bool {
    pos.ep_square().is_some_and(|ep| {
        pos.legal_moves().iter().any(|&mv| {
            mv.to == ep
                && matches!(
                    pos.special(mv),
                    crate::games::chess::Special::EnPassant { .. }
                )
        })
    })
}

/// The key of the same position without its en passant square.
fn key_without_ep(pos: &Position) -> u64 {
    let fen = pos.fen();
    let mut fields: Vec<&str> = fen.split(' ').collect();
    fields[3] = "-";
    position(&fields.join(" ")).repetition_key()
}
