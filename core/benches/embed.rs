//! Embedding throughput of the built-in embedders on short sentences: every fact and question
//! of the meaning set (`tests/data/meaning/paraphrase.json`, 338 texts of 3–25 words),
//! embedded in turn. Aim for the default, `mnemo-static-v1`: ≥ 50,000 sentences/s natively.
//!
//! `cargo bench -p mnemo-core --bench embed`

use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use mnemo_core::embed::Embedder;
use mnemo_core::{HashEmbedder, StaticEmbedder, StaticModel};

fn sentences() -> Vec<String> {
    let path = format!(
        "{}/../tests/data/meaning/paraphrase.json",
        env!("CARGO_MANIFEST_DIR")
    );
    let set: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).expect("the meaning set"))
            .expect("JSON");
    let mut out = Vec::new();
    for f in set["facts"].as_array().expect("facts") {
        out.extend(f["fact"].as_str().map(str::to_string));
        for q in f["questions"].as_array().expect("questions") {
            out.extend(q.as_str().map(str::to_string));
        }
    }
    for q in set["abstain"].as_array().expect("abstain") {
        out.extend(q.as_str().map(str::to_string));
    }
    out
}

fn embed(c: &mut Criterion) {
    let sentences = sentences();
    let embedders: [(&str, Box<dyn Embedder>); 2] = [
        (
            "mnemo-static-v1",
            Box::new(StaticEmbedder::new(StaticModel::bundled())),
        ),
        ("mnemo-hash-v1", Box::new(HashEmbedder::default())),
    ];
    let mut group = c.benchmark_group("embed");
    group
        .sample_size(20)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(4))
        .throughput(Throughput::Elements(sentences.len() as u64));
    for (name, e) in &embedders {
        group.bench_function(*name, |b| {
            b.iter(|| {
                for s in &sentences {
                    std::hint::black_box(e.embed(s).expect("embed"));
                }
            })
        });
    }
    group.finish();
}

criterion_group!(benches, embed);
criterion_main!(benches);
