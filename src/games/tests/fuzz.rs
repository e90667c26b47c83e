//! Fuzzing every game's user-controlled input, through [`GameKind::start`] and
//! [`AnyGame::play`] as the console and Discord drive them (no store).
//!
//! Options: random `key=value` lists drawn from each game's real option vocabulary mixed with
//! random keys and values, huge numbers, empty strings and odd unicode, for 0 to 10 seats. A
//! start either succeeds (with that many seats) or is refused with a message; it never panics.
//!
//! Actions: a random game is played for a random number of random legal actions, then random
//! texts and mutations of legal action texts (edited characters, changed case, extra spaces,
//! huge numbers, another seat's action) are typed by random seats. Each is either played, its
//! canonical text one of the seat's legal actions and meaning the same (played on a copy, it
//! leaves the same state and random source), or refused with a message, the state and the random
//! source exactly as they were.
//!
//! One machinery serves every game; [`fuzz_game!`] names each game's two tests.

use super::*;
use crate::games::chessatete::deck::catalogue;
use proptest::prelude::*;
use proptest::sample::select;
use proptest::strategy::{BoxedStrategy, Union};
use proptest::test_runner::TestCaseError;

/// Numbers that overflow or wrap somewhere: the ends of the `x,y` squares (four digits), and
/// past i16, u8, u16, u32, i64, u64 and u128.
const HUGE: &[&str] = &[
    "9999",
    "-9999",
    "32768",
    "256",
    "65536",
    "4294967296",
    "9223372036854775807",
    "9223372036854775808",
    "18446744073709551615",
    "18446744073709551616",
    "340282366920938463463374607431768211456",
    "99999999999999999999999999999999999999999",
    "-1",
    "-9223372036854775808",
];

/// Values that are odd in some way: empty, blank, signs, unicode digits, control and
/// direction characters, wide letters, emoji, very long.
fn odd_value() -> BoxedStrategy<String> {
    let odd = vec![
        "",
        " ",
        "true",
        "false",
        "TRUE",
        "yes",
        "0",
        "1",
        "+1",
        "1.5",
        "1e9",
        "NaN",
        "0x10",
        "١٢",
        "Ｔｒｕｅ",
        "\u{0}",
        "\u{202e}open",
        "é",
        "🂡",
        "\t\n",
        "=",
        ",",
        "null",
    ];
    prop_oneof![
        select(odd).prop_map(String::from),
        select(HUGE).prop_map(String::from),
        any::<String>(),
        "[a-z0-9 =,;_@.+-]{0,16}",
        "[a-z]{200,400}",
    ]
    .boxed()
}

/// A count as a player might write it before a card name, odd ones included.
fn count() -> BoxedStrategy<String> {
    prop_oneof![
        Just(String::new()),
        (0u32..20).prop_map(|n| format!("{n} ")),
        (0u32..20).prop_map(|n| format!("{n}x ")),
        select(HUGE).prop_map(|n| format!("{n} ")),
        select(HUGE).prop_map(|n| format!("x{n} ")),
    ]
    .boxed()
}

/// The classic deck as a deck list, `1 King, 1 Queen, 4 Knight, ...`.
fn classic_list() -> Vec<(String, String)> {
    let cat = catalogue();
    cat.classic
        .iter()
        .map(|&(i, n)| (format!("{n} "), cat.cards[i].name.clone()))
        .collect()
}

fn join_list(entries: &[(String, String)], separator: &str) -> String {
    let entries: Vec<String> = entries
        .iter()
        .map(|(n, name)| format!("{n}{name}"))
        .collect();
    entries.join(separator)
}

/// Chess-à-Tête deck lists: random entries, and the classic deck with one count changed (so a
/// list gets past reading and is checked against the criteria).
fn deck_list() -> BoxedStrategy<String> {
    let names: Vec<String> = catalogue().cards.iter().map(|c| c.name.clone()).collect();
    let separator = select(vec![", ", ",", "; ", " + ", "\n"]);
    prop_oneof![
        (
            prop::collection::vec((count(), select(names)), 0..12),
            separator.clone()
        )
            .prop_map(|(entries, sep)| join_list(&entries, sep)),
        (any::<prop::sample::Index>(), count(), separator).prop_map(|(at, n, sep)| {
            let mut entries = classic_list();
            let at = at.index(entries.len());
            entries[at].0 = n;
            join_list(&entries, sep)
        }),
    ]
    .boxed()
}

/// A game's option keys, each with the values that mean something to it.
fn vocabulary(kind: GameKind) -> Vec<(&'static str, BoxedStrategy<String>)> {
    let words = |values: &[&'static str]| {
        let values: Vec<String> = values.iter().map(|v| v.to_string()).collect();
        select(values).boxed()
    };
    let boolean = || words(&["true", "false"]);
    match kind {
        GameKind::Chess => vec![(
            "fen",
            words(&[
                "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",
                "8/8/8/8/8/8/8/K6k w - - 0 1",
                "8/8/8/8/8/8/8/8 w - - 0 1",
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 18446744073709551615 \
                 18446744073709551615",
                "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                "k7/8/8/8/8/8/8/7K w - - 99999999999999999999 0",
                "4k3/8/8/8/8/8/8/4K2R w KQkq z9 0 1",
                "4k3/8/8/8/8/8/8/4K3 w KQkq - 0 1",
                "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 4294967295 4294967295",
                "4k3/8/8/8/4Pp2/8/8/4K3 b - e3 0 1",
            ]),
        )],
        GameKind::Enthralling => vec![
            ("promoted_enthrallable", boolean()),
            ("unable_to_enthrall_loses", boolean()),
        ],
        GameKind::Enprise => vec![
            (
                "variant",
                words(&["open", "blind", "memory", "casino", "Blind"]),
            ),
            ("alliance", boolean()),
            ("peek", words(&["plan", "next"])),
            (
                "memory_seconds",
                words(&["0", "1", "60", "3600", "3601", "4294967296"]),
            ),
        ],
        GameKind::Echek | GameKind::Tictactoe => vec![],
        GameKind::Snipe => vec![
            ("auto", boolean()),
            ("last_chance", boolean()),
            ("feather", boolean()),
        ],
        GameKind::Chessatete => vec![("white_deck", deck_list()), ("black_deck", deck_list())],
    }
}

/// One `key=value` pair: a real key with a fitting or odd value, another spelling of a real
/// key, another game's key, or a random key.
fn pair(kind: GameKind) -> BoxedStrategy<(String, String)> {
    let mut choices: Vec<BoxedStrategy<(String, String)>> = Vec::new();
    for (key, values) in vocabulary(kind) {
        choices.push((Just(key.to_string()), values).boxed());
        choices.push((Just(key.to_string()), odd_value()).boxed());
        let spelled = format!(" {} ", key.to_uppercase().replace('_', "-"));
        choices.push((Just(spelled), odd_value()).boxed());
    }
    let others: Vec<String> = GameKind::ALL
        .into_iter()
        .flat_map(|k| vocabulary(k).into_iter().map(|(key, _)| key.to_string()))
        .collect();
    choices.push((select(others), odd_value()).boxed());
    choices.push((odd_value(), odd_value()).boxed());
    Union::new(choices).boxed()
}

/// Starts `kind` from `pairs` for `seats`: a game with that many seats, or a refusal with a
/// message. A game that starts is looked at and asked for its actions.
pub fn check_options(
    kind: GameKind,
    pairs: &[(String, String)],
    seats: usize,
) -> Result<(), TestCaseError> {
    let mut rng = GameRng::from_seed(seats as u64);
    match kind.start(pairs, seats, &mut rng) {
        Ok(game) => {
            prop_assert_eq!(game.kind(), kind);
            prop_assert_eq!(game.seat_count(), seats);
            let _ = game.view(Viewer::Spectator);
            for seat in Seat::all(seats) {
                let _ = game.view(Viewer::Seat(seat));
                let _ = game.legal_actions(seat);
            }
        }
        Err(e) => prop_assert!(!e.to_string().trim().is_empty(), "empty refusal"),
    }
    Ok(())
}

/// Options a random game is played under: each a valid set for some table size.
fn playable_options(kind: GameKind) -> Vec<Vec<(&'static str, &'static str)>> {
    match kind {
        GameKind::Enthralling => vec![
            vec![],
            vec![
                ("promoted_enthrallable", "true"),
                ("unable_to_enthrall_loses", "true"),
            ],
        ],
        GameKind::Enprise => vec![
            vec![],
            vec![("variant", "blind")],
            vec![("variant", "blind"), ("peek", "next")],
            vec![("variant", "memory")],
            vec![("variant", "casino")],
            vec![("alliance", "true")],
        ],
        GameKind::Snipe => vec![
            vec![],
            vec![("auto", "true")],
            vec![("feather", "true"), ("last_chance", "true")],
        ],
        _ => vec![vec![]],
    }
}

/// How a probe's text is made.
#[derive(Clone, Debug)]
pub enum Text {
    /// Any text at all.
    Random(String),
    /// A legal action's text (of any seat that must act), changed by `edit`.
    Mutated {
        pick: prop::sample::Index,
        edit: Edit,
    },
}

#[derive(Clone, Debug)]
pub enum Edit {
    None,
    Insert(prop::sample::Index, char),
    Delete(prop::sample::Index),
    Replace(prop::sample::Index, char),
    Upper,
    Lower,
    /// Spaces doubled, and spaces around the text.
    Spaces,
    /// Every run of digits replaced by this number.
    Numbers(&'static str),
    /// This number put before a word.
    NumberWord(prop::sample::Index, &'static str),
    /// Cut after this many characters.
    Truncate(prop::sample::Index),
    Append(String),
}

fn edit() -> BoxedStrategy<Edit> {
    let index = any::<prop::sample::Index>;
    prop_oneof![
        Just(Edit::None),
        (index(), any::<char>()).prop_map(|(i, c)| Edit::Insert(i, c)),
        (
            index(),
            select(vec![' ', ',', '-', '@', 'x', '0', '9', 'é'])
        )
            .prop_map(|(i, c)| Edit::Insert(i, c)),
        index().prop_map(Edit::Delete),
        (index(), any::<char>()).prop_map(|(i, c)| Edit::Replace(i, c)),
        Just(Edit::Upper),
        Just(Edit::Lower),
        Just(Edit::Spaces),
        select(HUGE).prop_map(Edit::Numbers),
        (index(), select(HUGE)).prop_map(|(i, n)| Edit::NumberWord(i, n)),
        index().prop_map(Edit::Truncate),
        odd_value().prop_map(Edit::Append),
    ]
    .boxed()
}

fn text() -> BoxedStrategy<Text> {
    prop_oneof![
        1 => odd_value().prop_map(Text::Random),
        4 => (any::<prop::sample::Index>(), edit()).prop_map(|(pick, edit)| Text::Mutated { pick, edit }),
    ]
    .boxed()
}

/// `text` changed by `edit`.
pub fn mutate(text: &str, edit: &Edit) -> String {
    let chars: Vec<char> = text.chars().collect();
    let at = |i: &prop::sample::Index, extra: usize| i.index(chars.len() + extra);
    let mut out = chars.clone();
    match edit {
        Edit::None => {}
        Edit::Insert(i, c) => out.insert(at(i, 1), *c),
        Edit::Delete(i) if !chars.is_empty() => {
            out.remove(at(i, 0));
        }
        Edit::Replace(i, c) if !chars.is_empty() => out[at(i, 0)] = *c,
        Edit::Truncate(i) if !chars.is_empty() => out.truncate(at(i, 0)),
        Edit::Delete(_) | Edit::Replace(..) | Edit::Truncate(_) => {}
        Edit::Upper => return text.to_uppercase(),
        Edit::Lower => return text.to_lowercase(),
        Edit::Spaces => return format!("  {}\t", text.replace(' ', "   ")),
        Edit::Numbers(n) => {
            let mut s = String::new();
            let mut in_digits = false;
            for c in chars {
                if c.is_ascii_digit() {
                    if !in_digits {
                        s.push_str(n);
                    }
                    in_digits = true;
                } else {
                    in_digits = false;
                    s.push(c);
                }
            }
            return s;
        }
        Edit::NumberWord(i, n) => {
            let mut words: Vec<String> = text.split(' ').map(String::from).collect();
            let at = i.index(words.len());
            words[at] = format!("{n} {}", words[at]);
            return words.join(" ");
        }
        Edit::Append(tail) => return format!("{text}{tail}"),
    }
    out.into_iter().collect()
}

/// One text typed by one seat (any seat of the table, by index).
#[derive(Clone, Debug)]
pub struct Probe {
    pub seat: prop::sample::Index,
    pub text: Text,
}

fn probe() -> BoxedStrategy<Probe> {
    (any::<prop::sample::Index>(), text())
        .prop_map(|(seat, text)| Probe { seat, text })
        .boxed()
}

fn json<T: serde::Serialize>(value: &T) -> String {
    serde_json::to_string(value).unwrap_or_else(|e| panic!("serialises: {e}"))
}

/// How many probes were played and how many refused.
#[derive(Debug, Default)]
pub struct Tally {
    pub played: usize,
    pub refused: usize,
}

/// Plays a random game of `kind` for up to `steps` actions from `seed`, then types each probe:
/// played as the same action its canonical text names, or refused with a message and nothing
/// changed.
pub fn check_actions(
    kind: GameKind,
    seed: u64,
    steps: usize,
    probes: &[Probe],
) -> Result<Tally, TestCaseError> {
    let mut tally = Tally::default();
    let mut rng = GameRng::from_seed(seed);
    let (fewest, most) = kind.seats();
    let seats = fewest + rng.below(most - fewest + 1);
    let sets = playable_options(kind);
    let chosen = &sets[rng.below(sets.len())];
    let options: Vec<(String, String)> = chosen
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    let mut game = match kind.start(&options, seats, &mut rng) {
        Ok(game) => game,
        // A variant for another table size: the plain game.
        Err(_) => kind
            .start(&[], seats, &mut rng)
            .map_err(|e| TestCaseError::fail(format!("{kind} for {seats}: {e}")))?,
    };
    for _ in 0..steps {
        let acting = game.to_act();
        let Some(&seat) = acting.seats().first() else {
            break;
        };
        let Some(text) = game.random_action(seat, &mut rng) else {
            break;
        };
        if let Err(e) = game.play(seat, &text, &mut rng) {
            return Err(TestCaseError::fail(format!(
                "{seat}: legal \"{text}\" refused: {e}"
            )));
        }
    }
    for probe in probes {
        let seat = Seat(probe.seat.index(seats) as u8);
        let text = match &probe.text {
            Text::Random(text) => text.clone(),
            Text::Mutated { pick, edit } => {
                let texts: Vec<String> = game
                    .to_act()
                    .seats()
                    .iter()
                    .flat_map(|&s| game.legal_actions(s))
                    .collect();
                if texts.is_empty() {
                    continue;
                }
                mutate(&texts[pick.index(texts.len())], edit)
            }
        };
        if check_probe(&mut game, seat, &text, &mut rng)? {
            tally.played += 1;
        } else {
            tally.refused += 1;
        }
    }
    Ok(tally)
}

/// Types `text` for `seat`: accepted as a legal action of the seat whose canonical text means
/// the same, or refused with a message, nothing changed. Whether it was played.
fn check_probe(
    game: &mut AnyGame,
    seat: Seat,
    text: &str,
    rng: &mut GameRng,
) -> Result<bool, TestCaseError> {
    let (before, rng_before) = (game.clone(), rng.clone());
    let (state, random) = (json(game), json(rng));
    let legal = game.legal_actions(seat);
    // Reading alone must not panic either.
    let _ = game.reads_as_action(seat, text);
    let _ = game.warning(seat, text);
    match game.play(seat, text, rng) {
        Ok(played) => {
            prop_assert!(
                legal.contains(&played.canonical),
                "{text:?} played as {:?}, not a legal action of {seat}",
                played.canonical
            );
            let (mut again, mut rng_again) = (before, rng_before);
            let replayed = again.play(seat, &played.canonical, &mut rng_again);
            prop_assert!(
                replayed.is_ok(),
                "canonical {:?}: {replayed:?}",
                played.canonical
            );
            prop_assert_eq!(
                json(&again),
                json(game),
                "{:?} and its canonical {:?} differ",
                text,
                played.canonical
            );
            prop_assert_eq!(json(&rng_again), json(rng));
            Ok(true)
        }
        Err(e) => {
            prop_assert!(!e.to_string().trim().is_empty(), "{text:?}: empty refusal");
            prop_assert_eq!(
                &state,
                &json(game),
                "{:?} refused ({}) but changed the state",
                text,
                e
            );
            prop_assert_eq!(
                &random,
                &json(rng),
                "{:?} refused ({}) but used randomness",
                text,
                e
            );
            Ok(false)
        }
    }
}

/// Names the two fuzz tests of one game: its options and its action text.
macro_rules! fuzz_game {
    ($options:ident, $actions:ident, $kind:expr, $cases:expr) => {
        proptest! {
            #![proptest_config(crate::fuzzing::config($cases))]

            #[test]
            fn $options(
                pairs in prop::collection::vec(pair($kind), 0..5),
                seats in 0usize..=10,
            ) {
                check_options($kind, &pairs, seats)?;
            }

            #[test]
            fn $actions(
                seed in any::<u64>(),
                steps in 0usize..80,
                probes in prop::collection::vec(probe(), 1..16),
            ) {
                check_actions($kind, seed, steps, &probes)?;
            }
        }
    };
}

fuzz_game!(fuzz_chess_options, fuzz_chess_actions, GameKind::Chess, 24);
fuzz_game!(
    fuzz_enthralling_options,
    fuzz_enthralling_actions,
    GameKind::Enthralling,
    12
);
fuzz_game!(
    fuzz_enprise_options,
    fuzz_enprise_actions,
    GameKind::Enprise,
    24
);
fuzz_game!(fuzz_echek_options, fuzz_echek_actions, GameKind::Echek, 24);
fuzz_game!(fuzz_snipe_options, fuzz_snipe_actions, GameKind::Snipe, 24);
fuzz_game!(
    fuzz_chessatete_options,
    fuzz_chessatete_actions,
    GameKind::Chessatete,
    24
);

/// The action fuzzing is only worth its name if its texts are sometimes played and sometimes
/// refused, in every game.
#[test]
fn the_action_fuzzing_plays_some_texts_and_refuses_others() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;
    let mut runner = TestRunner::deterministic();
    for kind in GameKind::ALL {
        let mut total = Tally::default();
        for seed in 0..8 {
            let probes: Vec<Probe> = (0..24)
                .map(|_| probe().new_tree(&mut runner).unwrap().current())
                .collect();
            let tally = check_actions(kind, seed, 10 + seed as usize * 7, &probes).unwrap();
            total.played += tally.played;
            total.refused += tally.refused;
        }
        assert!(total.played > 0 && total.refused > 0, "{kind}: {total:?}");
    }
}
