//! The card-board games (En Prise for four, Echek n°1, Snipe Chess), each played at random into
//! its middle game: the cost of listing the legal actions, of replaying the whole log (what the
//! table does on every action), and of drawing the picture.

use criterion::{Criterion, criterion_group, criterion_main};
use deckmate::engine::{GameRng, Seat, Viewer};
use deckmate::games::{AnyGame, GameKind};
use deckmate::render::render;
use std::hint::black_box;

/// A game of `kind` for `seats`, with its options.
struct Setup {
    kind: GameKind,
    seats: usize,
    options: Vec<(String, String)>,
    plies: usize,
}

impl Setup {
    fn start(&self, rng: &mut GameRng) -> AnyGame {
        self.kind.start(&self.options, self.seats, rng).unwrap()
    }

    /// The game after `plies` random actions (fewer if it ends first), and its log.
    fn midgame(&self) -> (AnyGame, Vec<(Seat, String)>) {
        let mut rng = GameRng::from_seed(11);
        let mut chooser = GameRng::from_seed(12);
        let mut game = self.start(&mut rng);
        let mut log = Vec::new();
        while log.len() < self.plies {
            let Some(&seat) = game.to_act().seats().first() else {
                break;
            };
            let text = game.random_action(seat, &mut chooser).unwrap();
            game.play(seat, &text, &mut rng).unwrap();
            log.push((seat, text));
        }
        (game, log)
    }

    fn replay(&self, log: &[(Seat, String)]) -> AnyGame {
        let mut rng = GameRng::from_seed(11);
        let mut game = self.start(&mut rng);
        for (seat, text) in log {
            game.play(*seat, text, &mut rng).unwrap();
        }
        game
    }
}

fn bench(c: &mut Criterion) {
    let setups = [
        Setup {
            kind: GameKind::Enprise,
            seats: 4,
            options: vec![],
            plies: 120,
        },
        Setup {
            kind: GameKind::Echek,
            seats: 2,
            options: vec![],
            plies: 8,
        },
        Setup {
            kind: GameKind::Snipe,
            seats: 2,
            options: vec![("auto".into(), "true".into())],
            plies: 60,
        },
    ];
    for setup in &setups {
        let id = setup.kind.id();
        let (game, log) = setup.midgame();
        let Some(&seat) = game.to_act().seats().first() else {
            panic!("{id}: the game ended before the middle game");
        };
        println!(
            "{id}: after {} actions, {} legal actions for {seat}",
            log.len(),
            game.legal_actions(seat).len()
        );
        c.bench_function(&format!("{id} legal actions"), |b| {
            b.iter(|| black_box(&game).legal_actions(seat))
        });
        c.bench_function(&format!("{id} replay of {} actions", log.len()), |b| {
            b.iter(|| setup.replay(black_box(&log)))
        });
        let view = game.view(Viewer::Spectator);
        c.bench_function(&format!("{id} render+encode"), |b| {
            b.iter(|| render(black_box(&view)))
        });
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
