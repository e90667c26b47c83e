//! `deckmate gallery DIR`: sample pictures of every game, so a person can review them all at
//! once. For each game and table size: the start, the middle and the end of a random legal
//! game played until it is over, each as a spectator sees it and as the first seat sees it
//! (their private picture: a Chess-à-Tête hand), plus the game as an animated replay. Then
//! each variant that changes the picture (En Prise's Blind, Memory, Casino and Alliance;
//! Snipe's feathers), at its start and middle, seen both ways.

use crate::engine::{GameRng, Seat, Viewer};
use crate::games::{AnyGame, AnyView, GameKind};
use crate::render;
use std::path::Path;

/// The most actions a sample game takes: one that has not ended by then is set aside for
/// another seed (every game's random play ends far sooner).
const MOST_ACTIONS: usize = 20_000;
/// Seeds tried for a sample game that ends within [`MOST_ACTIONS`].
const SEEDS: u64 = 8;
/// The most pictures in a replay: a longer game is shown by pictures spread evenly over it,
/// the first and the last among them.
const REPLAY_FRAMES: usize = 161;

/// Writes the gallery into `dir` (created if missing); the files written, by name.
pub fn run_gallery(dir: &Path) -> Result<Vec<String>, String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let mut written = Vec::new();
    for game in GameKind::ALL {
        let (fewest, most) = game.seats();
        for seats in fewest..=most {
            let views = sample_game(game, seats, &[])?;
            let middle = views.len() / 2;
            let stages = [
                ("start", &views[0]),
                ("middle", &views[middle]),
                ("end", &views[views.len() - 1]),
            ];
            for (stage, (spectator, first_seat)) in stages {
                let stem = format!("{}-{seats}p-{stage}", game.id());
                write(
                    dir,
                    &format!("{stem}-spectator.png"),
                    &render::render(spectator),
                )?;
                let own = render::private_picture(first_seat);
                write(dir, &format!("{stem}-seat1.png"), &own)?;
                written.push(format!("{stem}-spectator.png"));
                written.push(format!("{stem}-seat1.png"));
            }
            let spectators: Vec<AnyView> = spread(views, REPLAY_FRAMES)
                .into_iter()
                .map(|(s, _)| s)
                .collect();
            let name = format!("{}-{seats}p-replay.gif", game.id());
            write(dir, &name, &render::render_replay(&spectators))?;
            written.push(name);
        }
    }
    let showcases = GameKind::ALL
        .into_iter()
        .flat_map(|game| game.showcase().iter().map(move |&variant| (game, variant)));
    for (game, (variant, seats, options)) in showcases {
        let views = sample_game(game, seats, options)?;
        let stages = [("start", &views[0]), ("middle", &views[views.len() / 2])];
        for (stage, (spectator, first_seat)) in stages {
            let stem = format!("{}-{variant}-{seats}p-{stage}", game.id());
            let spectator_name = format!("{stem}-spectator.png");
            write(dir, &spectator_name, &render::render(spectator))?;
            let seat_name = format!("{stem}-seat1.png");
            write(dir, &seat_name, &render::private_picture(first_seat))?;
            written.extend([spectator_name, seat_name]);
        }
    }
    Ok(written)
}

/// A random legal game of `game` for `seats` players with `options`, played until it is over:
/// the spectator's and the first seat's view at the start and after every action. The first
/// seed whose game ends within [`MOST_ACTIONS`] is used; past [`SEEDS`] seeds, the last game as
/// it stands.
pub fn sample_game(
    game: GameKind,
    seats: usize,
    options: &[(&str, &str)],
) -> Result<Vec<(AnyView, AnyView)>, String> {
    let options: Vec<(String, String)> = options
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    let mut views = Vec::new();
    for seed in 7..7 + SEEDS {
        views = random_game(game, seats, &options, seed)?;
        if views
            .last()
            .is_some_and(|(spectator, _)| spectator.is_over())
        {
            break;
        }
    }
    Ok(views)
}

/// One random legal game from `seed`, until it is over or [`MOST_ACTIONS`] were played.
fn random_game(
    game: GameKind,
    seats: usize,
    options: &[(String, String)],
    seed: u64,
) -> Result<Vec<(AnyView, AnyView)>, String> {
    let mut rng = GameRng::from_seed(seed);
    let mut state: AnyGame = game
        .start(options, seats, &mut rng)
        .map_err(|e| format!("{}: {e}", game.name()))?;
    let seen = |s: &AnyGame| (s.view(Viewer::Spectator), s.view(Viewer::Seat(Seat(0))));
    let mut views = vec![seen(&state)];
    while views.len() <= MOST_ACTIONS {
        let Some(&seat) = state.to_act().seats().first() else {
            break;
        };
        let Some(pick) = state.random_action(seat, &mut rng) else {
            break;
        };
        state
            .play(seat, &pick, &mut rng)
            .map_err(|e| format!("{}: {pick} refused: {e:?}", game.name()))?;
        views.push(seen(&state));
    }
    Ok(views)
}

/// At most `most` of `items`, spread evenly, the first and the last among them.
pub fn spread<T>(items: Vec<T>, most: usize) -> Vec<T> {
    let len = items.len();
    if len <= most || most < 2 {
        return items;
    }
    // Item k of the result is item round(k * (len - 1) / (most - 1)).
    let wanted: Vec<usize> = (0..most)
        .map(|k| (k * (len - 1) + (most - 1) / 2) / (most - 1))
        .collect();
    items
        .into_iter()
        .enumerate()
        .filter(|(i, _)| wanted.binary_search(i).is_ok())
        .map(|(_, item)| item)
        .collect()
}

fn write(dir: &Path, name: &str, bytes: &[u8]) -> Result<(), String> {
    let path = dir.join(name);
    std::fs::write(&path, bytes).map_err(|e| format!("cannot write {}: {e}", path.display()))
}

#[cfg(test)]
mod tests;
