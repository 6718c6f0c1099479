//! # mnemo-core
//!
//! Mnemo's engine: long-term memory for AI agents in one SQLite file. Memories have types
//! that decay at their own pace, pass three-tier dedup on the way in, and come back through a
//! hybrid (vector + BM25) search ranked by relevance, recency, retention, importance and
//! confidence. The core knows nothing of its hosts: time, randomness, embeddings and
//! extraction come in through traits, so every target runs the same code.
//!
//! ```
//! use mnemo_core::{Engine, Id, ManualClock, NewMemory, SearchRequest};
//! let clock = ManualClock::new(1_700_000_000_000);
//! let mut engine = Engine::builder(clock.clone()).open_in_memory()?;
//! engine.seed(vec![NewMemory::new("ana", "Ana drinks green tea")?])?;
//! let hits = engine.search(&SearchRequest::new(Id::owner("ana")?, "what tea?"))?;
//! assert_eq!(hits[0].memory.content, "Ana drinks green tea");
//! # Ok::<(), mnemo_core::Error>(())
//! ```
//!
//! ## A tour
//!
//! - [`Engine`] is the API: each method parses its arguments into checked values ([`field`]),
//!   opens a read view or a transaction on the store, and calls one feature module.
//! - [`api`] declares every call once — method, argument and result types, what it does — and
//!   from that gives [`Call`], [`Answer`], dispatch by name with JSON, and the JSON Schema the
//!   faces (JS, WIT component, HTTP, CLI, MCP) derive their bindings from.
//! - `store` owns the SQLite schema and memory rows; its transaction is the only way to write,
//!   and keeps the in-memory vector sets and the search cache in step with what it wrote.
//! - The features: `write` (the write path: [`dedup`], [`conflict`], the knowledge [`graph`]),
//!   [`extract`] (text to memories without a model), [`recall`] (search), `curate` (memories by
//!   id), `maintain` and [`decay`] (the lifecycle), [`schedule`], [`heartbeat`] (whether an
//!   agent should speak up), `export` (JSONL).
//! - [`model`] is the memory and its enums; [`config`] gathers every feature's settings.
//!
//! `docs/DESIGN.md` in the repository walks through a write and a search step by step, the
//! determinism rules that make every target give the same JSON, and where the ideas came from.
#![deny(unsafe_code)]
#![warn(missing_docs)]

pub mod api;
pub mod calendar;
mod census;
pub mod clock;
pub mod codebase;
pub mod config;
pub mod conflict;
pub mod consolidate;
mod curate;
pub mod decay;
pub mod dedup;
pub mod document;
pub mod embed;
mod engine;
pub mod error;
mod export;
pub mod extract;
pub mod field;
pub mod graph;
pub mod heartbeat;
pub mod importance;
mod json;
mod lexicon;
pub mod links;
mod maintain;
mod math;
pub mod model;
pub mod notes;
mod order;
pub mod period;
pub mod recall;
pub mod schedule;
mod store;
pub mod team;
pub mod text;
mod tier;
/// Public for the benchmarks (`--bench vectors`) only; not part of the API.
#[doc(hidden)]
pub mod vectors;
pub mod workspace;
mod write;

pub use api::{Answer, Call, CALLS, METHODS};
pub use census::{Location, OwnerCount, SampleRequest, StoreStats};
pub use clock::{Clock, Entropy, ManualClock, Millis, SeededEntropy, DAY_MS};
pub use config::Config;
pub use conflict::{
    Conflict, ConflictConfig, ConflictKind, ConflictMode, ConflictStatus, ConflictsRequest,
    Resolution, ResolveRequest,
};
pub use curate::{ForgetAllReport, ListRequest, MemoryPatch, Page, Stats};
pub use decay::{RetentionConfig, RetentionMode};
pub use dedup::DedupConfig;
pub use embed::{Embedder, HashEmbedder, OnHand, StaticEmbedder, StaticModel, SuppliedVectors};
pub use engine::{
    EmbedRequest, Embeddings, Engine, EngineBuilder, ReembedReport, ReembedRequest, MAX_EMBED_TEXTS,
};
pub use error::{Error, Result};
pub use export::{ExportRecord, ImportReport};
pub use extract::{
    EntityMention, Extracted, Extraction, Extractor, LlmExtractor, PassThrough, RelationMention,
    RuleExtractor,
};
pub use field::{Content, Id, Limit, Owner, Reason, Sentiment, SourceRef, Tags, Unit};
pub use graph::{
    Bridge, BridgeEvidence, BridgeRecord, BridgeStatus, BridgesRequest, Card, CardFact,
    CardRequest, CardSummaryBy, EntitiesRequest, Entity, EntityType, GraphPath, Node, PathRequest,
    Relation, Relationship, RelationshipsRequest, Traversal, TraverseRequest, BRIDGE_REASON_CHARS,
    BRIDGE_RELATION_CHARS,
};
pub use heartbeat::{
    AlertLevel, Autonomy, Continuity, DecisionReason, DeltaKind, GoalProgress, GoalStatus,
    HeartbeatConfig, HeartbeatContext, HeartbeatReport, HeartbeatRequest, KnowledgeGap, Message,
    MessageRole, MessagesRequest, Pattern, PositiveDelta, QuietHours, RecordMessage,
    RelationshipAlert, SentimentTrend, Signal, SignalKind, TickConfig, TimePeriod, Trend, Urgency,
};
pub use importance::Factors as ImportanceFactors;
pub use links::{LinksReport, RelatedMemory, RelatedRequest};
pub use maintain::MaintainReport;
pub use model::*;
pub use recall::{
    Hop, RankMode, RecallConfig, ScoreBreakdown, SearchHit, SearchRequest, Weights, MAX_HOPS,
    MIN_RELEVANCE, RELAXED_RELEVANCE_SHARE, WHEN_BOOST,
};
pub use schedule::{
    Schedule, ScheduleCreate, ScheduleRef, ScheduleStatus, ScheduleUpdate, SchedulesRequest, Tag,
};
pub use store::SCHEMA_VERSION;
pub use workspace::{NoWorkspace, PathState, Workspace};
pub use write::{NewMemory, Outcome, RememberOptions, SkipReason, WriteReport};
