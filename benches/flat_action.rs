//! Flat action cost (issue 16): the whole `Table::act` path (load, authorise, apply, store with
//! a snapshot, reload, views; the board picture is drawn by the adapter that posts it, and timed
//! apart among the parts) in a four-player En Prise match at log
//! length 10 and 400, on a real SQLite file in a temp dir; and `Table::legal` and
//! `Table::view_for` at length 400.
//!
//! Each length has a few template matches, built by playing random legal actions through the
//! table. Every timed action acts on a fresh match at exactly that length: an untimed setup step
//! copies a template (its row, seats, log and snapshot) to a new id in the same file, through a
//! second connection, as another process would write it. Two cases:
//! - hot: the setup also shows the copy once through the acting table, so it is in the cache;
//! - cold: the acting table has never loaded the copy: it reads the snapshot and the log after
//!   it (none: every action stores a snapshot).
//!
//! A plain timing loop prints median, p99 and max of each case first (plus the cold case
//! without a snapshot, a whole-log replay, for reference, and the cost of the parts of an
//! action), then criterion runs its estimates.

mod common;

use common::Timed;
use criterion::{BatchSize, Criterion, SamplingMode};
use deckmate::engine::{GameRng, Seat, Viewer};
use deckmate::games::{AnyGame, GameKind};
use deckmate::render::{encode_png, render};
use deckmate::store::{Change, MatchId, Place, Player, PlayerId, Snapshot, Store};
use deckmate::table::{Request, Table};
use image::codecs::png::{CompressionType, FilterType, PngEncoder};
use image::{ExtendedColorType, ImageEncoder};
use std::cell::RefCell;
use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Log lengths measured.
const LENGTHS: [u64; 2] = [10, 400];
/// Template matches per length (timed actions rotate through them).
const TEMPLATES: usize = 6;
/// Samples of the plain timing loop, per case.
const SAMPLES: usize = 300;

/// A match at the wanted length and the action its next player takes in every copy.
#[derive(Clone)]
struct Template {
    id: MatchId,
    player: PlayerId,
    seat: Seat,
    action: String,
}

/// The acting table, a second connection on the same file that makes copies, and templates.
struct Bench {
    table: Table,
    writer: Store,
    templates: Vec<Template>,
    next_id: MatchId,
    turn: usize,
    length: u64,
    path: PathBuf,
}

/// Whether the acting table has the match in its cache before the timed call.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Case {
    Hot,
    Cold,
    /// Cold, with the copy's snapshot removed: the whole log is replayed.
    ColdNoSnapshot,
}

impl Bench {
    /// A new file in `dir` with TEMPLATES matches at `length`, played at random through the table.
    fn new(dir: &Path, length: u64) -> Bench {
        let path = dir.join(format!("flat-{length}.db"));
        let _ = std::fs::remove_file(&path);
        let mut table = Table::new(Store::open(&path).expect("the bench file opens"));
        let players: Vec<Player> = ["ann", "ben", "cy", "dee"]
            .iter()
            .map(|name| table.store().local_player(name).unwrap())
            .collect();
        let mut chooser = GameRng::from_seed(length);
        let mut templates = Vec::new();
        let mut seed = 0;
        while templates.len() < TEMPLATES {
            seed += 1;
            if let Some(template) = build(&mut table, &players, seed, length, &mut chooser) {
                templates.push(template);
            }
        }
        let writer = Store::open(&path).expect("a second connection opens");
        let next_id = writer
            .connection()
            .query_row("SELECT MAX(id) + 1 FROM matches", [], |r| r.get(0))
            .unwrap();
        Bench {
            table,
            writer,
            templates,
            next_id,
            turn: 0,
            length,
            path,
        }
    }

    /// Copies the next template to a new id and readies it for `case`; returns the copy and
    /// the action to take in it.
    fn fresh(&mut self, case: Case) -> (MatchId, Template) {
        let template = self.templates[self.turn % self.templates.len()].clone();
        self.turn += 1;
        let id = self.next_id;
        self.next_id += 1;
        copy_match(&self.writer, template.id, id);
        match case {
            Case::Hot => {
                self.table.show(id).expect("the copy loads");
            }
            Case::Cold => {}
            Case::ColdNoSnapshot => {
                self.writer
                    .connection()
                    .execute("DELETE FROM snapshots WHERE match_id = ?1", [id])
                    .unwrap();
            }
        }
        (id, template)
    }

    /// The timed call: the template's action in match `id`.
    fn act(&mut self, id: MatchId, template: &Template) {
        let request = Request {
            confirmed: true,
            ..Request::default()
        };
        let update = self
            .table
            .act(id, template.player, request, &template.action)
            .unwrap_or_else(|e| panic!("{} in match #{id} is refused: {e}", template.action));
        black_box(update);
    }

    /// The next template, in turn, for read-only calls.
    fn next_template(&mut self) -> Template {
        self.turn += 1;
        self.templates[self.turn % self.templates.len()].clone()
    }
}

/// Plays match `seed` at random through the table up to `length` actions, then picks the next
/// action. None when the match ends (or nobody can act) before that.
fn build(
    table: &mut Table,
    players: &[Player],
    seed: u64,
    length: u64,
    chooser: &mut GameRng,
) -> Option<Template> {
    let created = table
        .create(GameKind::Enprise, &[], players, seed, &Place::default())
        .expect("a four-player En Prise match starts");
    let id = created.match_id;
    let request = Request {
        confirmed: true,
        ..Request::default()
    };
    for ply in 0..=length {
        let shown = table.show(id).unwrap();
        let (seat, player) = shown.to_act.first()?.clone();
        let legal = table.legal(id, player.id).unwrap();
        let action = legal[chooser.below(legal.len())].clone();
        if ply == length {
            return Some(Template {
                id,
                player: player.id,
                seat,
                action,
            });
        }
        table.act(id, player.id, request, &action).unwrap();
    }
    unreachable!("the loop returns at the last ply")
}

/// Copies match `from` (row, seats, log, snapshot) to the new id `to`, in one transaction.
/// Columns are read from the schema, so the copy keeps up with new ones.
fn copy_match(store: &Store, from: MatchId, to: MatchId) {
    let conn = store.connection();
    conn.execute_batch("BEGIN IMMEDIATE").unwrap();
    for (table, key) in [
        ("matches", "id"),
        ("seats", "match_id"),
        ("actions", "match_id"),
        ("snapshots", "match_id"),
    ] {
        let columns: Vec<String> = conn
            .prepare(&format!("SELECT name FROM pragma_table_info('{table}')"))
            .unwrap()
            .query_map([], |r| r.get(0))
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap();
        let picked: Vec<String> = columns
            .iter()
            .map(|c| if c == key { "?2".into() } else { c.clone() })
            .collect();
        conn.execute(
            &format!(
                "INSERT INTO {table} ({}) SELECT {} FROM {table} WHERE {key} = ?1",
                columns.join(", "),
                picked.join(", ")
            ),
            (from, to),
        )
        .unwrap();
    }
    conn.execute_batch("COMMIT").unwrap();
}

/// Times `samples` actions on fresh copies in `case`.
fn time_actions(bench: &mut Bench, case: Case, samples: usize) -> Timed {
    let mut timed = Timed::default();
    for _ in 0..samples {
        let (id, template) = bench.fresh(case);
        timed.time(|| bench.act(id, &template));
    }
    timed
}

/// Times `samples` calls of `call` on the templates in turn.
fn time_reads(bench: &mut Bench, samples: usize, mut call: impl FnMut(&Table, &Template)) -> Timed {
    let mut timed = Timed::default();
    for _ in 0..samples {
        let template = bench.next_template();
        timed.time(|| call(&bench.table, &template));
    }
    timed
}

/// How a snapshot stores a game.
#[derive(Clone, serde::Serialize, serde::Deserialize)]
struct Saved {
    game: AnyGame,
    rng: GameRng,
}

/// The parts of an action at this length, timed one by one with public calls on a template's
/// stored state: where the time of `Table::act` goes.
fn parts(bench: &mut Bench) {
    let template = bench.templates[0].clone();
    let state: String = bench
        .writer
        .connection()
        .query_row(
            "SELECT state FROM snapshots WHERE match_id = ?1",
            [template.id],
            |r| r.get(0),
        )
        .unwrap();
    let saved: Saved = serde_json::from_str(&state).unwrap();
    let mut next = saved.clone();
    let played = next
        .game
        .play(template.seat, &template.action, &mut next.rng)
        .unwrap();
    let after = &next.game;
    let seats = after.remaining_seats().len();
    let to_act = after.to_act().seats().to_vec();
    let view = after.view(Viewer::Spectator);
    println!(
        "  parts at length {} ({} seats left, snapshot {} bytes, PNG {} bytes):",
        bench.length,
        seats,
        state.len(),
        render(&view).len()
    );
    let runs = 100;
    let time = |name: &str, f: &mut dyn FnMut()| {
        let mut timed = Timed::default();
        for _ in 0..runs {
            timed.time(&mut *f);
        }
        timed.report(&format!("    {name:<44}"));
    };
    time(
        "store: load_head (match row, seats, log count)",
        &mut || {
            black_box(bench.writer.load_head(template.id).unwrap());
        },
    );
    time("store: snapshot + load_from (cold load reads)", &mut || {
        black_box(bench.writer.snapshot(template.id).unwrap());
        black_box(bench.writer.load_from(template.id, bench.length).unwrap());
    });
    time("snapshot read back (serde_json::from_str)", &mut || {
        black_box(serde_json::from_str::<Saved>(&state).unwrap());
    });
    time("game clone + play the action", &mut || {
        let mut game = saved.game.clone();
        let mut rng = saved.rng.clone();
        black_box(
            game.play(template.seat, &template.action, &mut rng)
                .unwrap(),
        );
    });
    time("snapshot written (serde_json::to_string)", &mut || {
        black_box(serde_json::to_string(&next).unwrap());
    });
    time("views: spectator + 4 seats", &mut || {
        black_box(after.view(Viewer::Spectator));
        for seat in 0..4 {
            black_box(after.view(Viewer::Seat(Seat(seat))));
        }
    });
    time("legal actions of the seats to act", &mut || {
        for &seat in &to_act {
            black_box(after.legal_actions(seat));
        }
    });
    time("render + PNG encode (public view)", &mut || {
        black_box(render(&view));
    });
    // The same picture, decoded, encoded alone: the rest of `render` is drawing.
    let picture = image::load_from_memory(&render(&view)).unwrap().to_rgb8();
    time(
        &format!(
            "  of which PNG encode, {}x{}",
            picture.width(),
            picture.height()
        ),
        &mut || {
            black_box(encode_png(&picture));
        },
    );
    let encode = |compression, filter| {
        let mut out = Vec::with_capacity(64 * 1024);
        PngEncoder::new_with_quality(&mut out, compression, filter)
            .write_image(
                picture.as_raw(),
                picture.width(),
                picture.height(),
                ExtendedColorType::Rgb8,
            )
            .unwrap();
        out
    };
    for (name, compression, filter) in [
        ("no filter", CompressionType::Fast, FilterType::NoFilter),
        ("Sub filter", CompressionType::Fast, FilterType::Sub),
    ] {
        let size = encode(compression, filter).len();
        time(
            &format!("  PNG encode Fast, {name} ({size} bytes)"),
            &mut || {
                black_box(encode(compression, filter));
            },
        );
    }
    // The write transaction of an action: bump the version, append the action, replace the
    // snapshot; each on a fresh copy (copied untimed).
    let snapshot = Snapshot {
        plies: bench.length + 1,
        rules: GameKind::Enprise.rules(),
        state: serde_json::to_string(&next).unwrap(),
        digest: None,
    };
    let version = bench.writer.load_head(template.id).unwrap().version;
    let mut timed = Timed::default();
    for _ in 0..runs {
        let id = bench.next_id;
        bench.next_id += 1;
        copy_match(&bench.writer, template.id, id);
        let changes = [
            Change::Action {
                seat: template.seat,
                text: &played.canonical,
            },
            Change::Snapshot(&snapshot),
        ];
        timed.time(|| {
            black_box(bench.writer.change(id, version, &changes).unwrap());
        });
    }
    timed.report(&format!(
        "    {:<44}",
        "store: change (action + snapshot, one commit)"
    ));
}

fn main() {
    let dir = std::env::temp_dir().join(format!("deckmate-flat-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let mut benches: Vec<Bench> = LENGTHS
        .iter()
        .map(|&length| {
            let started = Instant::now();
            let bench = Bench::new(&dir, length);
            println!(
                "{TEMPLATES} En Prise matches for 4 at length {length} built through the table in {:.1?}",
                started.elapsed()
            );
            bench
        })
        .collect();

    for bench in &mut benches {
        let length = bench.length;
        for case in [Case::Hot, Case::Cold, Case::ColdNoSnapshot] {
            let samples = if case == Case::ColdNoSnapshot {
                SAMPLES / 3
            } else {
                SAMPLES
            };
            time_actions(bench, case, samples)
                .report(&format!("act, length {length:>3}, {case:<14?}"));
        }
    }
    let long = benches.last_mut().unwrap();
    let length = long.length;
    time_reads(long, SAMPLES, |table, t| {
        black_box(table.legal(t.id, t.player).unwrap());
    })
    .report(&format!("legal, length {length}, hot"));
    time_reads(long, SAMPLES, |table, t| {
        black_box(table.view_for(t.id, Some(t.player)).unwrap());
    })
    .report(&format!("view_for, length {length}, hot"));
    // A table whose cache holds one match, reading the templates in turn: every call loads.
    let cold = Table::with_cache(Store::open(&long.path).unwrap(), 1);
    let templates = long.templates.clone();
    let mut turn = 0;
    let mut cold_read = |what: &str, f: &dyn Fn(&Table, &Template)| {
        let mut timed = Timed::default();
        for _ in 0..SAMPLES {
            turn += 1;
            let t = &templates[turn % templates.len()];
            timed.time(|| f(&cold, t));
        }
        timed.report(&format!("{what}, length {length}, cold"));
    };
    cold_read("legal", &|table, t| {
        black_box(table.legal(t.id, t.player).unwrap());
    });
    cold_read("view_for", &|table, t| {
        black_box(table.view_for(t.id, Some(t.player)).unwrap());
    });
    for bench in &mut benches {
        parts(bench);
    }

    let mut c = Criterion::default().sample_size(50).configure_from_args();
    for bench in &mut benches {
        let length = bench.length;
        let mut group = c.benchmark_group(format!("act, En Prise for 4, length {length}"));
        group.sampling_mode(SamplingMode::Flat);
        // The setup and the timed call both need the bench; they never run at once.
        let bench = RefCell::new(bench);
        for case in [Case::Hot, Case::Cold] {
            group.bench_function(format!("{case:?}"), |b| {
                b.iter_batched(
                    || bench.borrow_mut().fresh(case),
                    |(id, template)| bench.borrow_mut().act(id, &template),
                    BatchSize::PerIteration,
                )
            });
        }
        group.finish();
    }
    let long = benches.last_mut().unwrap();
    let mut group = c.benchmark_group(format!("reads, length {length}"));
    group.bench_function("legal, hot", |b| {
        b.iter(|| {
            let t = long.next_template();
            black_box(long.table.legal(t.id, t.player).unwrap())
        })
    });
    group.bench_function("view_for, hot", |b| {
        b.iter(|| {
            let t = long.next_template();
            black_box(long.table.view_for(t.id, Some(t.player)).unwrap())
        })
    });
    let mut turn = 0;
    group.bench_function("legal, cold", |b| {
        b.iter(|| {
            turn += 1;
            let t = &templates[turn % templates.len()];
            black_box(cold.legal(t.id, t.player).unwrap())
        })
    });
    group.bench_function("view_for, cold", |b| {
        b.iter(|| {
            turn += 1;
            let t = &templates[turn % templates.len()];
            black_box(cold.view_for(t.id, Some(t.player)).unwrap())
        })
    });
    group.finish();
    c.final_summary();
    drop(benches);
    let _ = std::fs::remove_dir_all(&dir);
}
