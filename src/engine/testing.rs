//! The generic checks every game runs, after OpenSpiel's random simulation test.
//!
//! [`check_game`] plays random games to the end from many seeds and, at every state, checks the
//! contract: the seats asked to act have legal actions and the others have none; legal actions
//! apply and have a canonical text that parses back to them; actions that are not legal (seen
//! earlier in the game, or offered by a seat that must not act) are refused with the state and the
//! random source untouched; the state survives a serde round trip; views never show a seat what a
//! state hides from it; every game ends within a bound; and replaying seed + log reproduces the
//! final state exactly. A violation panics with the seed and the step, so it can be replayed.

use super::{Event, Game, GameRng, Outcome, RuleError, Seat, ToAct, Viewer};
use std::collections::BTreeMap;
use std::ops::Range;

/// Builds, from a state, a different state that `seat` must not be able to tell apart from it
/// (another deal of the cards `seat` cannot see, say). None when there is nothing hidden there.
pub type PerturbHidden<G> = fn(&G, Seat, &mut GameRng) -> Option<G>;

/// What to run.
pub struct Config<G: Game> {
    pub options: G::Options,
    pub seats: usize,
    pub seeds: Range<u64>,
    /// Every random game must end within this many actions.
    pub max_actions: usize,
    /// At each state, at most this many legal actions are applied on a copy and round-tripped
    /// through their text (all of them when there are fewer).
    pub actions_checked_per_state: usize,
    /// For games with hidden information; None for perfect-information games.
    pub perturb_hidden: Option<PerturbHidden<G>>,
}

impl<G: Game> Config<G> {
    pub fn new(options: G::Options, seats: usize, seeds: Range<u64>) -> Self {
        Config {
            options,
            seats,
            seeds,
            max_actions: 20_000,
            actions_checked_per_state: usize::MAX,
            perturb_hidden: None,
        }
    }
}

/// What the random games did.
#[derive(Debug, Default)]
pub struct Report {
    pub games: usize,
    pub actions: usize,
    /// Count of games by outcome text ("seat 1 won by checkmate", "draw by stalemate").
    pub outcomes: BTreeMap<String, usize>,
    pub leak_checks: usize,
}

/// Runs every generic check on random games; panics on the first violation.
pub fn check_game<G: Game>(config: &Config<G>) -> Report {
    let mut report = Report::default();
    for seed in config.seeds.clone() {
        let (log, outcome, leak_checks) = random_game(config, seed);
        report.games += 1;
        report.actions += log.len();
        report.leak_checks += leak_checks;
        *report.outcomes.entry(outcome.to_string()).or_default() += 1;
    }
    report
}

fn json<T: serde::Serialize>(value: &T) -> String {
    serde_json::to_string(value).expect("state serialises")
}

fn random_game<G: Game>(config: &Config<G>, seed: u64) -> (Vec<(Seat, G::Action)>, Outcome, usize) {
    let mut rng = GameRng::from_seed(seed);
    let mut chooser = GameRng::from_seed(seed ^ 0x9e37_79b9_7f4a_7c15);
    let mut game = G::new(&config.options, config.seats, &mut rng)
        .unwrap_or_else(|e| panic!("seed {seed}: setup failed: {e}"));
    assert_eq!(game.seat_count(), config.seats, "seed {seed}: seat count");
    let mut log: Vec<(Seat, G::Action)> = Vec::new();
    // Actions seen earlier in this game: a natural supply of actions that are now illegal.
    let mut seen: Vec<G::Action> = Vec::new();
    let mut leak_checks = 0;

    let outcome = loop {
        let step = log.len();
        let at = |what: &str| format!("seed {seed}, step {step}: {what}");
        check_serde_round_trip(&game, &at("serde round trip"));
        leak_checks += check_views(config, &game, &mut chooser, &at("view"));

        let seats = match game.to_act() {
            ToAct::Over(outcome) => break outcome,
            ToAct::Seats(seats) => seats,
        };
        assert!(
            !seats.is_empty(),
            "{}",
            at("no seat must act but the game is not over")
        );
        assert!(
            step < config.max_actions,
            "{}",
            at("the game did not end within the bound")
        );

        for other in Seat::all(config.seats).filter(|s| !seats.contains(s)) {
            assert!(
                game.legal_actions(other).is_empty(),
                "{}",
                at(&format!("{other} need not act but has legal actions"))
            );
            if let Some(action) = seen.last() {
                expect_refusal(&mut game, other, action, &rng, &at("out-of-turn action"));
            }
        }

        let seat = seats[chooser.below(seats.len())];
        let legal = game.legal_actions(seat);
        assert!(
            !legal.is_empty(),
            "{}",
            at(&format!("{seat} must act but has no legal action"))
        );
        check_legal_actions(
            &game,
            seat,
            &legal,
            &rng,
            &mut chooser,
            config,
            &at("legal action"),
        );

        for action in seen.iter().rev().take(16).filter(|a| !legal.contains(a)) {
            let action = action.clone();
            expect_refusal(&mut game, seat, &action, &rng, &at("stale action"));
        }

        let action = legal[chooser.below(legal.len())].clone();
        game.apply(seat, &action, &mut rng)
            .unwrap_or_else(|e| panic!("{}", at(&format!("legal {action:?} refused: {e}"))));
        seen.push(action.clone());
        log.push((seat, action));
    };

    for seat in Seat::all(config.seats) {
        assert!(
            game.legal_actions(seat).is_empty(),
            "seed {seed}: legal actions after the end"
        );
        if let Some(action) = seen.last() {
            let before = json(&game);
            assert_eq!(
                game.apply(seat, action, &mut rng.clone()),
                Err(RuleError::GameOver),
                "seed {seed}: an action after the end must be refused as game over"
            );
            assert_eq!(
                before,
                json(&game),
                "seed {seed}: refused action changed the state"
            );
        }
    }

    let replayed = replay::<G>(&config.options, config.seats, seed, &log)
        .unwrap_or_else(|e| panic!("seed {seed}: replay failed: {e}"));
    assert_eq!(json(&replayed), json(&game), "seed {seed}: replay differs");
    (log, outcome, leak_checks)
}

/// Rebuilds a state from options, seat count, seed and log, as the server does on load.
pub fn replay<G: Game>(
    options: &G::Options,
    seats: usize,
    seed: u64,
    log: &[(Seat, G::Action)],
) -> Result<G, String> {
    let mut rng = GameRng::from_seed(seed);
    let mut game = G::new(options, seats, &mut rng).map_err(|e| e.to_string())?;
    for (i, (seat, action)) in log.iter().enumerate() {
        game.apply(*seat, action, &mut rng)
            .map_err(|e| format!("action {} ({action:?}) refused: {e}", i + 1))?;
    }
    Ok(game)
}

fn check_serde_round_trip<G: Game>(game: &G, at: &str) {
    let text = json(game);
    let back: G = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{at}: {e}"));
    assert_eq!(text, json(&back), "{at}: state changed");
    assert_eq!(game.to_act(), back.to_act(), "{at}: to_act changed");
}

fn check_views<G: Game>(config: &Config<G>, game: &G, chooser: &mut GameRng, at: &str) -> usize {
    let mut checks = 0;
    let _ = json(&game.view(Viewer::Spectator));
    for seat in Seat::all(config.seats) {
        let view = json(&game.view(Viewer::Seat(seat)));
        let Some(perturb) = config.perturb_hidden else {
            continue;
        };
        let Some(other) = perturb(game, seat, chooser) else {
            continue;
        };
        if json(&other) == json(game) {
            continue;
        }
        assert_eq!(
            view,
            json(&other.view(Viewer::Seat(seat))),
            "{at}: {seat} can tell apart two states that differ only in what it may not see"
        );
        if !game.private_choices() {
            for &actor in game.to_act().seats().iter().filter(|&&s| s != seat) {
                assert_eq!(
                    sorted_texts(game, actor),
                    sorted_texts(&other, actor),
                    "{at}: {actor}'s choices, shown to everyone, give away what {seat} may not see"
                );
            }
        }
        checks += 1;
    }
    checks
}

fn sorted_texts<G: Game>(game: &G, seat: Seat) -> Vec<String> {
    let mut texts = legal_texts(game, seat);
    texts.sort();
    texts
}

// ---- helpers for scenario tests -------------------------------------------------------------

/// The texts of `seat`'s legal actions, in the game's order.
pub fn legal_texts<G: Game>(game: &G, seat: Seat) -> Vec<String> {
    game.legal_actions(seat)
        .iter()
        .map(|a| game.format_action(a))
        .collect()
}

/// Reads and applies `text` for `seat` with randomness from `seed`; panics on a refusal.
pub fn play_seeded<G: Game>(game: &mut G, seat: Seat, text: &str, seed: u64) -> Vec<Event> {
    let action = game
        .parse_action(seat, text)
        .unwrap_or_else(|e| panic!("{text}: {e}"));
    game.apply(seat, &action, &mut GameRng::from_seed(seed))
        .unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// Reads and applies `text` for `seat`; panics on a refusal. The texts of its events.
pub fn play_text<G: Game>(game: &mut G, seat: Seat, text: &str) -> Vec<String> {
    play_seeded(game, seat, text, 1)
        .into_iter()
        .map(|e| e.text)
        .collect()
}

/// Why `text` cannot be read for `seat`; panics if it can. Checks the state is unchanged.
pub fn refusal<G: Game>(game: &G, seat: Seat, text: &str) -> String {
    let before = json(game);
    let reason = match game.parse_action(seat, text) {
        Ok(action) => panic!("{text} was read as {action:?}"),
        Err(e) => e.reason,
    };
    assert_eq!(before, json(game), "reading {text} changed the state");
    reason
}

fn check_legal_actions<G: Game>(
    game: &G,
    seat: Seat,
    legal: &[G::Action],
    rng: &GameRng,
    chooser: &mut GameRng,
    config: &Config<G>,
    at: &str,
) {
    let mut texts: Vec<String> = legal.iter().map(|a| game.format_action(a)).collect();
    texts.sort();
    let before = texts.len();
    texts.dedup();
    assert_eq!(before, texts.len(), "{at}: two legal actions share a text");

    let mut picks: Vec<usize> = (0..legal.len()).collect();
    if picks.len() > config.actions_checked_per_state {
        chooser.shuffle(&mut picks);
        picks.truncate(config.actions_checked_per_state);
    }
    for i in picks {
        let action = &legal[i];
        let text = game.format_action(action);
        match game.parse_action(seat, &text) {
            Ok(parsed) => assert_eq!(&parsed, action, "{at}: \"{text}\" parses to another action"),
            Err(e) => panic!("{at}: canonical text does not parse: {e}"),
        }
        let action_json = json(action);
        let back: G::Action = serde_json::from_str(&action_json).expect("action deserialises");
        assert_eq!(&back, action, "{at}: action serde round trip");
        let mut copy = game.clone();
        if let Err(e) = copy.apply(seat, action, &mut rng.clone()) {
            panic!("{at}: legal action \"{text}\" refused: {e}");
        }
    }
}

fn expect_refusal<G: Game>(game: &mut G, seat: Seat, action: &G::Action, rng: &GameRng, at: &str) {
    let before = json(game);
    let mut used = rng.clone();
    match game.apply(seat, action, &mut used) {
        Ok(_) => panic!("{at}: {seat} was allowed {action:?}"),
        Err(RuleError::GameOver) => panic!("{at}: refused as game over while the game goes on"),
        Err(_) => {}
    }
    assert_eq!(
        before,
        json(game),
        "{at}: a refused action changed the state"
    );
    assert_eq!(
        used.next_u64(),
        rng.clone().next_u64(),
        "{at}: a refused action consumed randomness"
    );
}

#[cfg(test)]
mod tests {
    //! The checker itself is checked on a toy game with hidden information, so that a check that
    //! could never fail would be caught here.

    use super::*;
    use crate::engine::{Event, GameView, ParseError, SetupError};
    use serde::{Deserialize, Serialize};

    /// Each seat is dealt a secret number 0..10; seats take turns calling a number; after six
    /// calls the seat whose secret is closest to the sum of calls wins.
    #[derive(Clone, Debug, Serialize, Deserialize)]
    struct Secret {
        secrets: Vec<u8>,
        calls: Vec<u8>,
        bug: Bug,
    }

    #[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
    enum Bug {
        #[default]
        None,
        LeakySecrets,
        DirtyRefusal,
        NeverEnds,
        /// A seat may not call its own secret (mod 5), so its choices give the secret away.
        LeakyChoices,
        /// As LeakyChoices, but the game says its choices are private.
        PrivateChoices,
    }

    #[derive(Clone, Debug, Default, Serialize, Deserialize)]
    struct SecretOptions {
        bug: Bug,
    }

    #[derive(Clone, Debug, Serialize)]
    struct SecretView {
        own: Option<u8>,
        all: Option<Vec<u8>>,
        calls: Vec<u8>,
    }

    /// The checks never look at a view's ending; this one shows none.
    impl GameView for SecretView {
        fn outcome(&self) -> Option<&Outcome> {
            None
        }

        fn conclude(&mut self, _: &Outcome, _: String) {}
    }

    impl Secret {
        fn turn(&self) -> Seat {
            Seat((self.calls.len() % self.secrets.len()) as u8)
        }
        fn over(&self) -> bool {
            self.bug != Bug::NeverEnds && self.calls.len() >= 6
        }
        fn may_call(&self, seat: Seat, call: u8) -> bool {
            let own = self.secrets[seat.index()] % 5;
            call < 5
                && !(matches!(self.bug, Bug::LeakyChoices | Bug::PrivateChoices) && call == own)
        }
    }

    impl Game for Secret {
        type Options = SecretOptions;
        type Action = u8;
        type View = SecretView;
        const ID: &'static str = "secret";
        const NAME: &'static str = "Secret";
        const SEATS: (usize, usize) = (2, 4);

        fn new(
            options: &SecretOptions,
            seats: usize,
            rng: &mut GameRng,
        ) -> Result<Self, SetupError> {
            let secrets = (0..seats).map(|_| rng.below(10) as u8).collect();
            Ok(Secret {
                secrets,
                calls: vec![],
                bug: options.bug,
            })
        }
        fn seat_count(&self) -> usize {
            self.secrets.len()
        }
        fn to_act(&self) -> ToAct {
            if !self.over() {
                return ToAct::one(self.turn());
            }
            let sum: i32 = self.calls.iter().map(|&c| i32::from(c)).sum();
            let best = Seat::all(self.secrets.len())
                .min_by_key(|s| (i32::from(self.secrets[s.index()]) * 3 - sum).abs())
                .unwrap();
            ToAct::Over(Outcome::winner(best, self.secrets.len(), "closest"))
        }
        fn legal_actions(&self, seat: Seat) -> Vec<u8> {
            if self.over() || seat != self.turn() {
                vec![]
            } else {
                (0..5).filter(|&c| self.may_call(seat, c)).collect()
            }
        }
        fn apply(
            &mut self,
            seat: Seat,
            action: &u8,
            _: &mut GameRng,
        ) -> Result<Vec<Event>, RuleError> {
            if self.over() {
                return Err(RuleError::GameOver);
            }
            if seat != self.turn() {
                return Err(RuleError::NotYourTurn);
            }
            if !self.may_call(seat, *action) {
                if self.bug == Bug::DirtyRefusal {
                    self.calls.push(0);
                }
                return Err(RuleError::Illegal("call 0 to 4".into()));
            }
            self.calls.push(*action);
            Ok(vec![])
        }
        fn view(&self, viewer: Viewer) -> SecretView {
            let own = match viewer {
                Viewer::Seat(s) => Some(self.secrets[s.index()]),
                Viewer::Spectator => None,
            };
            let all = (self.bug == Bug::LeakySecrets || self.over()).then(|| self.secrets.clone());
            SecretView {
                own,
                all,
                calls: self.calls.clone(),
            }
        }
        fn parse_action(&self, _: Seat, text: &str) -> Result<u8, ParseError> {
            text.trim()
                .parse()
                .map_err(|_| ParseError::new(text, "not a number"))
        }
        fn format_action(&self, action: &u8) -> String {
            action.to_string()
        }
        fn private_choices(&self) -> bool {
            self.bug == Bug::PrivateChoices
        }
    }

    fn other_secrets(game: &Secret, seat: Seat, rng: &mut GameRng) -> Option<Secret> {
        if game.over() {
            return None; // everything is revealed at the end
        }
        let mut other = game.clone();
        for (i, secret) in other.secrets.iter_mut().enumerate() {
            if i != seat.index() {
                *secret = rng.below(10) as u8;
            }
        }
        Some(other)
    }

    fn config(bug: Bug) -> Config<Secret> {
        let mut config = Config::new(SecretOptions { bug }, 3, 0..20);
        config.perturb_hidden = Some(other_secrets);
        config.max_actions = 50;
        config
    }

    #[test]
    fn a_sound_game_passes() {
        let report = check_game(&config(Bug::None));
        assert_eq!(report.games, 20);
        assert_eq!(report.actions, 120);
        assert!(
            report.leak_checks > 100,
            "leak checks ran: {}",
            report.leak_checks
        );
    }

    #[test]
    #[should_panic(expected = "can tell apart")]
    fn a_leaky_view_is_caught() {
        check_game(&config(Bug::LeakySecrets));
    }

    #[test]
    #[should_panic(expected = "give away what")]
    fn choices_that_give_away_a_secret_are_caught() {
        check_game(&config(Bug::LeakyChoices));
    }

    #[test]
    fn choices_declared_private_may_depend_on_secrets() {
        let report = check_game(&config(Bug::PrivateChoices));
        assert_eq!(report.games, 20);
    }

    #[test]
    #[should_panic(expected = "did not end within the bound")]
    fn an_endless_game_is_caught() {
        check_game(&config(Bug::NeverEnds));
    }

    #[test]
    fn a_refusal_that_changes_state_is_caught() {
        let mut game = Secret::new(
            &SecretOptions {
                bug: Bug::DirtyRefusal,
            },
            2,
            &mut GameRng::from_seed(1),
        )
        .unwrap();
        let rng = GameRng::from_seed(2);
        let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            expect_refusal(&mut game, Seat(0), &9, &rng, "probe")
        }));
        assert!(caught.is_err());
    }

    #[test]
    fn replay_reproduces_and_reports_bad_logs() {
        let options = SecretOptions::default();
        let log = vec![(Seat(0), 3), (Seat(1), 4)];
        let game = replay::<Secret>(&options, 2, 5, &log).unwrap();
        assert_eq!(game.calls, vec![3, 4]);
        let err = replay::<Secret>(&options, 2, 5, &[(Seat(1), 3)]).unwrap_err();
        assert!(err.contains("action 1"), "{err}");
    }
}
