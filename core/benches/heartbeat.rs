//! heartbeat_check latency on an owner with 100,000 memories in a real SQLite file: a year of
//! mixed types (plans with deadlines, activities, context, feelings, questions, monitors),
//! 50 schedules and a graph of 2,000 `remember`ed statements naming people and places.
//! Aim: p95 ≤ 5 ms natively.
//!
//! The store is built once into `target/mnemo-heartbeat-bench/mnemo.db` (a `mnemo --data`
//! directory, so `npm run bench:wasmtime` times the same store inside the component) and
//! reused while its `bench_version` matches. The pass times 300 dry-run checks at a fixed
//! time, then 300 recording checks five minutes apart on a copy, and writes
//! `target/mnemo-bench-heartbeat.json`. Under `cargo test --benches` it runs on 2,000
//! memories without writing anything.
//!
//! `cargo bench -p mnemo-core --bench heartbeat`

mod common;

use std::path::{Path, PathBuf};
use std::time::Instant;

use common::{benchmarking, git_head, load_average, percentiles, Percentiles};
use mnemo_core::*;
use serde_json::json;

/// Owner, size and start of the bench year; checks run at [`NOW`], a Monday 10:00 UTC.
const OWNER: &str = "bench-owner";
const MEMORIES: usize = 100_000;
const SMOKE_MEMORIES: usize = 2_000;
const NOW: Millis = 1_795_428_000_000;
const YEAR: Millis = 365 * DAY_MS;
const REMEMBERED: usize = 2_000;
const SCHEDULES: usize = 50;
const TIMED: usize = 300;
const WARM_UP: usize = 20;
/// Bump when the store's contents change.
const BENCH_VERSION: &str = "2";
const PEOPLE: &[&str] = &[
    "Ana", "Tom", "Priya", "Kenji", "Mei", "Lars", "Sofia", "Omar", "Ines", "Ravi",
];
const PLACES: &[&str] = &["Lisbon", "Berlin", "Kyoto", "Oslo", "Lima"];
const TOPICS: &[&str] = &[
    "budget", "garden", "thesis", "marathon", "kitchen", "launch", "move", "wedding", "taxes",
    "novel",
];
const TYPES: &[MemoryType] = &[
    MemoryType::Plan,
    MemoryType::Activity,
    MemoryType::Context,
    MemoryType::Event,
    MemoryType::Preference,
    MemoryType::Identity,
    MemoryType::Relationship,
    MemoryType::Ephemeral,
];

fn root() -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../target"))
}

fn engine(path: &Path, clock: &ManualClock, config: Config) -> Engine {
    Engine::builder(clock.clone())
        .config(config)
        .open(path)
        .expect("open bench store")
}

/// Memory `i` of the bench year, written at `at`: one plan in two has a deadline 1–40 days
/// after it was written.
fn memory(i: usize, at: Millis) -> NewMemory {
    let t = TYPES[i % TYPES.len()];
    let topic = TOPICS[(i / 8) % TOPICS.len()];
    let who = PEOPLE[(i / 3) % PEOPLE.len()];
    let content = match (t, i % 97) {
        (_, 0) => format!("What did {who} say about the {topic} number {i}?"),
        (MemoryType::Plan, _) => format!("Plan {i}: finish the {topic} work for {who}"),
        (MemoryType::Activity, _) => format!("Worked on the {topic} with {who}, step {i}"),
        _ => format!("Note {i} about the {topic} and {who}"),
    };
    let plan = t == MemoryType::Plan;
    let tags: &[String] = match i % 500 {
        0 => &["monitor".into()],
        n if n % 13 == 0 => &["gym".into()],
        _ => &[],
    };
    NewMemory {
        memory_type: Some(t),
        importance: Some(Unit::parse("importance", 0.2 + (i % 7) as f64 * 0.12).expect("0 to 1")),
        sentiment: i
            .is_multiple_of(5)
            .then(|| Sentiment::parse((i % 11) as f64 / 5.0 - 1.0).expect("-1 to 1")),
        expires_at: (plan && i.is_multiple_of(16)).then(|| at + (1 + (i % 40) as Millis) * DAY_MS),
        tags: Tags::parse("tags", tags).expect("valid tags"),
        ..NewMemory::new(OWNER, &content).expect("a valid owner and content")
    }
}

/// Builds the bench store of `n` memories at `path`.
fn build(path: &Path, n: usize) {
    let _ = std::fs::remove_file(path);
    let clock = ManualClock::new(NOW - YEAR);
    let mut config = Config::default();
    config.dedup.enabled = false;
    let mut e = engine(path, &clock, config);
    let started = Instant::now();
    let step = YEAR / n as Millis;
    let batch = 1_000.min(n);
    for start in (0..n).step_by(batch) {
        let at = NOW - YEAR + start as Millis * step;
        clock.set(at);
        e.seed(
            (start..(start + batch).min(n))
                .map(|i| memory(i, at))
                .collect(),
        )
        .expect("seed bench memories");
    }
    for i in 0..REMEMBERED {
        clock.set(NOW - YEAR + (i * (YEAR as usize / REMEMBERED)) as Millis);
        let (who, topic, place) = (
            PEOPLE[i % PEOPLE.len()],
            TOPICS[i % TOPICS.len()],
            PLACES[i % PLACES.len()],
        );
        let text = if i % 2 == 0 {
            format!("I need to finish the {topic} plan with {who} before next Friday.")
        } else {
            format!("I met {who} in {place} to talk about the {topic} ({i}).")
        };
        e.remember(OWNER, &text, RememberOptions::default())
            .expect("remember");
    }
    clock.set(NOW - 30 * DAY_MS);
    for i in 0..SCHEDULES {
        let tag = match i % 3 {
            0 => format!("cron:daily:{:02}:00", 7 + i % 12),
            1 => "cron:weekdays:09:30".to_string(),
            _ => format!("cron:every:{}h", 1 + i % 6),
        };
        e.schedule_create(&ScheduleCreate {
            entity_id: Id::owner(OWNER).expect("a valid owner"),
            content: Content::parse("content", &format!("Routine {i}")).expect("valid content"),
            cron_tag: tag,
            agent_id: None,
        })
        .expect("schedule");
    }
    e.maintain().expect("maintain");
    drop(e);
    let conn = rusqlite::Connection::open(path).expect("open for meta");
    conn.execute(
        "INSERT OR REPLACE INTO meta (key, value) VALUES ('bench_version', ?1)",
        [BENCH_VERSION],
    )
    .expect("mark bench store");
    println!(
        "built the heartbeat bench store ({n} memories) in {:.1} s",
        started.elapsed().as_secs_f64()
    );
}

/// The store at `dir/mnemo.db`, built unless a current one is there.
fn store(dir: &Path, n: usize) -> PathBuf {
    std::fs::create_dir_all(dir).expect("bench dir");
    let path = dir.join("mnemo.db");
    let current = rusqlite::Connection::open(&path)
        .and_then(|c| {
            c.query_row(
                "SELECT value FROM meta WHERE key = 'bench_version'",
                [],
                |r| r.get::<_, String>(0),
            )
        })
        .is_ok_and(|v| v == BENCH_VERSION);
    if !current {
        build(&path, n);
    }
    path
}

/// Times `n` checks after a warm-up; `advance` moves the clock between them.
fn time_checks(
    e: &mut Engine,
    clock: &ManualClock,
    req: &HeartbeatRequest,
    n: usize,
    advance: Millis,
) -> (Percentiles, HeartbeatReport) {
    let mut last = None;
    for _ in 0..WARM_UP {
        last = Some(e.heartbeat_check(req).expect("check"));
    }
    let mut times = Vec::with_capacity(n);
    for _ in 0..n {
        clock.advance(advance);
        let t = Instant::now();
        last = Some(e.heartbeat_check(req).expect("check"));
        times.push(t.elapsed());
    }
    (percentiles(&times), last.expect("checked"))
}

fn main() {
    let full = benchmarking();
    let n = if full { MEMORIES } else { SMOKE_MEMORIES };
    let dir = if full {
        root().join("mnemo-heartbeat-bench")
    } else {
        std::env::temp_dir().join(format!("mnemo-hb-smoke-{}", std::process::id()))
    };
    let load_before = load_average();
    let path = store(&dir, n);
    let clock = ManualClock::new(NOW);
    let mut e = engine(&path, &clock, Config::default());
    let req = HeartbeatRequest {
        dry_run: true,
        ..HeartbeatRequest::new(Id::owner(OWNER).expect("a valid owner"))
    };
    let t = Instant::now();
    let first = e.heartbeat_check(&req).expect("first check");
    let first_ms = t.elapsed().as_secs_f64() * 1e3;
    let (dry, report) = time_checks(&mut e, &clock, &req, TIMED, 0);
    drop(e);
    // Recording checks change the store: run them on a copy.
    let copy = dir.join("recording.db");
    std::fs::copy(&path, &copy).expect("copy store");
    let mut e = engine(&copy, &clock, Config::default());
    let rec_req = HeartbeatRequest {
        dry_run: false,
        autonomy: Some(Autonomy::Act),
        ..req.clone()
    };
    let (recording, _) = time_checks(&mut e, &clock, &rec_req, TIMED, 5 * 60_000);
    drop(e);
    let _ = std::fs::remove_file(&copy);
    let signals: Vec<String> = report
        .signals
        .iter()
        .map(|s| format!("{}:{}", s.kind, s.memories.len()))
        .collect();
    println!("first check (loads the owner's vectors): {first_ms:.1} ms; signals {signals:?}");
    println!(
        "dry-run checks: p50 {:.3} ms, p95 {:.3} ms, p99 {:.3} ms (aim p95 ≤ 5 ms)",
        dry.p50_ms, dry.p95_ms, dry.p99_ms
    );
    println!(
        "recording checks: p50 {:.3} ms, p95 {:.3} ms, p99 {:.3} ms",
        recording.p50_ms, recording.p95_ms, recording.p99_ms
    );
    // The full year lights most signals; the smoke store (2,000 memories) is sparse.
    assert!(
        first.signals.len() >= if full { 6 } else { 2 },
        "the bench owner should light most signals: {signals:?}"
    );
    if !full {
        let _ = std::fs::remove_dir_all(&dir);
        return;
    }
    let out = json!({
        "memories": n,
        "git_head": git_head(),
        "first_check_ms": first_ms,
        "signals": signals,
        "dry_run": dry,
        "recording": recording,
        "aim_p95_ms": 5.0,
        "load_average_1m": { "before": load_before, "after": load_average() },
    });
    let path = root().join("mnemo-bench-heartbeat.json");
    std::fs::write(
        &path,
        serde_json::to_string_pretty(&out).expect("json") + "\n",
    )
    .expect("write report");
    println!("wrote {}", path.display());
}
