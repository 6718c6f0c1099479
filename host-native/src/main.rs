//! `mnemo`: Mnemo for native programs. Every command runs the engine component inside
//! wasmtime on a store in the data directory, so the native tool and the browser run the same
//! engine code and give the same JSON.

mod datadir;
mod output;
mod providers;
mod runtime;
mod serve;

use std::io::{IsTerminal, Read};
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{bail, Context, Result};
use clap::{Parser, Subcommand};
use serde_json::{json, Map, Value};

use datadir::DataDir;
use runtime::{Clock, Options, Runtime};

/// Long-term memory for AI agents: remember, search and manage memories in a local store.
#[derive(Parser)]
#[command(name = "mnemo", version)]
struct Cli {
    /// The data directory holding the store.
    #[arg(long, global = true, env = "MNEMO_DATA", default_value = "mnemo-data")]
    data: PathBuf,
    /// Run as if it were this time (RFC 3339, e.g. 2026-01-31T09:00:00Z, or ms since the
    /// epoch): every time-dependent step uses it, so scripts can replay months in seconds.
    #[arg(long, global = true)]
    now: Option<String>,
    /// Print one JSON document instead of text.
    #[arg(long, global = true)]
    json: bool,
    /// Seed of the memory-id generator (default: random).
    #[arg(long, global = true)]
    seed: Option<u64>,
    /// An OpenAI-compatible embeddings API (e.g. http://127.0.0.1:11434/v1 for Ollama) to
    /// embed with instead of the built-in embedder; needs --embed-model.
    #[arg(long, global = true, env = "MNEMO_EMBED_URL", requires = "embed_model")]
    embed_url: Option<String>,
    /// The model the embeddings API should use (recorded in the store).
    #[arg(long, global = true, env = "MNEMO_EMBED_MODEL")]
    embed_model: Option<String>,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Remember a piece of conversation (the extractor decides what to store).
    Remember {
        #[arg(long)]
        entity: String,
        text: String,
        #[arg(long)]
        session: Option<String>,
        #[arg(long)]
        agent: Option<String>,
        #[arg(long)]
        source_ref: Option<String>,
    },
    /// Store one memory, or JSONL memories from a file (`-` for stdin).
    Seed {
        /// The owner (for a single memory; JSONL lines carry their own `entity_id`).
        #[arg(long)]
        entity: Option<String>,
        /// The memory's content.
        content: Option<String>,
        #[arg(long = "type")]
        memory_type: Option<String>,
        #[arg(long)]
        importance: Option<f64>,
        #[arg(long, value_delimiter = ',')]
        tags: Vec<String>,
        #[arg(long)]
        pinned: bool,
        /// JSONL file of memories (`{"entity_id", "content", …}` per line).
        #[arg(long, conflicts_with = "content")]
        file: Option<PathBuf>,
    },
    /// Hybrid search of one owner's memories.
    Search {
        #[arg(long)]
        entity: String,
        query: String,
        #[arg(long)]
        limit: Option<usize>,
        /// balanced, recent, important, historical or comprehensive.
        #[arg(long)]
        mode: Option<String>,
        #[arg(long = "type")]
        types: Vec<String>,
        #[arg(long)]
        include_archived: bool,
    },
    /// One memory.
    Get {
        #[arg(long)]
        entity: String,
        id: String,
    },
    /// An owner's memories, newest first.
    List {
        #[arg(long)]
        entity: String,
        #[arg(long)]
        limit: Option<usize>,
        #[arg(long, default_value_t = 0)]
        offset: usize,
        #[arg(long = "state")]
        states: Vec<String>,
        #[arg(long = "type")]
        types: Vec<String>,
    },
    /// Change a memory.
    Update {
        #[arg(long)]
        entity: String,
        id: String,
        #[arg(long)]
        content: Option<String>,
        #[arg(long = "type")]
        memory_type: Option<String>,
        #[arg(long)]
        importance: Option<f64>,
        #[arg(long, value_delimiter = ',')]
        tags: Option<Vec<String>>,
    },
    /// Forget a memory (soft delete; purged after 90 days).
    Forget {
        #[arg(long)]
        entity: String,
        id: String,
    },
    /// Reinforce a memory (feedback +3).
    Reinforce {
        #[arg(long)]
        entity: String,
        id: String,
    },
    /// Demote a memory (feedback −1).
    Demote {
        #[arg(long)]
        entity: String,
        id: String,
    },
    /// Pin a memory (exempt from decay), or unpin it with --off.
    Pin {
        #[arg(long)]
        entity: String,
        id: String,
        #[arg(long)]
        off: bool,
    },
    /// Set a memory's validity status (active, challenged, invalidated, superseded).
    Status {
        #[arg(long)]
        entity: String,
        id: String,
        status: String,
        #[arg(long)]
        reason: String,
    },
    /// A memory's status changes.
    History {
        #[arg(long)]
        entity: String,
        id: String,
    },
    /// Counts of an owner's memories.
    Stats {
        #[arg(long)]
        entity: String,
    },
    /// Apply decay, lifecycle and purges to the memories that are due.
    Maintain,
    /// An owner's memories as JSONL (to stdout).
    Export {
        #[arg(long)]
        entity: String,
    },
    /// Import JSONL (full exports, or `{entity_id, content, …}` records) from a file or `-`.
    Import { file: PathBuf },
    /// Run a conformance scenario (tests/scenarios/*.json) on a fresh store and print every
    /// call's outcome as JSON — byte-identical to the native core and the browser.
    Scenario { file: PathBuf },
    /// Serve the HTTP API (Keyoku's /api/v1 routes) on this store.
    Serve {
        #[arg(long, default_value = "127.0.0.1")]
        bind: String,
        #[arg(long, default_value_t = 18900)]
        port: u16,
    },
    /// Time the benchmark workload (a corpus from core's bench_corpus example) inside the
    /// component on a fresh store: seeding in batches of 1,000, then each search.
    #[command(hide = true)]
    Bench { corpus: PathBuf },
    /// Any engine call by name, with JSON arguments.
    Call {
        method: String,
        #[arg(default_value = "{}")]
        args: String,
    },
}

/// Milliseconds since the epoch from `--now`.
fn parse_now(s: &str) -> Result<i64> {
    if let Ok(ms) = s.parse::<i64>() {
        return Ok(ms);
    }
    let t = time::OffsetDateTime::parse(s, &time::format_description::well_known::Rfc3339)
        .with_context(|| {
            format!("--now {s:?} is neither RFC 3339 (2026-01-31T09:00:00Z) nor ms since the epoch")
        })?;
    Ok((t.unix_timestamp_nanos() / 1_000_000) as i64)
}

/// A JSON object of the fields that are set.
fn object(fields: Vec<(&str, Value)>) -> Value {
    let map: Map<String, Value> = fields
        .into_iter()
        .filter(|(_, v)| !v.is_null())
        .map(|(k, v)| (k.to_string(), v))
        .collect();
    Value::Object(map)
}

fn read_input(path: &PathBuf) -> Result<String> {
    let mut s = String::new();
    if path.as_os_str() == "-" {
        std::io::stdin().read_to_string(&mut s)?;
    } else {
        s = std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    }
    Ok(s)
}

/// The engine calls one command makes: (method, args) pairs.
fn calls(command: Command) -> Result<Vec<(&'static str, Value)>> {
    let one = |m, v| Ok(vec![(m, v)]);
    let mref = |entity: String, id: String| json!({"entity_id": entity, "id": id});
    match command {
        Command::Remember {
            entity,
            text,
            session,
            agent,
            source_ref,
        } => one(
            "remember",
            object(vec![
                ("entity_id", json!(entity)),
                ("content", json!(text)),
                ("session_id", json!(session)),
                ("agent_id", json!(agent)),
                ("source_ref", json!(source_ref)),
            ]),
        ),
        Command::Seed {
            entity,
            content,
            memory_type,
            importance,
            tags,
            pinned,
            file,
        } => {
            if let Some(file) = file {
                let text = read_input(&file)?;
                let mut items = Vec::new();
                for (n, line) in text
                    .lines()
                    .enumerate()
                    .filter(|(_, l)| !l.trim().is_empty())
                {
                    let v: Value = serde_json::from_str(line)
                        .with_context(|| format!("{} line {}: not JSON", file.display(), n + 1))?;
                    items.push(v);
                }
                return Ok(items
                    .chunks(SEED_BATCH)
                    .map(|c| ("seed", json!({"items": c})))
                    .collect());
            }
            let (Some(entity), Some(content)) = (entity, content) else {
                bail!("seed needs --entity and a content, or --file");
            };
            let item = object(vec![
                ("entity_id", json!(entity)),
                ("content", json!(content)),
                ("type", json!(memory_type)),
                ("importance", json!(importance)),
                (
                    "tags",
                    if tags.is_empty() {
                        Value::Null
                    } else {
                        json!(tags)
                    },
                ),
                ("pinned", if pinned { json!(true) } else { Value::Null }),
            ]);
            one("seed", json!({"items": [item]}))
        }
        Command::Search {
            entity,
            query,
            limit,
            mode,
            types,
            include_archived,
        } => one(
            "search",
            object(vec![
                ("entity_id", json!(entity)),
                ("query", json!(query)),
                ("limit", json!(limit)),
                ("mode", json!(mode)),
                (
                    "types",
                    if types.is_empty() {
                        Value::Null
                    } else {
                        json!(types)
                    },
                ),
                (
                    "include_archived",
                    if include_archived {
                        json!(true)
                    } else {
                        Value::Null
                    },
                ),
            ]),
        ),
        Command::Get { entity, id } => one("get", mref(entity, id)),
        Command::List {
            entity,
            limit,
            offset,
            states,
            types,
        } => one(
            "list",
            object(vec![
                ("entity_id", json!(entity)),
                ("limit", json!(limit)),
                ("offset", json!(offset)),
                (
                    "states",
                    if states.is_empty() {
                        Value::Null
                    } else {
                        json!(states)
                    },
                ),
                (
                    "types",
                    if types.is_empty() {
                        Value::Null
                    } else {
                        json!(types)
                    },
                ),
            ]),
        ),
        Command::Update {
            entity,
            id,
            content,
            memory_type,
            importance,
            tags,
        } => one(
            "update",
            json!({"entity_id": entity, "id": id, "patch": object(vec![("content", json!(content)), ("type", json!(memory_type)), ("importance", json!(importance)), ("tags", json!(tags))])}),
        ),
        Command::Forget { entity, id } => one("forget", mref(entity, id)),
        Command::Reinforce { entity, id } => one("reinforce", mref(entity, id)),
        Command::Demote { entity, id } => one("demote", mref(entity, id)),
        Command::Pin { entity, id, off } => one(
            "pin",
            json!({"entity_id": entity, "id": id, "pinned": !off}),
        ),
        Command::Status {
            entity,
            id,
            status,
            reason,
        } => one(
            "set_status",
            json!({"entity_id": entity, "id": id, "status": status, "reason": reason}),
        ),
        Command::History { entity, id } => one("status_history", mref(entity, id)),
        Command::Stats { entity } => one("stats", json!({"entity_id": entity})),
        Command::Maintain => one("maintain", json!({})),
        Command::Export { entity } => one("export", json!({"entity_id": entity})),
        Command::Import { file } => {
            // Chunks of lines, each its own transaction: what was acknowledged stays.
            let text = read_input(&file)?;
            let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
            Ok(lines
                .chunks(IMPORT_BATCH)
                .map(|c| ("import", json!({"jsonl": c.join("\n")})))
                .collect())
        }
        Command::Call { .. }
        | Command::Scenario { .. }
        | Command::Serve { .. }
        | Command::Bench { .. } => {
            unreachable!("handled by run")
        }
    }
}

/// Memories per `seed` call when seeding from a file.
const SEED_BATCH: usize = 1000;
/// Lines per `import` call (one transaction each).
const IMPORT_BATCH: usize = 1000;

/// Runs a scenario in a temporary data directory; prints `[{"ok": …} | {"error": …}, …]`.
fn scenario(file: &PathBuf) -> Result<ExitCode> {
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
fn bench(corpus: &PathBuf) -> Result<ExitCode> {
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
    ms.sort_by(f64::total_cmp);
    let pct = |p: f64| ms[((p / 100.0) * ms.len() as f64) as usize];
    println!(
        "{}",
        json!({
            "memories": items.len(),
            "memories_per_second": (items.len() as f64 / seed_s).round(),
            "searches": ms.len(),
            "search_ms": { "p50": pct(50.0), "p95": pct(95.0) },
            "open_ms": open_ms,
        })
    );
    Ok(ExitCode::SUCCESS)
}

fn s(v: &Value) -> &str {
    v.as_str().unwrap_or("")
}

fn run(cli: Cli) -> Result<ExitCode> {
    if let Command::Scenario { file } = &cli.command {
        return scenario(file);
    }
    let clock = match &cli.now {
        Some(s) => Clock::Fixed(parse_now(s)?),
        None => Clock::System,
    };
    let seed = cli.seed.unwrap_or_else(random_seed);
    if let Command::Bench { corpus } = &cli.command {
        return bench(corpus);
    }
    let dir = DataDir::take(&cli.data)?;
    let embedding = match (&cli.embed_url, &cli.embed_model) {
        (Some(url), Some(model)) => Some(runtime::Embedding::Http(
            providers::HttpEmbedder::connect(url, model)?,
        )),
        _ => None,
    };
    let mut rt = Runtime::open(Options {
        data: dir.path.clone(),
        clock,
        seed,
        embedding,
    })?;
    let json = cli.json;
    if let Command::Serve { bind, port } = &cli.command {
        let token = serve::token(&dir.path)?;
        serve::serve(rt, &token, bind, *port)?;
        return Ok(ExitCode::SUCCESS);
    }
    // (method, JSON arguments) of each engine call the command makes.
    let steps: Vec<(String, String)> = match cli.command {
        // Passed through as typed: the engine checks the method and parses the JSON.
        Command::Call { method, args } => vec![(method, args)],
        command => calls(command)?
            .into_iter()
            .map(|(m, v)| (m.to_string(), v.to_string()))
            .collect(),
    };
    let mut results = Vec::new();
    // Each batch of a long seed or import is its own transaction: a progress bar on a
    // terminal, else one line per committed batch (what a crash can no longer lose).
    let bar = (steps.len() > 1 && std::io::stderr().is_terminal())
        .then(|| indicatif::ProgressBar::new(steps.len() as u64).with_message("batches committed"));
    for (n, (method, args)) in steps.iter().enumerate() {
        match rt.call(method, args)? {
            Ok(out) => {
                results.push((method, serde_json::from_str::<Value>(&out)?));
                match &bar {
                    Some(bar) => bar.inc(1),
                    None if steps.len() > 1 => {
                        eprintln!("committed batch {}/{}", n + 1, steps.len())
                    }
                    None => {}
                }
            }
            Err(e) => {
                rt.close()?;
                if json {
                    println!(
                        "{}",
                        json!({"error": {"code": e.code, "message": e.message}})
                    );
                } else {
                    eprintln!("error ({}): {}", e.code, e.message);
                }
                return Ok(ExitCode::from(1));
            }
        }
    }
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    rt.close()?;
    output::print(&results, json);
    Ok(ExitCode::SUCCESS)
}

/// 64 bits that differ between runs (the id generator's seed when none is given).
fn random_seed() -> u64 {
    use std::hash::{BuildHasher, Hasher};
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u128(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos())
            .unwrap_or(0),
    );
    h.finish()
}

fn main() -> ExitCode {
    match run(Cli::parse()) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("mnemo: {e:#}");
            ExitCode::from(2)
        }
    }
}
