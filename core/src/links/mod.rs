//! Links between memories, of two kinds in one table (`memory_links`, a row per
//! pair and kind, lower key first):
//!
//! - **co-recall** (koshi v2's Hebbian links; this module): memories a search returns
//!   together grow a link. Every search pairs its top [`CO_RECALLED`] hits, each pair gaining
//!   [`GAIN`] strength (at most [`MAX_STRENGTH`]); a link counts as formed from its
//!   [`FORMED_AT`]th co-recall. Consolidation decays every link by [`DAILY_DECAY`] per whole
//!   day of engine time (one cycle at its daily cadence) and removes links weaker than
//!   [`REMOVE_BELOW`], so a pair returned together once fades within a day and a habit stays.
//!   Searches record co-recalls as they record accesses (written with the next transaction);
//!   reads show a strength decayed to the time they run, as consolidation will store it.
//! - **shared content** (Kybernesis's relationship detection; [`shared`]): memories naming the
//!   same entities or carrying the same tags, found by consolidation.
//!
//! `related` ([`related`]) reads both; exports carry co-recall links ([`portable`]), the
//! others are found again.

mod portable;
mod related;
pub(crate) mod shared;

use rusqlite::{params, Connection};
use serde::{Deserialize, Serialize};

use crate::clock::{Millis, DAY_MS};
use crate::error::{Error, Result};
use crate::order::CollectOrdered;

pub(crate) use portable::{check, export, restore};
pub use portable::{LinkKind, LinkRecord};
pub(crate) use related::related;
pub use related::{RelatedMemory, RelatedRequest};

/// Related memories answered when a request gives no `limit`.
pub const DEFAULT_RELATED: usize = 10;
/// How many of a search's top hits count as recalled together (10 pairs at most).
pub(crate) const CO_RECALLED: usize = 5;
/// Co-recalls after which a link is formed (shown by `related`, lends relevance).
pub const FORMED_AT: i64 = 3;
/// Strength one co-recall adds.
pub const GAIN: f64 = 0.1;
/// Strength a link grows to at most.
pub const MAX_STRENGTH: f64 = 1.0;
/// Factor a link's strength decays by per whole day (koshi: ×0.95 per cycle).
pub const DAILY_DECAY: f64 = 0.95;
/// Links weaker than this are removed.
pub const REMOVE_BELOW: f64 = 0.1;
/// The `kind` of co-recall links in the `memory_links` table …
const RECALLED: &str = "recalled";
/// … and of shared-content links.
const SHARED: &str = "shared";

/// Every pair (lower key first) among the first [`CO_RECALLED`] of `pks`, in order.
pub(crate) fn pairs(pks: &[i64]) -> Vec<(i64, i64)> {
    let top = &pks[..pks.len().min(CO_RECALLED)];
    let mut out = Vec::new();
    for (i, a) in top.iter().enumerate() {
        for b in &top[i + 1..] {
            if a != b {
                out.push((*a.min(b), *a.max(b)));
            }
        }
    }
    out
}

/// `strength` after `days` whole days of decay, multiplied day by day (the same bits on
/// every target); it stops once below [`REMOVE_BELOW`], where the link goes anyway.
pub fn decayed(strength: f64, days: i64) -> f64 {
    let mut s = strength;
    for _ in 0..days.max(0) {
        if s < REMOVE_BELOW {
            break;
        }
        s *= DAILY_DECAY;
    }
    s
}

/// Whole days from `since` to `now`.
fn days_between(since: Millis, now: Millis) -> i64 {
    now.saturating_sub(since).max(0) / DAY_MS
}

/// Writes co-recalls, each `(a, b, count, at)`: `count` co-recalls of memories `a` < `b`, the
/// last at `at` (nothing for a pair either of whose memories is gone). One statement for all.
pub(crate) fn record(conn: &Connection, co_recalls: &[(i64, i64, i64, Millis)]) -> Result<()> {
    if co_recalls.is_empty() {
        return Ok(());
    }
    let list = serde_json::to_string(co_recalls)
        .map_err(|e| Error::bug(format!("co-recalls do not serialise: {e}")))?;
    conn.prepare_cached(
        "INSERT INTO memory_links (a, b, kind, count, strength, last_at, decayed_at) \
         SELECT p.value ->> 0, p.value ->> 1, ?2, p.value ->> 2, min(?3, (p.value ->> 2) * ?4), \
                p.value ->> 3, p.value ->> 3 \
         FROM json_each(?1) p \
         WHERE EXISTS (SELECT 1 FROM memories WHERE pk = p.value ->> 0) \
           AND EXISTS (SELECT 1 FROM memories WHERE pk = p.value ->> 1) \
         ON CONFLICT (a, b, kind) DO UPDATE SET count = count + excluded.count, \
           strength = min(?3, strength + excluded.strength), \
           last_at = max(last_at, excluded.last_at)",
    )?
    .execute(params![list, RECALLED, MAX_STRENGTH, GAIN])?;
    Ok(())
}

/// One row of `memory_links` seen from one of its memories.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Link {
    /// The memory at the other end.
    pub other: i64,
    pub kind: Kind,
    /// Co-recalls, or things shared.
    pub count: i64,
    pub strength: f64,
    pub last_at: Millis,
    pub decayed_at: Millis,
}

/// The two kinds of link.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    Recalled,
    Shared,
}

impl Kind {
    fn as_str(self) -> &'static str {
        match self {
            Kind::Recalled => RECALLED,
            Kind::Shared => SHARED,
        }
    }
}

/// Every link of memory `pk` (of either kind, as stored), by the other end's key.
pub(crate) fn of(conn: &Connection, pk: i64) -> Result<Vec<Link>> {
    let mut stmt = conn.prepare_cached(
        "SELECT b, kind, count, strength, last_at, decayed_at FROM memory_links WHERE a = ?1 \
         UNION ALL SELECT a, kind, count, strength, last_at, decayed_at FROM memory_links \
         WHERE b = ?1 ORDER BY 1, 2",
    )?;
    let rows = stmt.query_map([pk], |r| {
        let kind: String = r.get(1)?;
        Ok(Link {
            other: r.get(0)?,
            kind: if kind == SHARED {
                Kind::Shared
            } else {
                Kind::Recalled
            },
            count: r.get(2)?,
            strength: r.get(3)?,
            last_at: r.get(4)?,
            decayed_at: r.get(5)?,
        })
    })?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

impl Link {
    /// A formed co-recall link's strength decayed to `now`, if it is still one.
    pub fn recalled_at(&self, now: Millis) -> Option<f64> {
        if self.kind != Kind::Recalled || self.count < FORMED_AT {
            return None;
        }
        let s = decayed(self.strength, days_between(self.decayed_at, now));
        (s >= REMOVE_BELOW).then_some(s)
    }
}

/// How many memories memory `pk` is linked to (by formed co-recall links or shared-content
/// links, each memory once), for its tier.
pub(crate) fn count(conn: &Connection, pk: i64) -> Result<usize> {
    let n: i64 = conn
        .prepare_cached(
            "SELECT count(*) FROM (SELECT b FROM memory_links WHERE a = ?1 AND (kind = ?2 OR count >= ?3) \
             UNION SELECT a FROM memory_links WHERE b = ?1 AND (kind = ?2 OR count >= ?3))",
        )?
        .query_row(params![pk, SHARED, FORMED_AT], |r| r.get(0))?;
    Ok(n as usize)
}

/// The formed co-recall links of each of `pks` as (key, other end, strength now), weaker ones
/// left out; in key order, then the other end's key.
pub(crate) fn formed(conn: &Connection, pks: &[i64], now: Millis) -> Result<Vec<(i64, i64, f64)>> {
    // Each side through its own index (a leads the key, b has one).
    let mut stmt = conn.prepare_cached(
        "SELECT b, strength, decayed_at FROM memory_links WHERE a = ?1 AND kind = ?2 AND count >= ?3 \
         UNION ALL SELECT a, strength, decayed_at FROM memory_links \
         WHERE b = ?1 AND kind = ?2 AND count >= ?3 ORDER BY 1",
    )?;
    let keys = pks.iter().copied().collect_set();
    let mut out = Vec::new();
    for pk in keys {
        let rows = stmt.query_map(params![pk, RECALLED, FORMED_AT], |r| {
            Ok((
                r.get::<_, i64>(0)?,
                r.get::<_, f64>(1)?,
                r.get::<_, Millis>(2)?,
            ))
        })?;
        for row in rows {
            let (other, strength, decayed_at) = row?;
            let s = decayed(strength, days_between(decayed_at, now));
            if s >= REMOVE_BELOW {
                out.push((pk, other, s));
            }
        }
    }
    Ok(out)
}

/// What consolidation did to the co-recall links.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct LinksReport {
    /// Links whose strength decayed.
    pub decayed: usize,
    /// Links removed, weaker than 0.1 once decayed.
    pub removed: usize,
    /// The step stopped at its bound.
    pub more: bool,
}

/// Decays the links not decayed for a whole day (the longest waiting first, at most `batch`)
/// to `now`, removing those that fall below [`REMOVE_BELOW`]. A second run the same day finds
/// nothing to do.
pub(crate) fn decay(conn: &Connection, now: Millis, batch: usize) -> Result<LinksReport> {
    let due: Vec<(i64, i64, f64, Millis)> = conn
        .prepare_cached(
            "SELECT a, b, strength, decayed_at FROM memory_links \
             WHERE kind = ?1 AND decayed_at <= ?2 ORDER BY decayed_at, a, b LIMIT ?3",
        )?
        .query_map(
            params![RECALLED, now.saturating_sub(DAY_MS), batch as i64 + 1],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)),
        )?
        .collect::<rusqlite::Result<_>>()?;
    let mut report = LinksReport {
        more: due.len() > batch,
        ..LinksReport::default()
    };
    for (a, b, strength, decayed_at) in due.into_iter().take(batch) {
        let days = days_between(decayed_at, now);
        let s = decayed(strength, days);
        if s < REMOVE_BELOW {
            conn.prepare_cached("DELETE FROM memory_links WHERE a = ?1 AND b = ?2 AND kind = ?3")?
                .execute(params![a, b, RECALLED])?;
            report.removed += 1;
        } else {
            conn.prepare_cached(
                "UPDATE memory_links SET strength = ?4, decayed_at = ?5 \
                 WHERE a = ?1 AND b = ?2 AND kind = ?3",
            )?
            .execute(params![a, b, RECALLED, s, decayed_at + days * DAY_MS])?;
            report.decayed += 1;
        }
    }
    Ok(report)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pairs_are_the_top_five_hits_two_by_two() {
        assert_eq!(pairs(&[3, 1]), vec![(1, 3)]);
        assert!(pairs(&[7]).is_empty());
        let p = pairs(&[1, 2, 3, 4, 5, 6, 7]);
        assert_eq!(
            p.len(),
            10,
            "5 hits make 10 pairs; the 6th and 7th make none"
        );
        assert!(p.iter().all(|(a, b)| a < b && *b <= 5));
    }

    #[test]
    fn decay_is_daily_and_stops_below_the_floor() {
        assert_eq!(decayed(1.0, 0), 1.0);
        assert_eq!(decayed(1.0, 1), 0.95);
        assert!((decayed(1.0, 2) - 0.9025).abs() < 1e-15);
        assert_eq!(decayed(0.5, -3), 0.5, "a clock set back decays nothing");
        // From full strength a link lasts 45 days: 0.95^44 ≈ 0.105, 0.95^45 ≈ 0.099.
        assert!(decayed(1.0, 44) >= REMOVE_BELOW);
        assert!(decayed(1.0, 45) < REMOVE_BELOW);
        assert_eq!(decayed(1.0, 45), decayed(1.0, 1_000_000));
    }
}
