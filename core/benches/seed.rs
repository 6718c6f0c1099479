//! Seed throughput: batches of 1,000 memories with supplied 384-d vectors, dedup on, into one
//! owner of a real SQLite file — into an empty owner, and into an owner already holding
//! 10,000 memories. Aim: ≥ 20,000 memories/s.
//!
//! `cargo bench -p mnemo-core --bench seed`

mod common;

use std::time::Duration;

use common::{build_store, timed_seed, Corpus, SeedInto, TempDir, SEED_BATCH};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};

/// Memories already held by the owner in the second benchmark.
const BASE: usize = 10_000;

fn seed(c: &mut Criterion) {
    let corpus = Corpus::new();
    let dir = TempDir::new("seed");
    let base = dir.file("base-10k");
    let mut base_built = false;

    let mut group = c.benchmark_group("seed");
    group
        .sample_size(10)
        .warm_up_time(Duration::from_secs(2))
        .measurement_time(Duration::from_secs(5))
        .throughput(Throughput::Elements(SEED_BATCH as u64));

    group.bench_function("1k_into_empty_owner", |b| {
        b.iter_custom(|iters| {
            (0..iters)
                .map(|_| timed_seed(&dir, &corpus, &SeedInto::Empty))
                .sum()
        })
    });

    group.bench_function("1k_into_owner_with_10k", |b| {
        if !base_built {
            build_store(&base, &corpus, BASE);
            base_built = true;
        }
        b.iter_custom(|iters| {
            (0..iters)
                .map(|_| timed_seed(&dir, &corpus, &SeedInto::CopyOf(&base)))
                .sum()
        })
    });

    group.finish();
}

criterion_group!(benches, seed);
criterion_main!(benches);
