//! Links between memories (SPEC §2): Hebbian co-recall links (koshi v2). Memories a search
//! returns together grow a link: every search pairs its top [`CO_RECALLED`] hits, each pair
//! gaining [`GAIN`] strength (at most [`MAX_STRENGTH`]); a link counts as formed from its
//! [`FORMED_AT`]th co-recall. Consolidation decays every link by [`DAILY_DECAY`] per whole day
//! of engine time (one cycle at its daily cadence) and removes links weaker than
//! [`REMOVE_BELOW`], so a pair returned together once fades within a day and a habit stays.
//!
//! Searches record co-recalls as they record accesses (written with the next transaction);
//! reads show a link's strength decayed to the time they run, as consolidation will store it.

use rusqlite::{params, Connection, OptionalExtension};
use serde::{Deserialize, Serialize};

use crate::clock::{check_time, Millis, DAY_MS};
use crate::error::{Error, Result};
use crate::field::Id;
use crate::model::Memory;
use crate::store::memories;

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
/// The `kind` of co-recall links in the `memory_links` table.
const RECALLED: &str = "recalled";

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

/// Writes `count` co-recalls of memories `a` < `b` at `at` (nothing when either is gone).
pub(crate) fn record(conn: &Connection, (a, b): (i64, i64), count: i64, at: Millis) -> Result<()> {
    conn.prepare_cached(
        "INSERT INTO memory_links (a, b, kind, count, strength, last_at, decayed_at) \
         SELECT ?1, ?2, ?3, ?4, min(?5, ?4 * ?6), ?7, ?7 \
         WHERE EXISTS (SELECT 1 FROM memories WHERE pk = ?1) \
           AND EXISTS (SELECT 1 FROM memories WHERE pk = ?2) \
         ON CONFLICT (a, b, kind) DO UPDATE SET count = count + excluded.count, \
           strength = min(?5, strength + excluded.strength), \
           last_at = max(last_at, excluded.last_at)",
    )?
    .execute(params![a, b, RECALLED, count, MAX_STRENGTH, GAIN, at])?;
    Ok(())
}

/// A formed link of one memory, as of `now`.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Linked {
    pub other: i64,
    pub strength: f64,
    pub count: i64,
    pub last_at: Millis,
}

/// The formed links of each of `pks` (key, link), strength decayed to `now`, weaker ones left
/// out; in key order, then the other end's key.
pub(crate) fn formed(conn: &Connection, pks: &[i64], now: Millis) -> Result<Vec<(i64, Linked)>> {
    let mut stmt = conn.prepare_cached(
        "SELECT b, strength, count, last_at, decayed_at FROM memory_links \
         WHERE a = ?1 AND kind = ?2 AND count >= ?3 \
         UNION ALL SELECT a, strength, count, last_at, decayed_at FROM memory_links \
         WHERE b = ?1 AND kind = ?2 AND count >= ?3 ORDER BY 1",
    )?;
    let mut out = Vec::new();
    let mut sorted = pks.to_vec();
    sorted.sort_unstable();
    sorted.dedup();
    for pk in sorted {
        let rows = stmt.query_map(params![pk, RECALLED, FORMED_AT], |r| {
            Ok((
                r.get::<_, i64>(0)?,
                r.get::<_, f64>(1)?,
                r.get::<_, i64>(2)?,
                r.get::<_, i64>(3)?,
                r.get::<_, i64>(4)?,
            ))
        })?;
        for row in rows {
            let (other, strength, count, last_at, decayed_at) = row?;
            let strength = decayed(strength, days_between(decayed_at, now));
            if strength >= REMOVE_BELOW {
                out.push((
                    pk,
                    Linked {
                        other,
                        strength,
                        count,
                        last_at,
                    },
                ));
            }
        }
    }
    Ok(out)
}

/// Which memory's links to read.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(default, deny_unknown_fields)]
#[schemars(extend("required" = ["entity_id", "id"]))]
pub struct RelatedRequest {
    pub entity_id: String,
    /// The memory whose links to follow.
    pub id: String,
    /// Memories wanted (1..=1000, default 10).
    pub limit: Option<usize>,
}

/// A memory linked to another, and how strongly.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct RelatedMemory {
    pub memory: Memory,
    /// The link's strength now (0.1–1): +0.1 per co-recall, ×0.95 per day.
    pub strength: f64,
    /// Times searches returned the two memories together.
    pub co_recalls: i64,
    /// When they were last returned together.
    pub last_at: Millis,
}

/// The live memories of `owner` linked to memory `pk`, strongest first (ties by id), at
/// most `limit`.
pub(crate) fn related(
    conn: &Connection,
    owner: &str,
    pk: i64,
    now: Millis,
    limit: usize,
) -> Result<Vec<RelatedMemory>> {
    let mut out = Vec::new();
    for (_, link) in formed(conn, &[pk], now)? {
        if let Some(memory) = memories::by_pk(conn, owner, link.other)? {
            if memories::searchable(&memory) {
                out.push(RelatedMemory {
                    memory,
                    strength: link.strength,
                    co_recalls: link.count,
                    last_at: link.last_at,
                });
            }
        }
    }
    out.sort_by(|a, b| {
        b.strength
            .total_cmp(&a.strength)
            .then_with(|| a.memory.id.cmp(&b.memory.id))
    });
    out.truncate(limit);
    Ok(out)
}

/// A co-recall link in an export, listed on the record of whichever of its two memories is
/// exported first (by creation time, then id), naming the other.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct LinkRecord {
    /// The other memory's id.
    pub id: String,
    pub co_recalls: i64,
    /// The strength as stored (decayed to `decayed_at`).
    pub strength: f64,
    pub last_at: Millis,
    pub decayed_at: Millis,
}

/// The links memory `m` (key `pk`) lists in an export: those to memories exported after it.
pub(crate) fn export(conn: &Connection, pk: i64, m: &Memory) -> Result<Vec<LinkRecord>> {
    let mut stmt = conn.prepare_cached(
        "SELECT o.id, o.created_at, l.count, l.strength, l.last_at, l.decayed_at \
         FROM memory_links l JOIN memories o ON o.pk = CASE WHEN l.a = ?1 THEN l.b ELSE l.a END \
         WHERE (l.a = ?1 OR l.b = ?1) AND l.kind = ?2 ORDER BY o.created_at, o.id",
    )?;
    let rows = stmt.query_map(params![pk, RECALLED], |r| {
        Ok((
            r.get::<_, String>(0)?,
            r.get::<_, Millis>(1)?,
            LinkRecord {
                id: r.get(0)?,
                co_recalls: r.get(2)?,
                strength: r.get(3)?,
                last_at: r.get(4)?,
                decayed_at: r.get(5)?,
            },
        ))
    })?;
    let mut out = Vec::new();
    for row in rows {
        let (id, created_at, link) = row?;
        if (m.created_at, m.id.as_str()) < (created_at, id.as_str()) {
            out.push(link);
        }
    }
    Ok(out)
}

/// Checks an exported link before anything is written.
pub(crate) fn check(links: &[LinkRecord]) -> Result<()> {
    for (i, l) in links.iter().enumerate() {
        let field = |name: &str| format!("links[{i}].{name}");
        Id::parse(&field("id"), &l.id)?;
        if l.co_recalls < 1 {
            return Err(Error::invalid(field("co_recalls"), "must be at least 1"));
        }
        if !(l.strength.is_finite() && (0.0..=MAX_STRENGTH).contains(&l.strength)) {
            return Err(Error::invalid(
                field("strength"),
                format!("{} is not between 0 and {MAX_STRENGTH}", l.strength),
            ));
        }
        check_time(&field("last_at"), l.last_at)?;
        check_time(&field("decayed_at"), l.decayed_at)?;
    }
    Ok(())
}

/// Restores the exported links of memory `pk` of `owner` (a link to a memory this store does
/// not hold for `owner` is left out; one already present is kept as it is).
pub(crate) fn restore(conn: &Connection, owner: &str, pk: i64, links: &[LinkRecord]) -> Result<()> {
    for l in links {
        let other: Option<i64> = conn
            .prepare_cached("SELECT pk FROM memories WHERE id = ?1 AND entity_id = ?2")?
            .query_row([&l.id, owner], |r| r.get(0))
            .optional()?;
        let Some(other) = other.filter(|o| *o != pk) else {
            continue;
        };
        conn.prepare_cached(
            "INSERT INTO memory_links (a, b, kind, count, strength, last_at, decayed_at) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7) ON CONFLICT DO NOTHING",
        )?
        .execute(params![
            pk.min(other),
            pk.max(other),
            RECALLED,
            l.co_recalls,
            l.strength,
            l.last_at,
            l.decayed_at
        ])?;
    }
    Ok(())
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
