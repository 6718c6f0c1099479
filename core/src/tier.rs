//! Storage tiers (Kybernesis): hot, warm, archive. Kybernesis "priority" is Mnemo's importance
//! and its "decay score" is 1 − retention.

use crate::clock::{Millis, DAY_MS};
use crate::model::{Memory, Tier};

/// Hot: priority at least this …
const HOT_PRIORITY: f64 = 0.65;
/// … or decay score at most this …
const HOT_MAX_DECAY: f64 = 0.25;
/// … or accessed within this many days.
const HOT_ACCESS_DAYS: f64 = 3.0;
/// Warm: priority at least this, or accessed within this many days, or manual tags.
const WARM_PRIORITY: f64 = 0.3;
const WARM_ACCESS_DAYS: f64 = 21.0;

/// The tier of `m` at `now`, given its retention.
pub fn classify(m: &Memory, now: Millis, retention: f64) -> Tier {
    let idle_days = (now - m.last_touch()) as f64 / DAY_MS as f64;
    if m.pinned
        || m.importance >= HOT_PRIORITY
        || 1.0 - retention <= HOT_MAX_DECAY
        || idle_days <= HOT_ACCESS_DAYS
    {
        Tier::Hot
    } else if m.importance >= WARM_PRIORITY
        || idle_days <= WARM_ACCESS_DAYS
        || !m.manual_tags.is_empty()
    {
        Tier::Warm
    } else {
        Tier::Archive
    }
}
