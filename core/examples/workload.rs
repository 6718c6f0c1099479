//! The seed-and-search workload of `npm run bench:wasmtime`, run natively through the same
//! JSON call path the component uses (`Engine::call_json`), on a SQLite file: seeds the
//! corpus (bench_corpus's JSON) in batches of 1,000 but its last 200, which it seeds one per
//! call, then times each search. Prints JSON.
//!
//! `cargo run --release -p mnemo-core --example workload -- corpus.json`

use std::time::Instant;

use mnemo_core::{Engine, ManualClock, SeededEntropy, SuppliedVectors};
use serde_json::{json, Value};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let path = std::env::args()
        .nth(1)
        .ok_or("usage: workload <corpus.json>")?;
    let corpus: Value = serde_json::from_str(&std::fs::read_to_string(path)?)?;
    let dir = std::env::temp_dir().join(format!("mnemo-workload-{}", std::process::id()));
    std::fs::create_dir_all(&dir)?;
    let mut engine = Engine::builder(ManualClock::new(1_700_000_000_000))
        .entropy(SeededEntropy::new(1))
        .embedder(SuppliedVectors::new(
            corpus["model"].as_str().unwrap_or("bench-384"),
            corpus["dimension"].as_u64().unwrap_or(384) as usize,
        ))
        .open(dir.join("mnemo.db"))?;
    let all = corpus["items"].as_array().ok_or("no items")?;
    let (items, single) = all.split_at(all.len().saturating_sub(200));
    let queries = corpus["queries"].as_array().ok_or("no queries")?;
    let t = Instant::now();
    for batch in items.chunks(1000) {
        engine.call_json("seed", &json!({ "items": batch }).to_string())?;
    }
    let seed_s = t.elapsed().as_secs_f64();
    let t = Instant::now();
    for item in single {
        engine.call_json("seed", &json!({ "items": [item] }).to_string())?;
    }
    let single_s = t.elapsed().as_secs_f64();
    let mut ms: Vec<f64> = Vec::with_capacity(queries.len());
    for q in queries {
        let args = q.to_string();
        let t = Instant::now();
        engine.call_json("search", &args)?;
        ms.push(t.elapsed().as_secs_f64() * 1000.0);
    }
    // Raw timings: the benchmark script computes rates and percentiles for both runs.
    println!(
        "{}",
        json!({
            "memories": items.len(),
            "seed_seconds": seed_s,
            "single_writes": single.len(),
            "single_seconds": single_s,
            "search_ms": ms,
        })
    );
    drop(engine);
    std::fs::remove_dir_all(&dir)?;
    Ok(())
}
