//! The engine component called the way a third-party wasmtime host would: `methods`, `schema`
//! and `call` with JSON. Calls are built from the core's typed vocabulary and answers read back
//! into it, so a field that drifts between the component and the core fails here.

use mnemo_core::api::{
    ExtractArgs, ImportArgs, MemoryRef, NoArgs, OwnerRef, PinArgs, RememberArgs, SeedArgs,
    SetStatusArgs, UpdateArgs,
};
use mnemo_core::*;
use serde_json::json;

use super::exports::mnemo::engine::engine::Error;
use super::{Clock, Options, Runtime};

const T0: i64 = 1_700_000_000_000;

struct Dir(std::path::PathBuf);

impl Dir {
    fn new(name: &str) -> Dir {
        let p = std::env::temp_dir().join(format!("mnemo-component-{}-{name}", std::process::id()));
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
        config: String::new(),
        workspace: None,
    })
    .expect("open the store")
}

/// Runs a call in the component: its typed answer, or the engine's error.
fn run(rt: &mut Runtime, call: Call) -> Result<Answer, Error> {
    let out = rt
        .call(call.method(), &call.args_json())
        .expect("the call traps not")?;
    Ok(Answer::from_json(call.method(), &out).expect("the answer reads as its type"))
}

/// Runs a call that must succeed.
fn ok(rt: &mut Runtime, call: Call) -> Answer {
    let method = call.method();
    run(rt, call).unwrap_or_else(|e| panic!("{method}: {} ({})", e.message, e.code))
}

fn code(rt: &mut Runtime, call: Call) -> String {
    match run(rt, call) {
        Ok(a) => panic!("the engine should refuse, answered {a:?}"),
        Err(e) => e.code,
    }
}

fn mem(owner: &str, content: &str) -> NewMemory {
    NewMemory::new(owner, content).expect("a valid memory")
}

fn to_id(id: &str) -> Id {
    id.parse().expect("a valid id")
}

fn text(text: &str) -> Content {
    Content::parse("content", text).expect("valid content")
}

fn unit(v: f64) -> Unit {
    Unit::parse("importance", v).expect("a number from 0 to 1")
}

fn tags(tags: &[&str]) -> Tags {
    let tags: Vec<String> = tags.iter().map(|t| t.to_string()).collect();
    Tags::parse("tags", &tags).expect("valid tags")
}

fn mref(owner: &str, id: &str) -> MemoryRef {
    MemoryRef {
        entity_id: to_id(owner),
        agent_id: None,
        id: to_id(id),
    }
}

fn seed(rt: &mut Runtime, items: Vec<NewMemory>) -> Vec<String> {
    let Answer::Seed(r) = ok(rt, Call::Seed(SeedArgs { items })) else {
        panic!("seed answered something else")
    };
    r.stored_ids().into_iter().map(String::from).collect()
}

fn export(rt: &mut Runtime, owner: &str) -> String {
    let Answer::Export(jsonl) = ok(
        rt,
        Call::Export(OwnerRef {
            entity_id: to_id(owner),
            agent_id: None,
        }),
    ) else {
        panic!("export answered something else")
    };
    jsonl
}

fn memory(a: Answer) -> Memory {
    a.memory()
        .cloned()
        .unwrap_or_else(|| panic!("not a memory: {a:?}"))
}

#[test]
fn the_component_serves_every_declared_call_and_the_declaration_itself() {
    let dir = Dir::new("declared");
    let mut rt = open(&dir);
    assert_eq!(rt.methods().expect("methods"), METHODS);
    assert_eq!(
        rt.schema().expect("schema").to_string(),
        api::schema().to_string()
    );
    for method in METHODS {
        // With no arguments a call answers or refuses its arguments — never "no such method".
        if let Err(e) = rt.call(method, "{}").expect("no trap") {
            assert!(
                !(e.code == "unknown_value" && e.message.contains("method")),
                "{method}: {}",
                e.message
            );
        }
    }
    let e = rt.call("frobnicate", "{}").expect("no trap").unwrap_err();
    assert_eq!(e.code, "unknown_value");
}

#[test]
fn typed_calls_round_trip_through_the_component() {
    let dir = Dir::new("typed");
    let mut rt = open(&dir);
    let ids = seed(
        &mut rt,
        vec![
            NewMemory {
                memory_type: Some(MemoryType::Preference),
                importance: Some(unit(0.8)),
                tags: tags(&["drinks"]),
                ..mem("ana", "Ana drinks green tea every morning")
            },
            mem("ana", "Ana's sister Eva is a nurse in Porto"),
        ],
    );
    assert_eq!(ids.len(), 2);
    let Answer::Remember(said) = ok(
        &mut rt,
        Call::Remember(RememberArgs {
            session_id: Some(to_id("s1")),
            ..RememberArgs::new(
                to_id("ana"),
                text("My brother Tiago works at Shopify. I moved to Lisbon in March."),
            )
        }),
    ) else {
        panic!("remember")
    };
    assert!(!said.stored_ids().is_empty());

    let got = memory(ok(&mut rt, Call::Get(mref("ana", &ids[0]))));
    assert_eq!(
        (got.memory_type, got.manual_tags.clone(), got.access_count),
        (MemoryType::Preference, vec!["drinks".to_string()], 1)
    );
    let Answer::Search(hits) = ok(
        &mut rt,
        Call::Search(SearchRequest {
            mode: RankMode::Important,
            ..SearchRequest::new(to_id("ana"), "what does Ana drink?")
        }),
    ) else {
        panic!("search")
    };
    assert_eq!(hits[0].memory.id, ids[0]);
    assert!(hits[0].why.text > 0.0 && hits[0].why.mode == RankMode::Important);

    let Answer::List(page) = ok(
        &mut rt,
        Call::List(ListRequest {
            types: vec![MemoryType::Preference],
            ..ListRequest::new(to_id("ana"))
        }),
    ) else {
        panic!("list")
    };
    assert_eq!(page.total, 1);

    let updated = memory(ok(
        &mut rt,
        Call::Update(UpdateArgs {
            entity_id: to_id("ana"),
            agent_id: None,
            id: to_id(&ids[1]),
            patch: MemoryPatch {
                importance: Some(unit(0.9)),
                ..Default::default()
            },
        }),
    ));
    assert_eq!(updated.importance, 0.9);
    assert_eq!(
        memory(ok(&mut rt, Call::Reinforce(mref("ana", &ids[1])))).feedback,
        3
    );
    assert_eq!(
        memory(ok(&mut rt, Call::Demote(mref("ana", &ids[1])))).feedback,
        2
    );
    let pinned = memory(ok(
        &mut rt,
        Call::Pin(PinArgs {
            entity_id: to_id("ana"),
            agent_id: None,
            id: to_id(&ids[1]),
            pinned: true,
        }),
    ));
    assert!(pinned.pinned);
    let challenged = memory(ok(
        &mut rt,
        Call::SetStatus(SetStatusArgs {
            entity_id: to_id("ana"),
            agent_id: None,
            id: to_id(&ids[1]),
            status: Status::Challenged,
            reason: Reason::parse("Eva changed jobs").expect("a reason"),
        }),
    ));
    assert_eq!(challenged.status, Status::Challenged);
    let Answer::StatusHistory(history) = ok(&mut rt, Call::StatusHistory(mref("ana", &ids[1])))
    else {
        panic!("history")
    };
    assert_eq!(history[0].reason, "Eva changed jobs");
    let Answer::Stats(stats) = ok(
        &mut rt,
        Call::Stats(OwnerRef {
            entity_id: to_id("ana"),
            agent_id: None,
        }),
    ) else {
        panic!("stats")
    };
    assert_eq!(stats.by_status.get("challenged"), Some(&1));
    assert!(matches!(
        ok(&mut rt, Call::Maintain(NoArgs {})),
        Answer::Maintain(_)
    ));
    let Answer::Extract(found) = ok(
        &mut rt,
        Call::Extract(ExtractArgs {
            content: text("I moved to Porto"),
        }),
    ) else {
        panic!("extract")
    };
    assert_eq!(found[0].content, "I moved to Porto");
    let Answer::EmbeddingModel(model) = ok(&mut rt, Call::EmbeddingModel(NoArgs {})) else {
        panic!("model")
    };
    assert_eq!(
        (model.model.as_str(), model.dimension),
        ("mnemo-static-v1", 256)
    );

    // The graph.
    let Answer::Relationships(rels) = ok(
        &mut rt,
        Call::Relationships(RelationshipsRequest {
            entity: Some("Tiago".into()),
            ..RelationshipsRequest::new(to_id("ana"))
        }),
    ) else {
        panic!("relationships")
    };
    assert!(rels
        .iter()
        .any(|r| r.relation == Relation::WorksAt && r.to == "Shopify"));
    let Answer::Path(path) = ok(
        &mut rt,
        Call::Path(PathRequest {
            entity_id: to_id("ana"),
            agent_id: None,
            from: "user".into(),
            to: "Shopify".into(),
            max_depth: None,
        }),
    ) else {
        panic!("path")
    };
    assert!(path.found && path.hops.len() == 2);

    // Conflicts, then schedules.
    let remember = |content: &str| Call::Remember(RememberArgs::new(to_id("ana"), text(content)));
    ok(&mut rt, remember("I like coffee."));
    ok(&mut rt, remember("I don't like coffee."));
    let Answer::Conflicts(unresolved) = ok(
        &mut rt,
        Call::Conflicts(ConflictsRequest {
            entity_id: to_id("ana"),
            agent_id: None,
            status: Some(ConflictStatus::Open),
            limit: None,
        }),
    ) else {
        panic!("conflicts")
    };
    let Answer::ResolveConflict(done) = ok(
        &mut rt,
        Call::ResolveConflict(ResolveRequest {
            entity_id: to_id("ana"),
            id: to_id(&unresolved[0].id),
            resolution: Resolution::UseNew,
            reason: None,
        }),
    ) else {
        panic!("resolve")
    };
    assert_eq!(done.status, ConflictStatus::Resolved);
    let Answer::ScheduleCreate(made) = ok(
        &mut rt,
        Call::ScheduleCreate(ScheduleCreate {
            entity_id: to_id("ana"),
            content: text("Water the plants"),
            cron_tag: "cron:daily:18:00".into(),
            agent_id: None,
        }),
    ) else {
        panic!("schedule")
    };
    let sref = ScheduleRef {
        entity_id: to_id("ana"),
        agent_id: None,
        id: to_id(&made.id),
    };
    assert!(
        matches!(ok(&mut rt, Call::ScheduleAck(sref.clone())), Answer::ScheduleAck(s) if s.acknowledged_at == Some(T0))
    );
    assert!(
        matches!(ok(&mut rt, Call::ScheduleCancel(sref)), Answer::ScheduleCancel(s) if s.status == ScheduleStatus::Cancelled)
    );

    // Forget, export, and an import into a fresh store restores it exactly.
    let gone = memory(ok(&mut rt, Call::Forget(mref("ana", &ids[0]))));
    assert_eq!(gone.state, State::Deleted);
    let jsonl = export(&mut rt, "ana");
    let other = Dir::new("typed-import");
    let mut fresh = open(&other);
    let Answer::Import(report) = ok(
        &mut fresh,
        Call::Import(ImportArgs {
            jsonl: jsonl.clone(),
        }),
    ) else {
        panic!("import")
    };
    assert_eq!(report.restored, jsonl.lines().count());
    assert_eq!(export(&mut fresh, "ana"), jsonl);
    fresh.close().expect("close");
    rt.close().expect("close");
}

#[test]
fn bad_arguments_are_refused_and_change_nothing() {
    let dir = Dir::new("bad");
    let mut rt = open(&dir);
    let id = seed(&mut rt, vec![mem("ana", "Ana likes rowing")]).remove(0);
    let before = export(&mut rt, "ana");
    let seeding = |items: Vec<NewMemory>| Call::Seed(SeedArgs { items });
    let short = NewMemory {
        vector: Some(vec![0.5; 3]),
        ..mem("ana", "a vector too short")
    };
    assert_eq!(
        code(&mut rt, seeding(vec![mem("ana", "ok"), short])),
        "dimension_mismatch"
    );
    // Values the typed vocabulary cannot hold, as a host's JSON sends them: each is refused
    // in parsing, named by its path.
    let long = "x".repeat(60_000);
    for (method, args, field) in [
        (
            "seed",
            json!({"items": [{"entity_id": "ana", "content": "fine", "importance": 1.5}]}),
            "args.items[0].importance",
        ),
        (
            "seed",
            json!({"items": [{"entity_id": "", "content": "no owner"}]}),
            "args.items[0].entity_id",
        ),
        (
            "seed",
            json!({"items": [{"entity_id": "ana", "content": long}]}),
            "args.items[0].content",
        ),
        (
            "get",
            json!({"entity_id": "ana'; DROP TABLE memories; --", "id": id}),
            "args.entity_id",
        ),
        (
            "set_status",
            json!({"entity_id": "ana", "id": id, "status": "invalidated", "reason": "  "}),
            "args.reason",
        ),
        (
            "search",
            json!({"entity_id": "ana", "query": "rowing", "limit": 5000}),
            "args.limit",
        ),
        (
            "heartbeat_check",
            json!({"entity_id": "ana; DROP TABLE memories", "dry_run": true}),
            "args.entity_id",
        ),
    ] {
        let e = rt
            .call(method, &args.to_string())
            .expect("no trap")
            .unwrap_err();
        assert_eq!(e.code, "invalid_input", "{args}: {}", e.message);
        assert!(
            e.message.starts_with(&format!("invalid {field}: ")),
            "{}",
            e.message
        );
    }
    assert_eq!(
        code(&mut rt, Call::Get(mref("ana", "no-such-id"))),
        "not_found"
    );
    assert_eq!(
        code(&mut rt, Call::Get(mref("bob", &id))),
        "not_found",
        "another owner's memory"
    );
    assert_eq!(
        code(
            &mut rt,
            Call::Import(ImportArgs {
                jsonl: "{not json".into()
            })
        ),
        "import_error"
    );
    assert_eq!(
        code(
            &mut rt,
            Call::Traverse(TraverseRequest {
                depth: Some(9),
                ..TraverseRequest::new(to_id("ana"), "user")
            })
        ),
        "invalid_input"
    );
    // JSON the engine cannot read: malformed, wrong types, unknown fields, NaN spelled out.
    for (method, args) in [
        ("seed", r#"{"items": [{"entity_id": "ana", "content": 5}]}"#),
        (
            "seed",
            r#"{"items": [{"entity_id": "ana", "content": "x", "colour": 1}]}"#,
        ),
        ("search", r#"{"entity_id": "ana", "query": "#),
        (
            "seed",
            r#"{"items": [{"entity_id": "ana", "content": "x", "vector": [NaN]}]}"#,
        ),
    ] {
        let e = rt.call(method, args).expect("no trap").unwrap_err();
        assert_eq!(e.code, "invalid_input", "{args}: {}", e.message);
        assert!(e.message.starts_with("invalid args"), "{}", e.message);
    }
    assert_eq!(
        export(&mut rt, "ana"),
        before,
        "a refused call changed the store"
    );
}

#[test]
fn the_heartbeat_runs_in_the_component() {
    let dir = Dir::new("heartbeat");
    let mut rt = open(&dir);
    seed(
        &mut rt,
        vec![NewMemory {
            memory_type: Some(MemoryType::Plan),
            expires_at: Some(T0 + 3_600_000 * 5),
            ..mem("ana", "Send the invoice to Globex")
        }],
    );
    let req = HeartbeatRequest {
        dry_run: true,
        ..HeartbeatRequest::new(to_id("ana"))
    };
    let Answer::HeartbeatCheck(dry) = ok(&mut rt, Call::HeartbeatCheck(req.clone())) else {
        panic!("check")
    };
    assert_eq!(dry.decision_reason, DecisionReason::FirstContact);
    assert!(dry.should_act && dry.act_id.is_none());
    assert_eq!(dry.deadlines[0].content, "Send the invoice to Globex");
    assert!(dry
        .signals
        .iter()
        .any(|s| s.kind == SignalKind::Deadlines && s.tier == Urgency::Immediate));
    let Answer::HeartbeatCheck(acted) = ok(
        &mut rt,
        Call::HeartbeatCheck(HeartbeatRequest {
            dry_run: false,
            ..req.clone()
        }),
    ) else {
        panic!("check")
    };
    let act = acted.act_id.expect("recorded");
    let Answer::RecordMessage(msg) = ok(
        &mut rt,
        Call::RecordMessage(RecordMessage {
            entity_id: to_id("ana"),
            agent_id: None,
            role: MessageRole::Agent,
            content: text("Your invoice is due today"),
            session_id: None,
            act_id: Some(to_id(&act)),
            action_ref: None,
        }),
    ) else {
        panic!("message")
    };
    assert_eq!(msg.act_id.as_deref(), Some(act.as_str()));
    let Answer::HeartbeatContext(ctx) = ok(
        &mut rt,
        Call::HeartbeatContext(HeartbeatRequest {
            query: Some("invoice".into()),
            ..req.clone()
        }),
    ) else {
        panic!("context")
    };
    assert_eq!(ctx.recent_messages[0].content, "Your invoice is due today");
    assert_eq!(
        ctx.relevant_memories[0].memory.content,
        "Send the invoice to Globex"
    );
    let before = export(&mut rt, "ana");
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
            quiet_hours: Some(QuietHours {
                enabled: true,
                start: 30,
                end: 7,
            }),
            ..req.clone()
        },
    ] {
        assert_eq!(
            code(&mut rt, Call::HeartbeatCheck(bad.clone())),
            "invalid_input",
            "{bad:?}"
        );
    }
    let bad_message = RecordMessage {
        entity_id: to_id("ana"),
        agent_id: None,
        role: MessageRole::User,
        content: text("x"),
        session_id: None,
        act_id: Some(to_id(&act)),
        action_ref: None,
    };
    assert_eq!(
        code(&mut rt, Call::RecordMessage(bad_message)),
        "invalid_input"
    );
    assert_eq!(export(&mut rt, "ana"), before);
}
