//! Stable sorting through one shared copy of the standard library's sort. Each `sort_by` with
//! its own comparison is a copy of that sort, about 7 KB of WebAssembly each (7 % of the
//! download's Rust code was sorts); these sort the positions instead, behind one reference to
//! the comparison, then move the items into place. Same order as `slice::sort_by`.
//!
//! For the same reason ordered maps and sets are built by insertion ([`CollectOrdered`]):
//! `collect()` into a `BTreeMap` or `BTreeSet` sorts the items first, with a copy of the sort
//! for each item type. And a `BTreeMap` is a copy of the B-tree's code (insert, search, split,
//! merge, drop: 3 to 9 KB) for each key and value type: [`Keyed`] keeps its values in a vector
//! beside one `BTreeMap<K, usize>`, so every map with the same key type shares one tree.

use std::borrow::Borrow;
use std::cmp::Ordering;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::marker::PhantomData;

use serde::de::{MapAccess, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

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

/// An ordered map, as `BTreeMap<K, V>` is, whose B-tree maps each key to its value's place in
/// a vector: maps with the same key type share the tree's code whatever their values. A
/// removed key's place is not reused (until `clear`): for maps that live a call, or whose keys
/// stay.
#[derive(Debug, Clone)]
pub struct Keyed<K, V> {
    at: BTreeMap<K, usize>,
    values: Vec<Option<V>>,
}

impl<K, V> Default for Keyed<K, V> {
    fn default() -> Self {
        Keyed {
            at: BTreeMap::new(),
            values: Vec::new(),
        }
    }
}

impl<K: Ord, V> Keyed<K, V> {
    /// An empty map.
    pub fn new() -> Self {
        Self::default()
    }

    /// How many keys it holds.
    pub fn len(&self) -> usize {
        self.at.len()
    }

    /// The value of `key`.
    pub fn get<Q: Ord + ?Sized>(&self, key: &Q) -> Option<&V>
    where
        K: Borrow<Q>,
    {
        self.values.get(*self.at.get(key)?)?.as_ref()
    }

    /// Whether it holds `key`.
    pub fn contains_key<Q: Ord + ?Sized>(&self, key: &Q) -> bool
    where
        K: Borrow<Q>,
    {
        self.at.contains_key(key)
    }

    /// Sets `key` to `value`; the value it had.
    pub fn insert(&mut self, key: K, value: V) -> Option<V> {
        match self.at.get(&key) {
            Some(&i) => self.values[i].replace(value),
            None => {
                self.at.insert(key, self.values.len());
                self.values.push(Some(value));
                None
            }
        }
    }

    /// Takes `key` out; its value.
    pub fn remove<Q: Ord + ?Sized>(&mut self, key: &Q) -> Option<V>
    where
        K: Borrow<Q>,
    {
        self.values.get_mut(self.at.remove(key)?)?.take()
    }

    /// Empties it.
    pub fn clear(&mut self) {
        self.at.clear();
        self.values.clear();
    }

    /// The value of `key`, set to `make()` first when it has none.
    pub fn or_insert_with(&mut self, key: K, make: impl FnOnce() -> V) -> &mut V {
        let i = match self.at.get(&key) {
            Some(&i) => i,
            None => {
                self.at.insert(key, self.values.len());
                self.values.push(None);
                self.values.len() - 1
            }
        };
        self.values[i].get_or_insert_with(make)
    }

    /// The value of `key`, set to its default first when it has none.
    pub fn or_default(&mut self, key: K) -> &mut V
    where
        V: Default,
    {
        self.or_insert_with(key, V::default)
    }

    /// The keys, in order.
    pub fn keys(&self) -> impl Iterator<Item = &K> {
        self.at.keys()
    }

    /// The entries, in the keys' order.
    pub fn iter(&self) -> impl Iterator<Item = (&K, &V)> {
        self.at
            .iter()
            .filter_map(|(k, &i)| Some((k, self.values.get(i)?.as_ref()?)))
    }

    /// The values, in the keys' order, taken.
    pub fn into_values(self) -> impl Iterator<Item = V> {
        self.into_iter().map(|(_, v)| v)
    }
}

impl<K: Ord, V> IntoIterator for Keyed<K, V> {
    type Item = (K, V);
    type IntoIter = IntoIter<K, V>;

    /// The entries, in the keys' order, taken.
    fn into_iter(self) -> IntoIter<K, V> {
        IntoIter {
            at: self.at.into_iter(),
            values: self.values,
        }
    }
}

/// A [`Keyed`] map's entries, in the keys' order, taken.
pub struct IntoIter<K, V> {
    at: std::collections::btree_map::IntoIter<K, usize>,
    values: Vec<Option<V>>,
}

impl<K, V> Iterator for IntoIter<K, V> {
    type Item = (K, V);

    fn next(&mut self) -> Option<(K, V)> {
        loop {
            let (k, i) = self.at.next()?;
            if let Some(v) = self.values.get_mut(i).and_then(Option::take) {
                return Some((k, v));
            }
        }
    }
}

impl<K: Ord, V: PartialEq> PartialEq for Keyed<K, V> {
    /// The same entries, whatever order they were put in.
    fn eq(&self, other: &Self) -> bool {
        self.len() == other.len() && self.iter().eq(other.iter())
    }
}

impl<K: Ord + Serialize, V: Serialize> Serialize for Keyed<K, V> {
    /// As a map, in the keys' order (as a `BTreeMap` is written).
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_map(self.iter())
    }
}

impl<'de, K: Ord + Deserialize<'de>, V: Deserialize<'de>> Deserialize<'de> for Keyed<K, V> {
    /// From a map, equal keys keeping the last value.
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Entries<K, V>(PhantomData<(K, V)>);
        impl<'de, K: Ord + Deserialize<'de>, V: Deserialize<'de>> Visitor<'de> for Entries<K, V> {
            type Value = Keyed<K, V>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a map")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Keyed<K, V>, A::Error> {
                let mut out = Keyed::new();
                while let Some((k, v)) = map.next_entry()? {
                    out.insert(k, v);
                }
                Ok(out)
            }
        }
        d.deserialize_map(Entries(PhantomData))
    }
}

impl<K: Ord, V> FromIterator<(K, V)> for Keyed<K, V> {
    /// The pairs as a map, equal keys keeping the last value, as `collect` does.
    fn from_iter<I: IntoIterator<Item = (K, V)>>(pairs: I) -> Self {
        let mut map = Keyed::new();
        for (k, v) in pairs {
            map.insert(k, v);
        }
        map
    }
}

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

    #[test]
    fn a_keyed_map_is_a_btree_map() {
        // Drawn operations on both, compared after each.
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move |n: u64| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x % n
        };
        let mut ours: Keyed<i64, u64> = Keyed::new();
        let mut std: BTreeMap<i64, u64> = BTreeMap::new();
        for step in 0..5_000 {
            let (k, v) = (next(50) as i64 - 25, next(1_000));
            match next(20) {
                0..=8 => assert_eq!(ours.insert(k, v), std.insert(k, v)),
                9..=13 => assert_eq!(ours.remove(&k), std.remove(&k)),
                14..=18 => {
                    *ours.or_default(k) += v;
                    *std.entry(k).or_default() += v;
                }
                _ => {
                    ours.clear();
                    std.clear();
                }
            }
            if next(5) == 3 {
                *std.entry(k).or_default() += 0;
                ours.or_insert_with(k, || 0);
            }
            assert_eq!(ours.len(), std.len(), "step {step}");
            assert_eq!(ours.get(&k), std.get(&k), "step {step}");
            assert_eq!(ours.contains_key(&k), std.contains_key(&k));
            assert!(ours.iter().eq(std.iter()), "step {step}");
        }
        assert!(ours.keys().eq(std.keys()));
        assert!(ours.clone().into_values().eq(std.clone().into_values()));
        assert!(ours.into_iter().eq(std.into_iter()));
        let pairs = [(3, 'a'), (1, 'b'), (3, 'c')];
        let map: Keyed<i32, char> = pairs.into_iter().collect();
        assert!(map.iter().eq([(&1, &'b'), (&3, &'c')]));
        assert_eq!(Keyed::<String, ()>::default().len(), 0);
        // Written and read as a map, as a BTreeMap is; equal whatever the order of putting.
        let text = serde_json::to_string(&map).unwrap();
        assert_eq!(
            text,
            serde_json::to_string(&BTreeMap::from([(1, 'b'), (3, 'c')])).unwrap()
        );
        let back: Keyed<i32, char> = serde_json::from_str(&text).unwrap();
        assert_eq!(back, [(3, 'c'), (1, 'b')].into_iter().collect());
        assert!(serde_json::from_str::<Keyed<i32, char>>("[1]").is_err());
    }
}
