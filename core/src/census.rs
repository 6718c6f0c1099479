//! The store as a whole, across owners: who has memories, where an id lives, and counts of
//! everything. For hosts that serve many owners behind one key (an HTTP server addressing a
//! memory by id alone, an operator's overview); every other call stays scoped to one owner.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::curate;
use crate::error::{Error, Result};
use crate::field::{Id, Limit, Owner};
use crate::model::Memory;
use crate::store::{memories, View};

/// Memories `sample` gives unless told.
const DEFAULT_SAMPLE: usize = 10;

/// Arguments of `sample`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct SampleRequest {
    /// Only this owner's memories (every owner's when absent): 1 to 256 characters of
    /// `[A-Za-z0-9_:.-]`.
    pub entity_id: Option<Owner>,
    /// The agent the call is made for: it sees its own memories, `global` ones and `team`
    /// ones of the owner's teams it is a member of, and changes only its own (default none: the
    /// owner's view, which sees and changes every memory).
    pub agent_id: Option<Id>,
    /// How many memories to draw, 1 to 1,000 (default 10).
    pub limit: Option<Limit>,
}

/// Where a memory lives, as answered by `locate`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Location {
    /// The memory's id, as asked.
    pub id: String,
    /// The owner the memory belongs to.
    pub entity_id: String,
    /// Whether the memory is a schedule (its id also addresses the schedule calls).
    pub schedule: bool,
}

/// One owner in the store's counts.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct OwnerCount {
    /// The owner.
    pub entity_id: String,
    /// Memories not deleted.
    pub total: usize,
}

/// Counts of every owner's memories, as answered by `store_stats`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct StoreStats {
    /// Owners with memories not deleted, by id.
    pub owners: Vec<OwnerCount>,
    /// Memories not deleted.
    pub total: usize,
    /// Memories not deleted, by memory type.
    pub by_type: BTreeMap<String, usize>,
    /// Includes DELETED (soft-deleted, not yet purged).
    pub by_state: BTreeMap<String, usize>,
    /// Memories not deleted, by validity status.
    pub by_status: BTreeMap<String, usize>,
    /// Memories not deleted, by storage tier.
    pub by_tier: BTreeMap<String, usize>,
    /// The name of the store's embedding model.
    pub embedding_model: String,
    /// The length of its vectors.
    pub embedding_dim: usize,
    /// Vectors of memories not deleted, by how they are stored (f32, int8, int4, int2).
    pub by_precision: BTreeMap<String, usize>,
    /// Bytes those vectors take in the store.
    pub vector_bytes: u64,
}

/// The owner of live memory `id`.
pub(crate) fn locate(view: &View, id: &str) -> Result<Location> {
    let id = Id::parse("id", id)?;
    match memories::live_owner_of(view.conn(), &id)? {
        Some((entity_id, schedule)) => Ok(Location {
            id: id.to_string(),
            entity_id,
            schedule,
        }),
        None => Err(Error::UnknownId { id: id.to_string() }),
    }
}

/// Counts across every owner.
pub(crate) fn store_stats(view: &View) -> Result<StoreStats> {
    let c = curate::counts(view, None)?;
    let owners: Vec<OwnerCount> = memories::owners(view.conn())?
        .into_iter()
        .map(|(entity_id, total)| OwnerCount { entity_id, total })
        .collect();
    let embedder = view.embedder();
    Ok(StoreStats {
        owners,
        total: c.total,
        by_type: c.by_type,
        by_state: c.by_state,
        by_status: c.by_status,
        by_tier: c.by_tier,
        embedding_model: embedder.model_id().to_string(),
        embedding_dim: embedder.dimension(),
        by_precision: c.by_precision,
        vector_bytes: c.vector_bytes,
    })
}

/// Memories drawn at random (with the host's randomness) from one owner's live memories, or
/// every owner's. A look, not a use: no access is recorded.
pub(crate) fn sample(view: &View, req: &SampleRequest) -> Result<Vec<Memory>> {
    let owner = req.entity_id.as_ref();
    let limit = Limit::or(req.limit, DEFAULT_SAMPLE);
    let mut pks = memories::live_pks(view.conn(), owner.map(Id::as_str))?;
    // The first `limit` places of a Fisher–Yates shuffle.
    let take = limit.min(pks.len());
    for i in 0..take {
        let j = i + (view.entropy().next_u64() % (pks.len() - i) as u64) as usize;
        pks.swap(i, j);
    }
    pks.truncate(take);
    memories::by_pks_in_order(view.conn(), &pks)
}
