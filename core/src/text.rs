//! Text handling shared by the write and read paths: normalisation, hashing, tokens, the
//! FTS5 query sanitiser, and validation of caller-supplied strings.

use sha2::{Digest, Sha256};

/// Content normalised for hashing: trimmed, whitespace collapsed, lowercased.
pub fn normalise(content: &str) -> String {
    content
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
}

/// SHA-256 hex of the normalised content.
pub fn content_hash(content: &str) -> String {
    hex(&Sha256::digest(normalise(content).as_bytes()))
}

/// Lower-case hex of bytes.
pub fn hex(bytes: &[u8]) -> String {
    use std::fmt::Write;
    bytes
        .iter()
        .fold(String::with_capacity(bytes.len() * 2), |mut s, b| {
            let _ = write!(s, "{b:02x}");
            s
        })
}

/// An id that is the same on every target: `prefix` + "_" + 16 hex digits of SHA-256 over
/// the length-prefixed `parts`, then `numbers` (a time, the row the record will get, …).
pub(crate) fn derived_id(prefix: &str, parts: &[&[u8]], numbers: &[i64]) -> String {
    let mut h = Sha256::new();
    for part in parts {
        h.update((part.len() as u64).to_le_bytes());
        h.update(part);
    }
    for n in numbers {
        h.update(n.to_le_bytes());
    }
    format!("{prefix}_{}", &hex(&h.finalize())[..16])
}

/// Lower-cased alphanumeric words (Unicode aware), apostrophes inside words dropped.
pub fn words(text: &str) -> Vec<String> {
    text.split(|c: char| !(c.is_alphanumeric() || c == '\''))
        .map(|w| w.trim_matches('\'').replace('\'', "").to_lowercase())
        .filter(|w| !w.is_empty())
        .collect()
}

/// Koshi's FTS5 sanitiser: URLs stripped, hyphens split, punctuation and FTS5 specials
/// stripped, 1-character tokens dropped, each word quoted, joined with OR.
/// Returns `None` when nothing searchable is left.
pub fn fts_query(query: &str) -> Option<String> {
    let mut terms: Vec<String> = Vec::new();
    for raw in query.split_whitespace() {
        let lower = raw.to_lowercase();
        if lower.starts_with("http://")
            || lower.starts_with("https://")
            || lower.starts_with("www.")
        {
            continue;
        }
        for part in raw.split(|c: char| !c.is_alphanumeric()) {
            if part.chars().count() < 2 {
                continue;
            }
            let term = part.to_lowercase();
            if !terms.contains(&term) {
                terms.push(term);
            }
        }
    }
    if terms.is_empty() {
        None
    } else {
        // Only alphanumerics remain, so quoting cannot be broken out of.
        Some(
            terms
                .iter()
                .map(|t| format!("\"{t}\""))
                .collect::<Vec<_>>()
                .join(" OR "),
        )
    }
}

/// Splits text into sentences on `.`, `!`, `?` and newlines, keeping the punctuation.
pub fn sentences(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    for (i, c) in text.char_indices() {
        if matches!(c, '.' | '!' | '?' | '\n') {
            let end = i + c.len_utf8();
            let s = text[start..end].trim();
            if !s.is_empty() && s.chars().any(|c| c.is_alphanumeric()) {
                out.push(s);
            }
            start = end;
        }
    }
    let s = text[start..].trim();
    if !s.is_empty() {
        out.push(s);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalise_collapses_whitespace_and_case() {
        assert_eq!(normalise("  I  like\tTEA\n"), "i like tea");
        assert_eq!(content_hash("I like tea"), content_hash(" i  LIKE tea "));
        assert_ne!(content_hash("I like tea"), content_hash("I like coffee"));
    }

    #[test]
    fn fts_query_keeps_only_quoted_words() {
        assert_eq!(
            fts_query("payment-api HMAC: see https://x.y/z a").unwrap(),
            "\"payment\" OR \"api\" OR \"hmac\" OR \"see\""
        );
        assert_eq!(fts_query("\"NEAR( * - : ^"), Some("\"near\"".into()));
        assert_eq!(fts_query("\" * - : ^ ( ) a"), None);
        assert_eq!(
            fts_query("col:term AND -x"),
            Some("\"col\" OR \"term\" OR \"and\"".into())
        );
        assert_eq!(fts_query("Zoë's café"), Some("\"zoë\" OR \"café\"".into()));
    }

    #[test]
    fn sentence_split() {
        assert_eq!(
            sentences("I like tea. My sister is Ana! ok"),
            vec!["I like tea.", "My sister is Ana!", "ok"]
        );
    }
}
