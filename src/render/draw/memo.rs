//! Things drawn once and kept for every later picture (glyphs, pieces, shapes).

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

/// Things drawn once and kept for every later picture (glyphs, pieces, shapes), by key.
pub type Memo<K, V> = OnceLock<Mutex<HashMap<K, Arc<V>>>>;

/// The value kept in `memo` under `key`, made by `make` the first time. The lock is not held
/// while making, so two threads may both make a value once; either copy serves.
pub fn remembered<K: Eq + std::hash::Hash, V>(
    memo: &Memo<K, V>,
    key: K,
    make: impl FnOnce() -> V,
) -> Arc<V> {
    let memo = memo.get_or_init(Default::default);
    if let Some(hit) = memo.lock().expect("a picture cache").get(&key) {
        return Arc::clone(hit);
    }
    let made = Arc::new(make());
    memo.lock()
        .expect("a picture cache")
        .insert(key, Arc::clone(&made));
    made
}
