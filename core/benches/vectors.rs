//! The vector index alone (the owner's vector set: SimHash prefilter, then exact f32
//! rescoring) at 2k (below the lists: every code read), 10k, 100k and 1M vectors of the bench corpus: latency of `nearest` for a
//! search (k = 50) and of `neighbours` for a write's dedup and surprise (k = 5), recall@10 and
//! @50 against an exact scan, how a write's lookup compares with one, and the time to load
//! the set. Aim (with the SQLite parts of a search on top): ≤ 25 ms
//! at 1M. Writes `target/mnemo-bench-vectors.json`.
//!
//! `cargo bench -p mnemo-core --bench vectors` (about two minutes and 4 GB of memory with the
//! 1M case; `MNEMO_BENCH_SKIP_1M=1` leaves it out). Under `cargo test --benches` only 10k runs.

mod common;

use std::path::PathBuf;
use std::time::{Duration, Instant};

use common::{benchmarking, git_head, load_average, percentiles, Corpus};
use mnemo_core::embed::normalise;
use mnemo_core::vectors::{exact_nearest, recall_at, OwnerVectors};
use serde_json::json;

/// Timed lookups per case, cycling through the distinct queries.
const LOOKUPS: usize = 1_000;
const QUERIES: usize = 200;
/// Queries whose exact top 10 is computed for recall.
const RECALL_QUERIES: usize = 100;
/// Neighbours a search asks for (`recall.candidates`) and a write asks for (`SURPRISE_K`).
const SEARCH_K: usize = 50;
const WRITE_K: usize = 5;
/// Memory numbers of the writes' lookups: beyond any set's `0 .. n`.
const FRESH: u64 = 1 << 40;
/// Noise added to each coordinate of a copy of a stored vector: the copies' cosine to it is
/// about 0.86, just above where dedup merges (0.85).
const NEAR_DUPLICATE_NOISE: f32 = 0.03;

/// `OwnerVectors::nearest` or `OwnerVectors::neighbours`.
type Lookup = fn(&OwnerVectors, &[f32], usize) -> Vec<(i64, f32)>;

/// How a write's lookup (`OwnerVectors::neighbours`) compares with an exact scan.
#[derive(serde::Serialize)]
struct WriteQuality {
    /// Share of the exact five nearest found.
    recall_at_5: f64,
    /// Mean cosine of the exact five minus that of the five found: what surprise sees.
    mean_cosine_gap: f64,
    /// Share of noisy copies of stored vectors whose first neighbour is the original.
    near_duplicates_found: f64,
}

fn write_quality(set: &OwnerVectors, all: &[Vec<f32>], fresh: &[Vec<f32>]) -> WriteQuality {
    let (mut found, mut gap) = (0usize, 0f64);
    for q in fresh {
        let exact = exact_nearest(all, q, WRITE_K);
        let got = set.neighbours(q, WRITE_K);
        found += got.iter().filter(|g| exact.contains(g)).count();
        let mean =
            |x: &[(i64, f32)]| x.iter().map(|y| f64::from(y.1)).sum::<f64>() / x.len() as f64;
        gap += mean(&exact) - mean(&got);
    }
    let mut rng = common::SplitMix64::new(7);
    let copies = fresh.len();
    let originals_first = (0..copies)
        .filter(|_| {
            let i = rng.below(all.len());
            let mut v: Vec<f32> = all[i]
                .iter()
                .map(|x| x + NEAR_DUPLICATE_NOISE * rng.next_normal())
                .collect();
            normalise(&mut v);
            set.neighbours(&v, WRITE_K).first().map(|n| n.0) == Some(i as i64)
        })
        .count();
    WriteQuality {
        recall_at_5: round(found as f64 / (WRITE_K * fresh.len()) as f64),
        mean_cosine_gap: round(gap / fresh.len() as f64),
        near_duplicates_found: round(originals_first as f64 / copies as f64),
    }
}

fn main() {
    let full = benchmarking();
    let skip_1m = std::env::var("MNEMO_BENCH_SKIP_1M").is_ok_and(|v| v == "1");
    let sizes: &[usize] = match (full, skip_1m) {
        (false, _) => &[10_000],
        (true, true) => &[2_000, 10_000, 100_000],
        (true, false) => &[2_000, 10_000, 100_000, 1_000_000],
    };
    let corpus = Corpus::new();
    let queries: Vec<Vec<f32>> = corpus
        .queries(QUERIES)
        .into_iter()
        .map(|q| q.vector.expect("bench queries carry vectors"))
        .collect();
    // A write looks up a memory not yet in the set.
    let fresh: Vec<Vec<f32>> = (0..QUERIES as u64)
        .map(|i| {
            corpus
                .memory(FRESH + i)
                .vector
                .expect("bench memories carry vectors")
        })
        .collect();
    let load_before = load_average();
    let mut cases = serde_json::Map::new();
    let mut all: Vec<Vec<f32>> = Vec::new();
    for &n in sizes {
        while all.len() < n {
            let v = corpus
                .memory(all.len() as u64)
                .vector
                .expect("bench memories carry vectors");
            all.push(v);
        }
        // Loaded as a store loads an owner's set: all at once (lists built once).
        let t = Instant::now();
        let mut set = OwnerVectors::new(common::DIM);
        set.extend(
            all.iter()
                .enumerate()
                .map(|(i, v)| (i as i64, v, mnemo_core::embed::Precision::F32)),
        );
        let load = t.elapsed();
        let time = |queries: &[Vec<f32>], k: usize, lookup: Lookup| {
            let times: Vec<Duration> = (0..if full { LOOKUPS } else { 50 })
                .map(|i| {
                    let t = Instant::now();
                    let hits = lookup(&set, &queries[i % queries.len()], k);
                    let spent = t.elapsed();
                    assert_eq!(hits.len(), k);
                    spent
                })
                .collect();
            percentiles(&times)
        };
        let search = time(&queries, SEARCH_K, OwnerVectors::nearest);
        let write = time(&fresh, WRITE_K, OwnerVectors::neighbours);
        let writes = write_quality(&set, &all, &fresh[..if full { RECALL_QUERIES } else { 5 }]);
        let rq = &queries[..if full { RECALL_QUERIES } else { 5 }];
        let recall = recall_at(&set, &all, rq, 10);
        let recall_50 = recall_at(&set, &all, rq, SEARCH_K);
        println!(
            "{n:>8} vectors: nearest k={SEARCH_K} p50 {:.3} ms p95 {:.3} ms; k={WRITE_K} p50 {:.3} \
             ms p95 {:.3} ms; recall@10 {recall:.4}, @50 {recall_50:.4}; a write's lookup: \
             recall@5 {:.4}, mean cosine {:.4} under the exact five's, near-duplicates found \
             {:.4}; loaded in {:.2} s",
            search.p50_ms,
            search.p95_ms,
            write.p50_ms,
            write.p95_ms,
            writes.recall_at_5,
            writes.mean_cosine_gap,
            writes.near_duplicates_found,
            load.as_secs_f64()
        );
        let ms = |p: &common::Percentiles| json!({ "p50_ms": round(p.p50_ms), "p95_ms": round(p.p95_ms), "p99_ms": round(p.p99_ms) });
        cases.insert(
            if n >= 1_000_000 {
                format!("{}M", n / 1_000_000)
            } else {
                format!("{}k", n / 1000)
            },
            json!({
                "vectors": n,
                "search_k50": ms(&search),
                "write_k5": ms(&write),
                "write_lookup": writes,
                "recall_at_10": round(recall),
                "recall_at_50": round(recall_50),
                "load_seconds": round(load.as_secs_f64()),
            }),
        );
    }
    if !full {
        return;
    }
    let report = json!({
        "bench": "cargo bench -p mnemo-core --bench vectors",
        "git_head": git_head(),
        "dim": common::DIM,
        "what": "OwnerVectors::nearest alone: SimHash (512-bit) Hamming prefilter, exact f32 rescoring",
        "cases": cases,
        "load_average_1m": { "before": load_before, "after": load_average() },
    });
    let path = PathBuf::from(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../target/mnemo-bench-vectors.json"
    ));
    match std::fs::write(
        &path,
        serde_json::to_string_pretty(&report).expect("JSON") + "\n",
    ) {
        Ok(()) => println!("wrote {}", path.display()),
        Err(e) => eprintln!("could not write {}: {e}", path.display()),
    }
}

fn round(x: f64) -> f64 {
    (x * 1e4).round() / 1e4
}
