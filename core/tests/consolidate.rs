//! Consolidation with a moved clock: stale-edge cleanup (superseded evidence withdrawn, stale
//! weak relationships removed), size-bounded pruning (least useful archived, still found by
//! archive searches, back when used, pinned never), the cadence `maintain` runs it on, its
//! bound per run, idempotence, owner isolation, and settings refused before anything runs.
mod common;

use common::*;
use mnemo_core::consolidate::{
    ClusterReport, Consolidation, ProbeReport, QuantiseReport, RelateReport, TiersReport,
    CHALLENGE_IMPORTANCE_LOSS,
};
use mnemo_core::*;

/// An engine on the hashing embedder: the pruning tests' memories are alike in wording on
/// purpose, and the distilled default would rightly cluster and merge them first.
fn engine_with(config: Config) -> (Engine, ManualClock) {
    let clock = ManualClock::new(T0);
    let e = Engine::builder(clock.clone())
        .embedder(HashEmbedder::default())
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

/// A run that changed nothing (it may still have looked at memories).
fn assert_did_nothing(c: &Consolidation) {
    let looked = Consolidation {
        clusters: ClusterReport {
            examined: c.clusters.examined,
            ..Default::default()
        },
        relationships: RelateReport {
            examined: c.relationships.examined,
            ..Default::default()
        },
        tiers: TiersReport {
            examined: c.tiers.examined,
            ..Default::default()
        },
        quantisation: QuantiseReport {
            examined: c.quantisation.examined,
            ..Default::default()
        },
        ..Default::default()
    };
    assert_eq!(c, &looked);
}

/// Five things said about Ana's tea: near-duplicates once their vectors say so.
const TEA: [&str; 5] = [
    "Ana drinks green tea.",
    "Ana drinks green tea every morning.",
    "Ana likes sencha best.",
    "Ana buys her tea in Porto.",
    "Ana gave up coffee for tea.",
];

fn relations(e: &mut Engine, owner: &str) -> Vec<String> {
    let mut all: Vec<String> = e
        .relationships(&RelationshipsRequest::new(id(owner)))
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
    assert_did_nothing(&consolidate(&mut e));
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
    assert_did_nothing(&consolidate(&mut e));
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
            states: vec![state],
            limit: limit(1000),
            ..ListRequest::new(id(owner))
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
        include_archived,
        ..SearchRequest::new(common::id(owner), query)
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
    assert_eq!(
        ids_in(&mut e, "ana", State::Active).len(),
        ana.len(),
        "ana is under the bound"
    );

    // Idempotent, and decay does not bring them back as time passes.
    assert_did_nothing(&consolidate(&mut e));
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
fn pruning_leaves_a_document_whole_and_does_not_count_its_passages() {
    let (mut e, _clock) = engine_with(bounded(3));
    let text: String = (0..40)
        .map(|i| format!("Section {i} of the handbook explains rule number {i} at length. "))
        .collect();
    let req: mnemo_core::document::IngestRequest = serde_json::from_value(
        serde_json::json!({"entity_id": "kai", "title": "Handbook", "content": text, "tags": ["keep"]}),
    )
    .unwrap();
    assert!(e.ingest(req).unwrap().document.passages > 1);
    seed_aged(&mut e, "kai", 3, DAY_MS);
    let c = consolidate(&mut e);
    assert_eq!(
        (c.pruning.owners_over, c.pruning.archived),
        (0, 0),
        "three memories and a document are within a bound of three"
    );
    e.seed(vec![
        mem("kai", "Kai plays the cello on Monday evenings"),
        mem("kai", "Kai keeps a blue bicycle in the hall"),
    ])
    .unwrap();
    let c = consolidate(&mut e);
    assert_eq!((c.pruning.owners_over, c.pruning.archived), (1, 2));
    let archived = e
        .list(&ListRequest {
            states: vec![State::Archived],
            limit: limit(1000),
            ..ListRequest::new(id("kai"))
        })
        .unwrap();
    assert_eq!(archived.memories.len(), 2);
    assert!(
        archived.memories.iter().all(|m| m.kind != Kind::Passage),
        "no passage is archived"
    );
}

#[test]
fn pruning_is_bounded_per_run_and_finishes_over_runs() {
    let (mut e, _clock) = engine_with(bounded(100));
    seed_aged(&mut e, "kai", 1250, 60_000);
    let first = consolidate(&mut e);
    assert_eq!((first.pruning.archived, first.pruning.more), (1000, true));
    // Re-quantisation is bounded the same way: 1,250 new vectors are due.
    assert_eq!(
        (first.quantisation.examined, first.quantisation.more),
        (1000, true)
    );
    let second = consolidate(&mut e);
    assert_eq!((second.pruning.archived, second.pruning.more), (150, false));
    assert_did_nothing(&consolidate(&mut e));
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

#[test]
fn near_duplicates_in_clusters_of_five_become_one_memory_that_keeps_what_each_said() {
    let mut config = Config::default();
    config.dedup.enabled = false;
    let (mut e, _clock) = vector_engine(config);
    let said = TEA;
    let near = [0.99, 0.97, 0.95, 0.93, 0.91];
    let mut items: Vec<NewMemory> = said
        .iter()
        .zip(near)
        .map(|(s, c)| vmem("kai", s, at_cosine(c)))
        .collect();
    // Far from them: stays alone. Bo holds the same five vectors but one fewer memory.
    items.push(vmem(
        "kai",
        "Kai repairs old radios.",
        vec![0.0, 0.0, 1.0, 0.0],
    ));
    items.extend(
        said.iter()
            .zip(near)
            .take(4)
            .map(|(s, c)| vmem("bo", s, at_cosine(c))),
    );
    e.seed(items).unwrap();

    let c = consolidate(&mut e).clusters;
    assert_eq!((c.clusters, c.merged, c.more), (1, 5, false), "{c:?}");
    let merged = e
        .list(&ListRequest {
            statuses: vec![Status::Merged],
            ..ListRequest::new(id("kai"))
        })
        .unwrap()
        .memories;
    assert_eq!(merged.len(), 5);
    let into = merged[0]
        .merged_into
        .clone()
        .expect("merged into one memory");
    assert!(merged
        .iter()
        .all(|m| m.merged_into.as_deref() == Some(&into)));
    let history = e.status_history("kai", &merged[0].id).unwrap();
    assert!(
        history[0].reason.contains("consolidated into"),
        "{history:?}"
    );
    // Nothing said is lost: the new memory holds every statement.
    let one = e.get("kai", &into).unwrap();
    for s in said {
        let words = s.trim_end_matches('.');
        assert!(
            one.content.contains(words) || words.split(' ').all(|w| one.content.contains(w)),
            "{s:?} lost from {:?}",
            one.content
        );
    }
    assert_eq!(one.status, Status::Active);
    // Only it and the radio are in use now; Bo's four are not a cluster.
    assert_eq!(e.stats("kai").unwrap().by_status["active"], 2);
    assert_eq!(e.stats("bo").unwrap().by_status["active"], 4);
    // A search finds the one memory, not the five.
    let hits = e
        .search(&SearchRequest {
            vector: Some(at_cosine(0.98)),
            ..SearchRequest::new(id("kai"), "tea")
        })
        .unwrap();
    assert_eq!(hits[0].memory.id, into);
    assert!(hits.iter().all(|h| h.memory.status == Status::Active));
    assert_did_nothing(&consolidate(&mut e));
}

/// Environment variable that turns this test binary into the consolidating child.
const CHILD: &str = "MNEMO_CONSOLIDATE_CHILD_DB";

/// The child: seed 50 memories, consolidate (bound 100), print the archived total after each
/// consolidation committed; forever. Run only by `a_killed_consolidation_leaves_a_whole_store`.
#[test]
#[ignore = "the consolidating process of a_killed_consolidation_leaves_a_whole_store"]
fn consolidating_child() {
    let Some(path) = std::env::var_os(CHILD) else {
        return;
    };
    let clock = ManualClock::new(T0);
    let mut e = Engine::builder(clock.clone())
        .config(bounded(100))
        .open(&path)
        .unwrap();
    let mut archived = 0;
    for batch in 0.. {
        let items = (0..50)
            .map(|i| mem("u", &format!("batch {batch} note {i} about topic{}", i % 7)))
            .collect();
        e.seed(items).unwrap();
        clock.advance(60_000);
        archived += consolidate(&mut e).pruning.archived;
        println!("archived {archived}");
    }
}

#[test]
fn a_killed_consolidation_leaves_a_whole_store() {
    use std::io::{BufRead, BufReader};
    if std::env::var_os(CHILD).is_some() {
        return;
    }
    let dir = TempDir::new("consolidate-crash");
    let path = dir.file("m.db");
    let mut child = spawn_writer("consolidating_child", CHILD, &path);
    let mut acked = 0;
    let mut runs = 0;
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    while runs < 15 {
        let line = lines.next().expect("child stopped early").unwrap();
        if let Some(n) = line.strip_prefix("archived ") {
            acked = n.parse().unwrap();
            runs += 1;
        }
    }
    kill_and_check(child, &path);
    let mut e = Engine::builder(ManualClock::new(T0 + DAY_MS))
        .config(bounded(100))
        .open(&path)
        .unwrap();
    // Every acknowledged consolidation is there; the next run finishes what was cut short.
    let count = |e: &mut Engine| {
        let s = e.stats("u").unwrap();
        let n =
            |m: &std::collections::BTreeMap<String, usize>, k: &str| m.get(k).copied().unwrap_or(0);
        // (archived, in use: status active and not archived — pruning archives only those)
        (
            n(&s.by_state, "ARCHIVED"),
            n(&s.by_status, "active") - n(&s.by_state, "ARCHIVED"),
        )
    };
    let (archived, _) = count(&mut e);
    assert!(
        archived >= acked,
        "{archived} archived, {acked} acknowledged"
    );
    consolidate(&mut e);
    let (_, in_use) = count(&mut e);
    assert!(
        in_use <= 100,
        "{in_use} in use: {:?}",
        e.stats("u").unwrap()
    );
    assert_did_nothing(&consolidate(&mut e));
}

#[test]
fn memories_untagged_for_a_week_get_the_extractors_keywords_and_their_source() {
    let (mut e, clock) = engine_with(Config::default());
    let seeded = e
        .seed(vec![mem(
            "kai",
            "Ana moved to Lisbon to study marine biology.",
        )])
        .unwrap();
    let seeded = seeded.stored_ids()[0].to_string();
    let told = e
        .remember(
            "kai",
            "I play the cello on Sundays.",
            RememberOptions::default(),
        )
        .unwrap();
    let told = told.stored_ids()[0].to_string();
    let before = e.get("kai", &told).unwrap().auto_tags;
    assert!(!before.is_empty(), "the extractor tagged what it was told");
    assert!(e.get("kai", &seeded).unwrap().auto_tags.is_empty());
    // Bo's untagged memory is tagged too, but only with what Bo said.
    e.seed(vec![mem("bo", "Bo restores vintage motorbikes.")])
        .unwrap();

    clock.advance(7 * DAY_MS - 1);
    assert_eq!(consolidate(&mut e).tags.tagged, 0, "not a week yet");
    clock.advance(1);
    let c = consolidate(&mut e);
    assert_eq!((c.tags.tagged, c.tags.more), (2, false));
    let tags = e.get("kai", &seeded).unwrap().auto_tags;
    for t in ["lisbon", "marine", "biology", "agent"] {
        assert!(tags.contains(&t.to_string()), "{t} not in {tags:?}");
    }
    assert!(!tags.iter().any(|t| t.contains("motorbike")));
    assert_eq!(
        e.get("kai", &told).unwrap().auto_tags,
        before,
        "tagged ones stay as they were"
    );
    assert_did_nothing(&consolidate(&mut e));
}

#[test]
fn forgotten_and_purged_memories_take_their_relationships_with_them() {
    let (mut e, clock) = engine_with(Config::default());
    let said = |e: &mut Engine, owner: &str, text: &str| {
        let r = e.remember(owner, text, RememberOptions::default()).unwrap();
        r.stored_ids()[0].to_string()
    };
    let acme = said(&mut e, "kai", "I work at Acme.");
    said(&mut e, "kai", "My sister Ana lives in Porto.");
    e.forget("kai", &acme).unwrap();
    let c = consolidate(&mut e);
    assert_eq!(
        (c.edges.evidence_withdrawn, c.edges.relationships_removed),
        (2, 2),
        "{c:?}"
    );
    let kai = relations(&mut e, "kai");
    assert!(!kai.iter().any(|r| r.contains("Acme")), "{kai:?}");
    assert!(kai.iter().any(|r| r.contains("Ana")), "{kai:?}");

    // Purged before any consolidation saw it forgotten: the purge withdraws its evidence.
    let globex = said(&mut e, "bo", "I work at Globex.");
    e.forget("bo", &globex).unwrap();
    clock.advance(91 * DAY_MS);
    let m = e.maintain().unwrap();
    assert_eq!(m.purged, 2, "both forgotten memories");
    let c = m.consolidation.expect("a day has passed");
    assert_eq!(
        (c.edges.evidence_withdrawn, c.edges.relationships_removed),
        (0, 2),
        "{c:?}"
    );
    assert!(relations(&mut e, "bo").is_empty());
    assert_did_nothing(&consolidate(&mut e));
}

/// A cluster whose texts together are longer than one memory may be merges only as many as
/// fit (the most important first); the rest stay as they were, and the store's export imports
/// again. Before the bound, merges of merges grew memories to three times the limit.
#[test]
fn a_merged_memory_never_outgrows_what_a_caller_may_write() {
    let mut config = Config::default();
    config.dedup.enabled = false;
    let (mut e, _clock) = vector_engine(config);
    // Seven near-duplicates of 9,000 characters each: five fit in 50,000, seven do not.
    let long = |i: usize| {
        let mut s = String::new();
        let mut j = 0;
        while s.chars().count() < 9_000 {
            s.push_str(&format!("Ana noted detail k{i}x{j} about the harbour. "));
            j += 1;
        }
        s.trim().to_string()
    };
    let items: Vec<NewMemory> = (0..7)
        .map(|i| {
            let mut m = vmem("kai", &long(i), at_cosine(0.99 - 0.01 * i as f32));
            m.importance = Some(unit(0.9 - 0.1 * i as f64));
            m
        })
        .collect();
    e.seed(items).unwrap();
    let c = consolidate(&mut e).clusters;
    assert_eq!((c.clusters, c.merged), (1, 5), "{c:?}");
    let live = e
        .list(&ListRequest {
            statuses: vec![Status::Active],
            ..ListRequest::new(id("kai"))
        })
        .unwrap()
        .memories;
    assert_eq!(
        live.len(),
        3,
        "the merged memory and the two least important"
    );
    let longest = live
        .iter()
        .map(|m| m.content.chars().count())
        .max()
        .unwrap();
    assert!((45_000..=50_000).contains(&longest), "{longest}");
    for i in 5..7 {
        assert!(live.iter().any(|m| m.content == long(i)), "member {i} kept");
    }
    // Nothing more to merge: the merged memory and two members cannot fit together.
    let again = consolidate(&mut e).clusters;
    assert_eq!(again.clusters, 0, "{again:?}");
    let jsonl = e.export_jsonl("kai").unwrap();
    let (mut f, _) = vector_engine(Config::default());
    f.import_jsonl(jsonl.as_bytes())
        .expect("the export imports again");
}

/// Kai's five near-duplicates of `near_duplicates_in_clusters_of_five…`, merged by an engine
/// whose host LLM answers `answer`; returns the report, the merged memory, the members and
/// what the LLM was asked (instructions, text).
fn merged_with_llm(
    answer: impl Fn() -> Option<Result<String, String>> + 'static,
) -> (ClusterReport, Memory, Vec<Memory>, Vec<(String, String)>) {
    use std::sync::{Arc, Mutex};
    let asked = Arc::new(Mutex::new(Vec::new()));
    let log = asked.clone();
    let mut config = Config::default();
    config.dedup.enabled = false;
    let mut e = Engine::builder(ManualClock::new(T0))
        .config(config)
        .embedder(SuppliedVectors::new("test-4d", 4))
        .extractor(LlmExtractor(move |instructions: &str, text: &str, _now| {
            log.lock()
                .unwrap()
                .push((instructions.to_string(), text.to_string()));
            answer()
        }))
        .open_in_memory()
        .unwrap();
    let said = TEA;
    let items = said
        .iter()
        .zip([0.99, 0.97, 0.95, 0.93, 0.91])
        .map(|(s, c)| NewMemory {
            importance: Some(unit(if s.contains("Porto") { 0.9 } else { 0.5 })),
            ..vmem("kai", s, at_cosine(c))
        })
        .collect();
    e.seed(items).unwrap();
    let report = consolidate(&mut e).clusters;
    let all = all_states(&mut e, "kai");
    let (members, merged): (Vec<Memory>, Vec<Memory>) =
        all.into_iter().partition(|m| m.status == Status::Merged);
    assert_eq!(members.len(), 5, "{report:?}");
    // Each member keeps its own words, whatever the merged text became.
    let mut kept: Vec<&str> = members.iter().map(|m| m.content.as_str()).collect();
    kept.sort();
    let mut expected = said.to_vec();
    expected.sort();
    assert_eq!(kept, expected);
    let merged = merged.into_iter().next().expect("the merged memory");
    let asked = asked.lock().unwrap().clone();
    (report, merged, members, asked)
}

#[test]
fn the_hosts_llm_summarises_a_merged_cluster() {
    let (c, merged, _, asked) = merged_with_llm(|| {
        Some(Ok(r#"{"summary": "Ana gave up coffee and drinks green tea, sencha best, every morning; she buys it in Porto."}"#.into()))
    });
    assert_eq!(
        (c.clusters, c.merged, c.summarised, c.unsummarised),
        (1, 5, 1, 0)
    );
    assert_eq!(c.summary_failure, None);
    assert_eq!(c.merges.len(), 1);
    assert_eq!(
        (c.merges[0].id.as_str(), c.merges[0].summarised),
        (merged.id.as_str(), true)
    );
    assert_eq!(c.merges[0].texts[0], "Ana buys her tea in Porto.");
    assert_eq!(c.merges[0].texts.len(), 5);
    assert_eq!(
        merged.content,
        "Ana gave up coffee and drinks green tea, sencha best, every morning; she buys it in Porto."
    );
    // Asked once, with the summary instructions and every member numbered, the most
    // important first.
    assert_eq!(asked.len(), 1);
    assert_eq!(asked[0].0, mnemo_core::extract::llm::SUMMARY_INSTRUCTIONS);
    let lines: Vec<&str> = asked[0].1.lines().collect();
    assert_eq!(lines.len(), 5);
    assert_eq!(lines[0], "1. Ana buys her tea in Porto.");
    assert!(lines.iter().any(|l| l.ends_with("Ana likes sencha best.")));
}

#[test]
fn a_summary_the_llm_cannot_give_leaves_every_sentence_merged() {
    let long = format!(r#"{{"summary": "{}"}}"#, "tea ".repeat(13_000));
    for (answer, why) in [
        (Some(Err("the endpoint timed out".to_string())), "timed out"),
        (
            Some(Ok("Sure! Ana likes tea.".to_string())),
            "not the summary JSON",
        ),
        (Some(Ok(r#"{"summary": "   "}"#.to_string())), "empty"),
        (
            Some(Ok(r#"{"summary": ["Ana"]}"#.to_string())),
            "not the summary JSON",
        ),
        (Some(Ok(long)), "more than a memory"),
    ] {
        let (c, merged, members, _) = merged_with_llm(move || answer.clone());
        assert_eq!((c.summarised, c.unsummarised), (0, 1), "{why}");
        assert!(!c.merges[0].summarised);
        assert!(
            c.summary_failure.as_deref().unwrap_or("").contains(why),
            "{c:?}"
        );
        for m in &members {
            let words = m.content.trim_end_matches('.');
            assert!(
                words.split(' ').all(|w| merged.content.contains(w)),
                "{why}: {:?} lost from {:?}",
                m.content,
                merged.content
            );
        }
    }
}

#[test]
fn a_summary_is_stored_as_text_whatever_it_holds() {
    for text in [
        "Ana'; DROP TABLE memories; -- drinks tea",
        "アナは毎朝緑茶を飲み、ポルトで買う。🍵",
    ] {
        let json = serde_json::json!({ "summary": text }).to_string();
        let (c, merged, _, _) = merged_with_llm(move || Some(Ok(json.clone())));
        assert_eq!(c.summarised, 1);
        assert_eq!(merged.content, text);
    }
    // No LLM (the function answers None): the sentences are merged as without one.
    let (c, merged, _, asked) = merged_with_llm(|| None);
    assert_eq!((c.summarised, c.unsummarised, asked.len()), (0, 0, 1));
    assert!(merged.content.contains("Porto") && merged.content.contains("sencha"));
}

#[test]
fn belief_probing_challenges_what_newer_memories_of_its_scope_contradict() {
    let (mut e, clock) = engine();
    let said = |e: &mut Engine, text: &str, agent: Option<&str>| {
        let opts = RememberOptions {
            agent_id: agent.map(id),
            ..RememberOptions::default()
        };
        e.remember("kai", text, opts).unwrap().stored_ids()[0].to_string()
    };
    let farfetch = said(&mut e, "Ana works at Farfetch.", None);
    let porto = said(&mut e, "My sister Ana lives in Porto.", None);
    // An agent's own memory: another scope, so the owner's newer words do not touch it.
    let theirs = said(&mut e, "Rui works at Sonae.", Some("bot"));
    clock.set(T0 + 40 * DAY_MS);
    // Said once the names became one entity: no conflict was found when it was written.
    let google = said(&mut e, "Ana Souza now works at Google.", None);
    said(&mut e, "Rui works at Galp.", None);
    let before = e.get("kai", &farfetch).unwrap();
    assert_eq!(before.status, Status::Active, "the write let both stand");

    let report = e.consolidate().unwrap().consolidation.unwrap();
    assert_eq!((report.probing.challenged, report.probing.more), (1, false));
    let after = e.get("kai", &farfetch).unwrap();
    assert_eq!(after.status, Status::Challenged);
    assert!(
        (after.importance - (before.importance - CHALLENGE_IMPORTANCE_LOSS).max(0.05)).abs()
            < 1e-12
    );
    let history = e.status_history("kai", &farfetch).unwrap();
    let reason = &history.last().unwrap().reason;
    assert!(
        reason.contains("works_at Google") && reason.contains(&google),
        "{reason}"
    );
    // What newer memories do not contradict stays, and so does another scope's.
    for kept in [&porto, &google, &theirs] {
        let m = e.get("kai", kept).unwrap();
        assert_eq!(m.status, Status::Active, "{}", m.content);
    }
    // Out of searches; nothing deleted; a second run finds nothing more to probe.
    let hits = search(&mut e, "kai", "where does Ana work");
    assert!(hits.iter().all(|h| h.memory.id != farfetch));
    assert_eq!(
        e.get("kai", &farfetch).unwrap().content,
        "Ana works at Farfetch."
    );
    let again = e.consolidate().unwrap().consolidation.unwrap();
    assert_eq!(again.probing, ProbeReport::default());
}
