//! Helpers shared by the integration tests.
#![allow(dead_code)]

use std::path::PathBuf;

use mnemo_core::*;

/// 2023-11-14T22:13:20Z — an arbitrary fixed start time.
pub const T0: Millis = 1_700_000_000_000;

/// A fresh directory under the system temp dir, removed when dropped.
pub struct TempDir(pub PathBuf);

impl TempDir {
    pub fn new(name: &str) -> Self {
        let p = std::env::temp_dir().join(format!("mnemo-test-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&p);
        std::fs::create_dir_all(&p).expect("temp dir");
        TempDir(p)
    }
    pub fn file(&self, name: &str) -> PathBuf {
        self.0.join(name)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The conformance scenarios (`tests/scenarios/*.json`), in name order.
pub fn scenario_files() -> Vec<PathBuf> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/scenarios");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("tests/scenarios")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    files.sort();
    files
}

/// An in-memory engine with the built-in embedder and a clock at `T0`.
/// SQL dropping the columns that migrations from 10 on add (run again, `ADD COLUMN` would
/// fail): what a test putting a store back to an older schema undoes besides its own.
pub const UNDO_ADDED_COLUMNS: &str = "
    ALTER TABLE messages DROP COLUMN agent_id;
    ALTER TABLE documents DROP COLUMN format;
    ALTER TABLE documents DROP COLUMN summary;
    ALTER TABLE passages DROP COLUMN summary;
    ALTER TABLE documents DROP COLUMN summary_by;
    ALTER TABLE passages DROP COLUMN summary_by;
    ALTER TABLE memories DROP COLUMN layer_set_at;
    ALTER TABLE status_history DROP COLUMN old_layer;
    ALTER TABLE status_history DROP COLUMN new_layer;
    ALTER TABLE memories DROP COLUMN confirmations;";

pub fn engine() -> (Engine, ManualClock) {
    let clock = ManualClock::new(T0);
    (
        Engine::builder(clock.clone())
            .open_in_memory()
            .expect("open"),
        clock,
    )
}

/// The default settings with semantic dedup off: every distinct note is stored.
pub fn without_dedup() -> Config {
    Config {
        dedup: DedupConfig {
            enabled: false,
            ..Default::default()
        },
        ..Default::default()
    }
}

/// An in-memory engine with the built-in embedder, `config`, and a clock at `T0`.
pub fn engine_with_config(config: Config) -> (Engine, ManualClock) {
    let clock = ManualClock::new(T0);
    let e = Engine::builder(clock.clone())
        .config(config)
        .open_in_memory()
        .expect("open");
    (e, clock)
}

/// An in-memory engine whose 4-d vectors come from the caller, so tests control cosines.
pub fn vector_engine(config: Config) -> (Engine, ManualClock) {
    let clock = ManualClock::new(T0);
    let e = Engine::builder(clock.clone())
        .config(config)
        .embedder(SuppliedVectors::new("test-4d", 4))
        .open_in_memory()
        .expect("open");
    (e, clock)
}

/// A unit vector whose cosine with `[1, 0, 0, 0]` is `c`.
pub fn at_cosine(c: f32) -> Vec<f32> {
    vec![c, (1.0 - c * c).max(0.0).sqrt(), 0.0, 0.0]
}

/// A memory for `owner` with `content`.
pub fn mem(owner: &str, content: &str) -> NewMemory {
    NewMemory::new(owner, content).expect("a valid owner and content")
}

/// `id` as a checked id (an owner, a memory, an agent…).
pub fn id(id: &str) -> Id {
    id.parse().expect("a valid id")
}

/// `n` as a checked limit.
pub fn limit(n: usize) -> Option<Limit> {
    Some(Limit::new(n).expect("a limit in range"))
}

/// `v` as a checked score between 0 and 1 (an importance, a confidence).
pub fn unit(v: f64) -> Unit {
    Unit::parse("unit", v).expect("a number between 0 and 1")
}

/// `t` as checked tags.
pub fn tags(t: &[&str]) -> Tags {
    let t: Vec<String> = t.iter().map(|t| t.to_string()).collect();
    Tags::parse("tags", &t).expect("valid tags")
}

/// `text` as checked content.
pub fn content(text: &str) -> Content {
    Content::parse("content", text).expect("valid content")
}

/// The message of the error `method` answers to the JSON `args`, which must be a refusal of
/// invalid input (what every face sends goes this way).
pub fn refused(e: &mut Engine, method: &str, args: &str) -> String {
    let err = e
        .call_json(method, args)
        .expect_err(&format!("{method} {args} must be refused"));
    assert_eq!(err.code(), "invalid_input", "{method} {args}: {err}");
    err.to_string()
}

/// A memory with a supplied vector.
pub fn vmem(owner: &str, content: &str, v: Vec<f32>) -> NewMemory {
    NewMemory {
        vector: Some(v),
        ..mem(owner, content)
    }
}

/// Seeds one memory and returns its id.
pub fn seed_one(e: &mut Engine, m: NewMemory) -> String {
    let r = e.seed(vec![m]).expect("seed");
    r.outcomes[0].id().expect("created").to_string()
}

/// A search of `owner` for `query` with defaults.
pub fn search(e: &mut Engine, owner: &str, query: &str) -> Vec<SearchHit> {
    e.search(&SearchRequest::new(id(owner), query))
        .expect("search")
}

/// Ids of hits, in order.
pub fn ids(hits: &[SearchHit]) -> Vec<String> {
    hits.iter().map(|h| h.memory.id.clone()).collect()
}

/// Everything observable about an owner, to check that a failed call changed nothing.
pub fn snapshot(e: &mut Engine, owner: &str) -> String {
    format!(
        "{}\n{:?}",
        e.export_jsonl(owner).expect("export"),
        e.stats(owner).expect("stats")
    )
}

/// Every memory of `owner` in any state (deleted ones too), newest first. Not an access.
pub fn all_states(e: &mut Engine, owner: &str) -> Vec<Memory> {
    let req = ListRequest {
        states: State::ALL.to_vec(),
        limit: limit(1000),
        ..ListRequest::new(id(owner))
    };
    e.list(&req).expect("list").memories
}

/// The memory `id` of `owner` in whatever state it is. Not an access (unlike `get`).
pub fn peek(e: &mut Engine, owner: &str, id: &str) -> Memory {
    all_states(e, owner)
        .into_iter()
        .find(|m| m.id == id)
        .expect("memory exists")
}

/// This test binary run again for its ignored test `name` alone, with the environment
/// variable `env` naming the store at `path`: the writer a crash test kills. Its output is
/// piped, one line per acknowledged write.
pub fn spawn_writer(name: &str, env: &str, path: &std::path::Path) -> std::process::Child {
    use std::process::{Command, Stdio};
    Command::new(std::env::current_exe().expect("the test binary"))
        .args([
            "--exact",
            name,
            "--ignored",
            "--nocapture",
            "--test-threads=1",
        ])
        .env(env, path)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start the writer")
}

/// Kills `child` (SIGKILL) and checks the store it was writing passes SQLite's integrity check.
pub fn kill_and_check(mut child: std::process::Child, path: &std::path::Path) {
    child.kill().expect("kill the writer");
    child.wait().expect("reap the writer");
    let conn = rusqlite::Connection::open(path).expect("open the store");
    let check: String = conn
        .query_row("PRAGMA integrity_check", [], |r| r.get(0))
        .expect("integrity check");
    assert_eq!(check, "ok");
}
