//! Sentences and tokens: the extractor's view of a message.

use std::collections::HashMap;

use crate::lexicon::ABBREVIATIONS;

/// Splits a message into sentences on `.`, `!`, `?`, `;` and line breaks — but not on the full
/// stop of an abbreviation ("Dr. Lee", "St. Mary's") or inside a number ("3.5").
pub fn sentences(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    let chars: Vec<(usize, char)> = text.char_indices().collect();
    for (n, &(i, c)) in chars.iter().enumerate() {
        let next = chars.get(n + 1).map(|x| x.1);
        let boundary = match c {
            '!' | '?' | ';' | '\n' => true,
            '.' => {
                let word = text[start..i]
                    .rsplit(|c: char| c.is_whitespace())
                    .next()
                    .unwrap_or("")
                    .trim_start_matches(|c: char| !c.is_alphanumeric())
                    .to_lowercase();
                let in_number = next.is_some_and(|c| c.is_ascii_digit());
                let in_word = next.is_some_and(|c| c.is_alphanumeric());
                !(in_number || in_word || ABBREVIATIONS.contains(&word.as_str()))
            }
            _ => false,
        };
        if boundary && next.is_none_or(|c| !matches!(c, '!' | '?' | '.')) {
            let end = i + c.len_utf8();
            push(&mut out, &text[start..end]);
            start = end;
        }
    }
    push(&mut out, &text[start..]);
    out
}

fn push<'a>(out: &mut Vec<&'a str>, s: &'a str) {
    let s = s.trim();
    if s.chars().any(char::is_alphanumeric) {
        out.push(s);
    }
}

/// One word or punctuation mark of a sentence.
#[derive(Debug, Clone, PartialEq)]
pub struct Token {
    /// As written (curly apostrophes made straight).
    pub text: String,
    /// Lower case.
    pub lower: String,
    /// Starts with an upper-case letter.
    pub capital: bool,
    /// A punctuation mark rather than a word.
    pub punct: bool,
}

/// The tokens of a sentence: runs of letters and digits, keeping inner `'`, `-`, `.`, `:` and
/// `&` ("Mary's", "e-mail", "3.5", "15:30", "AT&T"); other marks are one-character tokens.
pub fn tokens(sentence: &str) -> Vec<Token> {
    let s: String = sentence
        .chars()
        .map(|c| match c {
            '\u{2019}' | '\u{2018}' | '`' => '\'',
            c => c,
        })
        .collect();
    let chars: Vec<char> = s.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c.is_alphanumeric() {
            let mut j = i + 1;
            while j < chars.len() {
                let d = chars[j];
                let joins = matches!(d, '\'' | '-' | '.' | ':' | '&')
                    && chars.get(j + 1).is_some_and(|e| e.is_alphanumeric());
                if d.is_alphanumeric() || joins {
                    j += if joins { 2 } else { 1 };
                } else {
                    break;
                }
            }
            let text: String = chars[i..j].iter().collect();
            out.push(Token {
                lower: text.to_lowercase(),
                capital: c.is_uppercase(),
                punct: false,
                text,
            });
            i = j;
        } else {
            if !c.is_whitespace() {
                out.push(Token {
                    text: c.to_string(),
                    lower: c.to_string(),
                    capital: false,
                    punct: true,
                });
            }
            i += 1;
        }
    }
    out
}

/// The sentence's words in lower case, separated and surrounded by single spaces, for phrase
/// matching (`" i prefer "`); punctuation becomes a `|` word so phrases do not cross it.
pub fn padded(tokens: &[Token]) -> String {
    let mut s = String::from(" ");
    for t in tokens {
        s.push_str(if t.punct { "|" } else { &t.lower });
        s.push(' ');
    }
    s
}

/// Whether `padded` contains any of `phrases` as whole words.
pub fn has_any(padded: &str, phrases: &[&str]) -> bool {
    phrases.iter().any(|p| has(padded, p))
}

/// Whether `padded` contains `phrase` as whole words; `*` in a phrase stands for any one word.
///
/// Extraction asks this for hundreds of phrases per sentence, so the plain case compares bytes
/// at each word start instead of building a substring searcher (and a padded copy) per phrase.
pub fn has(padded: &str, phrase: &str) -> bool {
    if phrase.bytes().any(|b| b == b'*') {
        let want: Vec<&str> = phrase.split(' ').collect();
        let words: Vec<&str> = padded.split_whitespace().collect();
        return words.windows(want.len()).any(|w| {
            w.iter()
                .zip(&want)
                .all(|(a, b)| *b == "*" && *a != "|" || a == b)
        });
    }
    let (h, p) = (padded.as_bytes(), phrase.as_bytes());
    let Some(&first) = p.first() else {
        return h.windows(2).any(|w| w == b"  ");
    };
    // A match is " phrase " in `padded`: a space, the phrase, a space.
    h.len() >= p.len() + 2
        && (0..=h.len() - p.len() - 2).any(|i| {
            h[i] == b' '
                && h[i + 1] == first
                && h[i + 1 + p.len()] == b' '
                && &h[i + 1..i + 1 + p.len()] == p
        })
}

/// Many phrases looked for in one padded text at once: indexed by their first word, so the
/// text is read once instead of once per phrase (the type cues alone are ~650 phrases, asked of
/// every sentence). Phrases with a `*` are checked one by one, as [`has`] does.
#[derive(Debug, Default)]
pub struct PhraseSet {
    /// First word → (index, phrase) of the plain phrases beginning with it.
    by_first: HashMap<&'static str, Vec<(usize, &'static str)>>,
    /// (index, phrase) of the phrases with a wildcard or no words.
    others: Vec<(usize, &'static str)>,
}

impl PhraseSet {
    /// The set of `phrases`, each known by its position in the list.
    pub fn new(phrases: impl IntoIterator<Item = &'static str>) -> Self {
        let mut set = PhraseSet::default();
        for (i, p) in phrases.into_iter().enumerate() {
            match p.split(' ').next() {
                Some(first) if !first.is_empty() && !p.contains('*') => {
                    set.by_first.entry(first).or_default().push((i, p));
                }
                _ => set.others.push((i, p)),
            }
        }
        set
    }

    /// Positions of the phrases that `padded` contains as whole words (each once, ascending):
    /// those for which [`has`] is true.
    pub fn found(&self, padded: &str) -> Vec<usize> {
        let mut found: Vec<usize> = self
            .others
            .iter()
            .filter(|(_, p)| has(padded, p))
            .map(|&(i, _)| i)
            .collect();
        let h = padded.as_bytes();
        let mut start = 0;
        for word in padded.split(' ') {
            let at = start;
            start += word.len() + 1;
            // A word starts after a space: the first piece never does.
            if at == 0 || word.is_empty() {
                continue;
            }
            for &(i, p) in self.by_first.get(word).into_iter().flatten() {
                let end = at + p.len();
                if end < h.len() && h[end] == b' ' && &h[at..end] == p.as_bytes() {
                    found.push(i);
                }
            }
        }
        found.sort_unstable();
        found.dedup();
        found
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A phrase set finds exactly the phrases `has` finds: every type cue and hedge, plus
    /// wildcard, empty and overlapping phrases, in every sentence of the labelled extraction
    /// sets and in sentences made of the cues themselves.
    #[test]
    fn a_phrase_set_finds_what_has_finds() {
        let mut phrases: Vec<&'static str> = crate::lexicon::CUES
            .iter()
            .flat_map(|(_, _, p)| p.iter().copied())
            .collect();
        phrases.extend(crate::lexicon::HEDGES.iter().map(|(p, _)| *p));
        phrases.extend(["i * to", "", "new york", "new york city", "york", "|", "a"]);
        let set = PhraseSet::new(phrases.iter().copied());
        let corpus = [
            include_str!("../../tests/data/extraction.json"),
            include_str!("../../tests/data/extraction_holdout.json"),
        ]
        .concat();
        let mut texts: Vec<String> = corpus
            .split('"')
            .flat_map(sentences)
            .map(|s| padded(&tokens(s)))
            .collect();
        assert!(texts.len() > 1_000, "the corpus is the labelled sets");
        for pair in phrases.chunks(2) {
            texts.push(format!(" {} | {} ", pair[0], pair.last().unwrap_or(&"")));
        }
        texts.extend([
            " i want to move to new york city ".into(),
            " a new yorker , not york ".into(),
            "  ".into(),
            "".into(),
        ]);
        let mut hits = 0;
        for text in &texts {
            let want: Vec<usize> = (0..phrases.len())
                .filter(|&i| has(text, phrases[i]))
                .collect();
            hits += want.len();
            assert_eq!(set.found(text), want, "in {text:?}");
        }
        assert!(hits > 2 * phrases.len(), "the texts hold the phrases");
    }

    #[test]
    fn sentences_keep_abbreviations_and_numbers() {
        assert_eq!(
            sentences("I'm a nurse. I work nights at St. Mary's!! Pay is 3.5k?"),
            vec![
                "I'm a nurse.",
                "I work nights at St. Mary's!!",
                "Pay is 3.5k?"
            ]
        );
        assert_eq!(sentences("ok"), vec!["ok"]);
        assert_eq!(
            sentences("Dr. Lee said so; fine\n\nnext"),
            vec!["Dr. Lee said so;", "fine", "next"]
        );
        assert!(sentences(" ... ").is_empty());
    }

    #[test]
    fn tokens_keep_inner_marks() {
        let t: Vec<String> = tokens("My sister’s e-mail: ana@x.io, at 15:30 (AT&T).")
            .into_iter()
            .map(|t| t.text)
            .collect();
        assert_eq!(
            t,
            [
                "My", "sister's", "e-mail", ":", "ana", "@", "x.io", ",", "at", "15:30", "(",
                "AT&T", ")", "."
            ]
        );
        let p = padded(&tokens("I prefer tea, not coffee"));
        assert_eq!(p, " i prefer tea | not coffee ");
        assert!(has(&p, "prefer tea"));
        assert!(!has(&p, "tea not"));
        assert!(!has(&p, "refer"));
        assert!(has(&p, "i * tea"));
        assert!(!has(&p, "tea * coffee"));
        // Whole words at either end, not parts of them; nothing longer than the sentence.
        assert!(has(&p, "i prefer") && has(&p, "not coffee") && has(&p, "coffee"));
        assert!(!has(&p, "coffe") && !has(&p, "offee") && !has(&p, "i".repeat(40).as_str()));
        assert!(!has(&p, ""));
    }
}
