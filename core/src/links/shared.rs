//! Shared-content links (Kybernesis's relationship detection): two memories of an owner that
//! name the same entities of its knowledge graph or carry the same tags are related, with
//! Kybernesis's weight `0.3·shared tags + 0.4·shared entities + 0.3·cosine⁺`, at most 1. A tag
//! only the extractor gave (a keyword it guessed) counts half a tag the caller chose; a
//! memory's source, which every memory of that source carries, not at all. A pair weighing
//! at least [`MIN_WEIGHT`] is linked: one shared entity or one chosen tag is enough, one
//! guessed keyword only with a likeness of meaning.

use std::collections::BTreeSet;

use rusqlite::{params, Connection};

use super::{of, Kind};
use crate::clock::Millis;
use crate::error::Result;
use crate::model::{Memory, Source};
use crate::order::CollectOrdered;

/// Weight of each shared tag …
const TAG_WEIGHT: f64 = 0.3;
/// … of each shared entity …
const ENTITY_WEIGHT: f64 = 0.4;
/// … and of the cosine of their vectors (Kybernesis: 0.3 / 0.4 / 0.3).
const SIMILARITY_WEIGHT: f64 = 0.3;
/// Share of a tag's weight that a tag only the extractor gave counts for.
const GUESSED_TAG: f64 = 0.5;
/// Weight from which two memories are linked.
pub const MIN_WEIGHT: f64 = 0.3;

/// What a memory offers to share: the tags it was given, those only the extractor gave (both
/// lower-cased, its source left out), and the keys of the entities it names.
#[derive(Debug, Clone, Default)]
pub(crate) struct Shareable {
    pub chosen: BTreeSet<String>,
    pub guessed: BTreeSet<String>,
    pub entities: BTreeSet<i64>,
}

impl Shareable {
    /// What `m` (key `pk`) shares.
    pub fn of(conn: &Connection, pk: i64, m: &Memory) -> Result<Shareable> {
        let clean = |tags: &[String]| -> BTreeSet<String> {
            tags.iter()
                .map(|t| t.trim().to_lowercase())
                .filter(|t| !t.is_empty() && !Source::ALL.iter().any(|s| s.as_str() == t))
                .collect_set()
        };
        let chosen = clean(&m.manual_tags);
        let guessed = clean(&m.auto_tags)
            .difference(&chosen)
            .cloned()
            .collect_set();
        Ok(Shareable {
            chosen,
            guessed,
            entities: crate::graph::entities_named_by(conn, pk)?
                .into_iter()
                .collect_set(),
        })
    }

    /// Every tag.
    pub fn tags(&self) -> impl Iterator<Item = &String> {
        self.chosen.iter().chain(&self.guessed)
    }

    /// The tags both carry, in order.
    pub fn shared_tags(&self, other: &Shareable) -> Vec<String> {
        let theirs = other.tags().cloned().collect_set();
        let mut shared: Vec<String> = self
            .tags()
            .filter(|t| theirs.contains(*t))
            .cloned()
            .collect();
        crate::order::sort(&mut shared);
        shared
    }

    /// The link's weight between two memories with cosine `cosine`, and how many things they
    /// share; `None` when they share nothing.
    pub fn weigh(&self, other: &Shareable, cosine: f64) -> Option<(f64, i64)> {
        let shared = self.shared_tags(other);
        let entities = self.entities.intersection(&other.entities).count();
        if shared.is_empty() && entities == 0 {
            return None;
        }
        // A tag counts in full when both were given it, half when either only guessed it.
        let tags: f64 = shared
            .iter()
            .map(|t| {
                if self.chosen.contains(t) && other.chosen.contains(t) {
                    1.0
                } else {
                    GUESSED_TAG
                }
            })
            .sum();
        let weight = TAG_WEIGHT * tags
            + ENTITY_WEIGHT * entities as f64
            + SIMILARITY_WEIGHT * crate::math::clamp(cosine, 0.0, 1.0);
        Some((weight.min(1.0), (shared.len() + entities) as i64))
    }
}

/// The shared-content links of memory `pk`: (other end, strength, things shared).
pub(crate) fn of_memory(conn: &Connection, pk: i64) -> Result<Vec<(i64, f64, i64)>> {
    Ok(of(conn, pk)?
        .into_iter()
        .filter(|l| l.kind == Kind::Shared)
        .map(|l| (l.other, l.strength, l.count))
        .collect())
}

/// Writes the shared-content link of `a` and `b` (first found at `now`).
pub(crate) fn put(
    conn: &Connection,
    (a, b): (i64, i64),
    weight: f64,
    shared: i64,
    now: Millis,
) -> Result<()> {
    conn.prepare_cached(
        "INSERT INTO memory_links (a, b, kind, count, strength, last_at, decayed_at) \
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?6) ON CONFLICT (a, b, kind) DO UPDATE \
         SET count = excluded.count, strength = excluded.strength",
    )?
    .execute(params![
        a.min(b),
        a.max(b),
        Kind::Shared.as_str(),
        shared,
        weight,
        now
    ])?;
    Ok(())
}

/// Removes the shared-content link of `a` and `b`.
pub(crate) fn remove(conn: &Connection, (a, b): (i64, i64)) -> Result<()> {
    conn.prepare_cached("DELETE FROM memory_links WHERE a = ?1 AND b = ?2 AND kind = ?3")?
        .execute(params![a.min(b), a.max(b), Kind::Shared.as_str()])?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shareable(chosen: &[&str], guessed: &[&str], entities: &[i64]) -> Shareable {
        Shareable {
            chosen: chosen.iter().map(|t| t.to_string()).collect(),
            guessed: guessed.iter().map(|t| t.to_string()).collect(),
            entities: entities.iter().copied().collect(),
        }
    }

    #[test]
    fn weight_is_kybernesis_sum_guessed_tags_counting_half() {
        // One entity and its name as a guessed keyword on both, cosine 0.3.
        let ines = shareable(&[], &["ines", "porto"], &[1, 2]);
        let surf = shareable(&[], &["ines", "beach"], &[1, 4]);
        let (w, n) = ines.weigh(&surf, 0.3).unwrap();
        assert!((w - (0.4 + 0.15 + 0.09)).abs() < 1e-12, "{w}");
        assert_eq!(n, 2);
        // One tag both were given: linked whatever the cosine.
        let clay = shareable(&["pottery", "studio"], &[], &[]);
        let kiln = shareable(&["pottery"], &[], &[]);
        let (w, _) = clay.weigh(&kiln, 0.0).unwrap();
        assert!((w - 0.3).abs() < 1e-12 && w >= MIN_WEIGHT);
        // One keyword only guessed: linked only with a likeness of meaning.
        let a = shareable(&[], &["works"], &[]);
        let b = shareable(&["works"], &[], &[]);
        assert!(a.weigh(&b, 0.2).unwrap().0 < MIN_WEIGHT);
        assert!(a.weigh(&b, 0.5).unwrap().0 >= MIN_WEIGHT);
        // Nothing shared, however alike: no link (that is dedup's and clustering's business).
        assert!(clay.weigh(&shareable(&["car"], &[], &[9]), 1.0).is_none());
        // At most 1, and a negative cosine counts as none.
        let many = shareable(&["a", "b", "c"], &[], &[1, 2]);
        assert_eq!(many.weigh(&many, 1.0).unwrap().0, 1.0);
        assert!((kiln.weigh(&kiln, -0.4).unwrap().0 - 0.3).abs() < 1e-12);
    }
}
