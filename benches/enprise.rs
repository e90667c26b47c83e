//! En Prise: a 4-player game played at random to 120 actions, then the cost of listing the
//! legal actions, of replaying the whole log (what the table does on every action), and of
//! drawing the board.

use criterion::{Criterion, criterion_group, criterion_main};
use deckmate::engine::{GameRng, Seat, Viewer};
use deckmate::games::{AnyGame, GameKind};
use deckmate::render::render;
use std::hint::black_box;

/// The game after `plies` random actions, and its log.
fn midgame(plies: usize) -> (AnyGame, Vec<(Seat, String)>) {
    let mut rng = GameRng::from_seed(11);
    let mut chooser = GameRng::from_seed(12);
    let mut game = GameKind::Enprise.start(&[], 4, &mut rng).unwrap();
    let mut log = Vec::new();
    while log.len() < plies {
        let Some(&seat) = game.to_act().seats().first() else {
            break;
        };
        let text = game.random_action(seat, &mut chooser).unwrap();
        game.play(seat, &text, &mut rng).unwrap();
        log.push((seat, text));
    }
    (game, log)
}

fn replay(log: &[(Seat, String)]) -> AnyGame {
    let mut rng = GameRng::from_seed(11);
    let mut game = GameKind::Enprise.start(&[], 4, &mut rng).unwrap();
    for (seat, text) in log {
        game.play(*seat, text, &mut rng).unwrap();
    }
    game
}

fn bench(c: &mut Criterion) {
    let (game, log) = midgame(120);
    let seat = game.to_act().seats()[0];
    println!(
        "after {} actions: {} legal actions for {seat}",
        log.len(),
        game.legal_actions(seat).len()
    );
    c.bench_function("enprise legal actions, 4 players, 120 actions in", |b| {
        b.iter(|| black_box(&game).legal_actions(seat))
    });
    c.bench_function("enprise replay of 120 actions", |b| {
        b.iter(|| replay(black_box(&log)))
    });
    let view = game.view(Viewer::Spectator);
    c.bench_function("enprise render+encode", |b| {
        b.iter(|| render(black_box(&view)))
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
