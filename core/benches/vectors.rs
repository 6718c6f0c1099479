//! The vector index alone (the owner's vector set: SimHash prefilter, then exact f32
//! rescoring) at 10k, 100k and 1M vectors of the bench corpus: latency of `nearest` for a
//! search (k = 50) and for a write's dedup and surprise (k = 5), recall@10 and @50 against an
//! exact scan, and the time to load the set. Aim (with the SQLite parts of a search on top): ≤ 25 ms
//! at 1M. Writes `target/mnemo-bench-vectors.json`.
//!
//! `cargo bench -p mnemo-core --bench vectors` (about two minutes and 4 GB of memory with the
//! 1M case; `MNEMO_BENCH_SKIP_1M=1` leaves it out). Under `cargo test --benches` only 10k runs.

mod common;

use std::path::PathBuf;
use std::time::{Duration, Instant};

use common::{benchmarking, git_head, load_average, percentiles, Corpus};
use mnemo_core::vectors::{recall_at, OwnerVectors};
use serde_json::json;

/// Timed lookups per case, cycling through the distinct queries.
const LOOKUPS: usize = 1_000;
const QUERIES: usize = 200;
/// Queries whose exact top 10 is computed for recall.
const RECALL_QUERIES: usize = 100;
/// Neighbours a search asks for (`recall.candidates`) and a write asks for (`SURPRISE_K`).
const SEARCH_K: usize = 50;
const WRITE_K: usize = 5;

fn main() {
    let full = benchmarking();
    let skip_1m = std::env::var("MNEMO_BENCH_SKIP_1M").is_ok_and(|v| v == "1");
    let sizes: &[usize] = match (full, skip_1m) {
        (false, _) => &[10_000],
        (true, true) => &[10_000, 100_000],
        (true, false) => &[10_000, 100_000, 1_000_000],
    };
    let corpus = Corpus::new();
    let queries: Vec<Vec<f32>> = corpus
        .queries(QUERIES)
        .into_iter()
        .map(|q| q.vector.expect("bench queries carry vectors"))
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
        let time = |k: usize| {
            let times: Vec<Duration> = (0..if full { LOOKUPS } else { 50 })
                .map(|i| {
                    let t = Instant::now();
                    let hits = set.nearest(&queries[i % QUERIES], k);
                    let spent = t.elapsed();
                    assert_eq!(hits.len(), k);
                    spent
                })
                .collect();
            percentiles(&times)
        };
        let (search, write) = (time(SEARCH_K), time(WRITE_K));
        let rq = &queries[..if full { RECALL_QUERIES } else { 5 }];
        let recall = recall_at(&set, &all, rq, 10);
        let recall_50 = recall_at(&set, &all, rq, SEARCH_K);
        println!(
            "{n:>8} vectors: nearest k={SEARCH_K} p50 {:.3} ms p95 {:.3} ms; k={WRITE_K} p50 {:.3} \
             ms p95 {:.3} ms; recall@10 {recall:.4}, @50 {recall_50:.4}; loaded in {:.2} s",
            search.p50_ms,
            search.p95_ms,
            write.p50_ms,
            write.p95_ms,
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
