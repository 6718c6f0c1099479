//! Stable sorting through one shared copy of the standard library's sort. Each `sort_by` with
//! its own comparison is a copy of that sort, about 7 KB of WebAssembly each (7 % of the
//! download's Rust code was sorts); these sort the positions instead, behind one reference to
//! the comparison, then move the items into place. Same order as `slice::sort_by`.
//!
//! For the same reason ordered maps and sets are built by insertion ([`CollectOrdered`]):
//! `collect()` into a `BTreeMap` or `BTreeSet` sorts the items first, with a copy of the sort
//! for each item type.

use std::cmp::Ordering;
use std::collections::{BTreeMap, BTreeSet};

/// Sorts `v` stably by `cmp`.
pub fn sort_by<T>(v: &mut [T], mut cmp: impl FnMut(&T, &T) -> Ordering) {
    let mut order: Vec<usize> = (0..v.len()).collect();
    sort_positions(&mut order, &mut |a, b| cmp(&v[a], &v[b]));
    permute(v, order);
}

/// Sorts `v` stably by the key `key` gives each item.
pub fn sort_by_key<T, K: Ord>(v: &mut [T], mut key: impl FnMut(&T) -> K) {
    sort_by(v, |a, b| key(a).cmp(&key(b)));
}

/// Sorts `v` stably in ascending order.
pub fn sort<T: Ord>(v: &mut [T]) {
    sort_by(v, T::cmp);
}

/// The one instance of the standard sort: positions, compared through `cmp`.
fn sort_positions(order: &mut [usize], cmp: &mut dyn FnMut(usize, usize) -> Ordering) {
    order.sort_by(|&a, &b| cmp(a, b));
}

/// Rearranges `v` so that item `i` is the one that was at `order[i]`, following each cycle of
/// the permutation with swaps.
fn permute<T>(v: &mut [T], mut order: Vec<usize>) {
    for start in 0..order.len() {
        let mut at = start;
        loop {
            let from = order[at];
            order[at] = at;
            if from == start {
                break;
            }
            v.swap(at, from);
            at = from;
        }
    }
}

/// `collect()` into ordered maps and sets without a sort of its own: items are inserted one by
/// one, equal keys keeping the last value, as `collect` does.
pub trait CollectOrdered: Iterator + Sized {
    /// The items as a `BTreeMap`.
    fn collect_map<K: Ord, V>(self) -> BTreeMap<K, V>
    where
        Self: Iterator<Item = (K, V)>,
    {
        let mut map = BTreeMap::new();
        map.extend(self);
        map
    }

    /// The items as a `BTreeSet`.
    fn collect_set(self) -> BTreeSet<Self::Item>
    where
        Self::Item: Ord,
    {
        let mut set = BTreeSet::new();
        set.extend(self);
        set
    }
}

impl<I: Iterator> CollectOrdered for I {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sorts_as_the_standard_stable_sort_does() {
        let mut x = 0x2545_f491_4f6c_dd1du64;
        let mut next = move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        for n in [0usize, 1, 2, 3, 10, 100, 1000] {
            // Keys with many repeats, tagged with their first place: stability is visible.
            let items: Vec<(u64, usize)> = (0..n).map(|i| (next() % 7, i)).collect();
            let mut ours = items.clone();
            sort_by(&mut ours, |a, b| a.0.cmp(&b.0));
            let mut std = items.clone();
            std.sort_by_key(|a| a.0);
            assert_eq!(ours, std, "n = {n}");
            let mut by_key = items.clone();
            sort_by_key(&mut by_key, |a| std::cmp::Reverse(a.0));
            std.sort_by_key(|a| std::cmp::Reverse(a.0));
            assert_eq!(by_key, std, "n = {n}");
            let mut plain = items;
            sort(&mut plain);
            std.sort();
            assert_eq!(plain, std, "n = {n}");
        }
    }

    #[test]
    fn collects_as_collect_does() {
        let pairs = [(3, 'a'), (1, 'b'), (3, 'c'), (2, 'd'), (1, 'e')];
        let map: BTreeMap<i32, char> = pairs.iter().copied().collect();
        assert_eq!(pairs.iter().copied().collect_map(), map);
        assert_eq!(map.get(&3), Some(&'c'), "the last of equal keys wins");
        let set: BTreeSet<i32> = pairs.iter().map(|p| p.0).collect();
        assert_eq!(pairs.iter().map(|p| p.0).collect_set(), set);
        assert!(std::iter::empty::<(i32, i32)>().collect_map().is_empty());
    }
}
