//! Export and import of one owner's memories as JSONL: one full record per line, with its
//! vector and status history, so an export imported into an empty store exports identically.

use serde::{Deserialize, Serialize};

use crate::embed;
use crate::engine::Engine;
use crate::error::{Error, Result};
use crate::extract::{EntityMention, RelationMention};
use crate::model::{Memory, State, StatusChange};
use crate::store;
use crate::text;
use crate::write::{NewMemory, Outcome, WriteReport};

/// One exported memory.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExportRecord {
    pub memory: Memory,
    /// The stored vector (model and dimension as in the exporting store).
    pub embedding: Option<Vec<f32>>,
    pub embedding_model: String,
    pub status_history: Vec<StatusChange>,
    /// Entities the memory names in the owner's knowledge graph.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub entities: Vec<EntityMention>,
    /// Relationships the memory stated (their reverses are inferred again on import).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub relationships: Vec<RelationMention>,
}

/// What an import did.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ImportReport {
    /// Full records restored as they were.
    pub restored: usize,
    /// Full records whose id was already in this store (left untouched).
    pub already_present: usize,
    /// Outcomes of the plain records (`entity_id` + `content` + optional fields), which go
    /// through the write path with dedup.
    pub written: WriteReport,
}

impl Engine {
    /// All of one owner's memories (every state), one JSON record per line.
    pub fn export_jsonl(&mut self, entity_id: &str) -> Result<String> {
        self.flush()?;
        text::check_id("entity_id", entity_id)?;
        let model = self.embedder.model_id().to_string();
        let mut out = String::new();
        for (pk, memory, embedding) in store::export_rows(&self.conn, entity_id)? {
            let (entities, relationships) = store::graph::memory_graph(&self.conn, pk)?;
            let record = ExportRecord {
                memory,
                embedding,
                embedding_model: model.clone(),
                status_history: store::status_history(&self.conn, pk)?,
                entities,
                relationships,
            };
            out.push_str(
                &serde_json::to_string(&record)
                    .map_err(|e| Error::invalid("export", e.to_string()))?,
            );
            out.push('\n');
        }
        Ok(out)
    }

    /// Imports JSONL: full records from [`Engine::export_jsonl`] are restored exactly; plain
    /// records are written like `seed`. Every line is checked first: one bad line (invalid
    /// UTF-8, malformed JSON, a bad field, a vector of the wrong model or dimension, an id owned
    /// by another entity) fails the import and nothing is written.
    pub fn import_jsonl(&mut self, bytes: &[u8]) -> Result<ImportReport> {
        let (model, dim) = (
            self.embedder.model_id().to_string(),
            self.embedder.dimension(),
        );
        let mut full: Vec<ExportRecord> = Vec::new();
        let mut plain: Vec<NewMemory> = Vec::new();
        for (i, line) in bytes.split(|&b| b == b'\n').enumerate() {
            let line_no = i + 1;
            let bad = |reason: String| Error::ImportLine {
                line: line_no,
                reason,
            };
            let line =
                std::str::from_utf8(line).map_err(|e| bad(format!("not valid UTF-8 ({e})")))?;
            if line.trim().is_empty() {
                continue;
            }
            let value: serde_json::Value =
                serde_json::from_str(line).map_err(|e| bad(format!("malformed JSON: {e}")))?;
            if value.get("memory").is_some() {
                let r: ExportRecord =
                    serde_json::from_value(value).map_err(|e| bad(e.to_string()))?;
                check_record(&r, &model, dim)
                    .and_then(|_| crate::graph::check(&r.entities, &r.relationships))
                    .map_err(|e| bad(e.to_string()))?;
                full.push(r);
            } else {
                let n: NewMemory = serde_json::from_value(value).map_err(|e| bad(e.to_string()))?;
                text::check_id("entity_id", &n.entity_id)
                    .and_then(|_| text::check_content("content", &n.content))
                    .map_err(|e| bad(e.to_string()))?;
                plain.push(n);
            }
        }
        for (i, r) in full.iter().enumerate() {
            if let Some(owner) = self.owner_of(&r.memory.id)? {
                if owner != r.memory.entity_id {
                    return Err(Error::ImportLine {
                        line: i + 1,
                        reason: format!(
                            "id {} belongs to another entity in this store",
                            r.memory.id
                        ),
                    });
                }
            }
        }
        let mut report = ImportReport::default();
        let owner = full
            .first()
            .map(|r| r.memory.entity_id.clone())
            .unwrap_or_default();
        let owners: Vec<String> = full.iter().map(|r| r.memory.entity_id.clone()).collect();
        let now = self.now()?;
        let restored = self.transaction(&owner, |e| {
            let mut restored = Vec::new();
            for r in &full {
                if store::id_taken(&e.conn, &r.memory.id)? {
                    continue;
                }
                let due = crate::decay::next_due(&r.memory, now, &e.config.retention);
                let pk = store::insert(&e.conn, &r.memory, r.embedding.as_deref(), due)?;
                for change in &r.status_history {
                    store::record_status(&e.conn, pk, change)?;
                }
                crate::graph::record(
                    &e.conn,
                    &r.memory.entity_id,
                    pk,
                    &r.entities,
                    &r.relationships,
                    r.memory.created_at,
                )?;
                restored.push(pk);
            }
            Ok(restored)
        });
        for o in &owners {
            self.vectors.evict(o);
            self.cache.invalidate(o);
        }
        let restored = restored?;
        report.restored = restored.len();
        report.already_present = full.len() - restored.len();
        if !plain.is_empty() {
            for n in &mut plain {
                n.source.get_or_insert(crate::model::Source::Import);
            }
            report.written = self.seed(plain)?;
        }
        Ok(report)
    }

    fn owner_of(&self, id: &str) -> Result<Option<String>> {
        use rusqlite::OptionalExtension;
        Ok(self
            .conn
            .query_row("SELECT entity_id FROM memories WHERE id = ?1", [id], |r| {
                r.get(0)
            })
            .optional()?)
    }
}

/// Checks a full record before anything is written.
fn check_record(r: &ExportRecord, model: &str, dim: usize) -> Result<()> {
    let m = &r.memory;
    text::check_id("memory.id", &m.id)?;
    text::check_id("memory.entity_id", &m.entity_id)?;
    text::check_content("memory.content", &m.content)?;
    if m.content_hash != text::content_hash(&m.content) {
        return Err(Error::invalid(
            "memory.content_hash",
            "does not match the content",
        ));
    }
    for (f, v) in [
        ("memory.importance", m.importance),
        ("memory.confidence", m.confidence),
        ("memory.trust", m.trust),
    ] {
        text::check_unit(f, v)?;
    }
    crate::engine::check_sentiment(m.sentiment)?;
    let times = [
        ("created_at", Some(m.created_at)),
        ("updated_at", Some(m.updated_at)),
        ("state_changed_at", Some(m.state_changed_at)),
        ("last_accessed_at", m.last_accessed_at),
        ("deleted_at", m.deleted_at),
        ("expires_at", m.expires_at),
    ];
    for (field, t) in times {
        if let Some(t) = t {
            crate::clock::check_time(&format!("memory.{field}"), t)?;
        }
    }
    if m.access_count < 0 {
        return Err(Error::invalid(
            "memory.access_count",
            "must not be negative",
        ));
    }
    if m.state == State::Deleted && m.deleted_at.is_none() {
        return Err(Error::invalid(
            "memory.deleted_at",
            "a DELETED memory needs deleted_at",
        ));
    }
    if let Some(v) = &r.embedding {
        if r.embedding_model != model {
            return Err(Error::EmbedderMismatch {
                store_model: model.into(),
                store_dim: dim,
                embedder_model: r.embedding_model.clone(),
                embedder_dim: v.len(),
            });
        }
        embed::check_vector(v, dim, model)?;
    }
    Ok(())
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
