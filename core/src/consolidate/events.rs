//! Pruning old events (engram's "prune old access logs and events"): the heartbeat's acts and
//! the recorded messages older than `heartbeat.keep_days`, across the store. Recording drops
//! an owner's old ones as it adds new ones; this step reaches the owners who stopped talking.
//! Mnemo keeps no access log (a memory counts its uses and keeps the last), and status
//! history and resolved conflicts are the audit trail of memories still kept, so they stay.

use serde::{Deserialize, Serialize};

use super::STEP_BATCH;
use crate::clock::Millis;
use crate::error::Result;
use crate::heartbeat::{self, HeartbeatConfig};
use crate::store::Tx;

/// What pruning old events did.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct EventsReport {
    /// Heartbeat acts dropped (older than `heartbeat.keep_days`).
    pub acts: usize,
    /// Recorded messages dropped (older than `heartbeat.keep_days`).
    pub messages: usize,
    /// The step stopped at its bound with old events left.
    pub more: bool,
}

/// Runs the step at `now`.
pub(super) fn prune(tx: &mut Tx, cfg: &HeartbeatConfig, now: Millis) -> Result<EventsReport> {
    let (acts, messages, more) =
        heartbeat::prune_store(tx.conn(), now - cfg.keep_ms(), STEP_BATCH)?;
    Ok(EventsReport {
        acts,
        messages,
        more,
    })
}
