//! The rest of the API: get, list, update, forget, pin, status, stats, export/import, isolation.
mod common;

use common::*;
use mnemo_core::*;

#[test]
fn update_reembeds_and_reindexes() {
    let (mut e, clock) = engine();
    let id = seed_one(&mut e, mem("u", "the meeting is in room Aurora"));
    clock.advance(DAY_MS);
    let m = e
        .update(
            "u",
            &id,
            MemoryPatch {
                content: Some(content("the meeting moved to room Borealis")),
                tags: Some(tags(&["meetings"])),
                importance: Some(unit(0.9)),
                ..Default::default()
            },
        )
        .unwrap();
    assert_eq!(
        (m.content.as_str(), m.importance, m.updated_at),
        ("the meeting moved to room Borealis", 0.9, T0 + DAY_MS)
    );
    assert_eq!(
        m.content_hash,
        text::content_hash("the meeting moved to room Borealis")
    );
    // The old words left the text index (a vector neighbour may still come back, unmatched).
    assert!(search(&mut e, "u", "Aurora")
        .iter()
        .all(|h| h.why.text == 0.0));
    let hits = search(&mut e, "u", "Borealis");
    assert_eq!(ids(&hits), vec![id.clone()]);
    assert!(
        hits[0].why.vector > 0.3,
        "re-embedded: {}",
        hits[0].why.vector
    );
    // Tags are indexed too.
    assert_eq!(ids(&search(&mut e, "u", "meetings")), vec![id]);
}

#[test]
fn list_filters_and_pages() {
    let (mut e, clock) = engine();
    let mut all = Vec::new();
    for i in 0..7 {
        clock.set(T0 + i * 1000);
        let ty = if i % 2 == 0 {
            MemoryType::Plan
        } else {
            MemoryType::Preference
        };
        all.push(seed_one(
            &mut e,
            NewMemory {
                memory_type: Some(ty),
                tags: if i == 3 { tags(&["vip"]) } else { tags(&[]) },
                ..mem("u", &format!("distinct entry {i} zebra{i}"))
            },
        ));
    }
    let page = e
        .list(&ListRequest {
            limit: limit(3),
            ..ListRequest::new(id("u"))
        })
        .unwrap();
    assert_eq!(page.total, 7);
    assert_eq!(
        page.memories
            .iter()
            .map(|m| m.id.clone())
            .collect::<Vec<_>>(),
        vec![all[6].clone(), all[5].clone(), all[4].clone()]
    );
    let page2 = e
        .list(&ListRequest {
            limit: limit(3),
            offset: 6,
            ..ListRequest::new(id("u"))
        })
        .unwrap();
    assert_eq!(
        page2
            .memories
            .iter()
            .map(|m| m.id.clone())
            .collect::<Vec<_>>(),
        vec![all[0].clone()]
    );
    let plans = e
        .list(&ListRequest {
            types: vec![MemoryType::Plan],
            oldest_first: true,
            ..ListRequest::new(id("u"))
        })
        .unwrap();
    assert_eq!(plans.total, 4);
    assert_eq!(plans.memories[0].id, all[0]);
    let vip = e
        .list(&ListRequest {
            tag: Some("vip".into()),
            ..ListRequest::new(id("u"))
        })
        .unwrap();
    assert_eq!(
        vip.memories
            .iter()
            .map(|m| m.id.clone())
            .collect::<Vec<_>>(),
        vec![all[3].clone()]
    );
    e.pin("u", &all[2], true).unwrap();
    assert_eq!(
        e.list(&ListRequest {
            pinned: Some(true),
            ..ListRequest::new(id("u"))
        })
        .unwrap()
        .total,
        1
    );
    e.forget("u", &all[1]).unwrap();
    assert_eq!(e.list(&ListRequest::new(id("u"))).unwrap().total, 6);
    assert_eq!(
        e.list(&ListRequest {
            states: vec![State::Deleted],
            ..ListRequest::new(id("u"))
        })
        .unwrap()
        .total,
        1
    );
}

#[test]
fn forget_is_soft_and_final_for_the_api() {
    let (mut e, _) = engine();
    let id = seed_one(&mut e, mem("u", "temporary door code 9981"));
    let m = e.forget("u", &id).unwrap();
    assert_eq!((m.state, m.deleted_at), (State::Deleted, Some(T0)));
    for err in [
        e.get("u", &id).unwrap_err(),
        e.forget("u", &id).unwrap_err(),
        e.reinforce("u", &id).unwrap_err(),
        e.update("u", &id, MemoryPatch::default()).unwrap_err(),
    ] {
        assert_eq!(err.code(), "not_found");
    }
    assert!(search(&mut e, "u", "door code").is_empty());
    assert_eq!(e.stats("u").unwrap().by_state.get("DELETED"), Some(&1));
}

#[test]
fn status_changes_are_audited_and_non_active_leave_search() {
    let (mut e, clock) = engine();
    let id = seed_one(&mut e, mem("u", "the office is on Baker Street"));
    clock.advance(1000);
    e.set_status("u", &id, Status::Challenged, "user said they moved")
        .unwrap();
    assert!(search(&mut e, "u", "office Baker Street").is_empty());
    clock.advance(1000);
    e.set_status("u", &id, Status::Active, "confirmed still there")
        .unwrap();
    assert_eq!(
        ids(&search(&mut e, "u", "office Baker Street")),
        vec![id.clone()]
    );
    let h = e.status_history("u", &id).unwrap();
    assert_eq!(
        h,
        vec![
            StatusChange {
                old: Status::Active,
                new: Status::Challenged,
                reason: "user said they moved".into(),
                changed_at: T0 + 1000,
                layer: None,
            },
            StatusChange {
                old: Status::Challenged,
                new: Status::Active,
                reason: "confirmed still there".into(),
                changed_at: T0 + 2000,
                layer: None,
            },
        ]
    );
    assert_eq!(
        e.set_status("u", &id, Status::Active, "again")
            .unwrap_err()
            .code(),
        "invalid_input"
    );
    assert_eq!(
        e.set_status("u", &id, Status::Invalidated, "   ")
            .unwrap_err()
            .code(),
        "invalid_input"
    );
}

#[test]
fn stats_count_by_type_state_status_tier() {
    let (mut e, _) = engine();
    seed_one(
        &mut e,
        NewMemory {
            memory_type: Some(MemoryType::Plan),
            ..mem("u", "renew passport")
        },
    );
    seed_one(
        &mut e,
        NewMemory {
            memory_type: Some(MemoryType::Plan),
            ..mem("u", "file taxes in april")
        },
    );
    let gone = seed_one(
        &mut e,
        NewMemory {
            memory_type: Some(MemoryType::Identity),
            ..mem("u", "name is Ana")
        },
    );
    e.forget("u", &gone).unwrap();
    let s = e.stats("u").unwrap();
    assert_eq!(s.total, 2);
    assert_eq!(s.by_type.get("PLAN"), Some(&2));
    assert_eq!(s.by_type.get("IDENTITY"), None);
    assert_eq!(
        (s.by_state.get("ACTIVE"), s.by_state.get("DELETED")),
        (Some(&2), Some(&1))
    );
    assert_eq!(s.by_status.get("active"), Some(&2));
    assert_eq!(s.by_tier.get("hot"), Some(&2));
    assert_eq!(
        (s.embedding_model.as_str(), s.embedding_dim),
        ("mnemo-static-v1", 256)
    );
}

#[test]
fn owners_are_isolated_everywhere() {
    let (mut e, _) = engine();
    let ana = seed_one(&mut e, mem("ana", "Ana's bank PIN hint is her cat's name"));
    seed_one(&mut e, mem("bob", "Bob likes hiking"));
    assert!(search(&mut e, "bob", "bank PIN hint cat")
        .iter()
        .all(|h| h.memory.entity_id == "bob"));
    for err in [
        e.get("bob", &ana).unwrap_err(),
        e.update(
            "bob",
            &ana,
            MemoryPatch {
                content: Some(content("hacked")),
                ..Default::default()
            },
        )
        .unwrap_err(),
        e.forget("bob", &ana).unwrap_err(),
        e.reinforce("bob", &ana).unwrap_err(),
        e.demote("bob", &ana).unwrap_err(),
        e.pin("bob", &ana, true).unwrap_err(),
        e.set_status("bob", &ana, Status::Invalidated, "x")
            .unwrap_err(),
        e.status_history("bob", &ana).unwrap_err(),
    ] {
        assert_eq!(err.code(), "not_found");
    }
    assert_eq!(e.list(&ListRequest::new(id("bob"))).unwrap().total, 1);
    assert_eq!(e.stats("bob").unwrap().total, 1);
    assert!(!e.export_jsonl("bob").unwrap().contains("PIN"));
    assert_eq!(
        e.get("ana", &ana).unwrap().content,
        "Ana's bank PIN hint is her cat's name"
    );
}

#[test]
fn export_import_round_trips_exactly_through_a_file() {
    let dir = TempDir::new("roundtrip");
    let (mut e, clock) = engine();
    let a = seed_one(
        &mut e,
        NewMemory {
            tags: tags(&["x"]),
            source_ref: Some(SourceRef::parse("msg-1").unwrap()),
            ..mem("u", "Ünïcödé — 東京 trip in May 🚀")
        },
    );
    let b = seed_one(&mut e, mem("u", "second memory"));
    e.set_status("u", &b, Status::Challenged, "doubtful")
        .unwrap();
    e.reinforce("u", &a).unwrap();
    e.set_layer("u", &b, Layer::Procedural, "how it is done")
        .unwrap();
    let c = seed_one(&mut e, mem("u", "third memory to forget"));
    e.forget("u", &c).unwrap();
    seed_one(&mut e, mem("other", "not exported"));
    let exported = e.export_jsonl("u").unwrap();
    assert_eq!(exported.lines().count(), 3);

    let mut f = Engine::builder(clock.clone())
        .open(dir.file("copy.db"))
        .unwrap();
    let r = f.import_jsonl(exported.as_bytes()).unwrap();
    assert_eq!((r.restored, r.already_present), (3, 0));
    assert_eq!(f.export_jsonl("u").unwrap(), exported);
    drop(f);
    // Reopened from disk: still identical, and searchable.
    let mut f = Engine::builder(clock.clone())
        .open(dir.file("copy.db"))
        .unwrap();
    assert_eq!(f.export_jsonl("u").unwrap(), exported);
    assert_eq!(f.status_history("u", &b).unwrap()[0].reason, "doubtful");
    let moved = f.status_history("u", &b).unwrap()[1].layer;
    assert_eq!(moved.map(|l| l.new), Some(Layer::Procedural));
    assert!(exported.contains("\"layer_set_at\":"));
    assert_eq!(ids(&search(&mut f, "u", "東京 trip")), vec![a.clone()]);
    // Importing again changes nothing.
    let r = f.import_jsonl(exported.as_bytes()).unwrap();
    assert_eq!((r.restored, r.already_present), (0, 3));
}

#[test]
fn import_plain_records_go_through_dedup() {
    let (mut e, _) = engine();
    let jsonl = "{\"entity_id\":\"u\",\"content\":\"likes jazz\"}\n\n{\"entity_id\":\"u\",\"content\":\"Likes  JAZZ\",\"type\":\"PREFERENCE\"}\n";
    let r = e.import_jsonl(jsonl.as_bytes()).unwrap();
    assert!(matches!(r.written.outcomes[0], Outcome::Created { .. }));
    assert!(matches!(
        r.written.outcomes[1],
        Outcome::Skipped {
            reason: SkipReason::ExactDuplicate,
            ..
        }
    ));
    let m = e
        .list(&ListRequest::new(id("u")))
        .unwrap()
        .memories
        .remove(0);
    assert_eq!((m.source, m.trust), (Source::Import, 0.5));
}

#[test]
fn ids_come_from_the_hosts_entropy() {
    let open = |seed| {
        Engine::builder(ManualClock::new(T0))
            .entropy(SeededEntropy::new(seed))
            .open_in_memory()
            .unwrap()
    };
    let (mut a, mut b, mut c) = (open(7), open(7), open(8));
    let ia = seed_one(&mut a, mem("u", "same"));
    assert_eq!(ia, seed_one(&mut b, mem("u", "same")));
    assert_ne!(ia, seed_one(&mut c, mem("u", "same")));
}

#[test]
fn ids_sort_in_the_order_memories_were_made() {
    let clock = ManualClock::new(T0);
    let mut e = Engine::builder(clock.clone()).open_in_memory().unwrap();
    let contents = ["Ana paints", "Ben sails boats", "Cleo keeps bees"];
    let mut made: Vec<String> = Vec::new();
    for step in [0, 400, 1_000, 86_400_000] {
        clock.advance(step);
        let report = e
            .seed(
                contents
                    .iter()
                    .map(|c| mem("u", &format!("{c} ({step})")))
                    .collect(),
            )
            .unwrap();
        made.extend(
            report
                .outcomes
                .iter()
                .filter_map(|o| o.id().map(String::from)),
        );
    }
    assert_eq!(made.len(), 12);
    let mut sorted = made.clone();
    sorted.sort();
    assert_eq!(sorted, made, "within a second and across seconds");
}

#[test]
fn reopened_store_with_same_seed_never_reuses_an_id() {
    let dir = TempDir::new("ids");
    let path = dir.file("ids.db");
    let first = seed_one(
        &mut Engine::builder(ManualClock::new(T0)).open(&path).unwrap(),
        mem("u", "one"),
    );
    let mut e = Engine::builder(ManualClock::new(T0)).open(&path).unwrap();
    let second = seed_one(&mut e, mem("u", "two"));
    assert_ne!(first, second);
    assert_eq!(e.stats("u").unwrap().total, 2);
}

#[test]
fn owners_whose_ids_share_a_prefix_stay_apart() {
    let (mut e, _) = engine();
    for owner in ["ana", "ana-2", "an", "ANA"] {
        seed_one(&mut e, mem(owner, &format!("secret recipe of {owner}")));
    }
    for owner in ["ana", "ana-2", "an", "ANA"] {
        let hits = search(&mut e, owner, "secret recipe");
        assert_eq!(hits.len(), 1, "{owner}");
        assert_eq!(hits[0].memory.entity_id, owner);
    }
}
