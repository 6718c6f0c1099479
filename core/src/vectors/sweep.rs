//! The Hamming pass of a lookup: the rows whose codes are nearest a query's, gathered while
//! codes are swept (a whole small set, or the members of the lists probed).
//!
//! A sweep keeps a histogram of the distances it has kept and, from it, a bound: the least
//! distance at or below which `keep` of the rows seen so far lie. The final cut can only be
//! at or below that bound, so a row beyond it is passed over without being recorded. The
//! bound falls quickly (the nearest lists are read first), so nearly every code costs its
//! popcounts and one comparison. The rows kept are the same as ranking every distance would
//! keep: those below the cut, and at the cut the lowest keys.

use super::hamming_of;
use super::simhash::hamming;

/// Sees every wanted row of `codes` (the `j`-th code is row `row(j)`; as many words a code as
/// `q` has).
pub(super) fn sweep(
    q: &[u64],
    codes: &[u64],
    row: impl Fn(usize) -> usize,
    wanted: &impl Fn(&usize) -> bool,
    into: &mut Sweep,
) {
    #[cfg(target_arch = "x86_64")]
    if q.len() == 8 && std::arch::is_x86_feature_detected!("avx512vpopcntdq") {
        // SAFETY: the processor has the instructions `sweep_512` is compiled for.
        #[allow(unsafe_code)]
        unsafe {
            return sweep_512(q, codes, row, wanted, into);
        }
    }
    each_distance(q, codes, |j, d| see(into, j, d, &row, wanted));
}

/// Records the row of the `j`-th code, at distance `d`, if the sweep can still keep it and it
/// is wanted (nearly every code is farther: its row is not even looked up).
#[inline(always)]
fn see(
    into: &mut Sweep,
    j: usize,
    d: u32,
    row: &impl Fn(usize) -> usize,
    wanted: &impl Fn(&usize) -> bool,
) {
    if d <= into.bound() {
        let r = row(j);
        if wanted(&r) {
            into.record(r, d);
        }
    }
}

/// [`sweep`] with AVX-512's popcount of eight words at once (the same integers), written out
/// rather than through [`distances`]: no distance is stored.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512vpopcntdq")]
#[allow(unsafe_code)]
unsafe fn sweep_512(
    q: &[u64],
    codes: &[u64],
    row: impl Fn(usize) -> usize,
    wanted: &impl Fn(&usize) -> bool,
    into: &mut Sweep,
) {
    use std::arch::x86_64::*;
    // SAFETY: `q` and each chunk are eight u64s, the 64 bytes an unaligned load reads.
    let qv = unsafe { _mm512_loadu_si512(q[..8].as_ptr().cast()) };
    for (j, c) in codes.chunks_exact(8).enumerate() {
        // SAFETY: as above.
        let cv = unsafe { _mm512_loadu_si512(c.as_ptr().cast()) };
        let d = _mm512_reduce_add_epi64(_mm512_popcnt_epi64(_mm512_xor_si512(qv, cv))) as u32;
        see(into, j, d, &row, wanted);
    }
}

/// The Hamming distance to `q` of each code of `codes` (as many words a code as `q` has), in
/// order, into `out` (emptied first).
pub(super) fn distances(q: &[u64], codes: &[u64], out: &mut Vec<u32>) {
    out.clear();
    out.reserve(codes.len() / q.len().max(1));
    #[cfg(target_arch = "x86_64")]
    if q.len() == 8 && std::arch::is_x86_feature_detected!("avx512vpopcntdq") {
        // SAFETY: the processor has the instructions `distances_512` is compiled for.
        #[allow(unsafe_code)]
        unsafe {
            return distances_512(q, codes, out);
        }
    }
    each_distance(q, codes, |_, d| out.push(d));
}

/// [`distances`] with AVX-512's popcount of eight words at once: the same integers.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512vpopcntdq")]
#[allow(unsafe_code)]
unsafe fn distances_512(q: &[u64], codes: &[u64], out: &mut Vec<u32>) {
    use std::arch::x86_64::*;
    // SAFETY: `q` and each chunk are eight u64s, the 64 bytes an unaligned load reads.
    let qv = unsafe { _mm512_loadu_si512(q[..8].as_ptr().cast()) };
    for c in codes.chunks_exact(8) {
        // SAFETY: as above.
        let cv = unsafe { _mm512_loadu_si512(c.as_ptr().cast()) };
        out.push(_mm512_reduce_add_epi64(_mm512_popcnt_epi64(_mm512_xor_si512(qv, cv))) as u32);
    }
}

/// Calls `seen(j, d)` with the Hamming distance `d` of each code of `codes` (the `j`-th) to
/// `q`, popcounts unrolled for the usual code widths: 512 bits (up to 512 dimensions) and
/// 1,024 (up to 1,024). The width is chosen inside the loop so that `seen` and the popcounts
/// have one call site each and are inlined even where the engine is optimised for size (the
/// browser's): called once a code, they were a third of a write's neighbour lookup there.
#[inline(always)]
fn each_distance(q: &[u64], codes: &[u64], mut seen: impl FnMut(usize, u32)) {
    let w = q.len().max(1);
    for (j, c) in codes.chunks_exact(w).enumerate() {
        let d = match w {
            8 => hamming_of::<8>(q, c),
            16 => hamming_of::<16>(q, c),
            _ => hamming(q, c),
        };
        seen(j, d);
    }
}

/// The nearest rows of one query, being gathered.
#[derive(Debug)]
pub(super) struct Sweep {
    keep: usize,
    /// Rows recorded at each distance (every row seen at or below `bound` when it was seen).
    count: Vec<u32>,
    /// No row farther than this can be among the `keep` nearest of those seen.
    bound: u32,
    /// Rows recorded at or below `bound`.
    within: usize,
    rows: Vec<usize>,
    dist: Vec<u32>,
}

impl Sweep {
    /// A sweep keeping the `keep` nearest rows, for codes at most `max_distance` apart.
    pub fn new(keep: usize, max_distance: u32) -> Sweep {
        Sweep {
            keep: keep.max(1),
            count: vec![0; max_distance as usize + 1],
            bound: max_distance,
            within: 0,
            rows: Vec::new(),
            dist: Vec::new(),
        }
    }

    /// The farthest distance a row can still be kept at.
    #[inline]
    pub fn bound(&self) -> u32 {
        self.bound
    }

    /// Records `row` at distance `d` (at most the bound: the caller skips the rest).
    #[inline]
    pub fn record(&mut self, row: usize, d: u32) {
        debug_assert!(d <= self.bound);
        self.rows.push(row);
        self.dist.push(d);
        self.count[d as usize] += 1;
        self.within += 1;
        // Lower the bound while the rows below it are enough on their own.
        while self.bound > 0 && self.within - self.count[self.bound as usize] as usize >= self.keep
        {
            self.within -= self.count[self.bound as usize] as usize;
            self.bound -= 1;
        }
    }

    /// The rows kept: every row nearer than the cut and, at the cut, those of the lowest keys
    /// (`pk` of a row) up to `keep` in all; every row seen when fewer than `keep` were.
    pub fn rows(self, pk: impl Fn(usize) -> i64) -> Vec<usize> {
        if self.within < self.keep {
            return self.rows;
        }
        let cut = self.bound;
        let below: usize = self.count[..cut as usize].iter().map(|&n| n as usize).sum();
        let mut rows = Vec::with_capacity(self.keep);
        let mut at_cut = Vec::new();
        for (&row, &d) in self.rows.iter().zip(&self.dist) {
            if d < cut {
                rows.push(row);
            } else if d == cut {
                at_cut.push((pk(row), row));
            }
        }
        at_cut.sort_unstable();
        rows.extend(at_cut.into_iter().take(self.keep - below).map(|(_, r)| r));
        rows
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::clock::{Entropy, SeededEntropy};
    use crate::vectors::uniform;

    /// What a sweep must keep: rank every row by (distance, key) and take the first `keep`.
    fn ranked(dist: &[u32], pks: &[i64], keep: usize) -> Vec<usize> {
        let mut all: Vec<(u32, i64, usize)> =
            (0..dist.len()).map(|i| (dist[i], pks[i], i)).collect();
        all.sort_unstable();
        let mut rows: Vec<usize> = all.into_iter().take(keep).map(|x| x.2).collect();
        rows.sort_unstable();
        rows
    }

    #[test]
    fn a_sweep_keeps_what_ranking_every_distance_keeps() {
        let mut next = uniform(7);
        for (n, spread, keep) in [(5000, 40, 128), (300, 3, 20), (50, 10, 128), (1000, 1, 7)] {
            // Few distinct distances, so most cuts fall among ties.
            let dist: Vec<u32> = (0..n)
                .map(|_| ((next() + 1.0) * 0.5 * spread as f32) as u32)
                .collect();
            let pks: Vec<i64> = (0..n).map(|i| ((i * 7919) % n) as i64).collect();
            let mut sweep = Sweep::new(keep, 512);
            for (row, &d) in dist.iter().enumerate() {
                see(&mut sweep, row, d, &|j| j, &|_| true);
            }
            let mut got = sweep.rows(|r| pks[r]);
            got.sort_unstable();
            assert_eq!(got, ranked(&dist, &pks, keep), "{n} rows, keep {keep}");
        }
    }

    /// Every width's popcounts give the same rows, and so does AVX-512's where it runs.
    #[test]
    fn every_way_of_counting_keeps_the_same_rows() {
        let rng = SeededEntropy::new(0x1234_5678_9abc_def0);
        let codes: Vec<u64> = (0..3000 * 8).map(|_| rng.next_u64()).collect();
        let q: Vec<u64> = (0..8).map(|_| rng.next_u64()).collect();
        let wanted = |r: &usize| !r.is_multiple_of(5);
        let rows = |f: &dyn Fn(&mut Sweep)| {
            let mut s = Sweep::new(100, 512);
            f(&mut s);
            let mut r = s.rows(|r| r as i64);
            r.sort_unstable();
            r
        };
        let with = |distance: &dyn Fn(&[u64], &[u64]) -> u32, s: &mut Sweep| {
            for (j, c) in codes.chunks_exact(8).enumerate() {
                let d = distance(&q, c);
                if d <= s.bound() && wanted(&j) {
                    s.record(j, d);
                }
            }
        };
        let scalar = rows(&|s| with(&hamming_of::<8>, s));
        let generic = rows(&|s| with(&hamming, s));
        let chosen = rows(&|s| sweep(&q, &codes, |j| j, &wanted, s));
        assert_eq!(scalar.len(), 100);
        let mut all = Vec::new();
        distances(&q, &codes, &mut all);
        let mut one_by_one = Vec::new();
        each_distance(&q, &codes, |_, d| one_by_one.push(d));
        assert_eq!(all, one_by_one);
        assert_eq!(scalar, generic);
        assert_eq!(scalar, chosen);
        assert!(scalar.iter().all(wanted));
    }

    #[test]
    fn the_bound_falls_to_the_cut() {
        let mut sweep = Sweep::new(3, 512);
        for (row, d) in [(0, 9), (1, 4), (2, 7), (3, 4)] {
            see(&mut sweep, row, d, &|j| j, &|_| true);
        }
        assert_eq!(sweep.bound(), 7);
        see(&mut sweep, 4, 2, &|j| j, &|_| true);
        assert_eq!(sweep.bound(), 4, "three rows at 4 or nearer");
        see(&mut sweep, 5, 5, &|j| j, &|_| true);
        assert_eq!(
            sweep.rows.len(),
            5,
            "a row beyond the bound is not recorded"
        );
        let mut got = sweep.rows(|r| r as i64);
        got.sort_unstable();
        assert_eq!(got, vec![1, 3, 4]);
    }
}
