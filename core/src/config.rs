//! Engine configuration. Every threshold from the seeds lives here with its default, so a host
//! can override it (as JSON) and the engine honours it.

use serde::{Deserialize, Serialize};

/// How retention falls with time (engram's modes; the default reproduces Keyoku).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum RetentionMode {
    /// Keyoku: e^(−t/τ_eff), τ_eff = τ·(1 + 0.5·ln(1 + accesses)).
    #[default]
    Exponential,
    /// engram: exponential up to half a half-life, then linear with the slope there.
    Huber,
    /// engram: 0.3·max(0, 1 − t/(2·half-life)) + 0.7·exponential.
    Elastic,
}

/// Three-tier dedup thresholds (Keyoku seed: 1.0 hash, ≥ 0.95 skip, 0.85–0.95 merge-or-skip).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct DedupConfig {
    /// Turn semantic dedup off (exact-hash dedup always runs).
    pub enabled: bool,
    /// Cosine at or above which a new memory is a semantic duplicate and is skipped.
    pub skip_threshold: f64,
    /// Cosine at or above which (and below `skip_threshold`) a memory is merged or skipped.
    pub merge_threshold: f64,
}

impl Default for DedupConfig {
    fn default() -> Self {
        DedupConfig {
            enabled: true,
            skip_threshold: 0.95,
            merge_threshold: 0.85,
        }
    }
}

/// Decay and lifecycle thresholds (Keyoku seed).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct RetentionConfig {
    pub mode: RetentionMode,
    /// engram trust-weighted stability: τ / (1 + 2·(1 − trust)).
    pub trust_weighted: bool,
    /// ACTIVE → STALE below this retention.
    pub stale_below: f64,
    /// → ARCHIVED below this retention …
    pub archive_below: f64,
    /// … or after this many days STALE.
    pub stale_days_to_archive: f64,
    /// → DELETED (soft) below this retention.
    pub delete_below: f64,
    /// Soft-deleted rows are purged after this many days (Keyoku PurgeRetentionDays).
    pub purge_retention_days: f64,
}

impl Default for RetentionConfig {
    fn default() -> Self {
        RetentionConfig {
            mode: RetentionMode::Exponential,
            trust_weighted: false,
            stale_below: 0.3,
            archive_below: 0.1,
            stale_days_to_archive: 30.0,
            delete_below: 0.01,
            purge_retention_days: 90.0,
        }
    }
}

/// Recall (search) settings.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct RecallConfig {
    /// Share of the vector relevance in a memory's own relevance (the rest is BM25).
    pub vector_weight: f64,
    /// Candidates taken from each of the vector scan and FTS5 before ranking.
    pub candidates: usize,
    /// A memory lends this share of its relevance to the memories written just before and
    /// after it in the same session (an answer rarely repeats the words of its question).
    pub context_weight: f64,
    /// How many of the most relevant candidates lend relevance to their neighbours.
    pub context_parents: usize,
    /// Memories less relevant than this share of the best match are ranked only when fewer
    /// than `limit` are above it: relevance decides what qualifies, the mode's weights decide
    /// the order among comparably relevant memories.
    pub relevance_gate: f64,
    /// A hit more similar than this to a hit already kept is dropped (diversity).
    pub diversity_threshold: f64,
    /// Multiplier on the score of STALE memories.
    pub stale_penalty: f64,
    /// Entries in the LRU cache of recent search candidates (Keyoku: 500).
    pub cache_entries: usize,
}

impl Default for RecallConfig {
    fn default() -> Self {
        // vector_weight, context_weight and relevance_gate were tuned on the LoCoMo dev split;
        // 50 candidates per source give the same LoCoMo recall as 100 at lower cost.
        RecallConfig {
            vector_weight: 0.5,
            candidates: 50,
            context_weight: 0.7,
            context_parents: 30,
            relevance_gate: 0.8,
            diversity_threshold: 0.9,
            stale_penalty: 0.7,
            cache_entries: 500,
        }
    }
}

/// All engine settings.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
#[serde(default, deny_unknown_fields)]
pub struct Config {
    pub dedup: DedupConfig,
    pub retention: RetentionConfig,
    pub recall: RecallConfig,
    pub conflicts: crate::conflict::ConflictConfig,
    pub heartbeat: crate::heartbeat::HeartbeatConfig,
}

impl Config {
    /// Checks that thresholds are in range and ordered.
    pub fn validate(&self) -> crate::Result<()> {
        use crate::error::Error;
        let unit = |name: &str, v: f64| {
            if v.is_finite() && (0.0..=1.0).contains(&v) {
                Ok(())
            } else {
                Err(Error::invalid(
                    format!("config.{name}"),
                    format!("{v} is not between 0 and 1"),
                ))
            }
        };
        unit("dedup.skip_threshold", self.dedup.skip_threshold)?;
        unit("dedup.merge_threshold", self.dedup.merge_threshold)?;
        if self.dedup.merge_threshold > self.dedup.skip_threshold {
            return Err(Error::invalid(
                "config.dedup",
                "merge_threshold must not exceed skip_threshold",
            ));
        }
        let r = &self.retention;
        unit("retention.stale_below", r.stale_below)?;
        unit("retention.archive_below", r.archive_below)?;
        unit("retention.delete_below", r.delete_below)?;
        if !(r.delete_below <= r.archive_below && r.archive_below <= r.stale_below) {
            return Err(Error::invalid(
                "config.retention",
                "need delete_below ≤ archive_below ≤ stale_below",
            ));
        }
        for (name, v) in [
            ("stale_days_to_archive", r.stale_days_to_archive),
            ("purge_retention_days", r.purge_retention_days),
        ] {
            if !v.is_finite() || v < 0.0 {
                return Err(Error::invalid(
                    format!("config.retention.{name}"),
                    format!("{v} is not a non-negative number of days"),
                ));
            }
        }
        unit("recall.vector_weight", self.recall.vector_weight)?;
        unit("recall.context_weight", self.recall.context_weight)?;
        unit("recall.relevance_gate", self.recall.relevance_gate)?;
        if self.recall.context_parents > 1000 {
            return Err(Error::invalid(
                "config.recall.context_parents",
                "must be at most 1000",
            ));
        }
        unit(
            "recall.diversity_threshold",
            self.recall.diversity_threshold,
        )?;
        unit("recall.stale_penalty", self.recall.stale_penalty)?;
        unit("conflicts.min_similarity", self.conflicts.min_similarity)?;
        if self.recall.candidates == 0 || self.recall.candidates > 10_000 {
            return Err(Error::invalid(
                "config.recall.candidates",
                "must be between 1 and 10000",
            ));
        }
        if self.recall.cache_entries > 100_000 {
            return Err(Error::invalid(
                "config.recall.cache_entries",
                "must be at most 100000 (0 turns the cache off)",
            ));
        }
        self.heartbeat.validate()
    }
}
