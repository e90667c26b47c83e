//! Discord's limits on what a bot sends, and the cuts that keep within them: a message's
//! content (2,000 characters for a bot, whatever the API description says), a thread's name,
//! an autocomplete list and its entries. A list too long for one message is split at its
//! lines ([`chunks`]) or shown a page at a time (see `pages.rs`).

/// A message's content, in characters.
pub const CONTENT: usize = 2000;
/// A thread's (a channel's) name.
pub const THREAD_NAME: usize = 100;
/// Choices in an autocomplete answer.
pub const CHOICES: usize = 25;
/// An autocomplete choice's name and value.
pub const CHOICE_TEXT: usize = 100;

/// `text` cut to at most `limit` characters, on a character boundary; a cut text ends with
/// "…" so the reader sees it goes on.
pub fn cut(text: &str, limit: usize) -> String {
    if text.chars().count() <= limit {
        return text.to_string();
    }
    let mut kept: String = text.chars().take(limit.saturating_sub(1)).collect();
    kept.push('…');
    kept
}

/// `text` cut to `limit` characters without a mark (an id or a value is cut bare: it must
/// stay what it is, only shorter).
pub fn cut_bare(text: &str, limit: usize) -> String {
    text.chars().take(limit).collect()
}

/// A thread's name from `text`, within Discord's limit.
pub fn thread_name(text: &str) -> String {
    cut(text, THREAD_NAME)
}

/// `lines` gathered into messages of at most `limit` characters each, in order, a line never
/// split unless it alone is too long (then it is cut).
pub fn chunks(lines: &[String], limit: usize) -> Vec<String> {
    let mut messages: Vec<String> = Vec::new();
    let mut current = String::new();
    // The current message's size, None before its first line.
    let mut size: Option<usize> = None;
    for line in lines {
        let line = cut(line, limit);
        let len = line.chars().count();
        size = match size {
            Some(size) if size + 1 + len <= limit => {
                current.push('\n');
                Some(size + 1 + len)
            }
            Some(_) => {
                messages.push(std::mem::take(&mut current));
                Some(len)
            }
            None => Some(len),
        };
        current.push_str(&line);
    }
    messages.push(current);
    messages
}

#[cfg(test)]
mod tests;
