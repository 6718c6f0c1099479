//! Cross-domain synthesis (engram: "find entity pairs in different contexts, LLM-confirm
//! bridges"): memories in use name pairs of entities; a pair named together in at least two
//! contexts (documents, sessions, or memories said outside any) with no relationship between
//! them in the graph is proposed as a bridge, with its evidence. When the host has an LLM the
//! engine can ask, each proposed bridge is put to it (`BRIDGE_INSTRUCTIONS`), checked, and
//! confirmed or rejected with its reason; a failed answer leaves it proposed, says why, and
//! ends the asking for this run. Memories are examined from a cursor, 1,000 a run; nothing
//! is deleted, and a pair is proposed once.

use serde::{Deserialize, Serialize};

use super::{next_batch, STEP_BATCH};
use crate::clock::Millis;
use crate::error::{Error, Result};
use crate::extract::{llm, Extractor};
use crate::graph::bridge;
use crate::store::Tx;

/// Where the step's cursor is kept (meta table).
const CURSOR_KEY: &str = "synthesis_cursor";
/// Pairs one run looks into at most.
const PAIRS_PER_RUN: usize = 500;
/// LLM calls one run makes at most.
const BRIDGE_CALLS: usize = 16;

/// What synthesis did.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct SynthesisReport {
    /// Bridges proposed: entity pairs named together in different contexts.
    pub proposed: usize,
    /// Bridges the host's LLM confirmed.
    pub confirmed: usize,
    /// Bridges the host's LLM rejected.
    pub rejected: usize,
    /// Why an answer of the LLM was not used, if one was not (the bridge stays proposed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub failure: Option<String>,
    /// The step stopped at a bound with memories or bridges left.
    pub more: bool,
    /// With no LLM the engine can ask itself (a browser's answers later): the bridges waiting
    /// for a decision, as many as a run would ask, for the host to decide (`decide_bridge`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub wanted: Vec<BridgeWanted>,
}

/// A bridge waiting for the host's LLM to decide it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct BridgeWanted {
    /// The bridge's owner.
    pub entity_id: String,
    /// The bridge's id (what `decide_bridge` takes).
    pub id: String,
    /// One entity's name.
    pub a: String,
    /// The other's.
    pub b: String,
    /// The memories that name both: the evidence to decide on.
    pub texts: Vec<String>,
}

/// Arguments of `decide_bridge`: the host's LLM's decision on a proposed bridge.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct BridgeDecision {
    /// The owner of the memories (a user, an agent, a project): 1 to 256 characters of
    /// `[A-Za-z0-9_:.-]`; every read and write is scoped to one owner.
    pub entity_id: crate::field::Owner,
    /// The bridge's id, as `bridges` or `synthesis.wanted` give it.
    pub id: String,
    /// Whether the memories show the two really connected.
    pub related: bool,
    /// How the first relates to the second, a few words (at most 80 characters; needed when
    /// related).
    #[serde(default)]
    pub relation: String,
    /// Why, citing the memories: at most 480 characters.
    pub reason: String,
}

/// Records the host's decision on a proposed bridge, checked as an LLM's answer is.
pub(crate) fn decide_bridge(tx: &mut Tx, req: &BridgeDecision) -> Result<crate::graph::Bridge> {
    let now = tx.now()?;
    let conn = tx.conn();
    let owner = req.entity_id.as_str();
    let (pk, status) =
        bridge::by_id(conn, owner, &req.id)?.ok_or_else(|| Error::UnknownBridge {
            entity_id: owner.to_string(),
            id: req.id.chars().take(64).collect(),
        })?;
    if status != crate::graph::BridgeStatus::Proposed {
        return Err(Error::invalid(
            "id",
            format!("bridge {} is already {status}", req.id),
        ));
    }
    let (related, relation, reason) = llm::check_bridge(req.related, &req.relation, &req.reason)
        .map_err(|why| Error::invalid("decision", why))?;
    bridge::decide(conn, pk, related, &relation, &reason, now)?;
    bridge::owner_bridge(conn, owner, pk)
}

/// Runs the step at `now`.
pub(super) fn synthesise(tx: &mut Tx, llm: &dyn Extractor, now: Millis) -> Result<SynthesisReport> {
    let (batch, more) = next_batch(tx, CURSOR_KEY)?;
    let mut report = SynthesisReport {
        more,
        ..SynthesisReport::default()
    };
    let conn = tx.conn();
    let mut pairs: Vec<(String, i64, i64)> = Vec::new();
    for (pk, owner) in batch.iter().take(STEP_BATCH) {
        let named = bridge::named_by(conn, *pk)?;
        for (i, a) in named.iter().enumerate() {
            for b in &named[i + 1..] {
                let pair = (owner.clone(), *a.min(b), *a.max(b));
                if !pairs.contains(&pair) {
                    pairs.push(pair);
                }
            }
        }
    }
    if pairs.len() > PAIRS_PER_RUN {
        report.more = true;
        pairs.truncate(PAIRS_PER_RUN);
    }
    for (owner, a, b) in pairs {
        if bridge::known_pair(conn, &owner, a, b)? {
            continue;
        }
        let mentions = bridge::naming_both(conn, a, b)?;
        if bridge::contexts(&mentions) >= bridge::BRIDGE_MIN_CONTEXTS {
            bridge::propose(conn, &owner, (a, b), &bridge::evidence(&mentions), now)?;
            report.proposed += 1;
        }
    }
    confirm(tx, llm, now, &mut report)?;
    Ok(report)
}

/// Puts proposed bridges to the host's LLM, if the engine can ask it.
fn confirm(
    tx: &mut Tx,
    llm: &dyn Extractor,
    now: Millis,
    report: &mut SynthesisReport,
) -> Result<()> {
    let conn = tx.conn();
    let waiting = bridge::waiting(conn, BRIDGE_CALLS + 1)?;
    for (calls, w) in waiting.into_iter().enumerate() {
        if calls == BRIDGE_CALLS {
            report.more = true;
            break;
        }
        let text = format!("{}\n{}\n\n{}", w.a, w.b, w.evidence.join("\n"));
        let Some(answer) = llm.ask(llm::BRIDGE_INSTRUCTIONS, &text, now) else {
            // No LLM the engine can ask: the bridges wait for the host's.
            report.wanted = bridge::waiting(conn, BRIDGE_CALLS)?
                .into_iter()
                .map(|w| BridgeWanted {
                    entity_id: w.owner,
                    id: w.id,
                    a: w.a,
                    b: w.b,
                    texts: w.evidence,
                })
                .collect();
            return Ok(());
        };
        let checked = answer
            .map_err(|e| format!("the LLM failed ({e})"))
            .and_then(|a| llm::parse_bridge(&a));
        match checked {
            Ok((related, relation, reason)) => {
                bridge::decide(conn, w.pk, related, &relation, &reason, now)?;
                if related {
                    report.confirmed += 1;
                } else {
                    report.rejected += 1;
                }
            }
            Err(why) => {
                report.failure = Some(why);
                return Ok(());
            }
        }
    }
    Ok(())
}
