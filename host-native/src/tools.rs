//! Tools for checking Mnemo itself: conformance scenarios and the benchmark workload, each on
//! a fresh temporary store.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{bail, Context, Result};
use mnemo_core::api::{Scenario, SeedArgs};
use mnemo_core::{Call, HeartbeatRequest, NewMemory, SearchRequest};
use serde_json::{json, Value};

use crate::cli::{read_input, SEED_BATCH};
use crate::datadir::DataDir;
use crate::random_seed;
use crate::runtime::{self, Clock, Options, Runtime};

/// Runs a scenario in a temporary data directory; prints `[{"ok": …} | {"error": …}, …]`.
pub fn scenario(file: &PathBuf) -> Result<ExitCode> {
    let text = read_input(file)?;
    let sc: Scenario = serde_json::from_str(&text).with_context(|| {
        format!(
            "{} is not a scenario ({{now, seed, config?, steps}})",
            file.display()
        )
    })?;
    let dir = std::env::temp_dir().join(format!(
        "mnemo-scenario-{}-{}",
        std::process::id(),
        random_seed()
    ));
    let result = (|| {
        let data = DataDir::take(&dir)?;
        let mut rt = Runtime::open(Options {
            data: data.path.clone(),
            clock: Clock::Fixed(sc.now),
            seed: sc.seed,
            embedding: None,
            llm: None,
            config: match &sc.config {
                Some(c) => serde_json::to_string(c)?,
                None => String::new(),
            },
        })?;
        let mut out = Vec::new();
        for step in &sc.steps {
            if let Some(at) = step.at {
                rt.set_now(at);
            }
            let args = step
                .args
                .as_ref()
                .map_or_else(|| "{}".to_string(), Value::to_string);
            out.push(match rt.call(&step.method, &args)? {
                Ok(v) => json!({ "ok": serde_json::from_str::<Value>(&v)? }),
                Err(e) => json!({ "error": { "code": e.code, "message": e.message } }),
            });
        }
        rt.close()?;
        println!("{}", serde_json::to_string_pretty(&out)?);
        Ok(ExitCode::SUCCESS)
    })();
    let _ = std::fs::remove_dir_all(&dir);
    result
}

/// A benchmark corpus, as core's `bench_corpus` example writes it.
#[derive(serde::Deserialize)]
struct Corpus {
    model: String,
    dimension: u32,
    items: Vec<NewMemory>,
    queries: Vec<SearchRequest>,
}

/// `mnemo bench`: the workload of core's `workload` example, through the component.
pub fn bench(corpus: &PathBuf) -> Result<ExitCode> {
    let corpus: Corpus = serde_json::from_str(&read_input(corpus)?).context(
        "a corpus is {\"model\", \"dimension\", \"items\": [...], \"queries\": [...]} (core's bench_corpus example)",
    )?;
    let dir = std::env::temp_dir().join(format!("mnemo-bench-{}", std::process::id()));
    let data = DataDir::take(&dir)?;
    let started = std::time::Instant::now();
    let embedding = runtime::Embedding::Supplied {
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
    })?;
    let open_ms = started.elapsed().as_secs_f64() * 1000.0;
    let batches: Vec<Call> = corpus
        .items
        .chunks(SEED_BATCH)
        .map(|c| Call::Seed(SeedArgs { items: c.to_vec() }))
        .collect();
    let t = std::time::Instant::now();
    for call in &batches {
        if let Err(e) = rt.call(call.method(), &call.args_json())? {
            bail!("seed failed: {}", e.message);
        }
    }
    let seed_s = t.elapsed().as_secs_f64();
    let mut ms = Vec::with_capacity(corpus.queries.len());
    for q in corpus.queries {
        let call = Call::Search(q);
        let args = call.args_json();
        let t = std::time::Instant::now();
        if let Err(e) = rt.call(call.method(), &args)? {
            bail!("search failed: {}", e.message);
        }
        ms.push(t.elapsed().as_secs_f64() * 1000.0);
    }
    rt.close()?;
    drop(data);
    let _ = std::fs::remove_dir_all(&dir);
    // Raw timings: the benchmark script computes rates and percentiles for both runs.
    println!(
        "{}",
        json!({
            "memories": corpus.items.len(),
            "seed_seconds": seed_s,
            "search_ms": ms,
            "open_ms": open_ms,
        })
    );
    Ok(ExitCode::SUCCESS)
}

/// `mnemo bench-heartbeat`: dry-run heartbeat checks of `entity` through the component,
/// each timed; prints the raw timings (the benchmark script computes the percentiles).
pub fn bench_heartbeat(mut rt: Runtime, entity: &str, checks: usize) -> Result<ExitCode> {
    let call = Call::HeartbeatCheck(HeartbeatRequest {
        entity_id: entity.to_string(),
        dry_run: true,
        ..Default::default()
    });
    let args = call.args_json();
    let mut ms = Vec::with_capacity(checks + 1);
    for _ in 0..=checks {
        let t = std::time::Instant::now();
        if let Err(e) = rt.call(call.method(), &args)? {
            bail!("heartbeat_check failed: {}", e.message);
        }
        ms.push(t.elapsed().as_secs_f64() * 1000.0);
    }
    rt.close()?;
    // The first check loads the owner's vectors.
    let first = ms.remove(0);
    println!("{}", json!({ "first_ms": first, "check_ms": ms }));
    Ok(ExitCode::SUCCESS)
}
