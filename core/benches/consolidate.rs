//! Consolidation on one owner of 10,000 memories in a real SQLite file (the search bench's
//! corpus: 50 topics, supplied 384-d vectors; no near-duplicates above 0.8, so nothing merges
//! and every step examines the whole store), and 2,000 `remember`ed statements in 200
//! sessions naming pairs of ten people and five places, a quarter of them saying where one
//! works (so the graph has bridges to propose and beliefs to probe). A month after they were
//! written, with 2,000 searches behind them (co-recalls), `consolidate` runs until no step
//! reports more work; each
//! run is timed and its report kept. Then one more run: the steady state, where every step
//! finds nothing to change, and the bytes the vectors took before and after (re-quantisation
//! by retention), and how long the daily check of the whole file takes (SQLite's
//! `quick_check`). Writes `target/mnemo-bench-consolidate.json`. Under
//! `cargo test --benches` it runs on 1,000 memories without writing anything.
//! `MNEMO_BENCH_MEMORIES=100000` builds the owner that large instead (and writes
//! `target/mnemo-bench-consolidate-100000.json`).
//!
//! `cargo bench -p mnemo-core --bench consolidate`

mod common;

use std::time::Instant;

use common::{benchmarking, fill, git_head, load_average, Corpus, TempDir, DIM, MODEL, T0};
use mnemo_core::*;
use serde_json::json;

const MEMORIES: usize = 10_000;
const SMOKE_MEMORIES: usize = 1_000;
/// Statements `remember`ed, ten to a session.
const REMEMBERED: usize = 2_000;
const SMOKE_REMEMBERED: usize = 200;
const PEOPLE: &[&str] = &[
    "Ana", "Tom", "Priya", "Kenji", "Mei", "Lars", "Sofia", "Omar", "Ines", "Ravi",
];
const PLACES: &[&str] = &["Lisbon", "Berlin", "Kyoto", "Oslo", "Lima"];
const EMPLOYERS: &[&str] = &["Acme", "Globex", "Initech", "Umbrella"];
const SEARCHES: usize = 2_000;
/// Runs at most beyond one per 1,000 memories (each step stops at 1,000 rows per run).
const MAX_RUNS: usize = 40;

fn main() {
    let full = benchmarking();
    let asked = std::env::var("MNEMO_BENCH_MEMORIES").ok().map(|v| {
        v.parse::<usize>()
            .expect("MNEMO_BENCH_MEMORIES: a number of memories")
    });
    let n = match (full, asked) {
        (false, _) => SMOKE_MEMORIES,
        (true, Some(n)) => n,
        (true, None) => MEMORIES,
    };
    let load_before = load_average();
    let dir = TempDir::new("consolidate");
    let clock = ManualClock::new(T0);
    let store = dir.file("store");
    let mut e = Engine::builder(clock.clone())
        .embedder(SuppliedVectors::new(MODEL, DIM))
        .entropy(SeededEntropy::new(7))
        .open(&store)
        .expect("open bench store");
    let corpus = Corpus::new();
    let (tally, spent) = fill(&mut e, &corpus, 0, n);
    println!(
        "built {n} memories in {:.1} s (created {})",
        spent.as_secs_f64(),
        tally.created
    );
    let remembered = if full { REMEMBERED } else { SMOKE_REMEMBERED };
    let mut rng = common::SplitMix64::new(11);
    let t = Instant::now();
    for i in 0..remembered {
        clock.set(T0 + (i as Millis) * 60_000);
        let who = PEOPLE[i % PEOPLE.len()];
        let other = PEOPLE[(i / PEOPLE.len() + i + 1) % PEOPLE.len()];
        let text = if i % 4 == 3 {
            format!(
                "Yesterday {other} told me {who} works at {}.",
                EMPLOYERS[(i / 40) % EMPLOYERS.len()]
            )
        } else {
            format!(
                "Yesterday {who} and {other} met in {} ({i}).",
                PLACES[i % PLACES.len()]
            )
        };
        let opts = RememberOptions {
            session_id: Some(Id::parse("session_id", &format!("s{}", i / 10)).expect("an id")),
            ..RememberOptions::default()
        };
        // The store's embedder is the host's (supplied vectors): the host's random one each.
        let mut found = e.extract(&text).expect("extract");
        for x in &mut found {
            x.vector = Some((0..DIM).map(|_| rng.next_normal()).collect());
        }
        e.remember_extracted(common::OWNER, found, opts)
            .expect("remember");
    }
    println!(
        "remembered {remembered} statements in {:.1} s",
        t.elapsed().as_secs_f64()
    );
    for q in 0..SEARCHES {
        e.search(&corpus.query(q % 200)).expect("search");
    }
    clock.advance(30 * DAY_MS);
    let before = e.store_stats().expect("stats");
    let mut runs = Vec::new();
    for _ in 0..MAX_RUNS + n / 1_000 {
        let t = Instant::now();
        let report = e.consolidate().expect("consolidate");
        let ms = t.elapsed().as_secs_f64() * 1e3;
        let c = report.consolidation.expect("consolidate consolidates");
        println!(
            "run {}: {ms:.0} ms; examined {} (relate) / {} (tiers); linked {}, tagged {}, \
             to archive {}, merged {}, bridges {}, challenged {}; more: {}",
            runs.len() + 1,
            c.relationships.examined,
            c.tiers.examined,
            c.relationships.linked,
            c.tags.tagged,
            c.tiers.to_archive,
            c.clusters.merged,
            c.synthesis.proposed,
            c.probing.challenged,
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
    // What the first pass after opening, and then one a day, adds: the file checked whole.
    let conn = rusqlite::Connection::open(&store).expect("open the store again");
    let t = Instant::now();
    let whole: String = conn
        .query_row("PRAGMA quick_check(1)", [], |r| r.get(0))
        .expect("quick_check");
    let check_ms = t.elapsed().as_secs_f64() * 1e3;
    println!("quick_check: {check_ms:.0} ms ({whole})");
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
            "quick_check_ms": check_ms,
            "steady_state": steady.consolidation,
            "vector_bytes_before": before.vector_bytes,
            "vector_bytes_after": after.vector_bytes,
            "by_precision_after": after.by_precision,
            "git_head": git_head(),
            "load_average_before": load_before,
        });
        let name = match asked {
            Some(n) => format!("mnemo-bench-consolidate-{n}.json"),
            None => "mnemo-bench-consolidate.json".to_string(),
        };
        let path = format!("{}/../target/{name}", env!("CARGO_MANIFEST_DIR"));
        std::fs::write(&path, serde_json::to_string_pretty(&out).expect("json")).expect("write");
        println!("wrote {path}");
    }
}
