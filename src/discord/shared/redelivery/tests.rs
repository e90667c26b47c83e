//! The set of recent interaction ids: a redelivery is recognised, the set stays bounded, and
//! of two deliveries at once exactly one is taken.

use super::Recent;
use std::sync::Arc;

#[test]
fn an_id_taken_once_is_recognised_when_it_comes_again() {
    let recent = Recent::default();
    assert!(recent.first_time(1));
    assert!(recent.first_time(2));
    assert!(!recent.first_time(1));
    assert!(!recent.first_time(2));
    assert!(recent.first_time(3));
}

#[test]
fn only_the_latest_ids_are_remembered() {
    let recent = Recent::with_capacity(3);
    for id in 1..=4 {
        assert!(recent.first_time(id));
    }
    // 1 fell out; 2, 3 and 4 are remembered.
    assert!(!recent.first_time(4));
    assert!(!recent.first_time(2));
    assert!(recent.first_time(1));
    assert_eq!(recent.seen.lock().unwrap().ids.len(), 3);
    assert_eq!(recent.seen.lock().unwrap().order.len(), 3);
}

#[test]
fn of_two_deliveries_at_once_exactly_one_is_taken() {
    let recent = Arc::new(Recent::default());
    for id in 0..200u64 {
        let threads: Vec<_> = (0..2)
            .map(|_| {
                let recent = Arc::clone(&recent);
                std::thread::spawn(move || recent.first_time(id))
            })
            .collect();
        let taken = threads
            .into_iter()
            .map(|t| t.join().unwrap())
            .filter(|&first| first)
            .count();
        assert_eq!(taken, 1, "interaction {id}");
    }
}
