//! Holds Mnemo's search above the best published baseline of the LoCoMo dev split
//! (RRF of BM25 + MiniLM, top 20 each: R@10 0.622), with the built-in embedder and with the
//! MiniLM vectors, in the default (balanced) mode.
#[allow(dead_code)]
#[path = "../examples/locomo/eval.rs"]
mod eval;

use std::path::PathBuf;

use mnemo_core::RankMode;

/// Best baseline R@10 in `shared/data/locomo/README.md`.
const BEST_BASELINE_R10: f64 = 0.622;

fn data() -> PathBuf {
    let dir = std::env::var_os("MNEMO_LOCOMO_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/data/locomo")
        });
    assert!(
        dir.join("locomo-dev.json").exists(),
        "LoCoMo data not found in {} (set MNEMO_LOCOMO_DIR)",
        dir.display()
    );
    dir
}

/// Runs the evaluation (balanced mode) and checks R@10 beats the best baseline.
fn assert_beats_baseline(vectors: Option<(PathBuf, PathBuf)>) {
    let d = data();
    let r = eval::evaluate(&eval::Options {
        locomo: d.join("locomo-dev.json"),
        vectors,
        mode: RankMode::Balanced,
    })
    .unwrap();
    println!("{}", r.table());
    assert_eq!(r.overall.questions, 760);
    let r10 = r.overall.recall()[2];
    assert!(
        r10 > BEST_BASELINE_R10,
        "R@10 {r10} does not beat {BEST_BASELINE_R10}"
    );
}

#[test]
fn builtin_embedder_beats_the_best_baseline() {
    assert_beats_baseline(None);
}

#[test]
fn minilm_vectors_beat_the_best_baseline() {
    let d = data();
    assert_beats_baseline(Some((
        d.join("minilm-dev.f16"),
        d.join("minilm-dev.index.json"),
    )));
}
