//! Text a user chose (display names, league names, reasons, game options) and text the table
//! wrote with such names in it (its lines about a match or a league), shown in a message as
//! the very characters typed: no bold, italics, code, strike-through, spoilers, quotes,
//! headings, lists or links, and no mention that could take effect (`@everyone`, `@here`,
//! `<@&role>`, `<@user>`, `<#channel>`). Discord renders a backslash before a punctuation mark
//! as that mark alone, so the text reads the same; `@everyone` and `@here` get an invisible
//! zero-width space after the `@`, as serenity's `MessageBuilder::push_safe` does (its escaping
//! covers only `*`, `_` and backticks, too few for names, hence this file). Control characters,
//! line breaks among them, become spaces: a name stays on its line.

/// Marks that format text wherever they stand (`<` starts every mention and timestamp, `[` a
/// masked link, `\` an escape of the user's own).
const ANYWHERE: [char; 9] = ['\\', '*', '_', '`', '~', '|', '>', '<', '['];

/// `text` as plain text in a Discord message (see the file's comment).
pub fn plain(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 8);
    let mut at_start = true;
    let mut rest = text;
    while let Some(c) = rest.chars().next() {
        let after = &rest[c.len_utf8()..];
        if c.is_control() {
            out.push(' ');
        } else if ANYWHERE.contains(&c) {
            out.push('\\');
            out.push(c);
        } else if at_start && matches!(c, '#' | '-' | '+') {
            // A heading or a list item, only at the start of a line.
            out.push('\\');
            out.push(c);
        } else if at_start && let Some(digits) = numbered(rest) {
            // "1. " would be a numbered item: its dot is escaped.
            out.push_str(digits);
            out.push_str("\\.");
            rest = &rest[digits.len() + 1..];
            at_start = false;
            continue;
        } else if c == '@' && mass_mention(after) {
            out.push('@');
            out.push('\u{200B}');
        } else if c == ':' && after.starts_with("//") {
            // "https://…": no link is made of it.
            out.push_str("\\:");
        } else {
            out.push(c);
        }
        if !c.is_whitespace() {
            at_start = false;
        }
        rest = after;
    }
    out
}

/// Each of `lines` made [`plain`].
pub fn plain_lines(lines: &[String]) -> Vec<String> {
    lines.iter().map(|l| plain(l)).collect()
}

/// The digits `rest` starts with when a dot and a space follow them (a numbered item).
fn numbered(rest: &str) -> Option<&str> {
    let digits = rest.len() - rest.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    (digits > 0 && rest[digits..].starts_with(". ")).then(|| &rest[..digits])
}

/// Whether the text after an `@` would make it a mention of everyone or of those online.
fn mass_mention(after: &str) -> bool {
    let lower: String = after.chars().take(8).collect::<String>().to_lowercase();
    lower.starts_with("everyone") || lower.starts_with("here")
}

#[cfg(test)]
mod tests;
