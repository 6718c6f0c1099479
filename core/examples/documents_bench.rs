//! Documents, measured natively on SQLite files with the built-in embedder: ingest throughput
//! for one 10 MB document and for 1,000 small ones, then search latency in an owner holding
//! those 1,000 documents beside 10,000 memories, against the same owner without them (side by
//! side, same queries). The documents' text is LoCoMo's conversations (`tests/data/locomo`).
//! Prints the figures and writes them to `target/mnemo-documents-bench.json`.
//!
//! `cargo run --release -p mnemo-core --example documents_bench`
#[path = "../benches/common/mod.rs"]
mod common;

use std::path::PathBuf;
use std::time::Instant;

use mnemo_core::document::IngestRequest;
use mnemo_core::{Engine, ManualClock, NewMemory, SearchRequest, SeededEntropy};
use serde_json::{json, Value};

/// The large document's size, at most: the most characters a document may hold (its text is
/// nearly all ASCII, so about as many bytes).
const BIG_BYTES: usize = mnemo_core::field::MAX_DOCUMENT_CHARS;
/// How many small documents.
const SMALL: usize = 1_000;
/// Memories beside the small documents.
const MEMORIES: u64 = 10_000;
/// Searches timed in each owner (half about the memories, half LoCoMo's questions).
const SEARCHES: usize = 200;

type Res<T> = Result<T, Box<dyn std::error::Error>>;

fn main() -> Res<()> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
    let locomo: Value = serde_json::from_str(&std::fs::read_to_string(
        root.join("tests/data/locomo/locomo-dev.json"),
    )?)?;
    let (sessions, questions) = conversations(&locomo);
    let dir = std::env::temp_dir().join(format!("mnemo-documents-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir)?;
    let open = |name: &str| -> Res<Engine> {
        Ok(Engine::builder(ManualClock::new(common::T0))
            .entropy(SeededEntropy::new(1))
            .open(dir.join(name))?)
    };

    // One document of 10 MB: the sessions over and over, a heading before each.
    let mut big = String::with_capacity(BIG_BYTES);
    let mut round = 0;
    'fill: loop {
        round += 1;
        for (i, s) in sessions.iter().enumerate() {
            let next = format!("## Round {round}, session {i}\n\n{s}\n\n");
            if big.len() + next.len() > BIG_BYTES {
                break 'fill;
            }
            big += &next;
        }
    }
    let mut e = open("big.db")?;
    let t = Instant::now();
    let report = e.ingest(request("Everything said", &big)?)?;
    let big_s = t.elapsed().as_secs_f64();
    let big_passages = report.document.passages;
    drop(e);

    // 1,000 small documents: one session each.
    let mut e = open("small.db")?;
    let docs: Vec<&String> = sessions.iter().cycle().take(SMALL).collect();
    let small_bytes: usize = docs.iter().map(|d| d.len()).sum();
    let t = Instant::now();
    let mut small_passages = 0;
    for (i, d) in docs.iter().enumerate() {
        small_passages += e
            .ingest(request(&format!("Session {i}"), d)?)?
            .document
            .passages;
    }
    let small_s = t.elapsed().as_secs_f64();

    // Search beside 10,000 memories, with and without the documents.
    let corpus = common::Corpus::new();
    let memories = |e: &mut Engine| -> Res<()> {
        for start in (0..MEMORIES).step_by(common::SEED_BATCH) {
            let batch: Vec<NewMemory> = corpus
                .batch(start, common::SEED_BATCH)
                .into_iter()
                .map(|m| NewMemory { vector: None, ..m })
                .collect();
            e.seed(batch)?;
        }
        Ok(())
    };
    let queries: Vec<SearchRequest> = (0..SEARCHES / 2)
        .map(|q| SearchRequest {
            vector: None,
            ..corpus.query(q)
        })
        .chain(questions.iter().take(SEARCHES / 2).map(|q| {
            let owner = mnemo_core::Id::owner(common::OWNER).expect("the bench owner");
            SearchRequest::new(owner, q.clone())
        }))
        .collect();
    memories(&mut e)?;
    let mut alone = open("memories.db")?;
    memories(&mut alone)?;
    // Side by side: each query in one owner, then in the other.
    let (mut with_docs, mut without) = (Vec::new(), Vec::new());
    let mut passage_hits = 0;
    for q in &queries {
        let t = Instant::now();
        let hits = e.search(q)?;
        with_docs.push(t.elapsed().as_secs_f64() * 1000.0);
        passage_hits += hits.iter().filter(|h| h.passage.is_some()).count();
        let t = Instant::now();
        alone.search(q)?;
        without.push(t.elapsed().as_secs_f64() * 1000.0);
    }
    drop((e, alone));
    let _ = std::fs::remove_dir_all(&dir);

    let mb = |bytes: usize, s: f64| bytes as f64 / 1e6 / s;
    let out = json!({
        "one_10mb_document": {
            "bytes": big.len(), "passages": big_passages, "seconds": big_s,
            "mb_per_s": mb(big.len(), big_s),
        },
        "small_documents": {
            "documents": SMALL, "bytes": small_bytes, "passages": small_passages,
            "seconds": small_s, "mb_per_s": mb(small_bytes, small_s),
            "documents_per_s": SMALL as f64 / small_s,
        },
        "search_beside_10k_memories": {
            "queries": queries.len(),
            "with_1000_documents_ms": percentiles(&mut with_docs.clone()),
            "without_documents_ms": percentiles(&mut without.clone()),
            "memory_queries_with_documents_ms": percentiles(&mut with_docs[..SEARCHES / 2].to_vec()),
            "locomo_questions_with_documents_ms": percentiles(&mut with_docs[SEARCHES / 2..].to_vec()),
            "locomo_questions_without_documents_ms": percentiles(&mut without[SEARCHES / 2..].to_vec()),
            "passages_in_answers": passage_hits,
        },
    });
    let path = root.join("target/mnemo-documents-bench.json");
    std::fs::create_dir_all(root.join("target"))?;
    std::fs::write(&path, serde_json::to_string_pretty(&out)?)?;
    println!("{}", serde_json::to_string_pretty(&out)?);
    eprintln!("written to {}", path.display());
    Ok(())
}

/// An `ingest` of `content` into the bench owner.
fn request(title: &str, content: &str) -> Res<IngestRequest> {
    Ok(serde_json::from_value(json!({
        "entity_id": common::OWNER, "title": title, "content": content, "source": "chat",
    }))?)
}

/// Every LoCoMo session as text (a turn a line), and every question.
fn conversations(locomo: &Value) -> (Vec<String>, Vec<String>) {
    let mut sessions = Vec::new();
    let mut questions = Vec::new();
    for conv in locomo.as_array().into_iter().flatten() {
        let c = &conv["conversation"];
        for n in 1.. {
            let Some(turns) = c[format!("session_{n}")].as_array() else {
                break;
            };
            let lines: Vec<String> = turns
                .iter()
                .filter_map(|t| {
                    Some(format!(
                        "{}: {}",
                        t["speaker"].as_str()?,
                        t["text"].as_str()?
                    ))
                })
                .collect();
            sessions.push(lines.join("\n"));
        }
        for qa in conv["qa"].as_array().into_iter().flatten() {
            if let Some(q) = qa["question"].as_str() {
                questions.push(q.to_string());
            }
        }
    }
    (sessions, questions)
}

/// p50, p95 and p99 of `ms`.
fn percentiles(ms: &mut [f64]) -> Value {
    ms.sort_by(f64::total_cmp);
    let at = |p: f64| ms[((ms.len() - 1) as f64 * p).round() as usize];
    json!({"p50": at(0.5), "p95": at(0.95), "p99": at(0.99)})
}
