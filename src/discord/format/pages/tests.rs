//! Tests of pages: every page within Discord's limit, every line on one page, ids that read
//! back.

use super::*;

#[test]
fn custom_ids_read_back_and_stay_within_the_limit() {
    for listing in [
        Listing::AdminLog,
        Listing::Pairings("Autumn: open".into()),
        Listing::Standings("é".repeat(40)),
        Listing::History(12),
    ] {
        let turn = Turn { listing, page: 3 };
        let id = turn.custom_id();
        assert!(id.chars().count() <= 100, "{id}");
        assert_eq!(Turn::parse(&id), Some(turn));
    }
    assert_eq!(Turn::parse("dm:page:0:log"), None);
    assert_eq!(Turn::parse("dm:page:x:log"), None);
    assert_eq!(Turn::parse("dm:page:1:hist:x"), None);
}

#[test]
fn a_long_list_is_split_into_pages_with_buttons() {
    let lines: Vec<String> = (0..200)
        .map(|i| format!("{i}. {}", "x".repeat(40)))
        .collect();
    let head = |p: usize, n: usize| format!("Pairings, page {p} of {n}:");
    let (first, rows) = page(head, &lines, 1, &Listing::AdminLog);
    assert!(first.chars().count() <= limits::CONTENT);
    assert!(first.starts_with("Pairings, page 1 of "), "{first}");
    assert_eq!(rows.len(), 1);
    let count = split(&lines).len();
    assert!(count > 3);
    let (last, _) = page(head, &lines, usize::MAX, &Listing::AdminLog);
    assert!(last.ends_with("199. xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"));
    assert_eq!(split(&lines).join("\n"), lines.join("\n"));
    let (one, rows) = page(|_, _| String::new(), &lines[..3], 1, &Listing::AdminLog);
    assert_eq!(one, lines[..3].join("\n"));
    assert!(rows.is_empty());
}
