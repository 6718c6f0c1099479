//! LRU cache of recent search candidates (Keyoku: 500 entries), invalidated per owner by
//! writes. Only the expensive part is cached — the candidates and their relevance — so the
//! composite ranking is recomputed at every call with the current time and fresh rows.

use std::collections::HashMap;
use std::num::NonZeroUsize;

use lru::LruCache;

use crate::recall::Candidate;

/// Cached candidates of one query.
struct Entry {
    generation: u64,
    candidates: Vec<Candidate>,
}

/// The search cache.
pub struct SearchCache {
    lru: Option<LruCache<String, Entry>>,
    generations: HashMap<String, u64>,
}

impl SearchCache {
    /// A cache of `capacity` entries (0 turns caching off).
    pub fn new(capacity: usize) -> Self {
        SearchCache {
            lru: NonZeroUsize::new(capacity).map(LruCache::new),
            generations: HashMap::new(),
        }
    }

    fn generation(&self, owner: &str) -> u64 {
        self.generations.get(owner).copied().unwrap_or(0)
    }

    /// Cached candidates for `key` of `owner`, unless a write to that owner came since.
    pub fn get(&mut self, owner: &str, key: &str) -> Option<Vec<Candidate>> {
        let generation = self.generation(owner);
        let lru = self.lru.as_mut()?;
        match lru.get(key) {
            Some(e) if e.generation == generation => Some(e.candidates.clone()),
            Some(_) => {
                lru.pop(key);
                None
            }
            None => None,
        }
    }

    /// Remembers the candidates of `key` for `owner`.
    pub fn put(&mut self, owner: &str, key: String, candidates: Vec<Candidate>) {
        let generation = self.generation(owner);
        if let Some(lru) = self.lru.as_mut() {
            lru.put(
                key,
                Entry {
                    generation,
                    candidates,
                },
            );
        }
    }

    /// Invalidates every cached query of `owner` (called on each write to that owner).
    pub fn invalidate(&mut self, owner: &str) {
        *self.generations.entry(owner.to_string()).or_insert(0) += 1;
    }
}
