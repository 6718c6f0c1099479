//! Peer cards' summaries by the host's LLM (engram: "generate peer cards for entities with
//! enough data"). A card is made when asked (`graph::card`) with a summary the engine writes;
//! when the host has an LLM the engine can ask, this step has it write each card's summary
//! from the card itself (`CARD_SUMMARY_INSTRUCTIONS`), checked (JSON, not empty, at most three
//! sentences and 720 characters), and keeps it with a hash of the facts it was written from:
//! the owner's view shows it while the card's facts are those, and the step writes it again
//! once they change. A failed or unusable answer keeps the engine's summary, says why and ends
//! the step for the run. Entities are examined from a cursor, 1,000 a run, 16 calls at most.

use serde::{Deserialize, Serialize};

use super::STEP_BATCH;
use crate::clock::Millis;
use crate::document::summary::{self, Bounds};
use crate::error::Result;
use crate::extract::{llm, Extractor};
use crate::graph::card::{self, Card};
use crate::graph::CardSummaryBy;
use crate::store::schema::{meta, set_meta};
use crate::store::Tx;

/// Where the step's cursor is kept (meta table).
const CURSOR_KEY: &str = "cards_cursor";
/// LLM calls one run makes at most.
const CARD_CALLS: usize = 16;
/// A card's summary: two or three sentences.
const CARD: Bounds = summary::DOCUMENT;

/// What the step did.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct CardsReport {
    /// Cards whose summary the host's LLM wrote.
    pub written: usize,
    /// Why an answer of the LLM was not used, if one was not (the engine's summary stays).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub failure: Option<String>,
    /// The step stopped at a bound with entities left.
    pub more: bool,
}

/// The card as the LLM reads it.
fn laid_out(c: &Card) -> String {
    let mut out = format!("{} ({})", c.name, c.entity_type.as_str().to_lowercase());
    if !c.aliases.is_empty() {
        out += &format!("\nAlso: {}", c.aliases.join(", "));
    }
    for r in &c.relationships {
        out += &format!(
            "\n{} {} {}",
            r.from,
            r.relation.as_str().replace('_', " "),
            r.to
        );
    }
    for f in &c.facts {
        out += &format!("\n- {}", f.content);
    }
    out
}

/// Runs the step at `now`.
pub(super) fn write(tx: &mut Tx, llm: &dyn Extractor, now: Millis) -> Result<CardsReport> {
    let mut report = CardsReport::default();
    let conn = tx.conn();
    let cursor: i64 = meta(conn, CURSOR_KEY)?
        .and_then(|v| v.parse().ok())
        .unwrap_or(0);
    let entities = card::entities_after(conn, cursor, STEP_BATCH)?;
    // Where the next run goes on from: past what this one examined (the start once the end
    // is reached).
    let mut went_to = if entities.len() == STEP_BATCH {
        entities.last().map_or(0, |e| e.0)
    } else {
        0
    };
    let mut calls = 0;
    let mut last_done = cursor;
    for (pk, owner) in entities {
        let Some(c) = card::owner_card(conn, &owner, pk, now)? else {
            last_done = pk;
            continue;
        };
        if c.summary_by == CardSummaryBy::Llm {
            last_done = pk;
            continue;
        }
        if calls == CARD_CALLS {
            // Bound reached: the next run starts at this entity.
            went_to = last_done;
            report.more = true;
            break;
        }
        let Some(answer) = llm.ask(llm::CARD_SUMMARY_INSTRUCTIONS, &laid_out(&c), now) else {
            // No LLM the engine can ask: the engine's summaries stay, and so does the cursor.
            return Ok(report);
        };
        calls += 1;
        let checked = answer
            .map_err(|e| format!("the LLM failed ({e})"))
            .and_then(|a| llm::parse_summary(&a))
            .and_then(|s| summary::check(&s, &CARD, usize::MAX));
        match checked {
            Ok(s) => {
                card::write_llm_summary(conn, pk, &c, &s, now)?;
                report.written += 1;
                last_done = pk;
            }
            Err(why) => {
                // Asked again next run, from this entity.
                report.failure = Some(why);
                went_to = last_done;
                report.more = true;
                break;
            }
        }
    }
    report.more |= went_to != 0;
    set_meta(conn, CURSOR_KEY, &went_to.to_string())?;
    Ok(report)
}
