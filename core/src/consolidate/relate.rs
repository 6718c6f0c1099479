//! Relationship discovery (Kybernesis): memories in use that name the same entities or carry
//! the same tags are linked, weighted as [`crate::links::shared`] says; links whose memories no
//! longer share enough are removed. Each memory links to its [`LINKS_PER_MEMORY`] best partners
//! among the newest [`PARTNERS`] naming one of its entities and the newest [`PARTNERS`] sharing
//! a tag (a partner may keep more, found from its side). The passages of one document are one
//! memory and carry its tags by being in it: they are never linked to each other, and a
//! passage looks past its own document's passages for the newest sharing a tag.
//!
//! Memories are examined in key order from a cursor kept in the store, `STEP_BATCH` per run;
//! a run over memories already examined finds what it found before and changes nothing.

use std::collections::{BTreeSet, HashMap};

use serde::{Deserialize, Serialize};

use super::next_batch;
use crate::clock::Millis;
use crate::document;
use crate::embed;
use crate::error::Result;
use crate::graph;
use crate::links::shared::{self, Shareable, MIN_WEIGHT};
use crate::model::{Memory, State};
use crate::order::CollectOrdered;
use crate::order::Keyed;
use crate::store::{memories, Tx};

/// Partners looked at per memory, from entities and from tags each.
const PARTNERS: usize = 100;
/// Links a memory makes to its best partners at most.
const LINKS_PER_MEMORY: usize = 10;
/// Where the next run starts (meta table): the last key examined, 0 for the beginning.
const CURSOR_KEY: &str = "consolidate_relate_cursor";

/// What relationship discovery did.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct RelateReport {
    /// Memories looked at.
    pub examined: usize,
    /// Links made, changed in weight, and removed.
    pub linked: usize,
    /// Links whose weight changed.
    pub reweighed: usize,
    /// Links removed.
    pub unlinked: usize,
    /// The step stopped at its bound (the next run goes on from there).
    pub more: bool,
}

/// Whether a partner takes part: in use and not archived.
fn in_use(m: &Memory) -> bool {
    memories::searchable(m) && m.state != State::Archived
}

/// Runs the step at `now`.
pub(super) fn discover(tx: &mut Tx, now: Millis) -> Result<RelateReport> {
    let (rows, more) = next_batch(tx, CURSOR_KEY)?;
    let mut report = RelateReport {
        more,
        ..Default::default()
    };
    let mut seen = Seen::default();
    for (pk, owner) in &rows {
        report.examined += 1;
        relate(tx, *pk, owner, now, &mut seen, &mut report)?;
    }
    Ok(report)
}

/// What a run has read already. The memories of a batch share their tags and partners, and
/// linking changes no memory, tag or entity, so each is read once per run: every lookup of a
/// tag in the full-text index walks the owner's whole posting list.
#[derive(Default)]
struct Seen {
    /// The newest memories in use carrying a tag, by (owner, tag): how many were asked for,
    /// and those found.
    tagged: HashMap<(String, String), (usize, Vec<i64>)>,
    /// What a memory shares, when it takes part, by owner and key.
    shareable: HashMap<String, HashMap<i64, Option<Shareable>>>,
    /// The document a memory is a passage of, by key.
    document: HashMap<i64, Option<i64>>,
    /// How many passages a document has, by key.
    passages: HashMap<i64, usize>,
}

impl Seen {
    /// The newest [`PARTNERS`] memories of `owner` carrying one of `tags`, and `more` besides
    /// (the passages of the asking memory's own document, which carry its tags and are set
    /// aside later): the newest of the union of each tag's newest, which holds them all.
    fn any_of(&mut self, tx: &Tx, owner: &str, tags: &[String], more: usize) -> Result<Vec<i64>> {
        let wanted = PARTNERS + more;
        let mut found: BTreeSet<i64> = BTreeSet::new();
        for tag in tags {
            let key = (owner.to_string(), tag.clone());
            if self
                .tagged
                .get(&key)
                .is_none_or(|(asked, _)| *asked < wanted)
            {
                let pks = memories::tagged(tx.conn(), owner, std::slice::from_ref(tag), wanted)?;
                self.tagged.insert(key.clone(), (wanted, pks));
            }
            found.extend(&self.tagged[&key].1);
        }
        Ok(found.into_iter().rev().take(wanted).collect())
    }

    /// How many passages document `d` has.
    fn passages_of(&mut self, tx: &Tx, d: i64) -> Result<usize> {
        if let Some(&n) = self.passages.get(&d) {
            return Ok(n);
        }
        let n = document::sql::passage_count(tx.conn(), d)?;
        self.passages.insert(d, n);
        Ok(n)
    }

    /// The document memory `pk` is a passage of.
    fn document_of(&mut self, tx: &Tx, pk: i64) -> Result<Option<i64>> {
        if let Some(&d) = self.document.get(&pk) {
            return Ok(d);
        }
        let d = document::sql::place_of(tx.conn(), pk)?.map(|(d, _)| d);
        self.document.insert(pk, d);
        Ok(d)
    }

    /// What each of `keys` (memories of `owner`) shares, for those that take part.
    fn partners(&mut self, tx: &Tx, owner: &str, keys: &[i64]) -> Result<Vec<(i64, &Shareable)>> {
        if !self.shareable.contains_key(owner) {
            self.shareable.insert(owner.to_string(), HashMap::new());
        }
        let known = self.shareable.get_mut(owner).expect("inserted above");
        let unread: Vec<i64> = keys
            .iter()
            .copied()
            .filter(|k| !known.contains_key(k))
            .collect();
        let mut read: HashMap<i64, Memory> = memories::by_pks(tx.conn(), owner, &unread)?
            .into_iter()
            .collect();
        for k in unread {
            let shares = match read.remove(&k) {
                Some(m) if in_use(&m) => Some(Shareable::of(tx.conn(), k, &m)?),
                _ => None,
            };
            known.insert(k, shares);
        }
        Ok(keys
            .iter()
            .filter_map(|k| known[k].as_ref().map(|s| (*k, s)))
            .collect())
    }
}

/// Links memory `pk` of `owner` to its best partners, and unlinks those that no longer share
/// enough.
fn relate(
    tx: &mut Tx,
    pk: i64,
    owner: &str,
    now: Millis,
    seen: &mut Seen,
    report: &mut RelateReport,
) -> Result<()> {
    let conn = tx.conn();
    let Some(m) = memories::by_pk(conn, owner, pk)? else {
        return Ok(());
    };
    let mine = Shareable::of(conn, pk, &m)?;
    let existing: Keyed<i64, (f64, i64)> = shared::of_memory(conn, pk)?
        .into_iter()
        .map(|(other, w, n)| (other, (w, n)))
        .collect();
    let mut partners: BTreeSet<i64> = graph::naming_the_same(conn, pk, PARTNERS)?
        .into_iter()
        .collect_set();
    let tags: Vec<String> = mine.tags().cloned().collect();
    let own = match seen.document_of(tx, pk)? {
        Some(d) => seen.passages_of(tx, d)?,
        None => 0,
    };
    partners.extend(seen.any_of(tx, owner, &tags, own)?);
    partners.extend(existing.keys());
    partners.remove(&pk);
    let mut keys: Vec<i64> = partners.into_iter().collect();
    if let Some(d) = seen.document_of(tx, pk)? {
        let mut others = Vec::with_capacity(keys.len());
        for k in keys {
            if seen.document_of(tx, k)? != Some(d) {
                others.push(k);
            }
        }
        keys = others;
    }
    let rows = seen.partners(tx, owner, &keys)?;
    let set = tx.vectors(owner)?;
    let cosine = |other: i64| match (set.get(pk), set.get(other)) {
        (Some(a), Some(b)) => embed::dot(a, b) as f64,
        _ => 0.0,
    };
    let mut weighed: Vec<(i64, f64, i64)> = Vec::new();
    for (other, theirs) in rows {
        let cosine = cosine(other);
        if let Some((w, n)) = mine.weigh(theirs, cosine) {
            if w >= MIN_WEIGHT {
                weighed.push((other, w, n));
            }
        }
    }
    // The best partners, and any already linked that still qualify.
    crate::order::sort_by(&mut weighed, |a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    let mut keep: Keyed<i64, (f64, i64)> = Keyed::new();
    for (i, (other, w, n)) in weighed.into_iter().enumerate() {
        if i < LINKS_PER_MEMORY || existing.contains_key(&other) {
            keep.insert(other, (w, n));
        }
    }
    for (other, (w, n)) in keep.iter() {
        match existing.get(other) {
            Some(old) if old == &(*w, *n) => {}
            Some(_) => {
                shared::put(conn, (pk, *other), *w, *n, now)?;
                report.reweighed += 1;
            }
            None => {
                shared::put(conn, (pk, *other), *w, *n, now)?;
                report.linked += 1;
            }
        }
    }
    for other in existing.keys().filter(|o| !keep.contains_key(o)) {
        shared::remove(conn, (pk, *other))?;
        report.unlinked += 1;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::decay::tests::memory;
    use crate::model::MemoryType;
    use crate::store::Store;

    /// The newest partners by any of several tags, from each tag's newest asked once, are
    /// the ones a single query for all the tags finds, past the [`PARTNERS`] bound.
    #[test]
    fn partners_by_tag_are_those_one_query_for_all_the_tags_finds() {
        const NOW: Millis = 1_700_000_000_000;
        let mut store = Store::in_memory(NOW);
        store
            .transaction(|tx| {
                // 150 tagged "garden", 150 "music", interleaved with 60 carrying both, and another
                // owner's newest ones: the newest 100 by either tag mix the three.
                for i in 0..360usize {
                    let mut m = memory(MemoryType::Event, 0);
                    m.id = format!("mem_{i:04}");
                    m.created_at = NOW;
                    m.manual_tags = match i % 6 {
                        0 => vec!["garden".into(), "music".into()],
                        1 | 3 | 5 => vec!["garden".into()],
                        _ => vec!["music".into()],
                    };
                    if i >= 340 {
                        m.entity_id = "bob".into();
                    }
                    tx.insert(&mut m, &[1.0, 0.0])?;
                }
                let tags = ["garden".to_string(), "music".to_string()];
                let owner = memory(MemoryType::Event, 0).entity_id;
                let one_query = memories::tagged(tx.conn(), &owner, &tags, PARTNERS).unwrap();
                assert_eq!(one_query.len(), PARTNERS);
                let mut seen = Seen::default();
                let by_tag = seen.any_of(tx, &owner, &tags, 0).unwrap();
                assert_eq!(by_tag, one_query);
                // Asked again (from the kept answers), and for one tag alone.
                assert_eq!(seen.any_of(tx, &owner, &tags, 0).unwrap(), one_query);
                assert_eq!(
                    seen.any_of(tx, &owner, &tags[..1], 0).unwrap(),
                    memories::tagged(tx.conn(), &owner, &tags[..1], PARTNERS).unwrap()
                );
                // Asked for more (past a document's own passages): read again, further back.
                assert_eq!(
                    seen.any_of(tx, &owner, &tags, 20).unwrap(),
                    memories::tagged(tx.conn(), &owner, &tags, PARTNERS + 20).unwrap()
                );
                Ok(())
            })
            .unwrap();
    }
}
