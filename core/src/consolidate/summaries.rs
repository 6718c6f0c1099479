//! Document summaries by the host's LLM (Kybernesis: "Summaries and Previews"). An ingest
//! summarises at once, with no LLM, from the text's own sentences (`document::summary`); when
//! the host has an LLM, this step rewrites those summaries, a few per run: each passage's from
//! its text, then the document's from its passages' summaries. An answer is checked (JSON, not
//! empty, at most so many sentences and characters, shorter than its text); one that fails
//! leaves the engine's summary in place and ends the step for this run, saying why. Ingests
//! stay fast and never wait on an LLM; a new version of a document is summarised afresh.

use serde::{Deserialize, Serialize};

use crate::clock::Millis;
use crate::document::{sql, summary};
use crate::error::Result;
use crate::extract::{llm, Extractor};
use crate::store::Tx;

/// LLM calls one run makes at most.
const SUMMARY_CALLS: usize = 16;

/// What the step did.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct SummariesReport {
    /// Passages whose summary the host's LLM rewrote.
    pub passages: usize,
    /// Documents whose summary the host's LLM rewrote.
    pub documents: usize,
    /// Why an answer of the LLM was not used (the engine's summary stays; the next run asks
    /// again), if one was not.
    pub failure: Option<String>,
    /// The step stopped at its bound of calls with summaries left to rewrite.
    pub more: bool,
}

/// What a rewritten summary may be: at most so many sentences and characters.
struct Bounds {
    sentences: usize,
    chars: usize,
}

/// A passage's: one or two sentences.
const PASSAGE: Bounds = Bounds {
    sentences: summary::PASSAGE_SENTENCES,
    chars: summary::PASSAGE_SENTENCES * summary::MAX_SENTENCE_CHARS,
};

/// A document's: two or three sentences.
const DOCUMENT: Bounds = Bounds {
    sentences: summary::DOCUMENT_SENTENCES,
    chars: summary::DOCUMENT_SENTENCES * summary::MAX_SENTENCE_CHARS,
};

/// Runs the step.
pub(super) fn rewrite(tx: &mut Tx, llm: &dyn Extractor, now: Millis) -> Result<SummariesReport> {
    let mut report = SummariesReport::default();
    let mut calls = 0;
    for p in sql::passages_to_summarise(tx.conn(), SUMMARY_CALLS + 1)? {
        let text = format!(
            "Document: {}\nSection: {}\n\n{}",
            p.title,
            p.section.join(" > "),
            p.content
        );
        let of_chars = p.content.chars().count();
        let asked = (
            llm::PASSAGE_SUMMARY_INSTRUCTIONS,
            text.as_str(),
            &PASSAGE,
            of_chars,
        );
        let Some(summary) = ask(llm, asked, now, &mut calls, &mut report) else {
            return Ok(report);
        };
        sql::set_passage_summary(tx.conn(), p.memory_pk, &summary)?;
        tx.findings_changed(&p.owner);
        report.passages += 1;
    }
    for d in sql::documents_to_summarise(tx.conn(), SUMMARY_CALLS + 1 - calls)? {
        let summaries: Vec<&str> = d.summaries.iter().map(String::as_str).collect();
        let text = format!("Document: {}\n\n{}", d.title, llm::numbered(&summaries));
        let asked = (
            llm::DOCUMENT_SUMMARY_INSTRUCTIONS,
            text.as_str(),
            &DOCUMENT,
            d.chars,
        );
        let Some(summary) = ask(llm, asked, now, &mut calls, &mut report) else {
            return Ok(report);
        };
        sql::set_document_summary(tx.conn(), d.pk, &summary)?;
        report.documents += 1;
    }
    Ok(report)
}

/// The LLM's summary for `(instructions, text, bounds, of_chars)` (a text of `of_chars`
/// characters), checked against `bounds`; none when the step ends here: the host has no LLM,
/// the run made its calls (`report.more`), or the answer failed (`report.failure`).
fn ask(
    llm: &dyn Extractor,
    (instructions, text, bounds, of_chars): (&str, &str, &Bounds, usize),
    now: Millis,
    calls: &mut usize,
    report: &mut SummariesReport,
) -> Option<String> {
    if *calls == SUMMARY_CALLS {
        report.more = true;
        return None;
    }
    *calls += 1;
    let answer = llm
        .ask(instructions, text, now)?
        .map_err(|e| format!("the LLM failed ({e})"));
    let checked = answer.and_then(|a| llm::parse_summary(&a)).and_then(|s| {
        let chars = s.chars().count();
        let sentences = sentence_count(&s);
        if chars > bounds.chars {
            Err(format!(
                "the LLM's summary has {chars} characters, more than {}",
                bounds.chars
            ))
        } else if chars >= of_chars {
            Err(format!(
                "the LLM's summary ({chars} characters) is no shorter than its text ({of_chars})"
            ))
        } else if sentences > bounds.sentences {
            Err(format!(
                "the LLM's summary has {sentences} sentences, more than {}",
                bounds.sentences
            ))
        } else {
            Ok(s)
        }
    });
    checked.map_err(|why| report.failure = Some(why)).ok()
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
