//! `Engine`: the public API. Each call validates its input, runs in one transaction, and keeps
//! the in-memory vector sets and the search cache in step with what was committed.

use std::collections::BTreeMap;
use std::path::Path;

use rusqlite::Connection;
use serde::{Deserialize, Serialize};

use crate::cache::SearchCache;
use crate::clock::{Clock, Entropy, Millis, SeededEntropy};
use crate::config::Config;
use crate::decay;
use crate::embed::{self, Embedder, HashEmbedder};
use crate::error::{Error, Result};
use crate::extract::{Extractor, RuleExtractor};
use crate::model::*;
use crate::rank::ScoreBreakdown;
use crate::recall::{self, Candidate, SearchHit, SearchRequest, MAX_LIMIT};
use crate::store;
use crate::text;
use crate::tier;
use crate::vectors::{OwnerVectors, VectorIndex};

/// Longest reason accepted by `set_status`.
const MAX_REASON_CHARS: usize = 1000;
/// Largest paging offset of `list`.
const MAX_OFFSET: usize = 1_000_000_000;
/// Default page size of `list`.
const DEFAULT_LIST_LIMIT: usize = 50;
/// Default number of search results.
const DEFAULT_SEARCH_LIMIT: usize = 10;
/// Rows the maintenance pass reads per batch.
const MAINTAIN_BATCH: usize = 1000;

/// The memory engine over one SQLite store.
pub struct Engine {
    pub(crate) conn: Connection,
    pub(crate) config: Config,
    pub(crate) clock: Box<dyn Clock>,
    pub(crate) entropy: Box<dyn Entropy>,
    pub(crate) embedder: Box<dyn Embedder>,
    pub(crate) extractor: Box<dyn Extractor>,
    pub(crate) vectors: VectorIndex,
    pub(crate) cache: SearchCache,
    /// Accesses recorded by searches, not yet written (memory pk → accesses).
    pending: BTreeMap<i64, Pending>,
}

/// Accesses of one memory recorded by searches and not yet written.
struct Pending {
    owner: String,
    count: i64,
    at: Millis,
}

/// The first bytes of every SQLite database file.
const SQLITE_HEADER: &[u8] = b"SQLite format 3\0";

/// Pending accesses that make a search write them at once.
const MAX_PENDING_ACCESSES: usize = 1024;

/// Records `count` accesses at `at` on a memory: counts, last access time, and revival of a
/// stale or archived memory to ACTIVE.
fn apply_access(m: &mut Memory, count: i64, at: Millis) {
    m.access_count = m.access_count.saturating_add(count);
    m.last_accessed_at = Some(m.last_accessed_at.unwrap_or(at).max(at).max(m.created_at));
    if matches!(m.state, State::Stale | State::Archived) {
        m.state = State::Active;
        m.state_changed_at = at;
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        // Best effort: an error here can only lose access counts.
        let _ = self.flush();
    }
}

/// Sets up an [`Engine`]: the clock is required, everything else has a default.
pub struct EngineBuilder {
    config: Config,
    clock: Box<dyn Clock>,
    entropy: Box<dyn Entropy>,
    embedder: Box<dyn Embedder>,
    extractor: Box<dyn Extractor>,
}

impl EngineBuilder {
    /// Replaces the configuration.
    pub fn config(mut self, config: Config) -> Self {
        self.config = config;
        self
    }
    /// Replaces the source of randomness (default: SplitMix64 seeded with 0).
    pub fn entropy(mut self, entropy: impl Entropy + 'static) -> Self {
        self.entropy = Box::new(entropy);
        self
    }
    /// Replaces the embedder (default: the built-in hashing embedder).
    pub fn embedder(mut self, embedder: impl Embedder + 'static) -> Self {
        self.embedder = Box::new(embedder);
        self
    }
    /// Replaces the extractor used by `remember` (default: pass-through).
    pub fn extractor(mut self, extractor: impl Extractor + 'static) -> Self {
        self.extractor = Box::new(extractor);
        self
    }
    /// Opens (creating if needed) the store at `path`.
    pub fn open(self, path: impl AsRef<Path>) -> Result<Engine> {
        let conn = Connection::open(path.as_ref())?;
        self.finish(conn)
    }
    /// Opens a store that lives in memory only.
    pub fn open_in_memory(self) -> Result<Engine> {
        self.finish(Connection::open_in_memory()?)
    }
    /// Opens a store on a connection the host made (for instance through a browser VFS).
    pub fn open_connection(self, conn: Connection) -> Result<Engine> {
        self.finish(conn)
    }
    /// Opens an in-memory copy of a whole store image made by [`Engine::to_bytes`] (how an
    /// edge function loads its store from a blob store). The bytes are checked like a file.
    pub fn open_bytes(self, bytes: &[u8]) -> Result<Engine> {
        if !bytes.starts_with(SQLITE_HEADER) {
            return Err(Error::NotAStore(format!(
                "{} bytes that do not start with the SQLite header",
                bytes.len()
            )));
        }
        let mut conn = Connection::open_in_memory()?;
        conn.deserialize_read_exact(rusqlite::MAIN_DB, bytes, bytes.len(), false)?;
        self.finish(conn)
    }

    fn finish(self, mut conn: Connection) -> Result<Engine> {
        self.config.validate()?;
        let now = self.clock.now();
        crate::clock::check_time("clock", now)?;
        store::open(&mut conn, now)?;
        let (model, dim) = (
            self.embedder.model_id().to_string(),
            self.embedder.dimension(),
        );
        if dim == 0 || model.is_empty() {
            return Err(Error::invalid(
                "embedder",
                "model id must be non-empty and dimension positive",
            ));
        }
        match (
            store::meta(&conn, "embedding_model")?,
            store::meta(&conn, "embedding_dim")?,
        ) {
            (Some(m), Some(d)) => {
                let store_dim: usize = d.parse().map_err(|_| {
                    Error::NotAStore(format!("embedding_dim {d:?} is not a number"))
                })?;
                if m != model || store_dim != dim {
                    return Err(Error::EmbedderMismatch {
                        store_model: m,
                        store_dim,
                        embedder_model: model,
                        embedder_dim: dim,
                    });
                }
            }
            _ => {
                store::set_meta(&conn, "embedding_model", &model)?;
                store::set_meta(&conn, "embedding_dim", &dim.to_string())?;
            }
        }
        Ok(Engine {
            conn,
            cache: SearchCache::new(self.config.recall.cache_entries),
            config: self.config,
            clock: self.clock,
            entropy: self.entropy,
            embedder: self.embedder,
            extractor: self.extractor,
            vectors: VectorIndex::default(),
            pending: BTreeMap::new(),
        })
    }
}

/// A page of memories from [`Engine::list`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Page {
    pub total: usize,
    pub memories: Vec<Memory>,
}

/// Filters and paging for [`Engine::list`]. Empty lists mean "any"; by default DELETED
/// memories are left out.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ListRequest {
    pub entity_id: String,
    pub types: Vec<MemoryType>,
    pub states: Vec<State>,
    pub statuses: Vec<Status>,
    pub kinds: Vec<Kind>,
    pub tag: Option<String>,
    pub pinned: Option<bool>,
    /// Page size (1..=1000, default 50).
    pub limit: Option<usize>,
    pub offset: usize,
    /// Oldest first instead of newest first.
    pub oldest_first: bool,
}

/// Changes for [`Engine::update`]; absent fields stay as they are.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct MemoryPatch {
    pub content: Option<String>,
    /// Vector for the new content, when the caller embeds it.
    pub vector: Option<Vec<f32>>,
    #[serde(rename = "type")]
    pub memory_type: Option<MemoryType>,
    pub kind: Option<Kind>,
    pub importance: Option<f64>,
    pub confidence: Option<f64>,
    pub sentiment: Option<f64>,
    /// Replaces the manual tags.
    pub tags: Option<Vec<String>>,
    pub expires_at: Option<Millis>,
    pub source_ref: Option<String>,
}

/// Counts of one owner's memories.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Stats {
    pub entity_id: String,
    /// Memories not deleted.
    pub total: usize,
    pub by_type: BTreeMap<String, usize>,
    /// Includes DELETED (soft-deleted, not yet purged).
    pub by_state: BTreeMap<String, usize>,
    pub by_status: BTreeMap<String, usize>,
    pub by_tier: BTreeMap<String, usize>,
    pub embedding_model: String,
    pub embedding_dim: usize,
}

/// What one maintenance pass did.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct MaintainReport {
    /// Rows whose due time had come and were looked at.
    pub examined: usize,
    pub to_stale: usize,
    pub to_archived: usize,
    pub to_deleted: usize,
    pub promoted: usize,
    pub purged: usize,
}

impl Engine {
    /// Starts setting up an engine whose time comes from `clock`.
    pub fn builder(clock: impl Clock + 'static) -> EngineBuilder {
        EngineBuilder {
            config: Config::default(),
            clock: Box::new(clock),
            entropy: Box::new(SeededEntropy::new(0)),
            embedder: Box::new(HashEmbedder::default()),
            extractor: Box::new(RuleExtractor),
        }
    }

    /// The whole store as one SQLite image (pending accesses written first), for
    /// [`EngineBuilder::open_bytes`] or any SQLite tool.
    pub fn to_bytes(&mut self) -> Result<Vec<u8>> {
        self.flush()?;
        Ok(self.conn.serialize(rusqlite::MAIN_DB)?.to_vec())
    }

    /// A counter that grows whenever a call writes to the store (rows inserted, updated or
    /// deleted). Hosts that keep a copy of the store save it when this has moved.
    pub fn changes(&self) -> u64 {
        self.conn.total_changes()
    }

    /// The configuration in force.
    pub fn config(&self) -> &Config {
        &self.config
    }

    /// The embedder's model id and dimension (as recorded in the store).
    pub fn embedding_model(&self) -> (&str, usize) {
        (self.embedder.model_id(), self.embedder.dimension())
    }

    /// The host's time, checked to be in range.
    pub(crate) fn now(&self) -> Result<Millis> {
        let now = self.clock.now();
        crate::clock::check_time("clock", now)?;
        Ok(now)
    }

    /// Runs `f` in one transaction. On error nothing is written and the in-memory vector set
    /// of `owner` is dropped (it is reloaded from the store on next use).
    pub(crate) fn transaction<T>(
        &mut self,
        owner: &str,
        f: impl FnOnce(&mut Self) -> Result<T>,
    ) -> Result<T> {
        self.conn.execute_batch("BEGIN IMMEDIATE")?;
        match self.write_pending().and_then(|_| f(self)) {
            Ok(v) => match self.conn.execute_batch("COMMIT") {
                Ok(()) => Ok(v),
                Err(e) => {
                    let _ = self.conn.execute_batch("ROLLBACK");
                    self.vectors.evict(owner);
                    Err(e.into())
                }
            },
            Err(e) => {
                let _ = self.conn.execute_batch("ROLLBACK");
                self.vectors.evict(owner);
                Err(e)
            }
        }
    }

    /// The vector set of `owner`, loading it from the store if needed.
    pub(crate) fn owner_vectors(&mut self, owner: &str) -> Result<&mut OwnerVectors> {
        if self.vectors.owner(owner).is_none() {
            let mut set = OwnerVectors::new(self.embedder.dimension());
            for (pk, v) in store::vectors(&self.conn, owner)? {
                if v.len() == self.embedder.dimension() {
                    set.upsert(pk, &v);
                }
            }
            return Ok(self.vectors.insert(owner, set));
        }
        Ok(self.vectors.owner_mut(owner).expect("checked above"))
    }

    /// Keeps `owner`'s vector set in step with a memory's searchability.
    pub(crate) fn sync_vector(&mut self, pk: i64, m: &Memory, v: Option<&[f32]>) -> Result<()> {
        let searchable = m.state != State::Deleted && m.status == Status::Active;
        let stored;
        let v = match v {
            Some(v) => Some(v),
            None if searchable => {
                stored = store::embedding(&self.conn, pk)?;
                stored.as_deref()
            }
            None => None,
        };
        let set = self.owner_vectors(&m.entity_id)?;
        match v {
            Some(v) if searchable => set.upsert(pk, v),
            _ => set.remove(pk),
        }
        Ok(())
    }

    /// The vector for `content`: the caller's (checked and normalised) or the embedder's.
    pub(crate) fn vector_for(&self, content: &str, supplied: Option<&[f32]>) -> Result<Vec<f32>> {
        let (model, dim) = self.embedding_model();
        match supplied {
            Some(v) => {
                embed::check_vector(v, dim, model)?;
                let mut v = v.to_vec();
                embed::normalise(&mut v);
                Ok(v)
            }
            None => {
                let v = self.embedder.embed(content)?;
                embed::check_vector(&v, dim, model)
                    .map_err(|e| Error::Embedder(format!("embedder returned a bad vector: {e}")))?;
                Ok(v)
            }
        }
    }

    /// Recomputes the fields that follow from a memory's others at `now`: layer and tier.
    fn refresh(&self, m: &mut Memory, now: Millis) {
        m.layer = decay::promoted_layer(m, now);
        m.tier = tier::classify(m, now, decay::retention(m, now, &self.config.retention));
    }

    /// `refresh`, then the time maintenance should next look at the memory (for storing).
    pub(crate) fn settle(&self, m: &mut Memory, now: Millis) -> Option<Millis> {
        self.refresh(m, now);
        decay::next_due(m, now, &self.config.retention)
    }

    /// A live (not deleted) memory of `owner`.
    fn live(&mut self, owner: &str, id: &str) -> Result<(i64, Memory)> {
        text::check_id("entity_id", owner)?;
        text::check_id("id", id)?;
        // The caller will write this row back: first write the accesses searches recorded.
        self.flush()?;
        match store::get(&self.conn, owner, id)? {
            Some((pk, m)) if m.state != State::Deleted => Ok((pk, m)),
            _ => Err(Error::NotFound {
                entity_id: owner.into(),
                id: id.into(),
            }),
        }
    }

    /// Records an access: count, time, revival of a stale or archived memory, promotion.
    pub(crate) fn touch(&self, pk: i64, m: &mut Memory, now: Millis) -> Result<()> {
        apply_access(m, 1, now);
        let due = self.settle(m, now);
        store::update(&self.conn, pk, m, due)
    }

    /// Saves a changed memory and invalidates the owner's cached searches.
    pub(crate) fn save(&mut self, pk: i64, m: &mut Memory, now: Millis) -> Result<()> {
        m.updated_at = now;
        let due = self.settle(m, now);
        store::update(&self.conn, pk, m, due)?;
        self.cache.invalidate(&m.entity_id);
        Ok(())
    }

    /// A memory by id. Counts as an access: an archived memory comes back to ACTIVE.
    pub fn get(&mut self, entity_id: &str, id: &str) -> Result<Memory> {
        let (pk, mut m) = self.live(entity_id, id)?;
        let now = self.now()?;
        self.transaction(entity_id, |e| e.touch(pk, &mut m, now))?;
        Ok(m)
    }

    /// A page of memories matching the filters, newest first unless asked otherwise.
    pub fn list(&mut self, req: &ListRequest) -> Result<Page> {
        self.flush()?;
        text::check_id("entity_id", &req.entity_id)?;
        let limit = check_limit(req.limit, DEFAULT_LIST_LIMIT)?;
        if req.offset > MAX_OFFSET {
            return Err(Error::invalid(
                "offset",
                format!("{} is larger than {MAX_OFFSET}", req.offset),
            ));
        }
        let live: Vec<State> = State::ALL
            .iter()
            .copied()
            .filter(|s| *s != State::Deleted)
            .collect();
        let f = store::ListFilter {
            owner: &req.entity_id,
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
        let (memories, total) = store::list(&self.conn, &f, limit, req.offset)?;
        Ok(Page { total, memories })
    }

    /// Changes a memory. New content is re-hashed, re-embedded and re-indexed.
    pub fn update(&mut self, entity_id: &str, id: &str, patch: MemoryPatch) -> Result<Memory> {
        let (pk, mut m) = self.live(entity_id, id)?;
        let now = self.now()?;
        let mut vector = None;
        if let Some(c) = &patch.content {
            text::check_content("content", c)?;
            vector = Some(self.vector_for(c, patch.vector.as_deref())?);
            m.content = c.trim().to_string();
            m.content_hash = text::content_hash(c);
        } else if patch.vector.is_some() {
            return Err(Error::invalid(
                "vector",
                "a vector may only be given with new content",
            ));
        }
        if let Some(t) = patch.expires_at {
            crate::clock::check_time("expires_at", t)?;
        }
        for (field, v) in [
            ("importance", patch.importance),
            ("confidence", patch.confidence),
        ] {
            if let Some(v) = v {
                text::check_unit(field, v)?;
            }
        }
        if let Some(s) = patch.sentiment {
            check_sentiment(s)?;
            m.sentiment = s;
        }
        if let Some(tags) = &patch.tags {
            m.manual_tags = text::clean_tags(tags)?;
        }
        if let Some(r) = &patch.source_ref {
            check_source_ref(r)?;
            m.source_ref = Some(r.clone());
        }
        m.importance = patch.importance.unwrap_or(m.importance);
        m.confidence = patch.confidence.unwrap_or(m.confidence);
        m.memory_type = patch.memory_type.unwrap_or(m.memory_type);
        m.kind = patch.kind.unwrap_or(m.kind);
        m.expires_at = patch.expires_at.or(m.expires_at);
        self.transaction(entity_id, |e| {
            if let Some(v) = &vector {
                store::set_embedding(&e.conn, pk, v)?;
            }
            // koshi: an update refreshes the memory's last hit.
            m.last_accessed_at = Some(now.max(m.created_at));
            e.save(pk, &mut m, now)?;
            e.sync_vector(pk, &m, vector.as_deref())
        })?;
        Ok(m)
    }

    /// Soft-deletes a memory (purged after `purge_retention_days`).
    pub fn forget(&mut self, entity_id: &str, id: &str) -> Result<Memory> {
        let (pk, mut m) = self.live(entity_id, id)?;
        let now = self.now()?;
        m.state = State::Deleted;
        m.state_changed_at = now;
        m.deleted_at = Some(now);
        self.transaction(entity_id, |e| {
            e.save(pk, &mut m, now)?;
            e.sync_vector(pk, &m, None)
        })?;
        Ok(m)
    }

    /// koshi reinforce: feedback +3 and the memory counts as freshly used.
    pub fn reinforce(&mut self, entity_id: &str, id: &str) -> Result<Memory> {
        self.feedback(entity_id, id, 3, true)
    }

    /// koshi demote: feedback −1.
    pub fn demote(&mut self, entity_id: &str, id: &str) -> Result<Memory> {
        self.feedback(entity_id, id, -1, false)
    }

    fn feedback(&mut self, entity_id: &str, id: &str, delta: i64, access: bool) -> Result<Memory> {
        let (pk, mut m) = self.live(entity_id, id)?;
        let now = self.now()?;
        m.feedback = m.feedback.saturating_add(delta);
        self.transaction(entity_id, |e| {
            if access {
                e.touch(pk, &mut m, now)?;
            }
            e.save(pk, &mut m, now)
        })?;
        Ok(m)
    }

    /// Pins (immune to decay) or unpins a memory. Either counts as an access, so an unpinned
    /// memory starts decaying from now rather than from when it was pinned.
    pub fn pin(&mut self, entity_id: &str, id: &str, pinned: bool) -> Result<Memory> {
        let (pk, mut m) = self.live(entity_id, id)?;
        let now = self.now()?;
        m.pinned = pinned;
        self.transaction(entity_id, |e| {
            e.touch(pk, &mut m, now)?;
            e.save(pk, &mut m, now)
        })?;
        Ok(m)
    }

    /// Changes a memory's validity status, recording the change and its reason.
    pub fn set_status(
        &mut self,
        entity_id: &str,
        id: &str,
        status: Status,
        reason: &str,
    ) -> Result<Memory> {
        let (pk, mut m) = self.live(entity_id, id)?;
        let reason = reason.trim();
        if reason.is_empty() || reason.chars().count() > MAX_REASON_CHARS {
            return Err(Error::invalid(
                "reason",
                format!("must be 1 to {MAX_REASON_CHARS} characters"),
            ));
        }
        if m.status == status {
            return Err(Error::invalid(
                "status",
                format!("memory {id} is already {status}"),
            ));
        }
        let now = self.now()?;
        let change = StatusChange {
            old: m.status,
            new: status,
            reason: reason.to_string(),
            changed_at: now,
        };
        m.status = status;
        if status != Status::Merged {
            m.merged_into = None;
        }
        self.transaction(entity_id, |e| {
            store::record_status(&e.conn, pk, &change)?;
            e.save(pk, &mut m, now)?;
            e.sync_vector(pk, &m, None)
        })?;
        Ok(m)
    }

    /// A memory's status changes, oldest first (also for deleted memories).
    pub fn status_history(&self, entity_id: &str, id: &str) -> Result<Vec<StatusChange>> {
        text::check_id("entity_id", entity_id)?;
        text::check_id("id", id)?;
        let (pk, _) = store::get(&self.conn, entity_id, id)?.ok_or_else(|| Error::NotFound {
            entity_id: entity_id.into(),
            id: id.into(),
        })?;
        store::status_history(&self.conn, pk)
    }

    /// Counts of an owner's memories by type, state, status and tier.
    pub fn stats(&mut self, entity_id: &str) -> Result<Stats> {
        self.flush()?;
        text::check_id("entity_id", entity_id)?;
        let by = |col, deleted| -> Result<BTreeMap<String, usize>> {
            Ok(store::count_by(&self.conn, entity_id, col, deleted)?
                .into_iter()
                .collect())
        };
        let by_state = by("state", true)?;
        let (model, dim) = self.embedding_model();
        Ok(Stats {
            entity_id: entity_id.to_string(),
            total: by_state
                .iter()
                .filter(|(s, _)| s.as_str() != "DELETED")
                .map(|(_, n)| n)
                .sum(),
            by_type: by("type", false)?,
            by_state,
            by_status: by("status", false)?,
            by_tier: by("tier", false)?,
            embedding_model: model.to_string(),
            embedding_dim: dim,
        })
    }

    /// The maintenance pass: applies decay transitions, layer promotion and purges to the rows
    /// whose due time has come — and only those. Running it twice at the same time does nothing
    /// the second time.
    pub fn maintain(&mut self) -> Result<MaintainReport> {
        let now = self.now()?;
        // Rows are read before each batch's transaction: write pending accesses first.
        self.flush()?;
        let mut report = MaintainReport::default();
        loop {
            let batch = store::due(&self.conn, now, MAINTAIN_BATCH)?;
            if batch.is_empty() {
                return Ok(report);
            }
            report.examined += batch.len();
            self.conn.execute_batch("BEGIN IMMEDIATE")?;
            let result = self
                .write_pending()
                .and_then(|_| self.maintain_batch(batch, now, &mut report));
            match result.and_then(|owners| {
                self.conn
                    .execute_batch("COMMIT")
                    .map_err(Error::from)
                    .map(|_| owners)
            }) {
                Ok(owners) => owners.iter().for_each(|o| self.cache.invalidate(o)),
                Err(e) => {
                    let _ = self.conn.execute_batch("ROLLBACK");
                    self.vectors = VectorIndex::default();
                    return Err(e);
                }
            }
        }
    }

    fn maintain_batch(
        &mut self,
        batch: Vec<(i64, Memory)>,
        now: Millis,
        report: &mut MaintainReport,
    ) -> Result<Vec<String>> {
        let mut owners = Vec::new();
        for (pk, mut m) in batch {
            if m.state == State::Deleted
                && m.deleted_at.is_some_and(|d| {
                    now - d
                        >= (self.config.retention.purge_retention_days
                            * crate::clock::DAY_MS as f64) as Millis
                })
            {
                store::purge(&self.conn, pk)?;
                report.purged += 1;
                continue;
            }
            let (state, since) = decay::state_at(&m, now, &self.config.retention);
            let layer = decay::promoted_layer(&m, now);
            if layer != m.layer {
                report.promoted += 1;
            }
            if state != m.state {
                match state {
                    State::Stale => report.to_stale += 1,
                    State::Archived => report.to_archived += 1,
                    State::Deleted => {
                        report.to_deleted += 1;
                        m.deleted_at = Some(since);
                    }
                    State::Active => {}
                }
                m.state = state;
                m.state_changed_at = since;
                if !owners.contains(&m.entity_id) {
                    owners.push(m.entity_id.clone());
                }
            }
            let due = self.settle(&mut m, now);
            store::update(&self.conn, pk, &m, due)?;
            if state == State::Deleted {
                self.sync_vector(pk, &m, None)?;
            }
        }
        Ok(owners)
    }

    /// Hybrid search of one owner's memories (SPEC §5): cache → vector scan + BM25 → fusion →
    /// filters → composite ranking → diversity. Every returned hit counts as an access.
    pub fn search(&mut self, req: &SearchRequest) -> Result<Vec<SearchHit>> {
        let owner = req.entity_id.as_str();
        text::check_id("entity_id", owner)?;
        let limit = check_limit(req.limit, DEFAULT_SEARCH_LIMIT)?;
        let n = req.query.chars().count();
        if n > text::MAX_QUERY_CHARS {
            return Err(Error::invalid(
                "query",
                format!(
                    "is {n} characters; at most {} allowed",
                    text::MAX_QUERY_CHARS
                ),
            ));
        }
        if req.query.trim().is_empty() && req.vector.is_none() {
            return Err(Error::invalid("query", "give a query text or a vector"));
        }
        if let Some(s) = req.min_score {
            if !s.is_finite() {
                return Err(Error::invalid("min_score", "must be a finite number"));
            }
        }
        let qvec = self.vector_for(&req.query, req.vector.as_deref())?;
        let now = self.now()?;
        let k = self.config.recall.candidates.max(limit);

        // 1. Candidates: from the cache, else the vector scan and FTS5, fused, with context
        //    lent by session neighbours.
        let cfg = self.config.recall.clone();
        let key = recall::cache_key(owner, &req.query, &qvec, req.include_archived, k);
        let candidates: Vec<Candidate> = match self.cache.get(owner, &key) {
            Some(c) => c,
            None => {
                let text_hits = match text::fts_query(&req.query) {
                    Some(q) => store::text_search(&self.conn, owner, &q, req.include_archived, k)?,
                    None => Vec::new(),
                };
                self.owner_vectors(owner)?;
                let set = self.vectors.owner(owner).expect("loaded above");
                let cosine = |pk| set.get(pk).map(|v| embed::dot(&qvec, v));
                let mut c = recall::fuse(&set.nearest(&qvec, k), &text_hits, cosine);
                let conn = &self.conn;
                recall::lend_context(
                    &mut c,
                    cfg.vector_weight,
                    cfg.context_weight,
                    cfg.context_parents,
                    |pks| store::session_neighbours(conn, owner, pks),
                    cosine,
                )?;
                self.cache.put(owner, key, c.clone());
                c
            }
        };

        // An entity filter: only memories naming those entities, all of them candidates (a
        //    memory about Ana may share no word with the query).
        let by_entity = !req.entities.is_empty();
        let candidates = if !by_entity {
            candidates
        } else {
            let mut pks = Vec::new();
            for name in &req.entities {
                let k = crate::graph::key(name);
                if k.is_empty() || name.chars().count() > 256 {
                    return Err(Error::invalid("entities", "give entity names or aliases"));
                }
                if let Some(e) = store::graph::by_key(&self.conn, owner, &k)? {
                    pks.push(e.pk);
                }
            }
            let linked = store::graph::memories_naming(&self.conn, &pks)?;
            self.owner_vectors(owner)?;
            let set = self.vectors.owner(owner);
            let mut kept: Vec<Candidate> = candidates
                .into_iter()
                .filter(|c| linked.binary_search(&c.pk).is_ok())
                .collect();
            for pk in linked.iter().take(MAX_LIMIT) {
                if !kept.iter().any(|c| c.pk == *pk) {
                    let cosine = set.and_then(|s| s.get(*pk)).map(|v| embed::dot(&qvec, v));
                    kept.push(Candidate {
                        pk: *pk,
                        vector: cosine.unwrap_or(0.0) as f64,
                        text: 0.0,
                        context: 0.0,
                    });
                }
            }
            recall::by_relevance(&mut kept, cfg.vector_weight);
            kept
        };

        // 2. Admission filters on fresh rows (with accesses not yet written applied);
        //    relevance decides which qualify (the gate), the mode's composite score orders
        //    them; the rest follow in relevance order.
        let pks: Vec<i64> = candidates
            .iter()
            .filter(|c| by_entity || c.relevance(cfg.vector_weight) > 0.0)
            .map(|c| c.pk)
            .collect();
        let mut rows: BTreeMap<i64, Memory> = store::by_pks(&self.conn, owner, &pks)?
            .into_iter()
            .collect();
        for (pk, m) in rows.iter_mut() {
            if let Some(p) = self.pending.get(pk) {
                apply_access(m, p.count, p.at);
            }
        }
        let admitted: Vec<Candidate> = candidates
            .into_iter()
            .filter(|c| rows.get(&c.pk).is_some_and(|m| recall::admits(req, m)))
            .collect();
        let qualified = recall::qualifying(&admitted, cfg.vector_weight, cfg.relevance_gate, limit);
        let best = admitted
            .first()
            .map_or(0.0, |c| c.relevance(cfg.vector_weight));
        let mut ranked: Vec<(i64, (Memory, f64, ScoreBreakdown))> =
            Vec::with_capacity(admitted.len());
        for (i, c) in admitted.iter().enumerate() {
            let Some(m) = rows.remove(&c.pk) else {
                continue;
            };
            let why = recall::score(c, &m, best, req.mode, now, &cfg, &self.config.retention);
            let score = why.score();
            if req.min_score.is_some_and(|min| score < min) {
                continue;
            }
            ranked.push((
                c.pk,
                (
                    m,
                    if i < qualified {
                        score
                    } else {
                        f64::NEG_INFINITY
                    },
                    why,
                ),
            ));
        }
        // Qualified first by score; the rest keep their relevance order (stable sort).
        ranked.sort_by(|a, b| {
            b.1 .1.total_cmp(&a.1 .1).then_with(|| {
                if a.1 .1.is_finite() {
                    a.1 .0.id.cmp(&b.1 .0.id)
                } else {
                    std::cmp::Ordering::Equal
                }
            })
        });

        // 3. Diversity, then the accesses: applied to the returned memories now, written to
        //    the store with the next write (or `flush`).
        let set = self.owner_vectors(owner)?;
        let kept = recall::diversify(ranked, limit, cfg.diversity_threshold, |a, b| {
            Some(embed::dot(set.get(a)?, set.get(b)?))
        });
        let mut hits = Vec::with_capacity(kept.len());
        for (pk, (mut m, _, why)) in kept {
            apply_access(&mut m, 1, now);
            self.refresh(&mut m, now);
            let p = self.pending.entry(pk).or_insert_with(|| Pending {
                owner: owner.to_string(),
                count: 0,
                at: now,
            });
            p.count += 1;
            p.at = p.at.max(now);
            hits.push(SearchHit {
                memory: m,
                score: why.score(),
                why,
            });
        }
        if self.pending.len() >= MAX_PENDING_ACCESSES {
            self.flush()?;
        }
        Ok(hits)
    }

    /// Writes the accesses recorded by searches since the last write. Every write call (and
    /// `list`, `stats`, `export_jsonl`, dropping the engine) does this first; a crash loses at
    /// most these access counts, never a memory.
    pub fn flush(&mut self) -> Result<()> {
        if self.pending.is_empty() {
            return Ok(());
        }
        self.transaction("", |_| Ok(()))
    }

    /// Applies the pending accesses inside the current transaction.
    fn write_pending(&mut self) -> Result<()> {
        let pending = std::mem::take(&mut self.pending);
        let mut by_owner: BTreeMap<&str, Vec<i64>> = BTreeMap::new();
        for (pk, p) in &pending {
            by_owner.entry(p.owner.as_str()).or_default().push(*pk);
        }
        for (owner, pks) in by_owner {
            for (pk, mut m) in store::by_pks(&self.conn, owner, &pks)? {
                let Some(p) = pending.get(&pk) else { continue };
                apply_access(&mut m, p.count, p.at);
                let due = self.settle(&mut m, p.at);
                store::update(&self.conn, pk, &m, due)?;
            }
        }
        Ok(())
    }
}

/// Checks a page size / result count.
pub(crate) fn check_limit(limit: Option<usize>, default: usize) -> Result<usize> {
    match limit {
        None => Ok(default),
        Some(n) if (1..=MAX_LIMIT).contains(&n) => Ok(n),
        Some(n) => Err(Error::invalid(
            "limit",
            format!("{n} is not between 1 and {MAX_LIMIT}"),
        )),
    }
}

pub(crate) fn check_sentiment(s: f64) -> Result<()> {
    if s.is_finite() && (-1.0..=1.0).contains(&s) {
        Ok(())
    } else {
        Err(Error::invalid(
            "sentiment",
            format!("{s} is not a number between -1 and 1"),
        ))
    }
}

/// Longest `source_ref`, in characters.
pub(crate) const MAX_SOURCE_REF_CHARS: usize = 1024;

pub(crate) fn check_source_ref(r: &str) -> Result<()> {
    if r.is_empty() || r.chars().count() > MAX_SOURCE_REF_CHARS || r.contains('\0') {
        return Err(Error::invalid(
            "source_ref",
            format!("must be 1 to {MAX_SOURCE_REF_CHARS} characters without NUL"),
        ));
    }
    Ok(())
}
