//! Hybrid recall: fusion, ranking modes, feedback, filters, diversity, cache, access, context.
mod common;

use common::*;
use mnemo_core::*;
use serde_json::json;

/// Tells `owner`'s store each of `said`, through the extractor.
fn tell(e: &mut Engine, owner: &str, said: &[&str]) {
    for s in said {
        e.remember(owner, s, RememberOptions::default()).unwrap();
    }
}

fn req(owner: &str, query: &str) -> SearchRequest {
    SearchRequest::new(id(owner), query)
}

#[test]
fn text_and_vector_both_find_memories() {
    let (mut e, _) = vector_engine(Config::default());
    let by_text = seed_one(
        &mut e,
        vmem("u", "the quarterly report is due", vec![0.0, 1.0, 0.0, 0.0]),
    );
    let by_vector = seed_one(
        &mut e,
        vmem("u", "nothing in common", vec![1.0, 0.0, 0.0, 0.0]),
    );
    seed_one(
        &mut e,
        vmem("u", "unrelated entirely", vec![0.0, 0.0, 1.0, 0.0]),
    );
    let hits = e
        .search(&SearchRequest {
            vector: Some(vec![1.0, 0.0, 0.0, 0.0]),
            ..req("u", "quarterly report")
        })
        .unwrap();
    let got = ids(&hits);
    assert!(
        got.contains(&by_text) && got.contains(&by_vector),
        "{got:?}"
    );
    let t = hits.iter().find(|h| h.memory.id == by_text).unwrap();
    assert_eq!((t.why.text, t.why.vector), (1.0, 0.0));
    let v = hits.iter().find(|h| h.memory.id == by_vector).unwrap();
    assert_eq!((v.why.text, v.why.vector), (0.0, 1.0));
}

#[test]
fn every_hit_explains_its_score() {
    let (mut e, _) = engine();
    seed_one(&mut e, mem("u", "Ana's favourite tea is sencha"));
    let h = &search(&mut e, "u", "favourite tea")[0];
    let w = RankMode::Balanced.weights();
    let expect = (w.semantic * h.why.semantic
        + w.recency * h.why.recency
        + w.retention * h.why.retention
        + w.importance * h.why.importance
        + w.confidence * h.why.confidence)
        * h.why.feedback_multiplier
        * h.why.state_multiplier;
    assert!((h.score - expect).abs() < 1e-12);
    assert_eq!((h.why.semantic, h.why.mode), (1.0, RankMode::Balanced));
    assert!(h.why.text > 0.0 && h.why.vector > 0.3);
}

#[test]
fn ranking_modes_order_by_their_weights() {
    let (mut e, clock) = engine();
    // Equally relevant to the query; one important and old, one fresh and ordinary.
    let important = seed_one(
        &mut e,
        NewMemory {
            importance: Some(unit(1.0)),
            memory_type: Some(MemoryType::Identity),
            ..mem("u", "project falcon budget approved")
        },
    );
    clock.set(T0 + 200 * DAY_MS);
    let fresh = seed_one(
        &mut e,
        NewMemory {
            importance: Some(unit(0.05)),
            memory_type: Some(MemoryType::Identity),
            ..mem("u", "project falcon budget revised")
        },
    );
    let order = |e: &mut Engine, mode| {
        ids(&e
            .search(&SearchRequest {
                mode,
                ..req("u", "project falcon budget")
            })
            .unwrap())
    };
    assert_eq!(
        order(&mut e, RankMode::Recent),
        vec![fresh.clone(), important.clone()]
    );
    assert_eq!(
        order(&mut e, RankMode::Important),
        vec![important.clone(), fresh.clone()]
    );
}

#[test]
fn feedback_reinforce_and_demote_move_memories() {
    let (mut e, _) = engine();
    let a = seed_one(&mut e, mem("u", "the staging server is called atlas"));
    let b = seed_one(&mut e, mem("u", "the staging server is called boreas"));
    let first = ids(&search(&mut e, "u", "staging server"))[0].clone();
    let other = if first == a { b.clone() } else { a.clone() };
    let m = e.demote("u", &first).unwrap();
    assert_eq!(m.feedback, -1);
    let r = e.reinforce("u", &other).unwrap();
    assert_eq!(r.feedback, 3);
    let hits = search(&mut e, "u", "staging server");
    assert_eq!(ids(&hits), vec![other.clone(), first.clone()]);
    assert!((hits[0].why.feedback_multiplier - (0.6f64).exp()).abs() < 1e-12);
    assert!((hits[1].why.feedback_multiplier - (-0.2f64).exp()).abs() < 1e-12);
}

#[test]
fn recall_filters_by_kind_and_type() {
    let (mut e, _) = engine();
    let fact = seed_one(
        &mut e,
        NewMemory {
            kind: Some(Kind::Fact),
            ..mem("u", "deploy target is eu-west")
        },
    );
    let rule = seed_one(
        &mut e,
        NewMemory {
            kind: Some(Kind::Procedure),
            ..mem("u", "always deploy after the tests pass")
        },
    );
    let story = seed_one(
        &mut e,
        NewMemory {
            kind: Some(Kind::Narrative),
            memory_type: Some(MemoryType::Context),
            ..mem("u", "yesterday the deploy failed twice")
        },
    );
    let get = |e: &mut Engine, recall, types: Vec<MemoryType>| {
        let mut v = ids(&e
            .search(&SearchRequest {
                recall,
                types,
                ..req("u", "deploy")
            })
            .unwrap());
        v.sort();
        v
    };
    let sorted = |mut v: Vec<String>| {
        v.sort();
        v
    };
    assert_eq!(
        get(&mut e, RecallFilter::FactsOnly, vec![]),
        vec![fact.clone()]
    );
    assert_eq!(
        get(&mut e, RecallFilter::FactsPlusRules, vec![]),
        sorted(vec![fact.clone(), rule.clone()])
    );
    assert_eq!(
        get(&mut e, RecallFilter::FullContext, vec![]),
        sorted(vec![fact.clone(), rule.clone(), story.clone()])
    );
    assert_eq!(
        get(&mut e, RecallFilter::FullContext, vec![MemoryType::Context]),
        vec![story]
    );
}

/// Seeds "alpha note", a near repeat of it, and a memory far from both: (note, far one).
fn repeat_and_other(e: &mut Engine) -> (String, String) {
    let a = seed_one(e, vmem("u", "alpha note", at_cosine(1.0)));
    seed_one(e, vmem("u", "the alpha note", at_cosine(0.99)));
    let c = seed_one(e, vmem("u", "alpha elsewhere", vec![0.0, 0.0, 1.0, 0.0]));
    (a, c)
}

#[test]
fn near_identical_results_are_dropped_for_diversity() {
    let off = without_dedup();
    let (mut e, _) = vector_engine(off.clone());
    let (a, c) = repeat_and_other(&mut e);
    let hits = e
        .search(&SearchRequest {
            vector: Some(at_cosine(1.0)),
            ..req("u", "alpha")
        })
        .unwrap();
    assert_eq!(ids(&hits), vec![a.clone(), c.clone()]);
    // With the threshold at 1.0 nothing is dropped.
    let keep_all = Config {
        recall: RecallConfig {
            diversity_threshold: 1.0,
            ..Default::default()
        },
        ..off
    };
    let (mut e, _) = vector_engine(keep_all);
    seed_one(&mut e, vmem("u", "alpha note", at_cosine(1.0)));
    seed_one(&mut e, vmem("u", "alpha note again", at_cosine(0.99)));
    assert_eq!(
        e.search(&SearchRequest {
            vector: Some(at_cosine(1.0)),
            ..req("u", "alpha")
        })
        .unwrap()
        .len(),
        2
    );
}

#[test]
fn when_diversity_drops_a_hit_the_next_relevant_memory_fills_the_answer() {
    // Search reads rows only as far as the answer reaches; a repeat dropped for diversity
    // must not leave the answer short while a less relevant memory remains.
    let (mut e, _) = vector_engine(without_dedup());
    let (a, c) = repeat_and_other(&mut e);
    let hits = e
        .search(&SearchRequest {
            vector: Some(at_cosine(1.0)),
            limit: limit(2),
            ..req("u", "alpha")
        })
        .unwrap();
    assert_eq!(ids(&hits), vec![a, c]);
}

#[test]
fn a_hit_counts_as_an_access() {
    let (mut e, clock) = engine();
    let id = seed_one(&mut e, mem("u", "the gate code is 4412"));
    clock.advance(DAY_MS);
    search(&mut e, "u", "gate code");
    search(&mut e, "u", "gate code");
    let m = peek(&mut e, "u", &id);
    assert_eq!((m.access_count, m.last_accessed_at), (2, Some(T0 + DAY_MS)));
}

#[test]
fn cache_serves_repeats_and_writes_to_the_owner_invalidate_it() {
    let (mut e, clock) = engine();
    seed_one(&mut e, mem("u", "the cat is called Miso"));
    let first = search(&mut e, "u", "cat");
    clock.advance(DAY_MS);
    let again = search(&mut e, "u", "cat");
    assert_eq!(ids(&first), ids(&again));
    // Ranking is recomputed at the current time even on a cache hit.
    assert!(again[0].why.recency < first[0].why.recency);
    let new = seed_one(&mut e, mem("u", "the other cat is called Tofu"));
    assert!(ids(&search(&mut e, "u", "cat")).contains(&new));
    let gone = ids(&first)[0].clone();
    e.forget("u", &gone).unwrap();
    assert!(!ids(&search(&mut e, "u", "cat")).contains(&gone));
}

/// `u`'s messages of one conversation, in order.
fn conversation(messages: &[&str]) -> Vec<NewMemory> {
    messages
        .iter()
        .map(|c| NewMemory {
            session_id: Some(id("s1")),
            ..mem("u", c)
        })
        .collect()
}

#[test]
fn session_neighbours_lend_relevance() {
    let (mut e, _) = engine();
    let r = e
        .seed(conversation(&[
            "Mel: what have you been researching lately?",
            "Caroline: adoption agencies, mostly.",
            "Mel: nice weather today",
        ]))
        .unwrap();
    let answer = r.outcomes[1].id().unwrap().to_string();
    // The answer shares no word with the query; its neighbour does.
    let hits = search(&mut e, "u", "What has she been researching?");
    let h = hits
        .iter()
        .find(|h| h.memory.id == answer)
        .expect("answer found through its neighbour");
    assert!(h.why.context > 0.0);
    // Without a session, there is no context to lend.
    let (mut e, _) = engine();
    e.seed(vec![
        mem("u", "Mel: what have you been researching lately?"),
        mem("u", "Caroline: adoption agencies, mostly."),
    ])
    .unwrap();
    assert!(search(&mut e, "u", "researching")
        .iter()
        .all(|h| h.why.context == 0.0));
}

#[test]
fn the_message_two_places_away_is_lent_less_and_three_places_nothing() {
    let (mut e, _) = engine();
    let r = e
        .seed(conversation(&[
            "Cat: I finally read Becoming Nicole last week.",
            "Mel: oh, how was it?",
            "Cat: it taught me self-acceptance and hope.",
            "Mel: lovely weather here today",
        ]))
        .unwrap();
    let id_of = |i: usize| r.outcomes[i].id().unwrap().to_string();
    let hits = search(&mut e, "u", "What stayed with her from Becoming Nicole?");
    let context = |i: usize| {
        hits.iter()
            .find(|h| h.memory.id == id_of(i))
            .map(|h| h.why.context)
    };
    // The answer, the same speaker's next message, shares no word with the question: what
    // it has, the message two places before it lent.
    let next = context(1).expect("the next message is found");
    let answer = context(2).expect("the answer two places away is found");
    assert!(next > 0.0);
    assert!(
        (answer / next - 0.85).abs() < 0.01,
        "two places away lends 0.85 of next door: {answer} against {next}"
    );
    // Three places from the question's match it lends nothing: only the weak lending of
    // the messages next to it reaches there.
    assert!(
        context(3).is_none_or(|c| c < answer / 2.0),
        "{:?}",
        context(3)
    );
}

#[test]
fn limit_and_min_score() {
    let (mut e, _) = engine();
    for i in 0..30 {
        seed_one(
            &mut e,
            mem(
                "u",
                &format!("meeting notes number {i} about roadmap item {}", i * 7),
            ),
        );
    }
    assert_eq!(
        e.search(&SearchRequest {
            limit: limit(5),
            ..req("u", "meeting roadmap")
        })
        .unwrap()
        .len(),
        5
    );
    assert_eq!(
        e.search(&SearchRequest {
            limit: limit(25),
            ..req("u", "meeting roadmap")
        })
        .unwrap()
        .len(),
        25
    );
    let all = e
        .search(&SearchRequest {
            limit: limit(30),
            ..req("u", "meeting roadmap")
        })
        .unwrap();
    let cut = all[10].score;
    let above = e
        .search(&SearchRequest {
            limit: limit(30),
            min_score: Some(cut),
            ..req("u", "meeting roadmap")
        })
        .unwrap();
    assert!(above.iter().all(|h| h.score >= cut) && above.len() < 30);
}

#[test]
fn query_vector_alone_searches() {
    let (mut e, _) = vector_engine(Config::default());
    let id = seed_one(&mut e, vmem("u", "x", at_cosine(1.0)));
    let hits = e
        .search(&SearchRequest {
            vector: Some(at_cosine(1.0)),
            ..req("u", "")
        })
        .unwrap();
    assert_eq!(ids(&hits), vec![id]);
}

#[test]
fn same_scenario_same_json() {
    let run = || {
        let (mut e, clock) = engine();
        let mut out = Vec::new();
        for (i, c) in [
            "I moved to Lisbon in March",
            "My sister Ana is a nurse",
            "I prefer green tea",
            "Meeting with Bruno on Friday",
        ]
        .iter()
        .enumerate()
        {
            clock.set(T0 + i as i64 * DAY_MS);
            out.push(serde_json::to_string(&e.seed(vec![mem("u", c)]).unwrap()).unwrap());
        }
        clock.set(T0 + 30 * DAY_MS);
        out.push(serde_json::to_string(&search(&mut e, "u", "where does my sister live")).unwrap());
        out.push(e.export_jsonl("u").unwrap());
        out.join("\n")
    };
    assert_eq!(run(), run());
}

#[test]
fn accesses_from_searches_survive_the_next_write_to_that_memory() {
    let (mut e, clock) = engine();
    let id = seed_one(&mut e, mem("u", "the router password is on the fridge"));
    search(&mut e, "u", "router password");
    e.pin("u", &id, true).unwrap(); // pin itself is one more access
    assert_eq!(peek(&mut e, "u", &id).access_count, 2);
    search(&mut e, "u", "router password");
    e.demote("u", &id).unwrap();
    assert_eq!(peek(&mut e, "u", &id).access_count, 3);
    search(&mut e, "u", "router password");
    clock.advance(DAY_MS);
    e.maintain().unwrap();
    assert_eq!(peek(&mut e, "u", &id).access_count, 4);
    search(&mut e, "u", "router password");
    e.forget("u", &id).unwrap();
    assert_eq!(peek(&mut e, "u", &id).access_count, 5);
}

#[test]
fn every_hit_names_the_words_of_the_query_it_says() {
    let (mut e, _) = engine();
    let report = seed_one(&mut e, mem("u", "The quarterly reports are due on Friday"));
    let job = seed_one(
        &mut e,
        mem("u", "I work as a marine biologist at the aquarium"),
    );
    let hits = search(&mut e, "u", "When is the quarterly report due?");
    let hit = hits.iter().find(|h| h.memory.id == report).unwrap();
    // As the query wrote them, in its order; "reports" says "report"; "when", "is", "the"
    // are too common to count.
    assert_eq!(hit.why.matched, ["quarterly", "report", "due"]);
    // A memory found by meaning alone says none of them.
    let by_meaning = search(&mut e, "u", "what is my job");
    let hit = by_meaning.iter().find(|h| h.memory.id == job).unwrap();
    assert!(hit.why.matched.is_empty(), "{hit:?}");
    // Every surface gets it: the JSON answer carries it.
    let answer: serde_json::Value = serde_json::from_str(
        &e.call_json(
            "search",
            r#"{"entity_id": "u", "query": "quarterly report"}"#,
        )
        .unwrap(),
    )
    .unwrap();
    assert_eq!(
        answer[0]["why"]["matched"],
        serde_json::json!(["quarterly", "report"])
    );
}

#[test]
fn relevance_is_comparable_across_queries_and_min_score_means_it() {
    let (mut e, _) = engine();
    let job = seed_one(
        &mut e,
        mem("u", "I work as a marine biologist at the aquarium"),
    );
    let sister = seed_one(&mut e, mem("u", "My sister Ines is visiting me in May"));
    seed_one(&mut e, mem("u", "The quarterly report is due on Friday"));
    // Sharing only "my" is no text match, and meaning puts the job first.
    let hits = search(&mut e, "u", "what is my job");
    assert_eq!(hits[0].memory.id, job, "{hits:?}");
    for h in &hits {
        assert_eq!(h.why.text, 0.0, "{}", h.memory.content);
        assert!(h.why.relevance < 0.5, "{h:?}");
    }
    let rel = |hits: &[SearchHit], id: &str| {
        hits.iter()
            .find(|h| h.memory.id == id)
            .map(|h| h.why.relevance)
    };
    // Every word asked about, said: text relevance 1, whatever the other memories.
    let report = search(&mut e, "u", "quarterly report");
    assert_eq!(report[0].why.text, 1.0);
    assert!(report[0].why.relevance > 0.5);
    // min_score is that relevance: above the job's, the job is not an answer.
    let job_relevance = rel(&hits, &job).unwrap();
    let strict = e
        .search(&SearchRequest {
            min_score: Some(job_relevance + 1e-9),
            ..req("u", "what is my job")
        })
        .unwrap();
    assert!(rel(&strict, &job).is_none() && rel(&strict, &sister).is_none());
    // By default, a memory with nothing in common with the query is left out.
    let min = Config::default().recall.min_relevance;
    assert!(search(&mut e, "u", "zebra xylophone")
        .iter()
        .all(|h| h.why.relevance >= min));
    let bad = Config {
        recall: RecallConfig {
            min_relevance: 1.5,
            ..Default::default()
        },
        ..Default::default()
    };
    let err = Engine::builder(ManualClock::new(T0))
        .config(bad)
        .open_in_memory()
        .err()
        .unwrap();
    assert!(err.to_string().contains("min_relevance"), "{err}");
}

#[test]
fn a_memory_saying_one_word_of_several_does_not_outrank_what_was_meant() {
    let (mut e, _) = engine();
    let yoga = seed_one(&mut e, mem("u", "My yoga class is at 7am on Saturdays."));
    let trip = seed_one(
        &mut e,
        mem(
            "u",
            "I've booked a weekend in Seville for our anniversary in May.",
        ),
    );
    seed_one(
        &mut e,
        mem("u", "I play bass guitar in a jazz band on weekends."),
    );
    seed_one(&mut e, mem("u", "My partner's native language is Dutch."));
    let hits = search(&mut e, "u", "What time is my weekend exercise session?");
    assert_eq!(hits[0].memory.id, yoga, "{hits:?}");
    // "weekend" is said, but it is one of the words asked about: weak evidence, well under
    // the share of the question it says.
    let partial = hits.iter().find(|h| h.memory.id == trip).unwrap();
    assert_eq!(partial.why.matched, ["weekend"]);
    assert!(
        partial.why.text > 0.0 && partial.why.text < 0.2,
        "{partial:?}"
    );
    // Saying every word asked about is still a full match.
    let whole = search(&mut e, "u", "weekend in Seville");
    assert_eq!(
        (whole[0].memory.id.as_str(), whole[0].why.text),
        (trip.as_str(), 1.0)
    );
}

/// A search kept to a time window (`after`, `before`) finds the memories said inside it, and
/// only those, though many more outside it match better: the window is applied where the
/// vector scan and the text index choose their candidates, not to what they chose.
#[test]
fn a_time_window_keeps_to_the_memories_said_inside_it() {
    let (mut e, clock) = engine_with_config(without_dedup());
    let day = |d: i64| T0 + d * DAY_MS;
    clock.set(day(300));
    // Three hundred purchases, one a day, all saying "I bought"; on day 30 one said otherwise.
    let mut items: Vec<NewMemory> = (0..300)
        .filter(|d| *d != 30)
        .map(|d| NewMemory {
            created_at: Some(day(d)),
            ..mem(
                "ana",
                &format!("I bought a new lamp number {d} for the hall"),
            )
        })
        .collect();
    items.push(NewMemory {
        created_at: Some(day(30)),
        ..mem("ana", "Picked up a kettle at the hardware shop")
    });
    // Bo said something in the window too.
    items.push(NewMemory {
        created_at: Some(day(30)),
        ..mem("bo", "I bought a kettle for the office")
    });
    let outcomes = e.seed(items).unwrap().outcomes;
    let kettle = outcomes[299].id().unwrap().to_string();
    let within = |e: &mut Engine, query: &str, after: Option<i64>, before: Option<i64>| {
        e.search(&SearchRequest {
            after,
            before,
            limit: limit(100),
            min_score: Some(0.0),
            ..req("ana", query)
        })
        .unwrap()
    };
    // Any one day's lamp, though 50 candidates from each of the vector scan and the text
    // index hold only a few of the 299 alike.
    for d in [3, 77, 150, 222, 280] {
        let hits = within(&mut e, "lamp for the hall", Some(day(d)), Some(day(d + 1)));
        assert_eq!(hits.len(), 1, "day {d}");
        assert_eq!(hits[0].memory.created_at, day(d));
    }
    // Days 29 to 31: two lamps and the kettle.
    let hits = within(&mut e, "bought at the shop", Some(day(29)), Some(day(32)));
    let mut days: Vec<i64> = hits
        .iter()
        .map(|h| (h.memory.created_at - T0) / DAY_MS)
        .collect();
    days.sort_unstable();
    assert_eq!(days, vec![29, 30, 31], "{:?}", ids(&hits));
    assert!(ids(&hits).contains(&kettle));
    let by_text = within(&mut e, "kettle", Some(day(30)), Some(day(31)));
    assert_eq!(ids(&by_text), vec![kettle.clone()]);
    // `after` is inclusive, `before` exclusive; either alone bounds one end.
    let has_kettle = |hits: Vec<SearchHit>| ids(&hits).contains(&kettle);
    assert!(!has_kettle(within(&mut e, "kettle", Some(day(31)), None)));
    assert!(!has_kettle(within(&mut e, "kettle", None, Some(day(30)))));
    assert!(has_kettle(within(
        &mut e,
        "kettle",
        None,
        Some(day(30) + 1)
    )));
    assert!(has_kettle(within(&mut e, "kettle", Some(day(30)), None)));
    let late = within(&mut e, "lamp", Some(day(298)), None);
    assert_eq!(late.len(), 2, "days 298 and 299");
    // The same query with another window is not answered from the first's cached candidates.
    assert_ne!(
        ids(&within(&mut e, "lamp", Some(day(10)), Some(day(11)))),
        ids(&within(&mut e, "lamp", Some(day(11)), Some(day(12))))
    );
    // Never another owner's, inside the window or not.
    for h in within(&mut e, "kettle office", Some(day(30)), Some(day(31))) {
        assert_eq!(h.memory.entity_id, "ana");
    }
}

/// A window that is not one is refused, by name, and changes nothing.
#[test]
fn a_bad_time_window_is_refused_by_name() {
    let (mut e, _) = engine();
    seed_one(&mut e, mem("ana", "Ana keeps bees"));
    let before = snapshot(&mut e, "ana");
    let search = |extra: &str| format!(r#"{{"entity_id": "ana", "query": "bees", {extra}}}"#);
    for (extra, names) in [
        (r#""after": 5000, "before": 5000"#, "before"),
        (r#""after": 6000, "before": 5000"#, "before"),
        (r#""after": -1"#, "after"),
        (r#""before": 253402300800000"#, "before"),
        (r#""after": "yesterday""#, "after"),
        (r#""after": 1.5"#, "after"),
        (r#""before": null, "after": true"#, "after"),
        (r#""after": 1e400"#, "after"),
        (r#""as_of": -5"#, "as_of"),
        (r#""as_of": "now""#, "as_of"),
    ] {
        let err = refused(&mut e, "search", &search(extra));
        assert!(err.contains(names), "{extra}: {err}");
    }
    assert_eq!(snapshot(&mut e, "ana"), before);
    // A window in the future or before anything was said is simply empty.
    let empty = e
        .search(&SearchRequest {
            after: Some(T0 + 400 * DAY_MS),
            ..req("ana", "bees")
        })
        .unwrap();
    assert!(empty.is_empty());
    // A question read at the calendar's edges (the first and last moments accepted) is
    // answered: no day counted from them may leave the calendar.
    // 1970-01-01T00:00Z and 9999-12-31T23:59:59.999Z.
    for as_of in [0, 253_402_300_799_999] {
        for query in [
            "what did Ana do yesterday?",
            "bees since last week",
            "bees tomorrow",
            "what happened 3 weeks ago",
            "bees on the 31st",
            "the second week of December",
            "bees this week",
            "bees the week before last",
            "bees the weekend before last",
            "1000 weekends ago",
            "a fortnight ago",
            "half a year ago",
            "bees over the last 1000 years",
            "bees the past few days",
            "mid-December",
            "bees at the end of last month",
            "bees last Christmas",
            "bees last Easter",
            "bees since Monday",
            "bees since March",
            "bees the Saturday after December 30",
            "bees the weekend after December 29",
            "bees as of last Saturday",
        ] {
            let hits = e.search(&SearchRequest {
                as_of: Some(as_of),
                ..req("ana", query)
            });
            assert!(hits.is_ok(), "{query} at {as_of}: {hits:?}");
        }
    }
}

/// A question that names a span of time ("10 days ago", "last weekend") ranks the memories
/// said in it first, read against the engine's clock or the request's `as_of`; its words are
/// not matched as text; every hit's `why` shows the span and whether it was said inside.
#[test]
fn a_question_naming_a_time_ranks_what_was_said_then_first() {
    let (mut e, clock) = engine_with_config(without_dedup());
    let day = |d: i64| T0 + d * DAY_MS;
    // One appliance bought every five days for sixty days.
    let appliances = [
        "toaster",
        "kettle",
        "blender",
        "microwave",
        "rice cooker",
        "air fryer",
        "coffee grinder",
        "waffle iron",
        "slow cooker",
        "food processor",
        "juicer",
        "sandwich press",
    ];
    let items: Vec<NewMemory> = appliances
        .iter()
        .enumerate()
        .map(|(i, a)| NewMemory {
            created_at: Some(day(5 * i as i64) + 12 * 3_600_000),
            ..mem("ana", &format!("I bought a {a} for the kitchen"))
        })
        .collect();
    clock.set(day(60) + 9 * 3_600_000);
    e.seed(items).unwrap();
    let ask = |e: &mut Engine, query: &str, as_of: Option<i64>| {
        e.search(&SearchRequest {
            as_of,
            limit: limit(5),
            ..req("ana", query)
        })
        .unwrap()
    };
    // Day 60 now: ten days ago is day 50, the juicer.
    let hits = ask(
        &mut e,
        "What kitchen appliance did I buy 10 days ago?",
        None,
    );
    assert!(
        hits[0].memory.content.contains("juicer"),
        "{:?}",
        hits.iter().map(|h| &h.memory.content).collect::<Vec<_>>()
    );
    let period = hits[0].why.period.clone().expect("the span is shown");
    assert!(period.inside);
    // Whole UTC days: from the day before the tenth day back to the day after it.
    let today = (day(60) + 9 * 3_600_000).div_euclid(DAY_MS) * DAY_MS;
    assert_eq!(
        (period.after, period.before),
        (Some(today - 11 * DAY_MS), Some(today - 8 * DAY_MS))
    );
    assert_eq!(hits.len(), 5, "the rest follow, said outside it");
    assert!(hits[1..]
        .iter()
        .all(|h| !h.why.period.as_ref().unwrap().inside));
    assert!(
        hits[0]
            .why
            .matched
            .iter()
            .all(|w| w != "days" && w != "ago"),
        "{:?}",
        hits[0].why.matched
    );
    // As of day 30, ten days ago is day 20: the rice cooker.
    let then = ask(
        &mut e,
        "What kitchen appliance did I buy 10 days ago?",
        Some(day(30) + 9 * 3_600_000),
    );
    assert!(
        then[0].memory.content.contains("rice cooker"),
        "{}",
        then[0].memory.content
    );
    // A span with nothing said in it: the answer is the ordinary one, each hit outside it.
    let none = ask(&mut e, "What did I buy yesterday?", None);
    assert!(!none.is_empty());
    assert!(none.iter().all(|h| !h.why.period.as_ref().unwrap().inside));
    // A question naming no time, or a search given its own window, reads no span.
    assert!(ask(&mut e, "What did I buy for the kitchen?", None)
        .iter()
        .all(|h| h.why.period.is_none()));
    let windowed = e
        .search(&SearchRequest {
            after: Some(day(0)),
            before: Some(day(1)),
            ..req("ana", "What did I buy 10 days ago?")
        })
        .unwrap();
    assert_eq!(windowed.len(), 1);
    assert!(windowed[0].memory.content.contains("toaster"));
    assert!(windowed[0].why.period.is_none());
}

/// Seeds `owner`'s memories, each said at its time.
fn seed_said(e: &mut Engine, owner: &str, said: &[(Millis, &str)]) {
    let items = said
        .iter()
        .map(|(t, text)| NewMemory {
            created_at: Some(*t),
            ..mem(owner, text)
        })
        .collect();
    e.seed(items).unwrap();
}

/// A question naming a time ahead ("what do I have tomorrow?", "next week") finds the plans
/// for it: memories said before it that name a time inside it, and those due inside it
/// (`expires_at`) whatever they say; `why` says they tell of the span. Another agent's
/// private plan is no answer, by either way.
#[test]
fn a_question_naming_a_time_ahead_finds_the_plans_for_it() {
    let (mut e, clock) = engine_with_config(without_dedup());
    // Wednesday 2026-11-18, 10:00 UTC; `day(d, h)`: d days on, at h o'clock.
    let now: Millis = 1_794_996_000_000;
    let day = |d: i64, h: i64| now + d * DAY_MS + (h - 10) * 3_600_000;
    clock.set(now);
    seed_said(
        &mut e,
        "ana",
        &[
            (day(-9, 12), "The plumber fixed the sink last week"),
            (day(-3, 12), "Bought bread and milk for the week"),
            // Said on Monday: the Friday after it, the 20th.
            (day(-2, 9), "Dentist appointment next Friday at 10am"),
            (day(-1, 12), "I went to the dentist for a checkup yesterday"),
            (day(0, 8), "Call the plumber tomorrow morning"),
        ],
    );
    e.seed(vec![NewMemory {
        created_at: Some(day(-5, 12)),
        // Next week is Monday the 23rd to Sunday the 29th.
        expires_at: Some(day(7, 17)),
        ..mem("ana", "Submit the quarterly tax form")
    }])
    .unwrap();
    let first = |e: &mut Engine, q: &str| {
        let hits = e.search(&req("ana", q)).unwrap();
        let hit = hits.first().unwrap_or_else(|| panic!("{q}: no answer"));
        let period = hit.why.period.clone().expect("the span is shown");
        (hit.memory.content.clone(), period)
    };
    let (content, period) = first(&mut e, "What do I have tomorrow?");
    assert_eq!(content, "Call the plumber tomorrow morning");
    assert!(period.tells && !period.inside, "{period:?}");
    assert_eq!(
        (period.after, period.before),
        (Some(day(1, 0)), Some(day(2, 0)))
    );
    let (content, period) = first(&mut e, "When is my dentist appointment next Friday?");
    assert_eq!(content, "Dentist appointment next Friday at 10am");
    assert!(period.tells, "{period:?}");
    let (content, period) = first(&mut e, "What is due next week?");
    assert_eq!(content, "Submit the quarterly tax form");
    assert!(period.tells && !period.inside, "{period:?}");
    // "This week" is the whole of it: Saturday's renewal is of it.
    e.seed(vec![NewMemory {
        created_at: Some(day(-13, 12)),
        expires_at: Some(day(3, 12)),
        ..mem("ana", "Renew the car insurance")
    }])
    .unwrap();
    let hits = e.search(&req("ana", "What is due this week?")).unwrap();
    let renewal = hits
        .iter()
        .find(|h| h.memory.content == "Renew the car insurance")
        .expect("the renewal is of this week");
    let period = renewal.why.period.clone().unwrap();
    assert!(period.tells && !period.inside, "{period:?}");
    assert_eq!(period.before, Some(day(5, 0)), "to Sunday's end");
    // What was said of the past tells of no time ahead.
    let hits = e.search(&req("ana", "Who is coming tomorrow?")).unwrap();
    for h in &hits {
        let tells = h.why.period.as_ref().is_some_and(|p| p.tells);
        assert_eq!(
            tells,
            h.memory.content.contains("tomorrow morning"),
            "{}",
            h.memory.content
        );
    }
    // Another owner's plans, told and due, are never this owner's answer.
    e.seed(vec![
        NewMemory {
            created_at: Some(day(0, 9)),
            ..mem("bo", "Bo flies to Oslo tomorrow")
        },
        NewMemory {
            created_at: Some(day(0, 9)),
            expires_at: Some(day(1, 12)),
            ..mem("bo", "Bo's rent is due")
        },
    ])
    .unwrap();
    for q in ["What do I have tomorrow?", "What is due tomorrow?"] {
        let mut r = req("ana", q);
        r.min_score = Some(0.0);
        let hits = e.search(&r).unwrap();
        assert!(!hits.is_empty(), "{q}");
        assert!(
            hits.iter().all(|h| h.memory.entity_id.as_str() == "ana"),
            "{q}"
        );
    }
    // Each agent's private plans, told and due: no other agent's answer.
    for (agent, content, expires) in [
        ("bob", "Secret interview at the bank tomorrow", None),
        (
            "bob",
            "Sign the confidential offer letter",
            Some(day(1, 12)),
        ),
        ("alice", "Water the plants tomorrow", None),
    ] {
        let mut item = json!({"entity_id": "ana", "agent_id": agent, "visibility": "private", "content": content, "created_at": day(0, 9)});
        if let Some(t) = expires {
            item["expires_at"] = json!(t);
        }
        e.call_json("seed", &json!({ "items": [item] }).to_string())
            .unwrap();
    }
    let asked = |e: &mut Engine, agent: Option<&str>, q: &str| {
        let mut args = json!({"entity_id": "ana", "query": q, "min_score": 0.0, "limit": 50});
        if let Some(a) = agent {
            args["agent_id"] = json!(a);
        }
        e.call_json("search", &args.to_string()).unwrap()
    };
    for q in ["What do I have tomorrow?", "What is due tomorrow?"] {
        let alice = asked(&mut e, Some("alice"), q);
        assert!(alice.contains("Water the plants"), "{q}: {alice}");
        assert!(
            !alice.contains("interview") && !alice.contains("offer letter"),
            "{q}: {alice}"
        );
        let bob = asked(&mut e, Some("bob"), q);
        assert!(
            bob.contains("interview") && bob.contains("offer letter"),
            "{q}: {bob}"
        );
        assert!(!bob.contains("Water the plants"), "{q}: {bob}");
        let owner = asked(&mut e, None, q);
        for said in [
            "interview",
            "offer letter",
            "Water the plants",
            "Call the plumber",
        ] {
            assert!(owner.contains(said), "{q}: {owner}");
        }
    }
}

/// A memory said before a span tells of it when it names a month or a day alone as a plan
/// does ("we fly to Lisbon in March", said in November, is of the March after), and not when
/// it is told of the past ("we went to Porto in March", said then, is of the March before).
/// Another owner's plan for the same month is never the answer.
#[test]
fn a_plan_said_months_before_tells_of_the_month_it_names() {
    let (mut e, clock) = engine_with_config(without_dedup());
    // Wednesday 2026-11-18, 10:00 UTC; the question is asked on 2027-04-12.
    let said: Millis = 1_794_996_000_000;
    let asked: Millis = 1_807_524_000_000;
    clock.set(asked);
    seed_said(
        &mut e,
        "ana",
        &[
            (said, "We fly to Lisbon in March for the conference"),
            (said, "We went to Porto in March and loved the food"),
            (said + DAY_MS, "The kitchen tap is dripping again"),
        ],
    );
    seed_said(
        &mut e,
        "bo",
        &[(said, "We fly to Oslo in March for the summit")],
    );
    let mut r = req("ana", "Where did we travel in March?");
    r.as_of = Some(asked);
    r.min_score = Some(0.0);
    let hits = e.search(&r).unwrap();
    let tells = |c: &str| {
        hits.iter()
            .find(|h| h.memory.content.starts_with(c))
            .map(|h| h.why.period.as_ref().is_some_and(|p| p.tells))
    };
    assert_eq!(tells("We fly to Lisbon"), Some(true), "{hits:#?}");
    assert_ne!(
        tells("We went to Porto"),
        Some(true),
        "told of the March before"
    );
    assert!(hits.iter().all(|h| h.memory.entity_id.as_str() == "ana"));
    assert_eq!(
        hits[0].memory.content,
        "We fly to Lisbon in March for the conference"
    );
}

/// A plan's time is read by the same calendar reader as the question's, so what a user tells
/// ("before Christmas", "by December", "the week after next") is due when a question about
/// that time asks, through `remember` and the extractor alone. Another owner's plan for the
/// same days is never the answer.
#[test]
fn a_plan_told_for_a_holiday_a_month_or_a_week_is_due_when_asked_of_it() {
    let (mut e, clock) = engine_with_config(without_dedup());
    // Wednesday 2026-11-18, 10:00 UTC.
    let now: Millis = 1_794_996_000_000;
    let end_of = |y: i32, m: u8, d: u8| {
        let day = time::Date::from_calendar_date(y, time::Month::try_from(m).unwrap(), d).unwrap();
        day.midnight().assume_utc().unix_timestamp() * 1000 + DAY_MS - 1
    };
    clock.set(now);
    tell(
        &mut e,
        "ana",
        &[
            "I need to buy the presents before Christmas.",
            "I have to renew my passport by December.",
            "My performance review is the week after next.",
            "I went to the dentist yesterday.",
        ],
    );
    tell(
        &mut e,
        "bo",
        &["I need to buy a gift for my niece before Christmas."],
    );
    let due = |e: &mut Engine, q: &str| -> Vec<(String, Option<Millis>)> {
        let mut r = req("ana", q);
        r.min_score = Some(0.0);
        e.search(&r)
            .unwrap()
            .into_iter()
            .filter(|h| h.why.period.as_ref().is_some_and(|p| p.tells))
            .map(|h| (h.memory.content, h.memory.expires_at))
            .collect()
    };
    let december = due(&mut e, "What is due next month?");
    let mut told: Vec<_> = december.iter().map(|(c, _)| c.as_str()).collect();
    told.sort();
    assert_eq!(
        told,
        [
            "I have to renew my passport by December.",
            "I need to buy the presents before Christmas.",
            "My performance review is the week after next.",
        ],
        "{december:?}"
    );
    let expires = |c: &str| {
        december
            .iter()
            .find(|(x, _)| x.starts_with(c))
            .and_then(|x| x.1)
    };
    assert_eq!(
        expires("I need to buy"),
        Some(end_of(2026, 12, 23)),
        "the day before Christmas Eve"
    );
    assert_eq!(expires("I have to renew"), Some(end_of(2026, 12, 31)));
    assert_eq!(
        expires("My performance"),
        Some(end_of(2026, 12, 6)),
        "Sunday of the week after next"
    );
    let review = due(&mut e, "What do I have the week after next?");
    assert!(
        review
            .iter()
            .any(|(c, _)| c.starts_with("My performance review")),
        "{review:?}"
    );
    assert!(
        review.iter().all(|(c, _)| !c.contains("dentist")),
        "what was done is due at no time ahead: {review:?}"
    );
}

/// A question asked "as of" a time, or before or after one, ranks first what was said on that
/// side of it; `why` shows the span with its open side absent.
#[test]
fn a_question_asked_as_of_a_time_ranks_what_was_said_by_then_first() {
    let (mut e, clock) = engine_with_config(without_dedup());
    // 2023-01-15, 2023-07-15 and 2023-10-15, noon UTC; 2023-10-01 midnight.
    let (jan, jul, oct) = (1_673_784_000_000, 1_689_422_400_000, 1_697_371_200_000);
    let october = 1_696_118_400_000;
    let said = [
        (jan, "I adopted a puppy called Toby"),
        (jul, "I adopted another dog called Buddy"),
        (oct, "I adopted a third dog called Scout"),
    ];
    clock.set(oct + 30 * DAY_MS);
    seed_said(&mut e, "ana", &said);
    let ask = |e: &mut Engine, q: &str| {
        let hits = e.search(&req("ana", q)).unwrap();
        let contents: Vec<String> = hits.iter().map(|h| h.memory.content.clone()).collect();
        (hits, contents)
    };
    let (hits, contents) = ask(&mut e, "Which dogs had I adopted as of September 2023?");
    assert_eq!(contents.len(), 3, "{contents:?}");
    assert!(contents[2].contains("Scout"), "{contents:?}");
    let period = hits[0].why.period.clone().expect("the span is shown");
    assert_eq!((period.after, period.before), (None, Some(october)));
    assert!(period.inside && !hits[2].why.period.clone().unwrap().inside);
    // Its words are not matched as text.
    assert!(hits[0].why.matched.iter().all(|w| w != "september"));
    let (_, contents) = ask(&mut e, "Which dog did I adopt after August 2023?");
    assert!(contents[0].contains("Scout"), "{contents:?}");
    let (hits, contents) = ask(&mut e, "Which dog did I adopt before March 2023?");
    assert!(contents[0].contains("Toby"), "{contents:?}");
    let period = hits[0].why.period.clone().unwrap();
    assert_eq!(period.after, None);
    // Shown in the JSON with its open side absent.
    let json = serde_json::to_value(&period).unwrap();
    assert!(
        json.get("after").is_none() && json.get("before").is_some(),
        "{json}"
    );
}

/// A memory said after the span a question names, that names a time inside it ("last month",
/// said in April, of March), is of the span too: it ranks with what was said there, and `why`
/// says it tells of the span. A window the caller gives keeps to when memories were said.
#[test]
fn a_question_naming_a_time_finds_what_was_said_later_of_that_time() {
    let (mut e, clock) = engine_with_config(without_dedup());
    // 2023-03-01 and 2023-04-01, midnight UTC.
    let (march, april) = (1_677_628_800_000, 1_680_307_200_000);
    let at = |start: Millis, day: i64| start + day * DAY_MS + 12 * 3_600_000;
    let said = [
        (at(march, -10), "I went to a convention about databases"),
        (at(march, 11), "I repainted the kitchen blue"),
        (
            at(april, 9),
            "My colleagues and I went to a convention about robots last month",
        ),
        (
            at(april, 10),
            "I went to a convention about gardens yesterday",
        ),
        (at(april, 10), "We are planning a convention of our own"),
    ];
    clock.set(at(april, 20));
    seed_said(&mut e, "ana", &said);
    let hits = e
        .search(&req("ana", "Which convention did I go to in March 2023?"))
        .unwrap();
    let contents: Vec<&str> = hits.iter().map(|h| h.memory.content.as_str()).collect();
    assert!(contents[0].contains("robots"), "{contents:?}");
    let first = hits[0].why.period.clone().expect("the span is shown");
    assert!(first.tells && !first.inside, "{first:?}");
    assert_eq!((first.after, first.before), (Some(march), Some(april)));
    // The others said of other times, or of none, follow, and do not tell of it.
    for h in &hits[1..] {
        let p = h.why.period.as_ref().unwrap();
        assert!(!p.tells, "{}: {p:?}", h.memory.content);
    }
    // Said before the span, "last month" names February: not of March.
    let told = |e: &mut Engine, q: &str| {
        e.search(&req("ana", q))
            .unwrap()
            .iter()
            .filter(|h| h.why.period.as_ref().is_some_and(|p| p.tells))
            .count()
    };
    assert_eq!(
        told(&mut e, "Which convention did I go to in February 2023?"),
        0
    );
    // "yesterday", said on 11 April, tells of 10 April.
    assert_eq!(
        told(&mut e, "Which convention did I go to on 10 April 2023?"),
        1
    );
    // A window the caller gives keeps to when memories were said.
    let windowed = e
        .search(&SearchRequest {
            after: Some(march),
            before: Some(april),
            min_score: Some(0.0),
            ..req("ana", "Which convention did I go to?")
        })
        .unwrap();
    assert!(
        windowed
            .iter()
            .all(|h| h.memory.content.contains("kitchen")),
        "{:?}",
        windowed
            .iter()
            .map(|h| &h.memory.content)
            .collect::<Vec<_>>()
    );
}

/// What was said within a month after the span a question names, naming a time inside it, is
/// found even when the whole store's candidates for the question do not reach it; and a memory
/// said in the span needs less relevance than elsewhere.
#[test]
fn a_span_holds_what_was_said_soon_after_of_it_beyond_the_query_s_candidates() {
    let (mut e, clock) = engine_with_config(without_dedup());
    // 2023-11-01, midnight UTC; a Thursday on the 16th.
    let november = 1_698_796_800_000;
    let at = |day: i64| november + (day - 1) * DAY_MS + 12 * 3_600_000;
    let mut items: Vec<NewMemory> = (0..120)
        .map(|i| NewMemory {
            created_at: Some(at(-300 + i)),
            ..mem(
                "tim",
                &format!("Which country is worth visiting, I wonder: country number {i} maybe"),
            )
        })
        .collect();
    items.push(NewMemory {
        created_at: Some(at(16)),
        ..mem(
            "tim",
            "I went to a castle during my trip to the UK last Friday and it was unbelievable",
        )
    });
    clock.set(at(60));
    e.seed(items).unwrap();
    let question = "Which country was I visiting in the second week of November 2023?";
    let hits = e.search(&req("tim", question)).unwrap();
    let castle = hits
        .iter()
        .position(|h| h.memory.content.contains("castle"))
        .unwrap_or_else(|| {
            panic!(
                "{:?}",
                hits.iter().map(|h| &h.memory.content).collect::<Vec<_>>()
            )
        });
    assert_eq!(castle, 0);
    assert!(hits[0]
        .why
        .period
        .as_ref()
        .is_some_and(|p| p.tells && !p.inside));
    // Without a span, the question's candidates are the 120 wonderings.
    let plain = e
        .search(&req("tim", "Which country was I visiting?"))
        .unwrap();
    assert!(plain.iter().all(|h| !h.memory.content.contains("castle")));
}

/// A memory said in the span a question names needs half the relevance it needs elsewhere.
#[test]
fn a_memory_of_the_span_asked_about_needs_less_relevance() {
    let (mut e, clock) = engine_with_config(without_dedup());
    // 2022-04-15 and 2022-07-01, noon UTC.
    let (april, july) = (1_650_024_000_000, 1_656_676_800_000);
    e.seed(vec![
        NewMemory {
            created_at: Some(april),
            ..mem("nate", "Dyed my hair last week - come see!")
        },
        NewMemory {
            created_at: Some(july),
            ..mem("nate", "Dyed my hair again, green this time")
        },
    ])
    .unwrap();
    clock.set(july + 30 * DAY_MS);
    let found = |e: &mut Engine, q: &str| -> Vec<(String, f64)> {
        e.search(&req("nate", q))
            .unwrap()
            .into_iter()
            .map(|h| (h.memory.content, h.why.relevance))
            .collect()
    };
    let q = "What physical transformation did I undergo";
    let plain = found(&mut e, &format!("{q}?"));
    let spanned = found(&mut e, &format!("{q} in April 2022?"));
    // 0.06 relevant: below the 0.1 any search needs, above the 0.05 the span's memories need.
    assert!(plain.is_empty(), "{plain:?}");
    assert_eq!(spanned.len(), 1, "{spanned:?}");
    assert!(spanned[0].0.contains("last week") && spanned[0].1 < MIN_RELEVANCE);
    // A caller's own minimum holds in the span too.
    let strict = e
        .search(&SearchRequest {
            min_score: Some(MIN_RELEVANCE),
            ..req("nate", &format!("{q} in April 2022?"))
        })
        .unwrap();
    assert!(strict.is_empty());
}

/// A day or a week the question names, none of whose memories answers in words, is read whole;
/// a longer span is not, and the search falls back to the whole store.
#[test]
fn a_short_span_that_answers_nothing_in_words_is_read_whole() {
    let (mut e, clock) = engine_with_config(without_dedup());
    // 2026-03-27 and 2026-03-13, 15:00 UTC.
    let (demo, milestone) = (1_774_623_600_000, 1_773_414_000_000);
    clock.set(demo + 10 * DAY_MS);
    e.seed(vec![
        NewMemory {
            created_at: Some(demo),
            ..mem(
                "ana",
                "Demoed the new dashboard to the client; they loved it.",
            )
        },
        NewMemory {
            created_at: Some(milestone),
            ..mem(
                "ana",
                "We shipped the billing migration milestone at work today.",
            )
        },
    ])
    .unwrap();
    clock.set(demo + 10 * DAY_MS);
    let first =
        |e: &mut Engine, q: &str| e.search(&req("ana", q)).unwrap()[0].memory.content.clone();
    assert!(first(&mut e, "What happened at work on 27 March?").starts_with("Demoed"));
    // Without the day, or with a month, the words decide.
    assert!(first(&mut e, "What happened at work?").contains("milestone"));
    assert!(first(&mut e, "What happened at work in March 2026?").contains("milestone"));
}

/// "On weekends in March" keeps to March's Saturdays and Sundays first; its weekdays come
/// after, as said outside the span.
#[test]
fn days_of_the_week_named_with_a_span_are_kept_to_within_it() {
    let (mut e, clock) = engine_with_config(without_dedup());
    // 2026-03-07 (a Saturday) at 10:00 UTC, and days after it.
    let saturday = 1_772_877_600_000;
    clock.set(saturday + 40 * DAY_MS);
    let said = [
        (0, "Went hiking in Sintra with Lena."),
        (1, "Baked sourdough and called mum."),
        (2, "Long meeting about the quarterly budget."),
        (3, "Ran 5 km along the river before work."),
        (7, "Cycled to the beach at Cascais."),
        (30, "Ran 5 km along the river in April."),
    ];
    e.seed(
        said.iter()
            .map(|(day, text)| NewMemory {
                created_at: Some(saturday + day * DAY_MS),
                ..mem("ana", text)
            })
            .collect(),
    )
    .unwrap();
    let hits = e
        .search(&req("ana", "What did I do on weekends in March?"))
        .unwrap();
    let inside: Vec<&str> = hits
        .iter()
        .filter(|h| h.why.period.as_ref().is_some_and(|p| p.inside))
        .map(|h| h.memory.content.as_str())
        .collect();
    assert_eq!(inside.len(), 3, "{inside:?}");
    for weekend in [said[0].1, said[1].1, said[4].1] {
        assert!(inside.contains(&weekend), "{weekend}: {inside:?}");
    }
    // The weekend's memories come first, before March's weekdays.
    let first: Vec<&str> = hits[..3]
        .iter()
        .map(|h| h.memory.content.as_str())
        .collect();
    assert!(!first
        .iter()
        .any(|c| c.contains("budget") || c.contains("before work")));
    // Without the days, every memory of March is in the span.
    let march = e.search(&req("ana", "What did I do in March?")).unwrap();
    let in_march = march
        .iter()
        .filter(|h| h.why.period.as_ref().is_some_and(|p| p.inside));
    assert_eq!(in_march.count(), 5);
}

/// A question asking for several things takes answers of less relevance than one asking for
/// one: its answers share fewer of its words each.
#[test]
fn a_question_asking_for_several_things_reaches_further() {
    let (mut e, _) = engine_with_config(without_dedup());
    e.seed(vec![
        mem("ana", "Started reading The Overstory by Richard Powers."),
        mem(
            "ana",
            "Finished The Overstory and started Piranesi by Susanna Clarke.",
        ),
        mem("ana", "Started Klara and the Sun by Kazuo Ishiguro."),
        mem(
            "ana",
            "Bought a new espresso machine from the department store.",
        ),
        mem("ana", "Made lasagne from scratch for the first time."),
    ])
    .unwrap();
    let found = |e: &mut Engine, q: &str| -> Vec<(String, f64)> {
        e.search(&req("ana", q))
            .unwrap()
            .into_iter()
            .map(|h| (h.memory.content, h.why.relevance))
            .collect()
    };
    let several = found(&mut e, "Which books have I read or started?");
    let one = found(&mut e, "Books I have read or started?");
    // Klara and the Sun is 0.05 relevant: enough for the list, not for a plain question.
    assert_eq!(several.len(), 3, "{several:?}");
    assert!(several[2].0.contains("Klara") && several[2].1 < MIN_RELEVANCE);
    assert_eq!(one.len(), 2, "{one:?}");
}

/// A question asking when ranks a memory that names a time above one that does not, and
/// `why.when_multiplier` says so; other questions do not.
#[test]
fn a_question_asking_when_prefers_the_memory_that_names_a_time() {
    let (mut e, _) = engine_with_config(without_dedup());
    e.seed(vec![
        mem("ana", "I went to the dentist and the dentist was kind"),
        mem("ana", "Had a check-up with my dentist yesterday"),
    ])
    .unwrap();
    let first = |e: &mut Engine, q: &str| {
        let hits = e.search(&req("ana", q)).unwrap();
        (hits[0].memory.content.clone(), hits[0].why.when_multiplier)
    };
    let (content, boost) = first(&mut e, "When did I go to the dentist?");
    assert!(content.contains("yesterday"), "{content}");
    assert_eq!(boost, WHEN_BOOST);
    let (content, boost) = first(&mut e, "Did I go to the dentist?");
    assert!(content.contains("kind"), "{content}");
    assert_eq!(boost, 1.0);
    // A time still to come when it was said names a time as well.
    e.seed(vec![
        mem("ben", "I will visit my aunt and my aunt will cook"),
        mem("ben", "I'll visit my aunt tomorrow"),
    ])
    .unwrap();
    let hits = e.search(&req("ben", "When will I visit my aunt?")).unwrap();
    assert!(
        hits[0].memory.content.contains("tomorrow"),
        "{:?}",
        hits[0].memory.content
    );
    assert_eq!(hits[0].why.when_multiplier, WHEN_BOOST);
    assert_eq!(hits[1].why.when_multiplier, 1.0);
}

#[test]
fn a_question_asking_for_the_first_or_the_most_recent_ranks_in_that_order_of_time() {
    let (mut e, _) = engine();
    let day = 86_400_000;
    let books = [
        (T0 - 30 * day, "Started reading a new book: The Overstory."),
        (T0 - 20 * day, "Started reading a new book: Piranesi."),
        (T0 - 10 * day, "Started reading a new book: Middlemarch."),
    ];
    // Said out of order: the order asked for is the order of when each was said.
    let mut said = Vec::new();
    for at in [1, 0, 2] {
        let (created_at, content) = books[at];
        let id = seed_one(
            &mut e,
            NewMemory {
                created_at: Some(created_at),
                ..mem("ana", content)
            },
        );
        said.push((at, id));
    }
    said.sort();
    let book = |i: usize| said[i].1.clone();
    seed_one(&mut e, mem("ana", "Ana drinks green tea in the morning."));
    let top = |e: &mut Engine, q: &str| ids(&e.search(&req("ana", q)).unwrap());
    let first = top(&mut e, "What was the first book I started reading?");
    assert_eq!(first[..3], [book(0), book(1), book(2)], "{first:?}");
    let latest = top(&mut e, "What is the most recent book I started reading?");
    assert_eq!(latest[..3], [book(2), book(1), book(0)], "{latest:?}");
    // `why` says which hits were put in the order asked for, and which order.
    let hits = e
        .search(&req("ana", "What was the first book I started reading?"))
        .unwrap();
    let orders: Vec<_> = hits.iter().map(|h| h.why.order).collect();
    assert_eq!(
        orders[..3],
        [Some(period::Order::Earliest); 3],
        "{orders:?}"
    );
    assert!(
        hits[3..].iter().all(|h| h.why.order.is_none()),
        "{orders:?}"
    );
    let json = serde_json::to_value(&hits[0].why).unwrap();
    assert_eq!(json["order"], "earliest");
    // Without an ordering word the same three come back, by relevance and the mode's score.
    let plain = top(&mut e, "Which book did I start reading?");
    let plain_hits = e
        .search(&req("ana", "Which book did I start reading?"))
        .unwrap();
    assert!(plain_hits.iter().all(|h| h.why.order.is_none()));
    let mut three = plain[..3].to_vec();
    three.sort();
    let mut all = vec![book(0), book(1), book(2)];
    all.sort();
    assert_eq!(three, all);
}

#[test]
fn a_question_in_one_form_of_a_word_finds_memories_saying_another() {
    let (mut e, _) = engine();
    let bought = seed_one(
        &mut e,
        mem(
            "ana",
            "Bought a new espresso machine from the department store.",
        ),
    );
    for content in [
        "The department store closes early on Sundays.",
        "Ana drinks green tea in the morning.",
        "The espresso at the station cafe is bitter.",
    ] {
        seed_one(&mut e, mem("ana", content));
    }
    // "buy" is not "bought" to the stemmer: the text match reads the word's forms.
    let hits = e.search(&req("ana", "What did I buy?")).unwrap();
    assert_eq!(hits[0].memory.id, bought, "{:?}", ids(&hits));
    assert_eq!(hits[0].why.matched, ["buy"]);
    assert!(hits[0].why.text > 0.0);
}

#[test]
fn the_word_asking_for_an_order_of_time_is_not_matched_as_text() {
    let (mut e, _) = engine();
    let day = 86_400_000;
    let runs = [
        (
            T0 - 40 * day,
            "Went for a 5 km run along the river before work.",
        ),
        (
            T0 - 30 * day,
            "Short 4 km run today, it was raining the whole time.",
        ),
        (
            T0 - 20 * day,
            "Did an interval run on the track: six sprints of 400 metres.",
        ),
        (
            T0 - 10 * day,
            "Ran 10 km with the running club for the first time.",
        ),
    ];
    let mut said = Vec::new();
    for (created_at, content) in runs {
        said.push(seed_one(
            &mut e,
            NewMemory {
                created_at: Some(created_at),
                ..mem("ana", content)
            },
        ));
    }
    // "first" asks which run came first: the club run's "for the first time" says nothing
    // of that, and matching it put the latest run first.
    let hits = e.search(&req("ana", "When was my first run?")).unwrap();
    assert_eq!(hits[0].memory.id, said[0], "{:?}", ids(&hits));
    assert_eq!(hits[0].why.order, Some(period::Order::Earliest));
    assert!(!hits
        .iter()
        .any(|h| h.why.matched.iter().any(|w| w == "first")));
}

#[test]
fn the_important_mode_weighs_all_nine_factors() {
    let (mut e, clock) = engine();
    // Equally relevant. The second was written more important; the first is used every few
    // days for three weeks and confirmed in another session.
    let used = seed_one(
        &mut e,
        NewMemory {
            importance: Some(unit(0.5)),
            session_id: Some(id("s1")),
            ..mem("u", "the falcon launch code is blue")
        },
    );
    let said = seed_one(
        &mut e,
        NewMemory {
            importance: Some(unit(0.7)),
            ..mem("u", "the falcon launch code is green")
        },
    );
    for day in 1..=7 {
        clock.set(T0 + 3 * day * DAY_MS);
        e.get("u", &used).unwrap();
    }
    let again = e
        .seed(vec![NewMemory {
            session_id: Some(id("s2")),
            ..mem("u", "the falcon launch code is blue")
        }])
        .unwrap();
    assert!(
        matches!(
            again.outcomes[0],
            Outcome::Skipped {
                reason: SkipReason::Corroborated,
                ..
            }
        ),
        "{again:?}"
    );
    clock.set(T0 + 22 * DAY_MS);
    let hits = |e: &mut Engine, mode| {
        e.search(&SearchRequest {
            mode,
            ..req("u", "falcon launch code")
        })
        .unwrap()
    };
    let important = hits(&mut e, RankMode::Important);
    assert_eq!(ids(&important), vec![used.clone(), said.clone()]);
    let f = important[0].why.importance_factors;
    assert!(
        f.frequency > 0.5 && f.stability > 0.9 && f.confirmations > 0.4,
        "{f:?}"
    );
    assert_eq!(f.base, important[0].memory.importance);
    assert!((important[0].why.importance - f.weighed()).abs() < 1e-12);
    let g = important[1].why.importance_factors;
    assert_eq!((g.frequency, g.stability, g.confirmations), (0.0, 0.0, 0.0));
    assert!(
        g.recency < f.recency && g.activation < f.activation,
        "{g:?}"
    );
    // Other modes weigh recency and retention themselves, and importance as written.
    let balanced = hits(&mut e, RankMode::Balanced);
    for h in &balanced {
        assert_eq!(h.why.importance, h.why.importance_factors.base);
    }
}

#[test]
fn a_question_placed_before_or_after_an_event_reads_the_time_around_it() {
    let (mut e, clock) = engine();
    clock.set(T0 + 30 * DAY_MS);
    let said = [
        ("Yoga class in the evening.", 1),
        (
            "Weekend hiking trip in Sintra; we climbed up to the Moorish castle.",
            4,
        ),
        (
            "Second day in Sintra: visited the Pena palace and came home.",
            5,
        ),
        ("Bought a new espresso machine for the kitchen.", 7),
        ("Went for a 10 km run along the river.", 9),
        ("Saw the doctor about my knee; she said to rest it.", 12),
        ("Baked sourdough bread for the first time.", 14),
        ("Celebrated my birthday with dinner at Luigi's.", 17),
        ("Got a new watch as a present from Ana.", 17),
        ("Fixed the bike's flat tyre.", 18),
    ];
    let mut ids = Vec::new();
    for (content, day) in said {
        ids.push(seed_one(
            &mut e,
            NewMemory {
                created_at: Some(T0 + day * DAY_MS),
                ..mem("u", content)
            },
        ));
    }
    let first = |e: &mut Engine, q: &str| {
        let hits = e.search(&req("u", q)).unwrap();
        (hits[0].memory.id.clone(), hits[0].why.clone())
    };
    // After the trip's last day, the nearest first; before the appointment, the latest.
    let (id, why) = first(&mut e, "What did I do right after the Sintra trip?");
    assert_eq!(id, ids[3]);
    assert_eq!(why.order, Some(period::Order::Earliest));
    let p = why.period.expect("the span after the trip");
    assert_eq!((p.after, p.inside), (Some(T0 + 5 * DAY_MS + 1), true));
    let (id, _) = first(
        &mut e,
        "What was the last thing I did before the doctor's appointment?",
    );
    assert_eq!(id, ids[4]);
    // During it: the days the event was spoken of, whatever else was said then.
    let during = |e: &mut Engine, q: &str| -> Vec<(String, bool)> {
        let hits = e.search(&req("u", q)).unwrap();
        hits.iter()
            .map(|h| {
                let inside = h.why.period.as_ref().is_some_and(|p| p.inside);
                (h.memory.id.clone(), inside)
            })
            .collect()
    };
    // The memories inside the span, in id order, and whether they lead the answer.
    let inside = |hits: &[(String, bool)]| -> (Vec<String>, bool) {
        let mut ids: Vec<String> = hits.iter().filter(|h| h.1).map(|h| h.0.clone()).collect();
        ids.sort();
        let first = hits.iter().take(ids.len()).all(|h| h.1);
        (ids, first)
    };
    let trip = during(&mut e, "What did I do during the Sintra trip?");
    let want = vec![ids[1].clone(), ids[2].clone()];
    assert_eq!(inside(&trip), (want, true), "{trip:?}");
    let birthday = during(&mut e, "What happened on my birthday?");
    let want = vec![ids[7].clone(), ids[8].clone()];
    assert_eq!(inside(&birthday), (want, true), "{birthday:?}");
    // A question that names what it asks about is matched by that; an event nothing says is
    // no anchor; comparing two events is not one either.
    let (_, why) = first(&mut e, "What did I bake after the doctor's appointment?");
    assert_eq!(why.period, None);
    let (_, why) = first(&mut e, "What did I do after the marathon in Tokyo?");
    assert_eq!(why.period, None);
    let (_, why) = first(
        &mut e,
        "Did I see the doctor before or after the yoga class?",
    );
    assert_eq!(why.period, None);
}

/// An event whose memory names its time is placed at that time, not at when it was said:
/// "the Sintra trip is next weekend", said on Monday, is of that weekend, so what came right
/// after the trip is what was said after the weekend, not what was said on Tuesday. Another
/// owner's trip does not move this owner's.
#[test]
fn an_event_told_ahead_is_placed_at_the_time_it_names() {
    let (mut e, clock) = engine_with_config(without_dedup());
    // Monday 2026-11-16; "next weekend" is Saturday the 28th and Sunday the 29th.
    let monday: Millis = 1_794_819_600_000;
    clock.set(monday + 16 * DAY_MS);
    seed_said(
        &mut e,
        "ana",
        &[
            (
                monday,
                "The Sintra trip is next weekend, we booked the train",
            ),
            (monday + 2 * DAY_MS, "Bought new hiking boots at the mall"),
            (monday + 14 * DAY_MS, "Had dinner with Rui at the harbour"),
            (monday + 15 * DAY_MS, "Fixed the bike's flat tyre"),
        ],
    );
    seed_said(
        &mut e,
        "bo",
        &[(monday + 3 * DAY_MS, "Bo's Sintra trip was today")],
    );
    let mut r = req("ana", "What did I do right after the Sintra trip?");
    r.limit = Limit::new(2).ok();
    let hits = e.search(&r).unwrap();
    assert_eq!(
        hits.first().map(|h| h.memory.content.as_str()),
        Some("Had dinner with Rui at the harbour"),
        "{hits:#?}"
    );
    let period = hits[0].why.period.clone().expect("the span is shown");
    // After the weekend's last moment.
    assert_eq!(period.after, Some(monday - 9 * 3_600_000 + 14 * DAY_MS));
    assert!(hits.iter().all(|h| h.memory.entity_id.as_str() == "ana"));
}

/// What the speaker said of her people, and things around them that share the question's
/// words ("city", "live").
const PEOPLE: &[&str] = &[
    "My sister Ana is a nurse.",
    "Ana lives in Lisbon now, near the river.",
    "My brother Tom works at a bank.",
    "Tom moved to Berlin last year.",
    "I live in Porto with my cat.",
    "Sara lives in Madrid.",
    "My favourite city to visit is Rome.",
    "The city council meets on Mondays.",
    "We had pasta for dinner yesterday.",
    "I want to visit Tokyo some day.",
];

/// The hit saying `content`, where it ranked, and the hop that found it.
fn hit<'h>(hits: &'h [SearchHit], content: &str) -> Option<(usize, &'h SearchHit)> {
    hits.iter()
        .enumerate()
        .find(|(_, h)| h.memory.content == content)
}

#[test]
fn a_relation_the_question_names_is_followed_through_the_graph_to_who_it_is() {
    let (mut e, _) = engine();
    tell(&mut e, "u", PEOPLE);
    // "my sister" is Ana: the memory of where Ana lives shares no word but "live" with the
    // question, and ranks first through her name.
    let hits = search(&mut e, "u", "Which city does my sister live in?");
    let (rank, lisbon) = hit(&hits, PEOPLE[1]).expect("found through Ana");
    assert_eq!(rank, 0, "{:#?}", ids_and_hops(&hits));
    let sister = Hop {
        phrase: "my sister".into(),
        entity: "Ana".into(),
    };
    assert_eq!(lisbon.why.hop.as_ref(), Some(&sister));
    assert_eq!(
        lisbon.why.matched,
        ["ana", "live"],
        "the words of the search with her name"
    );
    // And embedded with her name: the vector is the question's as if it had said "Ana".
    let named = search(&mut e, "u", "Which city does Ana live in?");
    let (_, by_name) = hit(&named, PEOPLE[1]).expect("found by name");
    assert_eq!(lisbon.why.vector, by_name.why.vector);
    // A vector the caller supplies is the one searched with: the engine embeds no text then.
    let asked = "Which city does my sister live in?";
    let vector = e
        .embed(&EmbedRequest {
            texts: vec![asked.into()],
        })
        .unwrap()
        .vectors
        .remove(0);
    let supplied = e
        .search(&SearchRequest {
            vector: Some(vector),
            ..SearchRequest::new(id("u"), asked)
        })
        .unwrap();
    let (_, as_supplied) = hit(&supplied, PEOPLE[1]).expect("found through Ana");
    assert!(as_supplied.why.vector < by_name.why.vector, "{supplied:#?}");
    assert_eq!(as_supplied.why.hop.as_ref(), Some(&sister));
    // The brother is a sibling too, but the statements call only Ana a sister.
    assert!(hits
        .iter()
        .all(|h| h.why.hop.as_ref().is_none_or(|h| h.entity == "Ana")));
    let hits = search(&mut e, "u", "Where does my brother live now?");
    let (rank, berlin) = hit(&hits, PEOPLE[3]).expect("found through Tom");
    assert!(rank < 5, "{:#?}", ids_and_hops(&hits));
    assert_eq!(
        berlin.why.hop.as_ref().map(|h| h.entity.as_str()),
        Some("Tom")
    );
    // Asked without the relation, the question finds Ana's city by the words it shares with
    // other memories only: the hop is what found it.
    let plain = search(&mut e, "u", "Which city does she live in?");
    assert!(
        hit(&plain, PEOPLE[1]).is_none_or(|(rank, _)| rank > 0),
        "{:#?}",
        ids_and_hops(&plain)
    );
    assert!(plain.iter().all(|h| h.why.hop.is_none()));
}

#[test]
fn a_host_that_embeds_ahead_of_a_search_embeds_the_question_with_who_it_names() {
    // The engine embedding by itself, and one whose host hands the vectors over ahead of each
    // call (the npm package's page model), the same model's vectors in both.
    let (mut own, _) = engine();
    let (model, dim) = own.embedding_model();
    let supplied = SuppliedVectors::new(model, dim);
    let on_hand = supplied.on_hand();
    let mut e = Engine::builder(ManualClock::new(T0))
        .embedder(supplied)
        .open_in_memory()
        .unwrap();
    let vectors = |own: &Engine, texts: &[String]| {
        own.embed(&EmbedRequest {
            texts: texts.to_vec(),
        })
        .unwrap()
        .vectors
        .concat()
    };
    for said in PEOPLE {
        let texts = vec![said.to_string()];
        on_hand.hand(texts.clone(), &vectors(&own, &texts)).unwrap();
        e.remember("u", said, RememberOptions::default()).unwrap();
        own.remember("u", said, RememberOptions::default()).unwrap();
    }
    let asked = "Which city does my sister live in?";
    let args = json!({"entity_id": "u", "query": asked}).to_string();
    let texts = e.texts_to_embed("search", &args).unwrap();
    assert_eq!(texts.len(), 2, "{texts:?}");
    assert!(
        texts[0].contains("Ana") && !texts[0].contains("sister"),
        "{texts:?}"
    );
    assert_eq!(texts[1], asked);
    // Without them the engine has no vector to search with, and says so.
    on_hand.hand(Vec::new(), &[]).unwrap();
    let refused = e.call_json("search", &args).unwrap_err();
    assert_eq!(refused.code(), "embedder_error", "{refused}");
    // With them, the search is the one the engine makes embedding by itself.
    on_hand.hand(texts.clone(), &vectors(&own, &texts)).unwrap();
    let handed = search(&mut e, "u", asked);
    let by_itself = search(&mut own, "u", asked);
    let (rank, lisbon) = hit(&handed, PEOPLE[1]).expect("found through Ana");
    assert_eq!(rank, 0, "{:#?}", ids_and_hops(&handed));
    let (_, theirs) = hit(&by_itself, PEOPLE[1]).expect("found through Ana");
    assert_eq!(lisbon.why.vector, theirs.why.vector);
    assert_eq!(lisbon.why.hop, theirs.why.hop);
    // A question naming no one the graph knows embeds as asked; another owner's is not read.
    let plain = json!({"entity_id": "u", "query": "Which city does she live in?"}).to_string();
    assert_eq!(
        e.texts_to_embed("search", &plain).unwrap(),
        ["Which city does she live in?"]
    );
    let other = json!({"entity_id": "v", "query": asked}).to_string();
    assert_eq!(e.texts_to_embed("search", &other).unwrap(), [asked]);
    // A vector given is searched as given: nothing to embed. Other calls embed nothing here.
    let given = json!({"entity_id": "u", "query": asked, "vector": vec![0.5; dim]}).to_string();
    assert!(e.texts_to_embed("search", &given).unwrap().is_empty());
    let list = json!({"entity_id": "u"}).to_string();
    assert!(e.texts_to_embed("list", &list).unwrap().is_empty());
    // Bad arguments get the search's own errors, by path.
    for (bad, field) in [
        (json!({"entity_id": "u", "query": ""}), "query"),
        (json!({"entity_id": "u", "query": 7}), "query"),
        (json!({"entity_id": "bad id!", "query": asked}), "entity_id"),
        (
            json!({"entity_id": "u", "query": "x".repeat(10_001)}),
            "query",
        ),
    ] {
        let err = e.texts_to_embed("search", &bad.to_string()).unwrap_err();
        assert_eq!(err.code(), "invalid_input", "{bad}: {err}");
        assert!(err.to_string().contains(field), "{bad}: {err}");
    }
    assert!(e.texts_to_embed("search", "{").is_err());
    assert!(e.texts_to_embed("no_such_call", "{}").is_err());
}

#[test]
fn a_relation_of_someone_named_is_followed_from_their_name() {
    let (mut e, _) = engine();
    tell(
        &mut e,
        "u",
        &[
            "Ana's husband Tom is a chef.",
            "Tom works at the harbour restaurant.",
            "My sister Ana is a nurse.",
            "I work at the library.",
            "Ana works at the hospital.",
        ],
    );
    let hits = search(&mut e, "u", "Where does Ana's husband work?");
    let (rank, harbour) = hit(&hits, "Tom works at the harbour restaurant.").expect("found");
    assert_eq!(rank, 0, "{:#?}", ids_and_hops(&hits));
    assert_eq!(
        harbour.why.hop.as_ref(),
        Some(&Hop {
            phrase: "Ana's husband".into(),
            entity: "Tom".into()
        })
    );
    // Chained: "my sister" is Ana, and Ana's husband is Tom.
    let hits = search(&mut e, "u", "Where does my sister's husband work?");
    let (rank, harbour) = hit(&hits, "Tom works at the harbour restaurant.").expect("found");
    assert_eq!(rank, 0, "{:#?}", ids_and_hops(&hits));
    assert_eq!(
        harbour.why.hop.as_ref(),
        Some(&Hop {
            phrase: "my sister's husband".into(),
            entity: "Tom".into()
        })
    );
    // A name the graph does not hold, or holds with no such relation, is left as asked; so
    // is a chain the graph does not answer to its end.
    for q in [
        "Where does Zoe's husband work?",
        "Where does Tom's husband work?",
        "Where does my sister's wife work?",
        "Where does my brother's husband work?",
        "Where does my sister's husband's husband work?",
    ] {
        let hits = search(&mut e, "u", q);
        assert!(
            hits.iter().all(|h| h.why.hop.is_none()),
            "{q}: {:#?}",
            ids_and_hops(&hits)
        );
    }
}

#[test]
fn a_place_or_group_the_question_names_is_followed_to_its_name() {
    let (mut e, _) = engine();
    tell(
        &mut e,
        "u",
        &[
            "I work at Acme Robotics.",
            "Acme Robotics makes warehouse robots.",
            "My brother makes furniture.",
            "I make sourdough bread on Sundays.",
            "I studied at Lakeside College.",
            "Lakeside College opened a new library in May.",
        ],
    );
    // No statement calls Acme "my company": working there is what makes it so. What the user
    // makes, or her brother, shares more of the question's words, and ranks below.
    let hits = search(&mut e, "u", "What does my company make?");
    let (rank, robots) = hit(&hits, "Acme Robotics makes warehouse robots.").expect("found");
    assert!(rank < 2, "{:#?}", ids_and_hops(&hits));
    assert_eq!(
        robots.why.hop.as_ref(),
        Some(&Hop {
            phrase: "my company".into(),
            entity: "Acme Robotics".into()
        })
    );
    assert!(
        hits[..2].iter().all(|h| h.memory.content.contains("Acme")),
        "{:#?}",
        ids_and_hops(&hits)
    );
    // Named by the user's clause, as the extractor reads "I work for".
    let hits = search(&mut e, "u", "What does the company I work for make?");
    assert!(
        hits[..2].iter().all(|h| h
            .why
            .hop
            .as_ref()
            .is_some_and(|h| h.phrase == "the company I work for" && h.entity == "Acme Robotics")),
        "{:#?}",
        ids_and_hops(&hits)
    );
    // Found through the college, whose noun still counts as a word asked, beside its name.
    let hits = search(&mut e, "u", "When did my college open its library?");
    let (rank, library) =
        hit(&hits, "Lakeside College opened a new library in May.").expect("found");
    assert_eq!(rank, 0, "{:#?}", ids_and_hops(&hits));
    assert_eq!(
        library.why.hop.as_ref(),
        Some(&Hop {
            phrase: "my college".into(),
            entity: "Lakeside College".into()
        })
    );
    assert!(
        library.why.matched.contains(&"college".to_string()),
        "{library:#?}"
    );
    // A school is where one studied, or one attends: followed through either, here from
    // the user's son ("my son's school").
    tell(
        &mut e,
        "u",
        &[
            "My son Leo is six.",
            "Leo attends Lakeside Primary.",
            "Lakeside Primary has a new head teacher.",
        ],
    );
    let hits = search(&mut e, "u", "Who is the head of my son's school?");
    let (rank, head) = hit(&hits, "Lakeside Primary has a new head teacher.").expect("found");
    assert_eq!(rank, 0, "{:#?}", ids_and_hops(&hits));
    assert_eq!(
        head.why.hop.as_ref(),
        Some(&Hop {
            phrase: "my son's school".into(),
            entity: "Lakeside Primary".into()
        })
    );
    // Not "the company", not another owner's, not a relation never stated.
    for (owner, q) in [
        ("u", "What does the company make?"),
        ("v", "What does my company make?"),
        ("u", "Who plays in my band?"),
    ] {
        let hits = search(&mut e, owner, q);
        assert!(
            hits.iter().all(|h| h.why.hop.is_none()),
            "{q}: {:#?}",
            ids_and_hops(&hits)
        );
    }
}

#[test]
fn a_question_about_the_users_job_is_answered_by_where_they_work() {
    let (mut e, _) = engine();
    tell(
        &mut e,
        "u",
        &[
            "I work as a nurse at Santa Maria hospital.",
            "My manager is called Rui and he is quite demanding.",
            "My husband Tiago is a chef.",
            "My mother lives in Braga and I visit her every month.",
            "Rui gave me a glowing review last week.",
        ],
    );
    // "job" shares no word with the statement, and its vector is nearer the manager's: the
    // graph's `user works_at Santa Maria`, read from "work as a nurse at", answers it.
    for noun in ["job", "employer", "occupation", "profession"] {
        let q = format!("What is my {noun}?");
        let hits = search(&mut e, "u", &q);
        let (rank, nurse) = hit(&hits, "I work as a nurse at Santa Maria hospital.").expect(&q);
        assert_eq!(rank, 0, "{q}: {:#?}", ids_and_hops(&hits));
        assert_eq!(
            nurse.why.hop.as_ref(),
            Some(&Hop {
                phrase: format!("my {noun}"),
                entity: "Santa Maria".into()
            }),
            "{q}"
        );
    }
    // Asked by idiom, after the user's "I do", the same.
    let hits = search(&mut e, "u", "What do I do for a living?");
    let (rank, nurse) = hit(&hits, "I work as a nurse at Santa Maria hospital.").expect("by idiom");
    assert_eq!(rank, 0, "{:#?}", ids_and_hops(&hits));
    assert_eq!(
        nurse.why.hop.as_ref().map(|h| h.phrase.as_str()),
        Some("for a living")
    );
    // The manager the user named ("is called Rui") is who "my boss" is, and whom "my manager"
    // is followed to.
    let hits = search(&mut e, "u", "Who is my boss?");
    assert!(
        hits[0]
            .memory
            .content
            .starts_with("My manager is called Rui"),
        "{:#?}",
        ids_and_hops(&hits)
    );
    let hits = search(&mut e, "u", "What is my manager like?");
    assert_eq!(
        hits[0].why.hop.as_ref(),
        Some(&Hop {
            phrase: "my manager".into(),
            entity: "Rui".into()
        }),
        "{:#?}",
        ids_and_hops(&hits)
    );
    // Whoever manages the user is her boss and her supervisor too, though the statement said
    // "manager": what Rui said is found through him.
    for noun in ["boss", "supervisor"] {
        let q = format!("What did my {noun} say about my work?");
        let hits = search(&mut e, "u", &q);
        let (rank, review) = hit(&hits, "Rui gave me a glowing review last week.").expect(&q);
        assert_eq!(rank, 0, "{q}: {:#?}", ids_and_hops(&hits));
        assert_eq!(
            review.why.hop.as_ref(),
            Some(&Hop {
                phrase: format!("my {noun}"),
                entity: "Rui".into()
            }),
            "{q}"
        );
    }
    // Another owner's job is not this one's.
    let hits = search(&mut e, "v", "What is my job?");
    assert!(hits.is_empty(), "{:#?}", ids_and_hops(&hits));
}

#[test]
fn a_statement_about_he_or_she_is_found_by_who_they_are() {
    let (mut e, _) = engine();
    tell(
        &mut e,
        "u",
        &[
            "My husband Tiago is a chef; he runs a small restaurant in Alfama.",
            "I work as a nurse at Santa Maria hospital.",
            "My friend Marta runs a bakery in Porto.",
        ],
    );
    // The statement never says "Tiago", nor "husband": it names him as the one before it did,
    // so the husband the graph follows to is found in it, above the friend who runs a bakery.
    let hits = search(&mut e, "u", "What does my husband run?");
    let (rank, _) = hit(&hits, "he runs a small restaurant in Alfama.").expect("found");
    assert!(rank < 2, "{:#?}", ids_and_hops(&hits));
    let (rank, _) = hit(&hits, "My husband Tiago is a chef;").expect("found");
    assert!(rank < 2, "{:#?}", ids_and_hops(&hits));
}

#[test]
fn a_relation_no_statement_names_is_not_followed() {
    let (mut e, _) = engine();
    // Another owner said who her sister is; this one never did.
    e.remember("other", PEOPLE[0], RememberOptions::default())
        .unwrap();
    tell(&mut e, "u", &PEOPLE[1..]);
    for q in [
        "Which city does my sister live in?",
        "my my sister sister",
        "Where does my sister'; DROP TABLE memories; -- live?",
        "Où habite my sister 🍵?",
    ] {
        let hits = search(&mut e, "u", q);
        assert!(
            hits.iter().all(|h| h.why.hop.is_none()),
            "{q}: {:#?}",
            ids_and_hops(&hits)
        );
    }
    // The other owner's graph is followed for the other owner only.
    let hits = search(&mut e, "other", "Which city does my sister live in?");
    assert!(hits.iter().all(|h| h.memory.entity_id.as_str() == "other"));
}

/// A graph entity may be named anything a host extractor says, even like a phrase a question
/// asks ("my sister"): the question's phrases are read once, and the search ends.
#[test]
fn a_relation_followed_to_a_name_that_is_itself_a_relation_is_followed_once() {
    let (mut e, _) = engine();
    let args = serde_json::json!({
        "entity_id": "u",
        "content": "I call her my sister",
        "extracted": [{
            "content": "I call her my sister",
            "relationships": [{"from": "user", "relation": "sibling_of", "to": "my sister", "confidence": 0.9}]
        }]
    });
    e.call_json("remember", &args.to_string()).unwrap();
    let hits = search(&mut e, "u", "Where does my sister live?");
    let hop = hits.iter().find_map(|h| h.why.hop.as_ref());
    assert_eq!(
        hop,
        Some(&Hop {
            phrase: "my sister".into(),
            entity: "my sister".into()
        }),
        "{:#?}",
        ids_and_hops(&hits)
    );
}

/// Each hit's content and the entity a hop followed, for messages.
fn ids_and_hops(hits: &[SearchHit]) -> Vec<(String, Option<String>)> {
    hits.iter()
        .map(|h| {
            (
                h.memory.content.clone(),
                h.why.hop.as_ref().map(|h| h.entity.clone()),
            )
        })
        .collect()
}

/// Lines of a transcript, and a question naming one speaker: what that speaker said answers
/// before what another said to them, however near the other's words and vector.
#[test]
fn a_question_naming_a_speaker_is_answered_by_their_own_lines_first() {
    let (mut e, _) = vector_engine(Config::default());
    let mut say = |text: &str, v: [f32; 4]| seed_one(&mut e, vmem("u", text, v.to_vec()));
    let to_her = say(
        "Melanie: Caroline, your career plans sound great!",
        [1.0, 0.0, 0.0, 0.0],
    );
    let hers = say(
        "Caroline: my career plans? I want to work in mental health.",
        [0.8, 0.6, 0.0, 0.0],
    );
    let note = say("career plans, a note", [0.9, 0.0, 0.436, 0.0]);
    let ask = |e: &mut Engine, q: &str| {
        e.search(&SearchRequest {
            vector: Some(vec![1.0, 0.0, 0.0, 0.0]),
            ..req("u", q)
        })
        .unwrap()
    };
    let named = ask(&mut e, "What career plans does Caroline have?");
    let got = ids(&named);
    assert_eq!(got[0], hers, "{got:?}");
    let other = named.iter().find(|h| h.memory.id == to_her).unwrap();
    let own = named.iter().find(|h| h.memory.id == note).unwrap();
    // The other speaker's line keeps its cosine, words and relevance, and says why it is
    // scored at 0.7; a memory that is no line, and the named speaker's, are as they were.
    assert_eq!(
        (other.why.vector, other.why.text, other.why.relevance),
        (1.0, 1.0, 1.0)
    );
    assert_eq!(other.why.speaker_multiplier, 0.7);
    assert_eq!(
        (own.why.speaker_multiplier, named[0].why.speaker_multiplier),
        (1.0, 1.0)
    );
    let shown = serde_json::to_value(&other.why).unwrap();
    assert_eq!(shown["speaker_multiplier"], json!(0.7));
    assert!(serde_json::to_value(&own.why)
        .unwrap()
        .get("speaker_multiplier")
        .is_none());
    // Naming nobody who speaks, the nearest line comes first, as before.
    let unnamed = ask(&mut e, "What career plans were made?");
    assert_eq!(ids(&unnamed)[0], to_her);
    assert!(unnamed.iter().all(|h| h.why.speaker_multiplier == 1.0));
    // Naming both speakers, both lines count in full.
    let both = ask(
        &mut e,
        "What career plans did Melanie and Caroline discuss?",
    );
    assert_eq!(ids(&both)[0], to_her);
    assert!(both.iter().all(|h| h.why.speaker_multiplier == 1.0));
    // Another owner's lines do not name anyone for this one.
    seed_one(
        &mut e,
        vmem("v", "Caroline: nothing for u", vec![1.0, 0.0, 0.0, 0.0]),
    );
    assert!(ask(&mut e, "What career plans does Caroline have?")
        .iter()
        .all(|h| h.memory.entity_id.as_str() == "u"));
}

/// Counts of four kinds of word: the name "Caroline", words about work, words of greeting,
/// and any other word.
struct WordKinds;

impl Embedder for WordKinds {
    fn model_id(&self) -> &str {
        "word-kinds"
    }
    fn dimension(&self) -> usize {
        4
    }
    fn embed(&self, text: &str) -> Result<Vec<f32>> {
        let mut v = [0.0_f32; 4];
        for w in text
            .split(|c: char| !c.is_alphabetic())
            .filter(|w| !w.is_empty())
        {
            let kind = match w.to_lowercase().as_str() {
                "caroline" => 0,
                "counselling" | "career" => 1,
                "hey" | "hi" => 2,
                _ => 3,
            };
            v[kind] += 1.0;
        }
        let n = v.iter().map(|x| x * x).sum::<f32>().sqrt().max(1e-9);
        Ok(v.iter().map(|x| x / n).collect())
    }
}

/// A transcript line's vector is mostly what was said, its speaker's name a small fixed share
/// of it (`embed::SPEAKER_SHARE`): a question naming a speaker finds what she said about it
/// before her short greetings, which embedded whole were mostly her name.
#[test]
fn a_speakers_short_lines_do_not_answer_every_question_naming_her() {
    let clock = ManualClock::new(T0);
    let mut e = Engine::builder(clock)
        .embedder(WordKinds)
        .open_in_memory()
        .unwrap();
    let greeting = seed_one(&mut e, mem("u", "Caroline: hey!"));
    let answer = seed_one(
        &mut e,
        mem(
            "u",
            "Caroline: I am keen on counselling as my path in the years to come.",
        ),
    );
    // Embedded whole, the greeting is half her name (cosine 0.5 with the question's vector),
    // the answer a tenth (0.23); as a line, 0.07 and 0.19.
    let question = WordKinds.embed("Caroline career").unwrap();
    let hits = e
        .search(&SearchRequest {
            vector: Some(question),
            min_score: Some(0.0),
            ..req("u", "")
        })
        .unwrap();
    assert_eq!(ids(&hits), [answer.clone(), greeting], "{hits:#?}");
    // Content that is no line is embedded whole, as before.
    let plain = seed_one(&mut e, mem("u", "caroline says hey"));
    let hits = e
        .search(&SearchRequest {
            vector: Some(WordKinds.embed("caroline says hey").unwrap()),
            ..req("u", "")
        })
        .unwrap();
    assert_eq!(hits[0].memory.id, plain);
    assert!(
        (hits[0].why.vector - 1.0).abs() < 1e-4,
        "{}",
        hits[0].why.vector
    );
}

#[test]
fn statements_of_one_message_give_way_to_other_messages_until_there_is_room() {
    let (mut e, clock) = engine();
    let told = |e: &mut Engine, message: &str, text: &str| {
        let opts = RememberOptions {
            source_ref: Some(SourceRef::parse(message).unwrap()),
            ..Default::default()
        };
        e.remember("u", text, opts).unwrap().outcomes.len()
    };
    told(&mut e, "msg-1", "Ana enjoys reading novels on the train.");
    clock.advance(3_600_000);
    let said = told(
        &mut e,
        "msg-2",
        "Ana loves hiking in the mountains. Ana loves painting landscapes. Ana loves cooking Thai food.",
    );
    assert_eq!(said, 3, "the later message is three statements");
    // The first `n` hits of `query`.
    let top = |e: &mut Engine, query: &str, n: usize| -> Vec<Memory> {
        let req = SearchRequest {
            limit: limit(n),
            ..req("u", query)
        };
        e.search(&req)
            .unwrap()
            .into_iter()
            .map(|h| h.memory)
            .collect()
    };
    let from = |e: &mut Engine, n: usize| -> Vec<String> {
        top(e, "What does Ana love?", n)
            .into_iter()
            .map(|m| m.source_ref.unwrap_or_default())
            .collect()
    };
    let said_in = |e: &mut Engine, query: &str| -> Vec<String> {
        top(e, query, 2).into_iter().map(|m| m.content).collect()
    };
    // The later message's statements rank first; after its first, the earlier message's.
    assert_eq!(from(&mut e, 2), ["msg-2", "msg-1"]);
    // With room for all, the other statements of the later message follow, and say so.
    assert_eq!(from(&mut e, 10), ["msg-2", "msg-1", "msg-2", "msg-2"]);
    let hits = search(&mut e, "u", "What does Ana love?");
    let gave_way: Vec<Option<&str>> = hits.iter().map(|h| h.why.gave_way_to.as_deref()).collect();
    let first = Some(hits[0].memory.id.as_str());
    assert_eq!(gave_way, [None, None, first, first]);
    // However many statements wait, the answer reads on until another message fills it.
    let (mut e, clock) = engine();
    told(&mut e, "msg-1", "Ana enjoys reading novels on the train.");
    clock.advance(3_600_000);
    let many = "Ana loves hiking in the mountains. Ana loves painting landscapes. \
                Ana loves cooking Thai food. Ana loves swimming in the sea. \
                Ana loves singing in a choir. Ana loves climbing on weekends.";
    assert_eq!(told(&mut e, "msg-2", many), 6);
    // One statement is the answer; its message's others, less relevant, are read `limit` at
    // a time behind it until the other message comes.
    let hiking = said_in(&mut e, "Does Ana love hiking in the mountains?");
    assert_eq!(
        hiking,
        [
            "Ana loves hiking in the mountains.",
            "Ana enjoys reading novels on the train."
        ]
    );
    // Statements without a message's reference do not give way.
    let (mut e, clock) = engine();
    e.remember(
        "u",
        "Ana enjoys reading novels on the train.",
        RememberOptions::default(),
    )
    .unwrap();
    clock.advance(3_600_000);
    let text = "Ana loves hiking in the mountains. Ana loves painting landscapes.";
    e.remember("u", text, RememberOptions::default()).unwrap();
    let first = said_in(&mut e, "What does Ana love?");
    assert!(first.iter().all(|c| !c.contains("novels")), "{first:?}");
    // Nor do memories not told in conversation (a seed's source is the agent), though they
    // share a `source_ref` and a time.
    let (mut e, _) = engine();
    let form = |content: &str| NewMemory {
        source_ref: Some(SourceRef::parse("form-1").unwrap()),
        ..mem("u", content)
    };
    e.seed(vec![
        form("Ana loves hiking in the mountains."),
        form("Ana loves painting landscapes."),
    ])
    .unwrap();
    e.seed(vec![mem("u", "Ana enjoys reading novels on the train.")])
        .unwrap();
    let first = said_in(&mut e, "What does Ana love?");
    assert!(first.iter().all(|c| !c.contains("novels")), "{first:?}");
}
