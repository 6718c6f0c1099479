//! Extraction throughput of the built-in extractor: every message of both labelled sets
//! (`tests/data/extraction*.json`, 423 exchanges of 2–40 words), extracted in turn. Aim:
//! ≥ 2,000 exchanges/s natively; LLM-based peers take seconds per add.
//!
//! `cargo bench -p mnemo-core --bench extract`

use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use mnemo_core::extract::{Extractor, RuleExtractor};

/// Wednesday 2026-11-18 10:00 UTC.
const NOW: i64 = 1_794_996_000_000;

fn messages() -> Vec<String> {
    let mut out = Vec::new();
    for set in ["extraction.json", "extraction_holdout.json"] {
        let path = format!("{}/tests/data/{set}", env!("CARGO_MANIFEST_DIR"));
        let cases: Vec<serde_json::Value> =
            serde_json::from_str(&std::fs::read_to_string(path).expect("labelled set"))
                .expect("JSON");
        out.extend(
            cases
                .iter()
                .filter_map(|c| c["text"].as_str().map(str::to_string)),
        );
    }
    out
}

fn extract(c: &mut Criterion) {
    let messages = messages();
    let mut group = c.benchmark_group("extract");
    group
        .sample_size(20)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(4))
        .throughput(Throughput::Elements(messages.len() as u64));
    group.bench_function("labelled_exchanges", |b| {
        b.iter(|| {
            for m in &messages {
                std::hint::black_box(RuleExtractor.extract(m, NOW).expect("extract"));
            }
        })
    });
    group.finish();
}

criterion_group!(benches, extract);
criterion_main!(benches);
