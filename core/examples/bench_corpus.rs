//! Writes the benchmarks' deterministic corpus as JSON — `{"items": [NewMemory…], "queries":
//! [SearchRequest…]}` — so the browser benchmark seeds and searches exactly what the native
//! criterion benchmarks do.
//!
//! `cargo run --release -p mnemo-core --example bench_corpus -- 10000 1000 > corpus.json`
#[path = "../benches/common/mod.rs"]
mod common;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let n: usize = args.next().unwrap_or_else(|| "10000".into()).parse()?;
    let q: usize = args.next().unwrap_or_else(|| "1000".into()).parse()?;
    let corpus = common::Corpus::new();
    let out = serde_json::json!({
        "model": common::MODEL,
        "dimension": common::DIM,
        "items": corpus.batch(0, n),
        "queries": corpus.queries(q),
    });
    serde_json::to_writer(std::io::stdout().lock(), &out)?;
    Ok(())
}
