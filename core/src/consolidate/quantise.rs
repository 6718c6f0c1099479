//! Re-quantisation by retention (engram; see docs/DESIGN.md): a memory's vector is stored
//! with fewer bits as its retention falls (> 0.8 f32, > 0.5 int8, > 0.2 int4, else int2), so
//! what an owner has let fade takes a quarter to a fifteenth of the room. Search weighs a
//! coarse vector's cosine down ([`crate::embed::Precision::penalty`]).
//!
//! Precision only ever falls: bits once dropped cannot be recovered, so a memory that comes
//! back into use keeps what it has (its cosine to itself stays within a few hundredths at 4
//! bits), until its content changes and it is embedded again at full precision. Memories decay
//! leaves alone (pinned, schedules, semantic and procedural ones) keep full precision.
//! Memories not deleted are examined in key order from a cursor, `STEP_BATCH` per run; those
//! already at 2 bits are skipped.

use serde::{Deserialize, Serialize};

use super::next_batch;
use crate::decay;
use crate::embed::Precision;
use crate::error::Result;
use crate::store::{memories, Tx};

/// Where the next run starts (meta table): the last key examined, 0 for the beginning.
const CURSOR_KEY: &str = "consolidate_quantise_cursor";

/// What re-quantisation did.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct QuantiseReport {
    /// Memories looked at.
    pub examined: usize,
    /// Vectors now stored at each precision that were stored finer.
    pub to_int8: usize,
    pub to_int4: usize,
    pub to_int2: usize,
    /// Bytes the vectors stored coarser no longer take.
    pub bytes_saved: u64,
    /// The step stopped at its bound (the next run goes on from there).
    pub more: bool,
}

/// Runs the step.
pub(super) fn requantise(tx: &mut Tx) -> Result<QuantiseReport> {
    let (rows, more) = next_batch(tx, CURSOR_KEY, memories::coarsenable_after)?;
    let mut report = QuantiseReport {
        more,
        ..Default::default()
    };
    let (now, retention) = (tx.now()?, tx.retention());
    let dim = tx.embedder().dimension();
    for (pk, owner) in &rows {
        report.examined += 1;
        let Some(m) = memories::by_pk(tx.conn(), owner, *pk)? else {
            continue;
        };
        // A vector of another dimension (a damaged row) is left for `reembed` to replace.
        let Some((v, now_at)) =
            memories::embedding(tx.conn(), *pk, dim)?.filter(|(v, _)| v.len() == dim)
        else {
            continue;
        };
        let due = if decay::is_exempt(&m) {
            Precision::F32
        } else {
            Precision::for_retention(decay::retention(&m, now, retention))
        };
        if due <= now_at {
            continue;
        }
        tx.store_vector(*pk, &m, &v, due)?;
        report.bytes_saved += (now_at.stored_len(v.len()) - due.stored_len(v.len())) as u64;
        match due {
            Precision::Int8 => report.to_int8 += 1,
            Precision::Int4 => report.to_int4 += 1,
            _ => report.to_int2 += 1,
        }
    }
    Ok(report)
}
