//! The `memory_links` rows the store itself writes and reads: the co-recalls searches
//! recorded, written with the next transaction, and how many links a memory has (its tier
//! weighs them). The rest of the links' SQL, and what links mean, is in `links`.

use rusqlite::{params, Connection};

use crate::clock::Millis;
use crate::error::{Error, Result};

/// How many of a search's top hits count as recalled together (10 pairs at most).
pub(crate) const CO_RECALLED: usize = 5;
/// Co-recalls after which a link is formed (shown by `related`, lends relevance).
pub const FORMED_AT: i64 = 3;
/// Strength one co-recall adds.
pub const GAIN: f64 = 0.1;
/// Strength a link grows to at most.
pub const MAX_STRENGTH: f64 = 1.0;
/// The `kind` of co-recall links in the `memory_links` table …
pub(crate) const RECALLED: &str = "recalled";
/// … and of shared-content links.
pub(crate) const SHARED: &str = "shared";

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
}
