//! The component's typed functions, called the way a third-party wasmtime host would: each
//! one must answer what the JSON `call` answers for the same store.

use serde_json::Value;

use super::exports::mnemo::engine::engine::Error;
use super::mnemo::engine::types::*;
use super::{Clock, Options, Runtime};

const T0: i64 = 1_700_000_000_000;

struct Dir(std::path::PathBuf);

impl Dir {
    fn new(name: &str) -> Dir {
        let p = std::env::temp_dir().join(format!("mnemo-typed-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&p);
        std::fs::create_dir_all(&p).expect("temp dir");
        Dir(p)
    }
}

impl Drop for Dir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn open(dir: &Dir) -> Runtime {
    Runtime::open(Options {
        data: dir.0.clone(),
        clock: Clock::Fixed(T0),
        seed: 7,
        embedding: None,
        llm: None,
    })
    .expect("open the store")
}

/// Calls a typed store function: `typed!(rt, call_get, "owner", "id")`.
macro_rules! typed {
    ($rt:expr, $f:ident $(, $arg:expr)*) => {{
        let rt: &mut Runtime = &mut $rt;
        rt.bindings
            .mnemo_engine_engine()
            .store()
            .$f(&mut rt.store, rt.handle $(, $arg)*)
            .expect("the call traps not")
    }};
}

fn json(rt: &mut Runtime, method: &str, args: Value) -> Value {
    let text = rt
        .call(method, &args.to_string())
        .expect("no trap")
        .unwrap_or_else(|e| panic!("{method}: {}", e.message));
    serde_json::from_str(&text).expect("JSON")
}

fn new_memory(owner: &str, content: &str) -> NewMemory {
    NewMemory {
        entity_id: owner.into(),
        content: content.into(),
        type_: None,
        kind: None,
        layer: None,
        importance: None,
        confidence: None,
        sentiment: None,
        source: None,
        tags: vec![],
        pinned: false,
        expires_at: None,
        cron_tag: None,
        source_ref: None,
        agent_id: None,
        session_id: None,
        team_id: None,
        visibility: None,
        vector: None,
    }
}

fn created(report: &WriteReport) -> Vec<String> {
    report
        .outcomes
        .iter()
        .filter_map(|o| match o {
            Outcome::Created(c) => Some(c.id.clone()),
            _ => None,
        })
        .collect()
}

fn code(result: Result<impl std::fmt::Debug, Error>) -> String {
    result.expect_err("the engine should refuse").code
}

#[test]
fn every_typed_function_answers_what_the_json_call_answers() {
    let dir = Dir::new("all");
    let mut rt = open(&dir);

    let mut tea = new_memory("ana", "Ana prefers green tea in the morning");
    tea.type_ = Some(MemoryType::Preference);
    tea.tags = vec!["drinks".into()];
    tea.importance = Some(0.8);
    let report = typed!(
        rt,
        call_seed,
        &[
            tea,
            new_memory("ana", "Ana's flight to Lisbon leaves on Friday")
        ]
    )
    .expect("seed");
    let ids = created(&report);
    assert_eq!(ids.len(), 2, "{report:?}");

    let said = typed!(
        rt,
        call_remember,
        &RememberArgs {
            entity_id: "ana".into(),
            content: "We adopted a cat called Miso last spring".into(),
            extracted: None,
            llm_output: None,
            agent_id: None,
            session_id: Some("s1".into()),
            source_ref: Some("msg-1".into()),
            source: None,
        }
    )
    .expect("remember");
    let said = created(&said);
    assert_eq!(said.len(), 1);

    // get: field for field what the JSON call says.
    let m = typed!(rt, call_get, "ana", &ids[0]).expect("get");
    let j = json(
        &mut rt,
        "get",
        serde_json::json!({"entity_id": "ana", "id": ids[0]}),
    );
    assert_eq!(m.id, j["id"]);
    assert_eq!(m.content, j["content"]);
    assert_eq!(m.type_, MemoryType::Preference);
    assert_eq!(j["type"], "PREFERENCE");
    assert_eq!(Some(m.importance), j["importance"].as_f64());
    assert_eq!(m.manual_tags, ["drinks"]);
    assert_eq!(Some(m.created_at), j["created_at"].as_i64());
    let r = typed!(rt, call_get, "ana", &said[0]).expect("get remembered");
    assert_eq!(r.source, Source::Conversation);
    assert_eq!(r.source_ref.as_deref(), Some("msg-1"));

    // search: the same hits in the same order as the JSON search.
    let hits = typed!(
        rt,
        call_search,
        &SearchRequest {
            entity_id: "ana".into(),
            query: "what does Ana drink".into(),
            vector: None,
            limit: Some(2),
            mode: None,
            recall: None,
            include_archived: false,
            types: vec![],
            min_score: None,
            entities: vec![],
        }
    )
    .expect("search");
    let jhits = json(
        &mut rt,
        "search",
        serde_json::json!({"entity_id": "ana", "query": "what does Ana drink", "limit": 2}),
    );
    let jids: Vec<&str> = jhits
        .as_array()
        .expect("hits")
        .iter()
        .map(|h| h["memory"]["id"].as_str().expect("id"))
        .collect();
    let tids: Vec<&str> = hits.iter().map(|h| h.memory.id.as_str()).collect();
    assert_eq!(tids, jids);
    assert_eq!(tids[0], ids[0]);
    assert_eq!(hits[0].why.mode, RankMode::Balanced);
    assert!(hits[0].score > 0.0);

    // list with a type filter.
    let page = typed!(
        rt,
        call_list,
        &ListRequest {
            entity_id: "ana".into(),
            types: vec![MemoryType::Preference],
            states: vec![],
            statuses: vec![],
            kinds: vec![],
            tag: None,
            pinned: None,
            limit: None,
            offset: 0,
            oldest_first: false,
        }
    )
    .expect("list");
    assert_eq!(page.total, 1);
    assert_eq!(page.memories[0].id, ids[0]);

    // update, feedback, pin, status.
    let patch = MemoryPatch {
        content: None,
        vector: None,
        type_: None,
        kind: Some(Kind::Procedure),
        importance: Some(0.9),
        confidence: None,
        sentiment: None,
        tags: None,
        expires_at: None,
        source_ref: None,
    };
    let m = typed!(rt, call_update, "ana", &ids[1], &patch).expect("update");
    assert_eq!((m.kind, m.importance), (Kind::Procedure, 0.9));
    assert_eq!(
        typed!(rt, call_reinforce, "ana", &ids[1])
            .expect("reinforce")
            .feedback,
        3
    );
    assert_eq!(
        typed!(rt, call_demote, "ana", &ids[1])
            .expect("demote")
            .feedback,
        2
    );
    assert!(
        typed!(rt, call_pin, "ana", &ids[1], true)
            .expect("pin")
            .pinned
    );
    let m = typed!(
        rt,
        call_set_status,
        "ana",
        &ids[1],
        Status::Challenged,
        "the flight moved"
    )
    .expect("status");
    assert_eq!(m.status, Status::Challenged);
    let history = typed!(rt, call_status_history, "ana", &ids[1]).expect("history");
    assert_eq!(history.len(), 1);
    assert_eq!(
        (history[0].old, history[0].new),
        (Status::Active, Status::Challenged)
    );
    assert_eq!(history[0].reason, "the flight moved");

    // stats: counts per value, as in the JSON maps.
    let stats = typed!(rt, call_stats, "ana").expect("stats");
    let jstats = json(&mut rt, "stats", serde_json::json!({"entity_id": "ana"}));
    assert_eq!(stats.total, 3);
    for c in &stats.by_type {
        assert_eq!(
            Some(u64::from(c.count)),
            jstats["by_type"][&c.value].as_u64(),
            "{}",
            c.value
        );
    }
    assert_eq!(
        stats.by_type.len(),
        jstats["by_type"].as_object().expect("map").len()
    );
    assert_eq!(stats.embedding_model, jstats["embedding_model"]);

    let model = typed!(rt, call_embedding_model);
    let jmodel = json(&mut rt, "embedding_model", serde_json::json!({}));
    assert_eq!(model.model, jmodel["model"]);
    assert_eq!(
        Some(u64::from(model.dimension)),
        jmodel["dimension"].as_u64()
    );

    typed!(rt, call_maintain).expect("maintain");
    let extracted = typed!(rt, call_extract, "I moved to Porto").expect("extract");
    assert_eq!(extracted[0].content, "I moved to Porto");

    // forget, then export: the same JSONL both ways, and it restores into a fresh store.
    let gone = typed!(rt, call_forget, "ana", &said[0]).expect("forget");
    assert_eq!(gone.state, State::Deleted);
    let exported = typed!(rt, call_export, "ana").expect("export");
    assert_eq!(
        Value::String(exported.clone()),
        json(&mut rt, "export", serde_json::json!({"entity_id": "ana"}))
    );
    assert_eq!(exported.lines().count(), 3);

    // The knowledge graph, typed.
    typed!(
        rt,
        call_remember,
        &RememberArgs {
            entity_id: "ana".into(),
            content: "My brother Tiago works at Shopify.".into(),
            extracted: None,
            llm_output: None,
            agent_id: None,
            session_id: None,
            source_ref: None,
            source: None,
        }
    )
    .expect("remember");
    let people = typed!(
        rt,
        call_entities,
        &EntitiesRequest {
            entity_id: "ana".into(),
            types: vec![EntityType::Person],
            query: None,
            limit: None,
            offset: 0,
        }
    )
    .expect("entities");
    assert!(people.iter().any(|p| p.name == "Tiago"), "{people:?}");
    let rels = typed!(
        rt,
        call_relationships,
        &RelationshipsRequest {
            entity_id: "ana".into(),
            entity: Some("tiago".into()),
            relations: vec![Relation::SiblingOf],
            min_strength: None,
            stated_only: true,
            limit: None,
        }
    )
    .expect("relationships");
    let jrels = json(
        &mut rt,
        "relationships",
        serde_json::json!({"entity_id": "ana", "entity": "tiago", "relations": ["sibling_of"], "stated_only": true}),
    );
    assert_eq!(rels.len(), 1);
    assert_eq!(
        (rels[0].from.as_str(), rels[0].to.as_str()),
        ("user", "Tiago")
    );
    assert_eq!(Some(rels[0].strength), jrels[0]["strength"].as_f64());
    let walk = typed!(
        rt,
        call_traverse,
        &TraverseRequest {
            entity_id: "ana".into(),
            from: "user".into(),
            depth: Some(2),
            relations: vec![],
            min_strength: None,
        }
    )
    .expect("traverse");
    assert!(
        walk.nodes
            .iter()
            .any(|n| n.name == "Shopify" && n.depth == 2),
        "{walk:?}"
    );
    let path = typed!(
        rt,
        call_path,
        &PathRequest {
            entity_id: "ana".into(),
            from: "user".into(),
            to: "Shopify".into(),
            max_depth: None,
        }
    )
    .expect("path");
    assert!(path.found);
    assert_eq!(path.hops.len(), 2);

    // Conflicts, typed.
    let remember = |content: &str| RememberArgs {
        entity_id: "ana".into(),
        content: content.into(),
        extracted: None,
        llm_output: None,
        agent_id: None,
        session_id: None,
        source_ref: None,
        source: None,
    };
    typed!(rt, call_remember, &remember("I like coffee.")).expect("remember");
    let said = typed!(rt, call_remember, &remember("I don't like coffee.")).expect("remember");
    let Outcome::Conflict(c) = &said.outcomes[0] else {
        panic!("{said:?}")
    };
    assert_eq!(
        (c.kind, c.mode),
        (ConflictKind::Negation, ConflictMode::Ask)
    );
    let waiting = typed!(
        rt,
        call_conflicts,
        &ConflictsRequest {
            entity_id: "ana".into(),
            status: Some(ConflictStatus::Open),
            limit: None,
        }
    )
    .expect("conflicts");
    assert_eq!(waiting[0].id, c.conflict);
    let done = typed!(
        rt,
        call_resolve_conflict,
        &ResolveRequest {
            entity_id: "ana".into(),
            id: c.conflict.clone(),
            resolution: Resolution::KeepBoth,
            reason: None,
        }
    )
    .expect("resolve");
    assert_eq!(
        (done.status, done.resolution),
        (ConflictStatus::Resolved, Some(Resolution::KeepBoth))
    );

    // Schedules, typed.
    let made = typed!(
        rt,
        call_schedule_create,
        &ScheduleCreate {
            entity_id: "ana".into(),
            content: "water the plants".into(),
            cron_tag: "cron:every:2h".into(),
        }
    )
    .expect("schedule");
    assert_eq!(
        (made.status, made.next_due_at),
        (ScheduleStatus::Active, Some(T0 + 7_200_000))
    );
    assert_eq!(
        typed!(rt, call_schedules, "ana", false)
            .expect("list")
            .len(),
        1
    );
    assert!(typed!(rt, call_scheduled, "ana").expect("due").is_empty());
    let acked = typed!(rt, call_schedule_ack, "ana", &made.id).expect("ack");
    assert_eq!(acked.acknowledged_at, Some(T0));
    let gone = typed!(rt, call_schedule_cancel, "ana", &made.id).expect("cancel");
    assert_eq!(gone.status, ScheduleStatus::Cancelled);
    let bad = ScheduleCreate {
        entity_id: "ana".into(),
        content: "x".into(),
        cron_tag: "cron:daily:99:99".into(),
    };
    assert_eq!(
        code(typed!(rt, call_schedule_create, &bad)),
        "invalid_input"
    );

    let dir2 = Dir::new("restore");
    let mut fresh = open(&dir2);
    let imported = typed!(fresh, call_import, &exported).expect("import");
    assert_eq!((imported.restored, imported.already_present), (3, 0));
    let back = typed!(fresh, call_get, "ana", &ids[1]).expect("restored memory");
    assert_eq!(
        (back.status, back.pinned, back.feedback),
        (Status::Challenged, true, 2)
    );
}

#[test]
fn typed_functions_refuse_bad_input_and_change_nothing() {
    let dir = Dir::new("bad");
    let mut rt = open(&dir);
    let report = typed!(rt, call_seed, &[new_memory("ana", "Ana likes rowing")]).expect("seed");
    let id = created(&report).remove(0);
    let before = typed!(rt, call_export, "ana").expect("export");

    let mut nan = new_memory("ana", "a vector with a hole");
    let mut hole = vec![0.1; 384];
    hole[17] = f32::NAN;
    nan.vector = Some(hole);
    let mut short = new_memory("ana", "a vector too short");
    short.vector = Some(vec![0.5; 3]);
    let mut late = new_memory("ana", "fine on its own");
    late.importance = Some(1.5);
    assert_eq!(
        code(typed!(rt, call_seed, &[new_memory("ana", "ok"), nan])),
        "non_finite_vector"
    );
    assert_eq!(code(typed!(rt, call_seed, &[short])), "dimension_mismatch");
    assert_eq!(code(typed!(rt, call_seed, &[late])), "invalid_input");
    assert_eq!(
        code(typed!(rt, call_seed, &[new_memory("", "no owner")])),
        "invalid_input"
    );
    assert_eq!(
        code(typed!(
            rt,
            call_seed,
            &[new_memory("ana", &"x".repeat(60_000))]
        )),
        "invalid_input"
    );
    assert_eq!(code(typed!(rt, call_get, "ana", "no-such-id")), "not_found");
    assert_eq!(
        code(typed!(rt, call_get, "bob", &id)),
        "not_found",
        "another owner's memory"
    );
    assert_eq!(
        code(typed!(rt, call_get, "ana'; DROP TABLE memories; --", &id)),
        "invalid_input"
    );
    assert_eq!(
        code(typed!(
            rt,
            call_set_status,
            "ana",
            &id,
            Status::Invalidated,
            "  "
        )),
        "invalid_input"
    );
    assert_eq!(code(typed!(rt, call_import, "{not json")), "import_error");
    let search = SearchRequest {
        entity_id: "ana".into(),
        query: "rowing".into(),
        vector: None,
        limit: Some(5000),
        mode: Some(RankMode::Recent),
        recall: Some(RecallFilter::FactsOnly),
        include_archived: false,
        types: vec![],
        min_score: None,
        entities: vec![],
    };
    assert_eq!(code(typed!(rt, call_search, &search)), "invalid_input");
    let far = TraverseRequest {
        entity_id: "ana".into(),
        from: "user".into(),
        depth: Some(9),
        relations: vec![],
        min_strength: None,
    };
    assert_eq!(code(typed!(rt, call_traverse, &far)), "invalid_input");

    assert_eq!(
        typed!(rt, call_export, "ana").expect("export"),
        before,
        "a refused call changed the store"
    );
}

fn heartbeat_request(owner: &str) -> HeartbeatRequest {
    HeartbeatRequest {
        entity_id: owner.into(),
        autonomy: None,
        in_conversation: None,
        utc_offset_minutes: None,
        quiet_hours: None,
        deadline_window: None,
        max_results: None,
        dry_run: true,
        query: None,
        top_k: None,
    }
}

#[test]
fn the_heartbeat_is_typed_too() {
    let dir = Dir::new("heartbeat");
    let mut rt = open(&dir);
    let mut plan = new_memory("ana", "Send the invoice to Globex");
    plan.type_ = Some(MemoryType::Plan);
    plan.expires_at = Some(T0 + 3_600_000 * 5);
    typed!(rt, call_seed, &[plan]).expect("seed");
    let req = heartbeat_request("ana");
    let typed_report = typed!(rt, call_heartbeat_check, &req).expect("check");
    assert_eq!(typed_report.decision_reason, DecisionReason::FirstContact);
    assert!(typed_report.should_act && typed_report.act_id.is_none());
    assert_eq!(
        typed_report.deadlines[0].content,
        "Send the invoice to Globex"
    );
    assert!(typed_report
        .signals
        .iter()
        .any(|s| s.kind == SignalKind::Deadlines && s.tier == Urgency::Immediate));
    let via_json = json(
        &mut rt,
        "heartbeat_check",
        serde_json::json!({"entity_id": "ana", "dry_run": true}),
    );
    assert_eq!(via_json["fingerprint"], typed_report.fingerprint.as_str());
    assert_eq!(via_json["next_tick_ms"], typed_report.next_tick_ms);
    let recorded = typed!(
        rt,
        call_heartbeat_check,
        &HeartbeatRequest {
            dry_run: false,
            ..req.clone()
        }
    )
    .expect("check");
    let act = recorded.act_id.expect("recorded");
    let msg = typed!(
        rt,
        call_record_message,
        &MessageRequest {
            entity_id: "ana".into(),
            role: Some(MessageRole::Agent),
            content: "Your invoice is due today".into(),
            session_id: None,
            act_id: Some(act.clone()),
        }
    )
    .expect("message");
    assert_eq!(
        (msg.role, msg.act_id.as_deref()),
        (MessageRole::Agent, Some(act.as_str()))
    );
    let ctx = typed!(
        rt,
        call_heartbeat_context,
        &HeartbeatRequest {
            query: Some("invoice".into()),
            ..req.clone()
        }
    )
    .expect("context");
    assert_eq!(ctx.recent_messages[0].content, "Your invoice is due today");
    assert_eq!(
        ctx.relevant_memories[0].memory.content,
        "Send the invoice to Globex"
    );
    let before = typed!(rt, call_export, "ana").expect("export");
    for bad in [
        HeartbeatRequest {
            utc_offset_minutes: Some(-900),
            ..req.clone()
        },
        HeartbeatRequest {
            max_results: Some(0),
            ..req.clone()
        },
        HeartbeatRequest {
            deadline_window: Some("NaN".into()),
            ..req.clone()
        },
        HeartbeatRequest {
            entity_id: "ana; DROP TABLE memories".into(),
            ..req.clone()
        },
        HeartbeatRequest {
            quiet_hours: Some(QuietHours {
                enabled: true,
                start: 30,
                end: 7,
            }),
            ..req.clone()
        },
    ] {
        assert_eq!(
            code(typed!(rt, call_heartbeat_check, &bad)),
            "invalid_input",
            "{bad:?}"
        );
    }
    let bad_message = MessageRequest {
        entity_id: "ana".into(),
        role: Some(MessageRole::User),
        content: "x".into(),
        session_id: None,
        act_id: Some(act),
    };
    assert_eq!(
        code(typed!(rt, call_record_message, &bad_message)),
        "invalid_input"
    );
    assert_eq!(typed!(rt, call_export, "ana").expect("export"), before);
}
