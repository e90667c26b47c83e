//! Render + PNG encode time: the 768 px chess board at the start and in a middlegame, and a
//! middle-of-the-game picture of every game (En Prise at each table size), as its spectator
//! sees it.

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

/// The spectator's view of `kind` at `seats` after up to `plies` random legal actions, stopping
/// before the game ends.
fn middle(kind: GameKind, seats: usize, plies: usize) -> AnyView {
    let mut rng = GameRng::from_seed(7);
    let mut game = kind.start(&[], seats, &mut rng).unwrap();
    for _ in 0..plies {
        let Some(&seat) = game.to_act().seats().first() else {
            break;
        };
        let Some(action) = game.random_action(seat, &mut rng) else {
            break;
        };
        let mut next = game.clone();
        next.play(seat, &action, &mut rng).unwrap();
        if next.to_act().seats().is_empty() {
            break;
        }
        game = next;
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
    for kind in GameKind::ALL {
        let sizes: &[usize] = if kind == GameKind::Enprise {
            &[2, 3, 4]
        } else {
            &[2]
        };
        for &seats in sizes {
            let view = middle(kind, seats, 60);
            let name = format!("{}-{seats}p", kind.id());
            println!("PNG size, {name} middle: {} bytes", render(&view).len());
            c.bench_function(&format!("render+encode {name} middle"), |b| {
                b.iter(|| render(black_box(&view)))
            });
        }
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
