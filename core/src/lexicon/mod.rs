//! Every word list of the engine, as data: each is a text file beside this one, built into the
//! binary and read once, on first use. One entry per line, `#` starts a comment line, and each
//! file's header says what the list is for and where it came from. Weighted lists put the
//! number after a tab, tables (`kin.txt`, `relation_patterns.txt`) three fields between tabs;
//! `cues.txt` groups its phrases under `[TYPE weight]` sections.
//!
//! A foundation module: it uses nothing of the crate, so every layer (`text`, `embed`, the
//! extractor, conflict detection, the graph, the heartbeat) reads its words from here. Lists of
//! the same kind for different purposes are named for them (`negations_for_conflict.txt`,
//! `negations_for_sentiment.txt`), and their headers say how they differ. Tables whose entries
//! map to a value of a type outside this module keep that value as its name (`kin.txt`,
//! `relation_patterns.txt`: the relation's name, parsed by their reader); the calendar's
//! weekday and month names, the hours of times of day and the number words stay beside the
//! types they produce, and a rule's alternatives of a handful of words (`matches!(w, "in" |
//! "at")`, or a match arm per entity type) stay in the rule they decide.

use std::sync::LazyLock;

/// The entries of a list: its lines that are neither blank nor comments, trimmed.
fn entries(text: &'static str) -> impl Iterator<Item = (usize, &'static str)> {
    text.lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.trim()))
        .filter(|(_, l)| !l.is_empty() && !l.starts_with('#'))
}

/// A list of words or phrases, in the file's order.
fn words(text: &'static str) -> Vec<&'static str> {
    entries(text).map(|(_, l)| l).collect()
}

/// [`words`], sorted for binary search.
fn sorted_words(text: &'static str) -> Vec<&'static str> {
    let mut w = words(text);
    crate::order::sort(&mut w);
    w.dedup();
    w
}

/// The number in a list line. The lists are part of the build, and a test reads every one of
/// them, so a malformed line is a bug in the repository: say where it is.
fn number(file: &str, line: usize, text: &str) -> f64 {
    match decimal(text.trim()) {
        Some(x) => x,
        None => panic!("lexicon/{file} line {line}: {text:?} is not a number"),
    }
}

/// A plain decimal (`-0.15`, `2`) as the nearest `f64`, as `str::parse` gives it: the digits
/// as a whole number divided by a power of ten, both exact, so the one rounding is the
/// division's. Up to 2^53 as a whole number and 22 decimals; `None` for anything else. Written here so
/// that the module does not carry the standard library's general float parser (and its
/// 10 KiB table) for a few list weights.
fn decimal(text: &str) -> Option<f64> {
    let (negative, text) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text),
    };
    let (whole, fraction) = text.split_once('.').unwrap_or((text, ""));
    if whole.is_empty() || fraction.len() > 22 {
        return None;
    }
    let mut n = 0u64;
    for b in whole.bytes().chain(fraction.bytes()) {
        if !b.is_ascii_digit() || n >= 1 << 49 {
            return None;
        }
        n = n * 10 + u64::from(b - b'0');
    }
    let scale = (0..fraction.len()).fold(1f64, |p, _| p * 10.0);
    let x = n as f64 / scale;
    Some(if negative { -x } else { x })
}

/// A list of `phrase<TAB>number` lines.
fn weighted(file: &str, text: &'static str) -> Vec<(&'static str, f64)> {
    entries(text)
        .map(|(i, l)| match l.split_once('\t') {
            Some((phrase, w)) => (phrase.trim(), number(file, i, w)),
            None => panic!("lexicon/{file} line {i}: expected a phrase, a tab and a number"),
        })
        .collect()
}

/// A table of `field<TAB>field<TAB>field` lines (the reader of the list parses the fields).
fn triples(file: &str, text: &'static str) -> Vec<(&'static str, &'static str, &'static str)> {
    entries(text)
        .map(
            |(i, l)| match l.split('\t').map(str::trim).collect::<Vec<_>>()[..] {
                [a, b, c] => (a, b, c),
                _ => panic!("lexicon/{file} line {i}: expected three fields between tabs"),
            },
        )
        .collect()
}

/// Families of word forms, one per line, its forms between spaces: each form with its line,
/// sorted by form for binary search.
fn families(file: &str, text: &'static str) -> Vec<(&'static str, &'static str)> {
    let mut out: Vec<(&'static str, &'static str)> = Vec::new();
    for (i, line) in entries(text) {
        let forms: Vec<&str> = line.split_whitespace().collect();
        if forms.len() < 2 {
            panic!("lexicon/{file} line {i}: expected a word and its other forms");
        }
        out.extend(forms.into_iter().map(|f| (f, line)));
    }
    crate::order::sort_by(&mut out, |a, b| a.0.cmp(b.0));
    out
}

/// One `[NAME weight]` section of a sectioned list and its phrases.
pub type Section = (&'static str, f64, Vec<&'static str>);

/// `[NAME weight]` sections of phrases (the reader of the list parses the names).
fn sections(file: &str, text: &'static str) -> Vec<Section> {
    let mut out: Vec<Section> = Vec::new();
    for (i, l) in entries(text) {
        if let Some(head) = l.strip_prefix('[').and_then(|h| h.strip_suffix(']')) {
            let (name, w) = head.split_once(' ').unwrap_or((head, ""));
            out.push((name, number(file, i, w), Vec::new()));
        } else {
            match out.last_mut() {
                Some(section) => section.2.push(l),
                None => panic!("lexicon/{file} line {i}: a phrase before any [NAME weight]"),
            }
        }
    }
    out
}

/// Whether the line starting at byte `i` of `text` is a comment (`#` after any indent), and
/// where it ends (its `\n`, or the text's end).
const fn comment_line(text: &[u8], mut i: usize) -> (bool, usize) {
    while i < text.len() && (text[i] == b' ' || text[i] == b'\t') {
        i += 1;
    }
    let comment = i < text.len() && text[i] == b'#';
    while i < text.len() && text[i] != b'\n' {
        i += 1;
    }
    (comment, i)
}

/// The length of [`uncommented`] `text`.
const fn uncommented_len(text: &str) -> usize {
    let (bytes, mut i, mut len) = (text.as_bytes(), 0, 0);
    while i < bytes.len() {
        let (comment, end) = comment_line(bytes, i);
        if !comment {
            len += end - i;
        }
        if end < bytes.len() {
            len += 1;
        }
        i = end + 1;
    }
    len
}

/// `text` with its comment lines emptied: each keeps its line break, so a line's number in
/// the file stays its number here. The headers say what a list is for and where it came from;
/// the binary carries the entries only.
const fn uncommented<const N: usize>(text: &str) -> [u8; N] {
    let (bytes, mut out, mut i, mut o) = (text.as_bytes(), [0u8; N], 0, 0);
    while i < bytes.len() {
        let (comment, end) = comment_line(bytes, i);
        if !comment {
            while i < end {
                out[o] = bytes[i];
                (i, o) = (i + 1, o + 1);
            }
        }
        if end < bytes.len() {
            out[o] = b'\n';
            o += 1;
        }
        i = end + 1;
    }
    out
}

/// A list file's text without its comments ([`uncommented`]), made while compiling.
macro_rules! entries_of {
    ($file:literal) => {{
        const TEXT: &str = include_str!($file);
        const KEPT: [u8; uncommented_len(TEXT)] = uncommented(TEXT);
        const KEPT_TEXT: &str = match std::str::from_utf8(&KEPT) {
            Ok(text) => text,
            Err(_) => panic!("a line break split a character"),
        };
        KEPT_TEXT
    }};
}

macro_rules! lists {
    ($($(#[$meta:meta])* $name:ident: $ty:ty = $read:ident($file:literal);)+) => {
        $(
            $(#[$meta])*
            pub static $name: LazyLock<$ty> =
                LazyLock::new(|| lists!(@read $read, $file));
        )+
        /// Every list: its file, its text and how many entries it read (tests: a malformed
        /// line fails here rather than in use).
        #[cfg(test)]
        fn read_all() -> Vec<(&'static str, &'static str, usize)> {
            vec![$(($file, include_str!($file), $name.len())),+]
        }
        /// The text a list is read from, by its file (tests).
        #[cfg(test)]
        fn entries_by_file(file: &str) -> &'static str {
            match file {
                $($file => entries_of!($file),)+
                _ => "",
            }
        }
    };
    (@read words, $file:literal) => { words(entries_of!($file)) };
    (@read sorted_words, $file:literal) => { sorted_words(entries_of!($file)) };
    (@read $read:ident, $file:literal) => { $read($file, entries_of!($file)) };
}

lists! {
    // Read by several layers.
    /// Common English function words (sorted: looked up by [`is_stopword`]).
    STOPWORDS: Vec<&'static str> = sorted_words("stopwords.txt");
    /// Words that say little of what a question is about (sorted: looked up by [`vague`]).
    VAGUE: Vec<&'static str> = sorted_words("vague.txt");
    /// Frequent English words: never a name on their own.
    COMMON: Vec<&'static str> = words("common.txt");

    // The extractor: names.
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
    /// First words that make a name an organisation.
    ORG_PREFIXES: Vec<&'static str> = words("org_prefixes.txt");
    /// Gazetteer words that are everyday words too: names only when capitalised.
    AMBIGUOUS: Vec<&'static str> = words("ambiguous.txt");
    /// Nationality adjectives.
    DEMONYMS: Vec<&'static str> = words("demonyms.txt");
    /// Chat acronyms written in capitals that are not names.
    ACRONYMS: Vec<&'static str> = words("acronyms.txt");
    /// Words between capitalised words that keep a name going.
    CONNECTORS: Vec<&'static str> = words("connectors.txt");
    /// Title abbreviations whose full stop stays inside a name.
    TITLES_FOR_NAMES: Vec<&'static str> = words("titles_for_names.txt");
    /// Words after which a language name is a language.
    LANGUAGE_CUES: Vec<&'static str> = words("language_cues.txt");
    /// Verbs of travel: "to X" after them is a place.
    TRAVEL: Vec<&'static str> = words("travel.txt");
    /// Pets after "my": the name that follows is an animal.
    PETS: Vec<&'static str> = words("pets.txt");

    // The extractor: sentences, statements and their kind.
    /// Abbreviations whose full stop does not end a sentence.
    ABBREVIATIONS: Vec<&'static str> = words("abbreviations.txt");
    /// Words that carry no memory on their own.
    FILLER_FOR_GATE: Vec<&'static str> = words("filler_for_gate.txt");
    /// Words a statement can open on as its subject.
    SUBJECTS: Vec<&'static str> = words("subjects.txt");
    /// Words by which a speaker talks about themselves (a question about the speaker).
    FIRST_PERSON_FOR_QUESTIONS: Vec<&'static str> = words("first_person_for_questions.txt");
    /// Words by which a statement without a type cue tells of the speaker (an event).
    FIRST_PERSON_FOR_TYPE: Vec<&'static str> = words("first_person_for_type.txt");
    /// Role labels of a transcript's user.
    USER_ROLES: Vec<&'static str> = words("user_roles.txt");
    /// Role labels of a transcript's agent side.
    AGENT_ROLES: Vec<&'static str> = words("agent_roles.txt");
    /// Irregular past-tense verbs.
    PAST_VERBS: Vec<&'static str> = words("past_verbs.txt");
    /// The forms of a word the stemmer does not bring together ("buy", "bought"), by form.
    WORD_FORMS: Vec<(&'static str, &'static str)> = families("word_forms.txt");
    /// "-ed" words that are not past events.
    NOT_PAST: Vec<&'static str> = words("not_past.txt");
    /// Words that say a statement is about the future.
    FUTURE: Vec<&'static str> = words("future.txt");
    /// Gerunds that start plans.
    PLAN_GERUNDS: Vec<&'static str> = words("plan_gerunds.txt");
    /// Phrases of how-tos and standing rules (a procedure).
    PROCEDURE_CUES: Vec<&'static str> = words("procedure_cues.txt");
    /// Words of emphasis that make a statement more important.
    EMPHASIS: Vec<&'static str> = words("emphasis.txt");
    /// Hedging cues and the confidence each takes off.
    HEDGES: Vec<(&'static str, f64)> = weighted("hedges.txt");
    /// Cue phrases of each memory type (by its name) and their weight.
    CUES: Vec<Section> = sections("cues.txt");

    // The extractor: relations.
    /// Adverbs a relation pattern skips between its parts.
    SKIPPED_IN_PATTERNS: Vec<&'static str> = words("skipped_in_patterns.txt");
    /// First words that are not verbs of an unspoken "I".
    OPENERS: Vec<&'static str> = words("openers.txt");
    /// Nouns after "my", the relation they state (by name) and its direction (`out`, `in`).
    KIN: Vec<(&'static str, &'static str, &'static str)> = triples("kin.txt");
    /// Nouns of a question naming a place or group (`my company`), the relation its owner
    /// stands in to it (by name) and its direction (`out`).
    AFFILIATIONS: Vec<(&'static str, &'static str, &'static str)> = triples("affiliations.txt");
    /// Verb patterns, the relation they state (by name) and whether it is `flipped`.
    RELATION_PATTERNS: Vec<(&'static str, &'static str, &'static str)> =
        triples("relation_patterns.txt");
    /// Last words of a group one is a member of, not an employer.
    MEMBER_GROUPS: Vec<&'static str> = words("member_groups.txt");
    /// Words of a place of study's name: one "started at" is attended, not an employer.
    STUDY_PLACES: Vec<&'static str> = words("study_places.txt");
    /// Idioms asking, after "I do", what the speaker does for work.
    WORK_IDIOMS: Vec<&'static str> = words("work_idioms.txt");

    // Sentiment.
    /// Words and their valence.
    SENTIMENT: Vec<(&'static str, f64)> = weighted("sentiment.txt");
    /// Words that flip the valence of a sentiment word after them.
    NEGATIONS_FOR_SENTIMENT: Vec<&'static str> = words("negations_for_sentiment.txt");
    /// Words that strengthen a sentiment word after them.
    INTENSIFIERS: Vec<&'static str> = words("intensifiers.txt");

    // Conflict detection.
    /// Words that say a second one was added, not that the first changed.
    ADDITIVE: Vec<&'static str> = words("additive.txt");
    /// Words that negate a statement.
    NEGATIONS_FOR_CONFLICT: Vec<&'static str> = words("negations_for_conflict.txt");
    /// Words that say something changed.
    CHANGE: Vec<&'static str> = words("change.txt");
    /// Words ignored when comparing what two statements are about.
    FILLER_FOR_CONFLICT: Vec<&'static str> = words("filler_for_conflict.txt");
    /// Words of feeling, left out when comparing what a preference is about.
    FEELING: Vec<&'static str> = words("feeling.txt");

    // Rules of the extractor and conflict detection.
    /// First words of a short statement about the speaker.
    FIRST_PERSON_FOR_CONFLICT: Vec<&'static str> = words("first_person_for_conflict.txt");
    /// Words after which an "-ed" word is an adjective.
    ADJECTIVE_MARKERS: Vec<&'static str> = words("adjective_markers.txt");
    /// Words ending in "ing" that are no gerunds.
    NOT_GERUNDS: Vec<&'static str> = words("not_gerunds.txt");
    /// Determiners and pronouns, which start no name.
    DETERMINERS: Vec<&'static str> = words("determiners.txt");
    /// Words that follow a name opening a sentence.
    AFTER_NAMES: Vec<&'static str> = words("after_names.txt");
    /// Labels that open a note, not a speaker's line ("Note: …", "Reminder: …").
    NOTE_LABELS: Vec<&'static str> = sorted_words("note_labels.txt");
    /// Adverbs that may stand between a name opening a sentence and its verb.
    BETWEEN_NAME_AND_VERB: Vec<&'static str> = words("between_name_and_verb.txt");
    /// Common first words that are verbs of an unspoken "I".
    VERB_OPENERS: Vec<&'static str> = words("verb_openers.txt");
    /// Words that end a noun-phrase object.
    PHRASE_BREAKS: Vec<&'static str> = words("phrase_breaks.txt");
    /// First words of a noun phrase that make it nothing specific.
    NOT_PHRASE_OPENERS: Vec<&'static str> = words("not_phrase_openers.txt");
    /// Common words that may lead a specific noun phrase.
    PHRASE_ADJECTIVES: Vec<&'static str> = words("phrase_adjectives.txt");
    /// Auxiliaries skipped after a pattern's subject.
    AUXILIARIES: Vec<&'static str> = words("auxiliaries.txt");

    // The graph and the heartbeat.
    /// Personal titles left out of an entity's key.
    TITLES_FOR_KEYS: Vec<&'static str> = words("titles_for_keys.txt");
    /// Question words, never content words of a question.
    WH_WORDS: Vec<&'static str> = words("wh_words.txt");

    // Drift detection.
    /// Extensions of files people cite when they talk about code (sorted: looked up by
    /// [`code_extension`]).
    CODE_EXTENSIONS: Vec<&'static str> = sorted_words("code_extensions.txt");
}

/// Whether a lower-case extension (no dot) is one of a file people cite in code talk
/// (`code_extensions.txt`).
pub fn code_extension(ext: &str) -> bool {
    CODE_EXTENSIONS.binary_search(&ext).is_ok()
}

/// Whether `w` (lower-case) is a common function word (`stopwords.txt`).
pub fn is_stopword(w: &str) -> bool {
    STOPWORDS.binary_search(&w).is_ok()
}

/// Whether a lower-case word says little of what a question is about (`vague.txt`).
pub fn vague(w: &str) -> bool {
    VAGUE.binary_search(&w).is_ok()
}

/// The forms of the lower-case word `w`'s family (`word_forms.txt`: "bought" gives "buy",
/// "bought"), itself among them; none when the stemmer alone brings its forms together.
pub fn word_forms(w: &str) -> impl Iterator<Item = &'static str> {
    let line = WORD_FORMS
        .binary_search_by(|(form, _)| (*form).cmp(w))
        .ok()
        .map_or("", |i| WORD_FORMS[i].1);
    line.split_whitespace()
}

/// Whether a lower-case word is a common English word (`common.txt`).
pub fn common(w: &str) -> bool {
    COMMON.contains(&w)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_decimal_reads_as_the_standard_parser_reads_it() {
        for text in [
            "0",
            "-0.1",
            "0.15",
            "0.7",
            "-0.9",
            "2",
            "12.5",
            "0.333333333333333",
            "123456789.012345",
            "0.0000000000000000000001",
        ] {
            assert_eq!(decimal(text), text.parse::<f64>().ok(), "{text}");
        }
        // Every weight as its list writes it.
        for file in ["hedges.txt", "sentiment.txt"] {
            for (_, line) in entries(entries_by_file(file)) {
                let (_, w) = line.split_once('\t').expect("a weighted line");
                assert_eq!(
                    decimal(w.trim()),
                    w.trim().parse::<f64>().ok(),
                    "{file}: {w}"
                );
            }
        }
        for bad in [
            "",
            "-",
            ".5",
            "1.2.3",
            "1e3",
            "NaN",
            "inf",
            "+1",
            "1,5",
            "0.12345678901234567",
            "٣",
        ] {
            assert_eq!(decimal(bad), None, "{bad}");
        }
    }

    /// Lists whose entries are matched as phrases (several words), or hold a sign: the rest are
    /// compared with one lower-case token and hold one word each.
    const PHRASES: &[&str] = &[
        "organizations.txt",
        "products.txt",
        "locations.txt",
        "concepts.txt",
        "events.txt",
        "additive.txt",
        "change.txt",
        "future.txt",
        "hedges.txt",
        "cues.txt",
        "procedure_cues.txt",
        "emphasis.txt",
        "kin.txt",
        "affiliations.txt",
        "work_idioms.txt",
        "relation_patterns.txt",
        "sentiment.txt",
        "common.txt",
        "filler_for_gate.txt",
        "word_forms.txt",
    ];

    #[test]
    fn every_list_reads_and_holds_entries() {
        let all = read_all();
        for (file, _, n) in &all {
            assert!(*n > 0, "{file} is empty");
        }
        // Every file in the folder is one of the lists read here.
        let mut on_disk: Vec<String> =
            std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/src/lexicon"))
                .unwrap()
                .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
                .filter(|f| f.ends_with(".txt"))
                .collect();
        on_disk.sort();
        let mut read: Vec<String> = all.iter().map(|(f, _, _)| f.to_string()).collect();
        read.sort();
        assert_eq!(on_disk, read);
        assert!(common("about") && !common("porto"));
        assert!(vague("own") && vague("up") && !vague("car") && !vague("sister"));
        assert_eq!(word_forms("bought").collect::<Vec<_>>(), ["buy", "bought"]);
        assert_eq!(
            word_forms("people").collect::<Vec<_>>(),
            ["person", "people"]
        );
        assert_eq!(word_forms("car").count(), 0);
        // No form stands in two families.
        let forms: Vec<&str> = WORD_FORMS.iter().map(|(f, _)| *f).collect();
        assert!(forms.windows(2).all(|w| w[0] != w[1]), "a form twice");
        assert!(CUES.iter().any(|(t, _, p)| *t == "PLAN" && !p.is_empty()));
        assert!(HEDGES.iter().any(|&(h, w)| h == "i think" && w > 0.0));
        assert!(SENTIMENT.iter().all(|&(_, v)| (-1.0..=1.0).contains(&v)));
    }

    #[test]
    fn every_list_says_what_it_is_for_and_where_it_came_from() {
        for (file, text, _) in read_all() {
            let header: Vec<&str> = text.lines().take_while(|l| l.starts_with('#')).collect();
            assert!(header.len() >= 2, "{file}: no header");
            assert!(
                header.iter().any(|l| l.starts_with("# Source: ")),
                "{file}: the header names no source"
            );
        }
    }

    #[test]
    fn the_built_in_text_keeps_every_entry_at_its_line() {
        const T: &str = "# head\n# Source: x\n  # indented\nfoo\n\n bar # not a comment\n#";
        const K: [u8; uncommented_len(T)] = uncommented(T);
        let kept = std::str::from_utf8(&K).unwrap();
        assert_eq!(kept, "\n\n\nfoo\n\n bar # not a comment\n");
        assert_eq!(
            entries(kept).collect::<Vec<_>>(),
            entries(T).collect::<Vec<_>>()
        );
        for (file, text, _) in read_all() {
            let kept = entries_by_file(file);
            assert_eq!(
                entries(kept).collect::<Vec<_>>(),
                entries(text).collect::<Vec<_>>(),
                "{file}"
            );
            assert!(!kept.contains("Source:"), "{file}");
        }
    }

    #[test]
    fn lists_are_lower_case_trimmed_and_single_spaced() {
        for (file, text, _) in read_all() {
            for (i, line) in entries(text) {
                if file == "cues.txt" && line.starts_with('[') {
                    continue;
                }
                let entry = line.split('\t').next().unwrap_or(line).trim();
                // A relation pattern's S, O and L stand for the subject, object and place.
                let placeholder = |w: &str| file == "relation_patterns.txt" && "SOL".contains(w);
                for field in line.split('\t') {
                    for w in field.split([' ', '|']).filter(|w| !placeholder(w)) {
                        assert_eq!(w, w.to_lowercase(), "{file} line {i}");
                    }
                }
                // One space between the words of a phrase: the matchers split on it.
                assert!(!entry.contains("  "), "{file} line {i}: {entry:?}");
                assert!(
                    line.matches('\t').count() <= 2 && !entry.is_empty(),
                    "{file} line {i}: {line:?}"
                );
                if !PHRASES.contains(&file) {
                    assert!(
                        !entry.contains(' '),
                        "{file} line {i}: {entry:?} is no one word"
                    );
                }
            }
        }
    }

    /// No list names an entry twice; in `cues.txt`, within a section (a phrase may cue two
    /// types: "i graduated" is IDENTITY and EVENT); in `affiliations.txt`, with one relation
    /// (a school is where one studied, or one attends).
    #[test]
    fn no_list_repeats_an_entry() {
        for (file, text, _) in read_all() {
            let mut seen: Vec<&str> = Vec::new();
            for (i, line) in entries(text) {
                if line.starts_with('[') && file == "cues.txt" {
                    seen.clear();
                    continue;
                }
                let columns = if file == "affiliations.txt" { 2 } else { 1 };
                let end = line
                    .match_indices('\t')
                    .nth(columns - 1)
                    .map_or(line.len(), |(i, _)| i);
                let entry = line[..end].trim();
                assert!(!seen.contains(&entry), "{file} line {i}: {entry:?} again");
                seen.push(entry);
            }
        }
    }

    /// The stopwords are the 72 function words the hashing embedder was built with: a change
    /// changes every `mnemo-hash-v1` vector, so it needs a new model id.
    #[test]
    fn the_stopwords_are_the_hashing_embedders_set() {
        assert_eq!(STOPWORDS.len(), 72);
        assert_eq!(STOPWORDS.first(), Some(&"a"));
        assert_eq!(STOPWORDS.last(), Some(&"yours"));
        for w in ["about", "im", "into", "its", "the", "too", "which", "would"] {
            assert!(is_stopword(w), "{w}");
        }
        for w in ["i'm", "it's", "not", "no", "own", "car", "up", ""] {
            assert!(!is_stopword(w), "{w}");
        }
        assert_eq!(
            STOPWORDS.join(" "),
            "a about all am an and any are as at be been but by can could did do does for \
             from had has have he her him his how i if im in into is it its just me my of on \
             or our she so that the their them then there they this to too us was we were \
             what when where which who why will with would you your yours"
        );
    }

    #[test]
    fn vague_words_are_no_stopwords() {
        // Function words are weighed as vague already: the list holds none of them.
        let listed: Vec<_> = VAGUE.iter().filter(|w| is_stopword(w)).collect();
        assert!(listed.is_empty(), "stopwords in vague.txt: {listed:?}");
    }
}
