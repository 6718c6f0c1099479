//! One call vocabulary for every face (JS, WIT component, HTTP, CLI): a call is a method name
//! and an argument object, its answer is JSON. A face only converts its own values into a
//! serde `Deserializer`, so every target parses, dispatches and serialises with this code and
//! gives byte-identical JSON.

use serde::{Deserialize, Deserializer, Serialize};
use serde_json::Value;

use crate::conflict::{ConflictsRequest, ResolveRequest};
use crate::curate::{ListRequest, MemoryPatch};
use crate::engine::Engine;
use crate::error::{Error, Result};
use crate::extract::Extracted;
use crate::graph::{EntitiesRequest, PathRequest, RelationshipsRequest, TraverseRequest};
use crate::heartbeat::{HeartbeatRequest, RecordMessage};
use crate::model::{Source, Status};
use crate::recall::SearchRequest;
use crate::schedule::{ScheduleCreate, ScheduleRef, ScheduleUpdate, SchedulesRequest};
use crate::write::{NewMemory, RememberOptions, WriteReport};

/// Every method [`Call::parse`] accepts, in the order the docs list them.
pub const METHODS: &[&str] = &[
    "remember",
    "extract",
    "seed",
    "search",
    "get",
    "list",
    "update",
    "forget",
    "reinforce",
    "demote",
    "pin",
    "set_status",
    "status_history",
    "stats",
    "maintain",
    "export",
    "import",
    "embedding_model",
    "entities",
    "relationships",
    "traverse",
    "path",
    "conflicts",
    "resolve_conflict",
    "llm_instructions",
    "schedule_create",
    "schedules",
    "scheduled",
    "schedule_ack",
    "schedule_update",
    "schedule_cancel",
    "heartbeat_check",
    "heartbeat_context",
    "record_message",
];

/// One engine call with its arguments.
#[derive(Debug, Clone, PartialEq)]
pub enum Call {
    Remember(RememberArgs),
    Extract(ExtractArgs),
    Seed(SeedArgs),
    Search(SearchRequest),
    Get(MemoryRef),
    List(ListRequest),
    Update(UpdateArgs),
    Forget(MemoryRef),
    Reinforce(MemoryRef),
    Demote(MemoryRef),
    Pin(PinArgs),
    SetStatus(SetStatusArgs),
    StatusHistory(MemoryRef),
    Stats(OwnerRef),
    Maintain(NoArgs),
    Export(OwnerRef),
    Import(ImportArgs),
    EmbeddingModel(NoArgs),
    Entities(EntitiesRequest),
    Relationships(RelationshipsRequest),
    Traverse(TraverseRequest),
    Path(PathRequest),
    Conflicts(ConflictsRequest),
    ResolveConflict(ResolveRequest),
    LlmInstructions(NoArgs),
    ScheduleCreate(ScheduleCreate),
    Schedules(SchedulesRequest),
    Scheduled(OwnerRef),
    ScheduleAck(ScheduleRef),
    ScheduleUpdate(ScheduleUpdate),
    ScheduleCancel(ScheduleRef),
    HeartbeatCheck(HeartbeatRequest),
    HeartbeatContext(HeartbeatRequest),
    RecordMessage(RecordMessage),
}

/// Arguments of `remember`: a piece of conversation, or what a host extractor found in it.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct RememberArgs {
    pub entity_id: String,
    pub content: String,
    /// Memories the host already extracted from `content` (an LLM extractor, or `extract`
    /// plus host vectors); when absent the engine's extractor runs.
    pub extracted: Option<Vec<Extracted>>,
    /// An LLM's raw answer to [`crate::extract::llm::INSTRUCTIONS`] for `content`: checked by
    /// the engine; when it cannot be used the built-in extractor runs and the report says why.
    pub llm_output: Option<String>,
    pub agent_id: Option<String>,
    pub session_id: Option<String>,
    pub source_ref: Option<String>,
    /// Default conversation (trust 0.6).
    pub source: Option<Source>,
}

impl RememberArgs {
    fn options(&self) -> RememberOptions {
        RememberOptions {
            agent_id: self.agent_id.clone(),
            session_id: self.session_id.clone(),
            source_ref: self.source_ref.clone(),
            source: self.source,
        }
    }
}

/// Arguments of `extract`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ExtractArgs {
    pub content: String,
}

/// Arguments of `seed`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SeedArgs {
    pub items: Vec<NewMemory>,
}

/// One memory of one owner.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct MemoryRef {
    pub entity_id: String,
    pub id: String,
}

/// One owner.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct OwnerRef {
    pub entity_id: String,
}

/// Arguments of `update`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct UpdateArgs {
    pub entity_id: String,
    pub id: String,
    pub patch: MemoryPatch,
}

/// Arguments of `pin`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct PinArgs {
    pub entity_id: String,
    pub id: String,
    pub pinned: bool,
}

/// Arguments of `set_status`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SetStatusArgs {
    pub entity_id: String,
    pub id: String,
    pub status: Status,
    pub reason: String,
}

/// Arguments of `import`: JSONL as made by `export`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ImportArgs {
    pub jsonl: String,
}

/// Methods without arguments take an empty object (or nothing).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NoArgs {}

/// The store's embedding model, as answered by `embedding_model`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ModelInfo {
    pub model: String,
    pub dimension: usize,
}

impl Call {
    /// Parses the arguments of `method` from any serde source (a JS value, JSON text, …).
    /// A bad argument is named by its path, e.g. `invalid args.items[0].importance: …`.
    pub fn parse<'de, D: Deserializer<'de>>(method: &str, args: D) -> Result<Call> {
        Ok(match method {
            "remember" => Call::Remember(deserialize("args", args)?),
            "extract" => Call::Extract(deserialize("args", args)?),
            "seed" => Call::Seed(deserialize("args", args)?),
            "search" => Call::Search(deserialize("args", args)?),
            "get" => Call::Get(deserialize("args", args)?),
            "list" => Call::List(deserialize("args", args)?),
            "update" => Call::Update(deserialize("args", args)?),
            "forget" => Call::Forget(deserialize("args", args)?),
            "reinforce" => Call::Reinforce(deserialize("args", args)?),
            "demote" => Call::Demote(deserialize("args", args)?),
            "pin" => Call::Pin(deserialize("args", args)?),
            "set_status" => Call::SetStatus(deserialize("args", args)?),
            "status_history" => Call::StatusHistory(deserialize("args", args)?),
            "stats" => Call::Stats(deserialize("args", args)?),
            "maintain" => Call::Maintain(deserialize("args", args)?),
            "export" => Call::Export(deserialize("args", args)?),
            "import" => Call::Import(deserialize("args", args)?),
            "embedding_model" => Call::EmbeddingModel(deserialize("args", args)?),
            "entities" => Call::Entities(deserialize("args", args)?),
            "relationships" => Call::Relationships(deserialize("args", args)?),
            "traverse" => Call::Traverse(deserialize("args", args)?),
            "path" => Call::Path(deserialize("args", args)?),
            "conflicts" => Call::Conflicts(deserialize("args", args)?),
            "resolve_conflict" => Call::ResolveConflict(deserialize("args", args)?),
            "llm_instructions" => Call::LlmInstructions(deserialize("args", args)?),
            "schedule_create" => Call::ScheduleCreate(deserialize("args", args)?),
            "schedules" => Call::Schedules(deserialize("args", args)?),
            "scheduled" => Call::Scheduled(deserialize("args", args)?),
            "schedule_ack" => Call::ScheduleAck(deserialize("args", args)?),
            "schedule_update" => Call::ScheduleUpdate(deserialize("args", args)?),
            "schedule_cancel" => Call::ScheduleCancel(deserialize("args", args)?),
            "heartbeat_check" => Call::HeartbeatCheck(deserialize("args", args)?),
            "heartbeat_context" => Call::HeartbeatContext(deserialize("args", args)?),
            "record_message" => Call::RecordMessage(deserialize("args", args)?),
            other => {
                return Err(Error::UnknownValue {
                    field: "method",
                    value: other.to_string(),
                    allowed: METHODS.join(", "),
                })
            }
        })
    }

    /// Parses a call whose arguments are JSON text (`""` counts as no arguments).
    pub fn from_json(method: &str, args: &str) -> Result<Call> {
        let args = if args.trim().is_empty() { "{}" } else { args };
        let mut de = serde_json::Deserializer::from_str(args);
        let call = Call::parse(method, &mut de)?;
        de.end()
            .map_err(|e| Error::invalid("args", format!("trailing characters: {e}")))?;
        Ok(call)
    }
}

/// Deserialises `T` from any serde source, naming a bad value by its path below `field`
/// (`args.items[0].importance`). Faces use it for their own option objects too.
pub fn deserialize<'de, T: Deserialize<'de>, D: Deserializer<'de>>(field: &str, d: D) -> Result<T> {
    serde_path_to_error::deserialize(d).map_err(|e| {
        let path = e.path().to_string();
        let field = if path == "." {
            field.to_string()
        } else {
            format!("{field}.{path}")
        };
        Error::invalid(field, plain_reason(&e.into_inner().to_string()))
    })
}

/// A deserialiser's message without what depends on how the arguments were written down (the
/// path already names the field): serde_json's " at line L column C", a JS "Error: " prefix.
/// Every face then reports the same bad argument with the same words.
fn plain_reason(reason: &str) -> String {
    let reason = reason.strip_prefix("Error: ").unwrap_or(reason);
    let positioned = reason.rfind(" at line ").filter(|&i| {
        let tail: Vec<&str> = reason[i + " at line ".len()..].split(' ').collect();
        matches!(tail.as_slice(), [l, "column", c] if l.parse::<u64>().is_ok() && c.parse::<u64>().is_ok())
    });
    positioned.map_or(reason, |i| &reason[..i]).to_string()
}

fn json<T: Serialize>(v: T) -> Result<Value> {
    serde_json::to_value(v).map_err(|e| Error::invalid("result", e.to_string()))
}

impl Engine {
    /// `remember` as every face calls it: through the engine's extractor, or with what the
    /// host already extracted.
    pub fn remember_args(&mut self, mut args: RememberArgs) -> Result<WriteReport> {
        let options = args.options();
        match (args.extracted.take(), args.llm_output.take()) {
            (Some(_), Some(_)) => Err(Error::invalid(
                "args",
                "give either extracted memories or an LLM's answer, not both",
            )),
            (Some(x), None) => self.remember_extracted(&args.entity_id, x, options),
            (None, Some(answer)) => {
                crate::field::Id::owner(&args.entity_id)?;
                crate::field::Content::parse("content", &args.content)?;
                let extraction = crate::extract::from_answer(&answer, &args.content, self.now()?)?;
                self.remember_extraction(&args.entity_id, extraction, options)
            }
            (None, None) => self.remember(&args.entity_id, &args.content, options),
        }
    }

    /// Runs one call and answers with its result as JSON.
    pub fn call(&mut self, call: Call) -> Result<Value> {
        match call {
            Call::Remember(a) => json(self.remember_args(a)?),
            Call::Extract(a) => json(self.extract(&a.content)?),
            Call::Seed(a) => json(self.seed(a.items)?),
            Call::Search(r) => json(self.search(&r)?),
            Call::Get(r) => json(self.get(&r.entity_id, &r.id)?),
            Call::List(r) => json(self.list(&r)?),
            Call::Update(a) => json(self.update(&a.entity_id, &a.id, a.patch)?),
            Call::Forget(r) => json(self.forget(&r.entity_id, &r.id)?),
            Call::Reinforce(r) => json(self.reinforce(&r.entity_id, &r.id)?),
            Call::Demote(r) => json(self.demote(&r.entity_id, &r.id)?),
            Call::Pin(a) => json(self.pin(&a.entity_id, &a.id, a.pinned)?),
            Call::SetStatus(a) => {
                json(self.set_status(&a.entity_id, &a.id, a.status, &a.reason)?)
            }
            Call::StatusHistory(r) => json(self.status_history(&r.entity_id, &r.id)?),
            Call::Stats(r) => json(self.stats(&r.entity_id)?),
            Call::Maintain(_) => json(self.maintain()?),
            Call::Export(r) => json(self.export_jsonl(&r.entity_id)?),
            Call::Import(a) => json(self.import_jsonl(a.jsonl.as_bytes())?),
            Call::Entities(r) => json(self.entities(&r)?),
            Call::Relationships(r) => json(self.relationships(&r)?),
            Call::Traverse(r) => json(self.traverse(&r)?),
            Call::Path(r) => json(self.path(&r)?),
            Call::Conflicts(r) => json(self.conflicts(&r)?),
            Call::ResolveConflict(r) => json(self.resolve_conflict(&r)?),
            Call::LlmInstructions(_) => json(crate::extract::llm::INSTRUCTIONS),
            Call::ScheduleCreate(r) => json(self.schedule_create(&r)?),
            Call::Schedules(r) => json(self.schedules(&r)?),
            Call::Scheduled(r) => json(self.scheduled(&r.entity_id)?),
            Call::ScheduleAck(r) => json(self.schedule_ack(&r)?),
            Call::ScheduleUpdate(r) => json(self.schedule_update(&r)?),
            Call::ScheduleCancel(r) => json(self.schedule_cancel(&r)?),
            Call::HeartbeatCheck(r) => json(self.heartbeat_check(&r)?),
            Call::HeartbeatContext(r) => json(self.heartbeat_context(&r)?),
            Call::RecordMessage(r) => json(self.record_message(&r)?),
            Call::EmbeddingModel(_) => {
                let (model, dimension) = self.embedding_model();
                json(ModelInfo {
                    model: model.to_string(),
                    dimension,
                })
            }
        }
    }

    /// Runs a call given as a method name and JSON arguments, answering JSON text.
    pub fn call_json(&mut self, method: &str, args: &str) -> Result<String> {
        let value = self.call(Call::from_json(method, args)?)?;
        serde_json::to_string(&value).map_err(|e| Error::invalid("result", e.to_string()))
    }
}

/// A conformance scenario (JSON in `tests/scenarios/`): a fixed clock and seed, then calls in
/// order. Every face runs it and must print the same JSON.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    /// Start time, ms since the epoch.
    pub now: crate::clock::Millis,
    /// Seed of the engine's entropy (memory ids).
    pub seed: u64,
    pub steps: Vec<Step>,
}

/// One call of a scenario, optionally after moving the clock to `at`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Step {
    pub at: Option<crate::clock::Millis>,
    pub method: String,
    pub args: Option<Value>,
}

/// Runs a scenario on a fresh in-memory engine (the native reference run).
pub fn run_scenario(scenario: &Scenario) -> Result<Vec<Value>> {
    let clock = crate::clock::ManualClock::new(scenario.now);
    let mut engine = Engine::builder(clock.clone())
        .entropy(crate::clock::SeededEntropy::new(scenario.seed))
        .open_in_memory()?;
    let mut out = Vec::with_capacity(scenario.steps.len());
    for step in &scenario.steps {
        if let Some(at) = step.at {
            clock.set(at);
        }
        let args = step.args.clone().unwrap_or_else(|| serde_json::json!({}));
        out.push(outcome(
            Call::parse(&step.method, args).and_then(|c| engine.call(c)),
        ));
    }
    Ok(out)
}

/// How a face reports a call's result: `{"ok": …}` or `{"error": {"code", "message"}}`.
pub fn outcome(result: Result<Value>) -> Value {
    match result {
        Ok(v) => serde_json::json!({ "ok": v }),
        Err(e) => serde_json::json!({ "error": { "code": e.code(), "message": e.to_string() } }),
    }
}
