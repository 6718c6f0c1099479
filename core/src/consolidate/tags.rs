//! Auto-tag refresh (Kybernesis): memories in use that have had no automatic tags
//! for `UNTAGGED_DAYS` since they were made (seeded, imported, or from a host extractor that
//! gave no keywords) get the keywords the built-in extractor finds in their text, and their
//! source, as automatic tags: searchable words beside the text, and never untagged again.

use serde::{Deserialize, Serialize};

use super::STEP_BATCH;
use crate::clock::{Millis, DAY_MS};
use crate::error::Result;
use crate::extract;
use crate::store::{memories, Tx};

/// Days a memory may go untagged before the refresh tags it (Kybernesis: 7).
const UNTAGGED_DAYS: i64 = 7;

/// What auto-tag refresh did.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct TagsReport {
    /// Memories given automatic tags.
    pub tagged: usize,
    /// The step stopped at its bound.
    pub more: bool,
}

/// Runs the step at `now`.
pub(super) fn refresh(tx: &mut Tx, now: Millis) -> Result<TagsReport> {
    let made_by = now.saturating_sub(UNTAGGED_DAYS * DAY_MS);
    let mut rows = memories::untagged(tx.conn(), made_by, STEP_BATCH + 1)?;
    let mut report = TagsReport {
        more: rows.len() > STEP_BATCH,
        ..Default::default()
    };
    rows.truncate(STEP_BATCH);
    for (pk, mut m) in rows {
        let mut tags = extract::keywords(&m.content);
        let source = m.source.as_str().to_string();
        if !tags.contains(&source) {
            tags.push(source);
        }
        m.auto_tags = tags;
        tx.update(pk, &mut m)?;
        report.tagged += 1;
    }
    Ok(report)
}
