//! Listing an owner's conflicts and resolving an open one.

use serde::{Deserialize, Serialize};

use super::{ConflictKind, ConflictMode, ConflictStatus, Resolution};
use crate::clock::Millis;
use crate::engine::{check_limit, Engine};
use crate::error::{Error, Result};
use crate::store::conflicts::{self as sql, ConflictRow};
use crate::text;

/// Default page size of `conflicts`.
const DEFAULT_LIMIT: usize = 50;
/// Longest reason given for a resolution.
const MAX_REASON_CHARS: usize = 1_000;

/// A conflict between a new statement and an existing memory.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Conflict {
    pub id: String,
    pub kind: ConflictKind,
    /// The mode applied when it was found.
    pub mode: ConflictMode,
    pub status: ConflictStatus,
    /// The memory stored for the new statement (none when it was not stored).
    pub memory: Option<String>,
    /// What the new statement said.
    pub content: String,
    /// The memory it contradicted.
    pub existing: String,
    pub existing_content: String,
    pub resolution: Option<Resolution>,
    pub reason: Option<String>,
    pub created_at: Millis,
    pub resolved_at: Option<Millis>,
}

impl From<ConflictRow> for Conflict {
    fn from(r: ConflictRow) -> Self {
        Conflict {
            id: r.id,
            kind: r.kind,
            mode: r.mode,
            status: r.status,
            memory: r.new_id,
            content: r.new_content,
            existing: r.existing_id,
            existing_content: r.existing_content,
            resolution: r.resolution,
            reason: r.reason,
            created_at: r.created_at,
            resolved_at: r.resolved_at,
        }
    }
}

/// Filters for [`Engine::conflicts`].
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ConflictsRequest {
    pub entity_id: String,
    /// Only open (or only resolved) conflicts.
    pub status: Option<ConflictStatus>,
    /// At most this many, newest first (1..=1000, default 50).
    pub limit: Option<usize>,
}

/// A decision on an open conflict, for [`Engine::resolve_conflict`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ResolveRequest {
    pub entity_id: String,
    pub id: String,
    pub resolution: Resolution,
    /// Why (written to the memories' status history); default "resolved by the user".
    #[serde(default)]
    pub reason: Option<String>,
}

impl Engine {
    /// An owner's conflicts, newest first.
    pub fn conflicts(&mut self, req: &ConflictsRequest) -> Result<Vec<Conflict>> {
        text::check_id("entity_id", &req.entity_id)?;
        let limit = check_limit(req.limit, DEFAULT_LIMIT)?;
        Ok(sql::list(&self.conn, &req.entity_id, req.status, limit)?
            .into_iter()
            .map(Conflict::from)
            .collect())
    }

    /// Decides an open conflict: keep the existing memory (the new one becomes superseded),
    /// use the new one (the existing one becomes superseded), merge them into one memory, or
    /// keep both.
    pub fn resolve_conflict(&mut self, req: &ResolveRequest) -> Result<Conflict> {
        let owner = req.entity_id.as_str();
        text::check_id("entity_id", owner)?;
        text::check_id("id", &req.id)?;
        let reason = match req.reason.as_deref().map(str::trim) {
            None => "resolved by the user".to_string(),
            Some(r) if r.is_empty() || r.chars().count() > MAX_REASON_CHARS => {
                return Err(Error::invalid(
                    "reason",
                    format!("must be 1 to {MAX_REASON_CHARS} characters"),
                ));
            }
            Some(r) => r.to_string(),
        };
        self.flush()?;
        let row = sql::get(&self.conn, owner, &req.id)?.ok_or_else(|| Error::UnknownConflict {
            entity_id: owner.to_string(),
            id: req.id.clone(),
        })?;
        if row.status == ConflictStatus::Resolved {
            return Err(Error::invalid(
                "id",
                format!(
                    "conflict {} is already resolved ({})",
                    row.id,
                    row.resolution.map_or("-", |r| r.as_str())
                ),
            ));
        }
        let now = self.now()?;
        let history = format!("{} conflict {}: {reason}", row.kind, row.id);
        self.transaction(owner, |e| {
            e.apply_resolution(
                req.resolution,
                owner,
                row.new_pk,
                row.existing_pk,
                &history,
                now,
            )?;
            sql::resolve(&e.conn, row.pk, req.resolution, &reason, now)
        })?;
        self.cache.invalidate(owner);
        let row = sql::get(&self.conn, owner, &req.id)?.ok_or_else(|| Error::UnknownConflict {
            entity_id: owner.to_string(),
            id: req.id.clone(),
        })?;
        Ok(row.into())
    }
}
