//! Summaries without an LLM (Kybernesis' summaries and previews): the sentences that stand
//! for a text, chosen by what they say rather than by place. A sentence scores by the share of
//! the text's key words (its most frequent uncommon words) it holds, then by its closeness to
//! the text's centroid (the mean of its sentences' vectors); the best are taken, a near repeat
//! of one already taken skipped, and given in the text's order.

use crate::embed;

/// Sentences in a passage's summary (the design's 1–2): two once the passage is long.
pub const PASSAGE_SENTENCES: usize = 2;
/// Sentences in a document's summary (the design's 2–3): three once it has several passages.
pub const DOCUMENT_SENTENCES: usize = 3;
/// Sentences of a document kept as candidates for its summary while its passages are read.
pub const DOCUMENT_CANDIDATES: usize = 12;
/// A passage shorter than this, in characters, is summarised in one sentence.
pub const SHORT_PASSAGE_CHARS: usize = 500;
/// A document with fewer passages than this is summarised in two sentences.
pub const SHORT_DOCUMENT_PASSAGES: usize = 4;
/// Longest sentence kept whole in a summary, in characters; a longer one is cut at a word.
pub const MAX_SENTENCE_CHARS: usize = 240;
/// Shortest run of text taken as a sentence, in characters (shorter ones are headings, labels,
/// "Thanks!").
const MIN_SENTENCE_CHARS: usize = 20;
/// Key words of a text a summary looks for: its most frequent uncommon words.
pub const KEYWORDS: usize = 10;
/// Weight of a sentence's share of its text's key words beside its closeness to the text's
/// centroid: the centroid alone favours what every sentence says a little of (in a
/// conversation, its pleasantries), so the key words lead and the centroid decides between
/// sentences holding as many. Chosen with `summaries_eval` on LoCoMo's dev split (sessions
/// found by their summary, R@1): 0 gave 0.109, 0.5 0.116, 2 0.142, 5 and 10 0.159, against
/// 0.144 for the first sentences.
pub const KEYWORD_WEIGHT: f32 = 5.0;
/// Similarity above which a sentence repeats one already taken.
const REPEAT: f32 = 0.95;

/// The sentences of `text` a summary may take: prose, not headings, table rows or code, at
/// least [`MIN_SENTENCE_CHARS`] long, each once.
pub fn sentences(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut fenced = false;
    for line in text.lines() {
        let t = line.trim();
        if t.starts_with("```") || t.starts_with("~~~") {
            fenced = !fenced;
            continue;
        }
        if fenced || t.starts_with('#') || t.starts_with('|') {
            continue;
        }
        let t = t.trim_start_matches(['-', '*', '>', ' ']);
        for s in crate::text::sentences(t) {
            let s = crate::text::cut_at_word(s, MAX_SENTENCE_CHARS);
            if s.chars().count() >= MIN_SENTENCE_CHARS
                && s.chars().any(char::is_alphabetic)
                && !out.contains(&s)
            {
                out.push(s);
            }
        }
    }
    out
}

/// The unit mean of `vectors`: the direction a text mostly points in.
pub fn centroid<'a>(vectors: impl IntoIterator<Item = &'a [f32]>) -> Vec<f32> {
    let mut c: Vec<f32> = Vec::new();
    for v in vectors {
        if c.is_empty() {
            c = vec![0.0; v.len()];
        }
        for (c, x) in c.iter_mut().zip(v) {
            *c += x;
        }
    }
    embed::normalise(&mut c);
    c
}

/// The share of `keywords` that `sentence` holds, weighted by [`KEYWORD_WEIGHT`].
pub fn keyword_bonus(sentence: &str, keywords: &[String]) -> f32 {
    if keywords.is_empty() {
        return 0.0;
    }
    let words = crate::text::words(sentence);
    let held = keywords.iter().filter(|k| words.contains(k)).count();
    KEYWORD_WEIGHT * held as f32 / keywords.len() as f32
}

/// The indexes of the `n` sentences (given by their unit `vectors`) closest to `centroid`,
/// each with its `bonus` added, none a near repeat of another, in their order.
pub fn pick(vectors: &[Vec<f32>], bonus: &[f32], centroid: &[f32], n: usize) -> Vec<usize> {
    if vectors.len() <= n {
        return (0..vectors.len()).collect();
    }
    let mut ranked: Vec<(usize, f32)> = vectors
        .iter()
        .enumerate()
        .map(|(i, v)| {
            (
                i,
                embed::dot(v, centroid) + bonus.get(i).copied().unwrap_or(0.0),
            )
        })
        .collect();
    // Closest first; ties to the earlier sentence.
    crate::order::sort_by(&mut ranked, |a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    let mut chosen: Vec<usize> = Vec::with_capacity(n);
    for (i, _) in ranked {
        if chosen.len() == n {
            break;
        }
        if chosen
            .iter()
            .all(|&j| embed::dot(&vectors[i], &vectors[j]) < REPEAT)
        {
            chosen.push(i);
        }
    }
    chosen.sort_unstable();
    chosen
}

/// The summary made of `sentences` at `picked`.
pub fn join(sentences: &[String], picked: &[usize]) -> String {
    picked
        .iter()
        .map(|&i| sentences[i].as_str())
        .collect::<Vec<_>>()
        .join(" ")
}

/// What a summary written by the host's LLM may be: at most so many sentences and characters.
pub struct Bounds {
    /// Sentences at most.
    pub sentences: usize,
    /// Characters at most.
    pub chars: usize,
}

/// A passage's: one or two sentences.
pub const PASSAGE: Bounds = Bounds {
    sentences: PASSAGE_SENTENCES,
    chars: PASSAGE_SENTENCES * MAX_SENTENCE_CHARS,
};

/// A document's: two or three sentences.
pub const DOCUMENT: Bounds = Bounds {
    sentences: DOCUMENT_SENTENCES,
    chars: DOCUMENT_SENTENCES * MAX_SENTENCE_CHARS,
};

/// `summary` (of a text of `of_chars` characters), trimmed, when it keeps to `bounds` and is
/// shorter than its text; else why not.
pub fn check(summary: &str, bounds: &Bounds, of_chars: usize) -> Result<String, String> {
    let summary = summary.trim();
    let chars = summary.chars().count();
    let sentences = sentence_count(summary);
    if summary.is_empty() {
        Err("the summary is empty".into())
    } else if chars > bounds.chars {
        Err(format!(
            "the summary has {chars} characters, more than {}",
            bounds.chars
        ))
    } else if chars >= of_chars {
        Err(format!(
            "the summary ({chars} characters) is no shorter than its text ({of_chars})"
        ))
    } else if sentences > bounds.sentences {
        Err(format!(
            "the summary has {sentences} sentences, more than {}",
            bounds.sentences
        ))
    } else {
        Ok(summary.to_string())
    }
}

/// Sentences in `s`: each `.`, `!` or `?` that ends the text or is followed by a space and a
/// capital or a digit ("e.g. the", "3.5" and "U.S." end none), plus a last one without.
fn sentence_count(s: &str) -> usize {
    let chars: Vec<char> = s.trim().chars().collect();
    let mut n = 0;
    for (i, c) in chars.iter().enumerate() {
        if !matches!(c, '.' | '!' | '?') {
            continue;
        }
        let rest = &chars[i + 1..];
        let ends = match rest.iter().position(|c| !c.is_whitespace()) {
            None => true,
            Some(0) => false,
            Some(j) => rest[j].is_uppercase() || rest[j].is_ascii_digit(),
        };
        n += usize::from(ends);
    }
    let last_open = chars.last().is_some_and(|c| !matches!(c, '.' | '!' | '?'));
    n + usize::from(last_open)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn unit(v: &[f32]) -> Vec<f32> {
        let mut v = v.to_vec();
        embed::normalise(&mut v);
        v
    }

    #[test]
    fn the_sentences_nearest_the_centroid_are_taken_in_order_without_repeats() {
        let vectors = vec![
            unit(&[0.0, 1.0, 0.0, 0.0]), // off topic (a greeting)
            unit(&[1.0, 0.0, 1.0, 0.0]),
            unit(&[1.0, 0.0, 1.0, 0.0]), // a repeat of the one before
            unit(&[1.0, 0.0, 0.0, 1.0]),
            unit(&[1.0, 0.0, 0.0, 0.0]),
        ];
        let c = centroid(vectors.iter().map(Vec::as_slice));
        assert_eq!(pick(&vectors, &[], &c, 2), vec![1, 4]);
        assert_eq!(pick(&vectors, &[], &c, 9), vec![0, 1, 2, 3, 4]);
        assert!(pick(&[], &[], &c, 2).is_empty());
        // A sentence holding the text's key words comes first.
        assert_eq!(
            pick(&vectors, &[0.0, 0.0, 0.0, 0.5, 0.0], &c, 2),
            vec![1, 3]
        );
        let keys = vec!["porto".to_string(), "racks".to_string()];
        assert_eq!(keyword_bonus("New racks for Porto.", &keys), KEYWORD_WEIGHT);
        assert_eq!(keyword_bonus("Hello!", &keys), 0.0);
        assert!(centroid([]).is_empty());
    }

    #[test]
    fn headings_tables_code_and_fragments_are_not_sentences() {
        let text = "# Title\n\nHi!\n\nThe budget covers the audit and the lease.\n\n| a | b |\n\n\
                    ```\nlet x = \"This line is code, not a sentence.\";\n```\n\
                    - The list item is a sentence too.\nThe budget covers the audit and the lease.";
        assert_eq!(
            sentences(text),
            vec![
                "The budget covers the audit and the lease.",
                "The list item is a sentence too."
            ]
        );
    }

    #[test]
    fn sentences_are_counted_where_they_end() {
        assert_eq!(sentence_count("The plan costs $3.5M. It starts in May."), 2);
        assert_eq!(
            sentence_count("Budget, e.g. travel and U.S. offices, is cut"),
            1
        );
        assert_eq!(sentence_count("One! Two? 3 follows."), 3);
        assert_eq!(sentence_count(""), 0);
    }
}
