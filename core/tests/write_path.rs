//! The write path: three-tier dedup, merge, surprise, one transaction per call.
mod common;

use common::*;
use mnemo_core::*;

#[test]
fn created_memory_has_defaults_and_is_searchable() {
    let (mut e, _) = engine();
    let id = seed_one(
        &mut e,
        NewMemory {
            tags: tags(&["drinks"]),
            ..mem("ana", "Ana drinks green tea every morning")
        },
    );
    let m = e.get("ana", &id).unwrap();
    assert_eq!(m.memory_type, MemoryType::Event);
    assert_eq!(
        (m.kind, m.state, m.status, m.source),
        (Kind::Fact, State::Active, Status::Active, Source::Agent)
    );
    assert_eq!(m.trust, 0.7);
    assert_eq!(m.manual_tags, vec!["drinks"]);
    assert_eq!(
        m.content_hash,
        text::content_hash("ana DRINKS green tea every   morning")
    );
    assert!(id.starts_with("mem_") && id.len() == 28);
    assert_eq!(ids(&search(&mut e, "ana", "green tea")), vec![id]);
}

#[test]
fn tier_one_exact_hash_skips_normalised_duplicates() {
    let (mut e, _) = engine();
    let id = seed_one(&mut e, mem("ana", "I like green tea"));
    let r = e.seed(vec![mem("ana", "  i LIKE   green tea ")]).unwrap();
    assert_eq!(
        r.outcomes,
        vec![Outcome::Skipped {
            reason: SkipReason::ExactDuplicate,
            existing: Some(id.clone()),
            similarity: Some(1.0)
        }]
    );
    // Saying it again counts as using it.
    assert_eq!(e.get("ana", &id).unwrap().access_count, 2);
    assert_eq!(e.stats("ana").unwrap().total, 1);
    // Another owner's identical memory is not a duplicate.
    assert!(matches!(
        e.seed(vec![mem("bob", "I like green tea")])
            .unwrap()
            .outcomes[0],
        Outcome::Created { .. }
    ));
}

#[test]
fn an_exact_duplicate_from_the_past_is_used_when_it_was_said() {
    // Seeding the same history twice (or importing an old conversation that repeats a fact):
    // the repeat counts as a use at the time it was said, not as a use today.
    let (mut e, clock) = engine();
    let day = 86_400_000;
    let dated = |at: i64| NewMemory {
        created_at: Some(at),
        ..mem("ana", "Ana drinks green tea every morning")
    };
    let id = seed_one(&mut e, dated(T0 - 500 * day));
    clock.set(T0 + day);
    let r = e.seed(vec![dated(T0 - 400 * day)]).unwrap();
    assert!(matches!(
        r.outcomes[0],
        Outcome::Skipped {
            reason: SkipReason::ExactDuplicate,
            ..
        }
    ));
    let m = peek(&mut e, "ana", &id);
    assert_eq!(
        (m.access_count, m.last_accessed_at),
        (1, Some(T0 - 400 * day))
    );
    // An older repeat moves nothing back; one said now is a use now.
    e.seed(vec![dated(T0 - 450 * day)]).unwrap();
    assert_eq!(
        peek(&mut e, "ana", &id).last_accessed_at,
        Some(T0 - 400 * day)
    );
    e.seed(vec![mem("ana", "Ana drinks green tea every morning")])
        .unwrap();
    assert_eq!(peek(&mut e, "ana", &id).last_accessed_at, Some(T0 + day));
}

#[test]
fn tier_two_semantic_duplicate_at_or_above_095_is_skipped() {
    let (mut e, _) = vector_engine(Config::default());
    let id = seed_one(&mut e, vmem("u", "I live in Lisbon", at_cosine(1.0)));
    let r = e
        .seed(vec![vmem(
            "u",
            "I live in Lisbon, Portugal",
            at_cosine(0.96),
        )])
        .unwrap();
    match &r.outcomes[0] {
        Outcome::Skipped {
            reason: SkipReason::SemanticDuplicate,
            existing,
            similarity,
        } => {
            assert_eq!(existing.as_deref(), Some(id.as_str()));
            assert!((similarity.unwrap() - 0.96).abs() < 1e-6);
        }
        o => panic!("{o:?}"),
    }
    assert_eq!(e.stats("u").unwrap().total, 1);
}

#[test]
fn tier_three_merges_new_information_and_marks_the_absorbed_memory() {
    let (mut e, _) = vector_engine(Config::default());
    let old = seed_one(&mut e, vmem("u", "I live in Lisbon.", at_cosine(1.0)));
    let r = e
        .seed(vec![vmem(
            "u",
            "I live in Lisbon. I have a cat named Miso.",
            at_cosine(0.9),
        )])
        .unwrap();
    let Outcome::Merged {
        id,
        absorbed,
        similarity,
    } = &r.outcomes[0]
    else {
        panic!("{:?}", r.outcomes)
    };
    assert_eq!(absorbed, &old);
    assert!((similarity - 0.9).abs() < 1e-6);
    let merged = e.get("u", id).unwrap();
    assert_eq!(merged.content, "I live in Lisbon. I have a cat named Miso.");
    let page = e
        .list(&ListRequest {
            statuses: vec![Status::Merged],
            ..ListRequest::new(common::id("u"))
        })
        .unwrap();
    assert_eq!(page.memories[0].id, old);
    assert_eq!(page.memories[0].merged_into.as_deref(), Some(id.as_str()));
    let history = e.status_history("u", &old).unwrap();
    assert_eq!(
        (history[0].old, history[0].new),
        (Status::Active, Status::Merged)
    );
    assert!(history[0].reason.contains(id.as_str()));
    // The absorbed memory no longer comes back from search; the merged one does.
    let hits = e
        .search(&SearchRequest {
            vector: Some(at_cosine(1.0)),
            ..SearchRequest::new(common::id("u"), "Lisbon")
        })
        .unwrap();
    assert_eq!(ids(&hits), vec![id.clone()]);
}

#[test]
fn a_merge_keeps_the_time_its_statements_were_made() {
    // History seeded long after it was said: the merged memory is dated by what it says, not by
    // the day it was written (time-aware recall and `list`'s order need those dates).
    let (mut e, clock) = vector_engine(Config::default());
    let day = 86_400_000;
    let (said, again) = (T0 - 500 * day, T0 - 497 * day);
    let old = seed_one(
        &mut e,
        NewMemory {
            created_at: Some(said),
            ..vmem("u", "I live in Lisbon.", at_cosine(1.0))
        },
    );
    clock.set(T0 + day);
    let r = e
        .seed(vec![NewMemory {
            created_at: Some(again),
            ..vmem(
                "u",
                "I live in Lisbon. I have a cat named Miso.",
                at_cosine(0.9),
            )
        }])
        .unwrap();
    let Outcome::Merged { id, .. } = &r.outcomes[0] else {
        panic!("{:?}", r.outcomes)
    };
    // Read by `peek` (a `list`), which unlike `get` is not a use.
    let merged = peek(&mut e, "u", id);
    assert_eq!(merged.created_at, said, "first said");
    assert_eq!(merged.last_accessed_at, Some(again), "last said");
    assert_eq!(merged.updated_at, T0 + day, "written now");
    // Both times stay on record: the absorbed memory keeps its own.
    assert_eq!(e.get("u", &old).unwrap().created_at, said);
    // Said live (no time given), the merge is last touched now. Its vector is at cosine 0.9
    // to the merged one (the mean of the two before), inside the merge band.
    let turn = 0.19f32.sqrt().atan2(1.9) + 0.9f32.acos();
    let r = e
        .seed(vec![vmem(
            "u",
            "I live in Lisbon. I have a cat named Miso. Miso is grey.",
            vec![turn.cos(), turn.sin(), 0.0, 0.0],
        )])
        .unwrap();
    let Outcome::Merged { id, .. } = &r.outcomes[0] else {
        panic!("{:?}", r.outcomes)
    };
    let merged = peek(&mut e, "u", id);
    assert_eq!(
        (merged.created_at, merged.last_accessed_at),
        (said, Some(T0 + day))
    );
}

#[test]
fn tier_three_skips_a_subset() {
    let (mut e, _) = vector_engine(Config::default());
    let old = seed_one(
        &mut e,
        vmem("u", "I live in Lisbon with my cat", at_cosine(1.0)),
    );
    let r = e
        .seed(vec![vmem("u", "live in Lisbon", at_cosine(0.9))])
        .unwrap();
    assert!(
        matches!(&r.outcomes[0], Outcome::Skipped { reason: SkipReason::Subset, existing: Some(x), .. } if *x == old)
    );
}

#[test]
fn below_085_creates_and_thresholds_are_configuration() {
    let (mut e, _) = vector_engine(Config::default());
    seed_one(&mut e, vmem("u", "I live in Lisbon", at_cosine(1.0)));
    assert!(matches!(
        e.seed(vec![vmem("u", "I work in Porto", at_cosine(0.84))])
            .unwrap()
            .outcomes[0],
        Outcome::Created { .. }
    ));

    let strict = Config {
        dedup: DedupConfig {
            skip_threshold: 0.99,
            merge_threshold: 0.97,
            enabled: true,
        },
        ..Default::default()
    };
    let (mut e, _) = vector_engine(strict);
    seed_one(&mut e, vmem("a", "I live in Lisbon", at_cosine(1.0)));
    assert!(matches!(
        e.seed(vec![vmem("a", "I live in Lisbon now", at_cosine(0.96))])
            .unwrap()
            .outcomes[0],
        Outcome::Created { .. }
    ));
    seed_one(&mut e, vmem("b", "I live in Lisbon", at_cosine(1.0)));
    assert!(matches!(
        e.seed(vec![vmem(
            "b",
            "I live in Lisbon with Miso",
            at_cosine(0.98)
        )])
        .unwrap()
        .outcomes[0],
        Outcome::Merged { .. }
    ));
    // In the band, two texts that each say something the other does not are two facts.
    seed_one(
        &mut e,
        vmem("c", "My sister works at Globex", at_cosine(1.0)),
    );
    assert!(matches!(
        e.seed(vec![vmem(
            "c",
            "My brother works at Globex",
            at_cosine(0.98)
        )])
        .unwrap()
        .outcomes[0],
        Outcome::Created { .. }
    ));

    let (mut e, _) = vector_engine(without_dedup());
    seed_one(&mut e, vmem("u", "I live in Lisbon", at_cosine(1.0)));
    assert!(matches!(
        e.seed(vec![vmem("u", "I live in Lisbon!", at_cosine(0.999))])
            .unwrap()
            .outcomes[0],
        Outcome::Created { .. }
    ));
}

#[test]
fn the_same_thing_said_in_another_session_or_by_another_source_corroborates_it() {
    let (mut e, _) = vector_engine(Config::default());
    let said = |content: &str, cosine: f32, session: &str, source: Source| NewMemory {
        session_id: Some(Id::parse("session_id", session).unwrap()),
        source: Some(source),
        confidence: Some(unit(0.5)),
        ..vmem("u", content, at_cosine(cosine))
    };
    let first = seed_one(
        &mut e,
        said("a cat named Miso", 1.0, "s1", Source::Conversation),
    );
    let outcome = |e: &mut Engine, m: NewMemory| e.seed(vec![m]).unwrap().outcomes.remove(0);
    // The same session and source: a repeat, which only counts as using it.
    let again = outcome(
        &mut e,
        said("my cat named Miso", 0.99, "s1", Source::Conversation),
    );
    assert!(
        matches!(
            again,
            Outcome::Skipped {
                reason: SkipReason::SemanticDuplicate,
                ..
            }
        ),
        "{again:?}"
    );
    let m = peek(&mut e, "u", &first);
    assert_eq!((m.confirmations, m.confidence), (0, 0.5));
    // Near-duplicates from another session, then from another source: two confirmations, each
    // taking the confidence a fifth of the way to 1.
    for (session, source) in [("s2", Source::Conversation), ("s1", Source::User)] {
        let r = outcome(&mut e, said("my cat named Miso", 0.99, session, source));
        assert!(
            matches!(&r, Outcome::Skipped { reason: SkipReason::Corroborated, existing: Some(x), .. } if *x == first),
            "{r:?}"
        );
    }
    let m = peek(&mut e, "u", &first);
    assert_eq!(m.confirmations, 2);
    assert!((m.confidence - 0.68).abs() < 1e-12, "{}", m.confidence);
    assert_eq!(e.stats("u").unwrap().total, 1);
}

#[test]
fn dedup_sees_earlier_items_of_the_same_batch() {
    let (mut e, _) = vector_engine(Config::default());
    let r = e
        .seed(vec![
            vmem("u", "a cat named Miso", at_cosine(1.0)),
            vmem("u", "my cat named Miso", at_cosine(0.99)),
            vmem("u", "A cat named  MISO", vec![0.0, 0.0, 0.0, 1.0]),
        ])
        .unwrap();
    let first = r.outcomes[0].id().unwrap().to_string();
    assert!(
        matches!(&r.outcomes[1], Outcome::Skipped { reason: SkipReason::SemanticDuplicate, existing: Some(x), .. } if *x == first)
    );
    assert!(
        matches!(&r.outcomes[2], Outcome::Skipped { reason: SkipReason::ExactDuplicate, existing: Some(x), .. } if *x == first)
    );
    assert_eq!(e.stats("u").unwrap().total, 1);
}

#[test]
fn surprise_raises_novel_and_lowers_redundant_importance() {
    let (mut e, _) = vector_engine(without_dedup());
    let first = seed_one(&mut e, vmem("u", "first", at_cosine(1.0)));
    let m = e.get("u", &first).unwrap();
    // Nothing to compare with: as novel as can be (+~0.3 of the room left above 0.5).
    assert!((m.importance - (0.5 + (m.surprise.unwrap() - 0.5) * 0.6 * 0.5)).abs() < 1e-12);
    assert!(m.importance > 0.64);
    let close = seed_one(&mut e, vmem("u", "second", at_cosine(0.99)));
    assert!(e.get("u", &close).unwrap().importance < 0.4);
    let far = seed_one(&mut e, vmem("u", "third", vec![0.0, 0.0, 1.0, 0.0]));
    assert!(e.get("u", &far).unwrap().importance > 0.6);
    // Novel memories keep the order of the importance they were given, apart.
    let mut given = |i: f64, text: &str, axis: usize| {
        let mut v = vec![0.0; 4];
        v[axis] = 1.0;
        let id = seed_one(
            &mut e,
            NewMemory {
                importance: Some(unit(i)),
                ..vmem("w", text, v)
            },
        );
        e.get("w", &id).unwrap().importance
    };
    let (low, high) = (given(0.6, "low", 0), given(0.9, "high", 1));
    assert!(high < 1.0 && high - low > 0.1, "{low} {high}");
}

#[test]
fn a_bad_item_fails_the_whole_batch_and_writes_nothing() {
    let (mut e, _) = engine();
    seed_one(&mut e, mem("u", "kept"));
    let before = snapshot(&mut e, "u");
    // An importance out of range cannot be built in Rust; faces send it as JSON.
    let err = e
        .call_json(
            "seed",
            r#"{"items":[{"entity_id":"u","content":"fine"},
                {"entity_id":"u","content":"bad","importance":1.5}]}"#,
        )
        .unwrap_err();
    assert_eq!(err.code(), "invalid_input");
    assert!(
        err.to_string().contains("args.items[1].importance"),
        "{err}"
    );
    assert_eq!(snapshot(&mut e, "u"), before);
    // A value only the engine checks fails the batch the same way from Rust.
    let err = e
        .seed(vec![
            mem("u", "fine"),
            NewMemory {
                cron_tag: Some("daily".into()),
                ..mem("u", "bad")
            },
        ])
        .unwrap_err();
    assert_eq!(err.code(), "invalid_input");
    assert!(err.to_string().contains("memories[1].cron_tag"), "{err}");
    assert_eq!(snapshot(&mut e, "u"), before);
    // A batch failing inside the transaction (a vector-less item in a supplied-vector store)
    // also leaves nothing behind.
    let (mut v, _) = vector_engine(Config::default());
    let err = v
        .seed(vec![vmem("u", "one", at_cosine(1.0)), mem("u", "two")])
        .unwrap_err();
    assert_eq!(err.code(), "embedder_error");
    assert_eq!(v.stats("u").unwrap().total, 0);
    assert!(v
        .search(&SearchRequest {
            vector: Some(at_cosine(1.0)),
            ..SearchRequest::new(id("u"), "one")
        })
        .unwrap()
        .is_empty());
}

#[test]
fn remember_stores_each_statement_typed_with_its_context() {
    let (mut e, _) = engine();
    let opts = RememberOptions {
        session_id: Some(id("s1")),
        source_ref: Some(SourceRef::parse("msg-1").unwrap()),
        ..Default::default()
    };
    let r = e
        .remember(
            "u",
            "Thanks! I'm a nurse at St. Mary's Hospital. I need to renew my passport by Friday.",
            opts.clone(),
        )
        .unwrap();
    let ids = r.stored_ids();
    assert_eq!(ids.len(), 2, "{r:?}");
    let nurse = e.get("u", ids[0]).unwrap();
    let plan = e.get("u", ids[1]).unwrap();
    assert_eq!(nurse.content, "I'm a nurse at St. Mary's Hospital.");
    assert_eq!(nurse.memory_type, MemoryType::Identity);
    assert_eq!(plan.memory_type, MemoryType::Plan);
    assert!(
        plan.expires_at.is_some_and(|t| t > plan.created_at),
        "{plan:?}"
    );
    assert!(nurse.expires_at.is_none());
    // The extractor's keywords are the system's tags, never the caller's.
    assert!(nurse.manual_tags.is_empty());
    assert!(
        nurse.auto_tags.contains(&"st. mary's hospital".to_string()),
        "{:?}",
        nurse.auto_tags
    );
    for m in [&nurse, &plan] {
        assert_eq!(
            (
                m.source,
                m.trust,
                m.session_id.as_deref(),
                m.source_ref.as_deref()
            ),
            (Source::Conversation, 0.6, Some("s1"), Some("msg-1"))
        );
    }
    // Chit-chat stores nothing and says so.
    let r = e.remember("u", "haha ok thanks!", opts.clone()).unwrap();
    assert!(matches!(
        r.outcomes[..],
        [Outcome::Skipped {
            reason: SkipReason::NotSignificant,
            ..
        }]
    ));
    assert_eq!(e.stats("u").unwrap().total, 2);
}

#[test]
fn pass_through_keeps_a_message_verbatim() {
    let mut e = Engine::builder(ManualClock::new(1_700_000_000_000))
        .extractor(PassThrough)
        .open_in_memory()
        .unwrap();
    let r = e
        .remember(
            "u",
            "  We talked about the trip to Kyoto. ok",
            Default::default(),
        )
        .unwrap();
    let m = e.get("u", r.stored_ids()[0]).unwrap();
    assert_eq!(m.content, "We talked about the trip to Kyoto. ok");
    assert_eq!(
        (m.memory_type, m.kind),
        (MemoryType::Context, Kind::Narrative)
    );
}

/// An extractor that finds nothing, to check the "not significant" outcome.
struct Nothing;
impl Extractor for Nothing {
    fn extract(&self, _: &str, _: Millis) -> Result<Vec<Extracted>> {
        Ok(vec![])
    }
}

#[test]
fn remember_reports_when_nothing_was_significant() {
    let mut e = Engine::builder(ManualClock::new(T0))
        .extractor(Nothing)
        .open_in_memory()
        .unwrap();
    let r = e.remember("u", "ok", RememberOptions::default()).unwrap();
    assert_eq!(
        r.outcomes,
        vec![Outcome::Skipped {
            reason: SkipReason::NotSignificant,
            existing: None,
            similarity: None
        }]
    );
    assert_eq!(e.stats("u").unwrap().total, 0);
}

#[test]
fn merge_with_the_builtin_embedder_re_embeds_the_merged_text() {
    // Similar enough to merge under a lowered band, with new information.
    let cfg = Config {
        dedup: DedupConfig {
            merge_threshold: 0.5,
            skip_threshold: 0.99,
            enabled: true,
        },
        ..Default::default()
    };
    let mut e = Engine::builder(ManualClock::new(T0))
        .config(cfg)
        .open_in_memory()
        .unwrap();
    let old = seed_one(
        &mut e,
        NewMemory {
            tags: tags(&["home"]),
            ..mem("u", "Ana lives in Lisbon near the river")
        },
    );
    let r = e
        .seed(vec![NewMemory {
            tags: tags(&["pets"]),
            ..mem(
                "u",
                "Ana lives in Lisbon near the river with a cat named Miso",
            )
        }])
        .unwrap();
    let Outcome::Merged { id, absorbed, .. } = &r.outcomes[0] else {
        panic!("{:?}", r.outcomes)
    };
    assert_eq!(absorbed, &old);
    let m = e.get("u", id).unwrap();
    // The new text says all the old one did, and more: it alone keeps both facts.
    assert_eq!(
        m.content,
        "Ana lives in Lisbon near the river with a cat named Miso"
    );
    assert_eq!(m.manual_tags, vec!["home", "pets"]);
    // The merged memory is found by words only the new text had: its vector and FTS row are new.
    let hits = search(&mut e, "u", "cat Miso");
    assert_eq!(ids(&hits), vec![id.clone()]);
    assert!(hits[0].why.text > 0.0 && hits[0].why.vector > 0.2);
}

/// An LLM behind a function that answers from a list, in turn.
fn llm(answers: Vec<Option<std::result::Result<String, String>>>) -> Engine {
    let answers = std::sync::Mutex::new(answers.into_iter());
    Engine::builder(ManualClock::new(T0))
        .extractor(LlmExtractor(
            move |instructions: &str, _text: &str, _now: Millis| {
                assert!(
                    instructions.contains("\"memories\""),
                    "the schema travels with each question"
                );
                answers.lock().unwrap().next().flatten()
            },
        ))
        .open_in_memory()
        .unwrap()
}

#[test]
fn an_llm_extractor_is_checked_and_replaced_by_the_built_in_one_when_wrong() {
    let good = r#"{"memories": [{"content": "User is a paramedic in Cork", "type": "IDENTITY", "importance": 0.9}]}"#;
    let mut e = llm(vec![
        Some(Ok(good.into())),
        Some(Ok("Sure! The user is a paramedic.".into())),
        Some(Ok(
            r#"{"memories": [{"content": "x", "importance": 3}]}"#.into()
        )),
        Some(Err("HTTP 500 from the chat endpoint".into())),
        None,
    ]);
    let say =
        |e: &mut Engine, text: &str| e.remember("u", text, RememberOptions::default()).unwrap();

    let r = say(&mut e, "I'm a paramedic in Cork, been doing it for years");
    assert_eq!(r.fallback, None);
    let m = e.get("u", r.stored_ids()[0]).unwrap();
    assert_eq!(
        (m.content.as_str(), m.memory_type),
        ("User is a paramedic in Cork", MemoryType::Identity)
    );

    for (text, why) in [
        ("I prefer tea in the morning.", "not the extraction JSON"),
        ("My sister Ana lives in Porto.", "importance 3"),
        ("I need to renew my passport by Friday.", "HTTP 500"),
    ] {
        let r = say(&mut e, text);
        let note = r.fallback.clone().expect("a fallback note");
        assert!(
            note.contains(why) && note.contains("built-in extractor"),
            "{note}"
        );
        let m = e.get("u", r.stored_ids()[0]).unwrap();
        assert_eq!(m.content, text, "the built-in extractor kept the statement");
    }
    // No LLM at all: the built-in extractor, no note.
    assert_eq!(say(&mut e, "I love sushi.").fallback, None);
}

#[test]
fn an_llm_answer_can_come_with_the_call() {
    let (mut e, _) = engine();
    let args = |answer: &str| {
        serde_json::json!({"entity_id": "u", "content": "We moved to Lisbon in March", "llm_output": answer}).to_string()
    };
    let ok = e
        .call_json(
            "remember",
            &args(r#"[{"content": "The user moved to Lisbon in March", "type": "EVENT"}]"#),
        )
        .unwrap();
    assert!(ok.contains("created") && !ok.contains("fallback"), "{ok}");
    let fell = e.call_json("remember", &args("{not json")).unwrap();
    assert!(fell.contains("\"fallback\""), "{fell}");
    let both = e
        .call_json(
            "remember",
            r#"{"entity_id": "u", "content": "x y z", "llm_output": "[]", "extracted": []}"#,
        )
        .unwrap_err();
    assert_eq!(both.code(), "invalid_input");
    assert!(e
        .call_json("llm_instructions", "")
        .unwrap()
        .contains("RFC 3339"));
}

#[test]
fn a_captured_chat_exchange_stores_what_the_user_said_without_labels() {
    let (mut e, _) = engine();
    // The exchange as agent plugins capture it: the user's prompt, then the assistant's reply.
    let capture = "User: Hi! I'm Ana, I work as a marine biologist in Porto.\n\nAssistant: Nice to meet you, Ana! How can I help today?";
    let report = e
        .remember("ana", capture, RememberOptions::default())
        .unwrap();
    let stored = all_states(&mut e, "ana");
    assert!(!report.stored_ids().is_empty(), "{report:?}");
    let contents: Vec<&str> = stored.iter().map(|m| m.content.as_str()).collect();
    assert!(
        contents.iter().any(|c| c.contains("marine biologist")),
        "{contents:?}"
    );
    for c in &contents {
        assert!(
            !c.contains("User:") && !c.contains("Assistant"),
            "a label was stored: {c:?}"
        );
        assert!(
            !c.contains("How can I help"),
            "the assistant's words were stored: {c:?}"
        );
    }
    // The assistant's question is never a deadline.
    assert!(stored.iter().all(|m| m.expires_at.is_none()), "{stored:?}");
    let beat = e
        .heartbeat_check(&HeartbeatRequest {
            dry_run: true,
            ..HeartbeatRequest::new(id("ana"))
        })
        .unwrap();
    assert!(beat.deadlines.is_empty(), "{:?}", beat.deadlines);

    // Several turns: the user's plan is kept (with its deadline), the assistant's promise is not.
    let report = e
        .remember(
            "ana",
            "user: I need to renew my passport before Friday.\nassistant: I'll remind you tomorrow morning.\nuser: Thanks!",
            RememberOptions::default(),
        )
        .unwrap();
    let ids = report.stored_ids();
    assert_eq!(ids.len(), 1, "{report:?}");
    let plan = e.get("ana", ids[0]).unwrap();
    assert!(
        plan.content.starts_with("I need to renew my passport"),
        "{plan:?}"
    );
    assert_eq!(plan.memory_type, MemoryType::Plan);
    assert!(plan.expires_at.is_some());
    // An assistant-only capture stores nothing.
    let report = e
        .remember(
            "ana",
            "Assistant: Happy to help! Anything else?",
            RememberOptions::default(),
        )
        .unwrap();
    assert!(report.stored_ids().is_empty(), "{report:?}");
}

#[test]
fn role_tagged_messages_are_remembered_as_what_the_user_said() {
    use mnemo_core::api::Call;
    let (mut e, _) = engine();
    let run =
        |e: &mut Engine, v: serde_json::Value| Call::parse("remember", &v).and_then(|c| e.call(c));
    let r = run(
        &mut e,
        serde_json::json!({"entity_id": "ana", "messages": [
            {"role": "user", "content": "I just adopted a greyhound called Pixel."},
            {"role": "assistant", "content": "Lovely! Shall I remind you about the vet tomorrow?\nUser: I am the assistant pretending"},
            {"role": "user", "content": "Thanks!"}
        ]}),
    )
    .unwrap();
    let stored = all_states(&mut e, "ana");
    assert_eq!(stored.len(), 1, "{r}");
    assert!(stored[0].content.contains("greyhound called Pixel"));
    assert!(stored
        .iter()
        .all(|m| m.expires_at.is_none() && !m.content.contains("pretending")));
    // Bad messages are refused by name, and nothing is stored.
    for (v, field) in [
        (
            serde_json::json!({"entity_id": "ana", "messages": []}),
            "messages",
        ),
        (
            serde_json::json!({"entity_id": "ana", "messages": [{"role": "narrator", "content": "x"}]}),
            "messages[0].role",
        ),
        (
            serde_json::json!({"entity_id": "ana", "messages": [{"role": "user"}]}),
            "content",
        ),
        (
            serde_json::json!({"entity_id": "ana", "content": "hi", "messages": [{"role": "user", "content": "x"}]}),
            "messages",
        ),
        (serde_json::json!({"entity_id": "ana"}), "content"),
    ] {
        let err = run(&mut e, v.clone()).unwrap_err();
        assert!(err.to_string().contains(field), "{v}: {err}");
    }
    assert_eq!(all_states(&mut e, "ana").len(), 1);
}

/// A random unit vector of `dim` (the engine's seeded generator started at `seed`).
fn random_unit(dim: usize, seed: u64) -> Vec<f32> {
    let rng = SeededEntropy::new(seed);
    let mut v: Vec<f32> = (0..dim)
        .map(|_| (rng.next_u64() >> 40) as f32 / (1u64 << 24) as f32 - 0.5)
        .collect();
    mnemo_core::embed::normalise(&mut v);
    v
}

/// A unit vector at cosine `c` to the unit vector `v` (towards a random direction).
fn near(v: &[f32], c: f32, seed: u64) -> Vec<f32> {
    let r = random_unit(v.len(), seed);
    let along: f32 = r.iter().zip(v).map(|(a, b)| a * b).sum();
    let mut u: Vec<f32> = r.iter().zip(v).map(|(a, b)| a - along * b).collect();
    let norm = u.iter().map(|a| a * a).sum::<f32>().sqrt();
    u.iter_mut().for_each(|a| *a /= norm);
    v.iter()
        .zip(&u)
        .map(|(a, b)| c * a + (1.0 - c * c).sqrt() * b)
        .collect()
}

/// In an owner large enough for its neighbours to be looked up ahead of each run of writes
/// (32,768 vectors), a batch still finds near-duplicates among its own earlier inputs and
/// among what was stored before, and a merge in the run leaves the rest of it correct.
#[test]
fn a_large_owners_batch_dedups_against_itself_and_the_store() {
    const DIM: usize = 64;
    const STORED: usize = 33_000;
    let clock = ManualClock::new(T0);
    let mut e = Engine::builder(clock)
        .embedder(SuppliedVectors::new("test-64d", DIM))
        .open_in_memory()
        .unwrap();
    // The stored memories come in by import, which looks up no neighbours (seeding them one
    // by one would take a minute in a debug build): one exported record, copied.
    e.seed(vec![vmem("u", "note number 0", random_unit(DIM, 0))])
        .unwrap();
    let record: ExportRecord = serde_json::from_str(e.export_jsonl("u").unwrap().trim()).unwrap();
    let lines: Vec<String> = (1..STORED)
        .map(|i| {
            let mut r = record.clone();
            r.memory.id = format!("mem_{i:016x}");
            r.memory.content = format!("note number {i}");
            r.memory.content_hash = text::content_hash(&r.memory.content);
            r.embedding = Some(random_unit(DIM, i as u64));
            serde_json::to_string(&r).unwrap()
        })
        .collect();
    let report = e.import_jsonl(lines.join("\n").as_bytes()).unwrap();
    assert_eq!(e.stats("u").unwrap().total, STORED, "{report:?}");
    let stored = random_unit(DIM, 7);
    let fresh = random_unit(DIM, 1 << 40);
    let r = e
        .seed(vec![
            vmem("u", "Our offsite is in Porto in May.", fresh.clone()),
            vmem(
                "u",
                "Our offsite is in Porto in May, at the riverside hotel.",
                near(&fresh, 0.9, 1),
            ),
            vmem(
                "u",
                "note number 7, and the number after it is 8",
                near(&stored, 0.9, 2),
            ),
            vmem("u", "Lunch with Ines on Friday.", random_unit(DIM, 1 << 41)),
            vmem(
                "u",
                "Lunch with Ines on Friday at noon.",
                near(&random_unit(DIM, 1 << 41), 0.9, 3),
            ),
            // Both near stored note 9: the first absorbs it, the second what the first made.
            vmem(
                "u",
                "note number 9, said again",
                near(&random_unit(DIM, 9), 0.9, 4),
            ),
            vmem(
                "u",
                "note number 9, said again, and once more",
                near(&random_unit(DIM, 9), 0.9, 4),
            ),
        ])
        .unwrap();
    let o = &r.outcomes;
    let Outcome::Created { id: offsite } = &o[0] else {
        panic!("{o:?}")
    };
    assert!(
        matches!(&o[1], Outcome::Merged { absorbed, .. } if absorbed == offsite),
        "the batch's own near-duplicate: {o:?}"
    );
    let old = e
        .list(&ListRequest {
            statuses: vec![Status::Merged],
            ..ListRequest::new(id("u"))
        })
        .unwrap();
    assert!(
        matches!(&o[2], Outcome::Merged { absorbed, .. }
            if old.memories.iter().any(|m| &m.id == absorbed && m.content == "note number 7")),
        "a stored near-duplicate: {o:?}"
    );
    let Outcome::Created { id: lunch } = &o[3] else {
        panic!("{o:?}")
    };
    assert!(
        matches!(&o[4], Outcome::Merged { absorbed, .. } if absorbed == lunch),
        "after a merge in the same run: {o:?}"
    );
    let Outcome::Merged { id: nine, .. } = &o[5] else {
        panic!("{o:?}")
    };
    assert!(
        matches!(&o[6], Outcome::Merged { absorbed: x, .. }
            | Outcome::Skipped { existing: Some(x), .. } if x == nine),
        "near a memory merged away in the same run: {o:?}"
    );
    assert_eq!(e.stats("u").unwrap().by_status["active"], STORED + 2);
}

/// The rows of the text index that match `word`, as memory ids (one per row: a memory
/// indexed twice would come back twice).
fn indexed_as(conn: &rusqlite::Connection, word: &str) -> Vec<String> {
    let mut stmt = conn
        .prepare(
            "SELECT m.id FROM memories_fts f JOIN memories m ON m.pk = f.rowid \
             WHERE memories_fts MATCH ?1 ORDER BY f.rowid",
        )
        .unwrap();
    let rows = stmt.query_map([word], |r| r.get(0)).unwrap();
    rows.collect::<rusqlite::Result<_>>().unwrap()
}

/// A batch's new memories are written to the text index together at its end; a memory of the
/// batch that changes before then (merged into, said again) is indexed first, so each memory
/// that a search can find is in the index once, with the text it has at the end.
#[test]
fn a_batch_indexes_its_memories_once_each_with_their_final_text() {
    let dir = TempDir::new("batch-text-index");
    let path = dir.file("m.db");
    let open = || {
        Engine::builder(ManualClock::new(T0))
            .embedder(SuppliedVectors::new("test-4d", 4))
            .open(&path)
            .unwrap()
    };
    let mut e = open();
    let r = e
        .seed(vec![
            vmem(
                "u",
                "The violinist rehearses Brahms on Thursdays.",
                at_cosine(1.0),
            ),
            vmem(
                "u",
                "The violinist rehearses Brahms on Thursdays. She tours Japan in autumn.",
                at_cosine(0.9),
            ),
            vmem(
                "u",
                "Kofi grows chillies on his balcony.",
                vec![0.0, 0.0, 1.0, 0.0],
            ),
            vmem(
                "u",
                "Kofi grows chillies on his balcony.",
                vec![0.0, 0.0, 1.0, 0.0],
            ),
            vmem(
                "u",
                "Zanele collects vintage typewriters.",
                vec![0.0, 0.0, 0.0, 1.0],
            ),
        ])
        .unwrap();
    let o = &r.outcomes;
    let Outcome::Merged {
        id: merged,
        absorbed,
        ..
    } = &o[1]
    else {
        panic!("{o:?}")
    };
    assert_eq!(Some(absorbed.as_str()), o[0].id());
    assert!(matches!(
        &o[3],
        Outcome::Skipped {
            reason: SkipReason::ExactDuplicate,
            ..
        }
    ));
    let (kofi, zanele) = (o[2].id().unwrap(), o[4].id().unwrap());
    drop(e);
    let conn = rusqlite::Connection::open(&path).unwrap();
    assert_eq!(indexed_as(&conn, "violinist"), vec![merged.clone()]);
    assert_eq!(indexed_as(&conn, "japan"), vec![merged.clone()]);
    assert_eq!(indexed_as(&conn, "chillies"), vec![kofi.to_string()]);
    assert_eq!(indexed_as(&conn, "typewriters"), vec![zanele.to_string()]);
    conn.execute(
        "INSERT INTO memories_fts (memories_fts) VALUES ('integrity-check')",
        [],
    )
    .unwrap();
}

/// A store file holding one memory ("Ines bakes sourdough on Sundays."), put back to schema
/// `version` by `undo` (SQL undoing the later migrations): its directory, its path and the
/// memory's id.
fn store_from_schema(version: i64, undo: &str) -> (TempDir, std::path::PathBuf, String) {
    let dir = TempDir::new(&format!("schema-{version}"));
    let path = dir.file("m.db");
    let mut e = Engine::builder(ManualClock::new(T0)).open(&path).unwrap();
    let first = seed_one(&mut e, mem("u", "Ines bakes sourdough on Sundays."));
    drop(e);
    rusqlite::Connection::open(&path)
        .unwrap()
        .execute_batch(&format!(
            "{undo}
             {UNDO_ADDED_COLUMNS}
             DELETE FROM migrations WHERE version > {version};
             PRAGMA user_version = {version};"
        ))
        .unwrap();
    (dir, path, first)
}

/// A store from before the engine wrote text-index rows itself (schema 6: a trigger did)
/// loses the trigger on opening, and a memory written then is indexed once.
#[test]
fn a_store_whose_trigger_indexed_text_indexes_each_memory_once_after_the_upgrade() {
    // Back to schema 6, as Mnemo left it: the trigger wrote a new memory's index row.
    let (_dir, path, first) = store_from_schema(
        6,
        "CREATE TRIGGER memories_fts_insert AFTER INSERT ON memories
         WHEN new.status = 'active' AND new.state != 'DELETED' BEGIN
             INSERT INTO memories_fts (rowid, content, tags, owner, flags) VALUES (
                 new.pk, new.content, '', 'o' || hex(new.entity_id), '');
         END;",
    );
    let mut e = Engine::builder(ManualClock::new(T0)).open(&path).unwrap();
    let second = seed_one(&mut e, mem("u", "Ines repairs antique clocks."));
    drop(e);
    let conn = rusqlite::Connection::open(&path).unwrap();
    assert_eq!(indexed_as(&conn, "ines"), vec![first, second.clone()]);
    assert_eq!(indexed_as(&conn, "clocks"), vec![second]);
}

#[test]
fn a_store_with_a_hash_index_finds_its_exact_duplicates_without_it_after_the_upgrade() {
    // Back to schema 7, with its index over the owner and hash.
    let (_dir, path, first) = store_from_schema(
        7,
        "CREATE INDEX memories_owner_hash ON memories(entity_id, content_hash);",
    );
    let mut e = Engine::builder(ManualClock::new(T0)).open(&path).unwrap();
    let again = e
        .seed(vec![mem("u", "  ines BAKES sourdough   on sundays. ")])
        .unwrap();
    assert_eq!(
        again.outcomes,
        vec![Outcome::Skipped {
            reason: SkipReason::ExactDuplicate,
            existing: Some(first),
            similarity: Some(1.0)
        }]
    );
    drop(e);
    let conn = rusqlite::Connection::open(&path).unwrap();
    let indexes: i64 = conn
        .query_row(
            "SELECT count(*) FROM sqlite_schema WHERE name = 'memories_owner_hash'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(indexes, 0, "the hash index is gone");
}
