//! Tiering (Kybernesis; see docs/DESIGN.md): every memory in use gets the tier its importance, retention,
//! recent use and links give it now. Writes and accesses tier a memory as they store it; this
//! step catches the ones time moved (idle for 3 or 21 days, decayed) or links moved without a
//! write. Search looks through hot and warm memories first (see `recall`).
//!
//! A document's passages are tiered together, as one memory: all take the hottest tier any of
//! them has on its own (a search or a read raises them all at once, in `store::Tx`).
//!
//! Memories are examined in key order from a cursor kept in the store, `STEP_BATCH` per run.

use serde::{Deserialize, Serialize};

use super::next_batch;
use crate::decay;
use crate::document;
use crate::error::Result;
use crate::links;
use crate::model::{Kind, Tier};
use crate::store::{memories, Tx};

/// Where the next run starts (meta table): the last key examined, 0 for the beginning.
const CURSOR_KEY: &str = "consolidate_tier_cursor";

/// What tiering did.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct TiersReport {
    /// Memories looked at.
    pub examined: usize,
    /// Memories moved to each tier.
    pub to_hot: usize,
    /// Memories moved to the warm tier.
    pub to_warm: usize,
    /// Memories moved to the archive tier.
    pub to_archive: usize,
    /// The step stopped at its bound (the next run goes on from there).
    pub more: bool,
}

/// Runs the step.
pub(super) fn retier(tx: &mut Tx) -> Result<TiersReport> {
    let (rows, more) = next_batch(tx, CURSOR_KEY)?;
    let mut report = TiersReport {
        more,
        ..Default::default()
    };
    let (now, retention) = (tx.now()?, tx.retention());
    for (pk, owner) in &rows {
        report.examined += 1;
        let Some(mut m) = memories::by_pk(tx.conn(), owner, *pk)? else {
            continue;
        };
        if m.kind == Kind::Passage {
            // A document is tiered as one memory, when its first passage comes up.
            if let Some((document, 0)) = document::sql::place_of(tx.conn(), *pk)? {
                in_step(tx, document, &mut report)?;
            }
            continue;
        }
        let mut now_tiered = m.clone();
        let conn = tx.conn();
        decay::refresh(&mut now_tiered, now, retention, || links::count(conn, *pk))?;
        if now_tiered.tier == m.tier {
            continue;
        }
        report.moved(now_tiered.tier);
        tx.update(*pk, &mut m)?;
    }
    Ok(report)
}

/// Tiers a document's passages together: each takes the hottest tier any of them has on its
/// own (one used yesterday keeps the whole document hot).
fn in_step(tx: &mut Tx, document: i64, report: &mut TiersReport) -> Result<()> {
    let (now, retention) = (tx.now()?, tx.retention());
    let mut passages = document::sql::passage_memories(tx.conn(), document)?;
    let mut tier = Tier::Archive;
    for (pk, m) in &passages {
        let mut own = m.clone();
        let conn = tx.conn();
        decay::refresh(&mut own, now, retention, || links::count(conn, *pk))?;
        tier = tier.min(own.tier);
    }
    for (pk, m) in &mut passages {
        if m.tier != tier {
            report.moved(tier);
            tx.set_tier(*pk, m, tier)?;
        }
    }
    Ok(())
}

impl TiersReport {
    /// Counts a memory moved to `tier`.
    fn moved(&mut self, tier: Tier) {
        match tier {
            Tier::Hot => self.to_hot += 1,
            Tier::Warm => self.to_warm += 1,
            Tier::Archive => self.to_archive += 1,
        }
    }
}
