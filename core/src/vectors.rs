//! Per-owner vector sets held in memory for exact nearest-neighbour scans. Owners never share
//! a set, so no query can see another owner's vectors. Loaded lazily from the store.

use std::collections::HashMap;

use crate::embed::dot;

/// The searchable vectors of one owner, packed contiguously for a vectorised scan.
#[derive(Debug, Default)]
pub struct OwnerVectors {
    pks: Vec<i64>,
    data: Vec<f32>,
    slot: HashMap<i64, usize>,
    dim: usize,
}

impl OwnerVectors {
    /// A set of `dim`-dimensional vectors.
    pub fn new(dim: usize) -> Self {
        OwnerVectors {
            dim,
            ..Default::default()
        }
    }

    /// Number of vectors.
    #[cfg(test)]
    pub fn len(&self) -> usize {
        self.pks.len()
    }

    /// Adds or replaces the vector of `pk`.
    pub fn upsert(&mut self, pk: i64, v: &[f32]) {
        debug_assert_eq!(v.len(), self.dim);
        match self.slot.get(&pk) {
            Some(&i) => self.data[i * self.dim..(i + 1) * self.dim].copy_from_slice(v),
            None => {
                self.slot.insert(pk, self.pks.len());
                self.pks.push(pk);
                self.data.extend_from_slice(v);
            }
        }
    }

    /// Removes the vector of `pk`, if present.
    pub fn remove(&mut self, pk: i64) {
        let Some(i) = self.slot.remove(&pk) else {
            return;
        };
        let last = self.pks.len() - 1;
        if i != last {
            self.pks.swap(i, last);
            self.slot.insert(self.pks[i], i);
            let (head, tail) = self.data.split_at_mut(last * self.dim);
            head[i * self.dim..(i + 1) * self.dim].copy_from_slice(&tail[..self.dim]);
        }
        self.pks.pop();
        self.data.truncate(last * self.dim);
    }

    /// The vector of `pk`.
    pub fn get(&self, pk: i64) -> Option<&[f32]> {
        self.slot
            .get(&pk)
            .map(|&i| &self.data[i * self.dim..(i + 1) * self.dim])
    }

    /// The `k` most similar vectors to `query` as (pk, cosine), best first; ties broken by pk
    /// so the order is the same whatever order vectors were added in.
    pub fn nearest(&self, query: &[f32], k: usize) -> Vec<(i64, f32)> {
        if k == 0 || self.pks.is_empty() || query.len() != self.dim {
            return Vec::new();
        }
        let mut scored: Vec<(i64, f32)> = self
            .data
            .chunks_exact(self.dim)
            .zip(&self.pks)
            .map(|(v, &pk)| (pk, dot(query, v)))
            .collect();
        let better = |a: &(i64, f32), b: &(i64, f32)| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0));
        if scored.len() > k {
            scored.select_nth_unstable_by(k - 1, better);
            scored.truncate(k);
        }
        scored.sort_unstable_by(better);
        scored
    }
}

/// All loaded owners' vector sets.
#[derive(Debug, Default)]
pub struct VectorIndex {
    owners: HashMap<String, OwnerVectors>,
}

impl VectorIndex {
    /// The loaded set of `owner`, if it is loaded.
    pub fn owner(&self, owner: &str) -> Option<&OwnerVectors> {
        self.owners.get(owner)
    }

    /// The loaded set of `owner` for changes, if it is loaded.
    pub fn owner_mut(&mut self, owner: &str) -> Option<&mut OwnerVectors> {
        self.owners.get_mut(owner)
    }

    /// Installs a freshly loaded set for `owner`.
    pub fn insert(&mut self, owner: &str, set: OwnerVectors) -> &mut OwnerVectors {
        self.owners.insert(owner.to_string(), set);
        self.owners.get_mut(owner).expect("just inserted")
    }

    /// Forgets `owner`'s set (it is reloaded from the store when next needed).
    pub fn evict(&mut self, owner: &str) {
        self.owners.remove(owner);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn upsert_remove_nearest() {
        let mut s = OwnerVectors::new(2);
        s.upsert(1, &[1.0, 0.0]);
        s.upsert(2, &[0.0, 1.0]);
        s.upsert(3, &[0.6, 0.8]);
        assert_eq!(s.nearest(&[1.0, 0.0], 2), vec![(1, 1.0), (3, 0.6)]);
        s.remove(1);
        assert_eq!(s.len(), 2);
        assert_eq!(s.get(3), Some(&[0.6, 0.8][..]));
        assert_eq!(s.nearest(&[1.0, 0.0], 5), vec![(3, 0.6), (2, 0.0)]);
        s.upsert(2, &[1.0, 0.0]);
        assert_eq!(s.nearest(&[1.0, 0.0], 1), vec![(2, 1.0)]);
        s.remove(42);
        assert_eq!(s.nearest(&[1.0], 1), vec![]);
    }

    #[test]
    fn ties_are_ordered_by_key() {
        let mut a = OwnerVectors::new(1);
        let mut b = OwnerVectors::new(1);
        for pk in [5, 3, 9] {
            a.upsert(pk, &[1.0]);
        }
        for pk in [9, 5, 3] {
            b.upsert(pk, &[1.0]);
        }
        assert_eq!(a.nearest(&[1.0], 2), b.nearest(&[1.0], 2));
        assert_eq!(a.nearest(&[1.0], 2), vec![(3, 1.0), (5, 1.0)]);
    }
}
