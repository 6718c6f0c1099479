//! The maintenance pass: decay transitions, layer promotion and purges, applied to the rows
//! whose due time has come — and only those, so it stays cheap on a large store. Each batch is
//! one transaction; running the pass twice at the same time does nothing the second time.

use serde::{Deserialize, Serialize};

use crate::clock::DAY_MS;
use crate::decay;
use crate::error::Result;
use crate::model::{Memory, State};
use crate::store::{memories, Tx};

/// Rows the pass reads per batch (one transaction each).
pub(crate) const BATCH: usize = 1000;

/// What one maintenance pass did.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct MaintainReport {
    /// Rows whose due time had come and were looked at.
    pub examined: usize,
    pub to_stale: usize,
    pub to_archived: usize,
    pub to_deleted: usize,
    pub promoted: usize,
    pub purged: usize,
}

/// Applies decay to the next batch of due rows; false when none were due.
pub(crate) fn batch(tx: &mut Tx, report: &mut MaintainReport) -> Result<bool> {
    let now = tx.now()?;
    let rows = memories::due(tx.conn(), now, BATCH)?;
    if rows.is_empty() {
        return Ok(false);
    }
    report.examined += rows.len();
    let purge_after = (tx.retention().purge_retention_days * DAY_MS as f64) as i64;
    for (pk, mut m) in rows {
        if m.state == State::Deleted && m.deleted_at.is_some_and(|d| now - d >= purge_after) {
            tx.purge(pk, &m.entity_id)?;
            report.purged += 1;
            continue;
        }
        step(&mut m, now, tx.retention(), report);
        tx.update(pk, &mut m)?;
    }
    Ok(true)
}

/// Moves one memory to the state and layer decay gives it at `now`, counting what changed.
fn step(m: &mut Memory, now: i64, cfg: &decay::RetentionConfig, report: &mut MaintainReport) {
    let (state, since) = decay::state_at(m, now, cfg);
    if decay::promoted_layer(m, now) != m.layer {
        report.promoted += 1;
    }
    if state != m.state {
        match state {
            State::Stale => report.to_stale += 1,
            State::Archived => report.to_archived += 1,
            State::Deleted => {
                report.to_deleted += 1;
                m.deleted_at = Some(since);
            }
            State::Active => {}
        }
        m.state = state;
        m.state_changed_at = since;
    }
}
