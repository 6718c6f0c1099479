//! The write path (SPEC §3, steps 4–7): validation, exact-hash and semantic dedup, merge,
//! surprise-adjusted importance, and one transaction per call.

use serde::{Deserialize, Serialize};

use crate::clock::Millis;
use crate::conflict::{ConflictKind, ConflictMode};
use crate::dedup::{self, Verdict, SURPRISE_K};
use crate::embed;
use crate::engine::{check_sentiment, check_source_ref, Engine};
use crate::error::{Error, Result};
use crate::extract::{EntityMention, Extracted, Extraction, RelationMention};
use crate::graph;
use crate::model::*;
use crate::store;
use crate::text;

/// Most memories one `seed` call may write.
pub const MAX_BATCH: usize = 10_000;
/// Longest `cron_tag`, in characters.
const MAX_CRON_TAG_CHARS: usize = 128;
/// Attempts at drawing an unused id before giving up.
const ID_ATTEMPTS: usize = 16;

/// A structured memory to store. Only `entity_id` and `content` are required.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct NewMemory {
    pub entity_id: String,
    pub content: String,
    /// Default EVENT.
    #[serde(rename = "type")]
    pub memory_type: Option<MemoryType>,
    /// Default fact.
    pub kind: Option<Kind>,
    /// Default working (promoted by use and time).
    pub layer: Option<Layer>,
    /// Default 0.5, then adjusted by surprise.
    pub importance: Option<f64>,
    /// Default 1.0.
    pub confidence: Option<f64>,
    /// Default 0.
    pub sentiment: Option<f64>,
    /// Default agent (trust 0.7).
    pub source: Option<Source>,
    /// Manual tags.
    pub tags: Vec<String>,
    pub pinned: bool,
    pub expires_at: Option<Millis>,
    pub cron_tag: Option<String>,
    pub source_ref: Option<String>,
    pub agent_id: Option<String>,
    pub session_id: Option<String>,
    pub team_id: Option<String>,
    pub visibility: Option<Visibility>,
    /// The content's vector, when the caller embeds it.
    pub vector: Option<Vec<f32>>,
}

/// Context for [`Engine::remember`].
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct RememberOptions {
    pub agent_id: Option<String>,
    pub session_id: Option<String>,
    pub source_ref: Option<String>,
    /// Default conversation (trust 0.6).
    pub source: Option<Source>,
}

/// Why an input stored nothing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
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
}

/// What happened to one input.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "action", rename_all = "snake_case")]
pub enum Outcome {
    /// A new memory was stored.
    Created { id: String },
    /// The input and an existing memory were merged into a new memory `id`; the existing one
    /// (`absorbed`) now has status merged.
    Merged {
        id: String,
        absorbed: String,
        similarity: f64,
    },
    /// Nothing stored; `existing` is the memory that made it redundant.
    Skipped {
        reason: SkipReason,
        existing: Option<String>,
        similarity: Option<f64>,
    },
    /// The input contradicted memory `existing`; `mode` says what was done and `id` is the
    /// memory stored for it (none under keep_existing). `conflict` is listed by `conflicts`.
    Conflict {
        id: Option<String>,
        existing: String,
        kind: ConflictKind,
        mode: ConflictMode,
        conflict: String,
    },
}

/// Per-input outcomes of a write, in input order.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct WriteReport {
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

/// One memory to write, with what an extractor found besides it.
struct Input {
    memory: NewMemory,
    auto_tags: Vec<String>,
    entities: Vec<EntityMention>,
    relationships: Vec<RelationMention>,
    /// Look for conflicts: true for what was said in conversation (`remember`); structured
    /// memories (`seed`, imports) are taken as given.
    conflicts: bool,
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

/// A validated input, ready to store.
pub(crate) struct Prepared {
    pub memory: Memory,
    pub vector: Vec<f32>,
    supplied_vector: bool,
}

fn check_opt_id(field: &str, v: &Option<String>) -> Result<()> {
    v.as_deref().map_or(Ok(()), |v| text::check_id(field, v))
}

impl Engine {
    /// Stores structured memories (one transaction for the batch), with three-tier dedup.
    /// If any input is invalid, the error names it and nothing is written.
    pub fn seed(&mut self, items: Vec<NewMemory>) -> Result<WriteReport> {
        self.write(items.into_iter().map(Input::from).collect())
    }

    /// [`Engine::seed`] with what an extractor found besides each memory: its keywords (auto
    /// tags), entities and relationships (the knowledge graph).
    fn write(&mut self, items: Vec<Input>) -> Result<WriteReport> {
        if items.len() > MAX_BATCH {
            return Err(Error::invalid(
                "memories",
                format!("{} given; at most {MAX_BATCH} per call", items.len()),
            ));
        }
        let now = self.now()?;
        let prepared = items
            .into_iter()
            .enumerate()
            .map(|(i, input)| {
                graph::check(&input.entities, &input.relationships)
                    .and_then(|_| self.prepare(input.memory, &input.auto_tags, now))
                    .map(|p| (p, input.entities, input.relationships, input.conflicts))
                    .map_err(|e| match e {
                        Error::InvalidInput { field, reason } => Error::InvalidInput {
                            field: format!("memories[{i}].{field}"),
                            reason,
                        },
                        e => e,
                    })
            })
            .collect::<Result<Vec<_>>>()?;
        let Some(owner) = prepared.first().map(|p| p.0.memory.entity_id.clone()) else {
            return Ok(WriteReport::default());
        };
        let owners: Vec<String> = {
            let mut o: Vec<String> = prepared
                .iter()
                .map(|p| p.0.memory.entity_id.clone())
                .collect();
            o.sort();
            o.dedup();
            o
        };
        let result = self.transaction(&owner, |e| {
            let mut report = WriteReport::default();
            for (p, entities, relationships, conflicts) in prepared {
                let owner = p.memory.entity_id.clone();
                let outcome = e.write_one(p, conflicts.then_some(relationships.as_slice()), now)?;
                // The graph learns from a restated memory too: it is more evidence.
                let id = match &outcome {
                    Outcome::Created { id } | Outcome::Merged { id, .. } => Some(id),
                    Outcome::Conflict { id, .. } => id.as_ref(),
                    Outcome::Skipped { existing, .. } => existing.as_ref(),
                };
                if let Some(id) = id.filter(|_| !(entities.is_empty() && relationships.is_empty()))
                {
                    if let Some((pk, _)) = store::get(&e.conn, &owner, id)? {
                        graph::record(&e.conn, &owner, pk, &entities, &relationships, now)?;
                    }
                }
                report.outcomes.push(outcome);
            }
            Ok(report)
        });
        // A failed batch may have touched the vector sets of several owners.
        for o in &owners {
            if result.is_err() {
                self.vectors.evict(o);
            }
            self.cache.invalidate(o);
        }
        result
    }

    /// Stores what the extractor finds in a piece of conversation.
    pub fn remember(
        &mut self,
        entity_id: &str,
        content: &str,
        opts: RememberOptions,
    ) -> Result<WriteReport> {
        text::check_id("entity_id", entity_id)?;
        text::check_content("content", content)?;
        let extraction = self.extractor.extraction(content, self.now()?)?;
        self.remember_extraction(entity_id, extraction, opts)
    }

    /// Stores an extraction's memories; the report says why the built-in extractor stood in,
    /// if it did.
    pub(crate) fn remember_extraction(
        &mut self,
        entity_id: &str,
        extraction: Extraction,
        opts: RememberOptions,
    ) -> Result<WriteReport> {
        let mut report = self.remember_extracted(entity_id, extraction.memories, opts)?;
        report.fallback = extraction.fallback;
        Ok(report)
    }

    /// What the engine's extractor finds in `content` (nothing is stored). Hosts that embed
    /// with their own model call this, attach vectors, then [`Engine::remember_extracted`].
    pub fn extract(&self, content: &str) -> Result<Vec<Extracted>> {
        text::check_content("content", content)?;
        self.extractor.extract(content, self.now()?)
    }

    /// Stores memories a host (or [`Engine::extract`]) already extracted from one piece of
    /// conversation; an empty list is reported as not significant.
    pub fn remember_extracted(
        &mut self,
        entity_id: &str,
        extracted: Vec<Extracted>,
        opts: RememberOptions,
    ) -> Result<WriteReport> {
        text::check_id("entity_id", entity_id)?;
        if extracted.is_empty() {
            return Ok(WriteReport {
                outcomes: vec![Outcome::Skipped {
                    reason: SkipReason::NotSignificant,
                    existing: None,
                    similarity: None,
                }],
                fallback: None,
            });
        }
        let items = extracted
            .into_iter()
            .map(|x| Input {
                memory: NewMemory {
                    entity_id: entity_id.to_string(),
                    content: x.content,
                    memory_type: Some(x.memory_type),
                    kind: Some(x.kind),
                    importance: Some(x.importance),
                    confidence: Some(x.confidence),
                    sentiment: Some(x.sentiment),
                    source: Some(opts.source.unwrap_or(Source::Conversation)),
                    expires_at: x.expires_at,
                    source_ref: opts.source_ref.clone(),
                    agent_id: opts.agent_id.clone(),
                    session_id: opts.session_id.clone(),
                    vector: x.vector,
                    ..Default::default()
                },
                auto_tags: x.tags,
                entities: x.entities,
                relationships: x.relationships,
                conflicts: true,
            })
            .collect();
        self.write(items)
    }

    /// Validates one input and builds its memory row and vector.
    pub(crate) fn prepare(
        &self,
        n: NewMemory,
        auto_tags: &[String],
        now: Millis,
    ) -> Result<Prepared> {
        text::check_id("entity_id", &n.entity_id)?;
        text::check_content("content", &n.content)?;
        check_opt_id("agent_id", &n.agent_id)?;
        check_opt_id("session_id", &n.session_id)?;
        check_opt_id("team_id", &n.team_id)?;
        for (field, v) in [("importance", n.importance), ("confidence", n.confidence)] {
            if let Some(v) = v {
                text::check_unit(field, v)?;
            }
        }
        if let Some(s) = n.sentiment {
            check_sentiment(s)?;
        }
        if let Some(r) = &n.source_ref {
            check_source_ref(r)?;
        }
        if let Some(c) = &n.cron_tag {
            if !c.starts_with("cron:") || c.chars().count() > MAX_CRON_TAG_CHARS {
                return Err(Error::invalid(
                    "cron_tag",
                    format!(
                        "must start with \"cron:\" and be at most {MAX_CRON_TAG_CHARS} characters"
                    ),
                ));
            }
        }
        if let Some(t) = n.expires_at {
            crate::clock::check_time("expires_at", t)?;
        }
        let manual_tags = text::clean_tags(&n.tags)?;
        let auto_tags = text::clean_tags(auto_tags)
            .map_err(|e| match e {
                Error::InvalidInput { field, reason } => Error::InvalidInput {
                    field: field.replace("tags", "extracted tags"),
                    reason,
                },
                e => e,
            })?
            .into_iter()
            .filter(|t| !manual_tags.contains(t))
            .collect();
        let vector = self.vector_for(&n.content, n.vector.as_deref())?;
        let source = n.source.unwrap_or(Source::Agent);
        let content = n.content.trim().to_string();
        Ok(Prepared {
            memory: Memory {
                id: String::new(),
                entity_id: n.entity_id,
                agent_id: n.agent_id,
                session_id: n.session_id,
                team_id: n.team_id,
                visibility: n.visibility.unwrap_or(Visibility::Private),
                content_hash: text::content_hash(&content),
                content,
                memory_type: n.memory_type.unwrap_or(MemoryType::Event),
                kind: n.kind.unwrap_or(Kind::Fact),
                layer: n.layer.unwrap_or(Layer::Working),
                state: State::Active,
                status: Status::Active,
                tier: Tier::Hot,
                importance: n.importance.unwrap_or(0.5),
                confidence: n.confidence.unwrap_or(1.0),
                sentiment: n.sentiment.unwrap_or(0.0),
                source,
                trust: source.trust(),
                access_count: 0,
                last_accessed_at: None,
                feedback: 0,
                pinned: n.pinned,
                manual_tags,
                auto_tags,
                expires_at: n.expires_at,
                cron_tag: n.cron_tag,
                source_ref: n.source_ref,
                surprise: None,
                merged_into: None,
                created_at: now,
                updated_at: now,
                state_changed_at: now,
                deleted_at: None,
            },
            supplied_vector: n.vector.is_some(),
            vector,
        })
    }

    /// Inserts `m` under a fresh id: "mem_" + 16 hex digits of SHA-256 over the host's next
    /// random draw and the row key the memory will get, so even a host that replays the same
    /// random sequence (a fixed seed, reopened) never reuses an id in a store. Should an id be
    /// taken anyway, the UNIQUE constraint says so and another is drawn.
    fn insert_new(&self, m: &mut Memory, vector: &[f32], due: Option<Millis>) -> Result<i64> {
        use sha2::{Digest, Sha256};
        let next_pk: i64 = self
            .conn
            .prepare_cached("SELECT coalesce(max(pk), 0) + 1 FROM memories")?
            .query_row([], |r| r.get(0))?;
        for _ in 0..ID_ATTEMPTS {
            let mut h = Sha256::new();
            h.update(self.entropy.next_u64().to_le_bytes());
            h.update(next_pk.to_le_bytes());
            m.id = format!("mem_{}", &text::hex(&h.finalize())[..16]);
            match store::insert(&self.conn, m, Some(vector), due) {
                Err(Error::Storage(rusqlite::Error::SqliteFailure(e, _)))
                    if e.extended_code == rusqlite::ffi::SQLITE_CONSTRAINT_UNIQUE =>
                {
                    continue
                }
                other => return other,
            }
        }
        Err(Error::invalid(
            "entropy",
            "the host's random source keeps repeating ids",
        ))
    }

    /// Dedup and conflicts, then create / merge / skip one prepared memory (inside the call's
    /// transaction). `conflicts` holds what an extractor found in it when conflicts are to be
    /// looked for.
    fn write_one(
        &mut self,
        p: Prepared,
        conflicts: Option<&[RelationMention]>,
        now: Millis,
    ) -> Result<Outcome> {
        let Prepared {
            memory,
            vector,
            supplied_vector,
        } = p;
        let owner = memory.entity_id.clone();
        // Tier 1: exact hash. Saying it again counts as using the memory.
        if let Some((pk, mut existing)) = store::by_hash(&self.conn, &owner, &memory.content_hash)?
        {
            self.touch(pk, &mut existing, now)?;
            return Ok(Outcome::Skipped {
                reason: SkipReason::ExactDuplicate,
                existing: Some(existing.id),
                similarity: Some(1.0),
            });
        }
        // Tiers 2 and 3 against the nearest neighbour; the k nearest give the surprise.
        let neighbours = self.owner_vectors(&owner)?.nearest(&vector, SURPRISE_K);
        // A contradiction can look like a near-duplicate: conflicts are looked for first.
        let found = match conflicts {
            Some(relationships) => self.find_conflict(&memory, relationships, &neighbours)?,
            None => None,
        };
        if let Some(found) = found {
            return self.settle_conflict(found, memory, vector, supplied_vector, &neighbours, now);
        }
        // Only a neighbour inside the dedup band needs its row read.
        let band = |n: &&(i64, f32)| {
            self.config.dedup.enabled && n.1 as f64 >= self.config.dedup.merge_threshold
        };
        if let Some(&(npk, sim)) = neighbours.first().filter(band) {
            let (_, existing) = store::by_pks(&self.conn, &owner, &[npk])?
                .pop()
                .ok_or_else(|| Error::NotAStore(format!("vector of missing memory {npk}")))?;
            match dedup::judge(
                &self.config.dedup,
                sim as f64,
                &memory.content,
                &existing.content,
            ) {
                Verdict::Create => {}
                Verdict::Skip { similarity, subset } => {
                    let reason = if subset {
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
                    return self.merge(
                        npk,
                        existing,
                        memory,
                        vector,
                        supplied_vector,
                        similarity,
                        now,
                    )
                }
            }
        }
        let (_, id) = self.create(memory, &vector, &neighbours, now)?;
        Ok(Outcome::Created { id })
    }

    /// Stores a new memory, its importance adjusted by its surprise among `neighbours`.
    pub(crate) fn create(
        &mut self,
        mut memory: Memory,
        vector: &[f32],
        neighbours: &[(i64, f32)],
        now: Millis,
    ) -> Result<(i64, String)> {
        let sims: Vec<f64> = neighbours.iter().map(|n| n.1 as f64).collect();
        let surprise = dedup::surprise(&sims);
        memory.surprise = Some(surprise);
        memory.importance = dedup::adjust_importance(memory.importance, surprise);
        let due = self.settle(&mut memory, now);
        let pk = self.insert_new(&mut memory, vector, due)?;
        self.owner_vectors(&memory.entity_id)?.upsert(pk, vector);
        Ok((pk, memory.id))
    }

    /// Merges `new` into a new memory holding both facts; `existing` becomes status merged.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn merge(
        &mut self,
        old_pk: i64,
        mut existing: Memory,
        new: Memory,
        new_vector: Vec<f32>,
        supplied: bool,
        similarity: f64,
        now: Millis,
    ) -> Result<Outcome> {
        let content = dedup::merge_content(&existing.content, &new.content);
        let vector = if supplied {
            // The caller's model made the vectors: the merged one is their normalised mean.
            let old = store::embedding(&self.conn, old_pk)?.unwrap_or_else(|| new_vector.clone());
            let mut v: Vec<f32> = old.iter().zip(&new_vector).map(|(a, b)| a + b).collect();
            embed::normalise(&mut v);
            v
        } else {
            self.vector_for(&content, None)?
        };
        let mut manual_tags = existing.manual_tags.clone();
        for t in &new.manual_tags {
            if !manual_tags.contains(t) {
                manual_tags.push(t.clone());
            }
        }
        if manual_tags.len() > text::MAX_TAGS {
            manual_tags.truncate(text::MAX_TAGS);
        }
        let mut merged = Memory {
            id: String::new(),
            content_hash: text::content_hash(&content),
            content,
            importance: existing.importance.max(new.importance),
            confidence: existing.confidence.max(new.confidence),
            pinned: existing.pinned || new.pinned,
            manual_tags,
            expires_at: new.expires_at.or(existing.expires_at),
            source_ref: new.source_ref.clone().or(existing.source_ref.clone()),
            surprise: existing.surprise,
            merged_into: None,
            last_accessed_at: Some(now),
            created_at: now,
            updated_at: now,
            state: State::Active,
            state_changed_at: now,
            ..existing.clone()
        };
        let due = self.settle(&mut merged, now);
        let pk = self.insert_new(&mut merged, &vector, due)?;
        let change = StatusChange {
            old: existing.status,
            new: Status::Merged,
            reason: format!("merged into {} (similarity {similarity:.3})", merged.id),
            changed_at: now,
        };
        store::record_status(&self.conn, old_pk, &change)?;
        existing.status = Status::Merged;
        existing.merged_into = Some(merged.id.clone());
        existing.updated_at = now;
        let due = self.settle(&mut existing, now);
        store::update(&self.conn, old_pk, &existing, due)?;
        let set = self.owner_vectors(&merged.entity_id)?;
        set.remove(old_pk);
        set.upsert(pk, &vector);
        Ok(Outcome::Merged {
            id: merged.id,
            absorbed: existing.id,
            similarity,
        })
    }
}
