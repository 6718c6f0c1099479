//! The maintenance pass: decay transitions, layer promotion and purges, applied to the rows
//! whose due time has come — and only those, so it stays cheap on a large store. Each batch is
//! one transaction; running the pass twice at the same time does nothing the second time.
//! The first pass after a store is opened, and then one a day, first checks the file is whole
//! (SQLite's `quick_check`), so a damaged store is reported instead of maintained. The check
//! reads every page and FTS5's whole index, so it is not run on every pass: at 100,000
//! memories it took most of a consolidation run.

use rusqlite::{ffi, Connection};
use serde::{Deserialize, Serialize};

use crate::clock::{Millis, DAY_MS};
use crate::consolidate::Consolidation;
use crate::decay;
use crate::error::{Error, Result};
use crate::model::{Memory, State};
use crate::store::{memories, Tx};

/// Rows the pass reads per batch (one transaction each).
pub(crate) const BATCH: usize = 1000;

/// What one maintenance pass did.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct MaintainReport {
    /// Rows whose due time had come and were looked at.
    pub examined: usize,
    /// Memories that turned STALE.
    pub to_stale: usize,
    /// Memories that were ARCHIVED.
    pub to_archived: usize,
    /// Memories that were DELETED (expired or faded out).
    pub to_deleted: usize,
    /// Memories promoted to a higher layer.
    pub promoted: usize,
    /// Deleted memories removed for good after the retention period.
    pub purged: usize,
    /// What consolidation did, when the pass ran it (`consolidate`, or `maintain` once its
    /// cadence came round).
    pub consolidation: Option<Consolidation>,
}

/// Problems `quick_check` lists at most (the first few say enough).
const CHECK_PROBLEMS: usize = 5;

/// How long a check that found the file whole holds for the passes after it.
const CHECK_EVERY: Millis = DAY_MS;

/// Whether a pass at `now` checks the store is whole ([`check_intact`]): unless a check at
/// `last` found it so less than [`CHECK_EVERY`] ago.
pub(crate) fn check_due(last: Option<Millis>, now: Millis) -> bool {
    !last.is_some_and(|at| (0..CHECK_EVERY).contains(&now.saturating_sub(at)))
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

/// Fails with a storage error (SQLITE_CORRUPT) when SQLite's `quick_check` finds the file
/// damaged: every page is read, so corruption a pass would not touch is found too.
pub(crate) fn check_intact(conn: &Connection) -> Result<()> {
    let found: rusqlite::Result<Vec<String>> = conn
        .prepare(&format!("PRAGMA quick_check({CHECK_PROBLEMS})"))
        .and_then(|mut s| s.query_map([], |r| r.get(0))?.collect());
    let problems = match found {
        Ok(rows) if rows.len() == 1 && rows[0] == "ok" => return Ok(()),
        Ok(rows) => rows.join("; "),
        // A page so damaged the check itself stops is the same finding.
        Err(e) => e.to_string(),
    };
    Err(Error::Storage(rusqlite::Error::SqliteFailure(
        ffi::Error::new(ffi::SQLITE_CORRUPT),
        Some(format!(
            "the store file is damaged (SQLite's quick_check: {problems}); nothing was maintained. \
             Restore the file from a backup, or salvage what still reads with the sqlite3 \
             shell's `.recover` into a new file"
        )),
    )))
}
