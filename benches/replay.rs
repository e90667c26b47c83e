//! An animated replay of an 80-move chess game (161 frames at 768 px): views to GIF bytes.

use criterion::{Criterion, criterion_group, criterion_main};
use deckmate::engine::{GameRng, Viewer};
use deckmate::games::{AnyView, GameKind};
use deckmate::render::render_replay;
use std::hint::black_box;

/// The spectator's views of a random legal chess game of 160 plies (a seed whose game lasts).
fn long_game() -> Vec<AnyView> {
    for seed in 1.. {
        let mut rng = GameRng::from_seed(seed);
        let mut game = GameKind::Chess.start(&[], 2, &mut rng).unwrap();
        let mut views = vec![game.view(Viewer::Spectator)];
        while views.len() <= 160 {
            let Some(&seat) = game.to_act().seats().first() else {
                break;
            };
            let legal = game.legal_actions(seat);
            let pick = legal[(rng.next_u64() % legal.len() as u64) as usize].clone();
            game.play(seat, &pick, &mut rng).unwrap();
            views.push(game.view(Viewer::Spectator));
        }
        if views.len() == 161 {
            return views;
        }
    }
    unreachable!("some seed plays 160 plies")
}

fn bench(c: &mut Criterion) {
    let views = long_game();
    println!(
        "GIF size, 80 moves ({} frames): {} bytes",
        views.len(),
        render_replay(&views).len()
    );
    let mut group = c.benchmark_group("replay");
    group.sample_size(10);
    group.bench_function("80-move chess replay, 768px GIF", |b| {
        b.iter(|| render_replay(black_box(&views)))
    });
    group.bench_function("161 PNGs (draw + encode), for comparison", |b| {
        b.iter(|| {
            for v in &views {
                black_box(deckmate::render::render(v));
            }
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
