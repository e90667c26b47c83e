//! A player's choices as Discord components, within Discord's limits: a few as buttons, up to
//! 25 in a select menu, and longer lists grouped by their leading words ("attack Fork …") or,
//! when words do not group them, their leading letters ("N…" for a chess knight's moves). A
//! group opens a menu of its own. Pure: no Discord calls.

/// Options in one select menu.
pub const MENU_LIMIT: usize = 25;
/// Characters in an option's value or label.
pub const TEXT_LIMIT: usize = 100;
/// At most this many choices are offered as buttons.
pub const BUTTON_LIMIT: usize = 5;

/// One option of a menu.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Entry {
    /// Play this action.
    Act(String),
    /// Open a menu of the `count` actions that start with `prefix`.
    More { prefix: String, count: usize },
}

impl Entry {
    /// What the menu shows.
    pub fn label(&self) -> String {
        match self {
            Entry::Act(text) => text.clone(),
            Entry::More { prefix, count } => {
                let label = format!("{prefix} … ({count} choices)");
                label.chars().take(TEXT_LIMIT).collect()
            }
        }
    }

    /// What the menu sends back when this option is picked; read by [`Pick::from_value`].
    pub fn value(&self) -> String {
        match self {
            Entry::Act(text) => format!("={text}"),
            Entry::More { prefix, .. } => format!(">{prefix}"),
        }
    }
}

/// A picked menu option.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Pick {
    Act(String),
    More(String),
}

impl Pick {
    pub fn from_value(value: &str) -> Option<Pick> {
        if let Some(text) = value.strip_prefix('=') {
            Some(Pick::Act(text.to_string()))
        } else {
            value
                .strip_prefix('>')
                .map(|prefix| Pick::More(prefix.to_string()))
        }
    }
}

/// The options of the menu of `choices` that start with `prefix` ("" for all of them): every
/// such choice when they fit, else groups, with the smallest groups opened in place while
/// everything still fits. None when there is no such choice or no grouping fits.
pub fn entries(choices: &[String], prefix: &str) -> Option<Vec<Entry>> {
    let members: Vec<&str> = choices
        .iter()
        .map(String::as_str)
        .filter(|c| c.starts_with(prefix))
        .collect();
    // The longest value is "=" and the text.
    if members.is_empty() || members.iter().any(|m| m.len() >= TEXT_LIMIT) {
        return None;
    }
    if members.len() <= MENU_LIMIT {
        return Some(members.iter().map(|m| Entry::Act(m.to_string())).collect());
    }
    let mut prefix = prefix.to_string();
    'narrow: loop {
        for key in [next_word, next_char] {
            let groups = group(&members, |m| key(m, &prefix));
            if let [(only, _)] = groups.as_slice() {
                // Every choice shares the next word or letter: look past it.
                prefix = only.to_string();
                continue 'narrow;
            }
            if groups.len() <= MENU_LIMIT {
                return Some(pack(groups));
            }
        }
        return None;
    }
}

/// `member` up to the end of the word after `prefix`.
fn next_word<'a>(member: &'a str, prefix: &str) -> &'a str {
    let rest = &member[prefix.len()..];
    let start = rest.len() - rest.trim_start().len();
    let end = rest[start..]
        .find(char::is_whitespace)
        .map_or(rest.len(), |i| start + i);
    &member[..prefix.len() + end]
}

/// `member` up to the letter after `prefix` (spaces skipped).
fn next_char<'a>(member: &'a str, prefix: &str) -> &'a str {
    let rest = &member[prefix.len()..];
    let start = rest.len() - rest.trim_start().len();
    let end = rest[start..]
        .chars()
        .next()
        .map_or(rest.len(), |c| start + c.len_utf8());
    &member[..prefix.len() + end]
}

/// Members grouped by key, in order of first appearance.
fn group<'a>(
    members: &[&'a str],
    key: impl Fn(&'a str) -> &'a str,
) -> Vec<(&'a str, Vec<&'a str>)> {
    let mut groups: Vec<(&str, Vec<&str>)> = Vec::new();
    for &member in members {
        let k = key(member);
        match groups.iter_mut().find(|(g, _)| *g == k) {
            Some((_, list)) => list.push(member),
            None => groups.push((k, vec![member])),
        }
    }
    groups
}

/// The groups as entries. While the menu stays within its limit, the smallest groups are
/// opened in place: into their actions, or else into their own groups ("attack" into
/// "attack Fork …" and "attack Siege …").
fn pack(groups: Vec<(&str, Vec<&str>)>) -> Vec<Entry> {
    let mut slots: Vec<Vec<Entry>> = groups
        .iter()
        .map(|(key, list)| match list.as_slice() {
            [one] => vec![Entry::Act(one.to_string())],
            _ => vec![Entry::More {
                prefix: key.to_string(),
                count: list.len(),
            }],
        })
        .collect();
    let mut by_size: Vec<usize> = (0..groups.len())
        .filter(|&i| groups[i].1.len() > 1)
        .collect();
    by_size.sort_by_key(|&i| groups[i].1.len());
    let mut total = groups.len();
    for i in by_size {
        let (key, list) = &groups[i];
        let inner: Vec<String> = list.iter().map(|m| m.to_string()).collect();
        let opened = if total - 1 + list.len() <= MENU_LIMIT {
            inner.into_iter().map(Entry::Act).collect()
        } else {
            match entries(&inner, key) {
                Some(sub) if total - 1 + sub.len() <= MENU_LIMIT => sub,
                _ => continue,
            }
        };
        total = total - 1 + opened.len();
        slots[i] = opened;
    }
    slots.into_iter().flatten().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    /// Every choice is reachable: following groups down always ends at each choice once.
    fn reachable(choices: &[String], prefix: &str) -> Vec<String> {
        entries(choices, prefix)
            .unwrap()
            .into_iter()
            .flat_map(|e| match e {
                Entry::Act(text) => vec![text],
                Entry::More { prefix, count } => {
                    let below = reachable(choices, &prefix);
                    assert_eq!(below.len(), count, "{prefix}");
                    below
                }
            })
            .collect()
    }

    #[test]
    fn a_short_list_is_one_menu_of_actions() {
        let choices = texts(&["play Knight", "play Queen", "end"]);
        assert_eq!(
            entries(&choices, ""),
            Some(choices.iter().cloned().map(Entry::Act).collect())
        );
        assert_eq!(entries(&choices, "burn"), None);
    }

    #[test]
    fn a_long_list_groups_by_words_and_opens_the_small_groups() {
        let mut choices = texts(&["play Knight", "play Medic", "play Medic on Peasant", "end"]);
        for combat in ["Fork", "Siege"] {
            for n in 0..15 {
                choices.push(format!("attack {combat} with Knight {n}"));
            }
        }
        // By first words: three plays, "end" and 30 attacks; the attacks open into the Fork
        // attacks and a Siege group, which is as much as fits.
        let top = entries(&choices, "").unwrap();
        assert_eq!(top.len(), 20, "{top:?}");
        assert_eq!(
            top[..4],
            choices[..4]
                .iter()
                .cloned()
                .map(Entry::Act)
                .collect::<Vec<_>>()
        );
        assert_eq!(top[4], Entry::Act("attack Fork with Knight 0".into()));
        let siege = Entry::More {
            prefix: "attack Siege".into(),
            count: 15,
        };
        assert_eq!(top[19], siege);
        assert_eq!(siege.label(), "attack Siege … (15 choices)");
        let narrowed = entries(&choices, "attack Siege").unwrap();
        assert_eq!(narrowed.len(), 15);
        assert_eq!(narrowed[0], Entry::Act("attack Siege with Knight 0".into()));
        let mut all = reachable(&choices, "");
        all.sort();
        choices.sort();
        assert_eq!(all, choices);
    }

    #[test]
    fn single_words_group_by_their_letters() {
        // A chess position's moves: more than 25 single words.
        let mut choices = Vec::new();
        for file in "abcdefgh".chars() {
            choices.push(format!("{file}4"));
            choices.push(format!("N{file}5"));
            choices.push(format!("Q{file}6"));
            choices.push(format!("R{file}7"));
        }
        let top = entries(&choices, "").unwrap();
        assert!(top.len() <= MENU_LIMIT, "{top:?}");
        // Letters give eight single pawn moves and three groups of eight; two of the groups
        // are opened in place, the third stays a group.
        assert_eq!(top.len(), 25, "{top:?}");
        assert!(top.contains(&Entry::More {
            prefix: "R".into(),
            count: 8
        }));
        let mut all = reachable(&choices, "");
        all.sort();
        choices.sort();
        assert_eq!(all, choices);
    }

    #[test]
    fn a_shared_first_word_is_looked_past() {
        let choices: Vec<String> = (0..30).map(|n| format!("rotate c{n}")).collect();
        let top = entries(&choices, "").unwrap();
        // "rotate" alone would be one group; the letters after it split them.
        assert!(top.iter().all(|e| match e {
            Entry::More { prefix, .. } => prefix.starts_with("rotate c"),
            Entry::Act(text) => text.starts_with("rotate c"),
        }));
        assert_eq!(reachable(&choices, "").len(), 30);
    }

    #[test]
    fn too_many_groups_or_too_long_a_text_give_no_menu() {
        // 30 different first letters, two choices each: neither words nor letters fit.
        let spread: Vec<String> = (0..30u32)
            .map(|n| char::from_u32(0x4e00 + n).unwrap())
            .flat_map(|c| [format!("{c}1"), format!("{c}2")])
            .collect();
        assert_eq!(entries(&spread, ""), None);
        let long = vec!["x".repeat(TEXT_LIMIT)];
        assert_eq!(entries(&long, ""), None);
    }

    #[test]
    fn values_read_back() {
        for entry in [
            Entry::Act("attack Fork with Knight, Knight, Peasant".into()),
            Entry::More {
                prefix: "attack Fork".into(),
                count: 3,
            },
        ] {
            let back = match Pick::from_value(&entry.value()).unwrap() {
                Pick::Act(text) => Entry::Act(text),
                Pick::More(prefix) => Entry::More { prefix, count: 3 },
            };
            assert_eq!(back, entry);
        }
        assert_eq!(Pick::from_value("card 2"), None);
    }
}
