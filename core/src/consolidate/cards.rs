//! Peer cards' summaries by the host's LLM (engram: "generate peer cards for entities with
//! enough data"). A card is made when asked (`graph::card`) with a summary the engine writes;
//! when the host has an LLM the engine can ask, this step has it write each card's summary
//! from the card itself (`CARD_SUMMARY_INSTRUCTIONS`), checked (JSON, not empty, at most three
//! sentences and 720 characters), and keeps it with a hash of the facts it was written from:
//! the owner's view shows it while the card's facts are those, and the step writes it again
//! once they change. A failed or unusable answer keeps the engine's summary, says why and ends
//! the step for the run. Entities are examined from a cursor, 1,000 a run, 16 calls at most.
//! A host whose LLM the engine cannot ask in the middle of a call (a browser's answers later)
//! gets the cards waiting in the report instead (`wanted`), and writes its LLM's summaries
//! with `write_card_summary`, checked the same way.

use serde::{Deserialize, Serialize};

use super::STEP_BATCH;
use crate::clock::Millis;
use crate::document::summary::{self, Bounds};
use crate::error::{Error, Result};
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
    /// With no LLM the engine can ask itself (a browser's answers later): the cards waiting
    /// for one, as many as a run would ask, for the host to write (`write_card_summary`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub wanted: Vec<CardWanted>,
}

/// A card waiting for the host's LLM to write its summary.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct CardWanted {
    /// The card's owner.
    pub entity_id: String,
    /// The entity's name (what `card` and `write_card_summary` take).
    pub name: String,
    /// The card laid out, a line each: the name and type, other names, relationships, facts.
    pub texts: Vec<String>,
}

/// Arguments of `write_card_summary`: the host's LLM's summary of a card, in place of the
/// engine's.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CardSummaryWrite {
    /// The owner of the memories (a user, an agent, a project): 1 to 256 characters of
    /// `[A-Za-z0-9_:.-]`; every read and write is scoped to one owner.
    pub entity_id: crate::field::Owner,
    /// The entity (a name or alias), as `card` takes it.
    pub name: String,
    /// Two or three sentences, at most 720 characters: kept while the card's facts stand.
    pub summary: String,
}

/// Writes the host's summary of the card `req` names, checked as an LLM's answer is, and
/// answers the card with it.
pub(crate) fn write_host_summary(tx: &mut Tx, req: &CardSummaryWrite) -> Result<Card> {
    let now = tx.now()?;
    let conn = tx.conn();
    let owner = req.entity_id.as_str();
    let pk = card::entity_pk(conn, owner, &req.name)?;
    let c = card::owner_card(conn, owner, pk, now)?.map_err(|memories| Error::NoCard {
        entity_id: owner.to_string(),
        name: req.name.chars().take(64).collect(),
        memories,
        needed: crate::graph::CARD_MIN_MEMORIES,
    })?;
    let written = summary::check(&req.summary, &CARD, usize::MAX)
        .map_err(|why| Error::invalid("summary", why))?;
    card::write_llm_summary(conn, pk, &c, &written, now)?;
    Ok(Card {
        summary: written,
        summary_by: CardSummaryBy::Llm,
        ..c
    })
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

/// With no LLM the engine can ask: `first` (of `owner`, entity `pk`) and the cards after it
/// that wait for a summary, as many as a run would ask, listed for the host.
fn wanted(
    conn: &rusqlite::Connection,
    mut report: CardsReport,
    first: Card,
    owner: String,
    pk: i64,
    now: Millis,
) -> Result<CardsReport> {
    let listed = |c: &Card, owner: &str| CardWanted {
        entity_id: owner.to_string(),
        name: c.name.clone(),
        texts: laid_out(c).lines().map(str::to_string).collect(),
    };
    report.wanted.push(listed(&first, &owner));
    for (next, owner) in card::entities_after(conn, pk, STEP_BATCH)? {
        if report.wanted.len() == CARD_CALLS {
            report.more = true;
            break;
        }
        if let Ok(c) = card::owner_card(conn, &owner, next, now)? {
            if c.summary_by == CardSummaryBy::Engine {
                report.wanted.push(listed(&c, &owner));
            }
        }
    }
    Ok(report)
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
        let Ok(c) = card::owner_card(conn, &owner, pk, now)? else {
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
            // No LLM the engine can ask: the cards wait for the host's (the cursor stays).
            return wanted(conn, report, c, owner, pk, now);
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
