//! Text handling shared by the write and read paths: normalisation, hashing, tokens, the
//! FTS5 query sanitiser, and validation of caller-supplied strings.

use std::collections::HashSet;

use rust_stemmers::{Algorithm, Stemmer};
use sha2::{Digest, Sha256};

use crate::lexicon::{is_stopword, vague as is_vague_word};

/// Content normalised for hashing: trimmed, whitespace collapsed, lowercased.
pub fn normalise(content: &str) -> String {
    content
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
}

/// An `f32` as its `Display` writes it (`0.8`, `1`, `NaN`, `inf`), from serde_json's
/// shortest digits, except that numbers below 1e-5 or from 1e15 up keep serde_json's exponent
/// (`1e-7`): the standard library's `f32` formatting, which `Display` would bring into the
/// WebAssembly, is left out of it (about 2 KB gzip).
pub fn number(x: f32) -> String {
    if x.is_nan() {
        "NaN".into()
    } else if x.is_infinite() {
        (if x > 0.0 { "inf" } else { "-inf" }).into()
    } else if x == 0.0 && x.is_sign_negative() {
        "-0".into()
    } else if x.fract() == 0.0 && x.abs() < 1e15 {
        (x as i64).to_string()
    } else {
        serde_json::to_string(&x).unwrap_or_default()
    }
}

/// SHA-256 hex of the normalised content.
pub fn content_hash(content: &str) -> String {
    hex(&Sha256::digest(normalise(content).as_bytes()))
}

/// `c` as a capital letter, for the first letter of a name: ASCII, Latin-1, Greek and
/// Cyrillic lower-case letters (the alphabets names are written in here), other characters
/// as they are. Without the standard library's case tables (12 KiB of the browser's module)
/// for one letter.
pub fn capital(c: char) -> char {
    let shift = match c {
        'a'..='z' | 'à'..='ö' | 'ø'..='þ' | 'α'..='ρ' | 'σ'..='ω' | 'а'..='я' => 0x20,
        'ς' => 0x1f,
        'ѐ'..='џ' => 0x50,
        'ÿ' => return 'Ÿ',
        _ => return c,
    };
    char::from_u32(c as u32 - shift).unwrap_or(c)
}

/// Lower-case hex of bytes (a digit table: through `fmt`, the hex of each write's content hash
/// and id was 2 % of a seed in the browser).
pub fn hex(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut s = String::with_capacity(bytes.len() * 2);
    for &b in bytes {
        s.push(char::from(DIGITS[usize::from(b >> 4)]));
        s.push(char::from(DIGITS[usize::from(b & 0xf)]));
    }
    s
}

/// An id that is the same on every target: `prefix` + "_" + the 16 hex digits of
/// [`digest64`] over `parts` and `numbers`.
pub(crate) fn derived_id(prefix: &str, parts: &[&[u8]], numbers: &[i64]) -> String {
    format!("{prefix}_{}", hex(&digest64(parts, numbers).to_be_bytes()))
}

/// The first 64 bits (big-endian) of SHA-256 over the length-prefixed `parts`, then `numbers`
/// (a time, the row the record will get, …).
pub(crate) fn digest64(parts: &[&[u8]], numbers: &[i64]) -> u64 {
    let mut h = Sha256::new();
    for part in parts {
        h.update((part.len() as u64).to_le_bytes());
        h.update(part);
    }
    for n in numbers {
        h.update(n.to_le_bytes());
    }
    let d = h.finalize();
    u64::from_be_bytes([d[0], d[1], d[2], d[3], d[4], d[5], d[6], d[7]])
}

/// Lower-cased alphanumeric words (Unicode aware), apostrophes inside words dropped.
pub fn words(text: &str) -> Vec<String> {
    text.split(|c: char| !(c.is_alphanumeric() || c == '\''))
        .map(|w| w.trim_matches('\'').replace('\'', "").to_lowercase())
        .filter(|w| !w.is_empty())
        .collect()
}

/// The words a query asks about (Koshi's FTS5 sanitiser): URLs stripped, split on anything
/// but letters and digits, 1-character tokens dropped, lower-cased, each once; function words
/// dropped when others remain ("what is my job" is about a job, not "my"; "who am I" keeps
/// them).
pub fn query_terms(query: &str) -> Vec<String> {
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
    if terms.iter().any(|t| !is_stopword(t)) {
        terms.retain(|t| !is_stopword(t));
    }
    terms
}

/// The FTS5 query of [`query_terms`]: each quoted, joined with OR; `None` when nothing
/// searchable is left.
pub fn fts_query(query: &str) -> Option<String> {
    fts_expression(&query_terms(query))
}

/// The FTS5 expression matching any of `terms` (as [`query_terms`] gives them), one phrase
/// each, in order; `None` for no terms.
pub fn fts_expression(terms: &[String]) -> Option<String> {
    if terms.is_empty() {
        return None;
    }
    // Only alphanumerics remain, so quoting cannot be broken out of.
    Some(
        terms
            .iter()
            .map(|t| format!("\"{t}\""))
            .collect::<Vec<_>>()
            .join(" OR "),
    )
}

/// The stems of `words` (English), to compare words by.
pub fn stems<'a>(words: impl IntoIterator<Item = &'a str>) -> HashSet<String> {
    let stemmer = Stemmer::create(Algorithm::English);
    words
        .into_iter()
        .map(|w| stemmer.stem(&w.to_lowercase()).into_owned())
        .collect()
}

/// Weight of a vague word (`lexicon/vague.txt`, or a function word) among the words a
/// query asks about: "what car do I own" asks about "car" more than about "own", and a memory
/// that says only a question's vague words says little of it. On the development paraphrase
/// set (`scripts/distill/dev-paraphrase.json`, default embedder) 0.25 puts the answering fact
/// first for 0.35 of questions instead of 0.30 (in the first three: 0.67 instead of 0.65),
/// and LoCoMo dev R@10 goes from 0.694 to 0.697 (MiniLM vectors: 0.690 to 0.702).
pub const VAGUE_WORD_WEIGHT: f64 = 0.25;

/// The words a query asks about ([`query_terms`]), by stem, each weighed: 1, or
/// [`VAGUE_WORD_WEIGHT`] for a vague or function word.
#[derive(Debug, Clone, Default)]
pub struct Asked {
    /// (stem, weight) in the order asked: sums run in a fixed order on every target.
    weights: Vec<(String, f64)>,
    /// The stems of the other forms of a word asked about ("bought" for "buy"), each with the
    /// place of that word in `weights`: saying one says the word.
    forms: Vec<(String, usize)>,
    /// The place in `weights` of each term given, in their order.
    of_terms: Vec<usize>,
    /// What saying every word asked about counts for: their weights' sum, at least 1, so that
    /// vague and function words alone never make a full match.
    whole: f64,
}

impl Asked {
    /// The words of `terms` (as [`query_terms`] gives them), weighed.
    pub fn new(terms: &[String]) -> Asked {
        let stemmer = Stemmer::create(Algorithm::English);
        let mut weights: Vec<(String, f64)> = Vec::new();
        let mut forms: Vec<(String, usize)> = Vec::new();
        let mut of_terms = Vec::with_capacity(terms.len());
        for t in terms {
            let lower = t.to_lowercase();
            let weight = word_weight(&lower);
            let stem = stemmer.stem(&lower).into_owned();
            let at = match weights.iter().position(|(s, _)| *s == stem) {
                Some(at) => {
                    weights[at].1 = weights[at].1.max(weight);
                    at
                }
                None => {
                    weights.push((stem, weight));
                    weights.len() - 1
                }
            };
            of_terms.push(at);
            for form in crate::lexicon::word_forms(&lower) {
                let other = stemmer.stem(form).into_owned();
                if other != weights[at].0 && !forms.iter().any(|(s, _)| *s == other) {
                    forms.push((other, at));
                }
            }
        }
        let whole = weights.iter().map(|(_, w)| w).sum::<f64>().max(1.0);
        Asked {
            weights,
            forms,
            of_terms,
            whole,
        }
    }

    /// Which of the words asked about `content` says, in the order asked: one of its forms
    /// does.
    fn said_in(&self, content: &str) -> Vec<bool> {
        let stems: Vec<&str> = (self.weights.iter().map(|(s, _)| s.as_str()))
            .chain(self.forms.iter().map(|(s, _)| s.as_str()))
            .collect();
        let mut said = says(content, &stems);
        let n = self.weights.len();
        for (i, (_, of)) in self.forms.iter().enumerate() {
            said[*of] |= said[n + i];
        }
        said.truncate(n);
        said
    }
}

/// The other forms of `terms` (as [`query_terms`] gives them; "bought" of "buy"): what a
/// text search looks for besides them.
pub fn other_forms(terms: &[String]) -> Vec<&'static str> {
    let mut out: Vec<&'static str> = Vec::new();
    for t in terms {
        for form in crate::lexicon::word_forms(&t.to_lowercase()) {
            if !terms.iter().any(|t| t == form) && !out.contains(&form) {
                out.push(form);
            }
        }
    }
    out
}

/// The weight of a lower-case word asked about: [`VAGUE_WORD_WEIGHT`] for a vague or function
/// word, else 1.
fn word_weight(lower: &str) -> f64 {
    if is_stopword(lower) || is_vague_word(lower) {
        VAGUE_WORD_WEIGHT
    } else {
        1.0
    }
}

/// How much of what was asked `content` says: the weights of the words asked about that it
/// says (compared by stem) over [`Asked`]'s whole. 1 when it says every word asked about and
/// they weigh at least one word, whatever the query or the store.
pub fn coverage(asked: &Asked, content: &str) -> f64 {
    if asked.weights.is_empty() {
        return 0.0;
    }
    let weight: f64 = asked
        .weights
        .iter()
        .zip(asked.said_in(content))
        .filter(|(_, said)| *said)
        .map(|((_, w), _)| w)
        .sum();
    weight / asked.whole
}

/// The words asked about (`terms` of [`query_terms`]) that `content` says, compared by stem
/// ("reports" says "report") and form ("bought" says "buy"), in the order asked: what a
/// person reads as why a text matched.
pub fn matched(terms: &[String], content: &str) -> Vec<String> {
    let asked = Asked::new(terms);
    let said = asked.said_in(content);
    terms
        .iter()
        .zip(&asked.of_terms)
        .filter(|(_, at)| said[**at])
        .map(|(t, _)| t.clone())
        .collect()
}

/// Which of `stems` (of the words asked about) `content` says: the stem of one of its words
/// ([`stems`]' lower-casing and stemmer) is that stem. The English stemmer changes a word's
/// last letters only (a final "y" to "i", "ational" to "ate", …), so a word whose stem is `s`
/// begins with all of `s` but its last letter, but for the three words its exceptions change
/// sooner ([`stemmed_sooner`]): only such words are stemmed, and the reading stops once every
/// stem is found (a search weighs 50 text matches).
fn says(content: &str, stems: &[&str]) -> Vec<bool> {
    let heads: Vec<&str> = stems
        .iter()
        .map(|s| s.char_indices().last().map_or("", |(i, _)| &s[..i]))
        .collect();
    let initials: Vec<char> = stems.iter().filter_map(|s| s.chars().next()).collect();
    let stemmer = Stemmer::create(Algorithm::English);
    let mut found = vec![false; stems.len()];
    let mut left = stems.len();
    let mut lower = String::new();
    for word in alphanumeric_runs(content) {
        let first = word.chars().next().and_then(|c| c.to_lowercase().next());
        if !first.is_some_and(|c| initials.contains(&c)) {
            continue;
        }
        // ASCII's lower case in place; the rest as `str::to_lowercase` (a word-final Σ is ς).
        if word.is_ascii() {
            lower.clear();
            lower.push_str(word);
            lower.make_ascii_lowercase();
        } else {
            lower = word.to_lowercase();
        }
        if !(heads.iter().any(|head| lower.starts_with(head)) || stemmed_sooner(&lower)) {
            continue;
        }
        let stem = stemmer.stem(&lower);
        for (said, asked) in found.iter_mut().zip(stems) {
            if !*said && *asked == stem {
                *said = true;
                left -= 1;
            }
        }
        if left == 0 {
            break;
        }
    }
    found
}

/// Whether `lower` is one of the words whose stems the English stemmer's exceptions change
/// before their last letter ("dying" is "die").
fn stemmed_sooner(lower: &str) -> bool {
    matches!(lower, "dying" | "lying" | "tying")
}

/// The words of `content`: runs of letters and digits.
fn alphanumeric_runs(content: &str) -> impl Iterator<Item = &str> {
    content
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
}

/// `text` cut to at most `max` characters, at the last word boundary before the cut when
/// there is one, with `…` when anything was left out.
pub fn cut_at_word(text: &str, max: usize) -> String {
    let Some((cut, _)) = text.char_indices().nth(max) else {
        return text.to_string();
    };
    let head = &text[..cut];
    let head = match head.rfind(char::is_whitespace) {
        Some(space) if space > 0 => &head[..space],
        _ => head,
    };
    // One character is kept for the ellipsis.
    let mut head = head.trim_end().to_string();
    if head.chars().count() >= max {
        head.pop();
    }
    format!("{head}…")
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

/// Splits a transcript line's speaker label ("Caroline: …", "Dr. Lee: …") from its text; a
/// note's label ("Note: …", "Reminder: …", `lexicon/note_labels.txt`) is no speaker.
pub fn speaker_label(text: &str) -> (Option<&str>, &str) {
    match line_label(text) {
        (Some(label), rest) if !is_note_label(label) => (Some(label), rest),
        _ => (None, text),
    }
}

/// Splits a line's label, a speaker's or a note's ("Caroline: …", "Reminder: …"), from its
/// text: one to three capitalised words before ": ".
pub fn line_label(text: &str) -> (Option<&str>, &str) {
    let trimmed = text.trim_start();
    let Some((label, rest)) = trimmed.split_once(": ") else {
        return (None, text);
    };
    let words: Vec<&str> = label.split(' ').collect();
    let name_like = !label.is_empty()
        && words.len() <= 3
        && words.iter().all(|w| {
            w.chars().next().is_some_and(char::is_uppercase)
                && w.chars()
                    .all(|c| c.is_alphabetic() || matches!(c, '.' | '\'' | '-'))
        });
    if name_like && !rest.trim().is_empty() {
        (Some(label), rest)
    } else {
        (None, text)
    }
}

/// Whether a line's label opens a note rather than names a speaker ("Note", "Reminder").
pub fn is_note_label(label: &str) -> bool {
    crate::lexicon::NOTE_LABELS
        .binary_search(&label.to_lowercase().as_str())
        .is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_notes_label_is_no_speaker() {
        assert_eq!(
            speaker_label("Caroline: hi there"),
            (Some("Caroline"), "hi there")
        );
        assert_eq!(
            speaker_label("Dr. Lee: take two"),
            (Some("Dr. Lee"), "take two")
        );
        for line in [
            "Note: buy milk",
            "Reminder: call Caroline",
            "TODO: renew the passport",
            "Update: shipped it",
            "Q: where is it?",
        ] {
            assert_eq!(speaker_label(line), (None, line), "{line}");
        }
    }

    /// A word's stem begins as the word does, but for its last letter and the words stemmed
    /// sooner: what `says` reads on. Every word of the LoCoMo dev split and of the word lists.
    #[test]
    fn a_stem_begins_as_its_word_does_but_for_its_last_letter() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut text = std::fs::read_to_string(root.join("../tests/data/locomo/locomo-dev.json"))
            .unwrap_or_default();
        assert!(text.len() > 100_000, "the LoCoMo dev split is read");
        for f in std::fs::read_dir(root.join("src/lexicon")).unwrap() {
            text.push_str(&std::fs::read_to_string(f.unwrap().path()).unwrap_or_default());
        }
        text.push_str(" dying lying tying skies skis idly gently ugly early only singly news ");
        let stemmer = Stemmer::create(Algorithm::English);
        let mut words = 0;
        for word in alphanumeric_runs(&text) {
            let lower = word.to_lowercase();
            let stem = stemmer.stem(&lower);
            let head = stem.char_indices().last().map_or("", |(i, _)| &stem[..i]);
            words += 1;
            assert!(
                lower.starts_with(head) || stemmed_sooner(&lower),
                "{lower} -> {stem}"
            );
            // And `says` finds each word's own stem in it.
            assert_eq!(says(word, &[&stem]), vec![true], "{word}");
        }
        assert!(words > 100_000, "{words}");
    }

    #[test]
    fn a_capital_is_the_standard_upper_case_where_it_changes_a_letter() {
        let mut changed = 0;
        for c in (0..0x500u32).filter_map(char::from_u32) {
            let upper: Vec<char> = c.to_uppercase().collect();
            let cap = capital(c);
            if cap != c {
                changed += 1;
                assert_eq!(upper, [cap], "{c:?}");
            }
        }
        // a–z, 30 Latin-1 letters and ÿ, 25 Greek, 48 Cyrillic.
        assert_eq!(changed, 26 + 31 + 25 + 48);
        assert_eq!(capital('é'), 'É');
        assert_eq!(capital('ж'), 'Ж');
        assert_eq!(capital('ς'), 'Σ');
        assert_eq!(capital('ß'), 'ß');
        assert_eq!(capital('7'), '7');
    }

    #[test]
    fn numbers_are_written_as_display_writes_them() {
        for x in [
            0.8f32,
            1.0,
            -2.5,
            0.1,
            1e-4,
            0.0,
            -0.0,
            1234.5678,
            65_536.0,
            0.123_456_79,
        ] {
            assert_eq!(number(x), x.to_string(), "{x}");
        }
        assert_eq!(number(1e-7), "1e-7");
        for x in [f32::NAN, f32::INFINITY, f32::NEG_INFINITY] {
            assert_eq!(number(x), x.to_string());
        }
    }

    /// `coverage` stems only the words that begin as an asked stem does: on every word of the
    /// labelled messages, and words the stemmer treats as exceptions, a stem begins with its
    /// word's first letter, and coverage is what stemming every word gives.
    #[test]
    fn a_stem_begins_as_its_word_so_coverage_may_skip_the_others() {
        let corpus = [
            include_str!("../tests/data/extraction.json"),
            include_str!("../tests/data/extraction_holdout.json"),
            "Skies skis dying lying tying idly gently ugly early only singly news Yelling \
             ÉTÉ Über naïve 42nd 3D x",
        ]
        .concat();
        let all: Vec<&str> = alphanumeric_runs(&corpus).collect();
        assert!(all.len() > 3_000, "the corpus is the labelled sets");
        for w in &all {
            let lower = w.to_lowercase();
            let stem = stems([lower.as_str()])
                .into_iter()
                .next()
                .unwrap_or_default();
            assert_eq!(
                stem.chars().next(),
                lower.chars().next(),
                "{w} stems to {stem}"
            );
        }
        // What stemming every word gives.
        let said_all = stems(all.iter().copied());
        let stemmer = Stemmer::create(Algorithm::English);
        for asked in [
            &["skies", "lying"][..],
            &["work", "sister", "porto", "zebra"],
            &["yell", "über"],
        ] {
            let terms: Vec<String> = asked.iter().map(|t| t.to_string()).collect();
            let says: f64 = asked
                .iter()
                .filter(|t| said_all.contains(stemmer.stem(t).as_ref()))
                .map(|t| word_weight(t))
                .sum();
            let whole = asked.iter().map(|t| word_weight(t)).sum::<f64>().max(1.0);
            let got = coverage(&Asked::new(&terms), &corpus);
            assert!((got - says / whole).abs() < 1e-12, "{asked:?}: {got}");
            let said: Vec<String> = terms
                .iter()
                .filter(|t| said_all.contains(stemmer.stem(t).as_ref()))
                .cloned()
                .collect();
            assert_eq!(matched(&terms, &corpus), said);
        }
    }

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
            Some("\"col\" OR \"term\"".into())
        );
        // Function words only when nothing else is asked.
        assert_eq!(fts_query("what is my job?"), Some("\"job\"".into()));
        assert_eq!(fts_query("who am I"), Some("\"who\" OR \"am\"".into()));
        assert_eq!(fts_query("Zoë's café"), Some("\"zoë\" OR \"café\"".into()));
    }

    #[test]
    fn coverage_is_the_share_of_the_words_asked_about() {
        let terms = query_terms("When is the quarterly report due?");
        assert_eq!(terms, ["quarterly", "report", "due"]);
        let asked = Asked::new(&terms);
        assert_eq!(
            coverage(&asked, "The quarterly reports are due Friday"),
            1.0
        );
        assert!((coverage(&asked, "a report on whales") - 1.0 / 3.0).abs() < 1e-12);
        assert_eq!(coverage(&asked, "nothing here"), 0.0);
        assert_eq!(coverage(&Asked::default(), "anything"), 0.0);
    }

    #[test]
    fn another_form_of_a_word_asked_about_says_it() {
        let terms = |q: &str| query_terms(q);
        let asked = Asked::new(&terms("what did I buy in March"));
        // "bought" says "buy"; "march" is still asked.
        assert_eq!(coverage(&asked, "Bought a new espresso machine."), 0.5);
        assert_eq!(coverage(&asked, "Bought it in March."), 1.0);
        assert_eq!(
            matched(&terms("what did I buy"), "I bought a blender"),
            ["buy"]
        );
        // Either way round, and for irregular plurals.
        let ran = Asked::new(&terms("where did I run"));
        assert_eq!(coverage(&ran, "Ran 8 km in the park"), 1.0);
        let people = Asked::new(&terms("which people came"));
        assert_eq!(coverage(&people, "one person came"), 1.0);
        assert!(coverage(&people, "nobody came") < 1.0);
        // A word without other forms is as before.
        assert_eq!(
            coverage(&Asked::new(&terms("espresso")), "an espresso"),
            1.0
        );
        assert_eq!(other_forms(&terms("what did I buy")), ["bought"]);
        assert!(other_forms(&terms("espresso machine")).is_empty());
    }

    #[test]
    fn vague_words_count_for_less_and_alone_never_make_a_full_match() {
        // "own" says little of the question: saying only it is a fifth of a match.
        let asked = Asked::new(&query_terms("What car do I own?"));
        let whole = 1.0 + VAGUE_WORD_WEIGHT;
        assert_eq!(
            coverage(&asked, "My car insurance is due in May"),
            1.0 / whole
        );
        assert_eq!(coverage(&asked, "I own a bike"), VAGUE_WORD_WEIGHT / whole);
        assert_eq!(coverage(&asked, "I own a car"), 1.0);
        // Only vague words, or only function words: a text saying them all is no full match.
        let asked = Asked::new(&query_terms("what do I keep up?"));
        assert_eq!(
            coverage(&asked, "I keep fit to keep up"),
            2.0 * VAGUE_WORD_WEIGHT
        );
        let asked = Asked::new(&query_terms("who am I"));
        assert_eq!(coverage(&asked, "who am I to say"), 2.0 * VAGUE_WORD_WEIGHT);
    }

    #[test]
    fn matched_names_the_words_asked_about_that_a_text_says() {
        let terms = query_terms("When are the quarterly reports due?");
        assert_eq!(
            matched(&terms, "The Quarterly REPORT is due Friday"),
            ["quarterly", "reports", "due"]
        );
        assert_eq!(matched(&terms, "a report on whales"), ["reports"]);
        assert!(matched(&terms, "nothing here").is_empty());
        assert!(matched(&[], "anything").is_empty());
        // Only stopwords asked: they are the words asked about.
        assert_eq!(
            matched(&query_terms("who was it"), "it was me"),
            ["was", "it"]
        );
    }

    #[test]
    fn sentence_split() {
        assert_eq!(
            sentences("I like tea. My sister is Ana! ok"),
            vec!["I like tea.", "My sister is Ana!", "ok"]
        );
    }
}
