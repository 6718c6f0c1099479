//! Engine configuration: the settings of each feature, gathered so a host can override any of
//! them (as JSON) and the engine honours it. Each feature owns its settings type and defaults.

use serde::{Deserialize, Serialize};

use crate::conflict::ConflictConfig;
use crate::consolidate::ConsolidateConfig;
use crate::decay::RetentionConfig;
use crate::dedup::DedupConfig;
use crate::heartbeat::HeartbeatConfig;
use crate::recall::RecallConfig;

/// All engine settings.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default, schemars::JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct Config {
    /// Three-tier dedup on the write path.
    pub dedup: DedupConfig,
    /// Decay and the lifecycle thresholds.
    pub retention: RetentionConfig,
    /// Search.
    pub recall: RecallConfig,
    /// Conflict detection on the write path.
    pub conflicts: ConflictConfig,
    /// The heartbeat's defaults (each overridable per check).
    pub heartbeat: HeartbeatConfig,
    /// Consolidation: stale edges, auto tags, clusters, pruning.
    pub consolidation: ConsolidateConfig,
}

impl Config {
    /// Checks that thresholds are in range and ordered.
    pub fn validate(&self) -> crate::Result<()> {
        use crate::error::Error;
        let unit = |name: &str, v: f64| crate::field::Unit::parse(&format!("config.{name}"), v);
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
        self.consolidation.validate()?;
        unit("recall.vector_weight", self.recall.vector_weight)?;
        unit("recall.context_weight", self.recall.context_weight)?;
        unit("recall.link_weight", self.recall.link_weight)?;
        unit("recall.relevance_gate", self.recall.relevance_gate)?;
        unit("recall.min_relevance", self.recall.min_relevance)?;
        unit("recall.archive_relevance", self.recall.archive_relevance)?;
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
