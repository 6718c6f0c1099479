//! The extractor's word lists. Each is a text file in `lists/`, built into the binary and read
//! once, on first use: one entry per line, `#` starts a comment line, and each file's header
//! says what the list is for and where it came from. Weighted lists put the number after a tab;
//! `cues.txt` groups its phrases under `[TYPE weight]` sections.

use std::sync::LazyLock;

use crate::model::MemoryType;

/// The entries of a list: its lines that are neither blank nor comments, trimmed.
fn entries(text: &'static str) -> impl Iterator<Item = (usize, &'static str)> {
    text.lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.trim()))
        .filter(|(_, l)| !l.is_empty() && !l.starts_with('#'))
}

/// A list of words or phrases.
fn words(text: &'static str) -> Vec<&'static str> {
    entries(text).map(|(_, l)| l).collect()
}

/// [`words`], sorted for binary search.
fn sorted_words(text: &'static str) -> Vec<&'static str> {
    let mut w = words(text);
    w.sort_unstable();
    w.dedup();
    w
}

/// The number in a list line. The lists are part of the build, and a test reads every one of
/// them, so a malformed line is a bug in the repository: say where it is.
fn number(file: &str, line: usize, text: &str) -> f64 {
    match text.trim().parse::<f64>() {
        Ok(x) if x.is_finite() => x,
        _ => panic!("extract/lists/{file} line {line}: {text:?} is not a number"),
    }
}

/// A list of `phrase<TAB>number` lines.
fn weighted(file: &str, text: &'static str) -> Vec<(&'static str, f64)> {
    entries(text)
        .map(|(i, l)| match l.split_once('\t') {
            Some((phrase, w)) => (phrase.trim(), number(file, i, w)),
            None => panic!("extract/lists/{file} line {i}: expected a phrase, a tab and a number"),
        })
        .collect()
}

/// `[TYPE weight]` sections of phrases.
fn sections(file: &str, text: &'static str) -> Vec<(MemoryType, f64, Vec<&'static str>)> {
    let mut out: Vec<(MemoryType, f64, Vec<&'static str>)> = Vec::new();
    for (i, l) in entries(text) {
        if let Some(head) = l.strip_prefix('[').and_then(|h| h.strip_suffix(']')) {
            let (t, w) = head.split_once(' ').unwrap_or((head, ""));
            let t = t.parse::<MemoryType>().unwrap_or_else(|e| {
                panic!("extract/lists/{file} line {i}: {e}");
            });
            out.push((t, number(file, i, w), Vec::new()));
        } else {
            match out.last_mut() {
                Some(section) => section.2.push(l),
                None => panic!("extract/lists/{file} line {i}: a phrase before any [TYPE weight]"),
            }
        }
    }
    out
}

macro_rules! lists {
    ($($(#[$meta:meta])* $name:ident: $ty:ty = $read:ident($file:literal);)+) => {
        $(
            $(#[$meta])*
            pub static $name: LazyLock<$ty> =
                LazyLock::new(|| lists!(@read $read, $file));
        )+
        /// Reads every list (tests: a malformed line fails here rather than in use).
        #[cfg(test)]
        fn read_all() -> Vec<(&'static str, usize)> {
            vec![$(($file, $name.len())),+]
        }
    };
    (@read words, $file:literal) => { words(include_str!(concat!("lists/", $file))) };
    (@read sorted_words, $file:literal) => { sorted_words(include_str!(concat!("lists/", $file))) };
    (@read $read:ident, $file:literal) => { $read($file, include_str!(concat!("lists/", $file))) };
}

lists! {
    /// Frequent English words: never a name on their own.
    COMMON: Vec<&'static str> = words("common.txt");
    /// Gazetteer of organisations.
    ORGANIZATIONS: Vec<&'static str> = words("organizations.txt");
    /// Gazetteer of products.
    PRODUCTS: Vec<&'static str> = words("products.txt");
    /// Gazetteer of countries, cities and regions.
    LOCATIONS: Vec<&'static str> = words("locations.txt");
    /// Gazetteer of fields, subjects and practices.
    CONCEPTS: Vec<&'static str> = words("concepts.txt");
    /// Gazetteer of events.
    EVENTS: Vec<&'static str> = words("events.txt");
    /// Last words that make a name an organisation.
    ORG_SUFFIXES: Vec<&'static str> = words("org_suffixes.txt");
    /// Last words that make a name a place.
    PLACE_SUFFIXES: Vec<&'static str> = words("place_suffixes.txt");
    /// Last words that make a name an event.
    EVENT_SUFFIXES: Vec<&'static str> = words("event_suffixes.txt");
    /// Gazetteer words that are everyday words too: names only when capitalised.
    AMBIGUOUS: Vec<&'static str> = words("ambiguous.txt");
    /// Nationality adjectives.
    DEMONYMS: Vec<&'static str> = words("demonyms.txt");
    /// Words that carry no memory on their own.
    FILLER: Vec<&'static str> = words("filler.txt");
    /// Words that say little of what a question is about (sorted: looked up by search).
    VAGUE: Vec<&'static str> = sorted_words("vague.txt");
    /// Hedging cues and the confidence each takes off.
    HEDGES: Vec<(&'static str, f64)> = weighted("hedges.txt");
    /// Words and their valence.
    SENTIMENT: Vec<(&'static str, f64)> = weighted("sentiment.txt");
    /// Cue phrases of each memory type and their weight.
    CUES: Vec<(MemoryType, f64, Vec<&'static str>)> = sections("cues.txt");
}

/// Whether a lower-case word says little of what a question is about (`vague.txt`).
pub fn vague(w: &str) -> bool {
    VAGUE.binary_search(&w).is_ok()
}

/// Whether a lower-case word is a common English word.
pub fn common(w: &str) -> bool {
    COMMON.contains(&w)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_list_reads_and_holds_entries() {
        for (file, n) in read_all() {
            assert!(n > 0, "{file} is empty");
        }
        assert!(common("about") && !common("porto"));
        assert!(vague("own") && vague("up") && !vague("car") && !vague("sister"));
        // Function words are weighed as vague already: the list holds none of them.
        let listed: Vec<_> = VAGUE
            .iter()
            .filter(|w| crate::embed::is_stopword(w))
            .collect();
        assert!(listed.is_empty(), "stopwords in vague.txt: {listed:?}");
        assert!(CUES
            .iter()
            .any(|(t, _, p)| *t == MemoryType::Plan && !p.is_empty()));
        assert!(HEDGES.iter().any(|&(h, w)| h == "i think" && w > 0.0));
        assert!(SENTIMENT.iter().all(|&(_, v)| (-1.0..=1.0).contains(&v)));
    }

    #[test]
    fn lists_are_lower_case_and_single_spaced() {
        let all = [
            &*COMMON,
            &*ORGANIZATIONS,
            &*PRODUCTS,
            &*LOCATIONS,
            &*CONCEPTS,
            &*EVENTS,
            &*ORG_SUFFIXES,
            &*PLACE_SUFFIXES,
            &*EVENT_SUFFIXES,
            &*AMBIGUOUS,
            &*DEMONYMS,
            &*FILLER,
        ];
        for list in all {
            for w in list.iter() {
                assert_eq!(*w, w.to_lowercase(), "{w:?}");
                // One space between the words of a phrase: the matchers split on it.
                assert!(!w.contains('\t') && !w.contains("  "), "{w:?}");
            }
        }
    }
}
