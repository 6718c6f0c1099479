//! Document summaries by the host's LLM (Kybernesis: "Summaries and Previews"). An ingest
//! summarises at once, with no LLM, from the text's own sentences (`document::summary`); when
//! the host has an LLM, this step rewrites those summaries, a few per run: each passage's from
//! its text, then the document's from its passages' summaries. An answer is checked (JSON, not
//! empty, at most so many sentences and characters, shorter than its text); one that fails
//! leaves the engine's summary in place and ends the step for this run, saying why. Ingests
//! stay fast and never wait on an LLM; a new version of a document is summarised afresh. A
//! host whose LLM the engine cannot ask in the middle of a call (a browser's answers later)
//! gets the summaries waiting in the report instead, and writes its LLM's with
//! `write_summary`, checked the same way.

use serde::{Deserialize, Serialize};

use crate::clock::Millis;
use crate::document::sql;
use crate::document::summary::{self, Bounds};
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
    /// With no LLM the engine can ask itself (a browser's answers later): the summaries
    /// waiting for one, as many as a run would ask, for the host to write (`write_summary`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub wanted: Vec<SummaryWanted>,
}

/// A summary waiting for the host's LLM: what to summarise, and where it goes.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct SummaryWanted {
    /// The document's owner.
    pub entity_id: String,
    /// The document's id.
    pub document_id: String,
    /// The passage's place in the document, from 0; none for the document's own summary.
    pub position: Option<usize>,
    /// The document's title.
    pub title: String,
    /// The markdown headings above the passage, outermost first (none for the document).
    pub section: Vec<String>,
    /// What to summarise: the passage's text, or the document's passages' summaries in order.
    pub texts: Vec<String>,
}

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
            &summary::PASSAGE,
            of_chars,
        );
        let summary = match ask(llm, asked, now, &mut calls, &mut report) {
            Asked::Summary(s) => s,
            Asked::NoLlm => return list_wanted(tx, report),
            Asked::Stop => return Ok(report),
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
            &summary::DOCUMENT,
            d.chars,
        );
        let summary = match ask(llm, asked, now, &mut calls, &mut report) {
            Asked::Summary(s) => s,
            Asked::NoLlm => return list_wanted(tx, report),
            Asked::Stop => return Ok(report),
        };
        sql::set_document_summary(tx.conn(), d.pk, &summary)?;
        report.documents += 1;
    }
    Ok(report)
}

/// What asking the LLM for one summary came to.
enum Asked {
    /// Its summary, checked.
    Summary(String),
    /// The host has no LLM the engine can ask.
    NoLlm,
    /// The step ends here: the run made its calls (`report.more`), or the answer failed
    /// (`report.failure`).
    Stop,
}

/// The LLM's summary for `(instructions, text, bounds, of_chars)` (a text of `of_chars`
/// characters), checked against `bounds`.
fn ask(
    llm: &dyn Extractor,
    (instructions, text, bounds, of_chars): (&str, &str, &Bounds, usize),
    now: Millis,
    calls: &mut usize,
    report: &mut SummariesReport,
) -> Asked {
    if *calls == SUMMARY_CALLS {
        report.more = true;
        return Asked::Stop;
    }
    let Some(answer) = llm.ask(instructions, text, now) else {
        return Asked::NoLlm;
    };
    *calls += 1;
    let checked = answer
        .map_err(|e| format!("the LLM failed ({e})"))
        .and_then(|a| llm::parse_summary(&a))
        .and_then(|s| summary::check(&s, bounds, of_chars));
    match checked {
        Ok(s) => Asked::Summary(s),
        Err(why) => {
            report.failure = Some(why);
            Asked::Stop
        }
    }
}

/// With no LLM the engine can ask, the report lists what is waiting for one (as many as a run
/// would ask), for a host whose LLM answers later to write with `write_summary`.
fn list_wanted(tx: &Tx, mut report: SummariesReport) -> Result<SummariesReport> {
    for p in sql::passages_to_summarise(tx.conn(), SUMMARY_CALLS + 1)? {
        if report.wanted.len() == SUMMARY_CALLS {
            report.more = true;
            return Ok(report);
        }
        report.wanted.push(SummaryWanted {
            entity_id: p.owner,
            document_id: p.document_id,
            position: Some(p.position),
            title: p.title,
            section: p.section,
            texts: vec![p.content],
        });
    }
    let room = SUMMARY_CALLS - report.wanted.len();
    for d in sql::documents_to_summarise(tx.conn(), room + 1)? {
        if report.wanted.len() == SUMMARY_CALLS {
            report.more = true;
            break;
        }
        report.wanted.push(SummaryWanted {
            entity_id: d.owner,
            document_id: d.id,
            position: None,
            title: d.title,
            section: Vec::new(),
            texts: d.summaries,
        });
    }
    Ok(report)
}
