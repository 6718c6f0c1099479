//! Bad input gets a clear error and changes nothing.
mod common;

use common::*;
use mnemo_core::*;

/// Runs `f`, expects the error `code`, and checks the owner's data is unchanged.
fn rejects(e: &mut Engine, code: &str, f: impl FnOnce(&mut Engine) -> Result<()>) -> String {
    let before = snapshot(e, "u");
    let err = f(e).expect_err("should be rejected");
    assert_eq!(err.code(), code, "{err}");
    assert_eq!(
        snapshot(e, "u"),
        before,
        "a rejected call changed the store: {err}"
    );
    err.to_string()
}

/// The JSON arguments of a `seed` of one memory of `u` saying `c`, with `field` set to `value`:
/// a value the checked types cannot hold, sent as every face sends it.
fn seed_with(field: &str, value: serde_json::Value) -> String {
    let mut item = serde_json::json!({"entity_id": "u", "content": "c"});
    item[field] = value;
    serde_json::json!({ "items": [item] }).to_string()
}

/// The JSON arguments of an `update` of memory `id` of `u` with `patch`.
fn update_with(id: &str, patch: serde_json::Value) -> String {
    serde_json::json!({"entity_id": "u", "id": id, "patch": patch}).to_string()
}

fn setup() -> (Engine, String) {
    let (mut e, _) = engine();
    let id = seed_one(&mut e, mem("u", "an existing memory about gardening"));
    (e, id)
}

#[test]
fn empty_and_oversized_content() {
    let (mut e, id) = setup();
    let huge = "x".repeat(1_000_000);
    for content in ["", "   \n\t", huge.as_str(), "nul\0byte"] {
        // Rust callers cannot build such a memory; faces send it as JSON.
        let err = NewMemory::new("u", content).unwrap_err();
        assert_eq!(err.code(), "invalid_input");
        assert!(err.to_string().starts_with("invalid content: "), "{err}");
        let msg = rejects(&mut e, "invalid_input", |e| {
            e.call_json("seed", &seed_with("content", content.into()))
                .map(drop)
        });
        assert!(msg.contains("args.items[0].content"), "{msg}");
        rejects(&mut e, "invalid_input", |e| {
            e.remember("u", content, RememberOptions::default())
                .map(drop)
        });
        let msg = rejects(&mut e, "invalid_input", |e| {
            e.call_json(
                "update",
                &update_with(&id, serde_json::json!({ "content": content })),
            )
            .map(drop)
        });
        assert!(msg.contains("args.patch.content"), "{msg}");
    }
    let msg = rejects(&mut e, "invalid_input", |e| {
        e.call_json("seed", &seed_with("content", huge.as_str().into()))
            .map(drop)
    });
    assert!(msg.contains("1000000 characters; at most 50000"), "{msg}");
    // The limit counts characters, not bytes.
    assert!(e
        .seed(vec![mem("u", &"é".repeat(field::MAX_CONTENT_CHARS))])
        .is_ok());
}

#[test]
fn fts5_syntax_in_queries_is_plain_text() {
    let (mut e, id) = setup();
    for q in [
        "\"",
        "*",
        "NEAR(",
        "-",
        ":",
        "gardening\"",
        "content:gardening",
        "NOT gardening",
        "garden* OR",
        "^gardening",
        "{x}",
        "'; DROP TABLE memories;--",
        "(((",
        "a AND",
        "\u{0}",
    ] {
        let hits = e
            .search(&SearchRequest::new(common::id("u"), q))
            .unwrap_or_else(|err| panic!("{q:?}: {err}"));
        assert!(hits.len() <= 1, "{q:?}");
    }
    assert_eq!(
        ids(&search(&mut e, "u", "\"gardening\" NEAR( existing*")),
        vec![id]
    );
    assert_eq!(e.stats("u").unwrap().total, 1);
}

#[test]
fn query_limits() {
    let (mut e, _) = setup();
    let q = |query: String| SearchRequest::new(id("u"), query);
    rejects(&mut e, "invalid_input", |e| {
        e.search(&q("x".repeat(10_001))).map(drop)
    });
    rejects(&mut e, "invalid_input", |e| {
        e.search(&q("   ".into())).map(drop)
    });
    // Limits out of range cannot be built in Rust; faces send them as JSON.
    assert!(Limit::new(0).is_err() && Limit::new(1001).is_err());
    for n in [0, 1001] {
        let msg = rejects(&mut e, "invalid_input", |e| {
            e.call_json(
                "search",
                &format!(r#"{{"entity_id":"u","query":"x","limit":{n}}}"#),
            )
            .map(drop)
        });
        assert_eq!(
            msg,
            format!("invalid args.limit: {n} is not between 1 and 1000")
        );
    }
    rejects(&mut e, "invalid_input", |e| {
        e.search(&SearchRequest {
            min_score: Some(f64::NAN),
            ..q("x".into())
        })
        .map(drop)
    });
    let msg = rejects(&mut e, "invalid_input", |e| {
        e.call_json("list", r#"{"entity_id":"u","limit":5000}"#)
            .map(drop)
    });
    assert_eq!(msg, "invalid args.limit: 5000 is not between 1 and 1000");
}

#[test]
fn vectors_of_wrong_dimension_or_not_finite() {
    let (mut e, _) = vector_engine(Config::default());
    let id = seed_one(&mut e, vmem("u", "existing", at_cosine(1.0)));
    for (v, code) in [
        (vec![1.0, 0.0, 0.0], "dimension_mismatch"),
        (vec![0.0; 384], "dimension_mismatch"),
        (vec![], "dimension_mismatch"),
        (vec![f32::NAN, 0.0, 0.0, 0.0], "non_finite_vector"),
        (vec![0.0, f32::INFINITY, 0.0, 0.0], "non_finite_vector"),
        (vec![0.0, 0.0, f32::NEG_INFINITY, 0.0], "non_finite_vector"),
    ] {
        let msg = rejects(&mut e, code, |e| {
            e.seed(vec![vmem("u", "new", v.clone())]).map(drop)
        });
        assert!(msg.contains("vector"), "{msg}");
        // The element as Rust writes it: `is NaN`, `is inf`, `is -inf`.
        if let Some(bad) = v.iter().find(|x| !x.is_finite()) {
            assert!(msg.contains(&format!("is {bad};")), "{msg}");
        }
        rejects(&mut e, code, |e| {
            e.search(&SearchRequest {
                vector: Some(v.clone()),
                ..SearchRequest::new(common::id("u"), "x")
            })
            .map(drop)
        });
        rejects(&mut e, code, |e| {
            e.update(
                "u",
                &id,
                MemoryPatch {
                    content: Some(content("changed")),
                    vector: Some(v.clone()),
                    ..Default::default()
                },
            )
            .map(drop)
        });
    }
    // A vector without new content is refused too.
    rejects(&mut e, "invalid_input", |e| {
        e.update(
            "u",
            &id,
            MemoryPatch {
                vector: Some(at_cosine(0.5)),
                ..Default::default()
            },
        )
        .map(drop)
    });
}

#[test]
fn bad_ids_on_every_call() {
    let (mut e, id) = setup();
    for bad in [
        "",
        "has space",
        "semi;colon",
        "quote'",
        "ünïcode",
        &"a".repeat(257),
        "x'; DROP TABLE memories;--",
    ] {
        // A bad id cannot be built in Rust; faces send it as JSON.
        assert_eq!(bad.parse::<Id>().unwrap_err().code(), "invalid_input");
        let msg = rejects(&mut e, "invalid_input", |e| {
            e.call_json("seed", &seed_with("entity_id", bad.into()))
                .map(drop)
        });
        assert!(
            msg.starts_with("invalid args.items[0].entity_id: "),
            "{msg}"
        );
        rejects(&mut e, "invalid_input", |e| e.get(bad, &id).map(drop));
        rejects(&mut e, "invalid_input", |e| e.get("u", bad).map(drop));
        let msg = rejects(&mut e, "invalid_input", |e| {
            let args = serde_json::json!({"entity_id": bad, "query": "x"});
            e.call_json("search", &args.to_string()).map(drop)
        });
        assert!(msg.starts_with("invalid args.entity_id: "), "{msg}");
        rejects(&mut e, "invalid_input", |e| e.forget("u", bad).map(drop));
        rejects(&mut e, "invalid_input", |e| e.stats(bad).map(drop));
        rejects(&mut e, "invalid_input", |e| e.export_jsonl(bad).map(drop));
        let msg = rejects(&mut e, "invalid_input", |e| {
            e.call_json("seed", &seed_with("session_id", bad.into()))
                .map(drop)
        });
        assert!(
            msg.starts_with("invalid args.items[0].session_id: "),
            "{msg}"
        );
    }
    rejects(&mut e, "not_found", |e| {
        e.get("u", "mem_0000000000000000").map(drop)
    });
}

#[test]
fn out_of_range_fields() {
    let (mut e, id) = setup();
    // Values the checked types refuse cannot be built in Rust (NaN cannot be written in JSON:
    // only a Rust caller could give it, and the type refuses it)…
    for (err, field) in [
        (
            Unit::parse("importance", f64::NAN).unwrap_err(),
            "importance",
        ),
        (Unit::parse("importance", -0.1).unwrap_err(), "importance"),
        (Unit::parse("confidence", 1.01).unwrap_err(), "confidence"),
        (Sentiment::parse(2.0).unwrap_err(), "sentiment"),
        (Tags::parse("tags", &["".into()]).unwrap_err(), "tags"),
        (
            SourceRef::parse(&"r".repeat(1025)).unwrap_err(),
            "source_ref",
        ),
    ] {
        assert_eq!(err.code(), "invalid_input", "{err}");
        assert!(
            err.to_string().starts_with(&format!("invalid {field}: ")),
            "{err}"
        );
    }
    // …so faces send them as JSON, and the engine refuses them there.
    let tags65: Vec<String> = (0..65).map(|i| format!("t{i}")).collect();
    let cases: Vec<(&str, serde_json::Value)> = vec![
        ("importance", (-0.1).into()),
        ("importance", 1.5.into()),
        ("confidence", 1.01.into()),
        ("sentiment", 2.0.into()),
        ("tags", serde_json::json!([""])),
        ("tags", tags65.into()),
        ("tags", serde_json::json!(["x".repeat(65)])),
        ("source_ref", "r".repeat(1025).into()),
    ];
    for (field, value) in cases {
        let msg = rejects(&mut e, "invalid_input", |e| {
            e.call_json("seed", &seed_with(field, value)).map(drop)
        });
        assert!(
            msg.starts_with(&format!("invalid args.items[0].{field}: ")),
            "{msg}"
        );
    }
    // A bad cron tag is the engine's to refuse.
    let msg = rejects(&mut e, "invalid_input", |e| {
        e.seed(vec![NewMemory {
            cron_tag: Some("daily".into()),
            ..mem("u", "c")
        }])
        .map(drop)
    });
    assert!(msg.contains("cron_tag"), "{msg}");
    let msg = rejects(&mut e, "invalid_input", |e| {
        e.call_json(
            "update",
            &update_with(&id, serde_json::json!({"importance": 7.0})),
        )
        .map(drop)
    });
    assert_eq!(
        msg,
        "invalid args.patch.importance: 7 is not a number between 0 and 1"
    );
    rejects(&mut e, "invalid_input", |e| {
        e.set_status("u", &id, Status::Challenged, &"r".repeat(1001))
            .map(drop)
    });
    rejects(&mut e, "invalid_input", |e| {
        e.seed((0..10_001).map(|i| mem("u", &format!("m{i}"))).collect())
            .map(drop)
    });
}

#[test]
fn unknown_enum_values_and_wrong_json_types() {
    let err = "FOO".parse::<MemoryType>().unwrap_err();
    assert_eq!(err.code(), "unknown_value");
    assert!(err.to_string().contains("IDENTITY, PREFERENCE"), "{err}");
    assert!("fastest"
        .parse::<RankMode>()
        .unwrap_err()
        .to_string()
        .contains("balanced"));
    assert!("identity".parse::<MemoryType>().is_err());
    for bad in [
        r#"{"entity_id":"u","content":"x","type":"FOO"}"#,
        r#"{"entity_id":"u","content":5}"#,
        r#"{"entity_id":"u","content":"x","colour":"red"}"#,
        r#"{"entity_id":"u","content":"x","importance":"high"}"#,
    ] {
        assert!(serde_json::from_str::<NewMemory>(bad).is_err(), "{bad}");
    }
    assert!(serde_json::from_str::<SearchRequest>(
        r#"{"entity_id":"u","query":"x","mode":"fast"}"#
    )
    .is_err());
    assert!(serde_json::from_str::<Config>(r#"{"dedup":{"skip":0.9}}"#).is_err());
}

#[test]
fn bad_import_lines_write_nothing() {
    let (mut e, _) = setup();
    let good = "{\"entity_id\":\"u\",\"content\":\"fine line\"}\n";
    let export = e.export_jsonl("u").unwrap();
    let mut cut_utf8 = good.as_bytes().to_vec();
    cut_utf8.extend_from_slice(b"{\"entity_id\":\"u\",\"content\":\"caf\xC3\"}\n");
    let tampered = export.replace("gardening", "cooking");
    let wrong_dim = {
        let mut v: serde_json::Value =
            serde_json::from_str(export.lines().next().unwrap()).unwrap();
        v["memory"]["id"] = "mem_ffffffffffffffff".into();
        v["embedding"] = serde_json::json!([0.5, 0.5]);
        v.to_string()
    };
    let cases: Vec<(Vec<u8>, &str)> = vec![
        (cut_utf8, "line 2: not valid UTF-8"),
        (
            format!("{good}{{not json\n").into_bytes(),
            "line 2: malformed JSON",
        ),
        (
            format!("{good}{{\"entity_id\":\"u\",\"content\":7}}\n").into_bytes(),
            "line 2: invalid content: invalid type: integer `7`, expected a string",
        ),
        (
            format!("{good}\"a line of text\"\n").into_bytes(),
            "line 2: invalid record: invalid type: string",
        ),
        (
            format!("{good}{{\"entity_id\":\"u\",\"content\":\"x\",\"type\":\"NOPE\"}}\n")
                .into_bytes(),
            "line 2",
        ),
        (
            format!("{good}{{\"entity_id\":\"bad id\",\"content\":\"x\"}}\n").into_bytes(),
            "line 2",
        ),
        (format!("{good}{tampered}").into_bytes(), "content_hash"),
        (format!("{good}{wrong_dim}\n").into_bytes(), "dimensions"),
    ];
    // A wrong-typed field of a full record is named by its path.
    let retyped = |path: &[&str], value: serde_json::Value| {
        let mut v: serde_json::Value =
            serde_json::from_str(export.lines().next().unwrap()).unwrap();
        v["memory"]["id"] = "mem_eeeeeeeeeeeeeeee".into();
        let mut at = &mut v;
        for key in path {
            at = &mut at[*key];
        }
        *at = value;
        format!("{good}{v}\n").into_bytes()
    };
    let mut cases = cases;
    cases.extend([
        (
            retyped(&["memory", "importance"], "high".into()),
            "line 2: invalid memory.importance: invalid type: string \"high\", expected f64",
        ),
        (
            retyped(&["memory", "pinned"], 3.into()),
            "invalid memory.pinned: invalid type: integer `3`, expected a boolean",
        ),
        (
            retyped(&["memory", "manual_tags"], "x".into()),
            "invalid memory.manual_tags: invalid type: string",
        ),
        (
            retyped(&["memory", "created_at"], "yesterday".into()),
            "invalid memory.created_at",
        ),
        (retyped(&["embedding"], "abc".into()), "invalid embedding"),
        (
            retyped(&["memory", "type"], "SONG".into()),
            "invalid memory.type: unknown variant `SONG`",
        ),
    ]);
    for (bytes, expect) in cases {
        let msg = rejects(&mut e, "import_error", |e| e.import_jsonl(&bytes).map(drop));
        assert!(msg.contains(expect), "{msg} (wanted {expect})");
    }
    // A full record whose id belongs to another owner is refused.
    let (mut other, _) = engine();
    let stolen = export.replace("\"entity_id\":\"u\"", "\"entity_id\":\"v\"");
    other.import_jsonl(export.as_bytes()).unwrap();
    let before = snapshot(&mut other, "v");
    assert_eq!(
        other.import_jsonl(stolen.as_bytes()).unwrap_err().code(),
        "import_error"
    );
    assert_eq!(snapshot(&mut other, "v"), before);
}

/// A clock the host set out of range.
struct Broken(Millis);
impl Clock for Broken {
    fn now(&self) -> Millis {
        self.0
    }
}

#[test]
fn clock_and_timestamps_out_of_range() {
    for t in [-1, i64::MIN, i64::MAX, clock::MAX_MILLIS + 1] {
        let err = Engine::builder(Broken(t))
            .open_in_memory()
            .err()
            .expect("refused");
        assert!(err.to_string().contains("clock"), "{err}");
    }
    let (mut e, clock) = engine();
    let id = seed_one(&mut e, mem("u", "fine"));
    clock.set(-5);
    rejects(&mut e, "invalid_input", |e| {
        e.seed(vec![mem("u", "later")]).map(drop)
    });
    rejects(&mut e, "invalid_input", |e| e.get("u", &id).map(drop));
    clock.set(T0);
    rejects(&mut e, "invalid_input", |e| {
        e.seed(vec![NewMemory {
            expires_at: Some(i64::MAX),
            ..mem("u", "c")
        }])
        .map(drop)
    });
    rejects(&mut e, "invalid_input", |e| {
        e.update(
            "u",
            &id,
            MemoryPatch {
                expires_at: Some(-1),
                ..Default::default()
            },
        )
        .map(drop)
    });
    rejects(&mut e, "invalid_input", |e| {
        e.list(&ListRequest {
            offset: usize::MAX,
            ..ListRequest::new(common::id("u"))
        })
        .map(drop)
    });
    let export = e.export_jsonl("u").unwrap().replace(
        &format!("\"created_at\":{T0}"),
        &format!("\"created_at\":{}", i64::MAX),
    );
    let (mut other, _) = engine();
    let err = other.import_jsonl(export.as_bytes()).unwrap_err();
    assert!(err.to_string().contains("created_at"), "{err}");
}

/// At the calendar's last moment (9999-12-31, a Friday) a statement or question naming a
/// weekday still to come is read without stepping past it: no hang, no panic.
#[test]
fn the_calendars_last_day_reads_the_weekdays_it_names() {
    let (mut e, clock) = engine();
    clock.set(clock::MAX_MILLIS);
    for text in [
        "I will see Ana next Saturday",
        "The report is due on Sunday",
        "I swim every Saturday morning",
        "Dinner with Tiago this weekend",
        "Call the plumber in 5 minutes",
        "The flight leaves in 3 hours",
        "I am so tired right now",
        "I am in a meeting at the moment",
    ] {
        let report = e.remember("u", text, RememberOptions::default());
        assert!(report.is_ok(), "{text}: {report:?}");
    }
    for query in [
        "what is on next Saturday?",
        "the Saturday after December 30",
    ] {
        assert!(
            e.search(&SearchRequest::new(id("u"), query)).is_ok(),
            "{query}"
        );
    }
}

#[test]
fn a_time_in_seconds_is_refused_with_a_hint_about_units() {
    let (mut e, id) = setup();
    // 1690000000 is July 2023 in seconds, and 20 January 1970 in milliseconds.
    let seconds = 1_690_000_000;
    for field in ["created_at", "expires_at"] {
        let item = match field {
            "created_at" => NewMemory {
                created_at: Some(seconds),
                ..mem("u", "the launch went well")
            },
            _ => NewMemory {
                expires_at: Some(seconds),
                ..mem("u", "the launch is on friday")
            },
        };
        let msg = rejects(&mut e, "invalid_input", |e| {
            e.seed(vec![mem("u", "a fine memory"), item]).map(drop)
        });
        assert_eq!(
            msg,
            format!(
                "invalid memories[1].{field}: 1690000000 is before 1973-03-03 (100000000000): \
                 looks like seconds; times are milliseconds since the Unix epoch (multiply by 1000)"
            )
        );
    }
    let msg = rejects(&mut e, "invalid_input", |e| {
        e.update(
            "u",
            &id,
            MemoryPatch {
                expires_at: Some(seconds),
                ..Default::default()
            },
        )
        .map(drop)
    });
    assert!(
        msg.contains("expires_at") && msg.contains("multiply by 1000"),
        "{msg}"
    );
    // Through the call vocabulary every face speaks, the same words.
    let err = e
        .call_json(
            "seed",
            r#"{"items": [{"entity_id": "u", "content": "x", "created_at": 1690000000}]}"#,
        )
        .unwrap_err();
    assert_eq!(err.code(), "invalid_input");
    assert!(err
        .to_string()
        .starts_with("invalid memories[0].created_at: 1690000000 is before"));
    // The same times in milliseconds are stored, down to the earliest plausible one.
    for (created_at, content) in [
        (seconds * 1000, "the launch went well"),
        (clock::MIN_PLAUSIBLE_MS, "grandpa bought the red bicycle"),
    ] {
        let id = seed_one(
            &mut e,
            NewMemory {
                created_at: Some(created_at),
                ..mem("u", content)
            },
        );
        assert_eq!(e.get("u", &id).unwrap().created_at, created_at);
    }
}

#[test]
fn one_oversized_item_fails_the_whole_batch_and_is_named_by_its_place() {
    let (mut e, _) = setup();
    let items: Vec<NewMemory> = (0..500)
        .map(|i| {
            mem(
                "u",
                &format!("batch memory number {i} about topic {}", i % 23),
            )
        })
        .collect();
    // Oversized content cannot be built in Rust; faces send it as JSON.
    let mut args = serde_json::json!({ "items": items });
    args["items"][17]["content"] = "x".repeat(field::MAX_CONTENT_CHARS + 1).into();
    let msg = rejects(&mut e, "invalid_input", |e| {
        e.call_json("seed", &args.to_string()).map(drop)
    });
    assert_eq!(
        msg,
        format!(
            "invalid args.items[17].content: is {} characters; at most {} allowed",
            field::MAX_CONTENT_CHARS + 1,
            field::MAX_CONTENT_CHARS
        )
    );
}

/// Every argument is read by one reader: a bad value is named by its path through objects and
/// arrays, a key given twice is refused (not silently the last), and only an object is a
/// record of named fields.
#[test]
fn arguments_are_read_strictly_and_named_by_their_path() {
    let refused = |method: &str, args: &str| match Call::from_json(method, args) {
        Ok(call) => panic!("{method} {args} was read as {}", call.args_json()),
        Err(e) => {
            assert_eq!(e.code(), "invalid_input", "{e}");
            e.to_string()
        }
    };
    let cases = [
        ("search", r#"{"entity_id":"u","entity_id":"v","query":"x"}"#, "invalid args.entity_id: duplicate field `entity_id`"),
        ("seed", r#"{"items":[{"entity_id":"u","content":"a","content":"b"}]}"#, "invalid args.items[0].content: duplicate field `content`"),
        ("seed", r#"{"items":[{"entity_id":"u","content":"a"},{"entity_id":"u","content":"a","metadata":{"k":1,"k":2}}]}"#, "invalid args.items[1].metadata.k: duplicate field `k`"),
        ("search", r#"["u","x"]"#, "invalid args: invalid type: sequence, expected struct SearchRequest"),
        ("seed", r#"{"items":[{"entity_id":"u","content":"a","type":3}]}"#, "invalid args.items[0].type: invalid type: integer `3`, expected variant identifier"),
        ("seed", r#"{"items":[{"entity_id":"u","content":"a","type":{"IDENTITY":null}}]}"#, "invalid args.items[0].type: invalid type: map, expected variant identifier"),
        ("list", r#"{"entity_id":"u","states":["ACTIVE",3]}"#, "invalid args.states[1]: invalid type: integer `3`, expected variant identifier"),
        ("seed", r#"{"items":[{"entity_id":"u"}]}"#, "invalid args.items[0]: missing field `content`"),
        ("seed", r#"{"items":[{"entity_id":"u","content":"a"}]} x"#, "invalid args: trailing characters"),
        ("search", r#"{"entity_id":"u","query":"x","limit":1e400}"#, "invalid args.limit: number out of range"),
        ("search", r#"{"entity_id":"u","query":"x","limit":-1}"#, "invalid args.limit: invalid value: integer `-1`, expected usize"),
        ("search", r#"{"entity_id":"u","query":"x","limit":2.5}"#, "invalid args.limit: invalid type: floating point `2.5`, expected usize"),
        // Half of a UTF-16 pair alone, as a JavaScript or Python string can hold it.
        ("remember", r#"{"entity_id":"u","content":"I like \ud800 tea"}"#, "invalid args.content: is not Unicode text: it holds half of a UTF-16 surrogate pair (\\ud800 to \\udfff) alone"),
        ("search", r#"{"entity_id":"u","query":"tea \uDC00"}"#, "invalid args.query: is not Unicode text: it holds half of a UTF-16 surrogate pair (\\ud800 to \\udfff) alone"),
        ("search", r#"{"entity_id":"u","query":"tea \u12"}"#, "invalid args: invalid escape"),
        ("search", r#"{"entity_id":"u","query":"x","limit":null,"mode":"ＦＡＳＴ"}"#, "invalid args.mode: unknown variant `ＦＡＳＴ`, expected one of `balanced`, `recent`, `important`, `historical`, `comprehensive`"),
    ];
    for (method, args, message) in cases {
        assert_eq!(refused(method, args), message, "{method} {args}");
    }
    // A huge bad value is cut in the message; a deep one is refused by its depth.
    let huge = format!(
        r#"{{"entity_id":"u","query":"x","mode":"{}"}}"#,
        "x".repeat(1 << 20)
    );
    assert!(refused("search", &huge).len() < 300);
    let deep = format!(
        r#"{{"entity_id":"u","query":"x","vector":{}{}}}"#,
        "[".repeat(300),
        "]".repeat(300)
    );
    let deep = refused("search", &deep);
    assert!(
        deep.starts_with("invalid args.vector[0][0]")
            && deep.ends_with(": recursion limit exceeded"),
        "{deep}"
    );
    // The same reader takes a value a face already parsed (`from_value`), with the same words.
    let value = serde_json::json!({"entity_id": "u", "query": "x", "limit": "ten"});
    let e = mnemo_core::api::from_value::<SearchRequest>("args", &value).unwrap_err();
    assert_eq!(
        e.to_string(),
        r#"invalid args.limit: invalid type: string "ten", expected usize"#
    );
}
