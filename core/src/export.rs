//! Export and import of one owner's memories as JSONL: one full record per line, with its
//! vector and status history, so an export imported into an empty store exports identically.

use serde::{Deserialize, Serialize};

use crate::clock::check_time;
use crate::document::{self, DocumentRecord, PassagePlace};
use crate::embed::{self, Precision};
use crate::error::{Error, Result};
use crate::field::{Content, Id, Owner, Sentiment, Unit};
use crate::graph;
use crate::graph::{bridge_record, BridgeRecord, EntityMention, RelationMention};
use crate::links::{self, LinkRecord};
use crate::model::{Kind, Memory, Source, State, StatusChange};
use crate::store::{memories, Tx, View};
use crate::write::{NewMemory, WriteReport};

/// One exported memory.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ExportRecord {
    /// The memory, every field as stored.
    pub memory: Memory,
    /// The stored vector (model and dimension as in the exporting store).
    pub embedding: Option<Vec<f32>>,
    /// The model that made the vector.
    pub embedding_model: String,
    /// How the store keeps the vector (consolidation stores fading memories' vectors with
    /// fewer bits); an import stores it the same way. Left out for full precision.
    #[serde(
        default,
        skip_serializing_if = "is_full",
        deserialize_with = "precision_named"
    )]
    pub embedding_precision: Precision,
    /// The memory's status changes, oldest first.
    pub status_history: Vec<StatusChange>,
    /// Entities the memory names in the owner's knowledge graph.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub entities: Vec<EntityMention>,
    /// Relationships the memory stated (their reverses are inferred again on import).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub relationships: Vec<RelationMention>,
    /// Co-recall links to memories exported after this one.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub links: Vec<LinkRecord>,
    /// For a passage of a document: where it lies (`document::Passage` without its text).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub passage: Option<PassagePlace>,
    /// On a document's first passage: the document itself, with its whole text (an import
    /// restores it before its passages).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub document: Option<DocumentRecord>,
    /// Bridges whose first evidence this memory is (by creation time, then id), with their
    /// decisions: an import keeps a decided pair decided.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub bridges: Vec<BridgeRecord>,
}

fn is_full(p: &Precision) -> bool {
    *p == Precision::F32
}

/// A precision by name, refused with the field and the names it takes.
fn precision_named<'de, D: serde::Deserializer<'de>>(
    d: D,
) -> std::result::Result<Precision, D::Error> {
    let value = serde_json::Value::deserialize(d)?;
    value.as_str().and_then(Precision::parse).ok_or_else(|| {
        serde::de::Error::custom(format!(
            "embedding_precision is one of \"f32\", \"int8\", \"int4\", \"int2\", not {value}"
        ))
    })
}

/// What an import did.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct ImportReport {
    /// Full records restored as they were.
    pub restored: usize,
    /// Full records whose id was already in this store (left untouched).
    pub already_present: usize,
    /// Outcomes of the plain records (`entity_id` + `content` + optional fields), which go
    /// through the write path with dedup.
    pub written: WriteReport,
}

/// All of one owner's memories (every state), one JSON record per line.
pub(crate) fn export(view: &View, owner: &Owner) -> Result<String> {
    let model = view.embedder().model_id().to_string();
    let conn = view.conn();
    let mut out = String::new();
    let dim = view.embedder().dimension();
    let mut sight = graph::Sight::of(view);
    for (pk, memory, stored) in memories::export_rows(conn, owner, dim)? {
        let (embedding, embedding_precision) = match stored {
            Some((v, p)) => (Some(v), p),
            None => (None, Precision::F32),
        };
        let (entities, relationships) = sight.memory_graph(pk)?;
        let links = links::export(conn, pk, &memory)?;
        let bridges = bridge_record::export(conn, &mut sight, pk)?;
        let (passage, document) = match memory.kind {
            Kind::Passage => document::export(conn, pk)?,
            _ => (None, None),
        };
        let record = ExportRecord {
            memory,
            embedding,
            embedding_model: model.clone(),
            embedding_precision,
            status_history: memories::status_history(conn, pk)?,
            entities,
            relationships,
            links,
            passage,
            document,
            bridges,
        };
        out.push_str(
            &serde_json::to_string(&record)
                .map_err(|e| Error::bug(format!("an export record does not serialise: {e}")))?,
        );
        out.push('\n');
    }
    Ok(out)
}

/// A JSONL import, read and checked whole.
pub(crate) struct Import {
    /// Full records, restored as they were.
    full: Vec<ExportRecord>,
    /// Plain records, written like `seed`.
    pub plain: Vec<NewMemory>,
}

/// Reads JSONL: full records from [`export`] and plain `{entity_id, content, …}` records.
/// Every line is checked first: one bad line (invalid UTF-8, malformed JSON, a bad field, a
/// vector of the wrong model or dimension, an id owned by another entity) fails the import.
pub(crate) fn read(view: &View, bytes: &[u8]) -> Result<Import> {
    let embedder = view.embedder();
    let (model, dim) = (embedder.model_id().to_string(), embedder.dimension());
    let mut full: Vec<ExportRecord> = Vec::new();
    // The file line of each full record, for the errors found once all are read.
    let mut full_lines: Vec<usize> = Vec::new();
    let mut plain: Vec<NewMemory> = Vec::new();
    for (i, line) in bytes.split(|&b| b == b'\n').enumerate() {
        let line_no = i + 1;
        let bad = |reason: String| Error::ImportLine {
            line: line_no,
            reason,
        };
        let line = std::str::from_utf8(line).map_err(|e| bad(format!("not valid UTF-8 ({e})")))?;
        if line.trim().is_empty() {
            continue;
        }
        let value = crate::json::parse(line).map_err(|e| bad(format!("malformed JSON: {e}")))?;
        if value.get("memory").is_some() {
            let r: ExportRecord =
                crate::json::from_value("", &value).map_err(|e| bad(e.to_string()))?;
            check_record(&r, &model, dim)
                .and_then(|_| graph::check(&r.entities, &r.relationships))
                .and_then(|_| links::check(&r.links))
                .and_then(|_| bridge_record::check(&r.bridges, &r.memory.id, &r.entities))
                .map_err(|e| bad(e.to_string()))?;
            full.push(r);
            full_lines.push(line_no);
        } else {
            let mut n: NewMemory =
                crate::json::from_value("", &value).map_err(|e| bad(e.to_string()))?;
            n.source.get_or_insert(Source::Import);
            plain.push(n);
        }
    }
    for (&line, r) in full_lines.iter().zip(&full) {
        if let Some(owner) = memories::owner_of(view.conn(), &r.memory.id)? {
            if owner != r.memory.entity_id {
                return Err(Error::ImportLine {
                    line,
                    reason: format!("id {} belongs to another entity in this store", r.memory.id),
                });
            }
        }
        for g in &r.bridges {
            if bridge_record::owner_of(view.conn(), &g.id)?
                .is_some_and(|o| o != r.memory.entity_id.as_str())
            {
                return Err(Error::ImportLine {
                    line,
                    reason: format!("bridge {} belongs to another entity in this store", g.id),
                });
            }
        }
    }
    Ok(Import { full, plain })
}

/// Restores an import's full records (those whose id is not in the store yet) exactly as
/// they were exported; returns how many were restored and how many were already present.
pub(crate) fn restore(tx: &mut Tx, import: &Import) -> Result<(usize, usize)> {
    let mut restored = 0;
    // The text-index rows of all the restored memories in one statement, at the end.
    tx.defer_text();
    for r in &import.full {
        if memories::id_taken(tx.conn(), &r.memory.id)? {
            continue;
        }
        let vector = r.embedding.as_deref().map(|v| (v, r.embedding_precision));
        let pk = tx.restore(&r.memory, vector)?;
        for change in &r.status_history {
            tx.record_status(pk, change)?;
        }
        graph::record(
            tx,
            &r.memory.entity_id,
            pk,
            &r.entities,
            &r.relationships,
            r.memory.created_at,
        )?;
        if let Some(d) = &r.document {
            document::restore(tx, d)?;
        }
        if let Some(place) = &r.passage {
            document::restore_passage(tx, &r.memory.entity_id, pk, place)?;
        }
        restored += 1;
    }
    tx.index_text()?;
    // Links and bridges once all of their memories are in.
    for r in &import.full {
        if r.links.is_empty() && r.bridges.is_empty() {
            continue;
        }
        let owner = &r.memory.entity_id;
        if let Some((pk, _)) = memories::get(tx.conn(), owner, &r.memory.id)? {
            links::restore(tx.conn(), owner, pk, &r.links)?;
            bridge_record::restore(tx.conn(), owner, pk, &r.bridges)?;
        }
    }
    Ok((restored, import.full.len() - restored))
}

/// Checks a full record before anything is written.
fn check_record(r: &ExportRecord, model: &str, dim: usize) -> Result<()> {
    let m = &r.memory;
    Id::parse("memory.id", &m.id)?;
    Id::parse("memory.entity_id", &m.entity_id)?;
    Content::parse("memory.content", &m.content)?;
    if m.content_hash != crate::text::content_hash(&m.content) {
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
        Unit::parse(f, v)?;
    }
    Sentiment::parse(m.sentiment)?;
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
            check_time(&format!("memory.{field}"), t)?;
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
    if (m.kind == Kind::Passage) != r.passage.is_some() {
        return Err(Error::invalid(
            "passage",
            "a record of kind passage comes with its place in a document, and only such a record",
        ));
    }
    if let Some(d) = &r.document {
        document::check_record(d)?;
        if d.document.entity_id != m.entity_id {
            return Err(Error::invalid(
                "document.entity_id",
                "differs from the passage's entity_id",
            ));
        }
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
