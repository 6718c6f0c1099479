//! Inverted lists over the binary codes of a large set, so a lookup reads a few lists instead
//! of every code. Some members are heads (chosen by a hash of their key: one in `stride`, the
//! stride about the square root of the set's size); every member belongs to the list of the
//! head whose code is nearest its own (ties to the lower key). A lookup ranks the heads by
//! Hamming distance to the query's code and reads the members of the nearest few lists.
//!
//! Which members are heads and which list each member is in depend only on the set's keys and
//! vectors, never on the order they came in or on an earlier size: a set loaded after a
//! restart has the same lists as the one it was built up in, so a lookup finds the same
//! neighbours on every target and in every process.

use super::hamming_of;
use super::simhash::hamming;
use super::sweep::{distances, sweep, Sweep};

/// Sets at least this large are divided into lists; smaller ones are read whole. A write's
/// lookup reads the lists from this size, a search only from `SEARCH_LISTS_MIN` (in
/// `vectors`): seeding 10k memories spent over half its time sweeping every code for each
/// write's neighbours, and through the lists still finds every near-duplicate.
pub(super) const LISTS_MIN: usize = 4_096;
/// Lists read per lookup: at least this many …
const PROBE_MIN: usize = 8;
/// … and at least this share of them (1/16): about 1/16 of the set, ~6,000 codes at 100k.
const PROBE_SHARE: usize = 16;

/// Whether the member `pk` heads a list in a set divided with `stride` (a power of two).
fn heads(pk: i64, stride: u64) -> bool {
    // SplitMix64's finaliser: keys spread evenly whatever their pattern.
    let mut x = pk as u64;
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^= x >> 31;
    x & (stride - 1) == 0
}

/// The stride for a set of `n`: the least power of two whose square is at least `n`, so a set
/// has about √n lists of about √n members.
fn stride_for(n: usize) -> u64 {
    let mut s = 1u64;
    while (s * s) < n as u64 {
        s *= 2;
    }
    s
}

/// One list: its head (key and row), its members' rows and a copy of their codes.
#[derive(Debug)]
struct List {
    pk: i64,
    row: usize,
    members: Vec<u32>,
    /// The members' codes in the order of `members`: a probe reads a list in one sweep
    /// instead of one scattered row at a time (a write's lookup in a large set is faster).
    codes: Vec<u64>,
}

impl List {
    fn new(pk: i64, row: usize) -> Self {
        List {
            pk,
            row,
            members: Vec::new(),
            codes: Vec::new(),
        }
    }
}

/// `Place::list` of a row in no list (only while no member heads one).
const NO_LIST: u32 = u32::MAX;

/// Where a row is: its list, its place among the list's members, its distance to the head.
#[derive(Debug, Clone, Copy)]
struct Place {
    list: u32,
    at: u32,
    distance: u32,
}

/// The lists of one set (empty while the set is smaller than [`LISTS_MIN`]).
#[derive(Debug, Default)]
pub(super) struct Lists {
    stride: u64,
    lists: Vec<List>,
    /// The heads' codes, list by list: every lookup and every write compares a code with
    /// each of them, so they are kept together rather than read from scattered rows.
    head_codes: Vec<u64>,
    /// Row by row.
    places: Vec<Place>,
}

/// The codes and keys of a set, row by row, as the lists read them.
pub(super) struct Rows<'a> {
    pub codes: &'a [u64],
    pub pks: &'a [i64],
    pub words: usize,
}

impl Rows<'_> {
    /// Hamming distance of two codes, unrolled for the usual 512 bits.
    #[inline]
    fn distance(&self, a: &[u64], b: &[u64]) -> u32 {
        match self.words {
            8 => hamming_of::<8>(a, b),
            _ => hamming(a, b),
        }
    }

    fn code(&self, row: usize) -> &[u64] {
        &self.codes[row * self.words..(row + 1) * self.words]
    }
    fn len(&self) -> usize {
        self.pks.len()
    }
}

impl Lists {
    /// Whether the set is divided (and some member heads a list).
    pub fn active(&self) -> bool {
        self.stride > 0 && !self.lists.is_empty()
    }

    /// Divides the set again from scratch when its size calls for another stride (or for none).
    /// Returns whether it did.
    fn restride(&mut self, rows: &Rows) -> bool {
        let stride = if rows.len() >= LISTS_MIN {
            stride_for(rows.len())
        } else {
            0
        };
        if stride == self.stride {
            return false;
        }
        *self = Lists {
            stride,
            ..Default::default()
        };
        if stride == 0 {
            return true;
        }
        for row in 0..rows.len() {
            if heads(rows.pks[row], stride) {
                self.lists.push(List::new(rows.pks[row], row));
                self.head_codes.extend_from_slice(rows.code(row));
            }
        }
        self.places = Vec::with_capacity(rows.len());
        for row in 0..rows.len() {
            let (list, distance) = self.nearest_list(rows.code(row));
            self.places.push(Place {
                list: list as u32,
                at: 0,
                distance,
            });
            self.join(rows, row, list);
        }
        true
    }

    /// The list whose head is nearest `code` (ties to the lower key), and the distance
    /// (`u32::MAX` and list 0 when there are no heads).
    fn nearest_list(&self, code: &[u64]) -> (usize, u32) {
        let mut best = (0usize, u32::MAX, i64::MAX);
        let mut d = Vec::new();
        distances(code, &self.head_codes, &mut d);
        for (i, &d) in d.iter().enumerate() {
            if d <= best.1 && (d, self.lists[i].pk) < (best.1, best.2) {
                best = (i, d, self.lists[i].pk);
            }
        }
        (best.0, best.1)
    }

    /// Puts `row` among the members of `list` (in none when there is no such list).
    fn join(&mut self, rows: &Rows, row: usize, list: usize) {
        match self.lists.get_mut(list) {
            Some(l) => {
                self.places[row].list = list as u32;
                self.places[row].at = l.members.len() as u32;
                l.members.push(row as u32);
                l.codes.extend_from_slice(rows.code(row));
            }
            None => self.places[row].list = NO_LIST,
        }
    }

    /// Takes `row` out of its list's members.
    fn leave(&mut self, rows: &Rows, row: usize) {
        let Place { list, at, .. } = self.places[row];
        let Some(l) = self.lists.get_mut(list as usize) else {
            return;
        };
        // The last member's code moves into the leaver's place, as `swap_remove` moves it.
        let last = l.codes.len() - rows.words;
        l.codes.copy_within(last.., at as usize * rows.words);
        l.codes.truncate(last);
        l.members.swap_remove(at as usize);
        if let Some(&moved) = l.members.get(at as usize) {
            self.places[moved as usize].at = at;
        }
    }

    /// A row was added (last) or its vector changed: it joins the list nearest its code, and
    /// when it heads a list, members nearer its code than to their own head move to it.
    pub fn added(&mut self, rows: &Rows, row: usize, new: bool) {
        if self.restride(rows) || self.stride == 0 {
            return;
        }
        if new {
            self.places.push(Place {
                list: 0,
                at: 0,
                distance: u32::MAX,
            });
        } else {
            self.forget(rows, row);
        }
        let (list, distance) = self.nearest_list(rows.code(row));
        self.places[row].distance = distance;
        self.join(rows, row, list);
        if heads(rows.pks[row], self.stride) {
            self.head(rows, row);
        }
    }

    /// `row` heads a new list: every member nearer its code than to its own head's moves in.
    fn head(&mut self, rows: &Rows, row: usize) {
        let pk = rows.pks[row];
        let new = self.lists.len();
        self.lists.push(List::new(pk, row));
        self.head_codes.extend_from_slice(rows.code(row));
        let code = rows.code(row);
        for r in 0..rows.len() {
            let d = rows.distance(rows.code(r), code);
            let Place { list, distance, .. } = self.places[r];
            let current = self.lists.get(list as usize).map_or(i64::MAX, |l| l.pk);
            if (d, pk) < (distance, current) {
                self.leave(rows, r);
                self.places[r].distance = d;
                self.join(rows, r, new);
            }
        }
    }

    /// Takes `row` out of the lists: out of its list, and when it heads one, that list is
    /// dissolved and its members join the nearest remaining lists.
    fn forget(&mut self, rows: &Rows, row: usize) {
        self.leave(rows, row);
        let Some(i) = self.lists.iter().position(|l| l.row == row) else {
            return;
        };
        let dissolved = self.lists.swap_remove(i);
        // The last list's head code moves into the dissolved one's place, as `swap_remove`
        // moves the list.
        let w = rows.words;
        let last = self.head_codes.len() - w;
        self.head_codes.copy_within(last.., i * w);
        self.head_codes.truncate(last);
        if let Some(moved) = self.lists.get(i) {
            for &m in &moved.members {
                self.places[m as usize].list = i as u32;
            }
        }
        for m in dissolved.members {
            let (list, distance) = self.nearest_list(rows.code(m as usize));
            self.places[m as usize].distance = distance;
            self.join(rows, m as usize, list);
        }
    }

    /// `row` is about to be removed and the last row moved into its place (`rows` still as
    /// before the removal).
    pub fn removing(&mut self, rows: &Rows, row: usize) {
        if self.stride == 0 {
            return;
        }
        self.forget(rows, row);
        let last = rows.len() - 1;
        if row != last {
            self.places[row] = self.places[last];
            let Place { list, at, .. } = self.places[row];
            if let Some(l) = self.lists.get_mut(list as usize) {
                l.members[at as usize] = row as u32;
            }
            if let Some(l) = self.lists.iter_mut().find(|l| l.row == last) {
                l.row = row;
            }
        }
        self.places.pop();
    }

    /// Divides the set from scratch (after vectors were added without the lists).
    pub fn rebuild(&mut self, rows: &Rows) {
        *self = Lists::default();
        self.restride(rows);
    }

    /// After a removal: divides the set again should its new size call for another stride.
    pub fn removed(&mut self, rows: &Rows) {
        self.restride(rows);
    }

    /// Sweeps the wanted rows of the lists whose heads are nearest `code` (ties to the lower
    /// key): at least [`PROBE_MIN`] lists and 1/[`PROBE_SHARE`] of them, nearest first (so
    /// the sweep's bound falls early).
    pub fn probe(&self, code: &[u64], wanted: &impl Fn(&usize) -> bool, into: &mut Sweep) {
        let mut d = Vec::new();
        distances(code, &self.head_codes, &mut d);
        let mut ranked: Vec<(u32, i64, usize)> = (d.into_iter().zip(&self.lists).enumerate())
            .map(|(i, (d, l))| (d, l.pk, i))
            .collect();
        let n = PROBE_MIN.max(self.lists.len() / PROBE_SHARE);
        if ranked.len() > n {
            ranked.select_nth_unstable(n - 1);
            ranked.truncate(n);
        }
        ranked.sort_unstable();
        for (_, _, i) in ranked {
            let l = &self.lists[i];
            sweep(code, &l.codes, |j| l.members[j] as usize, wanted, into);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::embed::Precision;
    use crate::vectors::{uniform, Lookahead, OwnerVectors};

    /// Every row is in exactly one list, at the place its record says, and each list's head
    /// is the row it names.
    fn check(s: &OwnerVectors) {
        let l = &s.lists;
        let members: usize = l.lists.iter().map(|x| x.members.len()).sum();
        assert_eq!(members, s.pks.len(), "rows in the lists");
        for (i, list) in l.lists.iter().enumerate() {
            assert_eq!(s.pks[list.row], list.pk);
            let w = s.simhash.words();
            assert_eq!(
                l.head_codes[i * w..(i + 1) * w],
                s.codes[list.row * w..(list.row + 1) * w],
                "head code of list {i}"
            );
            assert_eq!(
                list.codes.len(),
                list.members.len() * w,
                "codes of list {i}"
            );
            for (at, &r) in list.members.iter().enumerate() {
                let p = l.places[r as usize];
                assert_eq!((p.list as usize, p.at as usize), (i, at));
                let r = r as usize;
                assert_eq!(
                    list.codes[at * w..(at + 1) * w],
                    s.codes[r * w..(r + 1) * w]
                );
            }
        }
    }

    /// A set holding `all` under keys 0, 1, …, loaded at once.
    fn loaded(dim: usize, all: &[Vec<f32>]) -> OwnerVectors {
        let mut s = OwnerVectors::new(dim);
        s.extend(
            all.iter()
                .enumerate()
                .map(|(i, v)| (i as i64, v, Precision::F32)),
        );
        s
    }

    /// Unit vectors around 40 fixed centres (a corpus of topics), the noise from `seed`.
    fn clustered(dim: usize, n: usize, seed: u64) -> Vec<Vec<f32>> {
        let mut centre = uniform(1234);
        let centres: Vec<Vec<f32>> = (0..40)
            .map(|_| (0..dim).map(|_| centre()).collect())
            .collect();
        let mut next = uniform(seed);
        (0..n)
            .map(|i| {
                let v: Vec<f32> = centres[i % 40].iter().map(|c| c + 0.6 * next()).collect();
                let norm = v.iter().map(|x| x * x).sum::<f32>().sqrt();
                v.iter().map(|x| x / norm).collect()
            })
            .collect()
    }

    #[test]
    fn the_lists_depend_only_on_the_set_not_on_how_it_was_built() {
        let dim = 32;
        let n = LISTS_MIN + 4_000;
        let vectors = clustered(dim, n + 500, 11);
        // Built vector by vector, with removals (heads among them) and changed vectors.
        let mut grown = OwnerVectors::new(dim);
        for (pk, v) in vectors[..n].iter().enumerate() {
            grown.upsert(pk as i64, v, Precision::F32);
        }
        check(&grown);
        assert!(grown.lists.active());
        for pk in (0..n).step_by(37) {
            grown.remove(pk as i64);
        }
        for (i, pk) in (5..n).step_by(41).enumerate() {
            grown.upsert(pk as i64, &vectors[n + i % 500], Precision::F32);
        }
        check(&grown);
        // The same contents loaded at once, in another order.
        let mut final_rows: Vec<(i64, Vec<f32>)> = grown
            .pks
            .iter()
            .map(|&pk| (pk, grown.get(pk).unwrap().to_vec()))
            .collect();
        final_rows.reverse();
        let mut loaded = OwnerVectors::new(dim);
        loaded.extend(final_rows.iter().map(|(pk, v)| (*pk, v, Precision::F32)));
        check(&loaded);
        let heads = |s: &OwnerVectors| {
            let mut h: Vec<i64> = s.lists.lists.iter().map(|l| l.pk).collect();
            h.sort_unstable();
            h
        };
        assert_eq!(heads(&grown), heads(&loaded));
        let members = |s: &OwnerVectors, pk: i64| {
            let row = s.slot[&pk];
            s.lists.lists[s.lists.places[row].list as usize].pk
        };
        for &pk in &grown.pks {
            assert_eq!(members(&grown, pk), members(&loaded, pk), "list of {pk}");
        }
        for q in &vectors[..20] {
            assert_eq!(grown.nearest(q, 10), loaded.nearest(q, 10));
        }
    }

    /// A write's lookup, which reads less of a large set than a search's, finds each stored
    /// vector from a copy of it changed into dedup's band (as dedup must), and near neighbours whose
    /// mean cosine (what surprise sees) is close to the exact ones', in a large set and in a
    /// small one.
    #[test]
    fn a_writes_lookup_finds_near_duplicates_in_a_large_set() {
        let dim = 32;
        let all = clustered(dim, LISTS_MIN + 2_000, 5);
        let s = loaded(dim, &all);
        let mut noise = uniform(77);
        for pk in (0..all.len()).step_by(701) {
            // Copies in dedup's band: at cosine 0.85–0.95 to the stored vector.
            let mut copy: Vec<f32> = all[pk].iter().map(|x| x + 0.3 * noise()).collect();
            crate::embed::normalise(&mut copy);
            let cosine = crate::embed::dot(&copy, &all[pk]);
            assert!((0.85..0.95).contains(&cosine), "copy of {pk} at {cosine}");
            assert_eq!(s.neighbours(&copy, 5)[0].0, pk as i64, "copy of {pk}");
        }
        let mean = |x: &[(i64, f32)]| x.iter().map(|n| n.1).sum::<f32>() / x.len() as f32;
        let mut gap = 0f32;
        let queries = clustered(dim, 50, 99);
        for q in &queries {
            let (found, exact) = (s.neighbours(q, 5), s.nearest(q, 5));
            gap += mean(&exact) - mean(&found);
        }
        assert!(
            gap / 50.0 < 0.01,
            "mean cosine {} under the exact",
            gap / 50.0
        );
        // Below the lists every code is read: the nearest is the search's, the rest close.
        let small = loaded(dim, &all[..LISTS_MIN - 1]);
        let mut gap = 0f32;
        for q in &queries {
            let (found, exact) = (small.neighbours(q, 5), small.nearest(q, 5));
            assert_eq!(found[0], exact[0]);
            gap += mean(&exact) - mean(&found);
        }
        assert!(
            gap / 50.0 < 0.002,
            "mean cosine {} under the exact",
            gap / 50.0
        );
    }

    /// A lookup made ahead of other writes sees what they added, and is made afresh once
    /// anything was removed or replaced.
    #[test]
    fn a_lookup_made_ahead_sees_the_writes_since() {
        let dim = 32;
        let all = clustered(dim, LISTS_MIN + 2_000, 5);
        let mut s = loaded(dim, &all);
        let queries = clustered(dim, 20, 99);
        let fresh = LISTS_MIN as i64 * 4;
        let ahead: Vec<Option<Lookahead>> = queries.iter().map(|q| s.look_ahead(q, 5)).collect();
        assert!(ahead.iter().all(Option::is_some));
        // Written after the lookups: each query itself (cosine 1), and another vector.
        for (i, q) in queries.iter().enumerate() {
            s.upsert(fresh + i as i64, q, Precision::F32);
        }
        s.upsert(fresh - 1, &all[0], Precision::F32);
        for (i, (q, a)) in queries.iter().zip(ahead).enumerate() {
            let found = s.neighbours_since(q, 5, a);
            assert_eq!(found[0].0, fresh + i as i64, "query {i} written since");
            assert_eq!(found, s.neighbours(q, 5), "query {i}");
        }
        // A vector found ahead and removed since is not found, though the set is as large
        // again.
        let q = &queries[0];
        let a = s.look_ahead(q, 5);
        s.remove(fresh);
        s.upsert(fresh - 2, &all[2], Precision::F32);
        let found = s.neighbours_since(q, 5, a);
        assert!(found.iter().all(|n| n.0 != fresh), "{found:?}");
        assert_eq!(found, s.neighbours(q, 5));
        // Replaced since: found with its new vector's similarity.
        let a = s.look_ahead(q, 5);
        let target = found[0].0;
        s.upsert(target, &all[1], Precision::F32);
        let again = s.neighbours_since(q, 5, a);
        assert_eq!(again, s.neighbours(q, 5));
        assert!(again
            .iter()
            .all(|n| n.0 != target || n.1 == crate::embed::dot(q, &all[1])));
        // Asked for more than was looked up ahead: looked up afresh.
        let a = s.look_ahead(q, 2);
        assert_eq!(s.neighbours_since(q, 5, a), s.neighbours(q, 5));
        // A small set looks nothing up ahead.
        assert!(loaded(dim, &all[..1_000]).look_ahead(q, 5).is_none());
    }

    #[test]
    fn a_divided_set_finds_the_exact_neighbours() {
        let dim = 32;
        let all = clustered(dim, LISTS_MIN + 2_000, 5);
        let mut s = loaded(dim, &all);
        assert!(s.lists.active());
        let queries: Vec<Vec<f32>> = clustered(dim, 50, 99);
        let recall = crate::vectors::recall_at(&s, &all, &queries, 10);
        assert!(recall >= 0.99, "recall@10 {recall}");
        // A search in a set this size reads every code, not the lists: the same answers as
        // the set without them.
        let mut whole = loaded(dim, &all);
        whole.lists = Lists::default();
        for q in &queries {
            assert_eq!(s.nearest(q, 50), whole.nearest(q, 50));
        }
        // Fewer rows read than the whole set.
        let set = Rows {
            codes: &s.codes,
            pks: &s.pks,
            words: s.simhash.words(),
        };
        let mut q = vec![0u64; set.words];
        s.simhash.encode(&queries[0], &mut q);
        let mut every = Sweep::new(usize::MAX, s.simhash.max_distance() as u32);
        s.lists.probe(&q, &|_| true, &mut every);
        let read = every.rows(|i| s.pks[i]).len();
        assert!(
            read < s.pks.len() / 4,
            "{read} rows read of {}",
            s.pks.len()
        );
        // Below the size, no lists.
        for pk in 0..3_000 {
            s.remove(pk);
        }
        assert!(!s.lists.active());
        assert_eq!(s.nearest(&all[4000], 1)[0].0, 4000);
    }
}
