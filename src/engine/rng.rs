//! The seeded random source a match keeps on the server.

use rand::{Rng, RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// Randomness for one match. The server creates it from the match's stored seed and hands it to
/// every `new` and `apply` in order, so replaying the log repeats every shuffle exactly.
/// Players never see the seed.
#[derive(Clone, Debug)]
pub struct GameRng(ChaCha8Rng);

impl GameRng {
    pub fn from_seed(seed: u64) -> Self {
        GameRng(ChaCha8Rng::seed_from_u64(seed))
    }

    /// A uniform index in `0..len`. Panics if `len` is 0.
    pub fn below(&mut self, len: usize) -> usize {
        self.0.random_range(0..len)
    }

    /// Fisher-Yates shuffle.
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i + 1);
            items.swap(i, j);
        }
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0.next_u64()
    }
}

/// How a [`GameRng`] is saved in a snapshot: its key and how far into its stream it has read.
#[derive(Serialize, Deserialize)]
struct Saved {
    key: [u8; 32],
    word: u128,
}

impl Serialize for GameRng {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        Saved {
            key: self.0.get_seed(),
            word: self.0.get_word_pos(),
        }
        .serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for GameRng {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let saved = Saved::deserialize(deserializer)?;
        let mut rng = ChaCha8Rng::from_seed(saved.key);
        rng.set_word_pos(saved.word);
        Ok(GameRng(rng))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_saved_source_continues_where_it_stopped() {
        let mut rng = GameRng::from_seed(9);
        for _ in 0..7 {
            rng.next_u64();
        }
        let saved = serde_json::to_string(&rng).unwrap();
        let mut restored: GameRng = serde_json::from_str(&saved).unwrap();
        let ahead: Vec<u64> = (0..5).map(|_| rng.next_u64()).collect();
        let again: Vec<u64> = (0..5).map(|_| restored.next_u64()).collect();
        assert_eq!(ahead, again);
    }

    #[test]
    fn same_seed_same_sequence_other_seed_differs() {
        let draw = |seed| {
            let mut rng = GameRng::from_seed(seed);
            let mut deck: Vec<u32> = (0..20).collect();
            rng.shuffle(&mut deck);
            (deck, rng.below(1000), rng.next_u64())
        };
        assert_eq!(draw(7), draw(7));
        assert_ne!(draw(7), draw(8));
        let (deck, _, _) = draw(7);
        let mut sorted = deck.clone();
        sorted.sort();
        assert_eq!(sorted, (0..20).collect::<Vec<_>>());
    }
}
