//! `Engine`: the public API. Each method parses its arguments into checked values, opens a
//! read view or a transaction on the store, and calls the feature module that does the work.

use std::path::Path;
use std::sync::Arc;

use rusqlite::Connection;
use serde::{Deserialize, Serialize};

use crate::census::{self, Location, SampleRequest, StoreStats};
use crate::clock::{Clock, Entropy, Millis, SeededEntropy};
use crate::config::Config;
use crate::conflict::{self, Conflict, ConflictsRequest, ResolveRequest};
use crate::consolidate;
use crate::curate::{self, ForgetAllReport, ListRequest, MemoryPatch, Page, Stats};
use crate::document::{
    self, Document, DocumentDetail, DocumentRef, DocumentsRequest, IngestReport, IngestRequest,
    SummaryWrite,
};
use crate::embed::{self, Embedder, StaticModel};
use crate::error::{Error, Result};
use crate::export::{self, ImportReport};
use crate::extract::{self, Extracted, Extraction, Extractor, RuleExtractor};
use crate::field::{Content, Id, Limit, Owner, Reason, SourceRef, Tags};
use crate::graph::{
    self, Bridge, BridgesRequest, Card, CardRequest, EntitiesRequest, Entity, GraphPath,
    PathRequest, Relationship, RelationshipsRequest, Traversal, TraverseRequest,
};
use crate::heartbeat::RecordMessage;
use crate::heartbeat::{
    self, HeartbeatContext, HeartbeatReport, HeartbeatRequest, Message, MessagesRequest,
};
use crate::links::{self, RelatedMemory, RelatedRequest, DEFAULT_RELATED};
use crate::maintain::{self, MaintainReport};
use crate::model::{Layer, Memory, Source, Status, StatusChange};
use crate::notes::{self, NotesImport};
use crate::order::CollectOrdered;
use crate::recall::{self, Cache, SearchHit, SearchRequest};
use crate::schedule::{
    self, Schedule, ScheduleCreate, ScheduleRef, ScheduleUpdate, SchedulesRequest,
};
use crate::store::viewer::{Viewer, Viewing};
use crate::store::{memories, Store};
use crate::team::{self, MemberAdd, MemberRef, Team, TeamCreate, TeamDeleted, TeamMember, TeamRef};
use crate::workspace::{NoWorkspace, Workspace};
use crate::write::{self, Input, NewMemory, RememberOptions, WriteReport};

/// The first bytes of every SQLite database file.
const SQLITE_HEADER: &[u8] = b"SQLite format 3\0";

/// The header's file format write and read versions: 1 for a rollback journal, 2 for WAL.
const WAL_VERSION_BYTES: std::ops::Range<usize> = 18..20;

/// Accesses that searches may pile up before one writes them at once …
const MAX_PENDING_ACCESSES: usize = 1024;
/// … and pairs of co-recalled memories (a few hundred kilobytes held; ten pairs a search).
const MAX_PENDING_CO_RECALLS: usize = 16_384;

/// Memories `heartbeat_context` returns for its query unless asked otherwise.
const CONTEXT_MEMORIES: usize = 5;
/// Peer cards `heartbeat_context` offers at most.
const CONTEXT_CARDS: usize = 3;

/// The memory engine over one SQLite store.
pub struct Engine {
    /// The distilled embedder's weights the host handed over (for `reembed`).
    weights: Option<Arc<StaticModel>>,
    store: Store,
    config: Config,
    extractor: Box<dyn Extractor>,
    /// What drift detection checks cited paths against.
    workspace: Box<dyn Workspace>,
    cache: Cache,
    /// When a maintenance pass last found the file whole (`maintain::check_intact`): the first
    /// pass after opening checks, then one a day.
    intact_at: Option<Millis>,
}

impl Drop for Engine {
    fn drop(&mut self) {
        // Best effort: an error here can only lose access counts.
        let _ = self.store.flush();
    }
}

/// Arguments of [`Engine::reembed`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ReembedRequest {
    /// The built-in embedder to move to: `mnemo-static-v1` or `mnemo-hash-v1`.
    pub model: String,
}

/// What [`Engine::reembed`] did.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct ReembedReport {
    /// The store's embedder now.
    pub model: String,
    /// The length of its vectors.
    pub dimension: usize,
    /// The embedder before.
    pub previous_model: String,
    /// The length of its vectors.
    pub previous_dimension: usize,
    /// Memories embedded again (every owner's, every state).
    pub memories: usize,
}

/// Most texts one [`Engine::embed`] call takes.
pub const MAX_EMBED_TEXTS: usize = 1_000;

/// Arguments of [`Engine::embed`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct EmbedRequest {
    /// The texts to embed: 1 to 1,000, each not blank and at most 50,000 characters.
    #[schemars(length(min = 1, max = MAX_EMBED_TEXTS), inner(length(min = 1, max = crate::field::MAX_CONTENT_CHARS)))]
    pub texts: Vec<String>,
}

/// What [`Engine::embed`] answers: one vector per text, in order.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Embeddings {
    /// The store's embedder.
    pub model: String,
    /// The length of its vectors.
    pub dimension: usize,
    /// Unit-length vectors, as the store keeps and compares them (all zeros for a text none
    /// of whose words the model knows, such as a script outside its vocabulary).
    pub vectors: Vec<Vec<f32>>,
}

/// Sets up an [`Engine`]: the clock is required, everything else has a default.
pub struct EngineBuilder {
    config: Config,
    clock: Box<dyn Clock>,
    entropy: Box<dyn Entropy>,
    /// The host's embedder; `None`: the built-in one the store records (new stores: the default).
    embedder: Option<Box<dyn Embedder>>,
    /// The distilled embedder's weights, when the build links none.
    weights: Option<Arc<StaticModel>>,
    extractor: Box<dyn Extractor>,
    workspace: Box<dyn Workspace>,
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
    /// Replaces the embedder. Without one, a store keeps the built-in embedder it was made
    /// with, and a new store gets [`embed::DEFAULT_MODEL`].
    pub fn embedder(mut self, embedder: impl Embedder + 'static) -> Self {
        self.embedder = Some(Box::new(embedder));
        self
    }
    /// The distilled embedder's weights (for builds without the `bundled-model` feature: the
    /// browser package fetches the file and hands it over). Also what `reembed` moves to.
    pub fn weights(mut self, weights: Arc<StaticModel>) -> Self {
        self.weights = Some(weights);
        self
    }
    /// Replaces the extractor used by `remember` (default: the built-in rule extractor).
    pub fn extractor(mut self, extractor: impl Extractor + 'static) -> Self {
        self.extractor = Box::new(extractor);
        self
    }
    /// The host's workspace, which drift detection checks the paths memories cite against
    /// (default: none, and the step says so).
    pub fn workspace(mut self, workspace: impl Workspace + 'static) -> Self {
        self.workspace = Box::new(workspace);
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
    /// Opens an in-memory copy of a whole store image made by [`Engine::to_bytes`](crate::Engine::to_bytes) (how an
    /// edge function loads its store from a blob store). The bytes are checked like a file.
    pub fn open_bytes(self, bytes: &[u8]) -> Result<Engine> {
        if !bytes.starts_with(SQLITE_HEADER) {
            return Err(Error::NotAStore(format!(
                "{} bytes that do not start with the SQLite header",
                bytes.len()
            )));
        }
        let mut conn = Connection::open_in_memory()?;
        if bytes.get(WAL_VERSION_BYTES) == Some(&[2, 2][..]) {
            // A file left in WAL mode (its host crashed): without its `-wal` file the database
            // is whole as of its last checkpoint; marked as rollback-journal, memory opens it.
            use std::io::Read;
            let (head, tail) = (
                &bytes[..WAL_VERSION_BYTES.start],
                &bytes[WAL_VERSION_BYTES.end..],
            );
            let image = head.chain(&[1u8, 1][..]).chain(tail);
            conn.deserialize_read_exact(rusqlite::MAIN_DB, image, bytes.len(), false)?;
        } else {
            conn.deserialize_read_exact(rusqlite::MAIN_DB, bytes, bytes.len(), false)?;
        }
        self.finish(conn)
    }

    fn finish(self, conn: Connection) -> Result<Engine> {
        self.config.validate()?;
        let (given, weights) = (self.embedder, self.weights);
        let store = Store::open(
            conn,
            self.clock,
            self.entropy,
            |recorded| match given {
                Some(e) => Ok(e),
                // A store of another model's vectors gets the default, which it refuses by
                // name (the host must bring that model).
                None => {
                    let builtin = recorded.filter(|m| embed::BUILTIN_MODELS.contains(m));
                    embed::builtin(builtin.unwrap_or(embed::DEFAULT_MODEL), weights.as_ref())
                }
            },
            self.config.retention.clone(),
        )?;
        Ok(Engine {
            weights,
            store,
            cache: Cache::new(self.config.recall.cache_entries),
            config: self.config,
            extractor: self.extractor,
            workspace: self.workspace,
            intact_at: None,
        })
    }
}

impl Engine {
    /// Starts setting up an engine whose time comes from `clock`.
    pub fn builder(clock: impl Clock + 'static) -> EngineBuilder {
        EngineBuilder {
            config: Config::default(),
            clock: Box::new(clock),
            entropy: Box::new(SeededEntropy::new(0)),
            embedder: None,
            weights: None,
            extractor: Box::new(RuleExtractor),
            workspace: Box::new(NoWorkspace),
        }
    }

    /// The whole store as one SQLite image (pending accesses written first), for
    /// [`EngineBuilder::open_bytes`] or any SQLite tool.
    pub fn to_bytes(&mut self) -> Result<Vec<u8>> {
        self.store.image()
    }

    /// A counter that grows whenever a call writes to the store (rows inserted, updated or
    /// deleted). Hosts that keep a copy of the store save it when this has moved.
    pub fn changes(&self) -> u64 {
        self.store.conn().total_changes()
    }

    /// The configuration in force.
    pub fn config(&self) -> &Config {
        &self.config
    }

    /// The embedder's model id and dimension (as recorded in the store).
    pub fn embedding_model(&self) -> (&str, usize) {
        let e = self.store.embedder();
        (e.model_id(), e.dimension())
    }

    /// Writes the accesses recorded by searches since the last write. Every write call (and
    /// `list`, `stats`, `export_jsonl`, dropping the engine) does this first; a crash loses at
    /// most these access counts, never a memory.
    pub fn flush(&mut self) -> Result<()> {
        self.store.flush()
    }

    /// Flushes and leaves the database file whole on its own: a write-ahead log the host
    /// chose is copied back into it and the file returns to the rollback journal, so it opens
    /// anywhere (the browser's VFS has no WAL). The store stays usable.
    pub fn settle_file(&mut self) -> Result<()> {
        self.flush()?;
        let conn = self.store.conn();
        let mode: String = conn.query_row("PRAGMA journal_mode", [], |r| r.get(0))?;
        if mode.eq_ignore_ascii_case("wal") {
            // Leaving WAL checkpoints it into the database file and removes it.
            conn.query_row("PRAGMA journal_mode = DELETE", [], |r| {
                r.get::<_, String>(0)
            })?;
        }
        Ok(())
    }

    /// Runs `f` as one group commit: every transaction of the calls it makes is nested in
    /// one outer transaction, committed (and synced) once when `f` returns. The error is that
    /// commit's; then nothing `f` wrote stayed.
    pub(crate) fn group<T>(&mut self, f: impl FnOnce(&mut Engine) -> T) -> Result<T> {
        self.store.begin_group()?;
        let value = f(self);
        self.store.commit_group()?;
        Ok(value)
    }

    // ---- Who a call reads for ----

    /// Runs `f` for `agent` of `owner` (the owner's view when neither an agent nor a team is
    /// named): every memory it reads is one the agent may see — its own, `global` ones, and
    /// `team` ones of the owner's teams it is a member of (only `team`'s, when one is named;
    /// only its own with `own_only`) — and it changes only its own.
    pub(crate) fn as_agent<T>(
        &mut self,
        owner: &Owner,
        agent: Option<&Id>,
        team: Option<&Id>,
        own_only: bool,
        f: impl FnOnce(&mut Engine) -> Result<T>,
    ) -> Result<T> {
        let viewing = self.viewing(owner, agent, team, own_only)?;
        // Pending accesses are written as the owner's, after the call.
        let out = f(self);
        drop(viewing);
        out
    }

    /// Narrows what reads see to `agent`'s view of `owner`'s memories until the answer is
    /// dropped (see [`Engine::as_agent`]); the owner's view (neither an agent nor a team)
    /// narrows nothing. Each typed method whose request names an agent reads through it, so
    /// a Rust caller gets the view every face gets. Out of line: one copy serves them all.
    #[inline(never)]
    pub(crate) fn viewing(
        &mut self,
        owner: &Owner,
        agent: Option<&Id>,
        team: Option<&Id>,
        own_only: bool,
    ) -> Result<Viewing> {
        if agent.is_none() && team.is_none() {
            return Ok(Viewing::unchanged());
        }
        let conn = self.store.conn();
        let mut teams = match agent {
            Some(a) => team::teams_of(conn, owner, a)?,
            None => Default::default(),
        };
        if let Some(t) = team {
            if team::find(conn, owner, t)?.is_none() {
                return Err(Error::invalid(
                    "team_id",
                    format!("no team {:?} of entity {:?}", t.as_str(), owner.as_str()),
                ));
            }
            if agent.is_some() && !teams.contains(t.as_str()) {
                return Err(Error::invalid(
                    "team_id",
                    format!("the agent is not a member of team {:?}", t.as_str()),
                ));
            }
            teams = std::iter::once(t.to_string()).collect_set();
        }
        Ok(self.store.viewer().narrow(Viewer {
            agent: agent.map(Id::to_string),
            teams,
            own_only,
        }))
    }

    /// Runs `f` reading as of `until` (none: now): memories written later are not seen.
    fn as_of<T>(
        &mut self,
        until: Option<Millis>,
        f: impl FnOnce(&mut Engine) -> Result<T>,
    ) -> Result<T> {
        if until.is_none() {
            return f(self);
        }
        self.store.viewer().set_until(until);
        let out = f(self);
        self.store.viewer().set_until(None);
        out
    }

    // ---- Writing ----

    /// Stores structured memories (one transaction for the batch), with three-tier dedup.
    /// If any input is invalid, the error names it and nothing is written.
    pub fn seed(&mut self, items: Vec<NewMemory>) -> Result<WriteReport> {
        let now = self.store.now()?;
        self.write(items.into_iter().map(Input::from).collect(), now)
    }

    /// Stores what the extractor finds in a piece of conversation.
    pub fn remember(
        &mut self,
        entity_id: &str,
        content: &str,
        opts: RememberOptions,
    ) -> Result<WriteReport> {
        let (owner, content) = (Id::owner(entity_id)?, Content::parse("content", content)?);
        self.remember_by(&owner, &content, opts, |x, content, now| {
            x.extraction(content, now)
        })
    }

    /// Stores what `extract` finds in the content (at one time for the extraction and the
    /// write); the report says why the built-in extractor stood in, if it did.
    pub(crate) fn remember_by(
        &mut self,
        owner: &Owner,
        content: &Content,
        opts: RememberOptions,
        extract: impl FnOnce(&dyn Extractor, &str, Millis) -> Result<Extraction>,
    ) -> Result<WriteReport> {
        let now = self.store.now()?;
        let extraction = extract(&*self.extractor, content, now)?;
        let mut report = self.write_extracted(owner, extraction.memories, &opts, now)?;
        report.fallback = extraction.fallback;
        Ok(report)
    }

    /// Stores markdown notes (a MEMORY.md): each bullet and paragraph goes through the
    /// extractor, tagged with its heading, `source_ref` `{source}:{line}`; one transaction.
    /// Importing the same notes again stores nothing new (their statements are duplicates).
    pub fn import_notes(&mut self, req: &NotesImport) -> Result<WriteReport> {
        let owner = &req.entity_id;
        let source = req.source.as_deref().unwrap_or("notes");
        let notes = notes::read(&req.markdown)?;
        if notes.len() > write::MAX_BATCH {
            return Err(Error::invalid(
                "markdown",
                format!(
                    "has {} notes; at most {} at once (split the file)",
                    notes.len(),
                    write::MAX_BATCH
                ),
            ));
        }
        let now = self.store.now()?;
        let mut inputs = Vec::new();
        for note in notes {
            let opts = RememberOptions {
                source_ref: Some(SourceRef::parse(&format!("{source}:{}", note.line))?),
                source: Some(Source::Import),
                ..Default::default()
            };
            let heading = Tags::parse("markdown", note.heading.as_slice())?;
            let found = self.extractor.extract(&note.text, now)?;
            for mut input in write::from_extracted(owner, found, &opts)? {
                input.memory.tags = heading.clone();
                inputs.push(input);
            }
        }
        if inputs.is_empty() {
            return Ok(WriteReport::not_significant());
        }
        self.write(inputs, now)
    }

    /// What the engine's extractor finds in `content` (nothing is stored). Hosts that embed
    /// with their own model call this, attach vectors, then [`Engine::remember_extracted`](crate::Engine::remember_extracted).
    pub fn extract(&self, content: &str) -> Result<Vec<Extracted>> {
        Content::parse("content", content)?;
        self.extractor.extract(content, self.store.now()?)
    }

    /// Stores memories a host (or [`Engine::extract`](crate::Engine::extract)) already extracted from one piece of
    /// conversation; an empty list is reported as not significant.
    pub fn remember_extracted(
        &mut self,
        entity_id: &str,
        extracted: Vec<Extracted>,
        opts: RememberOptions,
    ) -> Result<WriteReport> {
        self.remember_found(&Id::owner(entity_id)?, extracted, opts)
    }

    /// [`Engine::remember_extracted`] for a checked owner.
    pub(crate) fn remember_found(
        &mut self,
        owner: &Owner,
        extracted: Vec<Extracted>,
        opts: RememberOptions,
    ) -> Result<WriteReport> {
        let now = self.store.now()?;
        self.write_extracted(owner, extracted, &opts, now)
    }

    /// Stores one piece of conversation's extracted memories; an empty list is reported as
    /// not significant.
    fn write_extracted(
        &mut self,
        owner: &Id,
        extracted: Vec<Extracted>,
        opts: &RememberOptions,
        now: Millis,
    ) -> Result<WriteReport> {
        if extracted.is_empty() {
            return Ok(WriteReport::not_significant());
        }
        self.write(write::from_extracted(owner, extracted, opts)?, now)
    }

    /// Checks and embeds the inputs (before the write begins, so a slow embedder never holds
    /// the store's write lock), then stores them in one transaction, all at `now`.
    fn write(&mut self, inputs: Vec<Input>, now: Millis) -> Result<WriteReport> {
        let prepared = write::prepare_all(&self.store.read_at(now), inputs)?;
        if prepared.is_empty() {
            return Ok(WriteReport::default());
        }
        let settings = write::Settings {
            dedup: &self.config.dedup,
            conflicts: &self.config.conflicts,
        };
        self.store
            .transaction_at(now, |tx| write::store(tx, &settings, prepared))
    }

    // ---- Reading and editing memories ----

    /// Hybrid search of one owner's memories: cache → vector scan + BM25 → fusion → filters
    /// → composite ranking → diversity. Every returned hit counts as an access.
    pub fn search(&mut self, req: &SearchRequest) -> Result<Vec<SearchHit>> {
        let _viewing = self.search_view(req)?;
        let owner = &req.entity_id;
        let hits = recall::search(
            &mut self.store.snapshot(),
            &mut self.cache,
            &self.config.recall,
            owner,
            req,
        )?;
        let (accesses, co_recalls) = self.store.pending();
        if accesses >= MAX_PENDING_ACCESSES || co_recalls >= MAX_PENDING_CO_RECALLS {
            self.store.flush()?;
        }
        Ok(hits)
    }

    /// The view a search reads through: its agent's, or only the agent's own memories when
    /// it is not team-aware.
    fn search_view(&mut self, req: &SearchRequest) -> Result<Viewing> {
        let own_only = req.team_aware == Some(false);
        self.viewing(&req.entity_id, req.agent_id.as_ref(), None, own_only)
    }

    /// The texts `search` embeds for `req` when no vector comes with it: its question with
    /// who the relations it names are in place, when it names any, then as asked. Read as the
    /// search reads: who a relation names is what the agent may see.
    pub(crate) fn search_texts(&mut self, req: &SearchRequest) -> Result<Vec<String>> {
        let _viewing = self.search_view(req)?;
        recall::texts(&self.store.snapshot(), &req.entity_id, req)
    }

    /// A memory by id. Counts as an access: an archived memory comes back to ACTIVE.
    pub fn get(&mut self, entity_id: &str, id: &str) -> Result<Memory> {
        let (owner, id) = (Id::owner(entity_id)?, Id::parse("id", id)?);
        self.store.transaction(|tx| curate::get(tx, &owner, &id))
    }

    /// A page of memories matching the filters, newest first unless asked otherwise.
    pub fn list(&mut self, req: &ListRequest) -> Result<Page> {
        let _viewing = self.viewing(&req.entity_id, req.agent_id.as_ref(), None, false)?;
        self.store.flush()?;
        let owner = &req.entity_id;
        curate::list(&self.store.read(), owner, req)
    }

    /// Changes a memory. New content is re-hashed, re-embedded and re-indexed.
    pub fn update(&mut self, entity_id: &str, id: &str, patch: MemoryPatch) -> Result<Memory> {
        let (owner, id) = (Id::owner(entity_id)?, Id::parse("id", id)?);
        // New content is embedded before the write begins: a slow embedder never holds the
        // store's write lock.
        let view = self.store.read();
        let content = curate::new_content(&view, &owner, &id, &patch)?;
        let now = view.now()?;
        self.store
            .transaction_at(now, |tx| curate::update(tx, &owner, &id, patch, content))
    }

    /// Soft-deletes a memory (purged after `purge_retention_days`).
    pub fn forget(&mut self, entity_id: &str, id: &str) -> Result<Memory> {
        let (owner, id) = (Id::owner(entity_id)?, Id::parse("id", id)?);
        self.store.transaction(|tx| curate::forget(tx, &owner, &id))
    }

    /// Forgets every memory of an owner (soft delete, as `forget` one by one).
    pub fn forget_all(&mut self, entity_id: &str) -> Result<ForgetAllReport> {
        let owner = Id::owner(entity_id)?;
        self.store.transaction(|tx| curate::forget_all(tx, &owner))
    }

    /// The owner of a live memory, found by its id alone.
    pub fn locate(&mut self, id: &str) -> Result<Location> {
        self.store.flush()?;
        census::locate(&self.store.read(), id)
    }

    /// Memories drawn at random from one owner, or from every owner.
    pub fn sample(&mut self, req: &SampleRequest) -> Result<Vec<Memory>> {
        let _viewing = match &req.entity_id {
            Some(owner) => self.viewing(owner, req.agent_id.as_ref(), None, false)?,
            None => Viewing::unchanged(),
        };
        self.store.flush()?;
        census::sample(&self.store.read(), req)
    }

    /// Counts of every owner's memories.
    pub fn store_stats(&mut self) -> Result<StoreStats> {
        self.store.flush()?;
        census::store_stats(&self.store.read())
    }

    /// Reinforce: feedback +3 and the memory counts as freshly used.
    pub fn reinforce(&mut self, entity_id: &str, id: &str) -> Result<Memory> {
        let (owner, id) = (Id::owner(entity_id)?, Id::parse("id", id)?);
        self.store
            .transaction(|tx| curate::reinforce(tx, &owner, &id))
    }

    /// Demote: feedback −1.
    pub fn demote(&mut self, entity_id: &str, id: &str) -> Result<Memory> {
        let (owner, id) = (Id::owner(entity_id)?, Id::parse("id", id)?);
        self.store.transaction(|tx| curate::demote(tx, &owner, &id))
    }

    /// Pins (immune to decay) or unpins a memory. Either counts as an access, so an unpinned
    /// memory starts decaying from now rather than from when it was pinned.
    pub fn pin(&mut self, entity_id: &str, id: &str, pinned: bool) -> Result<Memory> {
        let (owner, id) = (Id::owner(entity_id)?, Id::parse("id", id)?);
        self.store
            .transaction(|tx| curate::pin(tx, &owner, &id, pinned))
    }

    /// Moves a memory to `layer` by hand, recording the move and its reason; automatic
    /// promotion leaves it there.
    pub fn set_layer(
        &mut self,
        entity_id: &str,
        id: &str,
        layer: Layer,
        reason: &str,
    ) -> Result<Memory> {
        let (owner, id) = (Id::owner(entity_id)?, Id::parse("id", id)?);
        let reason = Reason::parse(reason)?;
        self.store
            .transaction(|tx| curate::set_layer(tx, &owner, &id, layer, &reason))
    }

    /// Changes a memory's validity status, recording the change and its reason.
    pub fn set_status(
        &mut self,
        entity_id: &str,
        id: &str,
        status: Status,
        reason: &str,
    ) -> Result<Memory> {
        let (owner, id) = (Id::owner(entity_id)?, Id::parse("id", id)?);
        let reason = Reason::parse(reason)?;
        self.store
            .transaction(|tx| curate::set_status(tx, &owner, &id, status, &reason))
    }

    /// A memory's status changes, oldest first (also for deleted memories).
    pub fn status_history(&mut self, entity_id: &str, id: &str) -> Result<Vec<StatusChange>> {
        let (owner, id) = (Id::owner(entity_id)?, Id::parse("id", id)?);
        curate::status_history(&self.store.read(), &owner, &id)
    }

    /// The live memories linked to memory `id`: returned together with it by searches three
    /// times or more, or sharing entities and tags with it (found by consolidation), strongest
    /// link first.
    pub fn related(&mut self, req: &RelatedRequest) -> Result<Vec<RelatedMemory>> {
        let _viewing = self.viewing(&req.entity_id, req.agent_id.as_ref(), None, false)?;
        self.store.flush()?;
        let (owner, id) = (&req.entity_id, &req.id);
        let limit = Limit::or(req.limit, DEFAULT_RELATED);
        let view = self.store.read();
        let viewer = view.viewer();
        let (pk, m) = memories::get(view.conn(), owner, id)?
            .filter(|(_, m)| viewer.sees(m))
            .ok_or_else(|| Error::NotFound {
                entity_id: owner.to_string(),
                id: id.to_string(),
            })?;
        links::related(view.conn(), owner, pk, &m, view.now()?, limit, |m| {
            viewer.sees(m)
        })
    }

    /// Counts of an owner's memories by type, state, status and tier.
    pub fn stats(&mut self, entity_id: &str) -> Result<Stats> {
        self.store.flush()?;
        let owner = Id::owner(entity_id)?;
        curate::stats(&self.store.read(), &owner)
    }

    /// The maintenance pass: applies decay transitions, layer promotion and purges to the rows
    /// whose due time has come — and only those. Running it twice at the same time does nothing
    /// the second time.
    /// Consolidation runs after it once `config.consolidation.every_hours` have passed since
    /// the last one.
    pub fn maintain(&mut self) -> Result<MaintainReport> {
        self.maintain_then(false)
    }

    /// The maintenance pass, then consolidation (the sleep cycle): stale-edge cleanup, auto-tag
    /// refresh, cluster-and-merge and size-bounded pruning, each bounded in work per run
    /// (`consolidation.more` says to run again).
    pub fn consolidate(&mut self) -> Result<MaintainReport> {
        self.maintain_then(true)
    }

    fn maintain_then(&mut self, consolidate: bool) -> Result<MaintainReport> {
        let mut report = MaintainReport::default();
        let now = self.store.now()?;
        if maintain::check_due(self.intact_at, now) {
            self.store
                .transaction(|tx| maintain::check_intact(tx.conn()))?;
            self.intact_at = Some(now);
        }
        while self
            .store
            .transaction(|tx| maintain::batch(tx, &mut report))?
        {}
        let (cfg, heartbeat) = (&self.config.consolidation, &self.config.heartbeat);
        let (llm, workspace) = (&*self.extractor, &*self.workspace);
        report.consolidation = self.store.transaction(|tx| {
            let now = tx.now()?;
            if consolidate || consolidate::due(tx, cfg, now)? {
                consolidate::run(tx, cfg, heartbeat, llm, workspace).map(Some)
            } else {
                Ok(None)
            }
        })?;
        Ok(report)
    }

    /// The store embedder's vectors of `texts`: what search and dedup compare, for a host
    /// that wants the same sense of meaning (or to measure it). Every text is checked before
    /// any is embedded; nothing is stored.
    pub fn embed(&self, req: &EmbedRequest) -> Result<Embeddings> {
        let n = req.texts.len();
        if n == 0 || n > MAX_EMBED_TEXTS {
            return Err(Error::invalid(
                "texts",
                format!("give 1 to {MAX_EMBED_TEXTS} texts, not {n}"),
            ));
        }
        for (i, text) in req.texts.iter().enumerate() {
            Content::parse(&format!("texts[{i}]"), text)?;
        }
        let embedder = self.store.embedder();
        let vectors = req
            .texts
            .iter()
            .map(|t| embed::vector_for(embedder, t, None))
            .collect::<Result<Vec<_>>>()?;
        Ok(Embeddings {
            model: embedder.model_id().to_string(),
            dimension: embedder.dimension(),
            vectors,
        })
    }

    /// Moves the store to the built-in embedder `model` (`mnemo-static-v1` or
    /// `mnemo-hash-v1`): every memory of every owner is embedded again, in one transaction.
    /// Searches then match by the new model's sense of the text.
    pub fn reembed(&mut self, req: &ReembedRequest) -> Result<ReembedReport> {
        let embedder = embed::builtin(&req.model, self.weights.as_ref())
            .map_err(|e| Error::invalid("model", e.to_string()))?;
        let (previous_model, previous_dimension) = {
            let (m, d) = self.embedding_model();
            (m.to_string(), d)
        };
        let dimension = embedder.dimension();
        let memories = self.store.reembed(embedder)?;
        self.cache = Cache::new(self.config.recall.cache_entries);
        Ok(ReembedReport {
            model: req.model.clone(),
            dimension,
            previous_model,
            previous_dimension,
            memories,
        })
    }

    // ---- Export and import ----

    /// All of one owner's memories (every state), one JSON record per line.
    pub fn export_jsonl(&mut self, entity_id: &str) -> Result<String> {
        self.store.flush()?;
        let owner = Id::owner(entity_id)?;
        export::export(&self.store.read(), &owner)
    }

    /// Imports JSONL: full records from [`Engine::export_jsonl`](crate::Engine::export_jsonl) are restored exactly; plain
    /// records are written like `seed`. Every line is checked first: one bad line (invalid
    /// UTF-8, malformed JSON, a bad field, a vector of the wrong model or dimension, an id owned
    /// by another entity) fails the import and nothing is written.
    pub fn import_jsonl(&mut self, bytes: &[u8]) -> Result<ImportReport> {
        let view = self.store.read();
        let import = export::read(&view, bytes)?;
        let now = view.now()?;
        let (restored, already_present) = self
            .store
            .transaction_at(now, |tx| export::restore(tx, &import))?;
        let written = if import.plain.is_empty() {
            WriteReport::default()
        } else {
            self.write(import.plain.into_iter().map(Input::from).collect(), now)?
        };
        Ok(ImportReport {
            restored,
            already_present,
            written,
        })
    }

    // ---- The knowledge graph ----

    /// An owner's entities, most mentioned first.
    pub fn entities(&mut self, req: &EntitiesRequest) -> Result<Vec<Entity>> {
        let _viewing = self.viewing(&req.entity_id, req.agent_id.as_ref(), None, false)?;
        let owner = &req.entity_id;
        graph::entities(&self.store.read(), owner, req)
    }

    /// An owner's relationships (or one entity's), strongest first.
    pub fn relationships(&mut self, req: &RelationshipsRequest) -> Result<Vec<Relationship>> {
        let _viewing = self.viewing(&req.entity_id, req.agent_id.as_ref(), None, false)?;
        let owner = &req.entity_id;
        graph::relationships(&self.store.read(), owner, req)
    }

    /// Breadth-first from an entity, up to `depth` hops, along relationships either way.
    pub fn traverse(&mut self, req: &TraverseRequest) -> Result<Traversal> {
        let _viewing = self.viewing(&req.entity_id, req.agent_id.as_ref(), None, false)?;
        let owner = &req.entity_id;
        graph::traverse(&self.store.read(), owner, req)
    }

    /// Bridges consolidation proposed between entities the owner's memories name together in
    /// different contexts, with their evidence and the host's LLM's decision.
    pub fn bridges(&mut self, req: &BridgesRequest) -> Result<Vec<Bridge>> {
        let _viewing = self.viewing(&req.entity_id, req.agent_id.as_ref(), None, false)?;
        let owner = &req.entity_id;
        graph::bridge::bridges(&self.store.read(), owner, req)
    }

    /// The peer card of an entity: its names, the most important live facts about it, its
    /// strongest relationships, when it was first and last mentioned, and a summary.
    pub fn card(&mut self, req: &CardRequest) -> Result<Card> {
        let _viewing = self.viewing(&req.entity_id, req.agent_id.as_ref(), None, false)?;
        let owner = &req.entity_id;
        graph::card(&self.store.read(), owner, req)
    }

    /// The shortest path between two entities (fewest hops; ties go to the relationships
    /// stated first).
    pub fn path(&mut self, req: &PathRequest) -> Result<GraphPath> {
        let _viewing = self.viewing(&req.entity_id, req.agent_id.as_ref(), None, false)?;
        let owner = &req.entity_id;
        graph::path(&self.store.read(), owner, req)
    }

    // ---- Conflicts ----

    /// An owner's conflicts, newest first.
    pub fn conflicts(&mut self, req: &ConflictsRequest) -> Result<Vec<Conflict>> {
        let _viewing = self.viewing(&req.entity_id, req.agent_id.as_ref(), None, false)?;
        let owner = &req.entity_id;
        let limit = Limit::or(req.limit, conflict::DEFAULT_LIMIT);
        conflict::list(&self.store.read(), owner, req.status, limit)
    }

    /// Decides an open conflict: keep the existing memory (the new one becomes superseded),
    /// use the new one (the existing one becomes superseded), merge them into one memory, or
    /// keep both.
    pub fn resolve_conflict(&mut self, req: &ResolveRequest) -> Result<Conflict> {
        let (owner, id) = (&req.entity_id, &req.id);
        self.store
            .transaction(|tx| conflict::resolve(tx, owner, id, req.resolution, req.reason.as_ref()))
    }

    // ---- Documents ----

    /// Stores a document as searchable passages: cut (markdown-aware, sentence-bounded),
    /// each passage embedded and indexed, in one transaction. The same text again changes
    /// nothing; new text under the same `source_ref` replaces the document.
    pub fn ingest(&mut self, req: IngestRequest) -> Result<IngestReport> {
        let _viewing = self.viewing(&req.entity_id, req.agent_id.as_ref(), None, false)?;
        let view = self.store.read();
        let prepared = document::prepare(&view, req)?;
        let now = view.now()?;
        self.store
            .transaction_at(now, |tx| document::store(tx, prepared))
    }

    /// Stores a repository's source files, parsed by the host, as codebase memories.
    pub fn ingest_code(
        &mut self,
        req: crate::codebase::CodeIngest,
    ) -> Result<crate::codebase::CodeIngestReport> {
        let _viewing = self.viewing(&req.entity_id, req.agent_id.as_ref(), None, false)?;
        let view = self.store.read();
        let prepared = crate::codebase::prepare(&view, req)?;
        let now = view.now()?;
        self.store
            .transaction_at(now, |tx| crate::codebase::store(tx, prepared))
    }

    /// An owner's documents, newest first.
    pub fn documents(&mut self, req: &DocumentsRequest) -> Result<Vec<Document>> {
        let _viewing = self.viewing(&req.entity_id, req.agent_id.as_ref(), None, false)?;
        document::list(&self.store.read(), req)
    }

    /// One document with its passages.
    pub fn document(&mut self, req: &DocumentRef) -> Result<DocumentDetail> {
        let _viewing = self.viewing(&req.entity_id, req.agent_id.as_ref(), None, false)?;
        document::get(&self.store.read(), &req.entity_id, &req.id)
    }

    /// Writes the host's LLM's summary of a document or of one of its passages (what a
    /// consolidation without an LLM it could ask lists as `wanted`), checked.
    pub fn write_summary(&mut self, req: &SummaryWrite) -> Result<Document> {
        let _viewing = self.viewing(&req.entity_id, req.agent_id.as_ref(), None, false)?;
        self.store
            .transaction(|tx| document::write_summary(tx, req))
    }

    /// Applies what a host found at paths an owner's memories cite (what consolidation lists
    /// as `drift.wanted` when the host names no workspace): memories citing a path that is
    /// gone are invalidated, and ones drift invalidated whose paths are all back restored.
    pub fn drift(&mut self, req: &consolidate::DriftFindings) -> Result<consolidate::DriftReport> {
        self.store
            .transaction(|tx| consolidate::report_findings(tx, req))
    }

    /// Records the host's LLM's decision on a proposed bridge (what consolidation lists as
    /// `synthesis.wanted` when it has no LLM to ask), checked as an LLM's answer is.
    pub fn decide_bridge(&mut self, req: &consolidate::BridgeDecision) -> Result<Bridge> {
        self.store
            .transaction(|tx| consolidate::decide_bridge(tx, req))
    }

    /// Writes the host's LLM's summary of an entity's peer card (what consolidation lists as
    /// `cards.wanted` when it has no LLM to ask), checked as an LLM's answer is.
    pub fn write_card_summary(&mut self, req: &consolidate::CardSummaryWrite) -> Result<Card> {
        self.store
            .transaction(|tx| consolidate::write_host_summary(tx, req))
    }

    /// Forgets a document and its passages.
    pub fn forget_document(&mut self, req: &DocumentRef) -> Result<Document> {
        let _viewing = self.viewing(&req.entity_id, req.agent_id.as_ref(), None, false)?;
        let (owner, id) = (&req.entity_id, &req.id);
        self.store.transaction(|tx| document::forget(tx, owner, id))
    }

    // ---- Schedules ----

    /// Creates a schedule: a PLAN memory with the tag, falling due from now on.
    pub fn schedule_create(&mut self, req: &ScheduleCreate) -> Result<Schedule> {
        let view = self.store.read();
        let new = schedule::prepare(&view, req)?;
        let now = view.now()?;
        self.store
            .transaction_at(now, |tx| schedule::create(tx, new))
    }

    /// An owner's schedules, soonest due first.
    pub fn schedules(&mut self, req: &SchedulesRequest) -> Result<Vec<Schedule>> {
        let _viewing = self.viewing(&req.entity_id, req.agent_id.as_ref(), None, false)?;
        let owner = &req.entity_id;
        schedule::list(&self.store.read(), owner, req.all)
    }

    /// The owner's schedules that are due now, each due time reported once. Due times that
    /// passed unacknowledged before a later one came are counted as missed.
    pub fn scheduled(&mut self, entity_id: &str) -> Result<Vec<Schedule>> {
        let owner = Id::owner(entity_id)?;
        let view = self.store.read();
        let due = schedule::due(&view, &owner)?;
        let now = view.now()?;
        if !due.is_empty() {
            self.store
                .transaction_at(now, |tx| schedule::mark_surfaced(tx, &due))?;
        }
        Ok(due.into_iter().map(Schedule::from).collect())
    }

    /// Acknowledges a schedule: it moves on to its next due time (a one-off is done).
    pub fn schedule_ack(&mut self, req: &ScheduleRef) -> Result<Schedule> {
        let _viewing = self.viewing(&req.entity_id, req.agent_id.as_ref(), None, false)?;
        let (owner, id) = (&req.entity_id, &req.id);
        self.store.transaction(|tx| schedule::ack(tx, owner, id))
    }

    /// Changes a schedule's text or tag; a new tag falls due from now on.
    pub fn schedule_update(&mut self, req: &ScheduleUpdate) -> Result<Schedule> {
        let _viewing = self.viewing(&req.entity_id, req.agent_id.as_ref(), None, false)?;
        let (owner, id) = (&req.entity_id, &req.id);
        let view = self.store.read();
        let edit = schedule::edit(&view, owner, id, req)?;
        let now = view.now()?;
        self.store
            .transaction_at(now, |tx| schedule::update(tx, owner, id, edit))
    }

    /// Cancels a schedule: it no longer falls due, and its memory decays like any plan.
    pub fn schedule_cancel(&mut self, req: &ScheduleRef) -> Result<Schedule> {
        let _viewing = self.viewing(&req.entity_id, req.agent_id.as_ref(), None, false)?;
        let (owner, id) = (&req.entity_id, &req.id);
        self.store.transaction(|tx| schedule::cancel(tx, owner, id))
    }

    // ---- The heartbeat ----

    /// The view a heartbeat reads through: its agent's, or its team's.
    fn heartbeat_view(&mut self, req: &HeartbeatRequest) -> Result<Viewing> {
        let (agent, team) = (req.agent_id.as_ref(), req.team_id.as_ref());
        self.viewing(&req.entity_id, agent, team, false)
    }

    /// Decides whether the agent should speak up for `entity_id` now: the 14 signals, the
    /// should_act steps, and (unless a dry run) the act recorded. No embedding or LLM call.
    pub fn heartbeat_check(&mut self, req: &HeartbeatRequest) -> Result<HeartbeatReport> {
        let _viewing = self.heartbeat_view(req)?;
        if req.query.is_some() || req.top_k.is_some() {
            return Err(Error::invalid(
                "query",
                "query and top_k belong to heartbeat_context",
            ));
        }
        let (owner, opts) = heartbeat::options(req, &self.config.heartbeat)?;
        self.as_of(opts.as_of, |e| e.heartbeat(&owner, &opts))
    }

    /// `heartbeat_check`, with the agent's recent messages and (given a query) the memories
    /// that match it — everything an agent needs to word what it says.
    pub fn heartbeat_context(&mut self, req: &HeartbeatRequest) -> Result<HeartbeatContext> {
        let _viewing = self.heartbeat_view(req)?;
        let (owner, opts) = heartbeat::options(req, &self.config.heartbeat)?;
        // The search is checked before the check records an act: a bad query changes nothing.
        let search = match &req.query {
            Some(q) => {
                Content::parse("query", q)?;
                let search = SearchRequest {
                    limit: Some(req.top_k.unwrap_or(Limit::fixed(CONTEXT_MEMORIES))),
                    ..SearchRequest::new(owner.clone(), q.clone())
                };
                recall::check(&search)?;
                Some(search)
            }
            None => None,
        };
        let (report, relevant_memories, cards) = self.as_of(opts.as_of, |e| {
            let report = e.heartbeat(&owner, &opts)?;
            let relevant = match &search {
                Some(search) => e.search(search)?,
                None => Vec::new(),
            };
            // The entities the signals are about, surfaced ones first.
            let mut about: Vec<&str> = Vec::new();
            for surfaced in [true, false] {
                for s in report.signals.iter().filter(|s| s.surfaced == surfaced) {
                    about.extend(s.memories.iter().map(String::as_str));
                }
            }
            let cards = graph::cards_of(&e.store.read(), &owner, &about, CONTEXT_CARDS)?;
            Ok((report, relevant, cards))
        })?;
        let agent = req.agent_id.as_ref().map(Id::as_str);
        let recent_messages = heartbeat::recent_messages(&self.store.read(), &owner, agent)?;
        Ok(HeartbeatContext {
            report,
            recent_messages,
            relevant_memories,
            cards,
        })
    }

    /// One check, and its act recorded.
    fn heartbeat(&mut self, owner: &Id, opts: &heartbeat::Options) -> Result<HeartbeatReport> {
        self.store.flush()?;
        let mut view = match opts.as_of {
            Some(t) => self.store.read_at(t),
            None => self.store.read(),
        };
        let heartbeat::Checked { mut report, act } =
            heartbeat::check(&mut view, &self.config.heartbeat, owner, opts)?;
        let now = view.now()?;
        if let Some(act) = act {
            let cfg = &self.config.heartbeat;
            let id = self
                .store
                .transaction_at(now, |tx| heartbeat::record(tx, cfg, owner, act))?;
            report.act_id = Some(id);
        }
        Ok(report)
    }

    /// Records a message of the conversation (the owner's or the agent's), so the heartbeat
    /// knows when the owner is talking, answers, or has gone quiet.
    pub fn record_message(&mut self, req: &RecordMessage) -> Result<Message> {
        let (owner, cfg) = (&req.entity_id, &self.config.heartbeat);
        self.store
            .transaction(|tx| heartbeat::record_message(tx, cfg, owner, req))
    }

    /// An owner's recorded conversation (both roles), newest first: what a chat app shows
    /// again after a reload.
    pub fn messages(&mut self, req: &MessagesRequest) -> Result<Vec<Message>> {
        heartbeat::messages(&self.store.read(), req)
    }

    // ---- Teams ----

    /// Makes a team of agents for the owner.
    pub fn team_create(&mut self, req: &TeamCreate) -> Result<Team> {
        self.store.transaction(|tx| team::create(tx, req))
    }

    /// A team of the owner.
    pub fn team_get(&mut self, req: &TeamRef) -> Result<Team> {
        team::get(&self.store.read(), &req.entity_id, &req.team_id)
    }

    /// Deletes a team and its memberships; its memories stay with their writers.
    pub fn team_delete(&mut self, req: &TeamRef) -> Result<TeamDeleted> {
        self.store.transaction(|tx| team::delete(tx, req))
    }

    /// Adds an agent to a team.
    pub fn team_member_add(&mut self, req: &MemberAdd) -> Result<TeamMember> {
        self.store.transaction(|tx| team::add_member(tx, req))
    }

    /// A team's members, in the order they joined.
    pub fn team_members(&mut self, req: &TeamRef) -> Result<Vec<TeamMember>> {
        team::members(&self.store.read(), req)
    }

    /// Removes an agent from a team (not its last member).
    pub fn team_member_remove(&mut self, req: &MemberRef) -> Result<TeamMember> {
        self.store.transaction(|tx| team::remove_member(tx, req))
    }

    /// The instructions an LLM extractor is given, with the JSON schema of its answer.
    pub fn llm_instructions(&self) -> &'static str {
        extract::llm::INSTRUCTIONS
    }
}
