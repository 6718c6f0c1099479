//! Shared fixtures of the benchmarks: a deterministic corpus (384-d vectors clustered around 50
//! topic centroids, sentences from a small word list), temporary stores on disk, and timing
//! helpers. Each bench binary uses part of it.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use mnemo_core::{
    Config, Engine, Entropy, Id, ManualClock, NewMemory, Outcome, RecallConfig, SearchRequest,
    SeededEntropy, SuppliedVectors,
};

/// Vector dimension and model id of every bench store.
pub const DIM: usize = 384;
pub const MODEL: &str = "bench-384";
/// The one owner every memory belongs to.
pub const OWNER: &str = "bench-owner";
/// Number of topic centroids the vectors cluster around.
pub const TOPICS: usize = 50;
/// Memories per `seed` call in the throughput benchmarks.
pub const SEED_BATCH: usize = 1_000;
/// Largest batch `Engine::seed` accepts (`write::MAX_BATCH`), used to build big stores.
pub const BUILD_BATCH: usize = 10_000;
/// Distinct queries the uncached search benchmarks cycle through.
pub const QUERIES: usize = 200;
/// Memories written one after another share a session (a conversation), this many to one, so
/// that search's lending along conversations is timed too.
pub const SESSION_MEMORIES: u64 = 20;
/// The fixed time of every bench engine.
pub const T0: i64 = 1_700_000_000_000;
/// Weight of the topic centroid in a vector (the noise has norm ≈ 0.5 too, so two memories of
/// one topic have cosine ≈ 0.5 and memories of different topics ≈ 0: dedup scans real
/// neighbours, but nothing reaches the 0.85 merge threshold).
const CENTROID_WEIGHT: f32 = 0.5;
const NOISE_NORM: f32 = 0.5;

/// Deterministic random numbers for the corpus: the core's SplitMix64 with float helpers.
pub struct SplitMix64(SeededEntropy);

impl SplitMix64 {
    pub fn new(seed: u64) -> Self {
        SplitMix64(SeededEntropy::new(seed))
    }
    pub fn next_u64(&mut self) -> u64 {
        self.0.next_u64()
    }
    /// Uniform in [0, 1).
    pub fn next_f32(&mut self) -> f32 {
        (self.next_u64() >> 40) as f32 / (1u64 << 24) as f32
    }
    /// Approximately standard normal (Irwin–Hall with 4 uniforms, rescaled).
    pub fn next_normal(&mut self) -> f32 {
        let s: f32 = (0..4).map(|_| self.next_f32()).sum();
        (s - 2.0) * 3f32.sqrt()
    }
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
}

fn normalise(v: &mut [f32]) {
    let n = v.iter().map(|x| x * x).sum::<f32>().sqrt();
    if n > 0.0 {
        v.iter_mut().for_each(|x| *x /= n);
    }
}

/// Words the memories and queries are made of.
const WORDS: &[&str] = &[
    "garden",
    "kitchen",
    "coffee",
    "tea",
    "bicycle",
    "train",
    "airport",
    "hotel",
    "museum",
    "library",
    "concert",
    "guitar",
    "piano",
    "violin",
    "novel",
    "poetry",
    "painting",
    "camera",
    "laptop",
    "phone",
    "keyboard",
    "database",
    "server",
    "cluster",
    "compiler",
    "deadline",
    "meeting",
    "budget",
    "invoice",
    "contract",
    "lawyer",
    "doctor",
    "dentist",
    "pharmacy",
    "vitamin",
    "marathon",
    "swimming",
    "yoga",
    "tennis",
    "football",
    "chess",
    "puzzle",
    "recipe",
    "pasta",
    "curry",
    "salad",
    "bakery",
    "cheese",
    "chocolate",
    "wine",
    "beer",
    "whisky",
    "lemon",
    "orange",
    "mango",
    "cherry",
    "blueberry",
    "walnut",
    "almond",
    "honey",
    "mountain",
    "river",
    "ocean",
    "island",
    "forest",
    "desert",
    "volcano",
    "glacier",
    "harbour",
    "village",
    "city",
    "apartment",
    "balcony",
    "garage",
    "basement",
    "attic",
    "sofa",
    "lamp",
    "carpet",
    "mirror",
    "window",
    "umbrella",
    "jacket",
    "sweater",
    "sneakers",
    "backpack",
    "suitcase",
    "passport",
    "ticket",
    "festival",
    "wedding",
    "birthday",
    "holiday",
    "vacation",
    "weekend",
    "morning",
    "evening",
    "winter",
    "summer",
    "autumn",
    "spring",
    "rain",
    "snow",
    "sunshine",
    "storm",
    "cat",
    "dog",
    "parrot",
    "hamster",
    "rabbit",
    "horse",
    "sister",
    "brother",
    "cousin",
    "grandmother",
    "neighbour",
    "colleague",
    "manager",
    "teacher",
    "student",
    "project",
    "startup",
    "podcast",
    "newsletter",
    "blog",
    "spreadsheet",
    "calendar",
    "reminder",
    "password",
    "insurance",
    "mortgage",
    "savings",
    "pension",
    "allergy",
    "migraine",
    "surgery",
    "therapy",
    "language",
    "spanish",
    "german",
    "japanese",
    "portuguese",
    "lisbon",
    "berlin",
    "tokyo",
    "madrid",
    "paris",
    "oslo",
    "rome",
    "vienna",
    "prague",
    "dublin",
    "seattle",
    "toronto",
    "mexico",
    "brazil",
    "kenya",
    "india",
    "vietnam",
    "iceland",
    "norway",
    "scotland",
    "wales",
];
const SUBJECTS: &[&str] = &[
    "Ana",
    "Ben",
    "Chloe",
    "Dev",
    "Elena",
    "Farid",
    "Grace",
    "Hugo",
    "my sister",
    "the user",
    "our team",
    "my manager",
];
const VERBS: &[&str] = &[
    "likes",
    "mentioned",
    "bought",
    "visited",
    "prefers",
    "booked",
    "cancelled",
    "planned",
    "talked about",
    "forgot",
    "fixed",
    "recommended",
    "hates",
    "is learning about",
];
/// Words per topic; topic `t` uses `WORDS[t*3 .. t*3 + 8]` (neighbouring topics overlap).
const TOPIC_WORDS: usize = 8;
const TOPIC_STRIDE: usize = 3;

fn topic_word(rng: &mut SplitMix64, topic: usize) -> &'static str {
    WORDS[(topic * TOPIC_STRIDE + rng.below(TOPIC_WORDS)) % WORDS.len()]
}

/// The corpus: topic centroids and generators of memories and queries.
pub struct Corpus {
    centroids: Vec<Vec<f32>>,
}

impl Default for Corpus {
    fn default() -> Self {
        Self::new()
    }
}

impl Corpus {
    pub fn new() -> Self {
        let mut rng = SplitMix64::new(0x6d6e_656d_6f5f_6331);
        let centroids = (0..TOPICS)
            .map(|_| {
                let mut c: Vec<f32> = (0..DIM).map(|_| rng.next_normal()).collect();
                normalise(&mut c);
                c
            })
            .collect();
        Corpus { centroids }
    }

    /// normalise(centroid · 0.5 + noise of norm ≈ 0.5).
    fn vector(&self, rng: &mut SplitMix64, topic: usize) -> Vec<f32> {
        let sigma = NOISE_NORM / (DIM as f32).sqrt();
        let mut v: Vec<f32> = self.centroids[topic]
            .iter()
            .map(|c| c * CENTROID_WEIGHT + rng.next_normal() * sigma)
            .collect();
        normalise(&mut v);
        v
    }

    /// Memory number `i` (content unique per `i`; topic `i % 50`).
    pub fn memory(&self, i: u64) -> NewMemory {
        let mut rng = SplitMix64::new(i ^ 0xa076_1d64_78bd_642f);
        let topic = (i % TOPICS as u64) as usize;
        let subject = SUBJECTS[rng.below(SUBJECTS.len())];
        let verb = VERBS[rng.below(VERBS.len())];
        let (a, b) = (topic_word(&mut rng, topic), topic_word(&mut rng, topic));
        let c = if rng.below(10) < 7 {
            topic_word(&mut rng, topic)
        } else {
            WORDS[rng.below(WORDS.len())]
        };
        let d = WORDS[rng.below(WORDS.len())];
        let content =
            format!("{subject} {verb} the {a} {b} and a {c} during the {d} trip (note {i}).");
        let session = Id::parse("session_id", &format!("s{}", i / SESSION_MEMORIES));
        NewMemory {
            vector: Some(self.vector(&mut rng, topic)),
            session_id: Some(session.expect("a valid session id")),
            ..NewMemory::new(OWNER, &content).expect("a valid owner and content")
        }
    }

    /// Memories `start .. start + n`.
    pub fn batch(&self, start: u64, n: usize) -> Vec<NewMemory> {
        (start..start + n as u64).map(|i| self.memory(i)).collect()
    }

    /// Query number `q`: two topic words and a free word, after question words that occur in
    /// no memory (the FTS5 query ORs every word, stop words included: a query word found in
    /// most memories would turn the text search into a scan of the owner), with a vector near
    /// the topic's centroid.
    pub fn query(&self, q: usize) -> SearchRequest {
        let mut rng = SplitMix64::new(q as u64 ^ 0xe703_7ed1_a0b4_28db);
        let topic = q % TOPICS;
        let (a, b) = (topic_word(&mut rng, topic), topic_word(&mut rng, topic));
        let c = WORDS[rng.below(WORDS.len())];
        let owner = Id::owner(OWNER).expect("a valid owner");
        SearchRequest {
            vector: Some(self.vector(&mut rng, topic)),
            ..SearchRequest::new(owner, format!("what was said on {a} {b} {c}?"))
        }
    }

    /// The first `n` queries.
    pub fn queries(&self, n: usize) -> Vec<SearchRequest> {
        (0..n).map(|q| self.query(q)).collect()
    }
}

/// A directory under the system temp dir, removed (with its contents) on drop.
pub struct TempDir(PathBuf);

impl TempDir {
    pub fn new(label: &str) -> Self {
        static N: AtomicU64 = AtomicU64::new(0);
        let nanos = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map(|d| d.as_nanos())
            .unwrap_or(0);
        let dir = std::env::temp_dir().join(format!(
            "mnemo-bench-{label}-{}-{nanos}-{}",
            std::process::id(),
            N.fetch_add(1, Ordering::Relaxed)
        ));
        std::fs::create_dir_all(&dir).expect("create bench temp dir");
        TempDir(dir)
    }
    pub fn path(&self) -> &Path {
        &self.0
    }
    /// A fresh file name in the directory (the file is not created).
    pub fn file(&self, stem: &str) -> PathBuf {
        static N: AtomicU64 = AtomicU64::new(0);
        self.0
            .join(format!("{stem}-{}.db", N.fetch_add(1, Ordering::Relaxed)))
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Removes a store file and its journal, if any.
pub fn remove_store(path: &Path) {
    let _ = std::fs::remove_file(path);
    let mut journal = path.as_os_str().to_owned();
    journal.push("-journal");
    let _ = std::fs::remove_file(PathBuf::from(journal));
}

/// A seed for the engine's id generator that no other engine of this process shares: engines
/// opened on a copy of a store must not draw the ids already in it.
fn entropy_seed() -> u64 {
    static N: AtomicU64 = AtomicU64::new(1);
    let mut rng =
        SplitMix64::new(N.fetch_add(1, Ordering::Relaxed) ^ ((std::process::id() as u64) << 32));
    rng.next_u64()
}

/// Opens a bench engine (supplied 384-d vectors, dedup on) on `path`; `cache_entries: None`
/// keeps the default search cache, `Some(0)` turns it off.
pub fn open_engine(path: &Path, cache_entries: Option<usize>) -> Engine {
    let mut config = Config::default();
    assert!(config.dedup.enabled, "benchmarks assume dedup is on");
    if let Some(n) = cache_entries {
        config.recall = RecallConfig {
            cache_entries: n,
            ..Default::default()
        };
    }
    Engine::builder(ManualClock::new(T0))
        .embedder(SuppliedVectors::new(MODEL, DIM))
        .entropy(SeededEntropy::new(entropy_seed()))
        .config(config)
        .open(path)
        .expect("open bench store")
}

/// Tally of write outcomes.
#[derive(Debug, Default, Clone, Copy)]
pub struct Tally {
    pub created: usize,
    pub merged: usize,
    pub skipped: usize,
}

impl Tally {
    pub fn add(&mut self, outcomes: &[Outcome]) {
        for o in outcomes {
            match o {
                Outcome::Created { .. } | Outcome::Conflict { .. } => self.created += 1,
                Outcome::Merged { .. } => self.merged += 1,
                Outcome::Skipped { .. } => self.skipped += 1,
            }
        }
    }
}

/// Seeds memories `start .. start + n` into `engine` in batches of [`BUILD_BATCH`]; returns
/// the outcome tally and the time spent in `seed` calls (generating the inputs is excluded).
pub fn fill(engine: &mut Engine, corpus: &Corpus, start: u64, n: usize) -> (Tally, Duration) {
    let mut tally = Tally::default();
    let mut spent = Duration::ZERO;
    let mut done = 0;
    while done < n {
        let len = BUILD_BATCH.min(n - done);
        let batch = corpus.batch(start + done as u64, len);
        let t = Instant::now();
        let report = engine
            .seed(batch)
            .expect("seed while building a bench store");
        spent += t.elapsed();
        tally.add(&report.outcomes);
        done += len;
    }
    (tally, spent)
}

/// Builds a store of memories `0 .. n` at `path`, printing how long it took.
pub fn build_store(path: &Path, corpus: &Corpus, n: usize) -> Duration {
    let mut engine = open_engine(path, None);
    let (tally, spent) = fill(&mut engine, corpus, 0, n);
    println!(
        "built a store of {n} memories in {:.1} s ({:.0} memories/s; created {}, merged {}, skipped {})",
        spent.as_secs_f64(),
        n as f64 / spent.as_secs_f64(),
        tally.created,
        tally.merged,
        tally.skipped
    );
    spent
}

/// Memory numbers for the throughput benchmarks: far above any store's `0 .. n`, and never
/// the same twice in a process, so no input is an exact duplicate.
pub fn fresh_indices(n: usize) -> u64 {
    static NEXT: AtomicU64 = AtomicU64::new(1 << 40);
    NEXT.fetch_add(n as u64, Ordering::Relaxed)
}

/// Where a timed seed batch goes.
pub enum SeedInto<'a> {
    /// A new store file: the owner holds nothing.
    Empty,
    /// A copy of the store at this path (the owner's vectors are loaded before timing).
    CopyOf(&'a Path),
}

/// Seeds one batch of [`SEED_BATCH`] fresh memories into a fresh target and returns the time
/// of the `seed` call alone (store setup, input generation and clean-up are not timed).
pub fn timed_seed(dir: &TempDir, corpus: &Corpus, into: &SeedInto) -> Duration {
    let path = dir.file("seed");
    let mut engine = match into {
        SeedInto::Empty => open_engine(&path, None),
        SeedInto::CopyOf(base) => {
            std::fs::copy(base, &path).expect("copy base store");
            let mut e = open_engine(&path, None);
            // One untimed write loads the owner's vector set, as in a long-running process.
            e.seed(corpus.batch(fresh_indices(1), 1))
                .expect("warm-up seed");
            e
        }
    };
    let batch = corpus.batch(fresh_indices(SEED_BATCH), SEED_BATCH);
    let t = Instant::now();
    let report = engine.seed(batch).expect("timed seed");
    let elapsed = t.elapsed();
    assert_eq!(report.outcomes.len(), SEED_BATCH);
    drop(engine);
    remove_store(&path);
    elapsed
}

/// Latency percentiles (nearest rank) of a set of timings, in milliseconds.
#[derive(Debug, Clone, Copy, serde::Serialize)]
pub struct Percentiles {
    pub n: usize,
    pub p50_ms: f64,
    pub p95_ms: f64,
    pub p99_ms: f64,
    pub mean_ms: f64,
    pub max_ms: f64,
}

pub fn percentiles(times: &[Duration]) -> Percentiles {
    let mut ms: Vec<f64> = times.iter().map(|d| d.as_secs_f64() * 1e3).collect();
    ms.sort_by(f64::total_cmp);
    let n = ms.len();
    let rank = |p: f64| ms[((p * n as f64).ceil() as usize).clamp(1, n) - 1];
    Percentiles {
        n,
        p50_ms: rank(0.50),
        p95_ms: rank(0.95),
        p99_ms: rank(0.99),
        mean_ms: ms.iter().sum::<f64>() / n as f64,
        max_ms: ms[n - 1],
    }
}

/// Whether the binary runs as a benchmark (`cargo bench` passes `--bench`) rather than as a
/// smoke test (`cargo test --benches`, or `cargo bench -- --test`) or a listing.
pub fn benchmarking() -> bool {
    let has = |flag: &str| std::env::args().any(|a| a == flag);
    has("--bench") && !has("--list") && !has("--test")
}

/// The commit checked out when the binary started (cargo builds it just before; uncommitted
/// changes are not described).
pub fn git_head() -> Option<String> {
    let out = std::process::Command::new("git")
        .args(["rev-parse", "--short", "HEAD"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
}

/// The 1-minute load average (Linux), if it can be read.
pub fn load_average() -> Option<f64> {
    std::fs::read_to_string("/proc/loadavg")
        .ok()?
        .split_whitespace()
        .next()?
        .parse()
        .ok()
}
