//! Co-recall links with a moved clock: memories a search returns together are linked from the
//! third time, grow by 0.1 up to 1, decay ×0.95 per day in consolidation (idempotent the same
//! day), go below 0.1; only the top five hits count; links stay within an owner, leave with
//! forgotten and purged memories, and `related` refuses bad requests changing nothing.
mod common;

use common::*;
use mnemo_core::*;

const OWNER: &str = "ana";

/// An engine with dedup off and four notes: three about the garden, one not.
fn garden() -> (Engine, ManualClock, Vec<String>, String) {
    garden_with(without_dedup())
}

fn garden_with(config: Config) -> (Engine, ManualClock, Vec<String>, String) {
    let (mut e, clock) = engine_with_config(config);
    let garden: Vec<String> = [
        "I water the garden tomatoes every evening",
        "The garden roses need pruning in March",
        "Our garden shed is painted green",
    ]
    .into_iter()
    .map(|c| seed_one(&mut e, mem(OWNER, c)))
    .collect();
    let car = seed_one(&mut e, mem(OWNER, "My car needs new winter tyres"));
    (e, clock, garden, car)
}

fn related(e: &mut Engine, id: &str) -> Vec<RelatedMemory> {
    e.related(&RelatedRequest {
        entity_id: common::id(OWNER),
        agent_id: None,
        id: common::id(id),
        limit: None,
    })
    .unwrap()
}

/// The ids linked to `id`, with their strength and co-recall count.
fn links_of(e: &mut Engine, id: &str) -> Vec<(String, f64, i64)> {
    related(e, id)
        .into_iter()
        .map(|r| (r.memory.id, r.strength, r.co_recalls))
        .collect()
}

/// Searches for the garden and checks the three garden notes (and not the car) came back.
fn recall_garden(e: &mut Engine, garden: &[String], car: &str) {
    let hits = ids(&search(e, OWNER, "garden"));
    for id in garden {
        assert!(hits.contains(id), "{hits:?}");
    }
    assert!(!hits.contains(&car.to_string()), "{hits:?}");
}

fn consolidate(e: &mut Engine) -> LinksReport {
    e.consolidate().unwrap().consolidation.unwrap().links
}

#[test]
fn memories_returned_together_three_times_are_linked() {
    let (mut e, _clock, garden, car) = garden();
    for _ in 0..2 {
        recall_garden(&mut e, &garden, &car);
        assert!(
            links_of(&mut e, &garden[0]).is_empty(),
            "not formed before the third co-recall"
        );
    }
    recall_garden(&mut e, &garden, &car);
    let linked = links_of(&mut e, &garden[0]);
    assert_eq!(linked.len(), 2, "{linked:?}");
    for (id, strength, count) in &linked {
        assert!(garden[1..].contains(id));
        assert!((strength - 0.3).abs() < 1e-12, "{strength}");
        assert_eq!(*count, 3);
    }
    assert!(links_of(&mut e, &car).is_empty());
    // Each later co-recall adds 0.1, up to 1.
    for _ in 0..4 {
        recall_garden(&mut e, &garden, &car);
    }
    let (_, s, n) = &links_of(&mut e, &garden[1])[0];
    assert!((s - 0.7).abs() < 1e-9 && *n == 7, "{s} {n}");
    for _ in 0..10 {
        recall_garden(&mut e, &garden, &car);
    }
    let (_, s, n) = &links_of(&mut e, &garden[2])[0];
    assert_eq!((*s, *n), (1.0, 17));
}

#[test]
fn links_decay_by_day_in_consolidation_and_go_below_a_tenth() {
    let (mut e, clock, garden, car) = garden();
    for _ in 0..3 {
        recall_garden(&mut e, &garden, &car);
    }
    assert_eq!(consolidate(&mut e), LinksReport::default());
    // A day later a read shows the decayed strength; consolidation stores it, once.
    clock.advance(DAY_MS);
    let (_, s, _) = links_of(&mut e, &garden[0])[0].clone();
    assert!((s - 0.3 * 0.95).abs() < 1e-12, "{s}");
    let report = consolidate(&mut e);
    assert_eq!((report.decayed, report.removed), (3, 0), "{report:?}");
    assert_eq!(links_of(&mut e, &garden[0])[0].1, s);
    assert_eq!(
        consolidate(&mut e),
        LinksReport::default(),
        "a second run the same day changes nothing"
    );
    // Half a day more is not a day: nothing decays.
    clock.advance(DAY_MS / 2);
    assert_eq!(consolidate(&mut e), LinksReport::default());
    // 0.3 × 0.95^22 < 0.1: gone from reads at once, removed by consolidation.
    clock.advance(21 * DAY_MS);
    assert!(links_of(&mut e, &garden[0]).is_empty());
    let report = consolidate(&mut e);
    assert_eq!((report.decayed, report.removed), (0, 3), "{report:?}");
}

#[test]
fn a_pair_recalled_once_fades_within_a_day() {
    let (mut e, clock, garden, car) = garden();
    recall_garden(&mut e, &garden, &car);
    e.flush().unwrap();
    clock.advance(DAY_MS);
    let report = consolidate(&mut e);
    assert_eq!((report.decayed, report.removed), (0, 3), "{report:?}");
    // Two more co-recalls now start over: still not a link.
    recall_garden(&mut e, &garden, &car);
    recall_garden(&mut e, &garden, &car);
    assert!(links_of(&mut e, &garden[0]).is_empty());
}

#[test]
fn only_the_top_five_hits_are_recalled_together() {
    let (mut e, _clock) = engine_with_config(without_dedup());
    let notes: Vec<String> = (0..7)
        .map(|i| {
            seed_one(
                &mut e,
                mem(OWNER, &format!("Lighthouse number {i} stands on a rock")),
            )
        })
        .collect();
    for _ in 0..3 {
        let hits = search(&mut e, OWNER, "lighthouse");
        assert_eq!(hits.len(), 7);
    }
    let hits = ids(&search(&mut e, OWNER, "lighthouse"));
    let top: Vec<&String> = hits.iter().take(5).collect();
    for id in &notes {
        let linked = links_of(&mut e, id).len();
        assert_eq!(linked, if top.contains(&id) { 4 } else { 0 }, "{id}");
    }
}

#[test]
fn links_stay_within_an_owner_and_leave_with_their_memories() {
    // Consolidation only when asked, so the purge below is maintenance alone.
    let mut config = without_dedup();
    config.consolidation.every_hours = 24.0 * 365.0;
    let (mut e, clock, garden, car) = garden_with(config);
    consolidate(&mut e);
    let bo = seed_one(&mut e, mem("bo", "The garden gate squeaks"));
    for _ in 0..3 {
        recall_garden(&mut e, &garden, &car);
        search(&mut e, "bo", "garden");
    }
    assert!(links_of(&mut e, &garden[0])
        .iter()
        .all(|(id, ..)| garden.contains(id)));
    // Another owner cannot read them, even naming the memory.
    let err = e
        .related(&RelatedRequest {
            entity_id: id("bo"),
            agent_id: None,
            id: id(&garden[0]),
            limit: None,
        })
        .unwrap_err();
    assert_eq!(err.code(), "not_found");
    assert!(e
        .related(&RelatedRequest {
            entity_id: id("bo"),
            agent_id: None,
            id: id(&bo),
            limit: None,
        })
        .unwrap()
        .is_empty());
    // A forgotten memory leaves the answer at once, and the store once purged.
    e.forget(OWNER, &garden[1]).unwrap();
    let linked = links_of(&mut e, &garden[0]);
    assert_eq!(linked.len(), 1);
    assert_eq!(linked[0].0, garden[2]);
    clock.advance(91 * DAY_MS);
    let maintained = e.maintain().unwrap();
    assert_eq!(maintained.purged, 1);
    assert!(maintained.consolidation.is_none());
    assert!(all_states(&mut e, OWNER).iter().all(|m| m.id != garden[1]));
    // The purged memory's two links went with it: one is left to decay away.
    let report = consolidate(&mut e);
    assert_eq!(report.removed, 1, "{report:?}");
}

#[test]
fn limit_orders_by_strength() {
    let (mut e, _clock, garden, car) = garden();
    for _ in 0..3 {
        recall_garden(&mut e, &garden, &car);
    }
    // Two more searches that return the tomatoes and the roses alone.
    for _ in 0..2 {
        let hits = e
            .search(&SearchRequest {
                limit: limit(2),
                ..SearchRequest::new(id(OWNER), "tomatoes roses")
            })
            .unwrap();
        let mut got = ids(&hits);
        got.sort();
        let mut want = garden[..2].to_vec();
        want.sort();
        assert_eq!(got, want);
    }
    let linked = links_of(&mut e, &garden[0]);
    assert_eq!(linked[0].0, garden[1]);
    assert!(linked[0].1 > linked[1].1);
    let one = e
        .related(&RelatedRequest {
            entity_id: id(OWNER),
            agent_id: None,
            id: id(&garden[0]),
            limit: limit(1),
        })
        .unwrap();
    assert_eq!(one.len(), 1);
    assert_eq!(one[0].memory.id, garden[1]);
}

#[test]
fn related_refuses_bad_requests_and_changes_nothing() {
    let (mut e, _clock, garden, car) = garden();
    for _ in 0..3 {
        recall_garden(&mut e, &garden, &car);
    }
    e.flush().unwrap();
    let before = snapshot(&mut e, OWNER);
    let cases = [
        (r#"{"entity_id":"ana"}"#, "invalid_input"),
        (r#"{"id":"mem_1"}"#, "invalid_input"),
        (r#"{"entity_id":"ana","id":""}"#, "invalid_input"),
        (r#"{"entity_id":"ana","id":"mem_nope"}"#, "not_found"),
        (
            r#"{"entity_id":"ana","id":"x' OR 1=1 --"}"#,
            "invalid_input",
        ),
        (r#"{"entity_id":"ana","id":"记忆"}"#, "invalid_input"),
        (r#"{"entity_id":"","id":"mem_1"}"#, "invalid_input"),
        (r#"{"entity_id":"ana","id":7}"#, "invalid_input"),
        (
            r#"{"entity_id":"ana","id":"mem_1","limit":0}"#,
            "invalid_input",
        ),
        (
            r#"{"entity_id":"ana","id":"mem_1","limit":1001}"#,
            "invalid_input",
        ),
        (
            r#"{"entity_id":"ana","id":"mem_1","limit":-1}"#,
            "invalid_input",
        ),
        (
            r#"{"entity_id":"ana","id":"mem_1","limit":"3"}"#,
            "invalid_input",
        ),
        (
            r#"{"entity_id":"ana","id":"mem_1","depth":2}"#,
            "invalid_input",
        ),
        (r#"[]"#, "invalid_input"),
    ];
    for (args, code) in cases {
        let err = e.call_json("related", args).unwrap_err();
        assert_eq!(err.code(), code, "{args}: {err}");
    }
    assert_eq!(snapshot(&mut e, OWNER), before);
}

/// A memory searches keep returning with the answer is lent relevance along the link: found
/// for a question only its partner matches, with the lent share in `why.context`.
#[test]
fn a_strong_link_lends_relevance_in_search() {
    let run = |link_weight: f64| {
        let mut config = without_dedup();
        config.recall.link_weight = link_weight;
        let (mut e, _clock) = engine_with_config(config);
        let ripe = seed_one(&mut e, mem(OWNER, "The tomatoes ripen in August"));
        let compost = seed_one(
            &mut e,
            mem(OWNER, "Tomatoes like coffee grounds in the compost"),
        );
        seed_one(&mut e, mem(OWNER, "My car needs new winter tyres"));
        for _ in 0..10 {
            let hits = ids(&search(&mut e, OWNER, "tomatoes"));
            assert!(hits[..2].contains(&ripe) && hits[..2].contains(&compost));
        }
        // Links are written with the next write (or a flush).
        e.flush().unwrap();
        let hits = search(&mut e, OWNER, "August");
        let best = hits[0].why.relevance;
        assert_eq!(hits[0].memory.id, ripe);
        let lent = hits
            .iter()
            .find(|h| h.memory.id == compost)
            .map(|h| h.why.context);
        (best, lent)
    };
    let (best, lent) = run(0.5);
    let lent = lent.expect("the linked memory is found");
    assert!((lent - 0.5 * 1.0 * best).abs() < 1e-9, "{lent} vs {best}");
    let (_, off) = run(0.0);
    assert!(off.is_none_or(|c| c == 0.0), "{off:?}");
}

#[test]
fn a_link_weight_out_of_range_is_refused() {
    for bad in [-0.1, 1.5, f64::NAN, f64::INFINITY] {
        let mut config = Config::default();
        config.recall.link_weight = bad;
        let err = Engine::builder(ManualClock::new(T0))
            .config(config)
            .open_in_memory()
            .err()
            .expect("refused");
        assert_eq!(err.code(), "invalid_input");
        assert!(err.to_string().contains("recall.link_weight"), "{err}");
    }
}

#[test]
fn links_travel_with_an_export() {
    let (mut e, _clock, garden, car) = garden();
    for _ in 0..4 {
        recall_garden(&mut e, &garden, &car);
    }
    let jsonl = e.export_jsonl(OWNER).unwrap();
    assert_eq!(
        jsonl.matches("\"co_recalls\":4").count(),
        3,
        "each link once"
    );
    let mut f = Engine::builder(ManualClock::new(T0))
        .open_in_memory()
        .unwrap();
    let report = f.import_jsonl(jsonl.as_bytes()).unwrap();
    assert_eq!(report.restored, 4);
    assert_eq!(f.export_jsonl(OWNER).unwrap(), jsonl);
    for id in &garden {
        assert_eq!(links_of(&mut f, id), links_of(&mut e, id));
    }
    // A bad link fails the whole import, and nothing is written.
    let mut g = Engine::builder(ManualClock::new(T0))
        .open_in_memory()
        .unwrap();
    for (from, to) in [
        ("\"co_recalls\":4", "\"co_recalls\":0"),
        ("\"strength\":0.4", "\"strength\":1.5"),
        ("\"co_recalls\":4", "\"co_recalls\":\"4\""),
        ("\"co_recalls\":4", "\"co_recalls\":4,\"kind\":\"x\""),
    ] {
        assert!(jsonl.contains(from), "{from}");
        let bad = jsonl.replacen(from, to, 1);
        let err = g.import_jsonl(bad.as_bytes()).unwrap_err();
        assert_eq!(err.code(), "import_error", "{to}: {err}");
        assert!(all_states(&mut g, OWNER).is_empty());
    }
}

/// The ids of the memories a write created.
fn created(r: WriteReport) -> Vec<String> {
    r.outcomes
        .iter()
        .filter_map(|o| o.id().map(str::to_string))
        .collect()
}

fn tagged(owner: &str, content: &str, tags: &[&str]) -> NewMemory {
    NewMemory {
        tags: common::tags(tags),
        ..mem(owner, content)
    }
}

#[test]
fn consolidation_relates_memories_naming_the_same_entity_or_sharing_tags() {
    let (mut e, _clock) = engine_with_config(without_dedup());
    let say = |e: &mut Engine, owner: &str, text: &str| {
        let ids = created(e.remember(owner, text, RememberOptions::default()).unwrap());
        assert_eq!(ids.len(), 1, "{text}");
        ids[0].clone()
    };
    let job = say(
        &mut e,
        OWNER,
        "My sister Ines works as a marine biologist in Porto.",
    );
    let surf = say(
        &mut e,
        OWNER,
        "Ines surfs at Matosinhos beach every weekend.",
    );
    let laptop = say(&mut e, OWNER, "I bought a new laptop yesterday.");
    let clay = seed_one(
        &mut e,
        tagged(OWNER, "Clay needs two days to dry", &["pottery", "Studio"]),
    );
    let kiln = seed_one(
        &mut e,
        tagged(OWNER, "The kiln reaches 1200 degrees", &["pottery"]),
    );
    let bo_ines = say(&mut e, "bo", "Ines from the bakery sells sourdough bread.");
    let bo_pot = seed_one(
        &mut e,
        tagged("bo", "My pottery wheel squeaks", &["pottery"]),
    );
    assert!(
        related(&mut e, &job).is_empty(),
        "nothing before consolidation"
    );

    let c = e
        .consolidate()
        .unwrap()
        .consolidation
        .unwrap()
        .relationships;
    assert_eq!((c.linked, c.reweighed, c.unlinked), (2, 0, 0), "{c:?}");
    let r = related(&mut e, &job);
    assert_eq!(r.len(), 1, "{r:?}");
    assert_eq!(r[0].memory.id, surf);
    assert_eq!(r[0].shared_entities, vec!["Ines".to_string()]);
    assert_eq!((r[0].co_recalls, r[0].last_recalled_at), (0, None));
    assert!(
        r[0].strength >= 0.45 && r[0].strength <= 1.0,
        "{}",
        r[0].strength
    );
    let r = related(&mut e, &kiln);
    assert_eq!(r.len(), 1, "{r:?}");
    assert_eq!(r[0].memory.id, clay);
    assert_eq!(r[0].shared_tags, vec!["pottery".to_string()]);
    assert!(related(&mut e, &laptop).is_empty());
    // Owners apart: bo's Ines and pottery are linked to nothing of ana's.
    for id in [&bo_ines, &bo_pot] {
        let err = e
            .related(&RelatedRequest {
                entity_id: common::id(OWNER),
                agent_id: None,
                id: common::id(id),
                limit: None,
            })
            .unwrap_err();
        assert_eq!(err.code(), "not_found");
        assert!(e
            .related(&RelatedRequest {
                entity_id: common::id("bo"),
                agent_id: None,
                id: common::id(id),
                limit: None,
            })
            .unwrap()
            .is_empty());
    }

    // Idempotent: the next run finds what this one found.
    let c = e
        .consolidate()
        .unwrap()
        .consolidation
        .unwrap()
        .relationships;
    assert_eq!(
        (c.examined, c.linked, c.reweighed, c.unlinked),
        (7, 0, 0, 0),
        "{c:?}"
    );

    // A tag taken away: the next run unlinks them. A forgotten memory leaves at once.
    e.update(
        OWNER,
        &kiln,
        MemoryPatch {
            tags: Some(tags(&["ceramics"])),
            ..Default::default()
        },
    )
    .unwrap();
    let c = e
        .consolidate()
        .unwrap()
        .consolidation
        .unwrap()
        .relationships;
    assert_eq!((c.linked, c.unlinked), (0, 1), "{c:?}");
    assert!(related(&mut e, &clay).is_empty());
    e.forget(OWNER, &surf).unwrap();
    assert!(related(&mut e, &job).is_empty());
}

#[test]
fn a_pair_linked_both_ways_is_one_related_memory() {
    let (mut e, _clock, garden, car) = garden();
    for id in &garden[..2] {
        e.update(
            OWNER,
            id,
            MemoryPatch {
                tags: Some(tags(&["garden"])),
                ..Default::default()
            },
        )
        .unwrap();
    }
    e.consolidate().unwrap();
    let shared = related(&mut e, &garden[0]);
    assert_eq!(shared.len(), 1);
    let by_tags = shared[0].strength;
    for _ in 0..12 {
        recall_garden(&mut e, &garden, &car);
    }
    let r = related(&mut e, &garden[0]);
    assert_eq!(r.len(), 2, "{r:?}");
    assert_eq!(
        r[0].memory.id, garden[1],
        "the pair linked both ways is strongest"
    );
    assert_eq!(r[0].strength, 1.0f64.max(by_tags));
    assert_eq!(r[0].co_recalls, 12);
    assert_eq!(r[0].shared_tags, vec!["garden".to_string()]);
    assert!(r[1].shared_tags.is_empty() && r[1].co_recalls == 12);
}

#[test]
fn shared_content_links_travel_with_an_export_too() {
    let (mut e, _clock) = engine_with_config(without_dedup());
    let clay = seed_one(
        &mut e,
        tagged(OWNER, "Clay needs two days to dry", &["pottery", "Studio"]),
    );
    let kiln = seed_one(
        &mut e,
        tagged(
            OWNER,
            "The kiln reaches 1200 degrees",
            &["pottery", "Studio"],
        ),
    );
    e.consolidate().unwrap();
    let linked = related(&mut e, &clay);
    assert_eq!(linked.len(), 1);
    assert_eq!(linked[0].memory.id, kiln);
    assert!(!linked[0].shared_tags.is_empty(), "{:?}", linked[0]);
    let jsonl = e.export_jsonl(OWNER).unwrap();
    assert_eq!(
        jsonl.matches("\"kind\":\"shared\"").count(),
        1,
        "listed once"
    );

    // Imported, the pair is related before any consolidation, and exports the same.
    let mut f = Engine::builder(ManualClock::new(T0))
        .config(without_dedup())
        .open_in_memory()
        .unwrap();
    f.import_jsonl(jsonl.as_bytes()).unwrap();
    let back = related(&mut f, &clay);
    assert_eq!(
        back.iter()
            .map(|r| (&r.memory.id, r.strength, &r.shared_tags))
            .collect::<Vec<_>>(),
        linked
            .iter()
            .map(|r| (&r.memory.id, r.strength, &r.shared_tags))
            .collect::<Vec<_>>()
    );
    assert_eq!(f.export_jsonl(OWNER).unwrap(), jsonl);

    // A bad kind, or a shared link with a negative count, fails the whole import.
    for (from, to) in [
        ("\"kind\":\"shared\"", "\"kind\":\"friend\""),
        ("\"kind\":\"shared\"", "\"kind\":\"SHARED\""),
        ("\"kind\":\"shared\"", "\"kind\":null"),
        (
            "\"kind\":\"shared\",\"co_recalls\":",
            "\"kind\":\"shared\",\"co_recalls\":-",
        ),
    ] {
        assert!(jsonl.contains(from), "{from}");
        let mut g = Engine::builder(ManualClock::new(T0))
            .open_in_memory()
            .unwrap();
        let err = g
            .import_jsonl(jsonl.replacen(from, to, 1).as_bytes())
            .unwrap_err();
        assert_eq!(err.code(), "import_error", "{to}: {err}");
        assert!(all_states(&mut g, OWNER).is_empty(), "{to}");
    }
}
