//! Finding what a new memory contradicts, and applying a conflict's mode: on write (the mode of
//! its kind, or the configured one) and on `resolve_conflict` (the caller's decision). Every
//! status change goes to the memory's history.

use super::sql;
use super::{detect, exclusive, ConflictConfig, ConflictKind, ConflictMode, Resolution, Statement};
use crate::dedup;
use crate::error::{Error, Result};
use crate::graph;
use crate::graph::RelationMention;
use crate::model::{Memory, State, Status, StatusChange};
use crate::store::{memories, Tx, View};
use crate::text;

/// A conflict found for a new memory.
pub(crate) struct Found {
    pub kind: ConflictKind,
    pub existing_pk: i64,
    pub existing: Memory,
    pub similarity: f64,
}

/// What was done about a conflict found on write.
pub(crate) struct Settled {
    /// The memory stored for the new statement (none under keep_existing).
    pub id: Option<String>,
    pub existing: String,
    pub kind: ConflictKind,
    pub mode: ConflictMode,
    /// The conflict's id.
    pub conflict: String,
}

/// The first existing memory `memory` contradicts: those stating a clashing exclusive
/// relation of the same subject, then its nearest neighbours (key, cosine).
pub(crate) fn find(
    view: &View,
    cfg: &ConflictConfig,
    memory: &Memory,
    relationships: &[RelationMention],
    neighbours: &[(i64, f32)],
) -> Result<Option<Found>> {
    if !cfg.enabled {
        return Ok(None);
    }
    let conn = view.conn();
    let owner = memory.entity_id.as_str();
    let mut candidates: Vec<(i64, f64)> = Vec::new();
    for r in relationships.iter().filter(|r| exclusive(r.relation)) {
        for pk in graph::stating(conn, owner, &graph::key(&r.from), r.relation)? {
            if !candidates.iter().any(|c| c.0 == pk) {
                candidates.push((pk, 0.0));
            }
        }
    }
    for &(pk, sim) in neighbours {
        match candidates.iter_mut().find(|c| c.0 == pk) {
            Some(c) => c.1 = sim as f64,
            None => candidates.push((pk, sim as f64)),
        }
    }
    let new = Statement {
        content: &memory.content,
        memory_type: memory.memory_type,
        sentiment: memory.sentiment,
        relationships,
    };
    for (pk, similarity) in candidates {
        let Some((_, existing)) = memories::by_pks(conn, owner, &[pk])?.pop() else {
            continue;
        };
        // Only a memory of the same writer, visibility and team contradicts this one: the
        // memories stating the same relation were found across the owner's store.
        let same_scope = existing.agent_id == memory.agent_id
            && existing.visibility == memory.visibility
            && existing.team_id == memory.team_id
            && existing.mixes();
        if existing.status != Status::Active || existing.state == State::Deleted || !same_scope {
            continue;
        }
        let (_, stated) = graph::Sight::new(conn, false).memory_graph(pk)?;
        let old = Statement {
            content: &existing.content,
            memory_type: existing.memory_type,
            sentiment: existing.sentiment,
            relationships: &stated,
        };
        if let Some(kind) = detect(new, old, similarity, cfg.min_similarity) {
            return Ok(Some(Found {
                kind,
                existing_pk: pk,
                existing,
                similarity,
            }));
        }
    }
    Ok(None)
}

/// Stores (or not) a memory that contradicts another, as its conflict's mode says, and
/// records the conflict. `neighbours` give a created memory its surprise.
pub(crate) fn settle(
    tx: &mut Tx,
    cfg: &ConflictConfig,
    found: Found,
    memory: Memory,
    vector: &[f32],
    supplied: bool,
    neighbours: &[(i64, f32)],
) -> Result<Settled> {
    let now = tx.now()?;
    let mode = cfg.mode_for(found.kind);
    let owner = memory.entity_id.clone();
    let content = memory.content.clone();
    let cid = text::derived_id(
        "cfl",
        &[owner.as_bytes(), found.existing.id.as_bytes()],
        &[now, crate::store::next_pk(tx.conn(), "conflicts")?],
    );
    let reason = format!("{} conflict {cid}", found.kind);
    let (new_pk, new_id, resolution) = match mode {
        ConflictMode::KeepExisting => (None, None, Some(Resolution::KeepExisting)),
        ConflictMode::Merge => {
            let merged = dedup::merge(
                tx,
                found.existing_pk,
                found.existing.clone(),
                memory,
                vector.to_vec(),
                supplied,
                found.similarity,
            )?;
            (Some(merged.pk), Some(merged.id), Some(Resolution::Merge))
        }
        ConflictMode::UseNew | ConflictMode::Temporal | ConflictMode::Ask => {
            let said_at = memory.created_at;
            let (pk, id) = dedup::create(tx, memory, vector, neighbours)?;
            let resolution = match mode {
                ConflictMode::Ask => None,
                ConflictMode::Temporal if found.existing.created_at > said_at => {
                    Some(Resolution::KeepExisting)
                }
                _ => Some(Resolution::UseNew),
            };
            if let Some(r) = resolution {
                apply(tx, r, &owner, Some(pk), found.existing_pk, &reason)?;
            }
            (Some(pk), Some(id), resolution)
        }
    };
    sql::insert(
        tx.conn(),
        &sql::NewConflict {
            id: &cid,
            owner: &owner,
            kind: found.kind,
            mode,
            new_pk,
            new_content: &content,
            existing_pk: found.existing_pk,
            resolution,
            at: now,
        },
    )?;
    Ok(Settled {
        id: new_id,
        existing: found.existing.id,
        kind: found.kind,
        mode,
        conflict: cid,
    })
}

/// Changes a memory's status, with the reason in its history.
fn change_status(
    tx: &mut Tx,
    owner: &str,
    pk: i64,
    status: Status,
    merged_into: Option<String>,
    reason: &str,
) -> Result<()> {
    let Some((_, mut m)) = memories::by_pks(tx.conn(), owner, &[pk])?.pop() else {
        return Ok(());
    };
    if m.status == status {
        return Ok(());
    }
    tx.record_status(
        pk,
        &StatusChange {
            old: m.status,
            new: status,
            reason: reason.to_string(),
            changed_at: tx.now()?,
            layer: None,
        },
    )?;
    m.status = status;
    m.merged_into = merged_into;
    tx.save(pk, &mut m)
}

/// Applies a decision to the two memories of a conflict (`new_pk` absent when the new
/// statement was never stored).
pub(crate) fn apply(
    tx: &mut Tx,
    resolution: Resolution,
    owner: &str,
    new_pk: Option<i64>,
    existing_pk: i64,
    reason: &str,
) -> Result<()> {
    match (resolution, new_pk) {
        (Resolution::KeepBoth, _) | (Resolution::KeepExisting, None) => Ok(()),
        (Resolution::UseNew, _) => {
            change_status(tx, owner, existing_pk, Status::Superseded, None, reason)
        }
        (Resolution::KeepExisting, Some(pk)) => {
            change_status(tx, owner, pk, Status::Superseded, None, reason)
        }
        (Resolution::Merge, None) => Err(Error::invalid(
            "resolution",
            "the new statement was not stored, so there is nothing to merge",
        )),
        (Resolution::Merge, Some(pk)) => {
            let mut rows = memories::by_pks(tx.conn(), owner, &[existing_pk, pk])?;
            let (Some((_, new)), Some((_, existing))) = (
                rows.iter().position(|r| r.0 == pk).map(|i| rows.remove(i)),
                rows.pop(),
            ) else {
                return Err(Error::invalid("conflict", "one of its memories is gone"));
            };
            let vector = match tx.embedding(pk)? {
                Some(v) => v,
                None => tx.memory_vector(&new.content, None)?,
            };
            let merged = dedup::merge(tx, existing_pk, existing, new, vector, true, 1.0)?;
            change_status(tx, owner, pk, Status::Merged, Some(merged.id), reason)
        }
    }
}
