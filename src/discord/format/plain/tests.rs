//! Tests of plain text: every mark that formats is escaped, nothing pings, ordinary names and
//! chess moves are left as they are.

use super::*;
use proptest::prelude::*;

#[test]
fn ordinary_names_and_moves_are_unchanged() {
    for text in [
        "alice",
        "Jean-Luc Picard",
        "bob plays Qxf7#.",
        "Game over: 1-0",
        "1/2-1/2 O-O e8=Q",
        "Zoë (the 2nd)",
        "mail@example.com",
    ] {
        assert_eq!(plain(text), text);
    }
}

#[test]
fn markdown_is_escaped() {
    assert_eq!(plain("**bold**"), r"\*\*bold\*\*");
    assert_eq!(plain("`code`"), r"\`code\`");
    assert_eq!(plain("__under__ ~~gone~~"), r"\_\_under\_\_ \~\~gone\~\~");
    assert_eq!(plain("||spoiler||"), r"\|\|spoiler\|\|");
    assert_eq!(plain("> quoted"), r"\> quoted");
    assert_eq!(plain("# Heading"), r"\# Heading");
    assert_eq!(plain("  -# small"), r"  \-# small");
    assert_eq!(plain("- item"), r"\- item");
    assert_eq!(plain("12. item"), r"12\. item");
    assert_eq!(plain("[a](https://x.io)"), r"\[a](https\://x.io)");
    assert_eq!(plain(r"a\b"), r"a\\b");
}

#[test]
fn nothing_pings() {
    assert_eq!(plain("@everyone"), "@\u{200B}everyone");
    assert_eq!(plain("@HERE now"), "@\u{200B}HERE now");
    assert_eq!(plain("<@&123>"), r"\<@&123\>");
    assert_eq!(plain("<@42> <#7> <t:1:R>"), r"\<@42\> \<#7\> \<t:1:R\>");
    assert!(!plain("@everyone<@&1>@here").contains("@everyone"));
    assert!(!plain("@everyone<@&1>@here").contains("<@&1>"));
}

#[test]
fn control_characters_become_spaces() {
    assert_eq!(plain("a\nb\tc\u{0}"), "a b c ");
    assert_eq!(
        plain_lines(&["**a**".into(), "b".into()]),
        [r"\*\*a\*\*", "b"]
    );
}

/// What Discord would read as formatting or a mention in `text`: a mark not escaped.
fn unescaped_marks(text: &str) -> Vec<String> {
    let mut found = Vec::new();
    let mut escaped = false;
    for c in text.chars() {
        if escaped {
            escaped = false;
            continue;
        }
        match c {
            '\\' => escaped = true,
            '*' | '_' | '`' | '~' | '|' | '>' | '<' | '[' => found.push(c.to_string()),
            _ => {}
        }
    }
    for word in ["@everyone", "@here"] {
        if text.to_lowercase().contains(word) {
            found.push(word.into());
        }
    }
    found
}

proptest! {
    #![proptest_config(crate::fuzzing::config(256))]

    #[test]
    fn fuzz_plain_text_has_no_mark_left_and_reads_the_same(
        text in r"[a-z@<>&*_`~|#\-+\[\]().:/\\0-9 \n]{0,40}"
    ) {
        let shown = plain(&text);
        prop_assert!(unescaped_marks(&shown).is_empty(), "{text:?} -> {shown:?}");
        // What a reader sees: escapes gone, zero-width spaces invisible, line breaks spaces.
        let mut seen = String::new();
        let mut chars = shown.chars();
        while let Some(c) = chars.next() {
            match c {
                '\\' => seen.extend(chars.next()),
                '\u{200B}' => {}
                c => seen.push(c),
            }
        }
        let typed: String = text.chars().map(|c| if c.is_control() { ' ' } else { c }).collect();
        prop_assert_eq!(seen, typed);
    }
}
