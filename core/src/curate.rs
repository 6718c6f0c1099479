//! One owner's memories by id and in pages: get, list, edit, forget, feedback, pin, validity
//! status and its history, and counts.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::clock::{check_record_time, Millis};
use crate::error::{Error, Result};
use crate::field::{Content, Id, Limit, Owner, Reason, Sentiment, SourceRef, Tags, Unit};
use crate::model::*;
use crate::store::{memories, Tx, View};
use crate::text;

/// Largest paging offset of `list`.
const MAX_OFFSET: usize = 1_000_000_000;
/// Default page size of `list`.
pub(crate) const DEFAULT_LIST_LIMIT: usize = 50;
/// Feedback of a reinforcement and of a demotion.
const REINFORCE: i64 = 3;
const DEMOTE: i64 = -1;

/// A page of memories from `list`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Page {
    /// How many memories match the filters in all (not just this page).
    pub total: usize,
    /// The memories of this page, in the order asked.
    pub memories: Vec<Memory>,
}

/// Filters and paging for `list`. Empty lists mean "any"; by default DELETED memories are
/// left out.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ListRequest {
    /// The owner of the memories (a user, an agent, a project): 1 to 256 characters of
    /// `[A-Za-z0-9_:.-]`; every read and write is scoped to one owner.
    pub entity_id: Owner,
    /// The agent the call is made for: it sees its own memories, `global` ones and `team`
    /// ones of the owner's teams it is a member of, and changes only its own (default none: the
    /// owner's view, which sees and changes every memory).
    pub agent_id: Option<Id>,
    /// Only memories of these types (any when empty).
    #[serde(default)]
    pub types: Vec<MemoryType>,
    /// Only memories in these lifecycle states (any but DELETED when empty).
    #[serde(default)]
    pub states: Vec<State>,
    /// Only memories with these validity statuses (any when empty).
    #[serde(default)]
    pub statuses: Vec<Status>,
    /// Only memories of these kinds (any when empty).
    #[serde(default)]
    pub kinds: Vec<Kind>,
    /// Only memories carrying this tag, manual or automatic (default any).
    pub tag: Option<String>,
    /// Only pinned (true) or only unpinned (false) memories (default either).
    pub pinned: Option<bool>,
    /// Only these memories (at most 1,000 ids): a read of several by id that, unlike `get`, is not
    /// an access.
    #[schemars(length(max = 1000))]
    #[serde(default)]
    pub ids: Vec<Id>,
    /// Page size, 1 to 1,000 (default 50).
    pub limit: Option<Limit>,
    /// Memories to skip before the page starts, at most 1,000,000,000 (default 0).
    #[schemars(range(max = MAX_OFFSET))]
    #[serde(default)]
    pub offset: usize,
    /// Oldest first instead of newest first.
    #[serde(default)]
    pub oldest_first: bool,
}

impl ListRequest {
    /// The first page of `owner`'s memories, every filter left to its default.
    pub fn new(owner: Owner) -> ListRequest {
        ListRequest {
            entity_id: owner,
            agent_id: None,
            types: Vec::new(),
            states: Vec::new(),
            statuses: Vec::new(),
            kinds: Vec::new(),
            tag: None,
            pinned: None,
            ids: Vec::new(),
            limit: None,
            offset: 0,
            oldest_first: false,
        }
    }
}

/// Changes for `update`; absent fields stay as they are.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct MemoryPatch {
    /// New content: not blank, at most 50,000 characters; re-hashed, re-embedded and re-indexed.
    pub content: Option<Content>,
    /// Vector for the new content, when the caller embeds it.
    #[schemars(extend("x-embeds" = "content"))]
    pub vector: Option<Vec<f32>>,
    /// A new memory type.
    #[serde(rename = "type")]
    pub memory_type: Option<MemoryType>,
    /// A new kind.
    pub kind: Option<Kind>,
    /// A new importance, 0 to 1.
    pub importance: Option<Unit>,
    /// A new confidence, 0 to 1.
    pub confidence: Option<Unit>,
    /// A new sentiment, from -1 to 1.
    pub sentiment: Option<Sentiment>,
    /// Replaces the manual tags: at most 64, each 1 to 64 characters once trimmed.
    pub tags: Option<Tags>,
    /// A new expiry (a deadline), in milliseconds since the Unix epoch, from 1973 (an earlier
    /// value looks like seconds and is refused) to 9999.
    #[schemars(range(min = crate::clock::MIN_PLAUSIBLE_MS, max = crate::clock::MAX_MILLIS))]
    pub expires_at: Option<Millis>,
    /// A new source reference: 1 to 1,024 characters.
    pub source_ref: Option<SourceRef>,
}

/// Counts of one owner's memories.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Stats {
    /// The owner counted.
    pub entity_id: String,
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

/// A live (not deleted) memory of `owner` that the caller may see (another agent's private
/// memory is not found, as another owner's is).
pub(crate) fn live(view: &View, owner: &Owner, id: &Id) -> Result<(i64, Memory)> {
    match memories::get(view.conn(), owner, id)? {
        Some((pk, m)) if m.state != State::Deleted && view.viewer().sees(&m) => Ok((pk, m)),
        _ => Err(Error::NotFound {
            entity_id: owner.to_string(),
            id: id.to_string(),
        }),
    }
}

/// A live memory of `owner` that the caller may change: any in the owner's view, only its
/// own for an agent (one it may only see is refused, and left as it is).
pub(crate) fn own(view: &View, owner: &Owner, id: &Id) -> Result<(i64, Memory)> {
    let (pk, m) = live(view, owner, id)?;
    if !view.viewer().may_change(&m) {
        return Err(Error::invalid(
            "id",
            format!("memory {id} is not this agent's: an agent changes only its own memories"),
        ));
    }
    Ok((pk, m))
}

/// A memory by id. Counts as an access: an archived memory comes back to ACTIVE.
pub(crate) fn get(tx: &mut Tx, owner: &Owner, id: &Id) -> Result<Memory> {
    let (pk, mut m) = live(tx, owner, id)?;
    let now = tx.now()?;
    tx.access(pk, &mut m, 1, now)?;
    Ok(m)
}

/// Most ids one `list` takes.
const MAX_LIST_IDS: usize = 1_000;

/// A page of memories matching the filters, newest first unless asked otherwise.
pub(crate) fn list(view: &View, owner: &Owner, req: &ListRequest) -> Result<Page> {
    let limit = Limit::or(req.limit, DEFAULT_LIST_LIMIT);
    if req.offset > MAX_OFFSET {
        return Err(Error::invalid(
            "offset",
            format!("{} is larger than {MAX_OFFSET}", req.offset),
        ));
    }
    if req.ids.len() > MAX_LIST_IDS {
        return Err(Error::invalid(
            "ids",
            format!("{} ids; at most {MAX_LIST_IDS}", req.ids.len()),
        ));
    }
    let ids: Vec<String> = req.ids.iter().map(Id::to_string).collect();
    let live: Vec<State> = State::ALL
        .iter()
        .copied()
        .filter(|s| *s != State::Deleted)
        .collect();
    let f = memories::ListFilter {
        ids: &ids,
        owner,
        types: &req.types,
        states: if req.states.is_empty() {
            &live
        } else {
            &req.states
        },
        statuses: &req.statuses,
        kinds: &req.kinds,
        tag: req.tag.as_deref(),
        pinned: req.pinned,
        newest_first: !req.oldest_first,
    };
    let (memories, total) = memories::list(view.conn(), &f, limit, req.offset)?;
    Ok(Page { total, memories })
}

/// An update's new content and its vector (the caller's, checked, or the embedder's),
/// worked out in a read view before the write begins; `None` when the content stays.
pub(crate) fn new_content(
    view: &View,
    owner: &Owner,
    id: &Id,
    patch: &MemoryPatch,
) -> Result<Option<(Content, Vec<f32>)>> {
    own(view, owner, id)?;
    match &patch.content {
        Some(c) => {
            let v = view.memory_vector(c, patch.vector.as_deref())?;
            Ok(Some((c.clone(), v)))
        }
        None if patch.vector.is_some() => Err(Error::invalid(
            "vector",
            "a vector may only be given with new content",
        )),
        None => Ok(None),
    }
}

/// Changes a memory, its content to what [`new_content`] gave. New content is re-hashed,
/// re-embedded and re-indexed; the edit counts as the memory's last use.
pub(crate) fn update(
    tx: &mut Tx,
    owner: &Owner,
    id: &Id,
    patch: MemoryPatch,
    content: Option<(Content, Vec<f32>)>,
) -> Result<Memory> {
    let (pk, mut m) = own(tx, owner, id)?;
    let now = tx.now()?;
    // A passage is the document's words: it changes with the document (`ingest` again), and
    // nothing else becomes one.
    if m.kind == Kind::Passage
        && (content.is_some() || patch.kind.is_some_and(|k| k != Kind::Passage))
    {
        return Err(Error::invalid(
            "id",
            format!(
                "{} is a passage of a document: ingest the document again to change it",
                m.id
            ),
        ));
    }
    if patch.kind == Some(Kind::Passage) && m.kind != Kind::Passage {
        return Err(Error::invalid(
            "patch.kind",
            "passage is the kind of a document's passages, which only `ingest` writes",
        ));
    }
    if let Some(t) = patch.expires_at {
        check_record_time("expires_at", t)?;
    }
    if let Some(s) = patch.sentiment {
        m.sentiment = s.get();
    }
    if let Some(tags) = patch.tags {
        m.manual_tags = tags.into_vec();
    }
    if let Some(r) = patch.source_ref {
        m.source_ref = Some(r.into_string());
    }
    m.importance = patch.importance.map_or(m.importance, Unit::get);
    m.confidence = patch.confidence.map_or(m.confidence, Unit::get);
    m.memory_type = patch.memory_type.unwrap_or(m.memory_type);
    m.kind = patch.kind.unwrap_or(m.kind);
    m.expires_at = patch.expires_at.or(m.expires_at);
    if let Some((c, v)) = &content {
        m.content = c.trim().to_string();
        m.content_hash = text::content_hash(c);
        tx.set_vector(pk, &m, v)?;
    }
    m.last_accessed_at = Some(now.max(m.created_at));
    tx.save(pk, &mut m)?;
    Ok(m)
}

/// Soft-deletes a memory (purged after `purge_retention_days`).
pub(crate) fn forget(tx: &mut Tx, owner: &Owner, id: &Id) -> Result<Memory> {
    let (pk, m) = own(tx, owner, id)?;
    forget_row(tx, pk, m)
}

/// Soft-deletes memory `pk`, read as `m`.
pub(crate) fn forget_row(tx: &mut Tx, pk: i64, mut m: Memory) -> Result<Memory> {
    let now = tx.now()?;
    m.state = State::Deleted;
    m.state_changed_at = now;
    m.deleted_at = Some(now);
    tx.save(pk, &mut m)?;
    Ok(m)
}

/// What `forget_all` did.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct ForgetAllReport {
    /// The owner whose memories were forgotten.
    pub entity_id: String,
    /// Memories forgotten (soft-deleted; purged after the retention period).
    pub forgotten: usize,
}

/// Forgets every live memory of `owner`, as `forget` would one by one.
pub(crate) fn forget_all(tx: &mut Tx, owner: &Owner) -> Result<ForgetAllReport> {
    // An agent forgets its own memories only.
    let mut forgotten = 0;
    for id in memories::live_ids(tx.conn(), owner)? {
        if let Some((pk, m)) = memories::get(tx.conn(), owner, &id)? {
            if tx.viewer().may_change(&m) {
                forget_row(tx, pk, m)?;
                forgotten += 1;
            }
        }
    }
    Ok(ForgetAllReport {
        entity_id: owner.to_string(),
        forgotten,
    })
}

/// Feedback +3, and the memory counts as freshly used.
pub(crate) fn reinforce(tx: &mut Tx, owner: &Owner, id: &Id) -> Result<Memory> {
    feedback(tx, owner, id, REINFORCE, true)
}

/// Feedback −1.
pub(crate) fn demote(tx: &mut Tx, owner: &Owner, id: &Id) -> Result<Memory> {
    feedback(tx, owner, id, DEMOTE, false)
}

fn feedback(tx: &mut Tx, owner: &Owner, id: &Id, delta: i64, access: bool) -> Result<Memory> {
    let (pk, mut m) = own(tx, owner, id)?;
    let now = tx.now()?;
    m.feedback = m.feedback.saturating_add(delta);
    if access {
        tx.access(pk, &mut m, 1, now)?;
    }
    tx.save(pk, &mut m)?;
    Ok(m)
}

/// Pins (immune to decay) or unpins a memory. Either counts as an access, so an unpinned
/// memory starts decaying from now rather than from when it was pinned.
pub(crate) fn pin(tx: &mut Tx, owner: &Owner, id: &Id, pinned: bool) -> Result<Memory> {
    let (pk, mut m) = own(tx, owner, id)?;
    let now = tx.now()?;
    m.pinned = pinned;
    tx.access(pk, &mut m, 1, now)?;
    tx.save(pk, &mut m)?;
    Ok(m)
}

/// Changes a memory's validity status, recording the change and its reason.
pub(crate) fn set_status(
    tx: &mut Tx,
    owner: &Owner,
    id: &Id,
    status: Status,
    reason: &Reason,
) -> Result<Memory> {
    let (pk, mut m) = own(tx, owner, id)?;
    if m.status == status {
        return Err(Error::invalid(
            "status",
            format!("memory {id} is already {status}"),
        ));
    }
    if status != Status::Merged {
        m.merged_into = None;
    }
    tx.change_status(pk, &mut m, status, reason.as_str().to_string())?;
    Ok(m)
}

/// Moves a memory to `layer` by hand (up or down), with the move and its reason in its
/// history; automatic promotion leaves it there from then on.
pub(crate) fn set_layer(
    tx: &mut Tx,
    owner: &Owner,
    id: &Id,
    layer: Layer,
    reason: &Reason,
) -> Result<Memory> {
    let (pk, mut m) = own(tx, owner, id)?;
    if m.kind == Kind::Passage {
        return Err(Error::invalid(
            "id",
            format!("{id} is a passage of a document, which keeps its document's layer"),
        ));
    }
    if m.layer == Layer::Codebase || layer == Layer::Codebase {
        return Err(Error::invalid(
            "layer",
            "the codebase layer holds source files' memories, which only `ingest_code` writes: none moves into it or out",
        ));
    }
    if m.layer == layer {
        return Err(Error::invalid(
            "layer",
            format!("memory {id} is already in the {layer} layer"),
        ));
    }
    let now = tx.now()?;
    let change = StatusChange {
        old: m.status,
        new: m.status,
        reason: reason.as_str().to_string(),
        changed_at: now,
        layer: Some(LayerChange {
            old: m.layer,
            new: layer,
        }),
    };
    m.layer = layer;
    m.layer_set_at = Some(now);
    tx.record_status(pk, &change)?;
    tx.save(pk, &mut m)?;
    Ok(m)
}

/// A memory's status changes, oldest first (also for deleted memories).
pub(crate) fn status_history(view: &View, owner: &Owner, id: &Id) -> Result<Vec<StatusChange>> {
    let (pk, _) = memories::get(view.conn(), owner, id)?
        .filter(|(_, m)| view.viewer().sees(m))
        .ok_or_else(|| Error::NotFound {
            entity_id: owner.to_string(),
            id: id.to_string(),
        })?;
    memories::status_history(view.conn(), pk)
}

/// Counts of an owner's memories by type, state, status and tier.
pub(crate) fn stats(view: &View, owner: &Owner) -> Result<Stats> {
    let c = counts(view, Some(owner))?;
    let embedder = view.embedder();
    Ok(Stats {
        entity_id: owner.to_string(),
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

/// Counts of memories by type, state, status, tier and vector precision: one owner's, or
/// every owner's.
pub(crate) struct Counts {
    /// Memories not deleted.
    pub total: usize,
    pub by_type: BTreeMap<String, usize>,
    /// Includes DELETED.
    pub by_state: BTreeMap<String, usize>,
    pub by_status: BTreeMap<String, usize>,
    pub by_tier: BTreeMap<String, usize>,
    pub by_precision: BTreeMap<String, usize>,
    pub vector_bytes: u64,
}

pub(crate) fn counts(view: &View, owner: Option<&str>) -> Result<Counts> {
    let (mut by_type, mut by_state, mut by_status, mut by_tier) = Default::default();
    let mut total = 0;
    let add = |map: &mut BTreeMap<String, usize>, key: &str, n: usize| {
        *map.entry(key.to_string()).or_insert(0) += n;
    };
    for group in memories::census(view.conn(), owner)? {
        let n = group.count;
        add(&mut by_state, &group.state, n);
        if group.state != "DELETED" {
            total += n;
            add(&mut by_type, &group.kind, n);
            add(&mut by_status, &group.status, n);
            add(&mut by_tier, &group.tier, n);
        }
    }
    let (by_precision, vector_bytes) = memories::vector_census(view.conn(), owner)?;
    Ok(Counts {
        total,
        by_type,
        by_state,
        by_status,
        by_tier,
        by_precision,
        vector_bytes,
    })
}
