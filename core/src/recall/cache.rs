//! An LRU cache of recent searches' candidates. Only the expensive part is cached — the
//! candidates and their relevance — so ranking is recomputed at every call with the current
//! time and fresh rows. An entry is valid for the owner generation it was computed at: any
//! write to that owner moves the generation on (see `store::tx`), which makes it stale.

use std::num::NonZeroUsize;

use lru::LruCache;

use super::candidates::Found;

/// Cached candidates of one query.
struct Entry {
    generation: u64,
    found: Found,
}

/// The search cache.
pub(crate) struct Cache {
    lru: Option<LruCache<String, Entry>>,
}

impl Cache {
    /// A cache of `capacity` entries (0 turns caching off).
    pub fn new(capacity: usize) -> Self {
        Cache {
            lru: NonZeroUsize::new(capacity).map(LruCache::new),
        }
    }

    /// Cached candidates for `key`, if computed at the owner's current `generation`.
    pub fn get(&mut self, key: &str, generation: u64) -> Option<Found> {
        let lru = self.lru.as_mut()?;
        match lru.get(key) {
            Some(e) if e.generation == generation => Some(e.found.clone()),
            Some(_) => {
                lru.pop(key);
                None
            }
            None => None,
        }
    }

    /// Remembers the candidates of `key`, computed at the owner's `generation`.
    pub fn put(&mut self, key: String, generation: u64, found: Found) {
        if let Some(lru) = self.lru.as_mut() {
            lru.put(key, Entry { generation, found });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_of_an_older_generation_are_stale() {
        let c = Found {
            candidates: vec![crate::recall::Candidate::scored(1, 0.5, 0.0)],
            speaking: true,
        };
        let mut cache = Cache::new(2);
        cache.put("k".into(), 3, c.clone());
        assert_eq!(cache.get("k", 3), Some(c.clone()));
        assert_eq!(cache.get("k", 4), None);
        assert_eq!(cache.get("k", 3), None, "a stale entry is dropped");
        let mut off = Cache::new(0);
        off.put("k".into(), 0, c);
        assert_eq!(off.get("k", 0), None);
    }
}
