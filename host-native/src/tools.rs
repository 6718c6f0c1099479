//! Tools for checking Mnemo itself: conformance scenarios and the benchmark workload, each on
//! a fresh temporary store.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{bail, Context, Result};
use serde_json::{json, Value};

use crate::cli::{read_input, SEED_BATCH};
use crate::datadir::DataDir;
use crate::random_seed;
use crate::runtime::{self, Clock, Options, Runtime};

/// Runs a scenario in a temporary data directory; prints `[{"ok": …} | {"error": …}, …]`.
pub fn scenario(file: &PathBuf) -> Result<ExitCode> {
    let text = read_input(file)?;
    let sc: Value =
        serde_json::from_str(&text).with_context(|| format!("{} is not JSON", file.display()))?;
    let (Some(now), Some(seed), Some(steps)) = (
        sc["now"].as_i64(),
        sc["seed"].as_u64(),
        sc["steps"].as_array(),
    ) else {
        bail!("a scenario is {{\"now\": ms, \"seed\": n, \"steps\": [{{\"method\", \"args\"?, \"at\"?}}]}}");
    };
    let dir = std::env::temp_dir().join(format!(
        "mnemo-scenario-{}-{}",
        std::process::id(),
        random_seed()
    ));
    let result = (|| {
        let data = DataDir::take(&dir)?;
        let mut rt = Runtime::open(Options {
            data: data.path.clone(),
            clock: Clock::Fixed(now),
            seed,
            embedding: None,
            llm: None,
        })?;
        let mut out = Vec::new();
        for step in steps {
            if let Some(at) = step["at"].as_i64() {
                rt.set_now(at);
            }
            let args = step
                .get("args")
                .map_or_else(|| "{}".to_string(), Value::to_string);
            out.push(match rt.call(s(&step["method"]), &args)? {
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

/// `mnemo bench`: the workload of core's `workload` example, through the component.
pub fn bench(corpus: &PathBuf) -> Result<ExitCode> {
    let corpus: Value = serde_json::from_str(&read_input(corpus)?)?;
    let (Some(items), Some(queries)) = (corpus["items"].as_array(), corpus["queries"].as_array())
    else {
        bail!("a corpus is {{\"items\": [...], \"queries\": [...]}} (core's bench_corpus example)");
    };
    let dir = std::env::temp_dir().join(format!("mnemo-bench-{}", std::process::id()));
    let data = DataDir::take(&dir)?;
    let started = std::time::Instant::now();
    let embedding = runtime::Embedding::Supplied {
        model: corpus["model"].as_str().unwrap_or("bench-384").to_string(),
        dimension: corpus["dimension"].as_u64().unwrap_or(384) as u32,
    };
    let mut rt = Runtime::open(Options {
        data: data.path.clone(),
        clock: Clock::Fixed(1_700_000_000_000),
        seed: 1,
        embedding: Some(embedding),
        llm: None,
    })?;
    let open_ms = started.elapsed().as_secs_f64() * 1000.0;
    let t = std::time::Instant::now();
    for batch in items.chunks(SEED_BATCH) {
        if let Err(e) = rt.call("seed", &json!({ "items": batch }).to_string())? {
            bail!("seed failed: {}", e.message);
        }
    }
    let seed_s = t.elapsed().as_secs_f64();
    let mut ms = Vec::with_capacity(queries.len());
    for q in queries {
        let args = q.to_string();
        let t = std::time::Instant::now();
        if let Err(e) = rt.call("search", &args)? {
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
            "memories": items.len(),
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
    let args = json!({ "entity_id": entity, "dry_run": true }).to_string();
    let mut ms = Vec::with_capacity(checks + 1);
    for _ in 0..=checks {
        let t = std::time::Instant::now();
        if let Err(e) = rt.call("heartbeat_check", &args)? {
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

fn s(v: &Value) -> &str {
    v.as_str().unwrap_or("")
}
