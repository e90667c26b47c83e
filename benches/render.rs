//! Render + PNG encode time at 768 px, for the start position and a middlegame.

use criterion::{Criterion, criterion_group, criterion_main};
use deckmate::engine::{GameRng, Seat, Viewer};
use deckmate::games::{AnyView, GameKind};
use deckmate::render::render;
use std::hint::black_box;

fn view_after(moves: &[&str]) -> AnyView {
    let mut rng = GameRng::from_seed(1);
    let mut game = GameKind::Chess.start(&[], 2, &mut rng).unwrap();
    for (i, m) in moves.iter().enumerate() {
        game.play(Seat((i % 2) as u8), m, &mut rng).unwrap();
    }
    game.view(Viewer::Spectator)
}

fn bench(c: &mut Criterion) {
    let start = view_after(&[]);
    let middlegame = view_after(&[
        "e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4", "Nf6", "O-O", "Be7", "Re1", "b5", "Bb3",
        "d6", "c3", "O-O", "h3", "Nb8", "d4", "Nbd7",
    ]);
    for (name, view) in [("start", &start), ("middlegame", &middlegame)] {
        println!("PNG size, {name}: {} bytes", render(view).len());
        c.bench_function(&format!("render+encode 768px {name}"), |b| {
            b.iter(|| render(black_box(view)))
        });
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
