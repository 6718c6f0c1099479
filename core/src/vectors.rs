//! Per-owner vector sets held in memory for nearest-neighbour scans. Owners never share a
//! set, so no query can see another owner's vectors. Loaded lazily from the store.
//!
//! Large sets are scanned in two passes: int8 codes (a quarter of the memory traffic, exact
//! integer arithmetic) pick `RESCORE_FACTOR × k` candidates, which are then scored exactly in
//! f32. Both passes run the same code on every target, so results match bit for bit.

use std::cmp::Ordering;
use std::collections::{BinaryHeap, HashMap};

use crate::embed::dot;

/// Sets up to this size are scanned exactly in f32 only.
const EXACT_SCAN_MAX: usize = 1024;
/// Candidates kept from the int8 pass, per neighbour asked for …
const RESCORE_FACTOR: usize = 4;
/// … and at least this many.
const RESCORE_MIN: usize = 64;

/// The searchable vectors of one owner, packed contiguously for a vectorised scan.
#[derive(Debug, Default)]
pub struct OwnerVectors {
    pks: Vec<i64>,
    data: Vec<f32>,
    /// int8 codes of `data`, row by row, and each row's scale (value = code × scale).
    codes: Vec<i8>,
    scales: Vec<f32>,
    slot: HashMap<i64, usize>,
    dim: usize,
}

/// int8 codes of `v` (symmetric, per vector) and their scale.
fn quantise(v: &[f32], out: &mut [i8]) -> f32 {
    let max = v.iter().fold(0f32, |m, x| m.max(x.abs()));
    if max == 0.0 || !max.is_finite() {
        out.iter_mut().for_each(|c| *c = 0);
        return 0.0;
    }
    let scale = max / 127.0;
    for (c, x) in out.iter_mut().zip(v) {
        *c = (x / scale).round().clamp(-127.0, 127.0) as i8;
    }
    scale
}

/// Lanes of [`dot_i8`]: independent accumulators the compiler turns into SIMD.
const I8_LANES: usize = 16;

/// Integer dot product of int8 codes (exact, so identical on every target).
fn dot_i8(a: &[i8], b: &[i8]) -> i32 {
    let mut acc = [0i32; I8_LANES];
    let (ac, bc) = (a.chunks_exact(I8_LANES), b.chunks_exact(I8_LANES));
    let tail: i32 = ac
        .remainder()
        .iter()
        .zip(bc.remainder())
        .map(|(x, y)| *x as i32 * *y as i32)
        .sum();
    for (x, y) in ac.zip(bc) {
        for l in 0..I8_LANES {
            acc[l] += x[l] as i16 as i32 * y[l] as i16 as i32;
        }
    }
    acc.iter().sum::<i32>() + tail
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
        let d = self.dim;
        let i = match self.slot.get(&pk) {
            Some(&i) => i,
            None => {
                let i = self.pks.len();
                self.slot.insert(pk, i);
                self.pks.push(pk);
                self.data.resize((i + 1) * d, 0.0);
                self.codes.resize((i + 1) * d, 0);
                self.scales.push(0.0);
                i
            }
        };
        self.data[i * d..(i + 1) * d].copy_from_slice(v);
        self.scales[i] = quantise(v, &mut self.codes[i * d..(i + 1) * d]);
    }

    /// Removes the vector of `pk`, if present.
    pub fn remove(&mut self, pk: i64) {
        let Some(i) = self.slot.remove(&pk) else {
            return;
        };
        let (last, d) = (self.pks.len() - 1, self.dim);
        if i != last {
            self.pks.swap(i, last);
            self.scales.swap(i, last);
            self.slot.insert(self.pks[i], i);
            self.data.copy_within(last * d..(last + 1) * d, i * d);
            self.codes.copy_within(last * d..(last + 1) * d, i * d);
        }
        self.pks.pop();
        self.scales.pop();
        self.data.truncate(last * d);
        self.codes.truncate(last * d);
    }

    /// The vector of `pk`.
    pub fn get(&self, pk: i64) -> Option<&[f32]> {
        self.slot
            .get(&pk)
            .map(|&i| &self.data[i * self.dim..(i + 1) * self.dim])
    }

    /// The `k` most similar vectors to `query` as (pk, dot product), best first; ties broken
    /// by pk so the order is the same whatever order vectors were added in.
    pub fn nearest(&self, query: &[f32], k: usize) -> Vec<(i64, f32)> {
        if k == 0 || self.pks.is_empty() || query.len() != self.dim {
            return Vec::new();
        }
        let d = self.dim;
        let exact = |i: usize| (self.pks[i], dot(query, &self.data[i * d..(i + 1) * d]));
        let rows: Vec<usize> = if self.pks.len() <= EXACT_SCAN_MAX {
            (0..self.pks.len()).collect()
        } else {
            let mut q = vec![0i8; d];
            let qscale = quantise(query, &mut q);
            let keep = (k * RESCORE_FACTOR).max(RESCORE_MIN);
            let mut best: BinaryHeap<Worst> = BinaryHeap::with_capacity(keep + 1);
            for (i, c) in self.codes.chunks_exact(d).enumerate() {
                let candidate = Worst(
                    dot_i8(&q, c) as f32 * qscale * self.scales[i],
                    self.pks[i],
                    i,
                );
                if best.len() < keep {
                    best.push(candidate);
                } else if best.peek().is_some_and(|w| candidate < *w) {
                    best.pop();
                    best.push(candidate);
                }
            }
            best.into_iter().map(|w| w.2).collect()
        };
        let mut scored: Vec<(i64, f32)> = rows.into_iter().map(exact).collect();
        top(&mut scored, k, |x| *x);
        scored
    }
}

/// A scored row ordered worst-first, so a max-heap of them pops the worst kept row:
/// lower score is "greater"; on equal scores the higher pk is (ties go to the lower pk).
#[derive(Debug, Clone, Copy)]
struct Worst(f32, i64, usize);

impl PartialEq for Worst {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}
impl Eq for Worst {}
impl PartialOrd for Worst {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Worst {
    fn cmp(&self, other: &Self) -> Ordering {
        other.0.total_cmp(&self.0).then(self.1.cmp(&other.1))
    }
}

/// Keeps the `k` best of `items` (highest score, then lowest pk), sorted best first.
fn top<T>(items: &mut Vec<T>, k: usize, key: impl Fn(&T) -> (i64, f32)) {
    let better = |a: &T, b: &T| {
        let (ka, kb) = (key(a), key(b));
        kb.1.total_cmp(&ka.1).then(ka.0.cmp(&kb.0))
    };
    if items.len() > k {
        items.select_nth_unstable_by(k - 1, better);
        items.truncate(k);
    }
    items.sort_unstable_by(better);
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
    fn int8_pass_finds_the_exact_neighbours() {
        // A set larger than the exact-scan limit, with a planted near neighbour per query.
        let dim = 64;
        let mut seed = 7u64;
        let mut rnd = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed >> 40) as f32 / (1u64 << 24) as f32 - 0.5
        };
        let mut set = OwnerVectors::new(dim);
        let mut all = Vec::new();
        for pk in 0..(EXACT_SCAN_MAX as i64 + 500) {
            let mut v: Vec<f32> = (0..dim).map(|_| rnd()).collect();
            crate::embed::normalise(&mut v);
            set.upsert(pk, &v);
            all.push(v);
        }
        for probe in [3usize, 1000, 1500] {
            let q = &all[probe];
            let mut exact: Vec<(i64, f32)> = all
                .iter()
                .enumerate()
                .map(|(i, v)| (i as i64, dot(q, v)))
                .collect();
            top(&mut exact, 10, |x| *x);
            assert_eq!(set.nearest(q, 10), exact, "probe {probe}");
        }
        // Removing rows keeps codes and floats in step.
        set.remove(3);
        set.remove(1500);
        assert_eq!(set.nearest(&all[1000], 1)[0].0, 1000);
        assert!(set.nearest(&all[3], 5).iter().all(|x| x.0 != 3));
    }

    #[test]
    fn quantise_and_integer_dot() {
        let mut c = [0i8; 3];
        let s = quantise(&[0.5, -1.0, 0.25], &mut c);
        assert_eq!(c, [64, -127, 32]);
        assert!((s - 1.0 / 127.0).abs() < 1e-9);
        assert_eq!(quantise(&[0.0, 0.0, 0.0], &mut c), 0.0);
        let a: Vec<i8> = (0..37).map(|i| (i * 7 % 255 - 127) as i8).collect();
        let b: Vec<i8> = (0..37).map(|i| (i * 13 % 255 - 127) as i8).collect();
        let naive: i32 = a.iter().zip(&b).map(|(x, y)| *x as i32 * *y as i32).sum();
        assert_eq!(dot_i8(&a, &b), naive);
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
