//! Hybrid search latency (query text + supplied 384-d query vector) with 10,000 and 100,000
//! memories (and 1,000,000 on request) in one owner of a real SQLite file, uncached (search
//! cache off, 200 distinct queries cycled) and cached (default cache, one query repeated).
//! Aims: p95 ≤ 1 ms at 10k, ≤ 3 ms at 100k, ≤ 25 ms at 1M. (The vector index alone, up to
//! 1M: `--bench vectors`.)
//!
//! Before the criterion groups, a plain pass times 1,000 searches per case with `Instant` and
//! a few 1,000-memory seed batches (into an empty owner, an owner of 10k and one of 100k),
//! prints p50/p95/p99 and memories/s, and writes them to `target/mnemo-bench.json`. Set
//! `MNEMO_BENCH_PERCENTILES=0` to skip it, `MNEMO_BENCH_SKIP_100K=1` to leave out the 100k
//! cases (building that store takes about 15 s), `MNEMO_BENCH_1M=1` to add searches in an
//! owner of 1,000,000 memories to the pass (growing that store from the 100k one by seeding
//! takes about 10 minutes, 3 GB of disk and 5 GB of memory). Under `cargo test --benches`
//! (no `--bench` flag) the pass and the 100k cases are skipped.
//!
//! `cargo bench -p mnemo-core --bench search`

mod common;

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use common::{
    build_store, fill, git_head, load_average, open_engine, percentiles, timed_seed, Corpus,
    Percentiles, SeedInto, TempDir, QUERIES, SEED_BATCH,
};
use criterion::{BenchmarkId, Criterion};
use mnemo_core::{Engine, SearchRequest};
use serde_json::{json, Value};

/// Searches timed per case in the percentile pass, after this many untimed warm-up searches.
const TIMED_SEARCHES: usize = 1_000;
const WARM_UP_SEARCHES: usize = 50;
/// Seed batches timed per case in the percentile pass (the median is reported).
const SEED_REPS: usize = 5;

/// Bench stores (built lazily, once per process) and engines open on them.
struct Fixture {
    corpus: Corpus,
    dir: TempDir,
    stores: BTreeMap<usize, PathBuf>,
    /// Seconds spent in `seed` calls to build each store from nothing.
    build_secs: BTreeMap<usize, f64>,
    /// (memories, cached) → engine.
    engines: BTreeMap<(usize, bool), Engine>,
}

impl Fixture {
    fn new() -> Self {
        Fixture {
            corpus: Corpus::new(),
            dir: TempDir::new("search"),
            stores: BTreeMap::new(),
            build_secs: BTreeMap::new(),
            engines: BTreeMap::new(),
        }
    }

    /// The store holding memories `0 .. n`; a bigger store is grown from a copy of the
    /// biggest smaller one.
    fn store(&mut self, n: usize) -> PathBuf {
        if let Some(p) = self.stores.get(&n) {
            return p.clone();
        }
        let path = self.dir.file(&format!("store-{n}"));
        let below = self
            .stores
            .range(..n)
            .next_back()
            .map(|(&m, p)| (m, p.clone()));
        let secs = match below {
            None => build_store(&path, &self.corpus, n).as_secs_f64(),
            Some((m, from)) => {
                std::fs::copy(&from, &path).expect("copy store");
                let mut engine = open_engine(&path, None);
                let (tally, spent) = fill(&mut engine, &self.corpus, m as u64, n - m);
                let total = self.build_secs[&m] + spent.as_secs_f64();
                println!(
                    "grew the store from {m} to {n} memories in {:.1} s ({:.0} memories/s; \
                     created {}, merged {}, skipped {}); {:.1} s from nothing",
                    spent.as_secs_f64(),
                    (n - m) as f64 / spent.as_secs_f64(),
                    tally.created,
                    tally.merged,
                    tally.skipped,
                    total
                );
                total
            }
        };
        self.build_secs.insert(n, secs);
        self.stores.insert(n, path.clone());
        path
    }

    /// An engine on the store of `n` memories, with the default search cache or none.
    fn engine(&mut self, n: usize, cached: bool) -> &mut Engine {
        if !self.engines.contains_key(&(n, cached)) {
            let path = self.store(n);
            let engine = open_engine(&path, if cached { None } else { Some(0) });
            self.engines.insert((n, cached), engine);
        }
        self.engines.get_mut(&(n, cached)).expect("just opened")
    }
}

/// `MNEMO_BENCH_SKIP_100K=1` leaves out the 100k cases (whose store takes a minute to build).
fn skip_100k() -> bool {
    std::env::var("MNEMO_BENCH_SKIP_100K").is_ok_and(|v| v == "1")
}

/// `MNEMO_BENCH_1M=1` adds the 1M searches to the percentile pass.
fn with_1m() -> bool {
    std::env::var("MNEMO_BENCH_1M").is_ok_and(|v| v == "1") && !skip_100k()
}

fn label(n: usize) -> String {
    if n >= 1_000_000 {
        format!("{}M", n / 1_000_000)
    } else {
        format!("{}k", n / 1000)
    }
}

/// Times `TIMED_SEARCHES` searches: cycling through the distinct queries when uncached,
/// repeating the first one when cached.
fn time_searches(engine: &mut Engine, queries: &[SearchRequest], cached: bool) -> Percentiles {
    let pick = |i: usize| &queries[if cached { 0 } else { i % queries.len() }];
    for i in 0..WARM_UP_SEARCHES {
        engine.search(pick(i)).expect("warm-up search");
    }
    let mut times = Vec::with_capacity(TIMED_SEARCHES);
    for i in 0..TIMED_SEARCHES {
        let q = pick(WARM_UP_SEARCHES + i);
        let t = Instant::now();
        let hits = engine.search(q).expect("search");
        times.push(t.elapsed());
        assert!(!hits.is_empty(), "a bench query found nothing");
    }
    percentiles(&times)
}

/// Median throughput of `SEED_REPS` timed seed batches, in memories/s.
fn seed_rate(fx: &Fixture, into: &SeedInto) -> f64 {
    let mut rates: Vec<f64> = (0..SEED_REPS)
        .map(|_| SEED_BATCH as f64 / timed_seed(&fx.dir, &fx.corpus, into).as_secs_f64())
        .collect();
    rates.sort_by(f64::total_cmp);
    rates[rates.len() / 2]
}

fn round(x: f64, digits: i32) -> f64 {
    let f = 10f64.powi(digits);
    (x * f).round() / f
}

/// The plain percentile pass; writes `target/mnemo-bench.json`.
fn percentile_report(fx: &mut Fixture, queries: &[SearchRequest], git_head: Option<String>) {
    println!("== percentile pass ({TIMED_SEARCHES} searches per case) ==");
    let load_before = load_average();
    let mut search = serde_json::Map::new();
    let mut seed = serde_json::Map::new();
    for (n, target_p95) in [(10_000, 1.0), (100_000, 3.0), (1_000_000, 25.0)] {
        if (n > 10_000 && skip_100k()) || (n > 100_000 && !with_1m()) {
            continue;
        }
        for cached in [false, true] {
            let p = time_searches(fx.engine(n, cached), queries, cached);
            let case = format!(
                "{}_{}",
                label(n),
                if cached { "cached" } else { "uncached" }
            );
            println!(
                "search {case:>14}: p50 {:.3} ms  p95 {:.3} ms  p99 {:.3} ms  mean {:.3} ms  \
                 max {:.3} ms  (target p95 ≤ {target_p95} ms: {})",
                p.p50_ms,
                p.p95_ms,
                p.p99_ms,
                p.mean_ms,
                p.max_ms,
                if p.p95_ms <= target_p95 {
                    "met"
                } else {
                    "MISSED"
                }
            );
            search.insert(
                case,
                json!({
                    "memories": n,
                    "cache": cached,
                    "queries": if cached { 1 } else { queries.len() },
                    "n": p.n,
                    "p50_ms": round(p.p50_ms, 4),
                    "p95_ms": round(p.p95_ms, 4),
                    "p99_ms": round(p.p99_ms, 4),
                    "mean_ms": round(p.mean_ms, 4),
                    "max_ms": round(p.max_ms, 4),
                    "target_p95_ms": target_p95,
                    "target_met": p.p95_ms <= target_p95,
                }),
            );
        }
        // Free the big vector sets before the next size.
        fx.engines.clear();
        // Seed throughput into an empty owner and an owner of 10k (aim 20,000/s), and into an
        // owner of 100k (aim 10,000/s).
        let base = fx.store(n);
        let cases: &[(&str, SeedInto, f64)] = match n {
            10_000 => &[
                ("into_empty_owner", SeedInto::Empty, 20_000.0),
                ("into_owner_with_10k", SeedInto::CopyOf(&base), 20_000.0),
            ],
            100_000 => &[("into_owner_with_100k", SeedInto::CopyOf(&base), 10_000.0)],
            _ => &[],
        };
        for (case, into, target) in cases {
            let rate = seed_rate(fx, into);
            println!(
                "seed {case:>20}: {rate:.0} memories/s (median of {SEED_REPS} batches of \
                 {SEED_BATCH}; target ≥ {target}: {})",
                if rate >= *target { "met" } else { "MISSED" }
            );
            seed.insert(
                case.to_string(),
                json!({
                    "batch": SEED_BATCH,
                    "batches": SEED_REPS,
                    "memories_per_s": rate.round(),
                    "target_memories_per_s": target,
                    "target_met": rate >= *target,
                }),
            );
        }
    }
    let build: serde_json::Map<String, Value> = fx
        .build_secs
        .iter()
        .map(|(&n, &s)| (format!("store_{}_s", label(n)), json!(round(s, 2))))
        .collect();
    let report = json!({
        "bench": "cargo bench -p mnemo-core --bench search",
        "git_head": git_head,
        "vectors": { "model": common::MODEL, "dim": common::DIM, "supplied": true },
        "dedup": true,
        "seed": seed,
        "search": search,
        "build_seed_seconds": build,
        // Other work on the machine skews every figure; the 1-minute load average is kept to
        // tell a quiet run from a busy one.
        "load_average_1m": { "before": load_before, "after": load_average() },
    });
    let dir = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../target"));
    let path = dir.join("mnemo-bench.json");
    let text = serde_json::to_string_pretty(&report).expect("serialise report");
    match std::fs::create_dir_all(&dir).and_then(|_| std::fs::write(&path, text + "\n")) {
        Ok(()) => println!("wrote {}", path.display()),
        Err(e) => eprintln!("could not write {}: {e}", path.display()),
    }
}

fn criterion_benches(c: &mut Criterion, fx: &mut Fixture, queries: &[SearchRequest], full: bool) {
    let sizes: &[usize] = if full && !skip_100k() {
        &[10_000, 100_000]
    } else {
        &[10_000]
    };
    let mut group = c.benchmark_group("search");
    group
        .sample_size(20)
        .warm_up_time(Duration::from_secs(2))
        .measurement_time(Duration::from_secs(5));
    for &n in sizes {
        for cached in [false, true] {
            let id = BenchmarkId::new(if cached { "cached" } else { "uncached" }, label(n));
            let mut i = 0usize;
            group.bench_function(id, |b| {
                let engine = fx.engine(n, cached);
                b.iter(|| {
                    let q = &queries[if cached { 0 } else { i % queries.len() }];
                    i += 1;
                    engine.search(q).expect("search")
                })
            });
        }
        fx.engines.clear();
    }
    group.finish();
}

fn main() {
    let head = git_head();
    let full = common::benchmarking();
    let mut fx = Fixture::new();
    let queries = fx.corpus.queries(QUERIES);
    if full && std::env::var("MNEMO_BENCH_PERCENTILES").as_deref() != Ok("0") {
        percentile_report(&mut fx, &queries, head);
    }
    let mut c = Criterion::default().configure_from_args();
    criterion_benches(&mut c, &mut fx, &queries, full);
    c.final_summary();
}
