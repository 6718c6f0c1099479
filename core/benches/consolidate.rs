//! Consolidation on one owner of 10,000 memories in a real SQLite file (the search bench's
//! corpus: 50 topics, supplied 384-d vectors; no near-duplicates above 0.8, so nothing merges
//! and every step examines the whole store). A month after they were written, with 2,000
//! searches behind them (co-recalls), `consolidate` runs until no step reports more work; each
//! run is timed and its report kept. Then one more run: the steady state, where every step
//! finds nothing to change, and the bytes the vectors took before and after (re-quantisation
//! by retention). Writes `target/mnemo-bench-consolidate.json`. Under
//! `cargo test --benches` it runs on 1,000 memories without writing anything.
//!
//! `cargo bench -p mnemo-core --bench consolidate`

mod common;

use std::time::Instant;

use common::{benchmarking, fill, git_head, load_average, Corpus, TempDir, DIM, MODEL, T0};
use mnemo_core::*;
use serde_json::json;

const MEMORIES: usize = 10_000;
const SMOKE_MEMORIES: usize = 1_000;
const SEARCHES: usize = 2_000;
/// Runs at most (each step stops at 1,000 rows per run).
const MAX_RUNS: usize = 50;

fn main() {
    let full = benchmarking();
    let n = if full { MEMORIES } else { SMOKE_MEMORIES };
    let load_before = load_average();
    let dir = TempDir::new("consolidate");
    let clock = ManualClock::new(T0);
    let mut e = Engine::builder(clock.clone())
        .embedder(SuppliedVectors::new(MODEL, DIM))
        .entropy(SeededEntropy::new(7))
        .open(dir.file("store"))
        .expect("open bench store");
    let corpus = Corpus::new();
    let (tally, spent) = fill(&mut e, &corpus, 0, n);
    println!(
        "built {n} memories in {:.1} s (created {})",
        spent.as_secs_f64(),
        tally.created
    );
    for q in 0..SEARCHES {
        e.search(&corpus.query(q % 200)).expect("search");
    }
    clock.advance(30 * DAY_MS);
    let before = e.store_stats().expect("stats");
    let mut runs = Vec::new();
    for _ in 0..MAX_RUNS {
        let t = Instant::now();
        let report = e.consolidate().expect("consolidate");
        let ms = t.elapsed().as_secs_f64() * 1e3;
        let c = report.consolidation.expect("consolidate consolidates");
        println!(
            "run {}: {ms:.0} ms; examined {} (relate) / {} (tiers); linked {}, tagged {}, \
             to archive {}, merged {}; more: {}",
            runs.len() + 1,
            c.relationships.examined,
            c.tiers.examined,
            c.relationships.linked,
            c.tags.tagged,
            c.tiers.to_archive,
            c.clusters.merged,
            c.more
        );
        let more = c.more;
        runs.push(json!({"ms": ms, "maintenance_examined": report.examined, "report": c}));
        if !more {
            break;
        }
    }
    let t = Instant::now();
    let steady = e.consolidate().expect("consolidate");
    let steady_ms = t.elapsed().as_secs_f64() * 1e3;
    println!("steady state: {steady_ms:.0} ms");
    // Re-quantisation by retention: what the month of fading saved.
    let after = e.store_stats().expect("stats");
    println!(
        "vectors: {} bytes before, {} after ({:?})",
        before.vector_bytes, after.vector_bytes, after.by_precision
    );
    if full {
        let out = json!({
            "memories": n,
            "searches_before": SEARCHES,
            "runs_until_done": runs.len(),
            "runs": runs,
            "steady_state_ms": steady_ms,
            "steady_state": steady.consolidation,
            "vector_bytes_before": before.vector_bytes,
            "vector_bytes_after": after.vector_bytes,
            "by_precision_after": after.by_precision,
            "git_head": git_head(),
            "load_average_before": load_before,
        });
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../target/mnemo-bench-consolidate.json"
        );
        std::fs::write(path, serde_json::to_string_pretty(&out).expect("json")).expect("write");
        println!("wrote {path}");
    }
}
