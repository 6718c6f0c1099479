//! The built-in embedders: the distilled default tokenizes exactly as the model it comes from,
//! grasps meaning beyond shared words, refuses a damaged weights file, and stores keep the
//! embedder they were made with until `reembed` moves them.

use mnemo_core::embed::{dot, Embedder, HASH_MODEL, STATIC_MODEL};
use mnemo_core::{Engine, Error, ManualClock, StaticEmbedder, StaticModel};
use serde_json::{json, Value};

const WEIGHTS: &[u8] = include_bytes!("../assets/mnemo-static-v1.bin");

fn engine(path: &std::path::Path) -> Engine {
    Engine::builder(ManualClock::new(1_700_000_000_000))
        .open(path)
        .unwrap()
}

fn in_memory() -> Engine {
    Engine::builder(ManualClock::new(1_700_000_000_000))
        .open_in_memory()
        .unwrap()
}

fn call(e: &mut Engine, method: &str, args: Value) -> Value {
    serde_json::from_str(&e.call_json(method, &args.to_string()).unwrap()).unwrap()
}

#[test]
fn tokenizes_like_the_teacher() {
    let model = StaticModel::bundled();
    let cases: Vec<Value> =
        serde_json::from_str(include_str!("../../tests/data/meaning/wordpiece.json")).unwrap();
    assert!(cases.len() > 500);
    let mut wrong = Vec::new();
    for case in &cases {
        let text = case["text"].as_str().unwrap();
        let want: Vec<u32> = serde_json::from_value(case["ids"].clone()).unwrap();
        let got = model.token_ids(text);
        if got != want {
            wrong.push(format!("{text:?}: got {got:?}, want {want:?}"));
        }
    }
    assert!(
        wrong.is_empty(),
        "{} of {} differ:\n{}",
        wrong.len(),
        cases.len(),
        wrong.join("\n")
    );
}

#[test]
fn grasps_meaning_beyond_shared_words() {
    let e = StaticEmbedder::new(StaticModel::bundled());
    assert_eq!(e.model_id(), STATIC_MODEL);
    let v = |t: &str| e.embed(t).unwrap();
    let job = v("I live in Porto and work as a marine biologist.");
    let sister = v("My sister Ines is visiting me in May.");
    let q = v("what is my job");
    assert!(
        dot(&q, &job) > dot(&q, &sister),
        "{} vs {}",
        dot(&q, &job),
        dot(&q, &sister)
    );
    let veg = v("I stopped eating meat three years ago");
    let q = v("Am I vegetarian?");
    assert!(dot(&q, &veg) > dot(&q, &sister));
    // Unit length, the same bits every time, and nothing for text without tokens.
    assert!((dot(&job, &job) - 1.0).abs() < 1e-5);
    assert_eq!(job, v("I live in Porto and work as a marine biologist."));
    assert!(v("").iter().all(|x| *x == 0.0));
    assert!(v(&"\u{1}".repeat(10)).iter().all(|x| *x == 0.0));
}

#[test]
fn a_damaged_weights_file_is_refused_with_a_reason() {
    let msg = |b: &[u8]| match StaticModel::from_bytes(b.to_vec()) {
        Err(Error::Embedder(m)) => m,
        other => panic!("expected an embedder error, got {other:?}"),
    };
    assert!(msg(b"").contains("ends inside the header"));
    assert!(msg(b"NOTMNEMO\x00\x01\x00\x00").contains("wrong magic"));
    assert!(msg(&WEIGHTS[..WEIGHTS.len() - 1]).contains("ends inside the vectors"));
    let mut extra = WEIGHTS.to_vec();
    extra.push(0);
    assert!(msg(&extra).contains("bytes follow"));
    let mut odd = WEIGHTS.to_vec();
    odd[8..12].copy_from_slice(&3u32.to_le_bytes());
    assert!(msg(&odd).contains("3 dimensions"));
    // A NaN scale: the first scale sits right after the vocabulary (length-prefixed tokens).
    let tokens = u32::from_le_bytes(WEIGHTS[12..16].try_into().unwrap());
    let mut at = 16;
    for _ in 0..tokens {
        at += 1 + WEIGHTS[at] as usize;
    }
    let mut nan = WEIGHTS.to_vec();
    nan[at..at + 4].copy_from_slice(&f32::NAN.to_le_bytes());
    assert!(msg(&nan).contains("not a finite"));
    assert_eq!(StaticModel::from_bytes(WEIGHTS).unwrap().dims(), 256);
}

#[test]
fn stores_keep_their_embedder_and_reembed_moves_them() {
    let dir = std::env::temp_dir().join(format!("mnemo-embedders-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("store.db");
    let _ = std::fs::remove_file(&path);

    // A new store gets the distilled default.
    let mut e = engine(&path);
    assert_eq!(e.embedding_model(), (STATIC_MODEL, 256));
    let facts = [
        "I work as a marine biologist at the aquarium",
        "My sister Ines is visiting me in May",
        "I stopped eating meat three years ago",
    ];
    for f in facts {
        call(
            &mut e,
            "remember",
            json!({"entity_id": "ana", "content": f}),
        );
    }
    call(
        &mut e,
        "remember",
        json!({"entity_id": "bob", "content": "I drive a red truck"}),
    );

    // Moved to the hashing embedder: every owner's memories, reported; search still works.
    let report = call(&mut e, "reembed", json!({"model": HASH_MODEL}));
    assert_eq!(report["model"], HASH_MODEL);
    assert_eq!(report["previous_model"], STATIC_MODEL);
    assert_eq!(report["dimension"], 384);
    assert_eq!(report["memories"], 4);
    let hits = call(
        &mut e,
        "search",
        json!({"entity_id": "ana", "query": "marine biologist"}),
    );
    assert!(hits[0]["memory"]["content"]
        .as_str()
        .unwrap()
        .contains("marine biologist"));
    drop(e);

    // Reopened without naming an embedder, the store keeps the one it records.
    let mut e = engine(&path);
    assert_eq!(e.embedding_model(), (HASH_MODEL, 384));
    let hits = call(
        &mut e,
        "search",
        json!({"entity_id": "bob", "query": "truck"}),
    );
    assert_eq!(hits.as_array().unwrap().len(), 1);

    // An unknown model is refused and changes nothing.
    for bad in [
        json!({"model": "gpt-4"}),
        json!({"model": ""}),
        json!({}),
        json!({"model": 3}),
    ] {
        let err = e.call_json("reembed", &bad.to_string()).unwrap_err();
        assert!(err.to_string().contains("model"), "{err}");
    }
    assert_eq!(e.embedding_model(), (HASH_MODEL, 384));

    // And back: meaning finds the job again.
    let report = call(&mut e, "reembed", json!({"model": STATIC_MODEL}));
    assert_eq!(report["memories"], 4);
    let hits = call(
        &mut e,
        "search",
        json!({"entity_id": "ana", "query": "what do I do for a living?"}),
    );
    assert!(
        hits[0]["memory"]["content"]
            .as_str()
            .unwrap()
            .contains("marine biologist"),
        "{hits}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn embed_answers_the_vectors_the_store_compares() {
    let mut e = in_memory();
    let texts = ["I like green tea", "green tea", "Zoë's café 🍵"];
    let got = call(&mut e, "embed", json!({ "texts": texts }));
    assert_eq!(got["model"], STATIC_MODEL);
    let dim = got["dimension"].as_u64().unwrap() as usize;
    let vectors: Vec<Vec<f32>> = serde_json::from_value(got["vectors"].clone()).unwrap();
    assert_eq!(vectors.len(), 3);
    for v in &vectors {
        assert_eq!(v.len(), dim);
        assert!((dot(v, v) - 1.0).abs() < 1e-5, "unit length");
    }
    // The same vectors the built-in embedder gives, in order.
    let model = StaticEmbedder::new(StaticModel::bundled());
    for (t, v) in texts.iter().zip(&vectors) {
        assert_eq!(&model.embed(t).unwrap(), v, "{t}");
    }
    // What search compares: the cosine of a stored memory and a query is their dot product.
    call(
        &mut e,
        "seed",
        json!({ "items": [{ "entity_id": "u", "content": texts[0] }] }),
    );
    let hits = call(
        &mut e,
        "search",
        json!({ "entity_id": "u", "query": texts[1] }),
    );
    let cosine = hits[0]["why"]["vector"].as_f64().unwrap();
    assert!((cosine - dot(&vectors[0], &vectors[1]) as f64).abs() < 1e-6);
}

#[test]
fn embed_refuses_bad_texts_whole() {
    let mut e = in_memory();
    let long = "x".repeat(mnemo_core::field::MAX_CONTENT_CHARS + 1);
    let many = vec!["tea"; mnemo_core::MAX_EMBED_TEXTS + 1];
    for (args, field) in [
        (json!({ "texts": [] }), "texts"),
        (json!({ "texts": many }), "texts"),
        (json!({ "texts": ["fine", "  "] }), "texts[1]"),
        (json!({ "texts": ["fine", "nul\u{0}"] }), "texts[1]"),
        (json!({ "texts": [long] }), "texts[0]"),
        (json!({ "texts": "just one" }), "texts"),
        (json!({ "texts": [1, 2] }), "texts"),
        (json!({ "texts": ["a"], "model": "other" }), "model"),
        (json!({}), "texts"),
    ] {
        let err = e.call_json("embed", &args.to_string()).unwrap_err();
        assert_eq!(err.code(), "invalid_input", "{args}");
        assert!(err.to_string().contains(field), "{args}: {err}");
    }
    // A store whose vectors come from the host's model cannot embed: it says so.
    let mut host = Engine::builder(ManualClock::new(1_700_000_000_000))
        .embedder(mnemo_core::SuppliedVectors::new("host-model", 8))
        .open_in_memory()
        .unwrap();
    let err = host
        .call_json("embed", r#"{"texts": ["tea"]}"#)
        .unwrap_err();
    assert!(matches!(err, Error::Embedder(_)), "{err}");
    assert!(err.to_string().contains("host-model"), "{err}");
}
