//! Per-owner vector sets held in memory for nearest-neighbour scans. Owners never share a
//! set, so no query can see another owner's vectors. Loaded lazily from the store.
//!
//! Large sets are scanned in three passes: each vector's binary code ([`simhash`], 64 bytes for
//! up to 512 dimensions) ranks the whole set by Hamming distance and keeps the best candidates
//! (`PREFILTER_FACTOR × k`, at least `PREFILTER_MIN` and 1/`PREFILTER_SHARE` of the set); their
//! [`int8`] copies narrow those to `SHORTLIST_FACTOR × k` (at least `SHORTLIST_MIN`), which are
//! scored exactly in f32. From 4,096 vectors (`lists::LISTS_MIN`) a write's first pass, and from
//! 32,768 (`SEARCH_LISTS_MIN`) a search's, reads only the members of the inverted lists whose
//! heads' codes are nearest the query's. Popcounts and int8 products are integers and ties are
//! broken by key, so results match bit for bit on every target.

mod int8;
mod lists;
mod simhash;
mod sweep;

use std::collections::HashMap;

use crate::clock::{Millis, Window};
use crate::embed::{dot, Precision};
use lists::{Lists, Rows};
use simhash::SimHash;
use sweep::Sweep;

/// A search reads a set's lists ([`lists::LISTS_MIN`]) from this size; below it, every code.
/// At 10k on the bench corpus, reading the lists kept recall@10 at 0.88 (0.93 reading three
/// times as many), where every code keeps 0.99; a write's lookup, which reads the lists
/// from their start, still found every near-duplicate (`cargo bench -p mnemo-core --bench
/// vectors`).
const SEARCH_LISTS_MIN: usize = 32_768;
/// Sets up to this size are scanned exactly in f32 only.
const EXACT_SCAN_MAX: usize = 256;
/// Candidates kept by the Hamming prefilter, per neighbour asked for …
const PREFILTER_FACTOR: usize = 16;
/// … and at least this many …
const PREFILTER_MIN: usize = 128;
/// … and at least this share of the set (1/64): the Hamming distances of the true
/// neighbours overlap those of more rows as the set grows. On the bench corpus 1/64 keeps
/// recall@10 at 1.0 at 100k and 1M vectors, where 1/256 kept 0.82 and 0.92
/// (`cargo bench -p mnemo-core --bench vectors`).
const PREFILTER_SHARE: usize = 64;
/// … or, for [`OwnerVectors::neighbours`], of 1/1024: the near-duplicates a write looks for
/// are within a few bits of it, and the rest only average into its surprise. On the bench
/// corpus at 10k, 100k and 1M this still found every noisy copy first, at cosine 0.86 (dedup
/// merges from 0.85) and down to 0.71 (clusters form above 0.8); the mean cosine of the five
/// found was within 0.0035 of the exact five's (surprise within 0.01), and a write's lookup
/// took a third of the time.
const NEIGHBOURS_SHARE: usize = 1024;
/// A write's lookup keeps this many candidates per neighbour asked for …
const NEIGHBOURS_FACTOR: usize = 4;
/// … and at least this many (a search keeps 128): near-duplicates are a few bits from the
/// query. On the bench corpus every noisy copy was still found first at 2k, 10k and 100k; the
/// mean cosine of the five found fell under the exact five's by 0.0002, 0.0054 and 0.0042
/// (0.0019 and 0.0033 keeping 128 at 10k and 100k: surprise moves by at most 0.025); and
/// seeding 10k under Node went from 8,800 to 10,000 a second (`cargo bench -p mnemo-core
/// --bench vectors`).
const NEIGHBOURS_MIN: usize = 32;
/// Rows scored exactly in f32 after the int8 pass, per neighbour asked for …
const SHORTLIST_FACTOR: usize = 2;
/// … and at least this many. An int8 cosine is within ~1e-3 of the exact one, so the exact
/// top k is lost only when more rows than this crowd within that of its last member (4k and
/// at least 32 gave the same recall on the bench corpus and LoCoMo, and read twice the floats).
const SHORTLIST_MIN: usize = 16;

/// The searchable vectors of one owner, packed contiguously for a vectorised scan.
#[derive(Debug, Default)]
pub struct OwnerVectors {
    pks: Vec<i64>,
    data: Vec<f32>,
    /// Binary codes of `data`, row by row (`simhash.words()` words each).
    codes: Vec<u64>,
    /// int8 codes of `data`, row by row (`dim` each), and each row's scale.
    bytes: Vec<i8>,
    scales: Vec<f32>,
    simhash: SimHash,
    slot: HashMap<i64, usize>,
    /// Row by row: the memory is cold (archive tier, or ARCHIVED), left out of warm scans.
    cold: Vec<bool>,
    /// Row by row: how the store keeps the vector (`data` holds it decoded).
    precision: Vec<Precision>,
    /// Row by row: when the memory was said (a search's time window keeps to it).
    said: Vec<Millis>,
    /// Inverted lists over `codes` once the set is large ([`lists::LISTS_MIN`]).
    lists: Lists,
    /// Vectors are being added in bulk: the lists are built once, at the end.
    loading: bool,
    /// Vectors removed or replaced so far: a [`Lookahead`] made before one of these is stale
    /// (until then the set has only grown, by rows appended at the end).
    edits: u64,
    dim: usize,
}

/// A write's neighbours looked up before the writes ahead of it in the same call
/// ([`OwnerVectors::look_ahead`]): good while the set has only grown since, the rows added
/// meanwhile being scored when it is used.
#[derive(Debug)]
pub struct Lookahead {
    found: Vec<(i64, f32)>,
    /// How many neighbours were asked for, and the set's rows and edits when it was made.
    k: usize,
    rows: usize,
    edits: u64,
}

impl OwnerVectors {
    /// A set of `dim`-dimensional vectors.
    pub fn new(dim: usize) -> Self {
        OwnerVectors {
            dim,
            simhash: SimHash::new(dim),
            ..Default::default()
        }
    }

    /// Number of vectors.
    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.pks.len()
    }

    /// Adds or replaces the vector of `pk`, stored at `precision` (`v` as decoded).
    pub fn upsert(&mut self, pk: i64, v: &[f32], precision: Precision) {
        debug_assert_eq!(v.len(), self.dim);
        let d = self.dim;
        let new = !self.slot.contains_key(&pk);
        let i = match self.slot.get(&pk) {
            Some(&i) => i,
            None => {
                let i = self.pks.len();
                self.slot.insert(pk, i);
                self.pks.push(pk);
                self.cold.push(false);
                self.said.push(0);
                self.precision.push(precision);
                // Appended as it is rather than zeroed and then copied over: zeroing was 6 % of
                // seeding (under Node), the first touch of memory the set had just grown into.
                self.data.extend_from_slice(v);
                self.codes.resize((i + 1) * self.simhash.words(), 0);
                self.bytes.resize((i + 1) * d, 0);
                self.scales.push(0.0);
                i
            }
        };
        let w = self.simhash.words();
        if !new {
            self.edits += 1;
            self.data[i * d..(i + 1) * d].copy_from_slice(v);
        }
        self.precision[i] = precision;
        self.simhash.encode(v, &mut self.codes[i * w..(i + 1) * w]);
        self.scales[i] = int8::quantise(v, &mut self.bytes[i * d..(i + 1) * d]);
        if !self.loading {
            let rows = Rows {
                codes: &self.codes,
                pks: &self.pks,
                words: w,
            };
            self.lists.added(&rows, i, new);
        }
    }

    /// Adds or replaces many vectors, as loading a set does: a large set's lists are built
    /// once, at the end, instead of kept up to date vector by vector.
    pub fn extend<V: AsRef<[f32]>>(
        &mut self,
        items: impl IntoIterator<Item = (i64, V, Precision)>,
    ) {
        self.loading = true;
        for (pk, v, precision) in items {
            self.upsert(pk, v.as_ref(), precision);
        }
        self.loading = false;
        let rows = Rows {
            codes: &self.codes,
            pks: &self.pks,
            words: self.simhash.words(),
        };
        self.lists.rebuild(&rows);
    }

    /// Removes the vector of `pk`, if present.
    pub fn remove(&mut self, pk: i64) {
        let Some(i) = self.slot.remove(&pk) else {
            return;
        };
        self.edits += 1;
        let (last, d, w) = (self.pks.len() - 1, self.dim, self.simhash.words());
        let rows = Rows {
            codes: &self.codes,
            pks: &self.pks,
            words: w,
        };
        self.lists.removing(&rows, i);
        if i != last {
            self.pks.swap(i, last);
            self.cold.swap(i, last);
            self.said.swap(i, last);
            self.precision.swap(i, last);
            self.scales.swap(i, last);
            self.slot.insert(self.pks[i], i);
            self.data.copy_within(last * d..(last + 1) * d, i * d);
            self.codes.copy_within(last * w..(last + 1) * w, i * w);
            self.bytes.copy_within(last * d..(last + 1) * d, i * d);
        }
        self.pks.pop();
        self.cold.pop();
        self.said.pop();
        self.precision.pop();
        self.scales.pop();
        self.data.truncate(last * d);
        self.codes.truncate(last * w);
        self.bytes.truncate(last * d);
        let rows = Rows {
            codes: &self.codes,
            pks: &self.pks,
            words: w,
        };
        self.lists.removed(&rows);
    }

    /// The vector of `pk`.
    pub fn get(&self, pk: i64) -> Option<&[f32]> {
        self.slot
            .get(&pk)
            .map(|&i| &self.data[i * self.dim..(i + 1) * self.dim])
    }

    /// `query`'s similarity to `pk`'s vector as search weighs it: the cosine, divided by the
    /// mixed-precision penalty of a vector stored coarser ([`Precision::penalty`]).
    pub fn similarity(&self, pk: i64, query: &[f32]) -> Option<f32> {
        let &i = self.slot.get(&pk)?;
        let cosine = dot(query, &self.data[i * self.dim..(i + 1) * self.dim]);
        Some(cosine / self.precision[i].penalty())
    }

    /// [`OwnerVectors::similarity`] of a cosine already computed against `pk`'s vector (as
    /// `nearest` answers).
    pub fn weigh(&self, pk: i64, cosine: f32) -> f32 {
        self.slot
            .get(&pk)
            .map_or(cosine, |&i| cosine / self.precision[i].penalty())
    }

    /// Marks `pk`'s memory cold (or warm again), if present.
    pub fn set_cold(&mut self, pk: i64, cold: bool) {
        if let Some(&i) = self.slot.get(&pk) {
            self.cold[i] = cold;
        }
    }

    /// The `k` most similar vectors to `query` as (pk, dot product), best first; ties broken
    /// by pk so the order is the same whatever order vectors were added in.
    pub fn nearest(&self, query: &[f32], k: usize) -> Vec<(i64, f32)> {
        self.nearest_in(query, k, false, Window::default(), Reach::Search)
    }

    /// [`OwnerVectors::nearest`] among the memories said inside `window` (and not marked cold,
    /// when `warm_only`). A bounded window is read whole, never through the lists: its
    /// members may lie in lists far from the query's.
    pub fn nearest_within(
        &self,
        query: &[f32],
        k: usize,
        warm_only: bool,
        window: Window,
    ) -> Vec<(i64, f32)> {
        self.nearest_in(query, k, warm_only, window, Reach::Search)
    }

    /// [`OwnerVectors::nearest`] for what looks for near-duplicates (a write's dedup and
    /// surprise, consolidation's clusters): the Hamming pass keeps fewer candidates
    /// ([`NEIGHBOURS_MIN`], [`NEIGHBOURS_SHARE`]) and a large set's lists are read from a
    /// smaller size, so near-duplicates are found and farther neighbours may be others almost
    /// as near.
    pub fn neighbours(&self, query: &[f32], k: usize) -> Vec<(i64, f32)> {
        self.nearest_in(query, k, false, Window::default(), Reach::Neighbours)
    }

    /// [`OwnerVectors::neighbours`] of `query` now, to be completed by
    /// [`OwnerVectors::neighbours_since`] after other writes. Only for a set with lists
    /// ([`lists::LISTS_MIN`] vectors and more): a write's lookup there reads scattered memory,
    /// which lookups made in a run find still in the cache, where the SQLite work of each
    /// write in between would have pushed it out. `None` for a smaller set.
    pub fn look_ahead(&self, query: &[f32], k: usize) -> Option<Lookahead> {
        self.lists.active().then(|| Lookahead {
            found: self.neighbours(query, k),
            k,
            rows: self.pks.len(),
            edits: self.edits,
        })
    }

    /// The `k` neighbours of `query`: those found ahead, with the vectors added since scored
    /// exactly; looked up afresh when nothing (or fewer) was looked up ahead, or when a
    /// vector was removed or replaced since.
    pub fn neighbours_since(
        &self,
        query: &[f32],
        k: usize,
        ahead: Option<Lookahead>,
    ) -> Vec<(i64, f32)> {
        match ahead {
            _ if k == 0 => Vec::new(),
            Some(a) if a.k >= k && a.edits == self.edits => {
                let d = self.dim;
                let mut found = a.found;
                found.extend(
                    (a.rows..self.pks.len())
                        .map(|i| (self.pks[i], dot(query, &self.data[i * d..(i + 1) * d]))),
                );
                top(&mut found, k, |x| *x);
                found
            }
            _ => self.neighbours(query, k),
        }
    }

    /// When `pk`'s memory was said, if present.
    pub fn said(&self, pk: i64) -> Option<Millis> {
        self.slot.get(&pk).map(|&i| self.said[i])
    }

    /// Records when `pk`'s memory was said, if present.
    pub fn set_said(&mut self, pk: i64, at: Millis) {
        if let Some(&i) = self.slot.get(&pk) {
            self.said[i] = at;
        }
    }

    /// Whether any memory is marked cold.
    pub fn has_cold(&self) -> bool {
        self.cold.iter().any(|&c| c)
    }

    /// [`OwnerVectors::nearest`] among the memories not marked cold.
    pub fn nearest_warm(&self, query: &[f32], k: usize) -> Vec<(i64, f32)> {
        self.nearest_in(query, k, true, Window::default(), Reach::Search)
    }

    /// The lookup behind the others, among the rows said inside `window`, as far as `reach`
    /// reads.
    fn nearest_in(
        &self,
        query: &[f32],
        k: usize,
        warm_only: bool,
        window: Window,
        reach: Reach,
    ) -> Vec<(i64, f32)> {
        if k == 0 || self.pks.is_empty() || query.len() != self.dim {
            return Vec::new();
        }
        let d = self.dim;
        let exact = |i: usize| (self.pks[i], dot(query, &self.data[i * d..(i + 1) * d]));
        let wanted = |i: &usize| !(warm_only && self.cold[*i]) && window.contains(self.said[*i]);
        // 1/64 of the whole set, lists or not: the codes' Hamming ranking is what loses true
        // neighbours as a set grows, not the lists (reading 1/16 of a 100k set's lists and
        // keeping 1/64 of the set finds every exact top 10, as a full scan does; keeping 1/64
        // of what the lists hold found 61 %).
        let keep = reach.keep(k).max(self.pks.len() / reach.share());
        let rows: Vec<usize> = if self.pks.len() <= EXACT_SCAN_MAX.max(keep) {
            (0..self.pks.len()).filter(wanted).collect()
        } else {
            let w = self.simhash.words();
            let mut q = vec![0u64; w];
            self.simhash.encode(query, &mut q);
            let mut sweep = Sweep::new(keep, self.simhash.max_distance() as u32);
            if self.lists.active() && self.pks.len() >= reach.lists_from() && window.is_open() {
                // A large set: the members of the lists whose heads are nearest the query.
                self.lists.probe(&q, &wanted, &mut sweep);
            } else {
                sweep::sweep(&q, &self.codes, |j| j, &wanted, &mut sweep);
            }
            sweep.rows(|i| self.pks[i])
        };
        let shortlist = (k * SHORTLIST_FACTOR).max(SHORTLIST_MIN);
        let rows = if self.pks.len() > EXACT_SCAN_MAX && rows.len() > shortlist {
            self.shortlist(query, rows, shortlist)
        } else {
            rows
        };
        let mut scored: Vec<(i64, f32)> = rows.into_iter().map(exact).collect();
        top(&mut scored, k, |x| *x);
        scored
    }

    /// The `keep` of `rows` nearest to `query` by their int8 copies (ties to the lower key).
    fn shortlist(&self, query: &[f32], rows: Vec<usize>, keep: usize) -> Vec<usize> {
        let d = self.dim;
        let mut q = vec![0i8; d];
        let q_scale = int8::quantise(query, &mut q);
        let mut scored: Vec<(usize, i64, f32)> = Vec::with_capacity(rows.len());
        for (j, &i) in rows.iter().enumerate() {
            if let Some(&ahead) = rows.get(j + PREFETCH_AHEAD) {
                prefetch(&self.bytes[ahead * d..(ahead + 1) * d]);
                prefetch(&self.scales[ahead..=ahead]);
                prefetch(&self.pks[ahead..=ahead]);
            }
            let product = int8::dot(&q, &self.bytes[i * d..(i + 1) * d]);
            scored.push((i, self.pks[i], product as f32 * q_scale * self.scales[i]));
        }
        // Only which rows: the exact pass orders them.
        best(&mut scored, keep, |&(_, pk, score)| (pk, score));
        scored.into_iter().map(|(i, _, _)| i).collect()
    }
}

/// How much of a large set a lookup reads.
#[derive(Debug, Clone, Copy)]
enum Reach {
    /// A search's: the Hamming pass keeps 1/[`PREFILTER_SHARE`] of the set, and reads the
    /// lists from [`SEARCH_LISTS_MIN`].
    Search,
    /// A write's, for near-duplicates: keeps 1/[`NEIGHBOURS_SHARE`], and reads the lists as
    /// soon as there are any.
    Neighbours,
}

impl Reach {
    /// The Hamming pass keeps at least 1/`share` of the set.
    fn share(self) -> usize {
        match self {
            Reach::Search => PREFILTER_SHARE,
            Reach::Neighbours => NEIGHBOURS_SHARE,
        }
    }

    /// The Hamming pass keeps at least this many candidates for `k` neighbours.
    fn keep(self, k: usize) -> usize {
        match self {
            Reach::Search => (k * PREFILTER_FACTOR).max(PREFILTER_MIN),
            Reach::Neighbours => (k * NEIGHBOURS_FACTOR).max(NEIGHBOURS_MIN),
        }
    }

    /// The size from which the lookup reads the lists.
    fn lists_from(self) -> usize {
        match self {
            Reach::Search => SEARCH_LISTS_MIN,
            Reach::Neighbours => lists::LISTS_MIN,
        }
    }
}

/// Rows ahead of the one being read whose data is asked for early: the rows of a pass after
/// the first are scattered over the set, and each would otherwise wait on memory.
const PREFETCH_AHEAD: usize = 8;

/// Asks the processor to start loading `data` into its cache: a hint, nothing is read.
#[inline]
fn prefetch<T>(data: &[T]) {
    #[cfg(target_arch = "x86_64")]
    {
        use core::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        let start = data.as_ptr().cast::<i8>();
        for at in (0..std::mem::size_of_val(data)).step_by(64) {
            // SAFETY: a prefetch reads nothing and cannot fault; the address is within `data`.
            #[allow(unsafe_code)]
            unsafe {
                _mm_prefetch::<_MM_HINT_T0>(start.add(at));
            }
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = data;
}

/// [`hamming`] of two `W`-word codes, unrolled.
#[inline(always)]
fn hamming_of<const W: usize>(a: &[u64], b: &[u64]) -> u32 {
    let (a, b) = (&a[..W], &b[..W]);
    let mut d = 0;
    for k in 0..W {
        d += (a[k] ^ b[k]).count_ones();
    }
    d
}

/// Keeps the `k` best of `items` (highest score, then lowest pk), sorted best first.
fn top<T>(items: &mut Vec<T>, k: usize, key: impl Fn(&T) -> (i64, f32)) {
    best(items, k, &key);
    items.sort_unstable_by(|a, b| better(key(a), key(b)));
}

/// Keeps the `k` best of `items` (highest score, then lowest pk), in no order.
fn best<T>(items: &mut Vec<T>, k: usize, key: impl Fn(&T) -> (i64, f32)) {
    if items.len() > k {
        items.select_nth_unstable_by(k - 1, |a, b| better(key(a), key(b)));
        items.truncate(k);
    }
}

/// The order of (pk, score) pairs, best first: higher score, then lower pk.
fn better(a: (i64, f32), b: (i64, f32)) -> std::cmp::Ordering {
    b.1.total_cmp(&a.1).then(a.0.cmp(&b.0))
}

/// Mean share of the exact top `k` of each query (by dot product, ties to the lower key) that
/// `set.nearest` finds, `set` holding `all` under keys 0, 1, …: how much the prefilter keeps
/// (the vectors bench and the LoCoMo test measure it). Feature `measure`.
#[cfg(any(test, feature = "measure"))]
pub fn recall_at(set: &OwnerVectors, all: &[Vec<f32>], queries: &[Vec<f32>], k: usize) -> f64 {
    let found: usize = queries
        .iter()
        .map(|q| {
            let exact = exact_nearest(all, q, k);
            let got = set.nearest(q, k);
            got.iter().filter(|g| exact.contains(g)).count()
        })
        .sum();
    found as f64 / (k * queries.len()).max(1) as f64
}

/// The `k` of `all` (keys 0, 1, …) nearest `query` by an exact scan, as `nearest` answers:
/// (key, dot product), best first, ties to the lower key. Feature `measure`.
#[cfg(any(test, feature = "measure"))]
pub fn exact_nearest(all: &[Vec<f32>], query: &[f32], k: usize) -> Vec<(i64, f32)> {
    let mut exact: Vec<(i64, f32)> = all
        .iter()
        .enumerate()
        .map(|(i, v)| (i as i64, dot(query, v)))
        .collect();
    top(&mut exact, k, |x| *x);
    exact
}

/// Numbers in [−0.5, 0.5) from a xorshift generator started at `x`: coordinates of test
/// vectors.
#[cfg(test)]
pub(crate) fn uniform(mut x: u64) -> impl FnMut() -> f32 {
    move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        (x >> 40) as f32 / (1u64 << 24) as f32 - 0.5
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An 8-dimensional unit vector for `i`, near those of nearby `i`.
    fn wave(i: usize) -> Vec<f32> {
        let x = i as f32 * 0.37;
        let raw: Vec<f32> = (0..8).map(|j| (x * (j + 1) as f32).sin()).collect();
        let norm = raw.iter().map(|a| a * a).sum::<f32>().sqrt();
        raw.iter().map(|a| a / norm).collect()
    }

    #[test]
    fn warm_scans_leave_cold_vectors_out_in_both_passes() {
        for n in [50usize, 3000] {
            let mut s = OwnerVectors::new(8);
            let v = wave;
            for i in 0..n {
                s.upsert(i as i64, &v(i), Precision::F32);
            }
            // Every even key cold: a warm scan finds odd keys only; a full scan both.
            for i in (0..n).step_by(2) {
                s.set_cold(i as i64, true);
            }
            let q = v(10);
            let all = s.nearest(&q, 5);
            assert_eq!(all[0].0, 10, "n = {n}");
            let warm = s.nearest_warm(&q, 5);
            assert_eq!(warm.len(), 5);
            assert!(warm.iter().all(|(pk, _)| pk % 2 == 1), "n = {n}: {warm:?}");
            // Warm again after set_cold(false), and after a removal swapped rows around.
            s.set_cold(10, false);
            s.remove(1);
            assert_eq!(s.nearest_warm(&q, 1)[0].0, 10);
            // All cold: nothing warm.
            for i in 0..n {
                s.set_cold(i as i64, true);
            }
            assert!(s.nearest_warm(&q, 5).is_empty());
        }
    }

    /// A window scan finds only rows said inside it, nearest first, in a small set, one the
    /// Hamming pass narrows, and one with lists (read whole for a window); cold rows stay out
    /// of a warm one; times follow rows moved by a removal.
    #[test]
    fn window_scans_keep_to_the_rows_said_inside() {
        for n in [50usize, 3000, 40_000] {
            let mut s = OwnerVectors::new(8);
            let v = wave;
            s.extend((0..n).map(|i| (i as i64, v(i), Precision::F32)));
            for i in 0..n {
                s.set_said(i as i64, (i as Millis) * 10);
            }
            let window = |a, b| Window {
                after: Some(a),
                before: Some(b),
            };
            // Rows 20..30 said in [200, 300): the query is row 10's vector, outside it.
            let q = v(10);
            let found = s.nearest_within(&q, 5, false, window(200, 300));
            assert_eq!(found.len(), 5, "n = {n}");
            assert!(
                found.iter().all(|(pk, _)| (20..30).contains(pk)),
                "n = {n}: {found:?}"
            );
            let exact: Vec<(i64, f32)> = {
                let mut all: Vec<(i64, f32)> =
                    (20..30).map(|i| (i as i64, dot(&q, &v(i)))).collect();
                top(&mut all, 5, |x| *x);
                all
            };
            assert_eq!(found, exact, "n = {n}");
            // Open ends; and a window with nothing in it.
            let late = s.nearest_within(
                &q,
                3,
                false,
                Window {
                    after: Some((n as Millis - 2) * 10),
                    before: None,
                },
            );
            assert_eq!(late.len(), 2);
            assert!(s.nearest_within(&q, 3, false, window(-100, 0)).is_empty());
            // Warm only: cold rows in the window stay out.
            for i in (20..30).step_by(2) {
                s.set_cold(i as i64, true);
            }
            let warm = s.nearest_within(&q, 10, true, window(200, 300));
            assert_eq!(warm.len(), 5);
            assert!(warm.iter().all(|(pk, _)| pk % 2 == 1));
            // Row 21 removed: the last row moves into its place, with its own time.
            s.remove(21);
            let moved = (n - 1) as i64;
            let at = s.nearest_within(&v(n - 1), 1, false, window(moved * 10, moved * 10 + 1));
            assert_eq!(at, vec![(moved, dot(&v(n - 1), &v(n - 1)))]);
        }
    }

    #[test]
    fn upsert_remove_nearest() {
        let mut s = OwnerVectors::new(2);
        s.upsert(1, &[1.0, 0.0], Precision::F32);
        s.upsert(2, &[0.0, 1.0], Precision::F32);
        s.upsert(3, &[0.6, 0.8], Precision::F32);
        assert_eq!(s.nearest(&[1.0, 0.0], 2), vec![(1, 1.0), (3, 0.6)]);
        s.remove(1);
        assert_eq!(s.len(), 2);
        assert_eq!(s.get(3), Some(&[0.6, 0.8][..]));
        assert_eq!(s.nearest(&[1.0, 0.0], 5), vec![(3, 0.6), (2, 0.0)]);
        s.upsert(2, &[1.0, 0.0], Precision::F32);
        assert_eq!(s.nearest(&[1.0, 0.0], 1), vec![(2, 1.0)]);
        s.remove(42);
        assert_eq!(s.nearest(&[1.0], 1), vec![]);
    }

    #[test]
    fn prefilter_finds_planted_neighbours() {
        // A set larger than the exact-scan limit: random vectors, and a near copy planted
        // beside each probe.
        let dim = 64;
        let mut rnd = uniform(7);
        let mut all = Vec::new();
        for _ in 0..(EXACT_SCAN_MAX + 2500) {
            let mut v: Vec<f32> = (0..dim).map(|_| rnd()).collect();
            crate::embed::normalise(&mut v);
            all.push(v);
        }
        let probes = [3usize, 1000, 1500];
        for (j, &p) in probes.iter().enumerate() {
            let mut near: Vec<f32> = all[p].iter().map(|x| x + 0.05 * rnd()).collect();
            crate::embed::normalise(&mut near);
            all[2000 + j] = near;
        }
        let mut set = OwnerVectors::new(dim);
        all.iter()
            .enumerate()
            .for_each(|(pk, v)| set.upsert(pk as i64, v, Precision::F32));
        for (j, &p) in probes.iter().enumerate() {
            let got = set.nearest(&all[p], 2);
            assert_eq!(got, exact_nearest(&all, &all[p], 2), "probe {p}");
            assert_eq!((got[0].0, got[1].0), (p as i64, 2000 + j as i64));
        }
        // Removing rows keeps codes and floats in step.
        set.remove(3);
        set.remove(1500);
        assert_eq!(set.nearest(&all[1000], 1)[0].0, 1000);
        assert_eq!(set.nearest(&all[3], 1)[0].0, 2000);
        assert!(set.nearest(&all[3], 5).iter().all(|x| x.0 != 3));
    }

    /// The prefilter's unrolled passes (512- and 1,024-bit codes) and its plain one (2,048)
    /// keep exactly the rows nearest by Hamming distance, ties to the lower key, wanted or not.
    #[test]
    fn prefilter_keeps_the_nearest_codes_at_every_width() {
        let mut rnd = uniform(0x2545_f491_4f6c_dd1du64);
        for (dim, words) in [(256, 8), (768, 16), (1536, 32)] {
            let mut s = OwnerVectors::new(dim);
            assert_eq!(s.simhash.words(), words);
            for pk in 0..600 {
                let v: Vec<f32> = (0..dim).map(|_| rnd()).collect();
                s.upsert(pk * 7 % 600, &v, Precision::F32);
            }
            let query: Vec<f32> = (0..dim).map(|_| rnd()).collect();
            let mut q = vec![0u64; words];
            s.simhash.encode(&query, &mut q);
            for every in [1, 3] {
                let wanted = |i: &usize| i.is_multiple_of(every);
                let mut all: Vec<(u32, i64, usize)> = (0..s.pks.len())
                    .filter(wanted)
                    .map(|i| {
                        (
                            simhash::hamming(&q, &s.codes[i * words..(i + 1) * words]),
                            s.pks[i],
                            i,
                        )
                    })
                    .collect();
                all.sort_unstable();
                let want: std::collections::BTreeSet<usize> =
                    all.iter().take(50).map(|r| r.2).collect();
                let mut found = Sweep::new(50, s.simhash.max_distance() as u32);
                sweep::sweep(&q, &s.codes, |j| j, &wanted, &mut found);
                let got: std::collections::BTreeSet<usize> =
                    found.rows(|i| s.pks[i]).into_iter().collect();
                assert_eq!(got, want, "{dim} dimensions, one row in {every} wanted");
            }
        }
    }

    /// The int8 pass keeps every row of the exact top 10 in the shortlist a search for 10
    /// gets (20 rows), over random vectors, where cosines crowd together.
    #[test]
    fn int8_shortlist_keeps_the_exact_nearest() {
        let mut rnd = uniform(0x853c_49e6_748f_ea9bu64);
        let dim = 256;
        let mut all = Vec::new();
        let mut set = OwnerVectors::new(dim);
        for pk in 0..3000 {
            let mut v: Vec<f32> = (0..dim).map(|_| rnd()).collect();
            crate::embed::normalise(&mut v);
            set.upsert(pk, &v, Precision::F32);
            all.push(v);
        }
        for probe in 0..20 {
            let mut q: Vec<f32> = all[probe * 97].iter().map(|x| x + 0.3 * rnd()).collect();
            crate::embed::normalise(&mut q);
            let exact = exact_nearest(&all, &q, 10);
            let size = (10 * SHORTLIST_FACTOR).max(SHORTLIST_MIN);
            let kept = set.shortlist(&q, (0..all.len()).collect(), size);
            assert_eq!(kept.len(), size);
            for (pk, _) in &exact {
                assert!(kept.contains(&(*pk as usize)), "probe {probe}: {pk} lost");
            }
        }
    }

    #[test]
    fn ties_are_ordered_by_key() {
        let mut a = OwnerVectors::new(1);
        let mut b = OwnerVectors::new(1);
        for pk in [5, 3, 9] {
            a.upsert(pk, &[1.0], Precision::F32);
        }
        for pk in [9, 5, 3] {
            b.upsert(pk, &[1.0], Precision::F32);
        }
        assert_eq!(a.nearest(&[1.0], 2), b.nearest(&[1.0], 2));
        assert_eq!(a.nearest(&[1.0], 2), vec![(3, 1.0), (5, 1.0)]);
    }
}
