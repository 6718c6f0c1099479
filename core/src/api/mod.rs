//! The call vocabulary every face speaks (JS, the WIT component, HTTP, the CLI, MCP): a call is
//! a method name and an argument object, its answer is JSON. Every call is declared once, in
//! `calls!` below: its method, argument and result types, what it does, and the engine code
//! that runs it. From that one declaration come the [`Call`] and [`Answer`] types, the method
//! list, parsing with errors named by path, dispatch, and the JSON Schema of every call's
//! arguments and result ([`schema`]) that faces derive their own bindings from.
//!
//! A face only hands over the arguments as JSON text ([`Call::from_json`], or a JSON value to
//! [`Call::parse`]), so every target parses, dispatches and serialises with this code and
//! gives byte-identical JSON, errors included.

mod scenario;
mod schema;

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// JSON parsing with errors named by path, re-exported where faces have always found it.
pub use crate::json::{from_text, from_value};
pub use scenario::{run_scenario, Scenario, Step};
pub use schema::{for_agent, properties, ref_name, schema, EMBEDS};

use crate::census::{Location, SampleRequest, StoreStats};
use crate::conflict::{Conflict, ConflictsRequest, ResolveRequest};
use crate::curate::{ForgetAllReport, ListRequest, MemoryPatch, Page, Stats};
use crate::document::{
    Document, DocumentDetail, DocumentRef, DocumentsRequest, IngestReport, IngestRequest,
    SummaryWrite,
};
use crate::engine::{EmbedRequest, Embeddings, Engine, ReembedReport, ReembedRequest};
use crate::error::{Error, Result};
use crate::export::ImportReport;
use crate::extract::{ChatMessage, Extracted};
use crate::field::{Content, Id, Owner, Reason, SourceRef};
use crate::graph::{
    Bridge, BridgesRequest, Card, CardRequest, EntitiesRequest, Entity, GraphPath, PathRequest,
    Relationship, RelationshipsRequest, Traversal, TraverseRequest,
};
use crate::heartbeat::{
    HeartbeatContext, HeartbeatReport, HeartbeatRequest, Message, MessagesRequest, RecordMessage,
};
use crate::links::{RelatedMemory, RelatedRequest};
use crate::maintain::MaintainReport;
use crate::model::{Layer, Memory, Source, Status, StatusChange, Visibility};
use crate::notes::NotesImport;
use crate::recall::{SearchHit, SearchRequest};
use crate::schedule::{Schedule, ScheduleCreate, ScheduleRef, ScheduleUpdate, SchedulesRequest};
use crate::team::{MemberAdd, MemberRef, Team, TeamCreate, TeamDeleted, TeamMember, TeamRef};
use crate::write::{NewMemory, RememberOptions, WriteReport};

/// What the declaration says of one call, for faces that list calls (CLI help, MCP tools).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CallInfo {
    /// The method name every face uses.
    pub method: &'static str,
    /// What the call does: its doc comment, line by line.
    pub doc: &'static str,
    /// The name of the tool an MCP server offers for it, if it offers one.
    pub mcp: Option<&'static str>,
    /// Whether the call writes the store as a rule (a host groups these into one commit; the
    /// others only read, though a read may write what searches recorded, as any call may).
    pub writes: bool,
    /// Whether the call adds to the store and so may be the first thing written to it: a face
    /// creates a missing store for it, where for any other call a missing store is a mistake
    /// (a mistyped data directory).
    pub creates: bool,
    /// Whether the answer does not depend on what the store holds: a face may run the call
    /// on a scratch store.
    pub stateless: bool,
    /// The one field of the arguments that a face's method takes directly (`seed(items)` in
    /// JS rather than `seed({items})`), if it takes one.
    pub unwrap: Option<&'static str>,
}

impl CallInfo {
    /// What the call does, as one line of text.
    pub fn summary(&self) -> String {
        self.doc.split_whitespace().collect::<Vec<_>>().join(" ")
    }
}

/// Declares every engine call once. Each entry: its doc comment (what it does), how it uses
/// the store (`pure`: not at all, its answer is the same on any store; `read`; `write`; `add`:
/// writes what may be the store's first content, see [`CallInfo::creates`]), the `Call`
/// variant, the method name, the argument and result types, optionally the MCP tool name and
/// the argument field a face's method takes directly (`unwrap`), and the engine code that
/// runs it.
macro_rules! calls {
    ($(
        $(#[doc = $doc:literal])+
        $access:ident $variant:ident($method:literal, $args:ty) -> $result:ty
            $(, mcp $mcp:literal)? $(, unwrap $unwrap:literal)? =>
            |$engine:ident, $a:pat_param| $run:expr;
    )+) => {
        /// One engine call with its arguments.
        #[derive(Debug, Clone, PartialEq)]
        pub enum Call {
            $($(#[doc = $doc])+ $variant($args),)+
        }

        /// The answer of a call, typed: faces that show results (the CLI) read it back with
        /// [`Answer::from_json`] and so know every field at compile time.
        #[derive(Debug, Clone, PartialEq, Serialize)]
        #[serde(untagged)]
        pub enum Answer {
            $($(#[doc = $doc])+ $variant($result),)+
        }

        /// Every method, in declaration order.
        pub const METHODS: &[&str] = &[$($method),+];

        /// Every call's method, summary and MCP tool, in declaration order.
        pub const CALLS: &[CallInfo] = &[$(CallInfo {
            method: $method,
            doc: concat!($($doc, "\n"),+),
            mcp: calls!(@opt $($mcp)?),
            writes: calls!(@writes $access),
            creates: calls!(@creates $access),
            stateless: calls!(@stateless $access),
            unwrap: calls!(@opt $($unwrap)?),
        }),+];

        impl Call {
            /// Parses the arguments of `method` from JSON text (`""` counts as no arguments).
            /// A bad argument is named by its path: `invalid args.items[0].importance: …`.
            pub fn from_json(method: &str, args: &str) -> Result<Call> {
                let args = if args.trim().is_empty() { "{}" } else { args };
                match method {
                    $($method => Ok(Call::$variant(from_text("args", args)?)),)+
                    other => Err(Error::UnknownValue {
                        field: "method",
                        value: other.to_string(),
                        allowed: METHODS.join(", "),
                    }),
                }
            }

            /// The call's method name.
            pub fn method(&self) -> &'static str {
                match self {
                    $(Call::$variant(_) => $method,)+
                }
            }

            /// The call's arguments as JSON text, as `call_json` takes them.
            pub fn args_json(&self) -> String {
                let text = match self {
                    $(Call::$variant(a) => serde_json::to_string(a),)+
                };
                // Arguments are plain data (no maps with non-string keys): this cannot fail.
                text.unwrap_or_else(|_| "{}".to_string())
            }
        }

        impl Answer {
            /// Reads the JSON answer of `method` back into its type.
            pub fn from_json(method: &str, json: &str) -> Result<Answer> {
                // The answer is the engine's own JSON: one that does not read back is not
                // the caller's fault.
                let bad = |e: serde_json::Error| {
                    Error::bug(format!("the answer of {method} does not read back: {e}"))
                };
                match method {
                    $($method => Ok(Answer::$variant(serde_json::from_str(json).map_err(bad)?)),)+
                    other => Err(Error::UnknownValue {
                        field: "method",
                        value: other.to_string(),
                        allowed: METHODS.join(", "),
                    }),
                }
            }
        }

        impl Engine {
            /// Runs one call.
            pub fn run(&mut self, call: Call) -> Result<Answer> {
                match call {
                    $(Call::$variant($a) => {
                        let $engine = &mut *self;
                        let result: $result = $run?;
                        Ok(Answer::$variant(result))
                    })+
                }
            }
        }

        /// The schema of every call, from the declaration: arguments as they are read,
        /// results as they are written.
        fn declared(
            args: &mut schemars::SchemaGenerator,
            results: &mut schemars::SchemaGenerator,
        ) -> Vec<schema::CallSchema> {
            let schemas = [$((args.subschema_for::<$args>(), results.subschema_for::<$result>())),+];
            CALLS
                .iter()
                .zip(schemas)
                .map(|(info, (args, result))| schema::CallSchema { info: *info, args, result })
                .collect()
        }
    };
    (@opt $value:literal) => { Some($value) };
    (@opt) => { None };
    (@writes pure) => { false };
    (@writes read) => { false };
    (@writes write) => { true };
    (@writes add) => { true };
    (@creates add) => { true };
    (@creates $access:ident) => { false };
    (@stateless pure) => { true };
    (@stateless $access:ident) => { false };
}

calls! {
    /// Remembers a piece of conversation: the extractor (or the host's own extraction, or an
    /// LLM's answer) turns it into memories, which are stored with dedup and conflict checks.
    add Remember("remember", RememberArgs) -> WriteReport, mcp "memory_store" =>
        |e, a| e.remember_args(a);
    /// What the extractor finds in a text, without storing anything.
    pure Extract("extract", ExtractArgs) -> Vec<Extracted> => |e, a| e.extract(&a.content);
    /// Stores structured memories (at most 10,000, one transaction) with three-tier dedup.
    add Seed("seed", SeedArgs) -> WriteReport, unwrap "items" => |e, a| e.seed(a.items);
    /// Hybrid search of one owner's memories, ranked by a mode; every hit says why.
    read Search("search", SearchRequest) -> Vec<SearchHit>, mcp "memory_search" =>
        |e, a| e.search(&a);
    /// One memory by id (an access: an archived memory comes back).
    read Get("get", MemoryRef) -> Memory, mcp "memory_get" =>
        |e, a| a.run(e, |e| e.get(&a.entity_id, &a.id));
    /// A page of an owner's memories, filtered, newest first unless asked otherwise.
    read List("list", ListRequest) -> Page =>
        |e, a| e.list(&a);
    /// Changes a memory; new content is re-hashed, re-embedded and re-indexed.
    write Update("update", UpdateArgs) -> Memory, mcp "memory_update" =>
        |e, a| e.as_agent(&a.entity_id.clone(), a.agent_id.clone().as_ref(), None, false,
            |e| e.update(&a.entity_id, &a.id, a.patch));
    /// Forgets a memory (soft delete; purged after the retention period).
    write Forget("forget", MemoryRef) -> Memory, mcp "memory_forget" =>
        |e, a| a.run(e, |e| e.forget(&a.entity_id, &a.id));
    /// Forgets every memory of an owner.
    write ForgetAll("forget_all", OwnerRef) -> ForgetAllReport =>
        |e, a| a.run(e, |e| e.forget_all(&a.entity_id));
    /// The owner of a memory found by its id alone (for hosts serving many owners behind one
    /// key); not found when no owner has it.
    read Locate("locate", IdRef) -> Location => |e, a| e.locate(&a.id);
    /// Memories drawn at random (the host's randomness) from one owner or every owner; not an
    /// access.
    read Sample("sample", SampleRequest) -> Vec<Memory> => |e, a| match &a.entity_id {
        Some(_) => e.sample(&a),
        None if a.agent_id.is_some() => Err(Error::invalid(
            "agent_id",
            "an agent samples one owner's memories: give entity_id",
        )),
        None => e.sample(&a),
    };
    /// Counts of every owner's memories, and the owners.
    read StoreStats("store_stats", NoArgs) -> StoreStats => |e, _a| e.store_stats();
    /// Reinforces a memory: feedback +3, and it counts as used.
    write Reinforce("reinforce", MemoryRef) -> Memory, mcp "memory_reinforce" =>
        |e, a| a.run(e, |e| e.reinforce(&a.entity_id, &a.id));
    /// Demotes a memory: feedback −1.
    write Demote("demote", MemoryRef) -> Memory, mcp "memory_demote" =>
        |e, a| a.run(e, |e| e.demote(&a.entity_id, &a.id));
    /// Pins a memory (exempt from decay) or unpins it.
    write Pin("pin", PinArgs) -> Memory => |e, a| {
        e.as_agent(&a.entity_id, a.agent_id.as_ref(), None, false,
            |e| e.pin(&a.entity_id, &a.id, a.pinned))
    };
    /// Changes a memory's validity status, with the reason in its history.
    write SetStatus("set_status", SetStatusArgs) -> Memory =>
        |e, a| e.as_agent(&a.entity_id, a.agent_id.as_ref(), None, false,
            |e| e.set_status(&a.entity_id, &a.id, a.status, a.reason.as_str()));
    /// Moves a memory to another layer by hand — up (to `semantic` or `procedural`, which do not
    /// decay) or down — with the reason in its status history; automatic promotion leaves it
    /// there.
    write SetLayer("set_layer", SetLayerArgs) -> Memory, mcp "memory_set_layer" =>
        |e, a| e.as_agent(&a.entity_id, a.agent_id.as_ref(), None, false,
            |e| e.set_layer(&a.entity_id, &a.id, a.layer, a.reason.as_str()));
    /// A memory's status changes (and moves between layers), oldest first.
    read StatusHistory("status_history", MemoryRef) -> Vec<StatusChange> =>
        |e, a| a.run(e, |e| e.status_history(&a.entity_id, &a.id));
    /// Memories linked to this one — returned together by searches three times or more, or
    /// sharing its entities and tags — strongest link first: a chain of thought to follow.
    read Related("related", RelatedRequest) -> Vec<RelatedMemory>, mcp "memory_related" =>
        |e, a| e.related(&a);
    /// Counts of an owner's memories by type, state, status and tier.
    read Stats("stats", OwnerRef) -> Stats, mcp "memory_stats" =>
        |e, a| a.run(e, |e| e.stats(&a.entity_id));
    /// The maintenance pass: decay, lifecycle and purges of the memories that are due.
    write Maintain("maintain", NoArgs) -> MaintainReport => |e, _a| e.maintain();
    /// The maintenance pass, then consolidation now: stale-edge cleanup, auto-tag refresh,
    /// cluster-and-merge and size-bounded pruning, each bounded per run (run again while
    /// `consolidation.more`). Store-wide work for the host, so not an MCP tool (an agent may act
    /// for one owner only).
    write Consolidate("consolidate", NoArgs) -> MaintainReport => |e, _a| e.consolidate();
    /// All of one owner's memories as JSONL (vectors, status history, graph).
    read Export("export", OwnerRef) -> String => |e, a| a.run(e, |e| e.export_jsonl(&a.entity_id));
    /// Imports JSONL: full exports restored exactly, plain records written like `seed`.
    add Import("import", ImportArgs) -> ImportReport, unwrap "jsonl" =>
        |e, a| e.import_jsonl(a.jsonl.as_bytes());
    /// Stores a document (a file's text, a page, a transcript) as passages that search finds
    /// one by one: cut at headings and sentence ends, each embedded and indexed, tagged from
    /// the source; the same text again changes nothing, new text under the same `source_ref`
    /// replaces it.
    add Ingest("ingest", IngestRequest) -> IngestReport, mcp "memory_ingest" =>
        |e, a| e.ingest(a);
    /// Stores a repository's source files as the owner's codebase memories — one per file:
    /// its path, language, a one-line summary, and its symbols with signatures and lines —
    /// sent as text for the engine to parse (Rust, Python, TypeScript, JavaScript, Go; not in
    /// the browser and edge packages) or parsed by the host; a file unchanged changes nothing, a
    /// changed one's memory is superseded, and with `complete` the files no longer listed are
    /// invalidated.
    add IngestCode("ingest_code", crate::codebase::CodeIngest) -> crate::codebase::CodeIngestReport, mcp "memory_ingest_code" =>
        |e, a| e.ingest_code(a);
    /// An owner's documents, newest first (superseded and forgotten ones with `all`).
    read Documents("documents", DocumentsRequest) -> Vec<Document>, mcp "memory_documents" =>
        |e, a| e.documents(&a);
    /// One document with its passages, in order.
    read Document("document", DocumentRef) -> DocumentDetail, mcp "memory_document" =>
        |e, a| e.document(&a);
    /// Writes the host's LLM's summary of a document or of one of its passages, in place of
    /// the engine's (what consolidation lists as `wanted` when it has no LLM to ask), checked
    /// as an LLM's answer is.
    write WriteSummary("write_summary", SummaryWrite) -> Document =>
        |e, a| e.write_summary(&a);
    /// Records the host's LLM's decision on a proposed bridge — related (and how) or not, and
    /// why — (what consolidation lists as `synthesis.wanted` when it has no LLM to ask), checked
    /// as an LLM's answer is.
    write DecideBridge("decide_bridge", crate::consolidate::BridgeDecision) -> Bridge =>
        |e, a| e.decide_bridge(&a);
    /// Applies what the host found at paths an owner's memories cite (what consolidation
    /// lists as `drift.wanted` when the host names no workspace): memories citing a path that
    /// is gone, or a line past its file's end, become `invalidated` with the path in the
    /// reason, and ones drift invalidated whose paths are all back are restored.
    write Drift("drift", crate::consolidate::DriftFindings) -> crate::consolidate::DriftReport =>
        |e, a| e.drift(&a);
    /// Writes the host's LLM's summary of an entity's peer card, in place of the engine's (what
    /// consolidation lists as `cards.wanted` when it has no LLM to ask), checked as an LLM's
    /// answer is; kept while the card's facts stand, and shown in the owner's view.
    write WriteCardSummary("write_card_summary", crate::consolidate::CardSummaryWrite) -> Card =>
        |e, a| e.write_card_summary(&a);
    /// Forgets a document and its passages (soft delete, as `forget`).
    write ForgetDocument("forget_document", DocumentRef) -> Document =>
        |e, a| e.forget_document(&a);
    /// Stores markdown notes (a MEMORY.md): each bullet and paragraph through the extractor,
    /// tagged with its heading; importing them again adds nothing.
    write ImportNotes("import_notes", NotesImport) -> WriteReport => |e, a| e.import_notes(&a);
    /// The model and dimension of the store's vectors.
    read EmbeddingModel("embedding_model", NoArgs) -> ModelInfo => |e, _a| {
        let (model, dimension) = e.embedding_model();
        Ok::<_, Error>(ModelInfo {
            model: model.to_string(),
            dimension,
        })
    };
    /// Vectors of texts by the store's embedder (at most 1,000 texts; nothing is stored).
    read Embed("embed", EmbedRequest) -> Embeddings => |e, a| e.embed(&a);
    /// Moves the store to another built-in embedder (`mnemo-static-v1`, `mnemo-hash-v1`):
    /// every memory embedded again in one transaction. Store-wide, so not an MCP tool.
    write Reembed("reembed", ReembedRequest) -> ReembedReport => |e, a| e.reembed(&a);
    /// The entities of an owner's knowledge graph, most mentioned first.
    read Entities("entities", EntitiesRequest) -> Vec<Entity>, mcp "memory_entities" =>
        |e, a| e.entities(&a);
    /// Relationships of an owner's graph (or of one entity), strongest first.
    read Relationships("relationships", RelationshipsRequest) -> Vec<Relationship>,
        mcp "memory_relationships" =>
        |e, a| e.relationships(&a);
    /// A breadth-first walk of the graph from an entity.
    read Traverse("traverse", TraverseRequest) -> Traversal =>
        |e, a| e.traverse(&a);
    /// The peer card of an entity (a name or alias): its names and type, the most important
    /// live facts about it, its strongest relationships, when it was first and last mentioned,
    /// and a summary; an entity needs 3 live memories for a card.
    read Card("card", CardRequest) -> Card, mcp "memory_card" =>
        |e, a| e.card(&a);
    /// Bridges: entity pairs the owner's memories name together in different contexts
    /// (sessions, documents) with no relationship between them, proposed by consolidation with
    /// their evidence, and confirmed or rejected by the host's LLM when it has one.
    read Bridges("bridges", BridgesRequest) -> Vec<Bridge>, mcp "memory_bridges" =>
        |e, a| e.bridges(&a);
    /// The shortest path between two entities.
    read Path("path", PathRequest) -> GraphPath =>
        |e, a| e.path(&a);
    /// Conflicts found on writes, newest first.
    read Conflicts("conflicts", ConflictsRequest) -> Vec<Conflict> =>
        |e, a| e.conflicts(&a);
    /// Decides an open conflict.
    write ResolveConflict("resolve_conflict", ResolveRequest) -> Conflict =>
        |e, a| e.resolve_conflict(&a);
    /// The instructions an LLM extractor is given, with the JSON schema of its answer.
    pure LlmInstructions("llm_instructions", NoArgs) -> String =>
        |e, _a| Ok::<_, Error>(e.llm_instructions().to_string());
    /// Creates a schedule: a cron-tagged plan that falls due again and again.
    add ScheduleCreate("schedule_create", ScheduleCreate) -> Schedule, mcp "schedule_create" =>
        |e, a| e.schedule_create(&a);
    /// An owner's schedules, soonest due first.
    read Schedules("schedules", SchedulesRequest) -> Vec<Schedule>, mcp "schedule_list" =>
        |e, a| e.schedules(&a);
    /// The schedules due now, each due time reported once.
    write Scheduled("scheduled", OwnerRef) -> Vec<Schedule> =>
        |e, a| a.run(e, |e| e.scheduled(&a.entity_id));
    /// Acknowledges a schedule: it moves on to its next due time.
    write ScheduleAck("schedule_ack", ScheduleRef) -> Schedule =>
        |e, a| e.schedule_ack(&a);
    /// Changes a schedule's text or tag.
    write ScheduleUpdate("schedule_update", ScheduleUpdate) -> Schedule =>
        |e, a| e.schedule_update(&a);
    /// Cancels a schedule.
    write ScheduleCancel("schedule_cancel", ScheduleRef) -> Schedule =>
        |e, a| e.schedule_cancel(&a);
    /// Whether the agent should speak up for an owner now, and why; records the act unless
    /// a dry run. No model call.
    write HeartbeatCheck("heartbeat_check", HeartbeatRequest) -> HeartbeatReport,
        mcp "heartbeat_check" => |e, a| e.heartbeat_check(&a);
    /// The heartbeat's report, the agent's recent messages and the memories matching a query.
    write HeartbeatContext("heartbeat_context", HeartbeatRequest) -> HeartbeatContext =>
        |e, a| e.heartbeat_context(&a);
    /// Records a message of the conversation, so the heartbeat knows who talks.
    add RecordMessage("record_message", RecordMessage) -> Message => |e, a| e.record_message(&a);
    /// An owner's recorded conversation (both roles), newest first.
    read Messages("messages", MessagesRequest) -> Vec<Message> => |e, a| e.messages(&a);
    /// Makes a team of agents: its members see the memories written for it with visibility
    /// `team`.
    add TeamCreate("team_create", TeamCreate) -> Team, mcp "team_create" =>
        |e, a| e.team_create(&a);
    /// A team of the owner.
    read TeamGet("team_get", TeamRef) -> Team, mcp "team_get" => |e, a| e.team_get(&a);
    /// Deletes a team and its memberships; its memories stay with their writers.
    write TeamDelete("team_delete", TeamRef) -> TeamDeleted => |e, a| e.team_delete(&a);
    /// Adds an agent to a team.
    write TeamMemberAdd("team_member_add", MemberAdd) -> TeamMember, mcp "team_member_add" =>
        |e, a| e.team_member_add(&a);
    /// A team's members, in the order they joined.
    read TeamMembers("team_members", TeamRef) -> Vec<TeamMember>, mcp "team_members" =>
        |e, a| e.team_members(&a);
    /// Removes an agent from a team (not its last member: delete the team instead).
    write TeamMemberRemove("team_member_remove", MemberRef) -> TeamMember =>
        |e, a| e.team_member_remove(&a);
}

/// Arguments of `remember`: a piece of conversation, or what a host extractor found in it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RememberArgs {
    /// The owner of the memories (a user, an agent, a project): 1 to 256 characters of
    /// `[A-Za-z0-9_:.-]`; every read and write is scoped to one owner.
    pub entity_id: Owner,
    /// The piece of conversation, at most 50,000 characters (a chat capture's `User:` /
    /// `Assistant:` lines keep only the user's turns). Required unless `messages` is given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub content: Option<Content>,
    /// The conversation as role-tagged messages instead of `content` (at least one): only what
    /// the user said is remembered.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(length(min = 1))]
    pub messages: Option<Vec<ChatMessage>>,
    /// Memories the host already extracted from `content` (an LLM extractor, or `extract`
    /// plus host vectors); when absent the engine's extractor runs.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub extracted: Option<Vec<Extracted>>,
    /// An LLM's raw answer to the `llm_instructions` for `content`: checked by the engine;
    /// when it cannot be used the built-in extractor runs and the report says why.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub llm_output: Option<String>,
    /// The agent that took part, stored with each memory (1 to 256 characters of `[A-Za-z0-9_:.-]`;
    /// default none).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub agent_id: Option<Id>,
    /// The conversation session, stored with each memory; memories of one session lend each other
    /// relevance in search (1 to 256 characters of `[A-Za-z0-9_:.-]`; default none).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub session_id: Option<Id>,
    /// Where the conversation came from (a message id, a document and chunk): 1 to 1,024
    /// characters, stored with each memory (default none). In search, after the first of one
    /// message's statements, its others give way to other messages' hits.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source_ref: Option<SourceRef>,
    /// The team the memories are shared with, stored with them (1 to 256 characters of
    /// `[A-Za-z0-9_:.-]`; default none).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub team_id: Option<Id>,
    /// Who besides the owner's agent may see them (default private).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub visibility: Option<Visibility>,
    /// Who said it, which sets the memories' trust (default conversation, trust 0.6).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source: Option<Source>,
}

impl RememberArgs {
    /// `owner`'s piece of conversation `content`, every option left to its default.
    pub fn new(owner: Owner, content: Content) -> RememberArgs {
        RememberArgs {
            entity_id: owner,
            content: Some(content),
            messages: None,
            extracted: None,
            llm_output: None,
            agent_id: None,
            session_id: None,
            source_ref: None,
            team_id: None,
            visibility: None,
            source: None,
        }
    }

    fn options(&self) -> RememberOptions {
        RememberOptions {
            agent_id: self.agent_id.clone(),
            session_id: self.session_id.clone(),
            source_ref: self.source_ref.clone(),
            team_id: self.team_id.clone(),
            visibility: self.visibility,
            source: self.source,
        }
    }
}

/// Arguments of `extract`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ExtractArgs {
    /// The text to extract memories from: not blank, at most 50,000 characters.
    pub content: Content,
}

/// Arguments of `seed`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SeedArgs {
    /// The memories to store, in order, in one transaction (at most 10,000).
    #[schemars(length(max = crate::write::MAX_BATCH))]
    pub items: Vec<NewMemory>,
}

/// One memory of one owner.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MemoryRef {
    /// The owner of the memories (a user, an agent, a project): 1 to 256 characters of
    /// `[A-Za-z0-9_:.-]`; every read and write is scoped to one owner.
    pub entity_id: Owner,
    /// The agent the call is made for: it sees its own memories, `global` ones and `team`
    /// ones of the owner's teams it is a member of, and changes only its own (default none: the
    /// owner's view, which sees and changes every memory).
    pub agent_id: Option<Id>,
    /// The memory's id, as the write that stored it answered: 1 to 256 characters of
    /// `[A-Za-z0-9_:.-]`.
    pub id: Id,
}

/// A memory by its id alone.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct IdRef {
    /// The id of the memory to find the owner of.
    pub id: Id,
}

/// One owner.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct OwnerRef {
    /// The owner of the memories (a user, an agent, a project): 1 to 256 characters of
    /// `[A-Za-z0-9_:.-]`; every read and write is scoped to one owner.
    pub entity_id: Owner,
    /// The agent the call is made for: it sees its own memories, `global` ones and `team`
    /// ones of the owner's teams it is a member of, and changes only its own (default none: the
    /// owner's view, which sees and changes every memory).
    pub agent_id: Option<Id>,
}

/// Arguments of `update`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct UpdateArgs {
    /// The owner of the memories (a user, an agent, a project): 1 to 256 characters of
    /// `[A-Za-z0-9_:.-]`; every read and write is scoped to one owner.
    pub entity_id: Owner,
    /// The agent the call is made for: it sees its own memories, `global` ones and `team`
    /// ones of the owner's teams it is a member of, and changes only its own (default none: the
    /// owner's view, which sees and changes every memory).
    pub agent_id: Option<Id>,
    /// The memory's id, as the write that stored it answered: 1 to 256 characters of
    /// `[A-Za-z0-9_:.-]`.
    pub id: Id,
    /// The changes; fields left out stay as they are.
    pub patch: MemoryPatch,
}

/// Arguments of `pin`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PinArgs {
    /// The owner of the memories (a user, an agent, a project): 1 to 256 characters of
    /// `[A-Za-z0-9_:.-]`; every read and write is scoped to one owner.
    pub entity_id: Owner,
    /// The agent the call is made for: it sees its own memories, `global` ones and `team`
    /// ones of the owner's teams it is a member of, and changes only its own (default none: the
    /// owner's view, which sees and changes every memory).
    pub agent_id: Option<Id>,
    /// The memory's id, as the write that stored it answered: 1 to 256 characters of
    /// `[A-Za-z0-9_:.-]`.
    pub id: Id,
    /// True to pin (the memory no longer decays), false to unpin.
    pub pinned: bool,
}

/// Arguments of `set_status`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SetStatusArgs {
    /// The owner of the memories (a user, an agent, a project): 1 to 256 characters of
    /// `[A-Za-z0-9_:.-]`; every read and write is scoped to one owner.
    pub entity_id: Owner,
    /// The agent the call is made for: it sees its own memories, `global` ones and `team`
    /// ones of the owner's teams it is a member of, and changes only its own (default none: the
    /// owner's view, which sees and changes every memory).
    pub agent_id: Option<Id>,
    /// The memory's id, as the write that stored it answered: 1 to 256 characters of
    /// `[A-Za-z0-9_:.-]`.
    pub id: Id,
    /// The new validity status; it must differ from the memory's current one.
    pub status: Status,
    /// Why, written to the memory's status history: 1 to 1,000 characters once trimmed.
    pub reason: Reason,
}

/// Arguments of `set_layer`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SetLayerArgs {
    /// The owner of the memories (a user, an agent, a project): 1 to 256 characters of
    /// `[A-Za-z0-9_:.-]`; every read and write is scoped to one owner.
    pub entity_id: Owner,
    /// The agent the call is made for: it sees its own memories, `global` ones and `team`
    /// ones of the owner's teams it is a member of, and changes only its own (default none: the
    /// owner's view, which sees and changes every memory).
    pub agent_id: Option<Id>,
    /// The memory's id, as the write that stored it answered: 1 to 256 characters of
    /// `[A-Za-z0-9_:.-]`.
    pub id: Id,
    /// The layer to move it to; it must differ from the memory's current one.
    pub layer: Layer,
    /// Why, written to the memory's status history: 1 to 1,000 characters once trimmed.
    pub reason: Reason,
}

/// Arguments of `import`: JSONL as made by `export`, or plain records.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ImportArgs {
    /// One JSON record per line: full records as `export` writes them, or plain records
    /// (`entity_id`, `content` and optional fields as in `seed`).
    pub jsonl: String,
}

/// Methods without arguments take an empty object (or nothing).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct NoArgs {}

/// The store's embedding model, as answered by `embedding_model`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct ModelInfo {
    /// The name of the store's embedding model.
    pub model: String,
    /// The length of its vectors.
    pub dimension: usize,
}

impl MemoryRef {
    /// Runs `f` for the agent the reference names (the owner's view when none).
    fn run<T>(&self, e: &mut Engine, f: impl FnOnce(&mut Engine) -> Result<T>) -> Result<T> {
        e.as_agent(&self.entity_id, self.agent_id.as_ref(), None, false, f)
    }
}

impl OwnerRef {
    /// Runs `f` for the agent the reference names (the owner's view when none).
    fn run<T>(&self, e: &mut Engine, f: impl FnOnce(&mut Engine) -> Result<T>) -> Result<T> {
        e.as_agent(&self.entity_id, self.agent_id.as_ref(), None, false, f)
    }
}

impl Call {
    /// Parses the arguments of `method` from a JSON value.
    pub fn parse(method: &str, args: &Value) -> Result<Call> {
        Call::from_json(method, &args.to_string())
    }
}

impl Answer {
    /// The memory, when the answer is one memory (get, update, forget, reinforce, demote,
    /// pin, set_status).
    pub fn memory(&self) -> Option<&Memory> {
        match self {
            Answer::Get(m)
            | Answer::Update(m)
            | Answer::Forget(m)
            | Answer::Reinforce(m)
            | Answer::Demote(m)
            | Answer::Pin(m)
            | Answer::SetStatus(m) => Some(m),
            _ => None,
        }
    }
}

/// An answer that JSON cannot hold: the engine made it, so the fault is the engine's.
fn unwritable(e: serde_json::Error) -> Error {
    Error::bug(format!("the answer does not serialise as JSON: {e}"))
}

impl Engine {
    /// `remember` as every face calls it: through the engine's extractor, or with what the
    /// host already extracted, or with an LLM's answer to check.
    pub(crate) fn remember_args(&mut self, mut args: RememberArgs) -> Result<WriteReport> {
        let options = args.options();
        let content = match (args.content.take(), args.messages.take()) {
            (Some(_), Some(_)) => {
                return Err(Error::invalid(
                    "messages",
                    "give the conversation as content or as messages, not both",
                ))
            }
            (Some(content), None) => Some(content),
            (None, Some(messages)) => Some(Content::parse(
                "messages",
                &crate::extract::transcript(&messages)?,
            )?),
            (None, None) => None,
        };
        let owner = &args.entity_id;
        match (args.extracted.take(), args.llm_output.take(), content) {
            (Some(_), Some(_), _) => Err(Error::invalid(
                "args",
                "give either extracted memories or an LLM's answer, not both",
            )),
            (Some(x), None, _) => self.remember_found(owner, x, options),
            (None, _, None) => Err(Error::invalid(
                "content",
                "is required (or messages, or extracted memories)",
            )),
            (None, Some(answer), Some(content)) => {
                self.remember_by(owner, &content, options, |_, content, now| {
                    crate::extract::from_answer(&answer, content, now)
                })
            }
            (None, None, Some(content)) => {
                self.remember_by(owner, &content, options, |x, content, now| {
                    x.extraction(content, now)
                })
            }
        }
    }

    /// Runs one call and answers with its result as JSON: the same JSON every face answers
    /// with ([`Engine::call_json`]'s text, read back).
    pub fn call(&mut self, call: Call) -> Result<Value> {
        let answer = self.run(call)?;
        // Through the text: a 32-bit float (a vector element) then reads as the shortest
        // decimal that gives its bits back, as every face prints it, not as its 64-bit widening.
        let text = serde_json::to_string(&answer).map_err(unwritable)?;
        serde_json::from_str(&text).map_err(unwritable)
    }

    /// Runs a call given as a method name and JSON arguments, answering JSON text.
    pub fn call_json(&mut self, method: &str, args: &str) -> Result<String> {
        // Written straight from the typed answer (fields in declaration order): going through
        // a `Value` first built, wrote and freed a tree of maps, most of a cached search.
        let answer = self.run(Call::from_json(method, args)?)?;
        serde_json::to_string(&answer).map_err(unwritable)
    }

    /// The texts a call given as a method name and JSON arguments embeds with the engine's
    /// embedder, as the engine will make them: `ingest`'s passages and sentences, `search`'s
    /// question (with who the relations it names are in place, then as asked); none for any
    /// other call. What a host whose embedding model runs ahead of the call (a page) embeds
    /// and hands over. Bad arguments get the call's own error.
    pub fn texts_to_embed(&mut self, method: &str, args: &str) -> Result<Vec<String>> {
        match Call::from_json(method, args)? {
            Call::Ingest(req) => crate::document::texts(&req),
            Call::Search(req) => self.search_texts(&req),
            _ => Ok(Vec::new()),
        }
    }

    /// Runs calls in order as one group commit: each succeeds or fails as if run alone, and
    /// the store commits once at the end, so a host answering many clients at once pays one
    /// commit (one sync of the file) for all of them. The answers stand only if this returns
    /// `Ok`; its error is that commit's, and then nothing the calls wrote stayed.
    pub fn batch_json(&mut self, calls: &[(&str, &str)]) -> Result<Vec<Result<String>>> {
        self.group(|engine| {
            calls
                .iter()
                .map(|(method, args)| engine.call_json(method, args))
                .collect()
        })
    }
}
