//! Checking one input and building the row and vector it would be stored as.

use super::Input;
use crate::clock::check_record_time;
use crate::error::{Error, Result};
use crate::field::{Sentiment, SourceRef, Unit};
use crate::graph;
use crate::graph::{EntityMention, RelationMention};
use crate::model::*;
use crate::store::View;
use crate::text;

/// Longest `cron_tag`, in characters.
pub(crate) const MAX_CRON_TAG_CHARS: usize = 128;

/// A checked input, ready to store.
pub(crate) struct Prepared {
    pub memory: Memory,
    pub vector: Vec<f32>,
    /// Whether the caller gave the vector (a merge then averages vectors instead of
    /// embedding the merged text).
    pub supplied_vector: bool,
    pub entities: Vec<EntityMention>,
    pub relationships: Vec<RelationMention>,
    /// Whether to look for conflicts.
    pub conflicts: bool,
}

/// Checks one input and builds its memory row (stamped with the view's time) and vector.
pub(crate) fn prepare(view: &View, input: Input) -> Result<Prepared> {
    let Input {
        memory: n,
        auto_tags,
        entities,
        relationships,
        conflicts,
    } = input;
    graph::check(&entities, &relationships)?;
    if n.kind == Some(Kind::Passage) {
        return Err(Error::invalid(
            "kind",
            "passage is the kind of a document's passages, which only `ingest` writes",
        ));
    }
    if n.layer == Some(Layer::Codebase) {
        return Err(Error::invalid(
            "layer",
            "codebase is the layer of source files' memories, which only `ingest_code` writes",
        ));
    }
    if let Some(c) = &n.cron_tag {
        if !c.starts_with("cron:") || c.chars().count() > MAX_CRON_TAG_CHARS {
            return Err(Error::invalid(
                "cron_tag",
                format!("must start with \"cron:\" and be at most {MAX_CRON_TAG_CHARS} characters"),
            ));
        }
    }
    if let Some(t) = n.expires_at {
        check_record_time("expires_at", t)?;
    }
    let manual_tags = n.tags.into_vec();
    let auto_tags: Vec<String> = auto_tags
        .into_iter()
        .filter(|t| !manual_tags.contains(t))
        .collect();
    let vector = view.memory_vector(&n.content, n.vector.as_deref())?;
    let source = n.source.unwrap_or(Source::Agent);
    let content = n.content.trim().to_string();
    let (team_id, visibility) = crate::team::write_scope(
        view,
        &n.entity_id,
        n.agent_id.as_deref(),
        n.team_id.as_deref(),
        n.visibility,
    )?;
    let now = view.now()?;
    let created_at = match n.created_at {
        Some(t) => {
            check_record_time("created_at", t)?;
            if t > now {
                return Err(Error::invalid("created_at", "is after now"));
            }
            t
        }
        None => now,
    };
    Ok(Prepared {
        memory: Memory {
            id: String::new(),
            entity_id: n.entity_id.into(),
            agent_id: n.agent_id.map(Into::into),
            session_id: n.session_id.map(Into::into),
            team_id,
            visibility,
            content_hash: text::content_hash(&content),
            content,
            memory_type: n.memory_type.unwrap_or(MemoryType::Event),
            kind: n.kind.unwrap_or(Kind::Fact),
            layer: n.layer.unwrap_or(Layer::Working),
            state: State::Active,
            status: Status::Active,
            tier: Tier::Hot,
            importance: n.importance.map_or(0.5, Unit::get),
            confidence: n.confidence.map_or(1.0, Unit::get),
            sentiment: n.sentiment.map_or(0.0, Sentiment::get),
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
            source_ref: n.source_ref.map(SourceRef::into_string),
            surprise: None,
            merged_into: None,
            created_at,
            updated_at: now,
            state_changed_at: now,
            deleted_at: None,
            layer_set_at: None,
            confirmations: 0,
        },
        supplied_vector: n.vector.is_some(),
        vector,
        entities,
        relationships,
        conflicts,
    })
}
