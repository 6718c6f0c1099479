//! Keyoku's wire shapes, as its published TypeScript client and types (`@keyoku/memory`,
//! `@keyoku/types` 1.4) send and read them: how a Keyoku request body becomes an engine call's
//! arguments, and how the engine's answer becomes what Keyoku's types read. Mnemo's own fields
//! ride along wherever Keyoku's shapes have no field of that name (`why`, `outcomes`, `status`,
//! `manual_tags`, …). Pure: no I/O here.
//!
//! `agent_id` on search and the heartbeat, `team_aware` on search and `team_id` on the
//! heartbeat filter what the call sees, by the engine's rule (its own memories, `global` ones,
//! those of its teams); teams (`/teams`) belong to the owner named by `entity_id` in the body
//! or the query.
//!
//! `virtual_now` on the heartbeat (an RFC 3339 time) is the engine's `as_of`: the check
//! decides as of that time, from the memories written by then. Keyoku's engine ignores a
//! `virtual_now` it cannot parse; Mnemo refuses it by name.
//!
//! Where Keyoku's engine does something Mnemo does not, the request is still accepted:
//! - `analyze` and `activity_summary` on the heartbeat: no LLM runs, so no `analysis`.
//! - `auto_ack_scheduled` on the heartbeat: a check acknowledges nothing; `scheduled` reports
//!   each due time once, and `POST /schedule/ack` moves a schedule on.
//! - search `mode: "semantic"` ranks by Mnemo's most relevance-weighted mode, `historical`.

use serde_json::{json, Map, Value};
use time::format_description::well_known::Rfc3339;
use time::OffsetDateTime;

/// The form an engine answer is given: Keyoku's shapes, or Mnemo's own.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Form {
    /// Mnemo's own answer, unchanged (routes Keyoku does not have).
    Mnemo,
    /// A `Memory`.
    Memory,
    /// `Memory[]` from a page of `list`.
    Memories,
    /// `Memory[]` from a list of memories.
    MemoryList,
    /// `RememberResult` from a write report.
    Remember,
    /// `SeedResult` from a write report.
    Seed,
    /// `SearchResult[]`, less the hits whose similarity is below the threshold (Keyoku's
    /// `min_score`).
    Search(Option<f64>),
    /// `MemoryStats` of one owner.
    Stats,
    /// `GlobalStats` from `store_stats`.
    GlobalStats,
    /// `string[]`: the owners' ids, from `store_stats`.
    Owners,
    /// `{status: "deleted", id}` from a forgotten memory.
    Deleted,
    /// `{status: "deleted_all", entity_id, count}` from `forget_all`, as Keyoku answers.
    DeletedAll,
    /// `UpdateTagsResult` from an updated memory.
    Tags,
    /// `{status: "ok", …}` from the maintenance report.
    Consolidated,
    /// A schedule as a `Memory`.
    Schedule,
    /// Schedules as `Memory[]`.
    Schedules,
    /// `{status, memory_id}` from a schedule (acknowledged, cancelled).
    ScheduleStatus(&'static str),
    /// `HeartbeatResult`.
    Heartbeat,
    /// `HeartbeatContextResult`, its relevant memories held to the threshold as in `Search`.
    HeartbeatContext(Option<f64>),
    /// `{status: "ok", id}` from a recorded message, as Keyoku answers.
    Recorded,
    /// The answer with `status` (a team member `added` or `removed`, as Keyoku answers).
    Status(&'static str),
}

/// An engine time (ms since the epoch) as RFC 3339, as Keyoku writes times.
pub fn rfc3339(ms: i64) -> Option<String> {
    let t = OffsetDateTime::from_unix_timestamp_nanos(ms as i128 * 1_000_000).ok()?;
    t.format(&Rfc3339).ok()
}

/// An RFC 3339 time as engine milliseconds; anything else is passed on for the engine to
/// refuse by name.
fn millis(v: Value) -> Value {
    match v.as_str().map(|s| OffsetDateTime::parse(s, &Rfc3339)) {
        Some(Ok(t)) => json!((t.unix_timestamp_nanos() / 1_000_000) as i64),
        _ => v,
    }
}

const TIMES: [&str; 6] = [
    "created_at",
    "updated_at",
    "last_accessed_at",
    "expires_at",
    "state_changed_at",
    "deleted_at",
];

/// A Mnemo memory as Keyoku's `Memory`: RFC 3339 times, a lowercase state, `tags` (manual
/// and automatic), `agent_id`/`team_id` absent rather than null, and `last_accessed_at` its
/// creation until first accessed.
pub fn memory(mut m: Value) -> Value {
    let Some(o) = m.as_object_mut() else {
        return m;
    };
    if o.get("last_accessed_at").is_some_and(Value::is_null) {
        let created = o.get("created_at").cloned().unwrap_or(Value::Null);
        o.insert("last_accessed_at".into(), created);
    }
    for key in TIMES {
        if let Some(v) = o.get_mut(key) {
            if let Some(t) = v.as_i64().and_then(rfc3339) {
                *v = json!(t);
            }
        }
    }
    if let Some(Value::String(s)) = o.get_mut("state") {
        *s = s.to_lowercase();
    }
    let mut tags: Vec<Value> = Vec::new();
    for key in ["manual_tags", "auto_tags"] {
        for t in o.get(key).and_then(Value::as_array).into_iter().flatten() {
            if !tags.contains(t) {
                tags.push(t.clone());
            }
        }
    }
    o.insert("tags".into(), Value::Array(tags));
    for key in ["agent_id", "team_id"] {
        if o.get(key).is_some_and(Value::is_null) {
            o.remove(key);
        }
    }
    m
}

fn memories(list: Value) -> Value {
    match list {
        Value::Array(items) => Value::Array(items.into_iter().map(memory).collect()),
        other => other,
    }
}

/// A Mnemo schedule as a Keyoku `Memory` (Keyoku's schedules are PLAN memories): its memory
/// from `rows` (the schedule's memory, read by id) with the schedule's own fields beside it —
/// `cron_tag`, `next_due_at`, `missed`, `acknowledged_at`, and its `schedule_status`.
fn schedule(s: Value, rows: &[Value]) -> Value {
    let Value::Object(sched) = s else { return s };
    let row = rows
        .iter()
        .find(|m| m["id"] == sched["id"])
        .cloned()
        .unwrap_or_else(|| json!({}));
    let Value::Object(mut o) = memory(row) else {
        return Value::Object(sched);
    };
    for (k, v) in sched {
        let v = match (k.as_str(), v.as_i64().and_then(rfc3339)) {
            ("next_due_at" | "acknowledged_at", Some(t)) => json!(t),
            _ => v,
        };
        match k.as_str() {
            "status" => {
                o.insert("schedule_status".into(), v);
            }
            "id" | "content" | "created_at" => {
                o.entry(k).or_insert(v);
            }
            _ => {
                o.insert(k, v);
            }
        }
    }
    Value::Object(o)
}

fn schedules(list: Value, rows: &[Value]) -> Value {
    match list {
        Value::Array(items) => Value::Array(items.into_iter().map(|s| schedule(s, rows)).collect()),
        other => other,
    }
}

impl Form {
    /// Whether the answer holds schedules, which Keyoku reads as memories: their rows are
    /// read (`list` by id, not an access) and given to [`reshape`].
    pub fn holds_schedules(self) -> bool {
        matches!(
            self,
            Form::Schedule
                | Form::Schedules
                | Form::ScheduleStatus(_)
                | Form::Heartbeat
                | Form::HeartbeatContext(_)
        )
    }
}

/// The ids of the schedules in an answer of form `form`.
pub fn schedule_ids(form: Form, answer: &Value) -> Vec<String> {
    let list = match form {
        Form::Schedule | Form::ScheduleStatus(_) => vec![answer],
        Form::Schedules => answer
            .as_array()
            .map(|a| a.iter().collect())
            .unwrap_or_default(),
        Form::Heartbeat => answer["scheduled"]
            .as_array()
            .map(|a| a.iter().collect())
            .unwrap_or_default(),
        Form::HeartbeatContext(_) => answer["report"]["scheduled"]
            .as_array()
            .map(|a| a.iter().collect())
            .unwrap_or_default(),
        _ => Vec::new(),
    };
    list.iter()
        .filter_map(|s| s["id"].as_str().map(str::to_string))
        .collect()
}

/// Lowercase keys of a count map (Keyoku's states are lowercase).
fn lowercase_keys(v: &Value) -> Value {
    match v.as_object() {
        Some(o) => Value::Object(
            o.iter()
                .map(|(k, n)| (k.to_lowercase(), n.clone()))
                .collect(),
        ),
        None => json!({}),
    }
}

fn with(mut v: Value, fields: Value) -> Value {
    if let (Some(o), Value::Object(extra)) = (v.as_object_mut(), fields) {
        for (k, x) in extra {
            o.insert(k, x);
        }
    }
    v
}

/// Counts of a write report's outcomes as Keyoku's `RememberResult`.
fn remember(report: Value) -> Value {
    let (mut created, mut updated, mut deleted, mut skipped) = (0, 0, 0, 0);
    for o in report["outcomes"].as_array().into_iter().flatten() {
        match (o["action"].as_str(), o["mode"].as_str()) {
            (Some("created"), _) => created += 1,
            (Some("merged"), _) => updated += 1,
            (Some("conflict"), Some("keep_existing")) | (Some("skipped"), _) => skipped += 1,
            (Some("conflict"), Some("use_new" | "temporal")) => {
                created += 1;
                deleted += 1;
            }
            (Some("conflict"), _) => created += 1,
            _ => {}
        }
    }
    with(
        report,
        json!({
            "memories_created": created,
            "memories_updated": updated,
            "memories_deleted": deleted,
            "skipped": skipped,
        }),
    )
}

/// The ids a write report stored, as Keyoku's `SeedResult`.
fn seed(report: Value) -> Value {
    let ids: Vec<Value> = report["outcomes"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|o| o["id"].as_str().map(|id| json!(id)))
        .collect();
    with(report, json!({ "created": ids.len(), "ids": ids }))
}

/// Search hits as Keyoku's `SearchResult`s. `similarity` is the cosine between the query and
/// the memory (0–1): an absolute measure, where Mnemo's relevance is relative to the best match
/// of the query (the top hit's is always 1). Keyoku's clients threshold it (`min_score`: 0.95
/// to find a duplicate before a migration writes, 0.15 to recall).
fn search(hits: Value, min: Option<f64>) -> Value {
    match hits {
        Value::Array(items) => Value::Array(
            items
                .into_iter()
                .filter_map(|mut h| {
                    let similarity = h["why"]["vector"].as_f64().unwrap_or(0.0).clamp(0.0, 1.0);
                    if min.is_some_and(|m| similarity < m) {
                        return None;
                    }
                    if let Some(o) = h.as_object_mut() {
                        let m = o.remove("memory").unwrap_or(Value::Null);
                        o.insert("memory".into(), memory(m));
                        o.insert("similarity".into(), json!(similarity));
                    }
                    Some(h)
                })
                .collect(),
        ),
        other => other,
    }
}

fn stats(s: Value) -> Value {
    let active = s["by_state"]["ACTIVE"].as_u64().unwrap_or(0);
    let fields = json!({
        "total_memories": s["total"],
        "active_memories": active,
        "by_state": lowercase_keys(&s["by_state"]),
    });
    with(s, fields)
}

/// Keyoku's heartbeat fields of a Mnemo report: memories in Keyoku's shape, conflicts as
/// `{memory, reason}`, schedules as memories, and the urgency tier under Keyoku's names.
fn heartbeat(r: Value, rows: &[Value]) -> Value {
    let entity = r["entity_id"].clone();
    let Value::Object(mut o) = r else { return r };
    for key in ["deadlines", "pending_work", "decaying", "stale_monitors"] {
        if let Some(v) = o.remove(key) {
            o.insert(key.into(), memories(v));
        }
    }
    if let Some(v) = o.remove("nudge") {
        if let Some(content) = v["content"].as_str() {
            o.insert("nudge_context".into(), json!(content));
        }
        o.insert("nudge".into(), memory(v));
    }
    if let Some(v) = o.remove("scheduled") {
        o.insert("scheduled".into(), schedules(v, rows));
    }
    let conflicts: Vec<Value> = o
        .remove("conflicts")
        .and_then(|c| c.as_array().cloned())
        .unwrap_or_default()
        .into_iter()
        .map(|c| {
            json!({
                "memory": { "id": c["existing"], "entity_id": entity, "content": c["existing_content"] },
                "reason": if c["reason"].is_null() { &c["kind"] } else { &c["reason"] },
                "conflict": c,
            })
        })
        .collect();
    o.insert("conflicts".into(), Value::Array(conflicts));
    if let Some(tier) = o.get("urgency_tier").cloned() {
        o.insert("highest_urgency_tier".into(), tier.clone());
        let urgency = match tier.as_str() {
            Some("immediate") => Some("immediate"),
            Some("elevated") => Some("soon"),
            Some(_) => Some("can_wait"),
            None => None,
        };
        if let Some(u) = urgency {
            o.insert("urgency".into(), json!(u));
        }
    }
    if let Some(checked) = o
        .get("checked_at")
        .and_then(Value::as_i64)
        .and_then(rfc3339)
    {
        o.insert("checked_at".into(), json!(checked));
    }
    Value::Object(o)
}

fn heartbeat_context(c: Value, rows: &[Value], min: Option<f64>) -> Value {
    let Value::Object(mut o) = c else { return c };
    // The report's fields at the top level, as Keyoku reads them (Mnemo's own among them).
    let mut out = match heartbeat(o.remove("report").unwrap_or(Value::Null), rows) {
        Value::Object(r) => r,
        _ => Map::new(),
    };
    let hits = search(o.remove("relevant_memories").unwrap_or(json!([])), min);
    out.insert("relevant_memories".into(), hits);
    let messages = o.remove("recent_messages").unwrap_or(json!([]));
    let texts: Vec<Value> = messages
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|m| m["content"].as_str().map(|t| json!(t)))
        .collect();
    out.insert("recent_messages".into(), Value::Array(texts));
    out.insert("messages".into(), messages);
    // When there is nothing to say, Keyoku's engine leaves these out rather than sending null.
    for key in ["highest_urgency_tier", "continuity", "sentiment_trend"] {
        if out.get(key).is_some_and(Value::is_null) {
            out.remove(key);
        }
    }
    Value::Object(out)
}

/// The engine's answer `answer` in form `form`; `rows` are the memories of the schedules it
/// holds (see [`Form::holds_schedules`]).
pub fn reshape(form: Form, answer: Value, rows: &[Value]) -> Value {
    match form {
        Form::Mnemo => answer,
        Form::Memory => memory(answer),
        Form::Memories => memories(answer["memories"].clone()),
        Form::MemoryList => memories(answer),
        Form::Remember => remember(answer),
        Form::Seed => seed(answer),
        Form::Search(min) => search(answer, min),
        Form::Stats => stats(answer),
        Form::GlobalStats => {
            let owners = answer["owners"].as_array().map_or(0, Vec::len);
            let fields = json!({ "entity_count": owners });
            with(stats(answer), fields)
        }
        Form::Owners => Value::Array(
            answer["owners"]
                .as_array()
                .into_iter()
                .flatten()
                .map(|o| o["entity_id"].clone())
                .collect(),
        ),
        Form::Deleted => {
            json!({ "status": "deleted", "id": answer["id"], "memory": memory(answer) })
        }
        Form::DeletedAll => with(
            json!({ "status": "deleted_all", "count": answer["forgotten"] }),
            answer,
        ),
        Form::Tags => {
            let m = memory(answer);
            json!({ "status": "updated", "memory_id": m["id"], "tags": m["manual_tags"], "memory": m })
        }
        Form::Consolidated => with(json!({ "status": "ok" }), answer),
        Form::Schedule => schedule(answer, rows),
        Form::Schedules => schedules(answer, rows),
        Form::ScheduleStatus(status) => json!({
            "status": status,
            "memory_id": answer["id"],
            "schedule": schedule(answer, rows),
        }),
        Form::Heartbeat => heartbeat(answer, rows),
        Form::HeartbeatContext(min) => heartbeat_context(answer, rows, min),
        Form::Recorded => with(json!({ "status": "ok" }), answer),
        Form::Status(status) => with(json!({ "status": status }), answer),
    }
}

/// The body as an object (anything else is passed on for the engine to refuse).
fn object(body: Value) -> Result<Map<String, Value>, Value> {
    match body {
        Value::Object(o) => Ok(o),
        other => Err(other),
    }
}

/// The JSON type a Keyoku option has.
#[derive(Clone, Copy)]
enum Kind {
    Text,
    Flag,
    Number,
}

/// Removes options Mnemo accepts but does not act on (see the module's notes) when they have
/// Keyoku's type; a value of another type stays, for the engine to refuse by name.
fn drop_keys(o: &mut Map<String, Value>, keys: &[(&str, Kind)]) {
    for (k, kind) in keys {
        let fits = o.get(*k).is_some_and(|v| {
            v.is_null()
                || match kind {
                    Kind::Text => v.is_string(),
                    Kind::Flag => v.is_boolean(),
                    Kind::Number => v.as_f64().is_some_and(f64::is_finite),
                }
        });
        if fits {
            o.remove(*k);
        }
    }
}

/// `POST /remember`: Keyoku's `source: "migration"` is Mnemo's `import`.
pub fn remember_args(body: Value) -> Value {
    let mut o = match object(body) {
        Ok(o) => o,
        Err(v) => return v,
    };
    if o.get("source").and_then(Value::as_str) == Some("migration") {
        o.insert("source".into(), json!("import"));
    }
    Value::Object(o)
}

/// `POST /seed`: Keyoku's `{memories: SeedMemoryInput[]}` as Mnemo's `{items}`, with RFC
/// 3339 times as milliseconds; Mnemo's own `{items}` passes unchanged.
pub fn seed_args(body: Value) -> Value {
    let mut o = match object(body) {
        Ok(o) => o,
        Err(v) => return v,
    };
    let Some(list) = o.remove("memories") else {
        return Value::Object(o);
    };
    let items = match list {
        Value::Array(items) => Value::Array(
            items
                .into_iter()
                .map(|item| match item {
                    Value::Object(mut m) => {
                        for key in ["expires_at", "created_at"] {
                            if let Some(v) = m.remove(key) {
                                m.insert(key.into(), millis(v));
                            }
                        }
                        // Keyoku's confidence factors are reasons, not a number: kept as tags.
                        if let Some(Value::Array(f)) = m.remove("confidence_factors") {
                            let tags = m.entry("tags").or_insert_with(|| json!([]));
                            if let Some(t) = tags.as_array_mut() {
                                t.extend(f);
                            }
                        }
                        Value::Object(m)
                    }
                    other => other,
                })
                .collect(),
        ),
        other => other,
    };
    o.insert("items".into(), items);
    Value::Object(o)
}

/// Keyoku's `min_score`, a threshold on similarity, taken out of the body when it is a number
/// from 0 to 1 (anything else stays, for the engine to refuse by name).
fn threshold(o: &mut Map<String, Value>) -> Option<f64> {
    let min = o
        .get("min_score")?
        .as_f64()
        .filter(|m| (0.0..=1.0).contains(m))?;
    o.remove("min_score");
    Some(min)
}

/// `POST /search`: `semantic` mode mapped, and
/// `min_score` (a similarity threshold) answered with the hits' form.
pub fn search_args(body: Value) -> (Value, Form) {
    let mut o = match object(body) {
        Ok(o) => o,
        Err(v) => return (v, Form::Search(None)),
    };
    let min = threshold(&mut o);
    if o.get("mode").and_then(Value::as_str) == Some("semantic") {
        o.insert("mode".into(), json!("historical"));
    }
    // The window's ends and the question's now as the memories' times are written here: RFC
    // 3339 (or milliseconds); a string that is not a time is passed on for the engine to
    // refuse by name.
    for key in ["after", "before", "as_of"] {
        if let Some(v) = o.remove(key) {
            o.insert(key.into(), millis(v));
        }
    }
    (Value::Object(o), Form::Search(min))
}

/// `POST /heartbeat/check` and `/heartbeat/context`: Keyoku's options in Mnemo's words
/// (`virtual_now`, an RFC 3339 time, is `as_of` in milliseconds; one that is not a time is
/// passed on for the engine to refuse by name); the context's `min_score` holds its relevant
/// memories to a similarity, as in search.
pub fn heartbeat_args(body: Value) -> (Value, Option<f64>) {
    let mut o = match object(body) {
        Ok(o) => o,
        Err(v) => return (v, None),
    };
    let min = threshold(&mut o);
    if let Some(t) = o.remove("virtual_now").filter(|v| !v.is_null()) {
        o.entry("as_of").or_insert(millis(t));
    }
    drop_keys(
        &mut o,
        &[
            ("analyze", Kind::Flag),
            ("activity_summary", Kind::Text),
            ("auto_ack_scheduled", Kind::Flag),
            ("decay_threshold", Kind::Number),
            ("importance_floor", Kind::Number),
        ],
    );
    (Value::Object(o), min)
}

/// `POST /teams/{id}/members`: Keyoku's `agent_id` (the agent joining) is Mnemo's
/// `member_id` (an `agent_id` names the agent a call is made for).
pub fn member_args(body: Value) -> Value {
    let mut o = match object(body) {
        Ok(o) => o,
        Err(v) => return v,
    };
    if let Some(agent) = o.remove("agent_id") {
        o.entry("member_id").or_insert(agent);
    }
    Value::Object(o)
}

/// `PUT /schedule/{id}`: Keyoku's `new_content` is Mnemo's `content`.
pub fn schedule_update_args(body: Value) -> Value {
    let mut o = match object(body) {
        Ok(o) => o,
        Err(v) => return v,
    };
    if let Some(c) = o.remove("new_content") {
        o.entry("content").or_insert(c);
    }
    Value::Object(o)
}

/// `POST /heartbeat/record-message`: Keyoku's `message` and `action_id` in the engine's
/// words (`content`, and `action_ref`: the plugin's own act ids are recorded unlinked rather
/// than refused), an agent's message unless said otherwise; its `agent_id` names the agent
/// whose conversation it is.
pub fn message_args(body: Value) -> Value {
    let mut o = match object(body) {
        Ok(o) => o,
        Err(v) => return v,
    };
    for (theirs, ours) in [("message", "content"), ("action_id", "action_ref")] {
        if let Some(v) = o.remove(theirs) {
            o.entry(ours).or_insert(v);
        }
    }
    o.entry("role").or_insert_with(|| json!("agent"));
    Value::Object(o)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_keyoku_message_carries_its_action_id_as_a_reference_to_link_if_known() {
        let args = message_args(
            json!({"entity_id": "ana", "message": "hi", "action_id": "plugin-7", "agent_id": "claw"}),
        );
        assert_eq!(
            args,
            json!({"entity_id": "ana", "content": "hi", "action_ref": "plugin-7", "role": "agent",
                   "agent_id": "claw"})
        );
    }

    #[test]
    fn a_context_with_nothing_to_say_leaves_keyokus_optional_fields_out() {
        let quiet = json!({"report": {"entity_id": "ana", "urgency_tier": null, "continuity": null,
            "sentiment_trend": null}, "relevant_memories": [], "recent_messages": []});
        let out = heartbeat_context(quiet, &[], None);
        for key in ["highest_urgency_tier", "continuity", "sentiment_trend"] {
            assert!(out.get(key).is_none(), "{key}: {out}");
        }
        let trend = json!({"direction": "improving"});
        let said = json!({"report": {"entity_id": "ana", "urgency_tier": "elevated",
            "sentiment_trend": trend}, "relevant_memories": [], "recent_messages": []});
        let out = heartbeat_context(said, &[], None);
        assert_eq!(out["highest_urgency_tier"], "elevated");
        assert_eq!(out["sentiment_trend"]["direction"], "improving");
        let (args, _) = heartbeat_args(json!({"entity_id": "ana", "auto_ack_scheduled": false}));
        assert_eq!(args, json!({"entity_id": "ana"}));
        let (args, _) =
            heartbeat_args(json!({"entity_id": "ana", "virtual_now": "2026-01-01T00:00:00Z"}));
        assert_eq!(
            args,
            json!({"entity_id": "ana", "as_of": 1_767_225_600_000i64})
        );
        let (args, _) = heartbeat_args(json!({"entity_id": "ana", "virtual_now": "soon"}));
        assert_eq!(args, json!({"entity_id": "ana", "as_of": "soon"}));
    }

    #[test]
    fn times_round_trip_and_bad_times_pass_through() {
        assert_eq!(rfc3339(0).as_deref(), Some("1970-01-01T00:00:00Z"));
        assert_eq!(
            rfc3339(1_767_225_600_123).as_deref(),
            Some("2026-01-01T00:00:00.123Z")
        );
        assert_eq!(
            millis(json!("2026-01-01T00:00:00.123Z")),
            json!(1_767_225_600_123i64)
        );
        assert_eq!(millis(json!("next tuesday")), json!("next tuesday"));
        assert_eq!(millis(json!(5)), json!(5));
    }

    #[test]
    fn a_memory_reads_as_keyoku_memory() {
        let m = memory(json!({
            "id": "m1", "state": "ACTIVE", "agent_id": null, "team_id": "t",
            "created_at": 0, "last_accessed_at": null, "expires_at": null,
            "manual_tags": ["a", "b"], "auto_tags": ["b", "c"]
        }));
        assert_eq!(m["state"], "active");
        assert_eq!(m["tags"], json!(["a", "b", "c"]));
        assert_eq!(m["last_accessed_at"], "1970-01-01T00:00:00Z");
        assert!(m["expires_at"].is_null());
        assert!(m.get("agent_id").is_none());
        assert_eq!(m["team_id"], "t");
    }

    #[test]
    fn write_reports_count_as_keyoku_does() {
        let report = json!({"outcomes": [
            {"action": "created", "id": "a"},
            {"action": "merged", "id": "b", "absorbed": "x", "similarity": 0.9},
            {"action": "skipped", "reason": "exact_duplicate", "existing": "a"},
            {"action": "conflict", "id": "c", "existing": "y", "mode": "use_new"},
            {"action": "conflict", "id": null, "existing": "y", "mode": "keep_existing"}
        ]});
        let r = remember(report.clone());
        assert_eq!(
            (
                &r["memories_created"],
                &r["memories_updated"],
                &r["memories_deleted"],
                &r["skipped"]
            ),
            (&json!(2), &json!(1), &json!(1), &json!(2))
        );
        assert_eq!(seed(report)["ids"], json!(["a", "b", "c"]));
    }
}
