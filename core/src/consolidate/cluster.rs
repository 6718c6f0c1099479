//! Cluster-and-merge, no LLM needed: near-duplicates that got past write-time
//! dedup (said in other words over time, imported, or written with dedup off) are folded into
//! one memory. A memory in use with at least `CLUSTER_MIN - 1` others of its owner in use
//! (not archived) above `CLUSTER_COSINE` makes a cluster, of as many as fit in one memory; a
//! new memory keeps everything each of them said (their
//! sentences merged, as dedup merges two), and each becomes status `merged` into it, with the
//! reason in its history. The most important member (then the most used, then the oldest)
//! leads the merged text. When the host has an LLM (the one it extracts with), the merged text
//! is instead its summary of the members ([`crate::extract::llm::SUMMARY_INSTRUCTIONS`]); a
//! failed or unusable answer leaves the sentences merged, and the report says why.
//!
//! Memories are examined in key order from a cursor kept in the store, `STEP_BATCH` per run.

use std::collections::HashSet;

use serde::{Deserialize, Serialize};

use super::next_batch;
use crate::clock::Millis;
use crate::dedup;
use crate::error::Result;
use crate::extract::Extractor;
use crate::field::MAX_CONTENT_CHARS;
use crate::model::{Memory, State};
use crate::store::{memories, Tx};
use crate::text;

/// Cosine above which two memories are near-duplicates here (Kybernesis: 0.8) …
const CLUSTER_COSINE: f32 = 0.8;
/// … and members a cluster needs (Kybernesis: 5).
const CLUSTER_MIN: usize = 5;
/// Neighbours looked at per memory: a cluster holds at most this many plus one.
const CLUSTER_K: usize = 64;
/// Where the next run starts (meta table): the last key examined, 0 for the beginning.
const CURSOR_KEY: &str = "consolidate_cluster_cursor";

/// What cluster-and-merge did.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct ClusterReport {
    /// Memories looked at.
    pub examined: usize,
    /// Clusters merged, and the memories they held.
    pub clusters: usize,
    /// Memories those clusters held.
    pub merged: usize,
    /// Merged memories whose text the host's LLM summarised (when the host has one) …
    pub summarised: usize,
    /// … and clusters it could not summarise (they keep every member's sentences), with the
    /// last reason.
    pub unsummarised: usize,
    /// Why the last summary failed (none when all succeeded).
    pub summary_failure: Option<String>,
    /// Each cluster merged, in the order merged.
    pub merges: Vec<ClusterMerge>,
    /// The step stopped at its bound (the next run goes on from there).
    pub more: bool,
}

/// One cluster merged.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct ClusterMerge {
    /// The owner of the cluster.
    pub entity_id: String,
    /// The new memory the members were merged into.
    pub id: String,
    /// What the members said, the most important first (what a summary is made of).
    pub texts: Vec<String>,
    /// The host's LLM summarised them (else the new memory holds their sentences merged).
    pub summarised: bool,
}

/// Runs the step at `now`.
pub(super) fn merge_clusters(
    tx: &mut Tx,
    now: Millis,
    llm: &dyn Extractor,
) -> Result<ClusterReport> {
    let (rows, more) = next_batch(tx, CURSOR_KEY)?;
    let mut report = ClusterReport {
        more,
        ..Default::default()
    };
    let mut taken = HashSet::new();
    for (pk, owner) in &rows {
        report.examined += 1;
        if taken.contains(pk) {
            continue;
        }
        let set = tx.vectors(owner)?;
        let Some(v) = set.get(*pk).map(<[f32]>::to_vec) else {
            continue;
        };
        let mut keys: Vec<i64> = set
            .neighbours(&v, CLUSTER_K + 1)
            .into_iter()
            .filter(|&(k, cos)| cos > CLUSTER_COSINE && !taken.contains(&k))
            .map(|(k, _)| k)
            .collect();
        if !keys.contains(pk) {
            keys.push(*pk);
        }
        if keys.len() < CLUSTER_MIN {
            continue;
        }
        // Archived memories stay where they are: a merge would bring them back into use.
        let mut members = memories::by_pks(tx.conn(), owner, &keys)?;
        // Only memories of one writer, visibility and team merge: a merge never moves what
        // one agent keeps to itself into a memory another may see, nor destroys another's.
        let Some(scope) = members
            .iter()
            .find(|(k, _)| k == pk)
            .map(|(_, m)| (m.agent_id.clone(), m.visibility, m.team_id.clone()))
        else {
            continue;
        };
        // A document's passages are its words: never merged, with each other or with memories.
        members.retain(|(_, m)| {
            m.state != State::Archived
                && m.mixes()
                && (m.agent_id.clone(), m.visibility, m.team_id.clone()) == scope
        });
        if members.len() < CLUSTER_MIN {
            continue;
        }
        crate::order::sort_by(&mut members, |(a_pk, a), (b_pk, b)| {
            b.importance
                .total_cmp(&a.importance)
                .then(b.access_count.cmp(&a.access_count))
                .then(a_pk.cmp(b_pk))
        });
        fitting(&mut members);
        if members.len() < CLUSTER_MIN {
            continue;
        }
        taken.extend(members.iter().map(|(k, _)| *k));
        merge(tx, members, now, llm, &mut report)?;
    }
    Ok(report)
}

/// Keeps the first `members` whose texts together fit in one memory ([`MAX_CONTENT_CHARS`],
/// a sentence separator each): the merged text says at most all of them, so it fits too, and
/// the members left out stay as they are (merged memories never grow past what a caller may
/// write, and an export of the store imports again).
fn fitting(members: &mut Vec<(i64, Memory)>) {
    let mut total = 0;
    let fit = members
        .iter()
        .take_while(|(_, m)| {
            total += m.content.chars().count() + 2;
            total <= MAX_CONTENT_CHARS + 2
        })
        .count();
    members.truncate(fit);
}

/// Folds `members` (leader first) into one new memory and marks each merged into it.
fn merge(
    tx: &mut Tx,
    members: Vec<(i64, Memory)>,
    now: Millis,
    llm: &dyn Extractor,
    report: &mut ClusterReport,
) -> Result<()> {
    let Some(((_, leader), rest)) = members.split_first() else {
        return Ok(());
    };
    let others: Vec<&Memory> = rest.iter().map(|(_, m)| m).collect();
    let mut merged = dedup::combined(leader, &others, now);
    // With the host's LLM, its summary is the merged text; each member keeps its own words
    // (status `merged`, in exports and by id).
    let texts: Vec<&str> = members.iter().map(|(_, m)| m.content.as_str()).collect();
    let mut summarised = false;
    match llm.summarise(&texts, now) {
        None => {}
        Some(Ok(summary)) => {
            merged.content_hash = text::content_hash(&summary);
            merged.content = summary;
            report.summarised += 1;
            summarised = true;
        }
        Some(Err(why)) => {
            report.unsummarised += 1;
            report.summary_failure = Some(why);
        }
    }
    // The merged text's own vector; where the store's vectors come from the caller (its
    // embedder takes no text), the normalised mean of the members'.
    let vector = match tx.memory_vector(&merged.content, None) {
        Ok(v) => v,
        Err(_) => {
            let mut vectors = Vec::with_capacity(members.len());
            for (pk, _) in &members {
                vectors.extend(tx.embedding(*pk)?);
            }
            dedup::mean(&vectors)
        }
    };
    tx.insert(&mut merged, &vector)?;
    report.merges.push(ClusterMerge {
        entity_id: merged.entity_id.clone(),
        id: merged.id.clone(),
        texts: texts.iter().map(|t| t.to_string()).collect(),
        summarised,
    });
    let n = members.len();
    for (pk, m) in members {
        let reason = format!(
            "consolidated into {} with {} near-duplicates (cosine > {})",
            merged.id,
            n - 1,
            crate::text::number(CLUSTER_COSINE)
        );
        dedup::absorb(tx, pk, m, &merged.id, reason)?;
    }
    report.clusters += 1;
    report.merged += n;
    Ok(())
}
