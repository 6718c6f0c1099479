//! Timings inside the engine component, through the same wasmtime host as `mnemo`: the
//! benchmark workload on a fresh store, and heartbeat checks on a store already built.

use std::path::Path;
use std::time::Instant;

use anyhow::{bail, Context, Result};
use mnemo_core::api::SeedArgs;
use mnemo_core::{Call, HeartbeatRequest, Id, NewMemory, SearchRequest};
use mnemo_host::datadir::{DataDir, Need};
use mnemo_host::runtime::{Clock, Embedding, Options, Runtime};
use serde_json::json;

/// Memories per `seed` call, as `mnemo seed` commits a file of them.
const SEED_BATCH: usize = 1000;
/// The corpus's last memories, each seeded by a call of its own after the batches: small
/// commits, as a server or an agent makes them.
const SINGLE_WRITES: usize = 200;

/// A benchmark corpus, as core's `bench_corpus` example writes it.
#[derive(serde::Deserialize)]
struct Corpus {
    model: String,
    dimension: u32,
    items: Vec<NewMemory>,
    queries: Vec<SearchRequest>,
}

/// The workload of core's `workload` example, through the component; prints the raw timings
/// (the benchmark script computes rates and percentiles for both runs).
pub fn workload(corpus: &Path) -> Result<()> {
    let text =
        std::fs::read_to_string(corpus).with_context(|| format!("reading {}", corpus.display()))?;
    let corpus: Corpus = serde_json::from_str(&text).context(
        "a corpus is {\"model\", \"dimension\", \"items\": [...], \"queries\": [...]} (core's bench_corpus example)",
    )?;
    let dir = std::env::temp_dir().join(format!("mnemo-bench-{}", std::process::id()));
    let data = DataDir::take(&dir)?;
    let started = Instant::now();
    let embedding = Embedding::Supplied {
        model: corpus.model.clone(),
        dimension: corpus.dimension,
    };
    let mut rt = Runtime::open(Options {
        data: data.path.clone(),
        clock: Clock::Fixed(1_700_000_000_000),
        seed: 1,
        embedding: Some(embedding),
        llm: None,
        config: String::new(),
        workspace: None,
    })?;
    let open_ms = started.elapsed().as_secs_f64() * 1000.0;
    let split = corpus.items.len().saturating_sub(SINGLE_WRITES);
    let (batched, single) = corpus.items.split_at(split);
    let batches: Vec<Call> = batched
        .chunks(SEED_BATCH)
        .map(|c| Call::Seed(SeedArgs { items: c.to_vec() }))
        .collect();
    let t = Instant::now();
    for call in &batches {
        if let Err(e) = rt.call(call.method(), &call.args_json())? {
            bail!("seed failed: {}", e.message);
        }
    }
    let seed_s = t.elapsed().as_secs_f64();
    let t = Instant::now();
    for item in single {
        let call = Call::Seed(SeedArgs {
            items: vec![item.clone()],
        });
        if let Err(e) = rt.call(call.method(), &call.args_json())? {
            bail!("seed failed: {}", e.message);
        }
    }
    let single_s = t.elapsed().as_secs_f64();
    let mut ms = Vec::with_capacity(corpus.queries.len());
    for q in corpus.queries {
        let call = Call::Search(q);
        let args = call.args_json();
        let t = Instant::now();
        if let Err(e) = rt.call(call.method(), &args)? {
            bail!("search failed: {}", e.message);
        }
        ms.push(t.elapsed().as_secs_f64() * 1000.0);
    }
    rt.close()?;
    drop(data);
    let _ = std::fs::remove_dir_all(&dir);
    println!(
        "{}",
        json!({
            "memories": batched.len(),
            "seed_seconds": seed_s,
            "single_writes": single.len(),
            "single_seconds": single_s,
            "search_ms": ms,
            "open_ms": open_ms,
        })
    );
    Ok(())
}

/// Dry-run heartbeat checks of `entity` on the store in `data` at `now`, each timed; prints
/// the raw timings (the benchmark script computes the percentiles).
pub fn heartbeat(data: &Path, now: i64, entity: &str, checks: usize) -> Result<()> {
    let dir = DataDir::open(data, Need::Existing)?;
    let mut rt = Runtime::open(Options {
        data: dir.path.clone(),
        clock: Clock::Fixed(now),
        seed: 1,
        embedding: None,
        llm: None,
        config: String::new(),
        workspace: None,
    })?;
    let call = Call::HeartbeatCheck(HeartbeatRequest {
        dry_run: true,
        ..HeartbeatRequest::new(Id::owner(entity)?)
    });
    let args = call.args_json();
    let mut ms = Vec::with_capacity(checks + 1);
    for _ in 0..=checks {
        let t = Instant::now();
        if let Err(e) = rt.call(call.method(), &args)? {
            bail!("heartbeat_check failed: {}", e.message);
        }
        ms.push(t.elapsed().as_secs_f64() * 1000.0);
    }
    rt.close()?;
    // The first check loads the owner's vectors.
    let first = ms.remove(0);
    println!("{}", json!({ "first_ms": first, "check_ms": ms }));
    Ok(())
}
