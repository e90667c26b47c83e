//! Tests of the cuts that keep messages within Discord's limits.

use super::*;
use proptest::prelude::*;

#[test]
fn a_cut_keeps_whole_characters_and_says_it_was_cut() {
    assert_eq!(cut("short", 10), "short");
    assert_eq!(cut("abcdef", 4), "abc…");
    let long = "é".repeat(150);
    let name = thread_name(&long);
    assert_eq!(name.chars().count(), 100);
    assert!(name.ends_with('…'));
    assert_eq!(cut_bare("ééé", 2), "éé");
}

#[test]
fn lines_are_gathered_into_messages_within_the_limit() {
    let lines: Vec<String> = (0..10).map(|i| format!("line {i}")).collect();
    assert_eq!(chunks(&lines, 2000), [lines.join("\n")]);
    let parts = chunks(&lines, 20);
    assert_eq!(parts[0], "line 0\nline 1\nline 2");
    assert_eq!(parts.join("\n"), lines.join("\n"));
    assert_eq!(chunks(&[], 20), [""]);
    assert_eq!(chunks(&["x".repeat(30)], 20)[0].chars().count(), 20);
}

proptest! {
    #![proptest_config(crate::fuzzing::config(128))]

    #[test]
    fn fuzz_chunks_keep_every_line_in_order_within_the_limit(
        lines in proptest::collection::vec("[a-zé ]{0,60}", 0..50),
        limit in 10usize..200
    ) {
        let parts = chunks(&lines, limit);
        for part in &parts {
            prop_assert!(part.chars().count() <= limit);
        }
        let cut_lines: Vec<String> = lines.iter().map(|l| cut(l, limit)).collect();
        prop_assert_eq!(parts.join("\n"), cut_lines.join("\n"));
    }
}
