//! Twenty-odd published mate-in-two problems (White to play and mate in two), each first
//! proven by a brute force that shares only the move generator with the engine, then solved by
//! the engine at a fixed depth, so no clock is needed.

use super::*;
use std::time::Instant;

/// (FEN, the published key in UCI).
const PROBLEMS: [(&str, &str); 23] = [
    // P. Morphy: the rook sacrifice that frees b7 for the pawn.
    ("kbK5/pp6/1P6/8/8/8/8/R7 w - - 0 1", "a1a6"),
    ("4k3/R6R/8/K1p5/1p1N4/p1n5/5rb1/b7 w - - 0 1", "d4f3"),
    (
        "r1bq3r/pp1pB1pp/3R1p2/k2P4/2Q5/8/P4PPP/R5K1 w - - 0 1",
        "d6a6",
    ),
    (
        "8/npN5/1pb2R2/4pp2/2Bpk2p/3Np1Pr/K3P3/4b2n w - - 0 1",
        "d3c5",
    ),
    ("3k4/2R1N3/3NP3/nb1P2n1/8/2B1r3/1K6/4q3 w - - 0 1", "c7c8"),
    ("3b2rk/5Qn1/5nR1/8/8/8/8/7K w - - 0 1", "f7f6"),
    ("8/3Nr1b1/1Q5p/p2b2p1/P1k2n2/8/3K4/3N1q2 w - - 0 1", "d7e5"),
    (
        "Bq6/4n2b/p2P4/R4p2/2pk1B2/2pp2PK/Pr5N/nQ5r w - - 0 1",
        "b1g1",
    ),
    (
        "2B3q1/2b2p2/7n/3kpn2/1P5Q/2p1B1p1/2P2P2/6K1 w - - 0 1",
        "h4e4",
    ),
    ("8/2B1p1n1/2p1b3/8/K2kpN2/p3Np2/2Qp1q2/8 w - - 0 1", "c2c3"),
    ("3n4/p7/3k1N2/PbnPp3/q1p5/2K3N1/3P1Q2/8 w - - 0 1", "f2c5"),
    ("2R3nK/3B4/R4B1p/1N1k1b2/Q4q1r/4r3/2Pn4/8 w - - 0 1", "a4e4"),
    (
        "4Q3/1n2p3/pP2P1N1/P2k2P1/4N2K/1p2p3/2P1Brq1/8 w - - 0 1",
        "e8c6",
    ),
    ("8/3p1K1p/Q7/2PR4/2brk3/4p1B1/4P3/7q w - - 0 1", "a6e6"),
    (
        "4r3/1N3p2/1p2q3/3p1bP1/3k1N1R/PPRP4/rp2QP1B/n3K3 w - - 0 1",
        "e2e5",
    ),
    (
        "4NQ2/Kp5r/6b1/1P1kb3/N3R3/2p1p1P1/q1P3P1/n7 w - - 0 1",
        "f8d6",
    ),
    (
        "r4nk1/p4rbR/3q1p2/2pNp3/2B1P1Q1/P6P/1PP3P1/6K1 w - - 0 1",
        "g4g7",
    ),
    // Castling long is the key.
    ("4k2r/n1p2p1p/1pp2B2/2p1p2p/8/8/8/R3K2B w Qk - 0 1", "e1c1"),
    (
        "4Q2r/rb4pk/2n4p/1p4p1/1qn5/8/PPP2PP1/2KR3R w - - 0 1",
        "h1h6",
    ),
    (
        "3r4/p1p4p/1pb3pk/4R3/2P3B1/2Q3PP/P2q1P2/6K1 w - - 0 1",
        "e5h5",
    ),
    (
        "3r1k2/1p2p1b1/p5p1/q2B3R/3B1PP1/8/PPP5/2K4R w - - 0 1",
        "h5h8",
    ),
    ("2Qrkr2/5p2/5R2/4p3/8/8/8/7K w - - 0 1", "f6e6"),
    (
        "1k1r3r/2p1qppp/1pB2b2/p1pP1b2/4p3/4P2P/PPP3P1/1K1R1Q1R w - - 0 1",
        "f1a6",
    ),
];

/// The depth the engine gets: three plies of the solution, plus one to see the mate.
const DEPTH: u32 = 4;

fn key_move(pos: &Position, uci: &str) -> crate::games::chess::Move {
    let mv = crate::games::chess::Move::parse_uci(uci).expect("a UCI move");
    assert!(pos.is_legal(mv), "{uci} is not legal in {}", pos.fen());
    mv
}

#[test]
fn every_problem_is_a_mate_in_two_with_its_key() {
    for (fen, key) in PROBLEMS {
        let pos = position(fen);
        assert_eq!(pos.turn(), Color::White, "{fen}");
        assert!(!forces_mate(&pos, 1), "{fen} has a mate in one");
        assert!(
            mates_after(&pos, key_move(&pos, key), 2),
            "{key} does not mate in two in {fen}"
        );
    }
}

#[test]
fn the_engine_finds_the_mate_in_every_problem() {
    let mut slowest = 0.0f64;
    for (fen, key) in PROBLEMS {
        let pos = position(fen);
        let started = Instant::now();
        let report = search_depth(&pos, DEPTH);
        let seconds = started.elapsed().as_secs_f64();
        slowest = slowest.max(seconds);
        println!(
            "{fen}: {} (key {key}) {:?} in {} nodes, {seconds:.3} s",
            report.best, report.score, report.nodes
        );
        assert_eq!(report.score, Score::Mate(2), "{fen}: {report:?}");
        assert!(
            mates_after(&pos, report.best, 2),
            "{fen}: {} does not mate in two",
            report.best
        );
    }
    println!("slowest: {slowest:.3} s");
}
