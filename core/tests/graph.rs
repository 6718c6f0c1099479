//! The knowledge graph built by `remember`: entities merged by alias, relationships with
//! evidence, inferred reverses and strength, traversal, shortest paths, entity-filtered
//! search, owner isolation, and refusals that write nothing.
mod common;

use common::*;
use mnemo_core::*;

fn say(e: &mut Engine, owner: &str, text: &str) -> WriteReport {
    e.remember(owner, text, RememberOptions::default()).unwrap()
}

fn rel(e: &mut Engine, owner: &str, entity: &str) -> Vec<String> {
    e.relationships(&RelationshipsRequest {
        entity: Some(entity.into()),
        ..RelationshipsRequest::new(id(owner))
    })
    .unwrap()
    .into_iter()
    .map(|r| {
        format!(
            "{} {} {}{}",
            r.from,
            r.relation,
            r.to,
            if r.inferred { " (inferred)" } else { "" }
        )
    })
    .collect()
}

#[test]
fn remember_builds_a_graph_with_aliases_evidence_and_reverses() {
    let (mut e, clock) = engine();
    say(&mut e, "kai", "My sister Ana lives in Porto.");
    say(&mut e, "kai", "Ana Souza works at Farfetch.");
    say(&mut e, "kai", "My sister Ana lives in Porto.");
    say(
        &mut e,
        "kai",
        "Ana moved to Porto in 2019, she loves it there.",
    );

    let ents = e.entities(&EntitiesRequest::new(id("kai"))).unwrap();
    let ana = ents
        .iter()
        .find(|x| x.name == "Ana Souza")
        .expect("Ana merged into her full name");
    assert_eq!(
        (ana.entity_type, ana.aliases.clone()),
        (EntityType::Person, vec!["Ana".to_string()])
    );
    assert_eq!(
        ana.mentions, 3,
        "three memories name her (the repeat is one memory)"
    );
    assert!(ents
        .iter()
        .any(|x| x.name == "Porto" && x.entity_type == EntityType::Location));
    assert!(ents
        .iter()
        .any(|x| x.name == "Farfetch" && x.entity_type == EntityType::Organization));
    let people = e
        .entities(&EntitiesRequest {
            types: vec![EntityType::Location],
            ..EntitiesRequest::new(id("kai"))
        })
        .unwrap();
    assert!(people.iter().all(|x| x.entity_type == EntityType::Location));

    let rels = rel(&mut e, "kai", "ana");
    for expected in [
        "user sibling_of Ana Souza",
        "Ana Souza sibling_of user (inferred)",
        "Ana Souza lives_in Porto",
        "Porto home_of Ana Souza (inferred)",
        "Ana Souza works_at Farfetch",
        "Farfetch employs Ana Souza (inferred)",
    ] {
        assert!(
            rels.contains(&expected.to_string()),
            "{expected} missing from {rels:?}"
        );
    }
    let all = e
        .relationships(&RelationshipsRequest {
            relations: vec![Relation::LivesIn],
            ..RelationshipsRequest::new(id("kai"))
        })
        .unwrap();
    assert_eq!(all.len(), 1);
    // Two memories state it (the verbatim repeat adds none): 0.4·(1 − ⅓) + 0.3·1 + 0.3·0.9.
    assert_eq!(all[0].evidence, 2);
    assert!(
        (all[0].strength - (0.4 * (2.0 / 3.0) + 0.3 + 0.3 * 0.9)).abs() < 1e-9,
        "{:?}",
        all[0]
    );
    let works = e
        .relationships(&RelationshipsRequest {
            relations: vec![Relation::WorksAt],
            ..RelationshipsRequest::new(id("kai"))
        })
        .unwrap();
    assert!(
        all[0].strength > works[0].strength,
        "more evidence, stronger"
    );
    // Time weakens them; a strength floor filters.
    clock.advance(90 * DAY_MS);
    let later = e
        .relationships(&RelationshipsRequest {
            relations: vec![Relation::LivesIn],
            ..RelationshipsRequest::new(id("kai"))
        })
        .unwrap();
    assert!(later[0].strength < all[0].strength - 0.2);
    let strong = e
        .relationships(&RelationshipsRequest {
            min_strength: Some(0.9),
            ..RelationshipsRequest::new(id("kai"))
        })
        .unwrap();
    assert!(strong.is_empty());
    let stated = e
        .relationships(&RelationshipsRequest {
            stated_only: true,
            ..RelationshipsRequest::new(id("kai"))
        })
        .unwrap();
    assert!(stated.iter().all(|r| !r.inferred) && !stated.is_empty());
}

#[test]
fn traversal_and_shortest_paths_stay_within_reach() {
    let (mut e, _) = engine();
    say(&mut e, "kai", "My sister Ana lives in Porto.");
    say(&mut e, "kai", "Ana works at Farfetch.");
    say(&mut e, "kai", "Farfetch is based in London.");
    say(&mut e, "kai", "I use Figma.");

    let t = |e: &mut Engine, depth| {
        e.traverse(&TraverseRequest {
            depth: Some(depth),
            ..TraverseRequest::new(id("kai"), "user")
        })
        .unwrap()
    };
    let one = t(&mut e, 1);
    let names: Vec<(&str, usize)> = one
        .nodes
        .iter()
        .map(|n| (n.name.as_str(), n.depth))
        .collect();
    assert_eq!(names, [("user", 0), ("Ana", 1), ("Figma", 1)]);
    let three = t(&mut e, 3);
    assert!(
        three
            .nodes
            .iter()
            .any(|n| n.name == "London" && n.depth == 3),
        "{:?}",
        three.nodes
    );
    assert_eq!(
        three.edges.len(),
        three.nodes.len() - 1,
        "a tree: one edge per node reached"
    );
    let only = e
        .traverse(&TraverseRequest {
            depth: Some(5),
            relations: vec![Relation::Uses],
            ..TraverseRequest::new(id("kai"), "user")
        })
        .unwrap();
    assert_eq!(only.nodes.len(), 2);

    let p = e
        .path(&PathRequest {
            entity_id: id("kai"),
            agent_id: None,
            from: "user".into(),
            to: "London".into(),
            max_depth: None,
        })
        .unwrap();
    let hops: Vec<String> = p
        .hops
        .iter()
        .map(|r| format!("{} {} {}", r.from, r.relation, r.to))
        .collect();
    assert!(p.found);
    assert_eq!(
        hops,
        [
            "user sibling_of Ana",
            "Ana works_at Farfetch",
            "Farfetch located_in London"
        ]
    );
    let short = e
        .path(&PathRequest {
            entity_id: id("kai"),
            agent_id: None,
            from: "user".into(),
            to: "London".into(),
            max_depth: Some(2),
        })
        .unwrap();
    assert!(!short.found && short.hops.is_empty());

    for (depth, code) in [(Some(0), "invalid_input"), (Some(6), "invalid_input")] {
        let err = e
            .traverse(&TraverseRequest {
                depth,
                ..TraverseRequest::new(id("kai"), "user")
            })
            .unwrap_err();
        assert_eq!(err.code(), code);
    }
    let err = e
        .path(&PathRequest {
            entity_id: id("kai"),
            agent_id: None,
            from: "user".into(),
            to: "Atlantis".into(),
            max_depth: None,
        })
        .unwrap_err();
    assert_eq!(err.code(), "not_found");
    assert!(err.to_string().contains("Atlantis"), "{err}");
}

#[test]
fn owners_have_separate_graphs_and_search_filters_by_entity() {
    let (mut e, _) = engine();
    say(&mut e, "kai", "My sister Ana lives in Porto.");
    say(&mut e, "kai", "Ana is a marine biologist.");
    say(&mut e, "kai", "I'm learning Korean on Duolingo.");
    say(&mut e, "bo", "My friend Ana lives in Lisbon.");

    assert_eq!(
        rel(&mut e, "kai", "Ana")
            .iter()
            .filter(|r| r.contains("Lisbon"))
            .count(),
        0
    );
    assert!(rel(&mut e, "bo", "Ana").contains(&"user friend_of Ana".to_string()));
    let err = e
        .relationships(&RelationshipsRequest {
            entity: Some("Porto".into()),
            ..RelationshipsRequest::new(id("bo"))
        })
        .unwrap_err();
    assert_eq!(err.code(), "not_found", "bo's graph has no Porto");

    // Every memory naming Ana, even one sharing no word with the query; nothing else.
    let hits = e
        .search(&SearchRequest {
            entities: vec!["ana".into()],
            ..SearchRequest::new(id("kai"), "what does she do for work")
        })
        .unwrap();
    let contents: Vec<&str> = hits.iter().map(|h| h.memory.content.as_str()).collect();
    assert_eq!(contents.len(), 2, "{contents:?}");
    assert!(contents.iter().all(|c| c.contains("Ana")));
    let none = e
        .search(&SearchRequest {
            entities: vec!["Nobody".into()],
            ..SearchRequest::new(id("kai"), "Korean")
        })
        .unwrap();
    assert!(none.is_empty());
}

#[test]
fn a_host_extractors_bad_graph_is_refused_whole() {
    let (mut e, _) = engine();
    let good = Extracted {
        content: "I work at Acme".into(),
        relationships: vec![RelationMention {
            from: "user".into(),
            relation: Relation::WorksAt,
            to: "Acme".into(),
            confidence: 0.8,
        }],
        ..Default::default()
    };
    for (bad, field) in [
        (
            RelationMention {
                from: "user".into(),
                relation: Relation::Knows,
                to: "  ".into(),
                confidence: 0.5,
            },
            "relationships.to",
        ),
        (
            RelationMention {
                from: "user".into(),
                relation: Relation::Knows,
                to: "Bo".into(),
                confidence: f64::NAN,
            },
            "relationships.confidence",
        ),
        (
            RelationMention {
                from: "x".repeat(300),
                relation: Relation::Knows,
                to: "Bo".into(),
                confidence: 0.5,
            },
            "relationships.from",
        ),
    ] {
        let mut second = good.clone();
        second.content = "and more".into();
        second.relationships = vec![bad];
        let err = e
            .remember_extracted(
                "kai",
                vec![good.clone(), second],
                RememberOptions::default(),
            )
            .unwrap_err();
        assert!(err.to_string().contains(field), "{err}");
        assert_eq!(e.stats("kai").unwrap().total, 0);
        assert!(e
            .entities(&EntitiesRequest::new(id("kai")))
            .unwrap()
            .is_empty());
    }
    e.remember_extracted("kai", vec![good], RememberOptions::default())
        .unwrap();
    assert_eq!(
        rel(&mut e, "kai", "Acme"),
        ["user works_at Acme", "Acme employs user (inferred)"]
    );
}

#[test]
fn export_and_import_carry_the_graph() {
    let (mut e, _) = engine();
    say(&mut e, "kai", "My sister Ana lives in Porto.");
    say(&mut e, "kai", "Ana Souza works at Farfetch.");
    say(&mut e, "kai", "I use Figma.");
    let jsonl = e.export_jsonl("kai").unwrap();
    assert!(jsonl.contains("\"relationships\""), "{jsonl}");

    let (mut fresh, _) = engine();
    fresh.import_jsonl(jsonl.as_bytes()).unwrap();
    let all = |e: &mut Engine| {
        let mut v: Vec<String> = e
            .relationships(&RelationshipsRequest::new(id("kai")))
            .unwrap()
            .into_iter()
            .map(|r| {
                format!(
                    "{} {} {} {} {}",
                    r.from, r.relation, r.to, r.evidence, r.inferred
                )
            })
            .collect();
        v.sort();
        v
    };
    assert_eq!(all(&mut fresh), all(&mut e));
    let names = |e: &mut Engine| {
        let mut v: Vec<(String, Vec<String>)> = e
            .entities(&EntitiesRequest::new(id("kai")))
            .unwrap()
            .into_iter()
            .map(|x| (x.name, x.aliases))
            .collect();
        v.sort();
        v
    };
    assert_eq!(names(&mut fresh), names(&mut e));
    // Exporting the import gives the same lines again.
    assert_eq!(fresh.export_jsonl("kai").unwrap(), jsonl);
}

#[test]
fn a_peer_card_sums_up_an_entity_from_its_live_memories() {
    let (mut e, clock) = engine();
    say(&mut e, "kai", "My sister Ana lives in Porto.");
    clock.set(T0 + DAY_MS);
    say(&mut e, "kai", "Ana Souza works at Farfetch.");
    clock.set(T0 + 2 * DAY_MS);
    say(&mut e, "kai", "Ana is a nurse and she loves surfing.");
    let card = |e: &mut Engine, name: &str| {
        e.card(&CardRequest {
            entity_id: id("kai"),
            agent_id: None,
            name: name.into(),
        })
    };
    let c = card(&mut e, "ana").unwrap();
    assert_eq!(
        (
            c.name.as_str(),
            c.entity_type,
            c.aliases.clone(),
            c.memories
        ),
        ("Ana Souza", EntityType::Person, vec!["Ana".to_string()], 3)
    );
    assert_eq!((c.first_seen, c.last_seen), (T0, T0 + 2 * DAY_MS));
    assert_eq!(c.facts.len(), 3);
    assert!(c
        .facts
        .windows(2)
        .all(|w| w[0].importance >= w[1].importance));
    // Each relationship once, as seen from her: her sibling tie, not also its reverse.
    let rels: Vec<String> = c
        .relationships
        .iter()
        .map(|r| format!("{} {} {}", r.from, r.relation, r.to))
        .collect();
    assert!(
        rels.contains(&"Ana Souza lives_in Porto".to_string()),
        "{rels:?}"
    );
    assert!(
        rels.contains(&"Ana Souza works_at Farfetch".to_string()),
        "{rels:?}"
    );
    assert_eq!(
        rels.iter().filter(|r| r.contains("sibling_of")).count(),
        1,
        "{rels:?}"
    );
    assert!(
        c.summary.starts_with("Ana Souza (person; also Ana): ")
            && c.summary.contains("lives in Porto")
            && c.summary.contains("works at Farfetch"),
        "{}",
        c.summary
    );
    assert!(c.summary.contains(&c.facts[0].content), "{}", c.summary);
    // Current when read: a forgotten fact leaves it, and with too few left there is none.
    e.forget("kai", &c.facts[0].id).unwrap();
    let after = card(&mut e, "Ana Souza").unwrap_err();
    assert_eq!(after.code(), "not_found");
    assert!(
        after
            .to_string()
            .contains("a card needs 3 live memories that name it, and it has 2"),
        "{after}"
    );
    // Bad names are refused by name; unknown ones are not found; another owner has no Ana.
    assert_eq!(card(&mut e, "").unwrap_err().code(), "invalid_input");
    assert_eq!(card(&mut e, "Zeus").unwrap_err().code(), "not_found");
    let other = e.card(&CardRequest {
        entity_id: id("lee"),
        agent_id: None,
        name: "Ana".into(),
    });
    assert_eq!(other.unwrap_err().code(), "not_found");
}

/// An engine whose host LLM answers bridge questions with `answer` (given the question's
/// text), and extracts with the built-in rules.
fn bridging_engine(
    answer: impl Fn(&str) -> Option<Result<String, String>> + 'static,
) -> (Engine, ManualClock) {
    let clock = ManualClock::new(T0);
    let e = Engine::builder(clock.clone())
        .extractor(LlmExtractor(move |instructions: &str, text: &str, _now| {
            if instructions == mnemo_core::extract::llm::BRIDGE_INSTRUCTIONS {
                answer(text)
            } else {
                None
            }
        }))
        .open_in_memory()
        .unwrap();
    (e, clock)
}

fn said_in(e: &mut Engine, session: &str, text: &str) {
    let opts = RememberOptions {
        session_id: Some(id(session)),
        ..RememberOptions::default()
    };
    e.remember("kai", text, opts).unwrap();
}

fn bridges(e: &mut Engine) -> Vec<Bridge> {
    e.bridges(&BridgesRequest {
        entity_id: id("kai"),
        agent_id: None,
        status: None,
        limit: None,
    })
    .unwrap()
}

#[test]
fn consolidation_proposes_bridges_between_entities_named_together_in_different_contexts() {
    let (mut e, _) = bridging_engine(|_| None);
    // Tiago and Marta, together in two conversations; Bruno and Carla in one only.
    said_in(&mut e, "s1", "Tiago and Marta went hiking in the Gerês.");
    said_in(
        &mut e,
        "s2",
        "Yesterday Marta lent Tiago her climbing rope.",
    );
    said_in(&mut e, "s2", "Bruno and Carla play padel.");
    said_in(&mut e, "s2", "Carla beat Bruno at padel again.");
    assert!(
        bridges(&mut e).is_empty(),
        "nothing proposed before consolidation"
    );
    let r = e.consolidate().unwrap().consolidation.unwrap();
    assert_eq!(
        (r.synthesis.confirmed, r.synthesis.rejected),
        (0, 0),
        "no LLM"
    );
    let found = bridges(&mut e);
    let pairs: Vec<(String, String)> = found.iter().map(|b| (b.a.clone(), b.b.clone())).collect();
    assert!(
        pairs.contains(&("Tiago".into(), "Marta".into()))
            || pairs.contains(&("Marta".into(), "Tiago".into())),
        "{pairs:?}"
    );
    assert!(
        !pairs.iter().any(|(a, b)| a == "Bruno" || b == "Bruno"),
        "one session is one context: {pairs:?}"
    );
    let tm = found
        .iter()
        .find(|b| b.a == "Tiago" || b.b == "Tiago")
        .unwrap();
    assert_eq!(
        (tm.status, tm.contexts, tm.evidence.len()),
        (BridgeStatus::Proposed, 2, 2)
    );
    assert_eq!(r.synthesis.proposed, found.len());
    // Proposed once: a second run adds nothing.
    let again = e.consolidate().unwrap().consolidation.unwrap();
    assert_eq!(again.synthesis.proposed, 0);
    assert_eq!(bridges(&mut e).len(), found.len());
    // Another owner has none; a bad status is refused by name.
    let other = e.call_json("bridges", r#"{"entity_id": "lee"}"#).unwrap();
    assert_eq!(other, "[]");
    let bad = e
        .call_json("bridges", r#"{"entity_id": "kai", "status": "maybe"}"#)
        .unwrap_err();
    assert_eq!(bad.code(), "invalid_input");
}

#[test]
fn the_hosts_llm_confirms_or_rejects_each_bridge_with_its_reason() {
    let (mut e, _) = bridging_engine(|text| {
        Some(Ok(if text.contains("rope") {
            r#"{"related": true, "relation": "climbing partner of", "reason": "They hike together and she lent him her rope."}"#.into()
        } else {
            r#"{"related": false, "relation": "", "reason": "Only mentioned together."}"#.into()
        }))
    });
    said_in(&mut e, "s1", "Tiago and Marta went hiking in the Gerês.");
    said_in(
        &mut e,
        "s2",
        "Yesterday Marta lent Tiago her climbing rope.",
    );
    said_in(&mut e, "s3", "Rita and Joana were both at the conference.");
    said_in(&mut e, "s4", "Joana and Rita took the same train.");
    let r = e.consolidate().unwrap().consolidation.unwrap();
    assert!(
        r.synthesis.confirmed >= 1 && r.synthesis.rejected >= 1,
        "{:?}",
        r.synthesis
    );
    assert_eq!(r.synthesis.failure, None);
    let found = bridges(&mut e);
    let tm = found
        .iter()
        .find(|b| b.a == "Tiago" || b.b == "Tiago")
        .unwrap();
    assert_eq!(tm.status, BridgeStatus::Confirmed);
    assert_eq!(tm.relation.as_deref(), Some("climbing partner of"));
    assert!(tm.reason.as_deref().unwrap().contains("rope"));
    assert!(tm.decided_at.is_some());
    let rj = found
        .iter()
        .find(|b| b.a == "Rita" || b.b == "Rita")
        .unwrap();
    assert_eq!(
        (rj.status, rj.relation.as_deref()),
        (BridgeStatus::Rejected, None)
    );
}

#[test]
fn a_bad_bridge_answer_leaves_the_bridge_proposed_and_says_why() {
    for (answer, why) in [
        ("not json", "not the bridge JSON"),
        (
            r#"{"related": true, "relation": "", "reason": "x"}"#,
            "not how",
        ),
        (r#"{"related": false, "reason": ""}"#, "no reason"),
    ] {
        let (mut e, _) = bridging_engine(move |_| Some(Ok(answer.to_string())));
        said_in(&mut e, "s1", "Tiago and Marta went hiking in the Gerês.");
        said_in(
            &mut e,
            "s2",
            "Yesterday Marta lent Tiago her climbing rope.",
        );
        let r = e.consolidate().unwrap().consolidation.unwrap();
        let failure = r.synthesis.failure.clone().unwrap_or_default();
        assert!(failure.contains(why), "{answer}: {failure}");
        assert!(bridges(&mut e)
            .iter()
            .all(|b| b.status == BridgeStatus::Proposed && b.reason.is_none()));
    }
}

#[test]
fn the_hosts_llm_writes_a_cards_summary_while_its_facts_stand() {
    let answers = std::rc::Rc::new(std::cell::RefCell::new(vec![
        r#"{"summary": "Ana Souza is the user's sister, a nurse in Porto who works at Farfetch."}"#
            .to_string(),
    ]));
    let asked = answers.clone();
    let clock = ManualClock::new(T0);
    let mut e = Engine::builder(clock.clone())
        .extractor(LlmExtractor(move |instructions: &str, text: &str, _now| {
            if instructions != mnemo_core::extract::llm::CARD_SUMMARY_INSTRUCTIONS {
                return None;
            }
            assert!(text.starts_with("Ana Souza (person)"), "{text}");
            let next = asked.borrow_mut().pop();
            Some(next.ok_or_else(|| "no more answers".to_string()))
        }))
        .open_in_memory()
        .unwrap();
    say(&mut e, "kai", "My sister Ana lives in Porto.");
    say(&mut e, "kai", "Ana Souza works at Farfetch.");
    say(&mut e, "kai", "Ana is a nurse and she loves surfing.");
    let card = |e: &mut Engine, agent: Option<&str>| {
        e.card(&CardRequest {
            entity_id: id("kai"),
            agent_id: agent.map(id),
            name: "Ana".into(),
        })
        .unwrap()
    };
    assert_eq!(card(&mut e, None).summary_by, CardSummaryBy::Engine);
    let r = e.consolidate().unwrap().consolidation.unwrap();
    assert_eq!((r.cards.written, r.cards.failure.clone()), (1, None));
    let c = card(&mut e, None);
    assert_eq!(c.summary_by, CardSummaryBy::Llm);
    assert!(c.summary.contains("a nurse in Porto"), "{}", c.summary);
    // Written once: a second run asks nothing (no answers are left to give).
    let again = e.consolidate().unwrap().consolidation.unwrap();
    assert_eq!((again.cards.written, again.cards.failure), (0, None));
    // Once a fact changes, the engine's summary is back until the LLM writes again; the
    // LLM's answer this time is refused, and says why.
    let fact = c.facts[0].id.clone();
    e.update(
        "kai",
        &fact,
        MemoryPatch {
            content: Some(content("Ana is a nurse at Santo António hospital.")),
            ..Default::default()
        },
    )
    .unwrap();
    assert_eq!(card(&mut e, None).summary_by, CardSummaryBy::Engine);
    answers.borrow_mut().push(r#"{"summary": ""}"#.to_string());
    let failed = e.consolidate().unwrap().consolidation.unwrap();
    assert!(
        failed
            .cards
            .failure
            .as_deref()
            .unwrap_or("")
            .contains("empty"),
        "{:?}",
        failed.cards
    );
    assert_eq!(card(&mut e, None).summary_by, CardSummaryBy::Engine);
}

#[test]
fn without_an_llm_consolidation_lists_the_cards_a_host_may_write() {
    let (mut e, _) = engine();
    for said in [
        "My sister Ana lives in Porto.",
        "Ana Souza works at Farfetch.",
        "Ana is a nurse and she loves surfing.",
    ] {
        let opts = RememberOptions {
            agent_id: Some(id("bot")),
            visibility: Some(Visibility::Global),
            ..RememberOptions::default()
        };
        e.remember("kai", said, opts).unwrap();
    }
    let r = e.consolidate().unwrap().consolidation.unwrap();
    let wanted = &r.cards.wanted;
    assert_eq!(wanted.len(), 1, "{:?}", r.cards);
    assert_eq!(
        (wanted[0].entity_id.as_str(), wanted[0].name.as_str()),
        ("kai", "Ana Souza")
    );
    assert_eq!(wanted[0].texts[0], "Ana Souza (person)");
    let write = |e: &mut Engine, summary: &str| {
        e.write_card_summary(&mnemo_core::consolidate::CardSummaryWrite {
            entity_id: id("kai"),
            name: "ana".into(),
            summary: summary.into(),
        })
    };
    assert_eq!(write(&mut e, "").unwrap_err().code(), "invalid_input");
    let written = write(&mut e, "Ana Souza is the user's sister, a nurse in Porto.").unwrap();
    assert_eq!(written.summary_by, CardSummaryBy::Llm);
    // The owner's view shows it; an agent's card, made from what it may see, the engine's.
    let owners = e
        .card(&CardRequest {
            entity_id: id("kai"),
            agent_id: None,
            name: "Ana".into(),
        })
        .unwrap();
    assert_eq!(owners.summary_by, CardSummaryBy::Llm);
    let theirs = e
        .call_json(
            "card",
            r#"{"entity_id": "kai", "agent_id": "bot", "name": "Ana"}"#,
        )
        .unwrap();
    let theirs: serde_json::Value = serde_json::from_str(&theirs).unwrap();
    assert_eq!(
        (theirs["memories"].as_u64(), theirs["summary_by"].as_str()),
        (Some(3), Some("engine")),
        "{theirs}"
    );
    let again = e.consolidate().unwrap().consolidation.unwrap();
    assert!(again.cards.wanted.is_empty(), "{:?}", again.cards);
}

/// Kai's store with Tiago and Marta named together in two sessions, before any consolidation.
fn tiago_and_marta() -> Engine {
    let (mut e, _) = bridging_engine(|_| None);
    said_in(
        &mut e,
        "s1",
        "My friends Tiago and Marta went hiking in the Alps.",
    );
    said_in(
        &mut e,
        "s2",
        "Yesterday Marta lent Tiago her climbing rope.",
    );
    e
}

#[test]
fn without_an_llm_the_host_decides_the_bridges_consolidation_lists() {
    let mut e = tiago_and_marta();
    let r = e.consolidate().unwrap().consolidation.unwrap();
    let wanted = &r.synthesis.wanted;
    assert_eq!(wanted.len(), 1, "{:?}", r.synthesis);
    assert_eq!(wanted[0].entity_id, "kai");
    assert_eq!(wanted[0].texts.len(), 2);
    let id = wanted[0].id.clone();
    let decide =
        |e: &mut Engine, owner: &str, id: &str, related: bool, relation: &str, reason: &str| {
            e.decide_bridge(&mnemo_core::consolidate::BridgeDecision {
                entity_id: mnemo_core::Id::owner(owner).unwrap(),
                id: id.into(),
                related,
                relation: relation.into(),
                reason: reason.into(),
            })
        };
    // Refused, changing nothing: no reason, related but not how, too long, unknown, another's.
    for (owner, bridge, related, relation, reason, code) in [
        ("kai", id.as_str(), true, "friends", " ", "invalid_input"),
        (
            "kai",
            id.as_str(),
            true,
            "",
            "They hike together.",
            "invalid_input",
        ),
        (
            "kai",
            id.as_str(),
            false,
            "",
            &"x".repeat(481)[..],
            "invalid_input",
        ),
        ("kai", "brg_0", true, "friends", "They hike.", "not_found"),
        (
            "lee",
            id.as_str(),
            true,
            "friends",
            "They hike.",
            "not_found",
        ),
    ] {
        let err = decide(&mut e, owner, bridge, related, relation, reason).unwrap_err();
        assert_eq!(err.code(), code, "{err}");
    }
    assert_eq!(bridges(&mut e)[0].status, BridgeStatus::Proposed);
    let b = decide(
        &mut e,
        "kai",
        &id,
        true,
        " climbing partner of ",
        "She lent him her rope.",
    )
    .unwrap();
    assert_eq!(
        (b.status, b.relation.as_deref(), b.reason.as_deref()),
        (
            BridgeStatus::Confirmed,
            Some("climbing partner of"),
            Some("She lent him her rope.")
        )
    );
    let again = decide(&mut e, "kai", &id, false, "", "Changed my mind.").unwrap_err();
    assert!(again.to_string().contains("already confirmed"), "{again}");
    assert_eq!(bridges(&mut e)[0].status, BridgeStatus::Confirmed);
    let next = e.consolidate().unwrap().consolidation.unwrap();
    assert!(next.synthesis.wanted.is_empty(), "{:?}", next.synthesis);
}

/// Kai's store after consolidation proposed the Tiago–Marta bridge and the host confirmed it;
/// the bridge's id.
fn confirmed_bridge() -> (Engine, String) {
    let mut e = tiago_and_marta();
    let r = e.consolidate().unwrap().consolidation.unwrap();
    let id = r.synthesis.wanted[0].id.clone();
    e.decide_bridge(&mnemo_core::consolidate::BridgeDecision {
        entity_id: mnemo_core::Id::owner("kai").unwrap(),
        id: id.clone(),
        related: true,
        relation: "climbing partner of".into(),
        reason: "She lent him her rope.".into(),
    })
    .unwrap();
    (e, id)
}

#[test]
fn a_bridge_and_its_decision_survive_export_and_import() {
    let (mut e, id) = confirmed_bridge();
    let exported = e.export_jsonl("kai").unwrap();
    assert_eq!(
        exported.matches(&format!("\"id\":\"{id}\"")).count(),
        1,
        "listed once"
    );
    let (mut copy, _) = bridging_engine(|_| None);
    let report = copy.import_jsonl(exported.as_bytes()).unwrap();
    assert_eq!(report.restored, 2);
    // The same bridge, decision and evidence; the same export, byte for byte.
    assert_eq!(bridges(&mut copy), bridges(&mut e));
    assert_eq!(bridges(&mut copy)[0].status, BridgeStatus::Confirmed);
    assert_eq!(copy.export_jsonl("kai").unwrap(), exported);
    // Decided there as here: consolidation neither proposes it again nor asks about it.
    let r = copy.consolidate().unwrap().consolidation.unwrap();
    assert_eq!((r.synthesis.proposed, r.synthesis.wanted.len()), (0, 0));
    // Imported again: nothing more.
    let again = copy.import_jsonl(exported.as_bytes()).unwrap();
    assert_eq!((again.restored, again.already_present), (0, 2));
    assert_eq!(copy.export_jsonl("kai").unwrap(), exported);
}

#[test]
fn an_agent_exports_only_the_bridges_whose_evidence_it_sees_whole() {
    let (mut e, _) = bridging_engine(|_| None);
    for (session, agent, text) in [
        (
            "s1",
            "bot",
            "My friends Tiago and Marta went hiking in the Alps.",
        ),
        ("s2", "spy", "Yesterday Marta lent Tiago her climbing rope."),
    ] {
        let opts = RememberOptions {
            session_id: Some(id(session)),
            agent_id: Some(id(agent)),
            ..RememberOptions::default()
        };
        e.remember("kai", text, opts).unwrap();
    }
    e.consolidate().unwrap();
    assert_eq!(bridges(&mut e).len(), 1, "the owner's view has it");
    let export = |e: &mut Engine, args: &str| -> String {
        serde_json::from_str(&e.call_json("export", args).unwrap()).unwrap()
    };
    let owners = export(&mut e, r#"{"entity_id": "kai"}"#);
    assert!(owners.contains("\"bridges\""), "{owners}");
    for agent in ["bot", "spy", "other"] {
        let args = format!(r#"{{"entity_id": "kai", "agent_id": "{agent}"}}"#);
        let theirs = export(&mut e, &args);
        assert!(!theirs.contains("\"bridges\""), "{agent}: {theirs}");
        assert!(
            !theirs.contains("Marta lent") || agent == "spy",
            "{agent}: {theirs}"
        );
    }
    // Another owner's export names none of it.
    assert_eq!(export(&mut e, r#"{"entity_id": "lee"}"#), "");
}

#[test]
fn a_bad_bridge_in_an_import_is_refused_by_its_path_and_writes_nothing() {
    let (mut e, id) = confirmed_bridge();
    let exported = e.export_jsonl("kai").unwrap();
    let line = exported
        .lines()
        .find(|l| l.contains("\"bridges\""))
        .unwrap();
    let record: serde_json::Value = serde_json::from_str(line).unwrap();
    let bridge = &record["bridges"][0];
    let memory_id = record["memory"]["id"].as_str().unwrap().to_string();
    let long = "x".repeat(BRIDGE_REASON_CHARS + 1);
    let cases: Vec<(&str, serde_json::Value, &str)> = vec![
        ("a", "Zeus".into(), "bridges[0].a"),
        ("b", bridge["a"].clone(), "bridges[0].b"),
        ("evidence", serde_json::json!([]), "bridges[0].evidence"),
        (
            "evidence",
            serde_json::json!(["mem_x", memory_id]),
            "bridges[0].evidence",
        ),
        (
            "evidence",
            serde_json::json!([memory_id, "a b"]),
            "bridges[0].evidence[1]",
        ),
        // A proposed or rejected bridge names no relation.
        ("status", "proposed".into(), "bridges[0].relation"),
        ("status", "rejected".into(), "bridges[0].relation"),
        ("status", "maybe".into(), "bridges[0].status"),
        ("reason", long.into(), "bridges[0].reason"),
        (
            "relation",
            "x".repeat(BRIDGE_RELATION_CHARS + 1).into(),
            "bridges[0].relation",
        ),
        (
            "decided_at",
            serde_json::Value::Null,
            "bridges[0].decided_at",
        ),
        (
            "decided_at",
            (bridge["proposed_at"].as_i64().unwrap() - 1).into(),
            "bridges[0].decided_at",
        ),
        ("proposed_at", f64::NAN.into(), "bridges[0].proposed_at"),
        (
            "id",
            "brg_1'; DROP TABLE bridges; --".into(),
            "bridges[0].id",
        ),
        ("unknown", 1.into(), "bridges[0]"),
    ];
    // Proposed, yet decided.
    let mut proposed = bridge.clone();
    proposed["status"] = "proposed".into();
    proposed.as_object_mut().unwrap().remove("relation");
    proposed.as_object_mut().unwrap().remove("reason");
    let mut undecided = bridge.clone();
    undecided["status"] = "proposed".into();
    for (field, value, path) in cases.into_iter().chain([
        ("", proposed, "bridges[0].status"),
        ("", serde_json::json!([bridge, bridge]), "bridges[1].id"),
        ("", undecided, "bridges[0].relation"),
    ]) {
        let mut bad = record.clone();
        match (field, value.is_array()) {
            ("", true) => bad["bridges"] = value.clone(),
            ("", false) => bad["bridges"][0] = value.clone(),
            _ => bad["bridges"][0][field] = value.clone(),
        }
        let text = exported.replace(line, &bad.to_string());
        let (mut fresh, _) = bridging_engine(|_| None);
        let err = fresh.import_jsonl(text.as_bytes()).unwrap_err();
        assert_eq!(err.code(), "import_error", "{field} = {value}: {err}");
        assert!(err.to_string().contains(path), "{field} = {value}: {err}");
        assert_eq!(
            fresh.export_jsonl("kai").unwrap(),
            "",
            "{field}: nothing written"
        );
    }
    // A bridge id another owner holds in this store is refused; the owner's bridge is untouched.
    let mut lee = exported.replace("\"entity_id\":\"kai\"", "\"entity_id\":\"lee\"");
    for l in exported.lines() {
        let m: serde_json::Value = serde_json::from_str(l).unwrap();
        let mid = m["memory"]["id"].as_str().unwrap();
        lee = lee.replace(mid, &format!("{mid}b"));
    }
    // After a blank line and a plain record: the error names the file's line.
    let prefix = "\n{\"entity_id\": \"lee\", \"content\": \"Lee likes tea.\"}\n";
    let bridged = 3 + exported
        .lines()
        .position(|l| l.contains("\"bridges\""))
        .unwrap();
    let err = e
        .import_jsonl(format!("{prefix}{lee}").as_bytes())
        .unwrap_err();
    assert!(
        err.to_string().contains(&format!(
            "import line {bridged}: bridge {id} belongs to another entity"
        )),
        "{err}"
    );
    // So does a memory id another owner holds.
    let taken = exported.replace("\"entity_id\":\"kai\"", "\"entity_id\":\"lee\"");
    let err = e
        .import_jsonl(format!("{prefix}{taken}").as_bytes())
        .unwrap_err();
    assert!(
        err.to_string().starts_with("import line 3: id mem_"),
        "{err}"
    );
    assert_eq!(e.export_jsonl("lee").unwrap(), "");
    assert_eq!(e.export_jsonl("kai").unwrap(), exported);
}
