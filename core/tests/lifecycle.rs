//! Decay and lifecycle through the engine, with the clock moved by the test.
mod common;

use common::*;
use mnemo_core::*;

const HOUR: Millis = 3_600_000;

fn seeded(e: &mut Engine, ty: MemoryType, content: &str) -> String {
    seed_one(
        e,
        NewMemory {
            memory_type: Some(ty),
            ..mem("u", content)
        },
    )
}

fn state(e: &mut Engine, id: &str) -> State {
    peek(e, "u", id).state
}

#[test]
fn ephemeral_memory_walks_the_whole_lifecycle_and_is_purged() {
    let (mut e, clock) = engine();
    let id = seeded(&mut e, MemoryType::Ephemeral, "parked on level 3"); // τ = 3 days
                                                                         // STALE after 3·ln(1/0.3) = 3.61 d, ARCHIVED after 3·ln(10) = 6.91 d, DELETED after 13.8 d.
    clock.set(T0 + 3 * DAY_MS);
    assert_eq!(e.maintain().unwrap().to_stale, 0);
    assert_eq!(state(&mut e, &id), State::Active);
    clock.set(T0 + 4 * DAY_MS);
    let r = e.maintain().unwrap();
    assert_eq!((r.to_stale, r.examined), (1, 1));
    assert_eq!(state(&mut e, &id), State::Stale);
    clock.set(T0 + 7 * DAY_MS);
    assert_eq!(e.maintain().unwrap().to_archived, 1);
    assert_eq!(state(&mut e, &id), State::Archived);
    clock.set(T0 + 14 * DAY_MS);
    assert_eq!(e.maintain().unwrap().to_deleted, 1);
    assert_eq!(state(&mut e, &id), State::Deleted);
    assert_eq!(e.get("u", &id).unwrap_err().code(), "not_found");
    // Purged 90 days after deletion (deleted at the crossing, 13.8 d).
    clock.set(T0 + 100 * DAY_MS);
    assert_eq!(e.maintain().unwrap().purged, 0);
    clock.set(T0 + 104 * DAY_MS);
    assert_eq!(e.maintain().unwrap().purged, 1);
    assert_eq!(e.stats("u").unwrap().by_state.get("DELETED"), None);
    assert_eq!(e.status_history("u", &id).unwrap_err().code(), "not_found");
}

#[test]
fn maintain_is_idempotent_and_touches_only_due_rows() {
    let (mut e, clock) = engine();
    let stale = seeded(
        &mut e,
        MemoryType::Ephemeral,
        "the wifi password is on the fridge",
    );
    for i in 0..20 {
        seeded(
            &mut e,
            MemoryType::Identity,
            &format!("identity fact number {i} about birthplace {i}"),
        );
    }
    clock.set(T0 + HOUR); // working → episodic promotion is due for all 21 after 30 min
    let r = e.maintain().unwrap();
    assert_eq!((r.examined, r.promoted), (21, 21));
    assert_eq!(e.maintain().unwrap(), MaintainReport::default());
    clock.set(T0 + 5 * DAY_MS);
    let r = e.maintain().unwrap();
    // Only the ephemeral memory can have changed; the identities are not due for a year.
    assert_eq!((r.examined, r.to_stale), (1, 1));
    assert_eq!(state(&mut e, &stale), State::Stale);
    assert_eq!(e.maintain().unwrap(), MaintainReport::default());
}

#[test]
fn a_late_maintain_lands_in_the_same_state_as_a_punctual_one() {
    let (mut a, ca) = engine();
    let (mut b, cb) = engine();
    let ia = seeded(
        &mut a,
        MemoryType::Context,
        "we are debugging the login page",
    );
    let ib = seeded(
        &mut b,
        MemoryType::Context,
        "we are debugging the login page",
    );
    for d in 1..=60 {
        ca.set(T0 + d * DAY_MS);
        a.maintain().unwrap();
    }
    cb.set(T0 + 60 * DAY_MS);
    b.maintain().unwrap();
    let (ma, mb) = (peek(&mut a, "u", &ia), peek(&mut b, "u", &ib));
    assert_eq!(
        (ma.state, ma.state_changed_at),
        (mb.state, mb.state_changed_at)
    );
    assert_eq!(ma.state, State::Archived);
}

#[test]
fn exemptions_pinned_schedules_and_semantic_layer() {
    let (mut e, clock) = engine();
    let pinned = seeded(&mut e, MemoryType::Ephemeral, "pinned ephemeral note");
    e.pin("u", &pinned, true).unwrap();
    let cron = seed_one(
        &mut e,
        NewMemory {
            memory_type: Some(MemoryType::Ephemeral),
            cron_tag: Some("cron:daily:09:00".into()),
            ..mem("u", "water the plants")
        },
    );
    let semantic = seed_one(
        &mut e,
        NewMemory {
            memory_type: Some(MemoryType::Ephemeral),
            layer: Some(Layer::Semantic),
            ..mem("u", "the API uses JWT tokens")
        },
    );
    let plain = seeded(&mut e, MemoryType::Ephemeral, "plain ephemeral note");
    clock.set(T0 + 60 * DAY_MS);
    e.maintain().unwrap();
    for id in [&pinned, &cron, &semantic] {
        assert_eq!(state(&mut e, id), State::Active, "{id}");
    }
    assert_eq!(state(&mut e, &plain), State::Deleted);
    // A year on, the plain one is purged (90 days after its deletion); the others stay.
    clock.set(T0 + 365 * DAY_MS);
    e.maintain().unwrap();
    let left: Vec<String> = all_states(&mut e, "u").into_iter().map(|m| m.id).collect();
    assert_eq!(left.len(), 3);
    assert!(!left.contains(&plain));
    // Unpinning counts as an access: it decays again from now (two accesses: τ_eff 4.6 d).
    e.pin("u", &pinned, false).unwrap();
    e.maintain().unwrap();
    assert_eq!(state(&mut e, &pinned), State::Active);
    clock.set(T0 + 380 * DAY_MS);
    e.maintain().unwrap();
    assert_eq!(state(&mut e, &pinned), State::Archived);
}

#[test]
fn archived_memories_leave_default_search_and_come_back_on_explicit_access() {
    let (mut e, clock) = engine();
    let id = seeded(
        &mut e,
        MemoryType::Ephemeral,
        "the spare key is under the blue pot",
    );
    clock.set(T0 + 8 * DAY_MS);
    e.maintain().unwrap();
    assert_eq!(state(&mut e, &id), State::Archived);
    assert!(search(&mut e, "u", "spare key blue pot").is_empty());
    let archived = e
        .search(&SearchRequest {
            include_archived: true,
            ..SearchRequest::new(common::id("u"), "spare key blue pot")
        })
        .unwrap();
    assert_eq!(ids(&archived), vec![id.clone()]);
    // That search hit was an access: the memory is ACTIVE again.
    assert_eq!(state(&mut e, &id), State::Active);
    // One access: τ_eff = 3·(1 + 0.5·ln 2) = 4.04 d, archived 9.3 d after that access.
    clock.set(T0 + 18 * DAY_MS);
    e.maintain().unwrap();
    assert_eq!(state(&mut e, &id), State::Archived);
    let m = e.get("u", &id).unwrap();
    assert_eq!(
        (m.state, m.state_changed_at),
        (State::Active, T0 + 18 * DAY_MS)
    );
}

#[test]
fn stale_memories_rank_below_equally_relevant_active_ones() {
    let (mut e, clock) = engine();
    let old = seeded(
        &mut e,
        MemoryType::Plan,
        "book the dentist appointment for tuesday",
    );
    clock.set(T0 + 80 * DAY_MS); // PLAN τ = 60 d: stale after 72 d
    let new = seeded(
        &mut e,
        MemoryType::Plan,
        "book the dentist appointment for thursday",
    );
    e.maintain().unwrap();
    assert_eq!(state(&mut e, &old), State::Stale);
    let hits = search(&mut e, "u", "dentist appointment");
    assert_eq!(ids(&hits), vec![new, old]);
    assert_eq!(hits[1].why.state_multiplier, 0.7);
    assert_eq!(hits[0].why.state_multiplier, 1.0);
}

#[test]
fn layer_promotion_by_time_and_by_use() {
    let (mut e, clock) = engine();
    let id = seed_one(
        &mut e,
        NewMemory {
            importance: Some(unit(0.9)),
            ..mem("u", "deploys go out on fridays after review")
        },
    );
    assert_eq!(peek(&mut e, "u", &id).layer, Layer::Working);
    clock.advance(31 * 60_000);
    e.maintain().unwrap();
    assert_eq!(e.get("u", &id).unwrap().layer, Layer::Episodic);
    for _ in 0..4 {
        e.get("u", &id).unwrap();
    }
    // Importance ≥ 0.7 and 5 accesses: semantic, and so exempt from decay.
    let m = e.get("u", &id).unwrap();
    assert_eq!((m.layer, m.access_count), (Layer::Semantic, 6));
}

#[test]
fn a_layer_set_by_hand_stays_and_is_in_the_history() {
    let (mut e, clock) = engine();
    let id = seed_one(
        &mut e,
        NewMemory {
            importance: Some(unit(0.9)),
            ..mem("u", "the staging database is called pluto")
        },
    );
    clock.advance(31 * 60_000);
    e.maintain().unwrap();
    for _ in 0..5 {
        e.get("u", &id).unwrap();
    }
    assert_eq!(peek(&mut e, "u", &id).layer, Layer::Semantic);
    // Demoted by hand: however used and important it is, it is not promoted again, and it
    // decays as a working memory does.
    let at = clock.now();
    let m = e
        .set_layer("u", &id, Layer::Working, "only while we migrate")
        .unwrap();
    assert_eq!((m.layer, m.layer_set_at), (Layer::Working, Some(at)));
    for _ in 0..6 {
        e.get("u", &id).unwrap();
    }
    clock.advance(31 * 60_000);
    e.maintain().unwrap();
    assert_eq!(peek(&mut e, "u", &id).layer, Layer::Working);
    clock.advance(400 * 24 * HOUR);
    e.maintain().unwrap();
    assert_ne!(state(&mut e, &id), State::Active, "a working memory decays");
    // Promoted by hand to procedural: exempt from decay from then on.
    let m = e
        .set_layer("u", &id, Layer::Procedural, "how we name databases")
        .unwrap();
    assert_eq!(m.layer, Layer::Procedural);
    let moves: Vec<LayerChange> = e
        .status_history("u", &id)
        .unwrap()
        .iter()
        .filter_map(|c| c.layer)
        .collect();
    assert_eq!(
        moves,
        [
            LayerChange {
                old: Layer::Semantic,
                new: Layer::Working
            },
            LayerChange {
                old: Layer::Working,
                new: Layer::Procedural
            },
        ]
    );
    // The same layer again, a passage, and a bad reason are refused, and change nothing.
    let before = peek(&mut e, "u", &id);
    for (bad, why) in [
        (
            e.set_layer("u", &id, Layer::Procedural, "again"),
            "already in the procedural layer",
        ),
        (e.set_layer("u", &id, Layer::Episodic, " "), "reason"),
        (
            e.set_layer("v", &id, Layer::Episodic, "not v's"),
            "no memory",
        ),
    ] {
        let err = bad.unwrap_err();
        assert!(err.to_string().contains(why), "{err}");
    }
    assert_eq!(peek(&mut e, "u", &id), before);
    assert_eq!(e.status_history("u", &id).unwrap().len(), 2);
    let doc = e
        .ingest(serde_json::from_value(serde_json::json!({
            "entity_id": "u", "title": "Runbook", "content": "Restart the queue before the database."
        })).unwrap())
        .unwrap();
    let detail = e
        .document(
            &serde_json::from_value(serde_json::json!({"entity_id": "u", "id": doc.document.id}))
                .unwrap(),
        )
        .unwrap();
    let passage = detail.passages[0].memory_id.clone();
    let err = e
        .set_layer("u", &passage, Layer::Working, "no")
        .unwrap_err();
    assert!(err.to_string().contains("passage of a document"), "{err}");
}

#[test]
fn retention_modes_change_when_memories_go_stale() {
    let day = |e: &mut Engine, clock: &ManualClock, d: i64| {
        clock.set(T0 + d * DAY_MS);
        e.maintain().unwrap();
    };
    let mut stale_day = Vec::new();
    for mode in [
        RetentionMode::Exponential,
        RetentionMode::Huber,
        RetentionMode::Elastic,
    ] {
        let clock = ManualClock::new(T0);
        let cfg = Config {
            retention: RetentionConfig {
                mode,
                ..Default::default()
            },
            ..Default::default()
        };
        let mut e = Engine::builder(clock.clone())
            .config(cfg)
            .open_in_memory()
            .unwrap();
        let id = seeded(&mut e, MemoryType::Event, "graduated from university");
        let mut d = 0;
        while state(&mut e, &id) == State::Active && d < 1000 {
            d += 1;
            day(&mut e, &clock, d);
        }
        stale_day.push(d);
    }
    // EVENT, τ = 120 d, half-life 83.2 d. Exponential: 120·ln(1/0.3) = 144.5 d.
    // Huber: e^(−t/τ) to t0 = 41.6 d (0.707), then −0.707/120 per day: 0.3 at 110.7 d.
    // Elastic: 0.3·(1 − t/166.4) + 0.7·e^(−t/120) = 0.3 at 130.9 d.
    assert_eq!(stale_day, vec![145, 111, 131]);
}

#[test]
fn trust_weighting_makes_imports_decay_faster() {
    let clock = ManualClock::new(T0);
    let cfg = Config {
        retention: RetentionConfig {
            trust_weighted: true,
            ..Default::default()
        },
        ..Default::default()
    };
    let mut e = Engine::builder(clock.clone())
        .config(cfg)
        .open_in_memory()
        .unwrap();
    let user = seed_one(
        &mut e,
        NewMemory {
            source: Some(Source::User),
            memory_type: Some(MemoryType::Context),
            ..mem("u", "user said the budget is 40k")
        },
    );
    let import = seed_one(
        &mut e,
        NewMemory {
            source: Some(Source::Import),
            memory_type: Some(MemoryType::Context),
            ..mem("u", "imported note on quarterly revenue")
        },
    );
    clock.set(T0 + 15 * DAY_MS); // import τ = 21/2 = 10.5 d → stale after 12.6 d; user after 25.3 d
    e.maintain().unwrap();
    assert_eq!(state(&mut e, &user), State::Active);
    assert_eq!(state(&mut e, &import), State::Stale);
}

#[test]
fn a_repeat_said_before_a_memory_was_archived_does_not_revive_it() {
    let (mut e, clock) = engine();
    let content = "the spare key is under the blue pot";
    let id = seeded(&mut e, MemoryType::Ephemeral, content);
    clock.set(T0 + 8 * DAY_MS);
    e.maintain().unwrap();
    let archived = peek(&mut e, "u", &id);
    assert_eq!(archived.state, State::Archived);
    // Seeded history repeats it, dated before it was archived: a use back then, not a revival.
    let repeat = |at: Millis| NewMemory {
        memory_type: Some(MemoryType::Ephemeral),
        created_at: Some(at),
        ..mem("u", content)
    };
    e.seed(vec![repeat(T0 + DAY_MS)]).unwrap();
    let m = peek(&mut e, "u", &id);
    assert_eq!(
        (m.state, m.state_changed_at, m.last_accessed_at),
        (
            State::Archived,
            archived.state_changed_at,
            Some(T0 + DAY_MS)
        )
    );
    // Said after it was archived, it is in use again from then.
    e.seed(vec![repeat(T0 + 8 * DAY_MS)]).unwrap();
    let m = peek(&mut e, "u", &id);
    assert_eq!(
        (m.state, m.state_changed_at),
        (State::Active, T0 + 8 * DAY_MS)
    );
}
