//! Consolidation with a moved clock: stale-edge cleanup (superseded evidence withdrawn, stale
//! weak relationships removed), size-bounded pruning (least useful archived, still found by
//! archive searches, back when used, pinned never), the cadence `maintain` runs it on, its
//! bound per run, idempotence, owner isolation, and settings refused before anything runs.
mod common;

use common::*;
use mnemo_core::consolidate::Consolidation;
use mnemo_core::*;

fn engine_with(config: Config) -> (Engine, ManualClock) {
    let clock = ManualClock::new(T0);
    let e = Engine::builder(clock.clone())
        .config(config)
        .open_in_memory()
        .unwrap();
    (e, clock)
}

/// A configuration with pruning above `max` memories per owner and dedup off (the tests'
/// memories are alike on purpose).
fn bounded(max: u64) -> Config {
    let mut config = Config::default();
    config.consolidation.max_memories = Some(max);
    config.dedup.enabled = false;
    config
}

fn consolidate(e: &mut Engine) -> Consolidation {
    e.consolidate()
        .unwrap()
        .consolidation
        .expect("consolidate always consolidates")
}

fn relations(e: &mut Engine, owner: &str) -> Vec<String> {
    let mut all: Vec<String> = e
        .relationships(&RelationshipsRequest {
            entity_id: owner.into(),
            ..Default::default()
        })
        .unwrap()
        .into_iter()
        .map(|r| format!("{} {} {}", r.from, r.relation, r.to))
        .collect();
    all.sort();
    all
}

fn relation(from: &str, relation: Relation, to: &str, confidence: f64) -> Extracted {
    Extracted {
        content: format!("{from} {relation} {to}"),
        relationships: vec![RelationMention {
            from: from.into(),
            relation,
            to: to.into(),
            confidence,
        }],
        ..Default::default()
    }
}

#[test]
fn superseded_memories_take_their_relationships_with_them() {
    let (mut e, clock) = engine_with(Config::default());
    e.remember("kai", "I work at Acme.", RememberOptions::default())
        .unwrap();
    clock.advance(DAY_MS);
    e.remember("kai", "I work at Globex now.", RememberOptions::default())
        .unwrap();
    // Ana's graph holds the same relationship from a memory that was not superseded.
    e.remember("ana", "I work at Acme.", RememberOptions::default())
        .unwrap();
    assert!(relations(&mut e, "kai").contains(&"user works_at Acme".to_string()));

    let c = consolidate(&mut e);
    assert_eq!(c.edges.evidence_withdrawn, 2, "works_at and its reverse");
    assert_eq!(c.edges.relationships_removed, 2);
    assert!(!c.more);
    assert_eq!(
        relations(&mut e, "kai"),
        ["Globex employs user", "user works_at Globex"]
    );
    assert_eq!(
        relations(&mut e, "ana"),
        ["Acme employs user", "user works_at Acme"],
        "another owner's graph is untouched"
    );
    // A second run finds nothing left to do.
    assert_eq!(consolidate(&mut e), Consolidation::default());
}

#[test]
fn stale_weak_relationships_go_after_seven_days_and_strong_ones_stay() {
    let (mut e, clock) = engine_with(Config::default());
    e.remember_extracted(
        "kai",
        vec![
            relation("user", Relation::WorksAt, "Acme", 0.8),
            relation("user", Relation::Likes, "Jazz", 0.3),
            relation("user", Relation::Likes, "Opera", 0.35),
            relation("user", Relation::Likes, "Tea", 0.36),
        ],
        RememberOptions::default(),
    )
    .unwrap();
    let all = [
        "Acme employs user",
        "user likes Jazz",
        "user likes Opera",
        "user likes Tea",
        "user works_at Acme",
    ];
    assert_eq!(relations(&mut e, "kai"), all);

    clock.advance(7 * DAY_MS - 1);
    assert_eq!(consolidate(&mut e).edges.relationships_removed, 0);
    assert_eq!(relations(&mut e, "kai"), all, "not stale yet");

    clock.advance(1);
    let c = consolidate(&mut e);
    assert_eq!(c.edges.relationships_removed, 2, "{c:?}");
    assert_eq!(
        relations(&mut e, "kai"),
        ["Acme employs user", "user likes Tea", "user works_at Acme"],
        "confidence at most 0.35 goes; 0.36 and 0.8 stay"
    );
    assert_eq!(consolidate(&mut e), Consolidation::default());
}

/// Seeds `n` memories for `owner`, the first oldest (`apart` ms apart, the last made now).
fn seed_aged(e: &mut Engine, owner: &str, n: usize, apart: i64) -> Vec<String> {
    let items = (0..n)
        .map(|i| NewMemory {
            created_at: Some(T0 - (n - 1 - i) as i64 * apart),
            ..mem(owner, &format!("{owner} note number {i} about item{i}"))
        })
        .collect();
    let report = e.seed(items).unwrap();
    report.stored_ids().into_iter().map(String::from).collect()
}

fn ids_in(e: &mut Engine, owner: &str, state: State) -> Vec<String> {
    let mut ids: Vec<String> = e
        .list(&ListRequest {
            entity_id: owner.into(),
            states: vec![state],
            limit: Some(1000),
            ..Default::default()
        })
        .unwrap()
        .memories
        .into_iter()
        .map(|m| m.id)
        .collect();
    ids.sort();
    ids
}

/// Whether a search of `owner` for `query` returns memory `id`.
fn finds(e: &mut Engine, owner: &str, query: &str, id: &str, include_archived: bool) -> bool {
    e.search(&SearchRequest {
        entity_id: owner.into(),
        query: query.into(),
        include_archived,
        ..Default::default()
    })
    .unwrap()
    .iter()
    .any(|h| h.memory.id == id)
}

#[test]
fn pruning_archives_the_least_useful_memories_of_an_owner_over_the_bound() {
    let (mut e, clock) = engine_with(bounded(10));
    let kai = seed_aged(&mut e, "kai", 12, DAY_MS);
    let ana = seed_aged(&mut e, "ana", 6, DAY_MS);
    // The oldest is used (feedback +3 and touched now); the next is pinned.
    e.reinforce("kai", &kai[0]).unwrap();
    e.pin("kai", &kai[1], true).unwrap();

    let c = consolidate(&mut e);
    assert_eq!(
        (c.pruning.owners_over, c.pruning.archived, c.pruning.more),
        (1, 2, false)
    );
    let mut expected = vec![kai[2].clone(), kai[3].clone()];
    expected.sort();
    assert_eq!(ids_in(&mut e, "kai", State::Archived), expected);
    assert!(ids_in(&mut e, "ana", State::Archived).is_empty());
    assert_eq!(ana.len(), 6);

    // Idempotent, and decay does not bring them back as time passes.
    assert_eq!(consolidate(&mut e), Consolidation::default());
    clock.advance(3 * DAY_MS);
    e.maintain().unwrap();
    assert_eq!(ids_in(&mut e, "kai", State::Archived), expected);

    // Out of ordinary searches; an archive search finds one, and being found is a use that
    // brings it back.
    assert!(!finds(&mut e, "kai", "item2", &kai[2], false));
    assert!(finds(&mut e, "kai", "item2", &kai[2], true));
    assert!(!ids_in(&mut e, "kai", State::Archived).contains(&kai[2]));
    assert!(finds(&mut e, "kai", "item2", &kai[2], false));
}

#[test]
fn pruning_is_bounded_per_run_and_finishes_over_runs() {
    let (mut e, _clock) = engine_with(bounded(100));
    seed_aged(&mut e, "kai", 1250, 60_000);
    let first = consolidate(&mut e);
    assert_eq!((first.pruning.archived, first.more), (1000, true));
    let second = consolidate(&mut e);
    assert_eq!((second.pruning.archived, second.more), (150, false));
    assert_eq!(consolidate(&mut e), Consolidation::default());
    assert_eq!(ids_in(&mut e, "kai", State::Active).len(), 100);
    // Pruning never deletes.
    assert_eq!(e.stats("kai").unwrap().total, 1250);
}

#[test]
fn maintain_consolidates_once_a_day() {
    let (mut e, clock) = engine_with(bounded(5));
    seed_aged(&mut e, "kai", 6, 60_000);
    let first = e.maintain().unwrap().consolidation.expect("first run");
    assert_eq!(first.pruning.archived, 1);
    seed_aged(&mut e, "ana", 6, DAY_MS);
    clock.advance(DAY_MS - 1);
    assert_eq!(e.maintain().unwrap().consolidation, None, "not due yet");
    clock.advance(1);
    let next = e.maintain().unwrap().consolidation.expect("a day later");
    assert_eq!(next.pruning.archived, 1, "ana's turn");
}

#[test]
fn bad_consolidation_settings_are_refused() {
    type Spoil = fn(&mut Config);
    let bad: [(&str, Spoil); 6] = [
        ("max_memories", |c| c.consolidation.max_memories = Some(0)),
        ("prune_percent", |c| {
            c.consolidation.prune_percent = f64::NAN
        }),
        ("prune_percent", |c| c.consolidation.prune_percent = 101.0),
        ("every_hours", |c| c.consolidation.every_hours = -1.0),
        ("stale_edge_days", |c| {
            c.consolidation.stale_edge_days = f64::INFINITY
        }),
        ("stale_edge_confidence", |c| {
            c.consolidation.stale_edge_confidence = 1.5
        }),
    ];
    for (field, spoil) in bad {
        let mut config = Config::default();
        spoil(&mut config);
        let err = Engine::builder(ManualClock::new(T0))
            .config(config)
            .open_in_memory()
            .err()
            .unwrap_or_else(|| panic!("{field} accepted"));
        assert!(
            err.to_string()
                .contains(&format!("config.consolidation.{field}")),
            "{err}"
        );
    }
    let unknown = serde_json::from_value::<Config>(serde_json::json!({
        "consolidation": { "max_memory": 10 }
    }));
    assert!(unknown.unwrap_err().to_string().contains("max_memory"));
}
