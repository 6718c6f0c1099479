//! The call vocabulary every face uses (`mnemo_core::api`): methods by name with JSON
//! arguments, errors that name the bad field, whole-store images, and host-extracted memories.
mod common;

use common::*;
use mnemo_core::api::{self, Call};
use mnemo_core::*;
use serde_json::{json, Value};

fn call(e: &mut Engine, method: &str, args: Value) -> Result<Value> {
    Call::parse(method, &args).and_then(|c| e.call(c))
}

#[test]
fn every_method_answers_the_same_json_as_the_typed_api() {
    let (mut e, _) = engine();
    let report = call(
        &mut e,
        "seed",
        json!({"items": [{"entity_id": "ana", "content": "Ana drinks green tea", "type": "PREFERENCE"}]}),
    )
    .unwrap();
    let id = report["outcomes"][0]["id"].as_str().unwrap().to_string();
    let r = json!({"entity_id": "ana", "id": id});
    assert_eq!(
        call(&mut e, "get", r.clone()).unwrap()["content"],
        "Ana drinks green tea"
    );
    let hits = call(
        &mut e,
        "search",
        json!({"entity_id": "ana", "query": "tea"}),
    )
    .unwrap();
    assert_eq!(hits[0]["memory"]["id"], id.as_str());
    assert!(hits[0]["why"]["text"].as_f64().unwrap() > 0.0);
    assert_eq!(call(&mut e, "reinforce", r.clone()).unwrap()["feedback"], 3);
    assert_eq!(call(&mut e, "demote", r.clone()).unwrap()["feedback"], 2);
    let pinned = call(
        &mut e,
        "pin",
        json!({"entity_id": "ana", "id": id, "pinned": true}),
    );
    assert_eq!(pinned.unwrap()["pinned"], true);
    let patch = json!({"entity_id": "ana", "id": id, "patch": {"importance": 0.9}});
    assert_eq!(call(&mut e, "update", patch).unwrap()["importance"], 0.9);
    let status = json!({"entity_id": "ana", "id": id, "status": "challenged", "reason": "Ana said otherwise"});
    assert_eq!(
        call(&mut e, "set_status", status).unwrap()["status"],
        "challenged"
    );
    let layer =
        json!({"entity_id": "ana", "id": id, "layer": "procedural", "reason": "how Ana brews it"});
    let moved = call(&mut e, "set_layer", layer).unwrap();
    assert_eq!(moved["layer"], "procedural");
    assert!(moved["layer_set_at"].as_i64().is_some());
    let history = call(&mut e, "status_history", r.clone()).unwrap();
    assert_eq!(history[0]["reason"], "Ana said otherwise");
    assert_eq!(
        history[1]["layer"],
        json!({"old": "episodic", "new": "procedural"})
    );
    let stats = call(&mut e, "stats", json!({"entity_id": "ana"})).unwrap();
    assert_eq!(stats["total"], 1);
    assert_eq!(
        call(&mut e, "list", json!({"entity_id": "ana"})).unwrap()["total"],
        1
    );
    assert!(call(&mut e, "maintain", json!({})).is_ok());
    let jsonl = call(&mut e, "export", json!({"entity_id": "ana"})).unwrap();
    assert_eq!(jsonl.as_str().unwrap().lines().count(), 1);
    let model = call(&mut e, "embedding_model", json!({})).unwrap();
    assert_eq!(model, json!({"model": "mnemo-static-v1", "dimension": 256}));
    assert_eq!(
        call(&mut e, "forget", r.clone()).unwrap()["state"],
        "DELETED"
    );
    let (mut other, _) = engine();
    let imported = call(&mut other, "import", json!({"jsonl": jsonl})).unwrap();
    assert_eq!(imported["restored"], 1);
    // The graph calls.
    call(
        &mut e,
        "remember",
        json!({"entity_id": "ana", "content": "My brother Tiago works at Shopify."}),
    )
    .unwrap();
    let ents = call(
        &mut e,
        "entities",
        json!({"entity_id": "ana", "types": ["PERSON"]}),
    )
    .unwrap();
    assert!(
        ents.as_array()
            .unwrap()
            .iter()
            .any(|x| x["name"] == "Tiago"),
        "{ents}"
    );
    let rels = call(
        &mut e,
        "relationships",
        json!({"entity_id": "ana", "entity": "Tiago", "stated_only": true}),
    )
    .unwrap();
    assert_eq!(rels.as_array().unwrap().len(), 2, "{rels}");
    let walk = call(
        &mut e,
        "traverse",
        json!({"entity_id": "ana", "from": "user"}),
    )
    .unwrap();
    assert_eq!(walk["nodes"][2]["name"], "Shopify");
    let path = call(
        &mut e,
        "path",
        json!({"entity_id": "ana", "from": "user", "to": "Shopify"}),
    )
    .unwrap();
    assert_eq!(path["hops"].as_array().unwrap().len(), 2);
    let beat = call(
        &mut e,
        "heartbeat_check",
        json!({"entity_id": "ana", "autonomy": "act"}),
    )
    .unwrap();
    assert_eq!(beat["decision_reason"], "first_contact");
    let msg = call(
        &mut e,
        "record_message",
        json!({"entity_id": "ana", "role": "user", "content": "hello"}),
    )
    .unwrap();
    assert_eq!(msg["role"], "user");
    let ctx = call(
        &mut e,
        "heartbeat_context",
        json!({"entity_id": "ana", "query": "tea", "dry_run": true}),
    )
    .unwrap();
    assert_eq!(ctx["report"]["in_conversation"], true);
    assert!(ctx["relevant_memories"].as_array().is_some());
    // Every listed method parses.
    assert_eq!(api::METHODS.len(), 62);
}

#[test]
fn store_wide_calls_find_an_id_count_every_owner_and_forget_one_owner() {
    let (mut e, _) = engine();
    let seeded = call(
        &mut e,
        "seed",
        json!({"items": [
            {"entity_id": "ana", "content": "Ana drinks green tea", "type": "PREFERENCE"},
            {"entity_id": "ana", "content": "Ana plays the cello", "type": "ACTIVITY"},
            {"entity_id": "ben", "content": "Ben drinks black coffee", "type": "PREFERENCE"}
        ]}),
    )
    .unwrap();
    let id = |i: usize| seeded["outcomes"][i]["id"].as_str().unwrap().to_string();
    let plan = call(
        &mut e,
        "schedule_create",
        json!({"entity_id": "ben", "content": "Water the plants", "cron_tag": "cron:daily:09:00"}),
    )
    .unwrap();
    assert_eq!(
        call(&mut e, "locate", json!({"id": id(2)})).unwrap(),
        json!({"id": id(2), "entity_id": "ben", "schedule": false})
    );
    let schedule = call(&mut e, "locate", json!({"id": plan["id"]})).unwrap();
    assert_eq!(
        (
            schedule["entity_id"].as_str(),
            schedule["schedule"].as_bool()
        ),
        (Some("ben"), Some(true))
    );
    let stats = call(&mut e, "store_stats", json!({})).unwrap();
    assert_eq!(
        stats["owners"],
        json!([{"entity_id": "ana", "total": 2}, {"entity_id": "ben", "total": 2}])
    );
    assert_eq!(
        (
            stats["total"].as_u64(),
            stats["by_type"]["PREFERENCE"].as_u64()
        ),
        (Some(4), Some(2))
    );

    let gone = call(&mut e, "forget_all", json!({"entity_id": "ana"})).unwrap();
    assert_eq!(gone, json!({"entity_id": "ana", "forgotten": 2}));
    // Only ana's: ben keeps both; a forgotten id is found nowhere; again forgets nothing.
    assert_eq!(
        call(&mut e, "stats", json!({"entity_id": "ben"})).unwrap()["total"],
        2
    );
    assert_eq!(
        call(&mut e, "stats", json!({"entity_id": "ana"})).unwrap()["total"],
        0
    );
    let missing = call(&mut e, "locate", json!({"id": id(0)})).unwrap_err();
    assert_eq!(missing.code(), "not_found");
    assert!(missing.to_string().contains(&id(0)), "{missing}");
    assert_eq!(
        call(&mut e, "forget_all", json!({"entity_id": "ana"})).unwrap()["forgotten"],
        0
    );
    let stats = call(&mut e, "store_stats", json!({})).unwrap();
    assert_eq!(stats["owners"], json!([{"entity_id": "ben", "total": 2}]));
    assert_eq!(stats["by_state"]["DELETED"], 2);
    // Bad input names its field and changes nothing.
    for (method, args) in [
        ("locate", json!({})),
        ("locate", json!({"id": ""})),
        ("locate", json!({"id": 5})),
        ("locate", json!({"id": "x", "entity_id": "ben"})),
        ("forget_all", json!({"entity_id": ""})),
        ("forget_all", json!({"entity_id": "ben' OR 1=1 --", "x": 1})),
        ("store_stats", json!({"entity_id": "ben"})),
    ] {
        let e2 = call(&mut e, method, args.clone()).unwrap_err();
        assert_eq!(e2.code(), "invalid_input", "{method} {args}: {e2}");
    }
    assert_eq!(
        call(&mut e, "stats", json!({"entity_id": "ben"})).unwrap()["total"],
        2
    );
}

#[test]
fn sample_draws_memories_at_random_from_one_owner_or_all_without_an_access() {
    // A fresh store of 30 memories (20 ana's, 10 ben's), and what `args` draws from it.
    let draw = |args: Value| {
        let (mut e, _) = engine();
        let items: Vec<Value> = (0..30)
            .map(|i| json!({"entity_id": if i % 3 == 0 { "ben" } else { "ana" }, "content": format!("Fact number {i} about the garden")}))
            .collect();
        call(&mut e, "seed", json!({ "items": items })).unwrap();
        let got = call(&mut e, "sample", args).unwrap();
        let listed = call(&mut e, "list", json!({"entity_id": "ana", "limit": 100})).unwrap();
        (got, listed)
    };
    let (ana, page) = draw(json!({"entity_id": "ana", "limit": 5}));
    let ana = ana.as_array().unwrap();
    assert_eq!(ana.len(), 5);
    assert!(ana
        .iter()
        .all(|m| m["entity_id"] == "ana" && m["access_count"] == 0));
    let mut ids: Vec<&str> = ana.iter().map(|m| m["id"].as_str().unwrap()).collect();
    ids.sort();
    ids.dedup();
    assert_eq!(ids.len(), 5, "no memory twice");
    // Not the newest five: drawn, not listed; and the same draw from the same host seed.
    let newest: Vec<&str> = page["memories"].as_array().unwrap()[..5]
        .iter()
        .map(|m| m["id"].as_str().unwrap())
        .collect();
    let drawn: Vec<&str> = ana.iter().map(|m| m["id"].as_str().unwrap()).collect();
    assert_ne!(drawn, newest);
    assert_eq!(
        draw(json!({"entity_id": "ana", "limit": 5}))
            .0
            .as_array()
            .unwrap(),
        ana
    );
    // Every owner's, and never more than there are.
    let (all, _) = draw(json!({"limit": 1000}));
    let all = all.as_array().unwrap();
    assert_eq!(all.len(), 30);
    assert!(
        all.iter().any(|m| m["entity_id"] == "ben") && all.iter().any(|m| m["entity_id"] == "ana")
    );
    assert_eq!(draw(json!({})).0.as_array().unwrap().len(), 10);
    let (none, _) = draw(json!({"entity_id": "nobody"}));
    assert_eq!(none, json!([]));
    for args in [
        json!({"limit": 0}),
        json!({"limit": 1001}),
        json!({"entity_id": ""}),
        json!({"entity_id": 5}),
        json!({"owner": "ana"}),
    ] {
        let (mut e, _) = engine();
        assert_eq!(
            call(&mut e, "sample", args.clone()).unwrap_err().code(),
            "invalid_input",
            "{args}"
        );
    }
}

#[test]
fn list_reads_memories_by_id_without_an_access_and_seed_takes_a_past_creation_time() {
    let (mut e, clock) = engine();
    let now = clock.now();
    let seeded = call(
        &mut e,
        "seed",
        json!({"items": [
            {"entity_id": "ana", "content": "Ana moved to Porto", "created_at": now - 86_400_000},
            {"entity_id": "ana", "content": "Ana plays the cello"},
            {"entity_id": "ben", "content": "Ben plays chess"}
        ]}),
    )
    .unwrap();
    let id = |i: usize| seeded["outcomes"][i]["id"].as_str().unwrap().to_string();
    let page = call(
        &mut e,
        "list",
        json!({"entity_id": "ana", "ids": [id(0), id(2)]}),
    )
    .unwrap();
    // Only ana's, only the ids asked for, and reading them is not an access.
    assert_eq!(page["total"], 1);
    assert_eq!(page["memories"][0]["id"], id(0).as_str());
    assert_eq!(page["memories"][0]["created_at"], now - 86_400_000);
    assert_eq!(page["memories"][0]["access_count"], 0);
    let again = call(&mut e, "list", json!({"entity_id": "ana", "ids": [id(0)]})).unwrap();
    assert_eq!(again["memories"][0]["access_count"], 0);
    for (args, field) in [
        (json!({"entity_id": "ana", "ids": ["x".repeat(300)]}), "ids"),
        (json!({"entity_id": "ana", "ids": vec!["m"; 1001]}), "ids"),
        (
            json!({"items": [{"entity_id": "ana", "content": "From the future", "created_at": now + 1}]}),
            "created_at",
        ),
        (
            json!({"items": [{"entity_id": "ana", "content": "Far past", "created_at": -5}]}),
            "created_at",
        ),
    ] {
        let method = if args.get("items").is_some() {
            "seed"
        } else {
            "list"
        };
        let err = call(&mut e, method, args).unwrap_err();
        assert!(err.to_string().contains(field), "{err}");
    }
    assert_eq!(
        call(&mut e, "stats", json!({"entity_id": "ana"})).unwrap()["total"],
        2
    );
}

#[test]
fn call_json_takes_text_and_names_what_is_wrong() {
    let (mut e, _) = engine();
    let out = e
        .call_json(
            "seed",
            r#"{"items":[{"entity_id":"ana","content":"hello there"}]}"#,
        )
        .unwrap();
    assert!(out.starts_with(r#"{"outcomes":[{"action":"created","id":"mem_"#));
    let cases = [
        (
            "seed",
            r#"{"items":[{"entity_id":"ana","content":5}]}"#,
            "args.items[0].content",
        ),
        (
            "seed",
            r#"{"items":[{"entity_id":"ana","content":"x","colour":1}]}"#,
            "colour",
        ),
        (
            "search",
            r#"{"entity_id":"ana","query":"x","limit":"ten"}"#,
            "args.limit",
        ),
        ("search", r#"{"entity_id":"ana","query":"x""#, "args"),
        (
            "search",
            r#"{"entity_id":"ana","query":"x"} {}"#,
            "trailing",
        ),
        ("search", "[1, 2]", "args"),
        (
            "set_status",
            r#"{"entity_id":"ana","id":"mem_1","status":"gone","reason":"r"}"#,
            "args.status",
        ),
        ("maintain", r#"{"now":1}"#, "now"),
    ];
    for (method, args, needle) in cases {
        let err = e.call_json(method, args).unwrap_err();
        assert_eq!(err.code(), "invalid_input", "{method} {args}: {err}");
        assert!(err.to_string().contains(needle), "{method} {args}: {err}");
    }
    // The path names the value where it stopped: in a later element, over several lines, an
    // unknown key however written (brackets and commas inside strings are text), and the
    // object a field is missing from.
    for (method, args, start) in [
        (
            "seed",
            r#"{"items":[{"entity_id":"ana","content":"x"},{"entity_id":"ana","content":"y","importance":"high"}]}"#,
            "invalid args.items[1].importance: invalid type: string \"high\"",
        ),
        (
            "seed",
            "{\n  \"items\": [\n    {\"entity_id\": \"ana\",\n     \"content\": [1]}\n  ]\n}",
            "invalid args.items[0].content: invalid type: sequence",
        ),
        (
            "search",
            r#"{"entity_id":"ana","query":"x, [y] {z}","ключ\"":1}"#,
            "invalid args.ключ\": unknown field `ключ\"`",
        ),
        ("reembed", r#"{}"#, "invalid args: missing field `model`"),
    ] {
        let err = e.call_json(method, args).unwrap_err().to_string();
        assert!(err.starts_with(start), "{method} {args}: {err}");
    }
    let err = e.call_json("drop_tables", "{}").unwrap_err();
    assert_eq!(err.code(), "unknown_value");
    assert!(err.to_string().contains("remember, extract, seed"), "{err}");
    // Empty text means no arguments; nothing above wrote anything.
    assert!(e.call_json("maintain", "").is_ok());
    assert_eq!(e.stats("ana").unwrap().total, 1);
}

#[test]
fn the_change_counter_moves_only_when_the_store_is_written() {
    let (mut e, _) = engine();
    let start = e.changes();
    let id = seed_one(&mut e, mem("ana", "Ana drinks green tea"));
    let seeded = e.changes();
    assert!(seeded > start);
    e.stats("ana").unwrap();
    e.list(&ListRequest::new(common::id("ana"))).unwrap();
    assert_eq!(e.changes(), seeded, "reads wrote");
    // A search's accesses are written with the next write (or flush): then the counter moves.
    search(&mut e, "ana", "tea");
    e.flush().unwrap();
    assert!(e.changes() > seeded);
    let flushed = e.changes();
    assert!(e.get("nobody", &id).is_err());
    assert_eq!(e.changes(), flushed);
}

#[test]
fn a_store_image_reopens_with_everything_and_refuses_what_is_not_a_store() {
    let (mut e, clock) = engine();
    let id = seed_one(&mut e, mem("ana", "Ana's sister lives in Lisbon"));
    search(&mut e, "ana", "sister");
    let bytes = e.to_bytes().unwrap();
    assert!(bytes.starts_with(b"SQLite format 3\0"));
    let mut copy = Engine::builder(clock.clone()).open_bytes(&bytes).unwrap();
    let m = copy.get("ana", &id).unwrap();
    // The search's pending access was written into the image (each `get` adds one).
    assert_eq!(m.access_count, e.get("ana", &id).unwrap().access_count);
    assert!(m.access_count >= 2);
    assert_eq!(search(&mut copy, "ana", "Lisbon")[0].memory.id, id);

    let not_stores: [&[u8]; 3] = [b"", b"hello, world", &[0u8; 4096]];
    for bytes in not_stores {
        let err = Engine::builder(clock.clone())
            .open_bytes(bytes)
            .err()
            .unwrap();
        assert_eq!(err.code(), "not_a_store", "{err}");
    }
    let mut header_only = b"SQLite format 3\0".to_vec();
    header_only.resize(100, 0);
    assert!(Engine::builder(clock.clone())
        .open_bytes(&header_only)
        .is_err());
    let other = Engine::builder(clock)
        .embedder(SuppliedVectors::new("other", 3))
        .open_bytes(&bytes)
        .err()
        .unwrap();
    assert_eq!(other.code(), "embedder_mismatch");
}

#[test]
fn host_extracted_memories_are_stored_with_their_vectors() {
    let (mut e, _) = vector_engine(Config::default());
    let args = json!({
        "entity_id": "ana",
        "content": "Ana adopted a cat called Miso",
        "session_id": "s1",
        "extracted": [
            {"content": "Ana adopted a cat", "type": "EVENT", "vector": [1.0, 0.0, 0.0, 0.0]},
            {"content": "The cat is called Miso", "vector": [0.0, 1.0, 0.0, 0.0]}
        ]
    });
    let report = call(&mut e, "remember", args).unwrap();
    assert_eq!(report["outcomes"].as_array().unwrap().len(), 2);
    let page = e
        .list(&ListRequest {
            oldest_first: true,
            ..ListRequest::new(id("ana"))
        })
        .unwrap();
    let got: Vec<_> = page
        .memories
        .iter()
        .map(|m| {
            (
                m.content.as_str(),
                m.memory_type,
                m.source,
                m.session_id.as_deref(),
            )
        })
        .collect();
    assert_eq!(
        got,
        [
            (
                "Ana adopted a cat",
                MemoryType::Event,
                Source::Conversation,
                Some("s1")
            ),
            (
                "The cat is called Miso",
                MemoryType::Context,
                Source::Conversation,
                Some("s1")
            ),
        ]
    );
    let hits = e
        .search(&SearchRequest {
            vector: Some(vec![0.0, 1.0, 0.0, 0.0]),
            ..SearchRequest::new(id("ana"), "")
        })
        .unwrap();
    assert_eq!(hits[0].memory.content, "The cat is called Miso");
    // Nothing extracted: not significant, nothing stored.
    let none = call(
        &mut e,
        "remember",
        json!({"entity_id": "ana", "content": "ok", "extracted": []}),
    );
    assert_eq!(none.unwrap()["outcomes"][0]["reason"], "not_significant");
    // A host extractor's bad output is refused whole.
    let bad = json!({"entity_id": "ana", "content": "x", "extracted": [
        {"content": "fine", "vector": [1.0, 0.0, 0.0, 0.0]},
        {"content": "broken", "vector": [1.0, 0.0]}
    ]});
    assert_eq!(
        call(&mut e, "remember", bad).unwrap_err().code(),
        "dimension_mismatch"
    );
    assert_eq!(e.stats("ana").unwrap().total, 2);
    // `extract` runs the engine's extractor without storing.
    let (mut plain, _) = engine();
    let x = call(
        &mut plain,
        "extract",
        json!({"content": "  We moved to Lisbon  "}),
    )
    .unwrap();
    assert_eq!(
        x,
        json!([{"content": "We moved to Lisbon", "type": "EVENT", "kind": "fact", "importance": 0.6,
            "confidence": 1.0, "hedged": false, "sentiment": 0.0, "tags": ["lisbon", "moved"],
            "expires_at": null, "entities": [{"name": "Lisbon", "type": "LOCATION"}],
            "relationships": [{"from": "user", "relation": "lives_in", "to": "Lisbon", "confidence": 0.9}]}])
    );
    assert_eq!(plain.stats("ana").unwrap().total, 0);
}
