//! Re-quantisation by retention (engram; see docs/DESIGN.md): a memory's vector is stored
//! with fewer bits as its retention falls (> 0.8 f32, > 0.5 int8, > 0.2 int4, else int2), so
//! what an owner has let fade takes a quarter to a fifteenth of the room. Search weighs a
//! coarse vector's cosine down ([`crate::embed::Precision::penalty`]).
//!
//! Precision only ever falls: bits once dropped cannot be recovered, so a memory that comes
//! back into use keeps what it has (its cosine to itself stays within a few hundredths at 4
//! bits), until its content changes and it is embedded again at full precision. Memories decay
//! leaves alone (pinned, schedules, semantic and procedural ones) keep full precision.
//!
//! No cursor: each vector carries the time its retention may next cross into a coarser band
//! (`requantise_at`; a vector just stored is looked at by the next run). A run looks at those
//! due, `STEP_BATCH` at most, the longest due first, and sets each one's next time, so a run
//! after one that reported no more work finds nothing due until time passes.

use serde::{Deserialize, Serialize};

use super::STEP_BATCH;
use crate::clock::{Millis, DAY_MS};
use crate::decay;
use crate::embed::Precision;
use crate::error::Result;
use crate::store::{memories, Tx};

/// How often a memory decay leaves alone is looked at again (it may be unpinned).
const EXEMPT_RECHECK_MS: Millis = 7 * DAY_MS;

/// What re-quantisation did.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct QuantiseReport {
    /// Vectors looked at (their memories' retention may have crossed into a coarser band).
    pub examined: usize,
    /// Vectors now stored at each precision that were stored finer.
    pub to_int8: usize,
    /// Vectors now stored at 4 bits per element.
    pub to_int4: usize,
    /// Vectors now stored at 2 bits per element.
    pub to_int2: usize,
    /// Bytes the vectors stored coarser no longer take.
    pub bytes_saved: u64,
    /// The step stopped at its bound (more are due: the next run goes on).
    pub more: bool,
}

/// Runs the step.
pub(super) fn requantise(tx: &mut Tx) -> Result<QuantiseReport> {
    let (now, retention) = (tx.now()?, tx.retention());
    let mut rows = memories::due_for_requantising(tx.conn(), now, STEP_BATCH + 1)?;
    let mut report = QuantiseReport {
        more: rows.len() > STEP_BATCH,
        ..Default::default()
    };
    rows.truncate(STEP_BATCH);
    let dim = tx.embedder().dimension();
    for (pk, owner) in &rows {
        report.examined += 1;
        let Some(m) = memories::by_pk(tx.conn(), owner, *pk)? else {
            continue;
        };
        // A vector of another dimension (a damaged row) is left for `reembed` to replace.
        let Some((v, was)) =
            memories::embedding(tx.conn(), *pk, dim)?.filter(|(v, _)| v.len() == dim)
        else {
            memories::set_requantise_at(tx.conn(), *pk, None)?;
            continue;
        };
        let exempt = decay::is_exempt(&m);
        let due = if exempt {
            Precision::F32
        } else {
            Precision::for_retention(decay::retention(&m, now, retention))
        };
        let now_at = if due > was {
            tx.store_vector(*pk, &m, &v, due)?;
            report.bytes_saved += (was.stored_len(dim) - due.stored_len(dim)) as u64;
            match due {
                Precision::Int8 => report.to_int8 += 1,
                Precision::Int4 => report.to_int4 += 1,
                _ => report.to_int2 += 1,
            }
            due
        } else {
            was
        };
        // When to look again: when retention may leave this precision's band (never below
        // 2 bits), a week on for an exempt memory; always after now, so a second run at the
        // same time finds it done.
        let next = match now_at.floor() {
            None => None,
            Some(_) if exempt => Some(now + EXEMPT_RECHECK_MS),
            Some(floor) => decay::falls_below(&m, floor, retention).map(|t| t.max(now + 1)),
        };
        memories::set_requantise_at(tx.conn(), *pk, next)?;
    }
    Ok(report)
}
