//! Applying a conflict's mode: on write (the mode of its kind, or the configured one) and on
//! `resolve_conflict` (the caller's decision). Every status change goes to the history.

use super::{detect, exclusive, ConflictKind, ConflictMode, Resolution, Statement};
use crate::clock::Millis;
use crate::engine::Engine;
use crate::error::{Error, Result};
use crate::extract::RelationMention;
use crate::graph::key;
use crate::model::{Memory, State, Status, StatusChange};
use crate::store;
use crate::text;
use crate::write::Outcome;

/// A conflict found for a new memory.
pub(crate) struct Found {
    pub kind: ConflictKind,
    pub existing_pk: i64,
    pub existing: Memory,
    pub similarity: f64,
}

impl Engine {
    /// The first existing memory the new one contradicts: those stating a clashing exclusive
    /// relation of the same subject, then the nearest neighbours.
    pub(crate) fn find_conflict(
        &mut self,
        memory: &Memory,
        relationships: &[RelationMention],
        neighbours: &[(i64, f32)],
    ) -> Result<Option<Found>> {
        let cfg = self.config.conflicts.clone();
        if !cfg.enabled {
            return Ok(None);
        }
        let owner = memory.entity_id.as_str();
        let mut candidates: Vec<(i64, f64)> = Vec::new();
        for r in relationships.iter().filter(|r| exclusive(r.relation)) {
            for pk in store::graph::stating(&self.conn, owner, &key(&r.from), r.relation)? {
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
            let Some((_, existing)) = store::by_pks(&self.conn, owner, &[pk])?.pop() else {
                continue;
            };
            if existing.status != Status::Active || existing.state == State::Deleted {
                continue;
            }
            let (_, stated) = store::graph::memory_graph(&self.conn, pk)?;
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
    /// records the conflict.
    pub(crate) fn settle_conflict(
        &mut self,
        found: Found,
        memory: Memory,
        vector: Vec<f32>,
        supplied: bool,
        neighbours: &[(i64, f32)],
        now: Millis,
    ) -> Result<Outcome> {
        let mode = self.config.conflicts.mode_for(found.kind);
        let owner = memory.entity_id.clone();
        let content = memory.content.clone();
        let cid = self.conflict_id(&owner, &found.existing.id, now)?;
        let reason = format!("{} conflict {cid}", found.kind);
        let (new_pk, new_id, resolution) = match mode {
            ConflictMode::KeepExisting => (None, None, Some(Resolution::KeepExisting)),
            ConflictMode::Merge => {
                let Outcome::Merged { id, .. } = self.merge(
                    found.existing_pk,
                    found.existing.clone(),
                    memory,
                    vector,
                    supplied,
                    found.similarity,
                    now,
                )?
                else {
                    return Err(Error::invalid("conflict", "merging gave no memory"));
                };
                let pk = store::get(&self.conn, &owner, &id)?.map(|x| x.0);
                (pk, Some(id), Some(Resolution::Merge))
            }
            ConflictMode::UseNew | ConflictMode::Temporal | ConflictMode::Ask => {
                let said_at = memory.created_at;
                let (pk, id) = self.create(memory, &vector, neighbours, now)?;
                let resolution = match mode {
                    ConflictMode::Ask => None,
                    ConflictMode::Temporal if found.existing.created_at > said_at => {
                        Some(Resolution::KeepExisting)
                    }
                    _ => Some(Resolution::UseNew),
                };
                if let Some(r) = resolution {
                    self.apply_resolution(r, &owner, Some(pk), found.existing_pk, &reason, now)?;
                }
                (Some(pk), Some(id), resolution)
            }
        };
        store::conflicts::insert(
            &self.conn,
            &cid,
            &owner,
            found.kind,
            mode,
            new_pk,
            &content,
            found.existing_pk,
            resolution,
            now,
        )?;
        Ok(Outcome::Conflict {
            id: new_id,
            existing: found.existing.id,
            kind: found.kind,
            mode,
            conflict: cid,
        })
    }

    /// A conflict's id: "cfl_" + 16 hex digits of SHA-256 over its owner, the memory it is
    /// with, the time and the row it will get (the same on every target).
    fn conflict_id(&self, owner: &str, existing: &str, now: Millis) -> Result<String> {
        let pk = store::conflicts::next_pk(&self.conn)?;
        Ok(text::derived_id(
            "cfl",
            &[owner.as_bytes(), existing.as_bytes()],
            &[now, pk],
        ))
    }

    /// Changes a memory's status, with the reason in its history.
    fn change_status(
        &mut self,
        owner: &str,
        pk: i64,
        status: Status,
        merged_into: Option<String>,
        reason: &str,
        now: Millis,
    ) -> Result<()> {
        let Some((_, mut m)) = store::by_pks(&self.conn, owner, &[pk])?.pop() else {
            return Ok(());
        };
        if m.status == status {
            return Ok(());
        }
        store::record_status(
            &self.conn,
            pk,
            &StatusChange {
                old: m.status,
                new: status,
                reason: reason.to_string(),
                changed_at: now,
            },
        )?;
        m.status = status;
        m.merged_into = merged_into;
        self.save(pk, &mut m, now)?;
        self.sync_vector(pk, &m, None)
    }

    /// Applies a decision to the two memories of a conflict (`new_pk` absent when the new
    /// statement was never stored).
    pub(crate) fn apply_resolution(
        &mut self,
        resolution: Resolution,
        owner: &str,
        new_pk: Option<i64>,
        existing_pk: i64,
        reason: &str,
        now: Millis,
    ) -> Result<()> {
        match (resolution, new_pk) {
            (Resolution::KeepBoth, _) | (Resolution::KeepExisting, None) => Ok(()),
            (Resolution::UseNew, _) => {
                self.change_status(owner, existing_pk, Status::Superseded, None, reason, now)
            }
            (Resolution::KeepExisting, Some(pk)) => {
                self.change_status(owner, pk, Status::Superseded, None, reason, now)
            }
            (Resolution::Merge, None) => Err(Error::invalid(
                "resolution",
                "the new statement was not stored, so there is nothing to merge",
            )),
            (Resolution::Merge, Some(pk)) => {
                let mut rows = store::by_pks(&self.conn, owner, &[existing_pk, pk])?;
                let (Some((_, new)), Some((_, existing))) = (
                    rows.iter().position(|r| r.0 == pk).map(|i| rows.remove(i)),
                    rows.pop(),
                ) else {
                    return Err(Error::invalid("conflict", "one of its memories is gone"));
                };
                let vector = match store::embedding(&self.conn, pk)? {
                    Some(v) => v,
                    None => self.vector_for(&new.content, None)?,
                };
                let outcome = self.merge(existing_pk, existing, new, vector, true, 1.0, now)?;
                if let Outcome::Merged { id, .. } = outcome {
                    self.change_status(owner, pk, Status::Merged, Some(id), reason, now)?;
                }
                Ok(())
            }
        }
    }
}
