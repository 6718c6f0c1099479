//! Stale-edge cleanup: a relationship is only as good as the memories stating it. Evidence
//! from superseded and forgotten memories is withdrawn (a relationship left with none goes), and
//! relationships not stated for `stale_edge_days` whose mean confidence is at most
//! `stale_edge_confidence` are removed (Kybernesis's sleep cycle: 7 days, 0.35).

use rusqlite::params;
use serde::{Deserialize, Serialize};

use super::{ConsolidateConfig, STEP_BATCH};
use crate::clock::{Millis, DAY_MS};
use crate::error::Result;
use crate::graph;
use crate::store::Tx;

/// What stale-edge cleanup did.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct EdgesReport {
    /// Evidence rows of superseded and forgotten memories withdrawn.
    pub evidence_withdrawn: usize,
    /// Relationships removed: left without evidence, or stale and weak.
    pub relationships_removed: usize,
    /// The step stopped at its bound.
    pub more: bool,
}

/// Runs the step at `now`.
pub(super) fn clean(tx: &mut Tx, cfg: &ConsolidateConfig, now: Millis) -> Result<EdgesReport> {
    let conn = tx.conn();
    let mut report = EdgesReport::default();
    // Superseded and forgotten memories that still state relationships, at most one batch.
    let stating: Vec<i64> = conn
        .prepare_cached(
            "SELECT DISTINCT e.memory_pk FROM relationship_evidence e \
             JOIN memories m ON m.pk = e.memory_pk \
             WHERE m.status = 'superseded' OR m.state = 'DELETED' ORDER BY 1 LIMIT ?1",
        )?
        .query_map([STEP_BATCH as i64 + 1], |r| r.get(0))?
        .collect::<rusqlite::Result<_>>()?;
    report.more = stating.len() > STEP_BATCH;
    for memory in stating.iter().take(STEP_BATCH) {
        report.evidence_withdrawn += graph::withdraw_evidence(conn, *memory)?;
    }
    // Relationships left without evidence, and stale weak ones.
    let stale_before = now.saturating_sub((cfg.stale_edge_days * DAY_MS as f64) as Millis);
    let gone: Vec<i64> = conn
        .prepare_cached(
            "SELECT pk FROM relationships WHERE evidence <= 0 \
             OR (last_seen <= ?1 AND confidence_sum <= ?2 * evidence) ORDER BY pk LIMIT ?3",
        )?
        .query_map(
            params![
                stale_before,
                cfg.stale_edge_confidence,
                STEP_BATCH as i64 + 1
            ],
            |r| r.get(0),
        )?
        .collect::<rusqlite::Result<_>>()?;
    report.more |= gone.len() > STEP_BATCH;
    for pk in gone.iter().take(STEP_BATCH) {
        conn.prepare_cached("DELETE FROM relationships WHERE pk = ?1")?
            .execute([pk])?;
        report.relationships_removed += 1;
    }
    Ok(report)
}
