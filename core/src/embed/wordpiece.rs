//! BERT's uncased WordPiece tokenizer, as all-MiniLM-L6-v2 uses it: control characters
//! dropped, CJK ideographs split apart, lower-cased with accents stripped, split on
//! whitespace and around each punctuation mark, then each word cut greedily into the longest
//! pieces the vocabulary holds (`##` marks a piece inside a word). A word it cannot cut is
//! one unknown token.

use std::hash::BuildHasher;

use foldhash::fast::FixedState;
use hashbrown::HashTable;

use super::unicode::{self, Class};

/// Words longer than this many characters are one unknown token (as in BERT).
const MAX_WORD_CHARS: usize = 100;
/// Marks a piece that continues a word.
const CONTINUATION: &str = "##";
/// Seed of the pieces' hash: fixed, so a vocabulary is the same table on every target.
const HASH_SEED: u64 = 0;

/// A vocabulary and the pieces of text in it: every piece's text in one string, and two
/// tables of ids by the hash of their text (one allocation per table, not one per piece, so
/// a 30,000-token vocabulary is read in a few milliseconds).
#[derive(Debug)]
pub struct WordPiece {
    /// Every piece's text, continuations without their `##`, one after another.
    text: String,
    /// Where each piece's text is in `text`, by id.
    spans: Vec<(u32, u32)>,
    /// Ids of the pieces that start a word.
    ids: HashTable<u32>,
    /// Ids of the pieces inside a word.
    inside: HashTable<u32>,
    /// Length in bytes of the longest piece: no longer stretch of a word is looked up.
    longest: usize,
    unknown: Option<u32>,
}

/// The hash the tables keep a piece's id under.
fn hash(piece: &str) -> u64 {
    FixedState::with_seed(HASH_SEED).hash_one(piece)
}

/// The text of piece `id`.
fn piece<'t>(text: &'t str, spans: &[(u32, u32)], id: u32) -> &'t str {
    let (start, end) = spans[id as usize];
    &text[start as usize..end as usize]
}

impl WordPiece {
    /// A tokenizer over `tokens`, listed in id order (a repeated token keeps its last id).
    pub fn new(tokens: &[&str]) -> Self {
        let mut text = String::with_capacity(tokens.iter().map(|t| t.len()).sum());
        let mut spans = Vec::with_capacity(tokens.len());
        let (mut ids, mut inside) = (HashTable::new(), HashTable::new());
        let mut longest = 0;
        for (id, token) in (0u32..).zip(tokens) {
            let (within, p) = match token.strip_prefix(CONTINUATION) {
                Some(p) => (true, p),
                None => (false, *token),
            };
            let start = text.len() as u32;
            text.push_str(p);
            spans.push((start, text.len() as u32));
            longest = longest.max(p.len());
            let table = if within { &mut inside } else { &mut ids };
            let h = hash(p);
            match table.find_entry(h, |&j| piece(&text, &spans, j) == p) {
                Ok(mut kept) => *kept.get_mut() = id,
                Err(_) => {
                    table.insert_unique(h, id, |&j| hash(piece(&text, &spans, j)));
                }
            }
        }
        let mut tokenizer = WordPiece {
            text,
            spans,
            ids,
            inside,
            longest,
            unknown: None,
        };
        tokenizer.unknown = tokenizer.id(false, "[UNK]");
        tokenizer
    }

    /// The id of `p`, a piece that starts a word or (`within`) continues one.
    fn id(&self, within: bool, p: &str) -> Option<u32> {
        let table = if within { &self.inside } else { &self.ids };
        table
            .find(hash(p), |&j| piece(&self.text, &self.spans, j) == p)
            .copied()
    }

    /// The token ids of `text` (no `[CLS]`/`[SEP]`), unknown words as `[UNK]`'s id.
    pub fn encode(&self, text: &str) -> Vec<u32> {
        let mut out = Vec::new();
        for word in pre_tokenize(&normalise(text)) {
            self.cut(word, &mut out);
        }
        out
    }

    /// Greedy longest-match-first pieces of one word.
    fn cut(&self, word: &str, out: &mut Vec<u32>) {
        let unknown = |out: &mut Vec<u32>| out.extend(self.unknown);
        if word.chars().count() > MAX_WORD_CHARS {
            return unknown(out);
        }
        let start_len = out.len();
        let mut start = 0;
        while start < word.len() {
            let mut end = (start + self.longest).min(word.len());
            while !word.is_char_boundary(end) {
                end -= 1;
            }
            let mut found = None;
            while end > start {
                if let Some(id) = self.id(start > 0, &word[start..end]) {
                    found = Some(id);
                    break;
                }
                end = word[..end]
                    .char_indices()
                    .next_back()
                    .map_or(start, |(i, _)| i);
            }
            match found {
                Some(id) => out.push(id),
                None => {
                    out.truncate(start_len);
                    return unknown(out);
                }
            }
            start = end;
        }
    }
}

/// BERT's normaliser: control characters dropped, whitespace made spaces, CJK ideographs
/// spaced apart, lower-cased, accents stripped (NFD, then non-spacing marks removed).
fn normalise(text: &str) -> String {
    let mut cleaned = String::with_capacity(text.len());
    for c in text.chars() {
        if c == '\0' || c == '\u{fffd}' || is_control(c) {
            continue;
        }
        if is_whitespace(c) {
            cleaned.push(' ');
        } else if is_cjk(c) {
            cleaned.push(' ');
            cleaned.push(c);
            cleaned.push(' ');
        } else {
            cleaned.push(c);
        }
    }
    if cleaned.is_ascii() {
        // ASCII has no accents, and its lower case is ASCII's.
        cleaned.make_ascii_lowercase();
        return cleaned;
    }
    unicode::strip_accents(&cleaned).to_lowercase()
}

/// BERT's pre-tokenizer: words split on whitespace, each punctuation mark a word of its own.
fn pre_tokenize(text: &str) -> Vec<&str> {
    let mut words = Vec::new();
    for chunk in text.split(is_whitespace) {
        let mut start = 0;
        for (i, c) in chunk.char_indices() {
            if is_punctuation(c) {
                if start < i {
                    words.push(&chunk[start..i]);
                }
                start = i + c.len_utf8();
                words.push(&chunk[i..start]);
            }
        }
        if start < chunk.len() {
            words.push(&chunk[start..]);
        }
    }
    words
}

fn is_whitespace(c: char) -> bool {
    c.is_whitespace()
}

/// Every "other" character (control, format, surrogate, private use, unassigned) except the
/// whitespace controls.
fn is_control(c: char) -> bool {
    !matches!(c, '\t' | '\n' | '\r') && unicode::class(c) == Class::Control
}

/// ASCII's non-alphanumeric printables count as punctuation too (`$`, `^`, `` ` ``, …).
fn is_punctuation(c: char) -> bool {
    c.is_ascii_punctuation() || unicode::class(c) == Class::Punctuation
}

/// The CJK Unified Ideographs blocks BERT spaces apart.
fn is_cjk(c: char) -> bool {
    matches!(c as u32,
        0x4E00..=0x9FFF | 0x3400..=0x4DBF | 0x20000..=0x2A6DF | 0x2A700..=0x2B73F
        | 0x2B740..=0x2B81F | 0x2B920..=0x2CEAF | 0xF900..=0xFAFF | 0x2F800..=0x2FA1F)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vocab() -> WordPiece {
        WordPiece::new(&[
            "[PAD]", "[UNK]", "un", "##aff", "##able", "cafe", "!", "i", "'", "m", "北", "京",
        ])
    }

    #[test]
    fn cuts_words_into_the_longest_pieces() {
        let v = vocab();
        assert_eq!(v.encode("UnAffable!"), vec![2, 3, 4, 6]);
        assert_eq!(v.encode("Café"), vec![5]);
        assert_eq!(v.encode("I'm"), vec![7, 8, 9]);
        assert_eq!(v.encode("北京"), vec![10, 11]);
        // A word with no cut is one unknown token, whatever pieces it started with.
        assert_eq!(v.encode("unx cafe"), vec![1, 5]);
        assert_eq!(v.encode(&"a".repeat(101)), vec![1]);
        assert_eq!(v.encode(" \u{0}\t\u{200b} "), Vec::<u32>::new());
    }
}
