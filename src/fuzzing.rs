//! Shared settings for the property tests that fuzz every input a user controls.
//!
//! Every such test is named `fuzz_...` and takes its case count from [`config`], so
//! `cargo test` runs a quick bounded pass and a long run is one command:
//!
//! ```sh
//! PROPTEST_CASES=10000 cargo test --lib fuzz_ -- --test-threads 1
//! ```
//!
//! `PROPTEST_CASES` (proptest's own variable) overrides every test's default count.

use proptest::test_runner::Config;

/// The proptest configuration for a fuzz test: `default_cases` cases unless
/// `PROPTEST_CASES` says otherwise; failures are kept in the source tree so they rerun.
pub fn config(default_cases: u32) -> Config {
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|text| text.parse().ok())
        .unwrap_or(default_cases);
    Config {
        cases,
        ..Config::default()
    }
}
