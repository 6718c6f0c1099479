//! Holds Mnemo's search above the best published baseline of the LoCoMo dev split
//! (RRF of BM25 + MiniLM, top 20 each: R@10 0.622), with the built-in embedder and with the
//! MiniLM vectors, in the default (balanced) mode; and keeps recall when turns go through the
//! extractor (`remember`) instead of being stored verbatim.
#[allow(dead_code)]
#[path = "../examples/locomo/eval.rs"]
mod eval;

use std::path::PathBuf;

use mnemo_core::RankMode;

/// Best baseline R@10 in `tests/data/locomo/README.md`.
const BEST_BASELINE_R10: f64 = 0.622;

fn data() -> PathBuf {
    let dir = std::env::var_os("MNEMO_LOCOMO_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/data/locomo"));
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
        remember: false,
        hash: false,
        link_weight: None,
        consolidate: false,
        documents: false,
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

/// Feeding turns through the extractor (one memory per statement, chit-chat dropped) must keep
/// what retrieval needs: R@10 within 0.05 of storing turns verbatim (0.653).
#[test]
fn remembering_turns_through_the_extractor_keeps_recall() {
    let r = eval::evaluate(&eval::Options {
        locomo: data().join("locomo-dev.json"),
        vectors: None,
        mode: RankMode::Balanced,
        remember: true,
        hash: false,
        link_weight: None,
        consolidate: false,
        documents: false,
    })
    .unwrap();
    println!("{}", r.table());
    assert_eq!(r.overall.questions, 760);
    assert!(r.insignificant > 0, "chit-chat turns should store nothing");
    let r10 = r.overall.recall()[2];
    assert!(r10 > 0.60, "R@10 through remember fell to {r10}");
}

/// The vector prefilter keeps the exact neighbours on real embeddings: every LoCoMo turn in one
/// set (2.9k, above the size scanned exactly), every question a query; MiniLM's dense vectors
/// and the built-in embedder's sparse ones.
#[test]
fn the_vector_prefilter_keeps_the_true_neighbours_of_real_embeddings() {
    use mnemo_core::embed::Embedder;
    use mnemo_core::vectors::{self, OwnerVectors};
    use mnemo_core::{StaticEmbedder, StaticModel};

    let d = data();
    let index = d.join("minilm-dev.index.json");
    let (vectors, _) = eval::load_vectors(&d.join("minilm-dev.f16"), &index).unwrap();
    let index: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&index).unwrap()).unwrap();
    // (text, MiniLM vector) of the turns and of the questions, in file order.
    let (mut turns, mut questions) = (Vec::new(), Vec::new());
    for row in index["rows"].as_array().unwrap() {
        let v = vectors[row["id"].as_str().unwrap()].clone();
        match row["kind"].as_str() {
            Some("turn") => turns.push((row["text"].as_str().unwrap().to_string(), v)),
            _ => questions.push((row["question"].as_str().unwrap().to_string(), v)),
        }
    }
    // Mean share of the exact top 10 that the set's (prefiltered) search returns.
    let recall_at_10 = |all: &[Vec<f32>], queries: &[Vec<f32>]| {
        let mut set = OwnerVectors::new(all[0].len());
        all.iter()
            .enumerate()
            .for_each(|(pk, v)| set.upsert(pk as i64, v, mnemo_core::embed::Precision::F32));
        vectors::recall_at(&set, all, queries, 10)
    };
    let minilm = recall_at_10(
        &turns.iter().map(|t| t.1.clone()).collect::<Vec<_>>(),
        &questions.iter().map(|q| q.1.clone()).collect::<Vec<_>>(),
    );
    // And with the default embedder's own vectors of the same texts.
    let embedder = StaticEmbedder::new(StaticModel::bundled());
    let embedded = |texts: &[(String, Vec<f32>)]| -> Vec<Vec<f32>> {
        texts
            .iter()
            .map(|t| embedder.embed(&t.0).unwrap())
            .collect()
    };
    let default = recall_at_10(&embedded(&turns), &embedded(&questions));
    println!("recall@10 of the prefiltered search: MiniLM {minilm:.4}, default {default:.4}");
    assert!(turns.len() > 2_000, "{} turns", turns.len());
    assert!(minilm >= 0.99, "MiniLM recall@10 {minilm}");
    assert!(default >= 0.99, "default embedder recall@10 {default}");
}

/// Relevance lent along co-recall links, when a host turns it on (at full weight here), must
/// not cost recall: at every k within 0.002 of the default run, where links lend nothing.
#[test]
fn co_recall_links_do_not_lower_recall() {
    let run = |link_weight| {
        eval::evaluate(&eval::Options {
            locomo: data().join("locomo-dev.json"),
            vectors: None,
            mode: RankMode::Balanced,
            remember: false,
            hash: false,
            link_weight,
            consolidate: false,
            documents: false,
        })
        .unwrap()
        .overall
        .recall()
    };
    let (on, off) = (run(Some(1.0)), run(None));
    for k in 0..3 {
        assert!(
            on[k] >= off[k] - 0.002,
            "R@k with links {on:?}, without {off:?}"
        );
    }
}
