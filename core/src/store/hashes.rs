//! An owner's content hashes, held in memory beside its vectors: where a write looks for an
//! exact duplicate of what it says. A SQL index over the hashes took each new memory's key at
//! a random place, so a batch of 1,000 writes into an owner of 100k changed a page of it for
//! most writes, each read, journaled and written again at commit: such a batch wrote more than
//! twice the bytes to the store and its journal with that index as without it.
//! The map is kept in step by every write of a memory row ([`super::tx::Tx`]) and dropped with
//! the owner's vectors when the store changes under it or a transaction is rolled back; a
//! lookup reads the rows it names and compares their whole hash and state.

use std::collections::HashMap;

use rusqlite::Connection;

use crate::error::Result;
use crate::model::{Memory, State};
use crate::order::Keyed;

/// The live (not deleted) memories of one owner by the first 64 bits of their content hash.
#[derive(Debug, Default)]
pub(crate) struct OwnerHashes {
    /// The rows of each key (its bits as an `i64`, the key type the engine's other maps
    /// share), in row order. A key keeps its entry once its rows are gone.
    by_key: Keyed<i64, Vec<i64>>,
    /// Each row's key, to move it when its content or state changes.
    of: HashMap<i64, u64>,
}

/// The key of a content hash: its first 16 hex digits (any other string, which a damaged
/// store might hold, by an FNV-1a hash of it).
fn key(hash: &str) -> u64 {
    match hash.get(..16).map(|h| u64::from_str_radix(h, 16)) {
        Some(Ok(k)) => k,
        _ => hash.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
            (h ^ b as u64).wrapping_mul(0x0100_0000_01b3)
        }),
    }
}

impl OwnerHashes {
    /// The hashes of `owner`'s live memories, read from the store.
    pub fn load(conn: &Connection, owner: &str) -> Result<OwnerHashes> {
        let mut set = OwnerHashes::default();
        let mut stmt = conn.prepare_cached(
            "SELECT pk, content_hash FROM memories WHERE entity_id = ?1 AND state != 'DELETED'",
        )?;
        let mut rows = stmt.query([owner])?;
        while let Some(row) = rows.next()? {
            set.put(row.get(0)?, key(&row.get::<_, String>(1)?));
        }
        Ok(set)
    }

    fn put(&mut self, pk: i64, k: u64) {
        let rows = self.by_key.or_default(k as i64);
        if let Err(at) = rows.binary_search(&pk) {
            rows.insert(at, pk);
        }
        self.of.insert(pk, k);
    }

    /// Takes row `pk` as `m` now is (a deleted memory leaves the map); whether that changed
    /// the map.
    pub fn set(&mut self, pk: i64, m: &Memory) -> bool {
        let now = (m.state != State::Deleted).then(|| key(&m.content_hash));
        if self.of.get(&pk).copied() == now {
            return false;
        }
        self.remove(pk);
        if let Some(k) = now {
            self.put(pk, k);
        }
        true
    }

    /// Forgets row `pk`.
    pub fn remove(&mut self, pk: i64) {
        if let Some(k) = self.of.remove(&pk) {
            self.by_key.or_default(k as i64).retain(|&p| p != pk);
        }
    }

    /// The rows whose hash may be `hash`, oldest first (the caller compares the whole hash).
    pub fn candidates(&self, hash: &str) -> Vec<i64> {
        let k = key(hash);
        self.by_key.get(&(k as i64)).cloned().unwrap_or_default()
    }
}

/// Two whole content hashes that share their key (the first 16 digits), for tests.
#[cfg(test)]
pub(crate) fn sharing_a_key() -> (String, String) {
    let a = "0f".repeat(32);
    let b = format!("{}{}", &a[..16], "e1".repeat(24));
    assert!(key(&a) == key(&b) && a != b);
    (a, b)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::decay::tests::memory;
    use crate::model::MemoryType;

    fn with(hash: &str, state: State) -> Memory {
        let mut m = memory(MemoryType::Event, 0);
        (m.content_hash, m.state) = (hash.into(), state);
        m
    }

    #[test]
    fn rows_follow_their_hash_and_state() {
        let (a, b) = super::sharing_a_key();
        let mut h = OwnerHashes::default();
        assert!(h.set(7, &with(&a, State::Active)));
        assert!(
            !h.set(7, &with(&a, State::Stale)),
            "a state other than deleted changes nothing"
        );
        // Another hash with the same first 16 digits: both are candidates, oldest first.
        assert!(h.set(3, &with(&b, State::Active)));
        assert_eq!(h.candidates(&a), vec![3, 7]);
        // A row whose content changed moves; a deleted one leaves; a revived one comes back.
        assert!(h.set(7, &with(&"ab".repeat(32), State::Active)));
        assert_eq!(h.candidates(&a), vec![3]);
        assert!(h.set(3, &with(&b, State::Deleted)));
        assert!(h.candidates(&b).is_empty());
        assert!(h.set(3, &with(&b, State::Active)));
        h.remove(3);
        assert!(h.candidates(&b).is_empty());
        assert_eq!(h.candidates(&"ab".repeat(32)), vec![7]);
        // Not hex (a damaged row): still found by its own string.
        assert!(h.set(9, &with("not a hash", State::Active)));
        assert_eq!(h.candidates("not a hash"), vec![9]);
        assert!(h.candidates("not a hash either").is_empty());
    }
}
