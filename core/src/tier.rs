//! Storage tiers: hot, warm, archive — by priority, decay (1 − retention), recent use,
//! links to other memories, pinning and manual tags (Kybernesis; see docs/DESIGN.md). Search looks
//! through the hot and warm memories first; archive-tier ones only when asked or when those
//! have too little.

use crate::clock::{Millis, DAY_MS};
use crate::importance;
use crate::model::{Kind, Memory, Tier};

/// Hot: priority at least this …
const HOT_PRIORITY: f64 = 0.65;
/// … or decay score at most this …
const HOT_MAX_DECAY: f64 = 0.25;
/// … or accessed within this many days.
const HOT_ACCESS_DAYS: f64 = 3.0;
/// … or linked to at least this many memories.
const HOT_LINKS: usize = 6;
/// Warm: priority at least this, or accessed within this many days, or this many links, or
/// manual tags.
const WARM_PRIORITY: f64 = 0.3;
const WARM_ACCESS_DAYS: f64 = 21.0;
const WARM_LINKS: usize = 3;

/// The priority the thresholds weigh: a memory's importance as written, except for a
/// document's passage, whose written importance is the default every passage gets rather
/// than a priority anyone gave the document: its importance from its use ([`importance::of`],
/// the nine factors), which falls as the document lies unused, as Kybernesis's priority does.
/// An unused, neutral document drops below [`WARM_PRIORITY`] about 50 days after its last use.
pub fn priority(m: &Memory, now: Millis) -> f64 {
    match m.kind {
        Kind::Passage => importance::of(m, now),
        _ => m.importance,
    }
}

/// The tier of `m` at `now`, given its retention and how many memories it is linked to.
pub fn classify(m: &Memory, now: Millis, retention: f64, links: usize) -> Tier {
    let idle_days = (now - m.last_touch()) as f64 / DAY_MS as f64;
    let priority = priority(m, now);
    if m.pinned
        || priority >= HOT_PRIORITY
        || 1.0 - retention <= HOT_MAX_DECAY
        || idle_days <= HOT_ACCESS_DAYS
        || links >= HOT_LINKS
    {
        Tier::Hot
    } else if priority >= WARM_PRIORITY
        || idle_days <= WARM_ACCESS_DAYS
        || links >= WARM_LINKS
        || !m.manual_tags.is_empty()
    {
        Tier::Warm
    } else {
        Tier::Archive
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::decay::tests::memory;
    use crate::model::MemoryType;

    #[test]
    fn kybernesis_tier_criteria() {
        let day = |d: i64| d * DAY_MS;
        let mut m = memory(MemoryType::Event, 0);
        m.importance = 0.1;
        // Accessed within 3 days → hot; within 21 → warm; else archive (low priority, decayed).
        assert_eq!(classify(&m, day(2), 0.5, 0), Tier::Hot);
        assert_eq!(classify(&m, day(10), 0.5, 0), Tier::Warm);
        assert_eq!(classify(&m, day(30), 0.5, 0), Tier::Archive);
        // Low decay (1 − retention ≤ 0.25) → hot, whatever the age.
        assert_eq!(classify(&m, day(30), 0.75, 0), Tier::Hot);
        // Priority thresholds.
        m.importance = 0.65;
        assert_eq!(classify(&m, day(30), 0.5, 0), Tier::Hot);
        m.importance = 0.3;
        assert_eq!(classify(&m, day(30), 0.5, 0), Tier::Warm);
        // Manual tags keep a memory warm; pinning keeps it hot.
        m.importance = 0.1;
        m.manual_tags = vec!["kept".into()];
        assert_eq!(classify(&m, day(30), 0.5, 0), Tier::Warm);
        m.pinned = true;
        assert_eq!(classify(&m, day(30), 0.0, 0), Tier::Hot);
        // Links: 3 keep an idle, unimportant memory warm, 6 hot.
        m.pinned = false;
        m.manual_tags.clear();
        assert_eq!(classify(&m, day(30), 0.5, 2), Tier::Archive);
        assert_eq!(classify(&m, day(30), 0.5, 3), Tier::Warm);
        assert_eq!(classify(&m, day(30), 0.5, 6), Tier::Hot);
    }

    #[test]
    fn a_passage_s_priority_falls_with_disuse() {
        let day = |d: i64| d * DAY_MS;
        let mut m = memory(MemoryType::Context, 0);
        m.importance = 0.5;
        m.trust = 0.5;
        m.layer = crate::model::Layer::Semantic;
        m.kind = Kind::Passage;
        // Written importance 0.5 would keep it warm forever; its use says otherwise.
        assert_eq!(classify(&m, day(30), 0.1, 0), Tier::Warm);
        assert_eq!(classify(&m, day(60), 0.1, 0), Tier::Archive);
        m.kind = Kind::Fact;
        assert_eq!(classify(&m, day(60), 0.1, 0), Tier::Warm);
    }
}
