//! Size-bounded pruning (koshi): an owner holding more than `max_memories` live memories has
//! its least useful ones — lowest feedback × recency, the ranking's own factors — moved to
//! ARCHIVED: out of ordinary searches, still found by archive searches, never deleted, and
//! back in use when accessed. Pinned memories are never pruned, and neither are a document's
//! passages (a document is kept or forgotten whole; they do not count toward the bound).

use serde::{Deserialize, Serialize};

use super::{ConsolidateConfig, STEP_BATCH};
use crate::clock::{Millis, DAY_MS};
use crate::error::Result;
use crate::model::State;
use crate::recall::rank;
use crate::store::{memories, Tx};

/// What pruning did.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct PruneReport {
    /// Owners holding more live memories than `max_memories`.
    pub owners_over: usize,
    /// Memories moved to ARCHIVED.
    pub archived: usize,
    /// The step stopped at its bound.
    pub more: bool,
}

/// Runs the step at `now`.
pub(super) fn prune(tx: &mut Tx, cfg: &ConsolidateConfig, now: Millis) -> Result<PruneReport> {
    let mut report = PruneReport::default();
    let Some(max) = cfg.max_memories else {
        return Ok(report);
    };
    let max = max as usize;
    for (owner, live) in memories::live_counts(tx.conn())? {
        if live <= max {
            continue;
        }
        report.owners_over += 1;
        let share = (live as f64 * cfg.prune_percent / 100.0).ceil() as usize;
        let wanted = (live - max).max(share);
        let budget = STEP_BATCH - report.archived;
        if wanted > budget {
            report.more = true;
        }
        let mut rows = memories::prunable(tx.conn(), &owner)?;
        // Least useful first; the older key first on a tie.
        let usefulness = |r: &memories::Prunable| {
            let days = now.saturating_sub(r.last_touch) as f64 / DAY_MS as f64;
            rank::feedback_multiplier(r.feedback) * rank::recency(days)
        };
        crate::order::sort_by(&mut rows, |a, b| {
            usefulness(a)
                .total_cmp(&usefulness(b))
                .then(a.pk.cmp(&b.pk))
        });
        let chosen: Vec<i64> = rows.iter().take(wanted.min(budget)).map(|r| r.pk).collect();
        for (pk, mut m) in memories::by_pks(tx.conn(), &owner, &chosen)? {
            m.state = State::Archived;
            m.state_changed_at = now;
            tx.update(pk, &mut m)?;
            report.archived += 1;
        }
        if report.archived >= STEP_BATCH {
            break;
        }
    }
    Ok(report)
}
