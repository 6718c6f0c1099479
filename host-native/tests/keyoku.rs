//! The wire contract with Keyoku's client: every request below has the method, path and body
//! Keyoku's TypeScript client (`@keyoku/memory` 1.4, `KeyokuClient`) sends for that method, and
//! every answer is checked for each field Keyoku's types (`@keyoku/types` 1.4 and the client's
//! own result types) read, with the type they declare. Written from those published types, not
//! from their code; against the real server on loopback.
mod common;

use common::Server;
use serde_json::{json, Value};
use time::format_description::well_known::Rfc3339;
use time::OffsetDateTime;

/// An RFC 3339 time, as Keyoku's `string` times are.
fn is_time(v: &Value) -> bool {
    v.as_str()
        .is_some_and(|s| OffsetDateTime::parse(s, &Rfc3339).is_ok())
}

/// Every field of Keyoku's `Memory` with its declared type (`agent_id`/`team_id` absent when
/// the memory has none, rather than `null`).
fn assert_memory(m: &Value) {
    let ctx = || m.to_string();
    for key in ["id", "entity_id", "visibility", "content", "type", "state"] {
        assert!(m[key].is_string(), "{key}: {}", ctx());
    }
    for key in ["agent_id", "team_id"] {
        assert!(m.get(key).is_none_or(Value::is_string), "{key}: {}", ctx());
    }
    for key in ["importance", "confidence", "sentiment"] {
        assert!(m[key].is_number(), "{key}: {}", ctx());
    }
    assert!(m["access_count"].is_u64(), "{}", ctx());
    assert!(
        m["tags"]
            .as_array()
            .is_some_and(|t| t.iter().all(Value::is_string)),
        "{}",
        ctx()
    );
    for key in ["created_at", "updated_at", "last_accessed_at"] {
        assert!(is_time(&m[key]), "{key}: {}", ctx());
    }
    assert!(
        m["expires_at"].is_null() || is_time(&m["expires_at"]),
        "{}",
        ctx()
    );
    let state = m["state"].as_str().unwrap();
    assert_eq!(state, state.to_lowercase(), "Keyoku's states are lowercase");
}

fn assert_memories(list: &Value) -> usize {
    let items = list
        .as_array()
        .unwrap_or_else(|| panic!("an array: {list}"));
    items.iter().for_each(assert_memory);
    items.len()
}

/// Keyoku's `SearchResult`.
fn assert_hit(h: &Value) {
    assert_memory(&h["memory"]);
    let similarity = h["similarity"].as_f64().unwrap_or(f64::NAN);
    assert!((0.0..=1.0).contains(&similarity), "similarity {h}");
    assert!(h["score"].is_number(), "{h}");
}

/// A Keyoku `{status: string, …}` answer.
fn status(v: &Value) -> &str {
    v["status"]
        .as_str()
        .unwrap_or_else(|| panic!("a status: {v}"))
}

#[test]
fn a_keyoku_client_session_gets_every_shape_its_types_read() {
    let s = Server::start("keyoku", Some("keyoku-token"));

    // health(): {status, timestamp, sse_clients}
    let (st, h) = s.send("GET", "/api/v1/health", Value::Null);
    assert_eq!((st, status(&h)), (200, "ok"));
    assert!(is_time(&h["timestamp"]) && h["sse_clients"].is_u64(), "{h}");

    // The team the plugin writes for (Mnemo's teams are the owner's: made first).
    let (st, crew) = s.send(
        "POST",
        "/api/v1/teams?entity_id=ana",
        json!({"name": "Crew", "id": "crew"}),
    );
    assert_eq!(st, 200, "{crew}");
    let (st, joined) = s.send(
        "POST",
        "/api/v1/teams/crew/members?entity_id=ana",
        json!({"agent_id": "claw"}),
    );
    assert_eq!(st, 200, "{joined}");

    // remember(entityId, content, {session_id, agent_id, source, team_id, visibility}):
    // RememberResult. The plugin's MEMORY.md import sends source "migration".
    let (st, r) = s.send(
        "POST",
        "/api/v1/remember",
        json!({"entity_id": "ana", "content": "I live in Porto and I work as a marine biologist.",
               "session_id": "s1", "agent_id": "claw", "source": "migration", "team_id": "crew", "visibility": "team"}),
    );
    assert_eq!(st, 200, "{r}");
    for key in [
        "memories_created",
        "memories_updated",
        "memories_deleted",
        "skipped",
    ] {
        assert!(r[key].is_u64(), "{key}: {r}");
    }
    assert!(r["memories_created"].as_u64().unwrap() >= 1, "{r}");
    // The same again is a duplicate: skipped, nothing created.
    let (_, again) = s.send(
        "POST",
        "/api/v1/remember",
        json!({"entity_id": "ana", "content": "I live in Porto and I work as a marine biologist.", "agent_id": "claw"}),
    );
    assert_eq!(
        (
            again["memories_created"].as_u64(),
            again["skipped"].as_u64().map(|n| n >= 1)
        ),
        (Some(0), Some(true)),
        "{again}"
    );

    // seed(memories): SeedResult {created, ids}; SeedMemoryInput's fields, times in RFC 3339.
    let (st, seeded) = s.send(
        "POST",
        "/api/v1/seed",
        json!({"memories": [
            {"content": "Ana drinks green tea every morning", "type": "PREFERENCE", "importance": 0.7,
             "entity_id": "ana", "agent_id": "claw", "tags": ["drinks"], "sentiment": 0.4,
             "confidence_factors": ["stated"], "created_at": "2023-11-01T08:00:00Z"},
            {"content": "Renew the passport before the trip", "type": "PLAN", "entity_id": "ana",
             "expires_at": "2023-12-01T00:00:00Z"},
            {"content": "Ben drinks black coffee", "type": "PREFERENCE", "entity_id": "ben"}
        ]}),
    );
    assert_eq!(st, 200, "{seeded}");
    assert_eq!(seeded["created"], 3, "{seeded}");
    let ids: Vec<String> = seeded["ids"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i.as_str().unwrap().to_string())
        .collect();
    assert_eq!(ids.len(), 3);

    // search(entityId, query, {limit, mode, agent_id, team_aware, min_score}): SearchResult[].
    let (st, hits) = s.send(
        "POST",
        "/api/v1/search",
        json!({"entity_id": "ana", "query": "green tea", "limit": 5, "mode": "semantic",
               "agent_id": "claw", "team_aware": true, "min_score": 0.0}),
    );
    assert_eq!(st, 200, "{hits}");
    hits.as_array().unwrap().iter().for_each(assert_hit);
    assert_eq!(hits[0]["memory"]["id"], ids[0].as_str());
    assert!(hits[0]["similarity"].as_f64().unwrap() > 0.0, "{hits}");
    assert_eq!(hits[0]["memory"]["tags"], json!(["drinks", "stated"]));
    assert_eq!(hits[0]["memory"]["created_at"], "2023-11-01T08:00:00Z");
    // Owners stay apart.
    assert!(hits
        .as_array()
        .unwrap()
        .iter()
        .all(|h| h["memory"]["entity_id"] == "ana"));

    // `similarity` is absolute: the plugin's migration asks for min_score 0.95 to find a
    // chunk already stored, and only the same text passes; its recall asks for 0.15.
    let dedup = |q: &str| {
        let (st, r) = s.send(
            "POST",
            "/api/v1/search",
            json!({"entity_id": "ana", "query": q, "limit": 1, "min_score": 0.95}),
        );
        assert_eq!(st, 200, "{r}");
        r.as_array().unwrap().len()
    };
    assert_eq!(dedup("Ana drinks green tea every morning"), 1);
    assert_eq!(
        dedup("The budget alerts demo is on Friday for the sprint review"),
        0
    );
    assert_eq!(dedup("Ana drinks black coffee at night"), 0);
    let (_, recall) = s.send(
        "POST",
        "/api/v1/search",
        json!({"entity_id": "ana", "query": "what does Ana drink?", "limit": 5, "min_score": 0.15}),
    );
    assert_eq!(recall[0]["memory"]["id"], ids[0].as_str(), "{recall}");
    assert!(recall
        .as_array()
        .unwrap()
        .iter()
        .all(|h| h["similarity"].as_f64().unwrap() >= 0.15));

    // listMemories(entityId, limit): Memory[].
    let (st, list) = s.send(
        "GET",
        "/api/v1/memories?entity_id=ana&limit=100",
        Value::Null,
    );
    assert_eq!(st, 200);
    let listed = assert_memories(&list);
    assert!(listed >= 3, "{list}");
    assert_eq!(
        assert_memories(
            &s.send(
                "GET",
                "/api/v1/memories?entity_id=ben&limit=100",
                Value::Null
            )
            .1
        ),
        1
    );
    let remembered = list
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["content"].as_str().unwrap().contains("Porto"))
        .unwrap_or_else(|| panic!("the remembered fact: {list}"));
    assert_eq!(
        (
            remembered["agent_id"].as_str(),
            remembered["team_id"].as_str(),
            remembered["visibility"].as_str()
        ),
        (Some("claw"), Some("crew"), Some("team"))
    );
    let planned = &s
        .send("GET", &format!("/api/v1/memories/{}", ids[1]), Value::Null)
        .1;
    assert_eq!(planned["expires_at"], "2023-12-01T00:00:00Z");

    // getMemory(id): Memory by its id alone; an unknown id is a 404 with `error`.
    let (st, m) = s.send("GET", &format!("/api/v1/memories/{}", ids[2]), Value::Null);
    assert_eq!((st, m["entity_id"].as_str()), (200, Some("ben")), "{m}");
    assert_memory(&m);
    let (st, e) = s.send("GET", "/api/v1/memories/mem_0000000000000000", Value::Null);
    assert_eq!((st, e["error"].is_string()), (404, true), "{e}");

    // updateTags(id, tags): {status, memory_id, tags}.
    let (st, t) = s.send(
        "PUT",
        &format!("/api/v1/memories/{}/tags", ids[0]),
        json!({"tags": ["tea", "mornings"]}),
    );
    assert_eq!(st, 200, "{t}");
    assert_eq!(
        (status(&t), t["memory_id"].as_str(), &t["tags"]),
        (
            "updated",
            Some(ids[0].as_str()),
            &json!(["tea", "mornings"])
        )
    );

    // sampleMemories({entity_id, limit}): Memory[].
    let (st, sample) = s.send(
        "GET",
        "/api/v1/memories/sample?entity_id=ana&limit=2",
        Value::Null,
    );
    assert_eq!((st, assert_memories(&sample)), (200, 2));
    assert!(sample
        .as_array()
        .unwrap()
        .iter()
        .all(|m| m["entity_id"] == "ana"));
    // With no options, from every owner.
    let (st, sample) = s.send("GET", "/api/v1/memories/sample?limit=100", Value::Null);
    assert_eq!(st, 200, "{sample}");
    assert_eq!(assert_memories(&sample), listed + 1);
    assert!(sample
        .as_array()
        .unwrap()
        .iter()
        .any(|m| m["entity_id"] == "ben"));
    assert_eq!(
        assert_memories(&s.send("GET", "/api/v1/memories/sample", Value::Null).1),
        (listed + 1).min(10)
    );

    // listEntities(): string[] of owners.
    let (st, owners) = s.send("GET", "/api/v1/entities", Value::Null);
    assert_eq!((st, owners), (200, json!(["ana", "ben"])));

    // getStats(entityId): MemoryStats; getGlobalStats(): GlobalStats.
    let (st, stats) = s.send("GET", "/api/v1/stats/ana", Value::Null);
    assert_eq!(st, 200, "{stats}");
    assert_eq!(stats["total_memories"].as_u64(), Some(listed as u64));
    assert_eq!(stats["active_memories"].as_u64(), Some(listed as u64));
    assert!(
        stats["by_type"]["PREFERENCE"].is_u64() && stats["by_state"]["active"].is_u64(),
        "{stats}"
    );
    let (st, global) = s.send("GET", "/api/v1/stats", Value::Null);
    assert_eq!(st, 200, "{global}");
    assert_eq!(global["total_memories"].as_u64(), Some(listed as u64 + 1));
    assert_eq!(
        (
            global["entity_count"].as_u64(),
            global["active_memories"].is_u64()
        ),
        (Some(2), true)
    );
    assert!(
        global["by_type"].is_object() && global["by_state"]["active"].is_u64(),
        "{global}"
    );

    // consolidate(): {status}.
    let (st, c) = s.send("POST", "/api/v1/consolidate", Value::Null);
    assert_eq!((st, status(&c)), (200, "ok"));

    // heartbeatCheck(entityId, {deadline_window, decay_threshold, importance_floor, max_results,
    // agent_id, team_id}): HeartbeatResult.
    let (st, beat) = s.send(
        "POST",
        "/api/v1/heartbeat/check",
        json!({"entity_id": "ana", "deadline_window": "24h", "decay_threshold": 0.3, "importance_floor": 0.5,
               "max_results": 10, "agent_id": "claw", "team_id": "crew"}),
    );
    assert_eq!(st, 200, "{beat}");
    assert_heartbeat(&beat);

    // heartbeatContext(entityId, {query, top_k, min_score, deadline_window, max_results, agent_id,
    // team_id, analyze, activity_summary, autonomy, in_conversation}): HeartbeatContextResult,
    // with the options the OpenClaw plugin sends.
    let (st, ctx) = s.send(
        "POST",
        "/api/v1/heartbeat/context",
        json!({"entity_id": "ana", "query": "what does Ana drink", "top_k": 8, "min_score": 0.05,
               "deadline_window": "48h", "max_results": 10, "agent_id": "claw", "team_id": "crew",
               "analyze": true, "activity_summary": "user: talked about tea", "autonomy": "suggest",
               "in_conversation": false}),
    );
    assert_eq!(st, 200, "{ctx}");
    assert_heartbeat(&ctx);
    ctx["relevant_memories"]
        .as_array()
        .unwrap()
        .iter()
        .for_each(assert_hit);
    assert!(ctx["recent_messages"]
        .as_array()
        .unwrap()
        .iter()
        .all(Value::is_string));
    assert!(
        ctx["decision_reason"].is_string() && ctx["time_period"].is_string(),
        "{ctx}"
    );

    // recordHeartbeatMessage(entityId, message, {agent_id}): {status, id}.
    let (st, rec) = s.send(
        "POST",
        "/api/v1/heartbeat/record-message",
        json!({"entity_id": "ana", "message": "Morning! Your passport renewal is coming up.", "agent_id": "claw"}),
    );
    assert_eq!(
        (st, status(&rec), rec["id"].is_string()),
        (200, "ok", true),
        "{rec}"
    );
    let (_, ctx) = s.send(
        "POST",
        "/api/v1/heartbeat/context",
        json!({"entity_id": "ana", "query": "tea"}),
    );
    assert_eq!(
        ctx["recent_messages"][0],
        "Morning! Your passport renewal is coming up."
    );

    // createSchedule(entityId, agentId, content, cronTag): Memory.
    let (st, plan) = s.send(
        "POST",
        "/api/v1/schedule",
        json!({"entity_id": "ana", "agent_id": "claw", "content": "Weekly review", "cron_tag": "cron:weekly:mon:09:00"}),
    );
    assert_eq!(st, 200, "{plan}");
    assert_memory(&plan);
    let plan_id = plan["id"].as_str().unwrap().to_string();
    // listSchedules(entityId, agentId): Memory[], every schedule (not only the due ones).
    let (st, plans) = s.send(
        "GET",
        "/api/v1/scheduled?entity_id=ana&agent_id=claw",
        Value::Null,
    );
    assert_eq!((st, assert_memories(&plans)), (200, 1));
    assert_eq!(plans[0]["id"], plan_id.as_str());
    // ackSchedule(memoryId): {status, memory_id}.
    let (st, ack) = s.send(
        "POST",
        "/api/v1/schedule/ack",
        json!({"memory_id": plan_id}),
    );
    assert_eq!(
        (st, status(&ack), ack["memory_id"].as_str()),
        (200, "acknowledged", Some(plan_id.as_str())),
        "{ack}"
    );
    // updateSchedule(id, cronTag, newContent): Memory.
    let (st, updated) = s.send(
        "PUT",
        &format!("/api/v1/schedule/{plan_id}"),
        json!({"cron_tag": "cron:daily:08:00", "new_content": "Daily review"}),
    );
    assert_eq!(st, 200, "{updated}");
    assert_memory(&updated);
    assert_eq!(
        (updated["content"].as_str(), updated["cron_tag"].as_str()),
        (Some("Daily review"), Some("cron:daily:08:00"))
    );
    // cancelSchedule(id): {status, memory_id}.
    let (st, gone) = s.send(
        "DELETE",
        &format!("/api/v1/schedule/{plan_id}"),
        Value::Null,
    );
    assert_eq!(
        (st, status(&gone), gone["memory_id"].as_str()),
        (200, "cancelled", Some(plan_id.as_str()))
    );

    // deleteMemory(id): {status}; then it is not found.
    let (st, del) = s.send(
        "DELETE",
        &format!("/api/v1/memories/{}", ids[2]),
        Value::Null,
    );
    assert_eq!((st, status(&del)), (200, "deleted"));
    assert_eq!(
        s.send("GET", &format!("/api/v1/memories/{}", ids[2]), Value::Null)
            .0,
        404
    );
    assert_eq!(
        s.send(
            "DELETE",
            &format!("/api/v1/memories/{}", ids[2]),
            Value::Null
        )
        .0,
        404
    );

    // deleteAllMemories(entityId): {status}; only that owner's.
    let (st, all) = s.send("DELETE", "/api/v1/memories", json!({"entity_id": "ana"}));
    assert_eq!((st, status(&all)), (200, "deleted_all"), "{all}");
    assert_eq!(
        assert_memories(
            &s.send(
                "GET",
                "/api/v1/memories?entity_id=ana&limit=100",
                Value::Null
            )
            .1
        ),
        0
    );
    let (_, global) = s.send("GET", "/api/v1/stats", Value::Null);
    assert_eq!(global["total_memories"], 0, "{global}");

    // Keyoku's team methods, with its client's request shapes; Mnemo's teams belong to an
    // owner, named in the query.
    let (st, team) = s.send(
        "POST",
        "/api/v1/teams?entity_id=ana",
        json!({"name": "crew", "description": "the support agents"}),
    );
    assert_eq!(st, 200, "{team}");
    let tid = team["id"].as_str().expect("Team.id").to_string();
    for key in [
        "name",
        "description",
        "default_visibility",
        "created_at",
        "updated_at",
    ] {
        assert!(!team[key].is_null(), "Team.{key}: {team}");
    }
    let (st, got) = s.send(
        "GET",
        &format!("/api/v1/teams/{tid}?entity_id=ana"),
        Value::Null,
    );
    assert_eq!((st, got["name"].as_str()), (200, Some("crew")));
    for agent in ["claw", "scout"] {
        let (st, added) = s.send(
            "POST",
            &format!("/api/v1/teams/{tid}/members?entity_id=ana"),
            json!({"agent_id": agent}),
        );
        assert_eq!(
            (st, status(&added), added["agent_id"].as_str()),
            (200, "added", Some(agent))
        );
    }
    let (_, members) = s.send(
        "GET",
        &format!("/api/v1/teams/{tid}/members?entity_id=ana"),
        Value::Null,
    );
    let listed: Vec<&str> = members
        .as_array()
        .expect("TeamMember[]")
        .iter()
        .map(|m| m["agent_id"].as_str().unwrap_or(""))
        .collect();
    assert_eq!(listed, ["claw", "scout"]);
    // A team memory of claw's: scout (its teammate) finds it, rover (outside) does not.
    s.send(
        "POST",
        "/api/v1/remember",
        json!({"entity_id": "ana", "agent_id": "claw", "team_id": tid,
        "content": "The refund policy changed to 60 days."}),
    );
    for (agent, sees) in [("scout", true), ("rover", false)] {
        let (_, hits) = s.send(
            "POST",
            "/api/v1/search",
            json!({"entity_id": "ana", "query": "refund policy",
            "agent_id": agent, "team_aware": true}),
        );
        assert_eq!(
            hits.to_string().contains("60 days"),
            sees,
            "{agent}: {hits}"
        );
    }
    let (st, removed) = s.send(
        "DELETE",
        &format!("/api/v1/teams/{tid}/members/scout?entity_id=ana"),
        Value::Null,
    );
    assert_eq!((st, status(&removed)), (200, "removed"));
    let (st, e) = s.send("POST", "/api/v1/teams", json!({"name": "crew"}));
    assert_eq!(st, 400, "a team without an owner: {e}");
    assert!(
        e["error"].as_str().is_some_and(|m| m.contains("entity_id")),
        "{e}"
    );
    let (st, gone) = s.send(
        "DELETE",
        &format!("/api/v1/teams/{tid}?entity_id=ana"),
        Value::Null,
    );
    assert_eq!((st, status(&gone)), (200, "deleted"));
    assert_eq!(
        s.send(
            "GET",
            &format!("/api/v1/teams/{tid}?entity_id=ana"),
            Value::Null
        )
        .0,
        404
    );
}

/// Keyoku's `HeartbeatResult` fields (also read from a `HeartbeatContextResult`).
fn assert_heartbeat(b: &Value) {
    assert!(b["should_act"].is_boolean(), "{b}");
    for key in [
        "pending_work",
        "deadlines",
        "scheduled",
        "decaying",
        "stale_monitors",
    ] {
        assert_memories(&b[key]);
    }
    for c in b["conflicts"].as_array().unwrap() {
        assert!(
            c["memory"]["id"].is_string() && c["reason"].is_string(),
            "{c}"
        );
    }
    assert!(b["summary"].is_string(), "{b}");
    if let Some(u) = b.get("urgency") {
        assert!(
            ["immediate", "soon", "can_wait"].contains(&u.as_str().unwrap_or("")),
            "{b}"
        );
    }
}

#[test]
fn keyoku_shaped_bad_input_gets_a_clear_error_and_changes_nothing() {
    let s = Server::start("keyoku-bad", Some("keyoku-token"));
    let (_, seeded) = s.send(
        "POST",
        "/api/v1/seed",
        json!({"memories": [{"content": "Ana likes tea", "entity_id": "ana"}]}),
    );
    let id = seeded["ids"][0].as_str().unwrap().to_string();
    let before = s
        .send("GET", "/api/v1/memories?entity_id=ana", Value::Null)
        .1;
    for (method, path, body, field) in [
        (
            "POST",
            "/api/v1/seed",
            json!({"memories": [{"content": "x", "entity_id": "ana", "expires_at": "next tuesday"}]}),
            "expires_at",
        ),
        (
            "POST",
            "/api/v1/seed",
            json!({"memories": "all of them"}),
            "items",
        ),
        (
            "POST",
            "/api/v1/seed",
            json!({"memories": [{"content": "x", "entity_id": "ana", "importance": "high"}]}),
            "importance",
        ),
        (
            "POST",
            "/api/v1/remember",
            json!({"entity_id": "ana", "content": "hi there friend", "source": "telepathy"}),
            "source",
        ),
        (
            "POST",
            "/api/v1/remember",
            json!({"entity_id": "ana", "content": "x", "visibility": "everyone"}),
            "visibility",
        ),
        (
            "POST",
            "/api/v1/search",
            json!({"entity_id": "ana", "query": "tea", "agent_id": 7}),
            "agent_id",
        ),
        (
            "POST",
            "/api/v1/search",
            json!({"entity_id": "ana", "query": "tea", "team_aware": "yes"}),
            "team_aware",
        ),
        (
            "POST",
            "/api/v1/heartbeat/check",
            json!({"entity_id": "ana", "decay_threshold": "low"}),
            "decay_threshold",
        ),
        (
            "POST",
            "/api/v1/heartbeat/check",
            json!({"entity_id": "ana", "deadline_window": "soonish"}),
            "deadline_window",
        ),
        (
            "PUT",
            &format!("/api/v1/memories/{id}/tags"),
            json!({"tags": "tea"}),
            "tags",
        ),
        (
            "PUT",
            &format!("/api/v1/memories/{id}/tags"),
            json!({"tags": ["x".repeat(65)]}),
            "tags",
        ),
        (
            "POST",
            "/api/v1/schedule",
            json!({"entity_id": "ana", "agent_id": "claw", "content": "x", "cron_tag": "whenever"}),
            "cron_tag",
        ),
        ("POST", "/api/v1/schedule/ack", json!({}), "id"),
        ("DELETE", "/api/v1/memories", json!({}), "entity_id"),
        (
            "DELETE",
            "/api/v1/memories",
            json!({"entity_id": "ana' OR '1'='1", "extra": true}),
            "entity_id",
        ),
    ] {
        let (st, e) = s.send(method, path, body.clone());
        assert_eq!(st, 400, "{method} {path} {body}: {e}");
        assert!(
            e["error"].as_str().is_some_and(|m| m.contains(field)),
            "{method} {path} {body}: {e}"
        );
    }
    // Ids that do not exist (or with SQL in them) are not found, for every route by id.
    for (method, path) in [
        ("GET", "/api/v1/memories/mem_ffffffffffffffff".to_string()),
        (
            "DELETE",
            "/api/v1/memories/mem_ffffffffffffffff".to_string(),
        ),
        (
            "DELETE",
            "/api/v1/schedule/mem_ffffffffffffffff".to_string(),
        ),
        (
            "PUT",
            "/api/v1/memories/x'%3B%20DROP%20TABLE%20memories%3B--/tags".to_string(),
        ),
    ] {
        let (st, e) = s.send(method, &path, json!({"tags": ["a"]}));
        assert!(st == 404 || st == 400, "{method} {path}: {st} {e}");
        assert!(e["error"].is_string(), "{e}");
    }
    assert_eq!(
        s.send("GET", "/api/v1/memories?entity_id=ana", Value::Null)
            .1,
        before
    );
    // Unicode survives the round trip in Keyoku's shapes.
    let (st, r) = s.send(
        "POST",
        "/api/v1/seed",
        json!({"memories": [{"content": "Ana mag Grüntee 🍵 und 日本茶", "entity_id": "ana"}]}),
    );
    assert_eq!((st, r["created"].as_u64()), (200, Some(1)), "{r}");
    let (_, m) = s.send(
        "GET",
        &format!("/api/v1/memories/{}", r["ids"][0].as_str().unwrap()),
        Value::Null,
    );
    assert_eq!(m["content"], "Ana mag Grüntee 🍵 und 日本茶");
}

#[test]
fn the_watcher_checks_watched_owners_and_pushes_each_decision_over_server_sent_events() {
    use std::io::BufRead;
    // A daily 09:00 stand-up, made at 08:59; the server's clock starts at 08:59:50 and runs
    // (room for a slow start before it falls due).
    let data = Server::fresh("watcher");
    let made = std::process::Command::new(env!("CARGO_BIN_EXE_mnemo"))
        .args([
            "--data",
            data.to_str().unwrap(),
            "--now",
            "2023-11-14T08:59:00Z",
        ])
        .args([
            "schedule",
            "create",
            "--entity",
            "kai",
            "--cron",
            "cron:daily:09:00",
            "Stand-up meeting",
        ])
        .output()
        .unwrap();
    assert!(
        made.status.success(),
        "{}",
        String::from_utf8_lossy(&made.stderr)
    );
    let s = Server::start_in(
        data,
        Some("w-token"),
        &["--start-at", "2023-11-14T08:59:50Z"],
        None,
    );
    let url = |path: &str| format!("http://{}/api/v1/{path}", s.addr);

    // A real event-stream client, as Keyoku's subscribeEvents reads it.
    let events = ureq::get(url("events"))
        .header("Authorization", "Bearer w-token")
        .header("Accept", "text/event-stream")
        .call()
        .unwrap();
    assert!(events.headers()["content-type"]
        .to_str()
        .unwrap()
        .starts_with("text/event-stream"));
    let mut lines = std::io::BufReader::new(events.into_body().into_reader()).lines();
    let mut next_event = move || -> (String, Value) {
        let mut name = String::new();
        loop {
            let line = lines.next().expect("the stream stays open").unwrap();
            if let Some(n) = line.strip_prefix("event: ") {
                name = n.to_string();
            } else if let Some(d) = line.strip_prefix("data: ") {
                return (name.clone(), serde_json::from_str(d).unwrap());
            }
        }
    };
    assert_eq!(next_event().0, "connected");
    assert_eq!(
        s.send("GET", "/api/v1/health", Value::Null).1["sse_clients"],
        1
    );

    let (st, r) = s.send(
        "POST",
        "/api/v1/watcher/start",
        json!({"entity_ids": ["kai"], "interval_ms": 300}),
    );
    assert_eq!((st, status(&r)), (200, "started"));
    // Each check is pushed; the stand-up falls due at 09:00 and the watcher says act.
    let mut before_due = 0;
    let due = loop {
        let (name, e) = next_event();
        assert_eq!(
            (name.as_str(), e["type"].as_str(), e["entity_id"].as_str()),
            ("heartbeat", Some("heartbeat"), Some("kai")),
            "{e}"
        );
        assert!(
            is_time(&e["timestamp"]) && e["tick"]["tick_number"].is_u64(),
            "{e}"
        );
        if e["data"]["scheduled"]
            .as_array()
            .is_some_and(|a| !a.is_empty())
        {
            break e;
        }
        assert!(
            e["data"]["checked_at"].as_i64().unwrap() < 1_699_952_400_000,
            "due at 09:00 and not reported: {e}"
        );
        before_due += 1;
    };
    assert!(before_due >= 1, "checks ran before the schedule fell due");
    assert_eq!(due["data"]["should_act"], true, "{due}");
    assert_eq!(due["data"]["decision_reason"], "act_immediate");
    assert_eq!(due["data"]["scheduled"][0]["content"], "Stand-up meeting");
    assert_eq!(due["tick"]["should_act"], true);

    // Keyoku's status and history of the ticks.
    let (_, st) = s.send("GET", "/api/v1/watcher/status", Value::Null);
    assert_eq!(
        (
            st["running"].as_bool(),
            st["entity_ids"].clone(),
            st["adaptive"].as_bool()
        ),
        (Some(true), json!(["kai"]), Some(false))
    );
    assert!(
        st["tick_count"].as_u64().unwrap() >= 2 && is_time(&st["last_tick"]),
        "{st}"
    );
    let (_, h) = s.send("GET", "/api/v1/watcher/history?limit=2", Value::Null);
    let ticks = h["ticks"].as_array().unwrap();
    assert_eq!(ticks.len(), 2);
    assert!(
        ticks[0]["tick_number"].as_u64() > ticks[1]["tick_number"].as_u64(),
        "newest first: {h}"
    );
    for t in ticks {
        assert!(
            t["entity_id"] == "kai"
                && t["should_act"].is_boolean()
                && t["decision_reason"].is_string()
                && t["interval_ms"] == 300,
            "{t}"
        );
    }
    // Unwatched, then stopped: no more checks.
    let (st, r) = s.send(
        "POST",
        "/api/v1/watcher/unwatch",
        json!({"entity_id": "kai"}),
    );
    assert_eq!(
        (st, status(&r), r["entity_id"].as_str()),
        (200, "unwatched", Some("kai"))
    );
    // A check already running when unwatched still lands: count from after it.
    std::thread::sleep(std::time::Duration::from_millis(500));
    let ticks = s.send("GET", "/api/v1/watcher/status", Value::Null).1["tick_count"].clone();
    std::thread::sleep(std::time::Duration::from_millis(900));
    assert_eq!(
        s.send("GET", "/api/v1/watcher/status", Value::Null).1["tick_count"],
        ticks
    );
    let (st, r) = s.send("POST", "/api/v1/watcher/watch", json!({"entity_id": "ben"}));
    assert_eq!((st, status(&r)), (200, "watching"));
    assert_eq!(
        status(&s.send("POST", "/api/v1/watcher/stop", Value::Null).1),
        "stopped"
    );
    assert_eq!(
        s.send("GET", "/api/v1/watcher/status", Value::Null).1["running"],
        false
    );
    // Bad input is refused by name; the watcher is as it was.
    for (path, body, field) in [
        ("watcher/start", json!({"entity_ids": "kai"}), "entity_ids"),
        ("watcher/start", json!({"entity_ids": [""]}), "entity_ids"),
        (
            "watcher/start",
            json!({"entity_ids": ["kai"], "interval_ms": 5}),
            "interval_ms",
        ),
        (
            "watcher/start",
            json!({"entity_ids": ["kai"], "interval_ms": -1}),
            "interval_ms",
        ),
        ("watcher/watch", json!({}), "entity_id"),
        ("watcher/unwatch", json!({"entity_id": 7}), "entity_id"),
    ] {
        let (st, e) = s.send("POST", &format!("/api/v1/{path}"), body.clone());
        assert_eq!(st, 400, "{path} {body}: {e}");
        assert!(e["error"].as_str().unwrap().contains(field), "{e}");
    }
    assert_eq!(
        s.send("GET", "/api/v1/watcher/status", Value::Null).1["entity_ids"],
        json!(["ben"])
    );
    // The event stream needs the token.
    assert_eq!(s.raw("GET", "/api/v1/events", None, b"").0, 401);
}

#[test]
fn a_keyoku_client_asking_about_my_sister_gets_where_she_lives() {
    let s = Server::start("keyoku-hops", Some("keyoku-token"));
    // remember(entityId, content, {agent_id, visibility}) as the plugin sends each turn.
    for content in [
        "My sister Ana is a nurse.",
        "Ana lives in Lisbon now.",
        "I live in Porto.",
    ] {
        let (st, r) = s.send(
            "POST",
            "/api/v1/remember",
            json!({"entity_id": "kim", "content": content, "agent_id": "claw", "visibility": "global"}),
        );
        assert_eq!(st, 200, "{r}");
    }
    // search(entityId, query, {limit, mode, agent_id, team_aware, min_score}), as its recall
    // asks: the graph says who "my sister" is, so her city comes first, not the user's.
    let ask = |entity: &str, agent: &str| {
        let (st, hits) = s.send(
            "POST",
            "/api/v1/search",
            json!({"entity_id": entity, "query": "Which city does my sister live in?", "limit": 5,
                   "mode": "semantic", "agent_id": agent, "team_aware": true, "min_score": 0.15}),
        );
        assert_eq!(st, 200, "{hits}");
        hits.as_array().unwrap().iter().for_each(assert_hit);
        hits
    };
    let hits = ask("kim", "claw");
    assert_eq!(
        hits[0]["memory"]["content"], "Ana lives in Lisbon now.",
        "{hits}"
    );
    assert_eq!(
        hits[0]["why"]["hop"],
        json!({"phrase": "my sister", "entity": "Ana"})
    );
    // Another owner's client, asking the same, reads nothing of kim's.
    let other = ask("lee", "claw");
    assert!(other.as_array().unwrap().is_empty(), "{other}");
}
