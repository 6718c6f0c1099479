//! Listing an owner's conflicts and resolving an open one.

use serde::{Deserialize, Serialize};

use super::resolve::apply;
use super::sql::{self, ConflictRow};
use super::{ConflictKind, ConflictMode, ConflictStatus, Resolution};
use crate::clock::Millis;
use crate::error::{Error, Result};
use crate::field::{Id, Limit, Owner, Reason};
use crate::store::{Tx, View};

/// Default page size of `conflicts`.
pub(crate) const DEFAULT_LIMIT: usize = 50;

/// A conflict between a new statement and an existing memory.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Conflict {
    /// The conflict's id.
    pub id: String,
    /// What kind of contradiction it is.
    pub kind: ConflictKind,
    /// The mode applied when it was found.
    pub mode: ConflictMode,
    /// Whether it is open or resolved.
    pub status: ConflictStatus,
    /// The memory stored for the new statement (none when it was not stored).
    pub memory: Option<String>,
    /// What the new statement said.
    pub content: String,
    /// The memory it contradicted.
    pub existing: String,
    /// What the contradicted memory said.
    pub existing_content: String,
    /// How it was resolved (none while open).
    pub resolution: Option<Resolution>,
    /// Why it was resolved so (none while open).
    pub reason: Option<String>,
    /// When it was found, in milliseconds since the Unix epoch.
    pub created_at: Millis,
    /// When it was resolved, in milliseconds since the Unix epoch (none while open).
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

/// Filters for [`Engine::conflicts`](crate::Engine::conflicts).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ConflictsRequest {
    /// The owner of the memories (a user, an agent, a project): 1 to 256 characters of
    /// `[A-Za-z0-9_:.-]`; every read and write is scoped to one owner.
    pub entity_id: Owner,
    /// The agent the call is made for: it sees its own memories, `global` ones and `team`
    /// ones of the owner's teams it is a member of, and changes only its own (default none: the
    /// owner's view, which sees and changes every memory).
    pub agent_id: Option<Id>,
    /// Only open (or only resolved) conflicts.
    pub status: Option<ConflictStatus>,
    /// At most this many, newest first, 1 to 1,000 (default 50).
    pub limit: Option<Limit>,
}

/// A decision on an open conflict, for [`Engine::resolve_conflict`](crate::Engine::resolve_conflict).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ResolveRequest {
    /// The owner of the memories (a user, an agent, a project): 1 to 256 characters of
    /// `[A-Za-z0-9_:.-]`; every read and write is scoped to one owner.
    pub entity_id: Owner,
    /// The conflict's id, as `conflicts` lists it.
    pub id: Id,
    /// Which statement stands.
    pub resolution: Resolution,
    /// Why, written to the memories' status history: 1 to 1,000 characters once trimmed (default
    /// "resolved by the user").
    #[serde(default)]
    pub reason: Option<Reason>,
}

/// An owner's conflicts, newest first.
pub(crate) fn list(
    view: &View,
    owner: &str,
    status: Option<ConflictStatus>,
    limit: usize,
) -> Result<Vec<Conflict>> {
    Ok(sql::list(view.conn(), owner, status, limit)?
        .into_iter()
        .map(Conflict::from)
        .collect())
}

/// Decides an open conflict: keep the existing memory (the new one becomes superseded), use
/// the new one (the existing one becomes superseded), merge them into one memory, or keep
/// both. `reason` goes to the memories' status history.
pub(crate) fn resolve(
    tx: &mut Tx,
    owner: &Owner,
    id: &Id,
    resolution: Resolution,
    reason: Option<&Reason>,
) -> Result<Conflict> {
    let unknown = || Error::UnknownConflict {
        entity_id: owner.to_string(),
        id: id.to_string(),
    };
    let reason = reason.map_or("resolved by the user", Reason::as_str);
    let row = sql::get(tx.conn(), owner, id)?.ok_or_else(unknown)?;
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
    let history = format!("{} conflict {}: {reason}", row.kind, row.id);
    apply(tx, resolution, owner, row.new_pk, row.existing_pk, &history)?;
    sql::resolve(tx.conn(), row.pk, resolution, reason, tx.now()?)?;
    Ok(sql::get(tx.conn(), owner, id)?.ok_or_else(unknown)?.into())
}
