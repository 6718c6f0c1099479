//! The write path: each input checked and embedded, then in one transaction exact-hash and
//! semantic dedup, conflicts with what is already known, merge or create with
//! surprise-adjusted importance, and the knowledge graph updated.

mod prepare;

use serde::{Deserialize, Serialize};

use crate::clock::Millis;
use crate::conflict::{self, ConflictConfig, ConflictKind, ConflictMode};
use crate::dedup::{self, DedupConfig, Verdict, SURPRISE_K};
use crate::error::{Error, Result};
use crate::extract::Extracted;
use crate::field::{Content, Id, Owner, Sentiment, SourceRef, Tags, Unit};
use crate::graph;
use crate::graph::{EntityMention, RelationMention};
use crate::model::*;
use crate::store::{memories, Tx, View};
use crate::vectors::Lookahead;

pub(crate) use prepare::{prepare, Prepared};

/// Most memories one `seed` call may write.
pub const MAX_BATCH: usize = 10_000;
/// Inputs whose neighbours are looked up together, ahead of their writes (in a large owner's
/// set; see [`OwnerVectors::look_ahead`](crate::vectors::OwnerVectors::look_ahead)). Runs of
/// 64 made seeding into a large owner faster; runs of 16
/// gained nothing, and runs of 256 or 1,024 lost more to scoring their own earlier writes
/// exactly than they saved.
const LOOKAHEAD: usize = 64;

/// A structured memory to store. Only `entity_id` and `content` are required.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct NewMemory {
    /// The owner of the memories (a user, an agent, a project): 1 to 256 characters of
    /// `[A-Za-z0-9_:.-]`; every read and write is scoped to one owner.
    pub entity_id: Owner,
    /// What to remember: not blank, at most 50,000 characters (stored trimmed).
    pub content: Content,
    /// The memory type, which sets how fast it decays (default EVENT).
    #[serde(rename = "type", default)]
    pub memory_type: Option<MemoryType>,
    /// What sort of knowledge it is, for recall filters (default fact).
    pub kind: Option<Kind>,
    /// The memory layer (default working; use and time promote it).
    pub layer: Option<Layer>,
    /// How much it matters, 0 to 1 (default 0.5, then adjusted by how surprising it is).
    pub importance: Option<Unit>,
    /// How sure the statement is, 0 to 1 (default 1).
    pub confidence: Option<Unit>,
    /// How it feels, from -1 (negative) to 1 (positive) (default 0).
    pub sentiment: Option<Sentiment>,
    /// Who wrote it, which sets its trust (default agent, trust 0.7).
    pub source: Option<Source>,
    /// Manual tags: at most 64, each 1 to 64 characters once trimmed, duplicates dropped (default
    /// none).
    #[serde(default)]
    pub tags: Tags,
    /// Pinned memories do not decay (default false).
    #[serde(default)]
    pub pinned: bool,
    /// When the memory stops being true (a deadline), in milliseconds since the Unix epoch, from
    /// 1973 (an earlier value looks like seconds and is refused) to 9999 (default none).
    #[schemars(range(min = crate::clock::MIN_PLAUSIBLE_MS, max = crate::clock::MAX_MILLIS))]
    pub expires_at: Option<Millis>,
    /// A schedule tag starting `cron:`, at most 128 characters (default none; `schedule_create`
    /// checks the full grammar).
    #[schemars(length(max = prepare::MAX_CRON_TAG_CHARS), pattern("^cron:"))]
    pub cron_tag: Option<String>,
    /// Where it came from (a message id, a document and chunk): 1 to 1,024 characters (default
    /// none).
    pub source_ref: Option<SourceRef>,
    /// The agent that wrote it (1 to 256 characters of `[A-Za-z0-9_:.-]`; default none).
    pub agent_id: Option<Id>,
    /// The conversation session it belongs to (1 to 256 characters of `[A-Za-z0-9_:.-]`; default
    /// none).
    pub session_id: Option<Id>,
    /// The team it is shared with (1 to 256 characters of `[A-Za-z0-9_:.-]`; default none).
    pub team_id: Option<Id>,
    /// Who besides the owner's agent may see it (default private).
    pub visibility: Option<Visibility>,
    /// When it was first said, in milliseconds since the Unix epoch (not seconds: times before 1973
    /// are refused as a likely unit mistake), not after now (default now): it ages from then.
    #[schemars(range(min = crate::clock::MIN_PLAUSIBLE_MS))]
    pub created_at: Option<Millis>,
    /// The content's vector, when the caller embeds it.
    #[schemars(extend("x-embeds" = "content"))]
    pub vector: Option<Vec<f32>>,
}

impl NewMemory {
    /// A memory of `owner` saying `content`, every other field left to its default.
    pub fn of(owner: Owner, content: Content) -> NewMemory {
        NewMemory {
            entity_id: owner,
            content,
            memory_type: None,
            kind: None,
            layer: None,
            importance: None,
            confidence: None,
            sentiment: None,
            source: None,
            tags: Tags::default(),
            pinned: false,
            expires_at: None,
            cron_tag: None,
            source_ref: None,
            agent_id: None,
            session_id: None,
            team_id: None,
            visibility: None,
            created_at: None,
            vector: None,
        }
    }

    /// [`NewMemory::of`] from text: the owner and the content checked, named `entity_id` and
    /// `content` in the error.
    pub fn new(entity_id: &str, content: &str) -> Result<NewMemory> {
        Ok(NewMemory::of(
            Id::owner(entity_id)?,
            Content::parse("content", content)?,
        ))
    }
}

/// Context for [`Engine::remember`](crate::Engine::remember).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct RememberOptions {
    /// The agent that took part, stored with each memory (an id; default none).
    pub agent_id: Option<Id>,
    /// The conversation session, stored with each memory (an id; default none).
    pub session_id: Option<Id>,
    /// Where the conversation came from, stored with each memory (default none).
    pub source_ref: Option<SourceRef>,
    /// The team the memories are shared with (stored; teams are not enforced in search).
    pub team_id: Option<Id>,
    /// Who besides the owner's agent may see the memories (default private).
    pub visibility: Option<Visibility>,
    /// Who said it, which sets the memories' trust (default conversation, trust 0.6).
    pub source: Option<Source>,
}

/// Why an input stored nothing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum SkipReason {
    /// Same normalised content as an existing memory.
    ExactDuplicate,
    /// Cosine at or above the skip threshold.
    SemanticDuplicate,
    /// A near-duplicate that adds no information.
    Subset,
    /// The extractor found nothing worth remembering.
    NotSignificant,
    /// Another session or source said what `existing` says (an exact or near duplicate): it
    /// counts as a confirmation of it, and raises its confidence.
    Corroborated,
}

/// What happened to one input.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(tag = "action", rename_all = "snake_case")]
#[schemars(transform = describe_action)]
pub enum Outcome {
    /// A new memory was stored.
    Created {
        /// The id of the memory stored.
        id: String,
    },
    /// The input and an existing memory were merged into a new memory `id`; the existing one
    /// (`absorbed`) now has status merged.
    Merged {
        /// The id of the new memory holding both.
        id: String,
        /// The id of the existing memory merged into it (now with status merged).
        absorbed: String,
        /// Cosine similarity of the input and the absorbed memory, 0 to 1.
        similarity: f64,
    },
    /// Nothing stored; `existing` is the memory that made it redundant.
    Skipped {
        /// Why nothing was stored.
        reason: SkipReason,
        /// The id of the memory that made the input redundant (none when the extractor found
        /// nothing).
        existing: Option<String>,
        /// Cosine similarity of the input and that memory, 0 to 1, when they were compared by
        /// vector.
        similarity: Option<f64>,
    },
    /// The input contradicted memory `existing`; `mode` says what was done and `id` is the
    /// memory stored for it (none under keep_existing). `conflict` is listed by `conflicts`.
    Conflict {
        /// The id of the memory stored for the input (none under keep_existing).
        id: Option<String>,
        /// The id of the memory the input contradicted.
        existing: String,
        /// What kind of contradiction it is.
        kind: ConflictKind,
        /// What was done about it.
        mode: ConflictMode,
        /// The id of the conflict, as `conflicts` lists it.
        conflict: String,
    },
}

/// Describes the tag every outcome carries, which the derive leaves bare.
fn describe_action(schema: &mut schemars::Schema) {
    let variants = schema.get_mut("oneOf").and_then(|v| v.as_array_mut());
    for v in variants.into_iter().flatten() {
        if let Some(action) = v.pointer_mut("/properties/action") {
            action["description"] =
                "What happened to the input: created, merged, skipped or conflict.".into();
        }
    }
}

/// Per-input outcomes of a write, in input order.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct WriteReport {
    /// What happened to each input, in input order.
    pub outcomes: Vec<Outcome>,
    /// Why the built-in extractor stood in for an LLM's answer (`remember` only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fallback: Option<String>,
}

impl WriteReport {
    /// Ids of memories created or produced by merges.
    pub fn stored_ids(&self) -> Vec<&str> {
        self.outcomes.iter().filter_map(Outcome::id).collect()
    }
}

impl WriteReport {
    /// The report of an input the extractor found nothing worth remembering in.
    pub(crate) fn not_significant() -> WriteReport {
        WriteReport {
            outcomes: vec![Outcome::Skipped {
                reason: SkipReason::NotSignificant,
                existing: None,
                similarity: None,
            }],
            fallback: None,
        }
    }
}

impl Outcome {
    /// The id stored by this outcome, if any.
    pub fn id(&self) -> Option<&str> {
        match self {
            Outcome::Created { id } | Outcome::Merged { id, .. } => Some(id),
            Outcome::Conflict { id, .. } => id.as_deref(),
            Outcome::Skipped { .. } => None,
        }
    }
}

/// One memory to write, with what an extractor found besides it.
pub(crate) struct Input {
    pub memory: NewMemory,
    /// Keywords, stored as auto tags.
    pub auto_tags: Vec<String>,
    pub entities: Vec<EntityMention>,
    pub relationships: Vec<RelationMention>,
    /// Look for conflicts: true for what was said in conversation (`remember`); structured
    /// memories (`seed`, imports) are taken as given.
    pub conflicts: bool,
}

impl From<NewMemory> for Input {
    fn from(memory: NewMemory) -> Self {
        Input {
            memory,
            auto_tags: Vec::new(),
            entities: Vec::new(),
            relationships: Vec::new(),
            conflicts: false,
        }
    }
}

/// The inputs for what an extractor found in one piece of conversation, each checked as a
/// caller's memory is (an extractor's or a host's output is named by its place,
/// `memories[2].content`).
pub(crate) fn from_extracted(
    owner: &Owner,
    extracted: Vec<Extracted>,
    opts: &RememberOptions,
) -> Result<Vec<Input>> {
    extracted
        .into_iter()
        .enumerate()
        .map(|(i, x)| {
            let input = || -> Result<Input> {
                Ok(Input {
                    memory: NewMemory {
                        memory_type: Some(x.memory_type),
                        kind: Some(x.kind),
                        importance: Some(Unit::parse("importance", x.importance)?),
                        confidence: Some(Unit::parse("confidence", x.confidence)?),
                        sentiment: Some(Sentiment::parse(x.sentiment)?),
                        source: Some(opts.source.unwrap_or(Source::Conversation)),
                        expires_at: x.expires_at,
                        source_ref: opts.source_ref.clone(),
                        agent_id: opts.agent_id.clone(),
                        session_id: opts.session_id.clone(),
                        team_id: opts.team_id.clone(),
                        visibility: opts.visibility,
                        vector: x.vector,
                        ..NewMemory::of(owner.clone(), Content::parse("content", &x.content)?)
                    },
                    auto_tags: Tags::parse("extracted tags", &x.tags)?.into_vec(),
                    entities: x.entities,
                    relationships: x.relationships,
                    conflicts: true,
                })
            };
            input().map_err(|e| e.within(&format!("memories[{i}]")))
        })
        .collect()
}

/// The settings the write path follows.
pub(crate) struct Settings<'a> {
    pub dedup: &'a DedupConfig,
    pub conflicts: &'a ConflictConfig,
}

/// Checks and embeds every input (outside the transaction); one bad input fails them all,
/// named by its place (`memories[2].importance`).
pub(crate) fn prepare_all(view: &View, inputs: Vec<Input>) -> Result<Vec<Prepared>> {
    if inputs.len() > MAX_BATCH {
        return Err(Error::invalid(
            "memories",
            format!("{} given; at most {MAX_BATCH} per call", inputs.len()),
        ));
    }
    view.now()?;
    inputs
        .into_iter()
        .enumerate()
        .map(|(i, input)| prepare(view, input).map_err(|e| e.within(&format!("memories[{i}]"))))
        .collect()
}

/// Stores prepared inputs, in order, in the caller's transaction.
pub(crate) fn store(
    tx: &mut Tx,
    settings: &Settings,
    prepared: Vec<Prepared>,
) -> Result<WriteReport> {
    let mut report = WriteReport::default();
    // The batch's new memories get their text-index rows together, at its end.
    tx.defer_text();
    let mut prepared = prepared.into_iter().peekable();
    while prepared.peek().is_some() {
        let run: Vec<Prepared> = prepared.by_ref().take(LOOKAHEAD).collect();
        let ahead = run
            .iter()
            .map(|p| {
                Ok(tx
                    .vectors(&p.memory.entity_id)?
                    .look_ahead(&p.vector, SURPRISE_K))
            })
            .collect::<Result<Vec<_>>>()?;
        for (p, ahead) in run.into_iter().zip(ahead) {
            report.outcomes.push(store_one(tx, settings, p, ahead)?);
        }
    }
    tx.index_text()?;
    Ok(report)
}

/// Writes one prepared memory and records what it says in the knowledge graph.
fn store_one(
    tx: &mut Tx,
    settings: &Settings,
    p: Prepared,
    ahead: Option<Lookahead>,
) -> Result<Outcome> {
    let owner = p.memory.entity_id.clone();
    let (entities, relationships) = (p.entities.clone(), p.relationships.clone());
    let outcome = write_one(tx, settings, p, ahead)?;
    // The graph learns from a restated memory too: it is more evidence.
    let id = match &outcome {
        Outcome::Created { id } | Outcome::Merged { id, .. } => Some(id),
        Outcome::Conflict { id, .. } => id.as_ref(),
        Outcome::Skipped { existing, .. } => existing.as_ref(),
    };
    if let Some(id) = id.filter(|_| !(entities.is_empty() && relationships.is_empty())) {
        if let Some((pk, _)) = memories::get(tx.conn(), &owner, id)? {
            graph::record(tx, &owner, pk, &entities, &relationships, tx.now()?)?;
        }
    }
    Ok(outcome)
}

/// Who wrote a memory and who may see it: dedup and conflicts compare a write only with
/// memories of the same scope.
#[derive(Debug, Clone, PartialEq)]
struct Scope {
    agent_id: Option<String>,
    visibility: Visibility,
    team_id: Option<String>,
}

impl Scope {
    fn of(m: &Memory) -> Scope {
        Scope {
            agent_id: m.agent_id.clone(),
            visibility: m.visibility,
            team_id: m.team_id.clone(),
        }
    }

    /// Whether `m` may be a duplicate or a contradiction of a write of this scope: a memory
    /// of the same writer, visibility and team, and not a passage of a document or a file's
    /// memory of the codebase layer.
    fn holds(&self, m: &Memory) -> bool {
        m.agent_id == self.agent_id
            && m.visibility == self.visibility
            && m.team_id == self.team_id
            && m.mixes()
    }

    /// The neighbours of this scope, in order.
    fn of_neighbours(
        &self,
        tx: &Tx,
        owner: &str,
        neighbours: Vec<(i64, f32)>,
    ) -> Result<Vec<(i64, f32)>> {
        let pks: Vec<i64> = neighbours.iter().map(|n| n.0).collect();
        let rows = memories::by_pks(tx.conn(), owner, &pks)?;
        Ok(neighbours
            .into_iter()
            .filter(|(pk, _)| rows.iter().any(|(k, m)| k == pk && self.holds(m)))
            .collect())
    }
}

/// Dedup and conflicts, then create, merge or skip one prepared memory (its neighbours
/// perhaps looked up `ahead`).
fn write_one(
    tx: &mut Tx,
    settings: &Settings,
    p: Prepared,
    ahead: Option<Lookahead>,
) -> Result<Outcome> {
    let owner = p.memory.entity_id.clone();
    // Only a memory of the same writer, visibility and team is a duplicate or a contradiction
    // of this one: another agent's memory is neither merged into nor superseded.
    let scope = Scope::of(&p.memory);
    // Tier 1: exact hash. Saying it again counts as using the memory, when it was said (now,
    // or the time a seeded statement gives).
    if let Some((pk, mut existing)) =
        tx.by_hash_where(&owner, &p.memory.content_hash, |m| scope.holds(m))?
    {
        tx.said_again(pk, &mut existing, p.memory.created_at)?;
        let reason = if dedup::confirm(tx, pk, &p.memory, &mut existing)? {
            SkipReason::Corroborated
        } else {
            SkipReason::ExactDuplicate
        };
        return Ok(Outcome::Skipped {
            reason,
            existing: Some(existing.id),
            similarity: Some(1.0),
        });
    }
    // Tiers 2 and 3 against the nearest neighbour; the k nearest give the surprise.
    let neighbours = tx
        .vectors(&owner)?
        .neighbours_since(&p.vector, SURPRISE_K, ahead);
    // An agent's write is weighed (its surprise) against its own scope only: what other agents
    // keep must not show in what it sees of its own memory. The owner's view sees everything.
    let agents = p.memory.agent_id.is_some();
    let neighbours = if agents {
        scope.of_neighbours(tx, &owner, neighbours)?
    } else {
        neighbours
    };
    // A contradiction can look like a near-duplicate: conflicts are looked for first, among
    // the neighbours of this write's scope.
    if p.conflicts {
        let scoped = if agents {
            neighbours.clone()
        } else {
            scope.of_neighbours(tx, &owner, neighbours.clone())?
        };
        if let Some(found) =
            conflict::find(tx, settings.conflicts, &p.memory, &p.relationships, &scoped)?
        {
            let settled = conflict::settle(
                tx,
                settings.conflicts,
                found,
                p.memory,
                &p.vector,
                p.supplied_vector,
                &scoped,
            )?;
            return Ok(Outcome::Conflict {
                id: settled.id,
                existing: settled.existing,
                kind: settled.kind,
                mode: settled.mode,
                conflict: settled.conflict,
            });
        }
    }
    // The nearest neighbour of this write's scope inside the dedup band is compared: only
    // neighbours inside the band need their rows read (in a store of one scope, the nearest).
    let dedup = settings.dedup;
    let band = |n: &(i64, f32)| dedup.enabled && n.1 as f64 >= dedup.merge_threshold;
    let mut nearest = None;
    for &(npk, sim) in neighbours.iter().filter(|n| band(n)) {
        let (_, m) = memories::by_pks(tx.conn(), &owner, &[npk])?
            .pop()
            .ok_or_else(|| Error::bug(format!("the vector index holds missing memory {npk}")))?;
        if scope.holds(&m) {
            nearest = Some((npk, sim, m));
            break;
        }
    }
    if let Some((npk, sim, existing)) = nearest {
        match dedup::judge(dedup, sim as f64, &p.memory.content, &existing.content) {
            Verdict::Create => {}
            Verdict::Skip { similarity, subset } => {
                let mut existing = existing;
                let reason = if dedup::confirm(tx, npk, &p.memory, &mut existing)? {
                    SkipReason::Corroborated
                } else if subset {
                    SkipReason::Subset
                } else {
                    SkipReason::SemanticDuplicate
                };
                return Ok(Outcome::Skipped {
                    reason,
                    existing: Some(existing.id),
                    similarity: Some(similarity),
                });
            }
            Verdict::Merge { similarity } => {
                let merged = dedup::merge(
                    tx,
                    npk,
                    existing,
                    p.memory,
                    p.vector,
                    p.supplied_vector,
                    similarity,
                )?;
                return Ok(Outcome::Merged {
                    id: merged.id,
                    absorbed: merged.absorbed,
                    similarity,
                });
            }
        }
    }
    let (_, id) = dedup::create(tx, p.memory, &p.vector, &neighbours)?;
    Ok(Outcome::Created { id })
}
