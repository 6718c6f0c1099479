//! The routes under `/api/v1`, as engine calls: which call a request makes, its arguments
//! (the body, the path's ids, query parameters typed by the call's schema), the shape its
//! answer takes (Keyoku's on Keyoku's routes, see [`keyoku`]). Pure: no I/O here.

use std::collections::HashMap;

use http::Method;
use serde_json::{json, Map, Value};

use crate::keyoku::{self, Form};

/// Where every route lives.
pub const PREFIX: &str = "/api/v1/";

/// What a watcher route asks (the body where it has one).
#[derive(Debug, PartialEq)]
pub enum WatcherRoute {
    /// `GET /watcher/status`.
    Status,
    /// `GET /watcher/history?limit=`: at most this many ticks, the newest first.
    History(usize),
    /// `POST /watcher/start {entity_ids, interval_ms?}`.
    Start(Value),
    /// `POST /watcher/stop`.
    Stop,
    /// `POST /watcher/watch {entity_id}`.
    Watch(Value),
    /// `POST /watcher/unwatch {entity_id}`.
    Unwatch(Value),
    /// `GET /events`: every event from now on, as server-sent events.
    Events,
}

/// Ticks `/watcher/history` lists unless told (`limit`).
const HISTORY_LIMIT: usize = 50;

/// An engine call a request makes.
#[derive(Debug, PartialEq)]
pub struct EngineCall {
    /// The call's name (`search`, `remember`, …).
    pub method: String,
    /// Its arguments, as the engine reads them.
    pub args: Value,
    /// A memory addressed by id alone: its owner is looked up (`locate`) and given as the
    /// call's `entity_id`, unless the request named one.
    pub locate: Option<String>,
    /// The form its answer is given.
    pub form: Form,
}

/// What a request asks for.
#[derive(Debug, PartialEq)]
pub enum Route {
    /// An engine call.
    Call(EngineCall),
    /// The schema of every call.
    Schema,
    /// The watcher's routes and the event stream.
    Watcher(WatcherRoute),
    /// A Keyoku route Mnemo does not serve (yet): answered 501 with why.
    Unsupported(&'static str),
    /// No such route.
    NotFound,
}

/// How a call's query parameters are read, from its declared arguments: numbers, booleans
/// and lists (comma-separated or repeated, under the argument's name or its singular) by the
/// argument's type, everything else as text — so `entity_id=123` stays an id.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Shape {
    Number,
    Boolean,
    List,
    Text,
}

/// The argument shapes of every call, by method and argument.
pub struct Shapes(HashMap<String, HashMap<String, Shape>>);

impl Shapes {
    /// Reads the shapes from the engine's call schema.
    pub fn from_schema(schema: &Value) -> Shapes {
        let defs = &schema["$defs"];
        let resolve = |v: &Value| -> Value {
            match v["$ref"].as_str().and_then(|r| r.strip_prefix("#/$defs/")) {
                Some(name) => defs[name].clone(),
                None => v.clone(),
            }
        };
        let mut out = HashMap::new();
        for call in schema["calls"].as_array().into_iter().flatten() {
            let args = resolve(&call["args"]);
            let mut shapes = HashMap::new();
            for (name, prop) in args["properties"].as_object().into_iter().flatten() {
                let prop = resolve(prop);
                let types: Vec<&str> = match &prop["type"] {
                    Value::String(t) => vec![t.as_str()],
                    Value::Array(ts) => ts.iter().filter_map(Value::as_str).collect(),
                    _ => Vec::new(),
                };
                let shape = if types.contains(&"array") {
                    Shape::List
                } else if types.contains(&"integer") || types.contains(&"number") {
                    Shape::Number
                } else if types.contains(&"boolean") {
                    Shape::Boolean
                } else {
                    Shape::Text
                };
                shapes.insert(name.clone(), shape);
            }
            if let Some(m) = call["method"].as_str() {
                out.insert(m.to_string(), shapes);
            }
        }
        Shapes(out)
    }

    /// Query parameters as the arguments of `method` (a JSON object). A value that does not
    /// read as its type is passed as text, for the engine to refuse by name.
    pub fn args(&self, method: &str, params: &[(String, String)]) -> Value {
        let empty = HashMap::new();
        let shapes = self.0.get(method).unwrap_or(&empty);
        let mut out = Map::new();
        for (k, v) in params {
            let (key, shape) = match shapes.get(k.as_str()) {
                Some(s) => (k.clone(), *s),
                None => match shapes.get(&format!("{k}s")) {
                    Some(Shape::List) => (format!("{k}s"), Shape::List),
                    _ => (k.clone(), Shape::Text),
                },
            };
            let value = match shape {
                Shape::List => {
                    let items = out.entry(key.clone()).or_insert_with(|| json!([]));
                    if let Some(a) = items.as_array_mut() {
                        a.extend(v.split(',').map(|s| json!(s)));
                    }
                    continue;
                }
                Shape::Number => match v.parse::<serde_json::Number>() {
                    Ok(n) => Value::Number(n),
                    Err(_) => json!(v),
                },
                Shape::Boolean if v == "true" || v == "false" => json!(v == "true"),
                _ => json!(v),
            };
            out.insert(key, value);
        }
        Value::Object(out)
    }
}

fn with(mut args: Value, key: &str, value: Value) -> Value {
    if let Some(o) = args.as_object_mut() {
        o.insert(key.to_string(), value);
    }
    args
}

/// A body with the owner the query names (`?entity_id=`), when it names none itself: Keyoku's
/// team requests carry no owner in their bodies.
fn owned(body: Value, params: &[(String, String)]) -> Value {
    match params.iter().find(|(k, _)| k == "entity_id") {
        Some((_, owner)) if body.get("entity_id").is_none() => {
            with(body, "entity_id", json!(owner))
        }
        _ => body,
    }
}

/// The call a request makes: `path` without its query, `params` the query's pairs as sent,
/// `body` the JSON object sent (`{}` for none).
pub fn route(
    shapes: &Shapes,
    method: Method,
    path: &str,
    params: &[(String, String)],
    body: Value,
) -> Route {
    let Some(rest) = path.strip_prefix(PREFIX) else {
        return Route::NotFound;
    };
    let segments: Vec<&str> = rest.trim_end_matches('/').split('/').collect();
    let call = |method: &str, args: Value, form: Form| {
        Route::Call(EngineCall {
            method: method.to_string(),
            args,
            locate: None,
            form,
        })
    };
    // A call on memory `id`, its owner looked up when the request does not name it.
    let on = |method: &str, args: Value, id: &str, form: Form| {
        let named = args.get("entity_id").is_some_and(|e| !e.is_null());
        Route::Call(EngineCall {
            method: method.to_string(),
            args: with(args, "id", json!(id)),
            locate: (!named).then(|| id.to_string()),
            form,
        })
    };
    let query = |method: &str| shapes.args(method, params);
    let owner_given = params.iter().any(|(k, _)| k == "entity_id");
    match (method, segments.as_slice()) {
        (Method::POST, ["remember"]) => {
            call("remember", keyoku::remember_args(body), Form::Remember)
        }
        (Method::POST, ["extract"]) => call("extract", body, Form::Mnemo),
        (Method::GET, ["extract", "instructions"]) => {
            call("llm_instructions", json!({}), Form::Mnemo)
        }
        (Method::POST, ["seed"]) => call("seed", keyoku::seed_args(body), Form::Seed),
        (Method::POST, ["search"]) => {
            let (args, form) = keyoku::search_args(body);
            call("search", args, form)
        }
        (Method::POST, ["consolidate"]) => call("consolidate", json!({}), Form::Consolidated),
        (Method::POST, ["reembed"]) => call("reembed", body, Form::Mnemo),
        (Method::GET, ["stats"]) if owner_given => call("stats", query("stats"), Form::Stats),
        (Method::GET, ["stats"]) => call("store_stats", json!({}), Form::GlobalStats),
        (Method::GET, ["stats", entity]) => {
            call("stats", json!({ "entity_id": entity }), Form::Stats)
        }
        (Method::GET, ["memories"]) => call("list", query("list"), Form::Memories),
        (Method::GET, ["memories", "sample"]) => call("sample", query("sample"), Form::MemoryList),
        (Method::POST, ["memories"]) => call("seed", json!({ "items": [body] }), Form::Seed),
        (Method::DELETE, ["memories"]) => call("forget_all", body, Form::DeletedAll),
        (Method::GET, ["memories", id]) => on("get", query("get"), id, Form::Memory),
        (Method::DELETE, ["memories", id]) => on("forget", query("forget"), id, Form::Deleted),
        (Method::PUT, ["memories", id, "tags"]) => {
            let mut b = body;
            let entity = b.as_object_mut().and_then(|o| o.remove("entity_id"));
            let tags = b
                .as_object_mut()
                .and_then(|o| o.remove("tags"))
                .unwrap_or(Value::Null);
            let mut args = json!({ "patch": { "tags": tags } });
            if let Some(e) = entity {
                args = with(args, "entity_id", e);
            }
            on("update", args, id, Form::Tags)
        }
        (Method::PUT | Method::PATCH, ["memories", id]) => {
            let mut patch = body;
            let entity = patch.as_object_mut().and_then(|o| o.remove("entity_id"));
            let mut args = json!({ "patch": patch });
            if let Some(e) = entity {
                args = with(args, "entity_id", e);
            }
            on("update", args, id, Form::Memory)
        }
        (
            Method::POST,
            ["memories", id, action @ ("reinforce" | "demote" | "pin" | "status" | "layer")],
        ) => {
            let method = match *action {
                "status" => "set_status",
                "layer" => "set_layer",
                other => other,
            };
            on(method, body, id, Form::Memory)
        }
        (Method::GET, ["memories", id, "history"]) => {
            on("status_history", query("status_history"), id, Form::Mnemo)
        }
        // Keyoku's entities are the owners; with an owner, Mnemo's graph entities.
        (Method::GET, ["entities"]) if owner_given => {
            call("entities", query("entities"), Form::Mnemo)
        }
        (Method::GET, ["entities"]) => call("store_stats", json!({}), Form::Owners),
        (Method::GET, ["graph", "entities"]) => call("entities", query("entities"), Form::Mnemo),
        (Method::GET, ["conflicts"]) => call("conflicts", query("conflicts"), Form::Mnemo),
        (Method::POST, ["schedule"]) => call("schedule_create", body, Form::Schedule),
        // Keyoku lists every live schedule here; the ones due now are `/call/scheduled`.
        (Method::GET, ["scheduled"]) => call("schedules", query("schedules"), Form::Schedules),
        (Method::GET, ["schedules"]) => call("schedules", query("schedules"), Form::Mnemo),
        (Method::POST, ["schedule", "ack"]) => {
            let mut b = body;
            let id = b.as_object_mut().and_then(|o| o.remove("memory_id"));
            match id.as_ref().and_then(Value::as_str) {
                Some(id) => on("schedule_ack", b, id, Form::ScheduleStatus("acknowledged")),
                // No id: the engine names what is missing.
                None => call("schedule_ack", b, Form::Mnemo),
            }
        }
        (Method::POST, ["schedule", id, "ack"]) => on(
            "schedule_ack",
            body,
            id,
            Form::ScheduleStatus("acknowledged"),
        ),
        (Method::PUT | Method::PATCH, ["schedule", id]) => on(
            "schedule_update",
            keyoku::schedule_update_args(body),
            id,
            Form::Schedule,
        ),
        (Method::DELETE, ["schedule", id]) => on(
            "schedule_cancel",
            query("schedule_cancel"),
            id,
            Form::ScheduleStatus("cancelled"),
        ),
        (Method::POST, ["heartbeat", "check"]) => call(
            "heartbeat_check",
            keyoku::heartbeat_args(body).0,
            Form::Heartbeat,
        ),
        (Method::POST, ["heartbeat", "context"]) => {
            let (args, min) = keyoku::heartbeat_args(body);
            call("heartbeat_context", args, Form::HeartbeatContext(min))
        }
        (Method::POST, ["heartbeat", "record-message" | "message"]) => {
            call("record_message", keyoku::message_args(body), Form::Recorded)
        }
        (Method::POST, ["conflicts", id, "resolve"]) => {
            call("resolve_conflict", with(body, "id", json!(id)), Form::Mnemo)
        }
        (Method::GET, ["graph", "relationships"]) => {
            call("relationships", query("relationships"), Form::Mnemo)
        }
        (Method::GET, ["graph", "traverse"]) => call("traverse", query("traverse"), Form::Mnemo),
        (Method::GET, ["graph", "path"]) => call("path", query("path"), Form::Mnemo),
        (Method::GET, ["graph", "card"]) => call("card", query("card"), Form::Mnemo),
        (Method::GET, ["graph", "bridges"]) => call("bridges", query("bridges"), Form::Mnemo),
        (Method::GET, ["export"]) => call("export", query("export"), Form::Mnemo),
        (Method::POST, ["import"]) => call("import", body, Form::Mnemo),
        // Keyoku's teams; Mnemo's belong to an owner, named with entity_id (body or query).
        (Method::POST, ["teams"]) => call("team_create", owned(body, params), Form::Mnemo),
        (Method::GET, ["teams", id]) => call(
            "team_get",
            with(query("team_get"), "team_id", json!(id)),
            Form::Mnemo,
        ),
        (Method::DELETE, ["teams", id]) => call(
            "team_delete",
            with(query("team_delete"), "team_id", json!(id)),
            Form::Mnemo,
        ),
        (Method::POST, ["teams", id, "members"]) => call(
            "team_member_add",
            with(
                keyoku::member_args(owned(body, params)),
                "team_id",
                json!(id),
            ),
            Form::Status("added"),
        ),
        (Method::GET, ["teams", id, "members"]) => call(
            "team_members",
            with(query("team_members"), "team_id", json!(id)),
            Form::Mnemo,
        ),
        (Method::DELETE, ["teams", id, "members", agent]) => call(
            "team_member_remove",
            with(
                with(query("team_member_remove"), "team_id", json!(id)),
                "member_id",
                json!(agent),
            ),
            Form::Status("removed"),
        ),
        (Method::GET, ["watcher", "status"]) => Route::Watcher(WatcherRoute::Status),
        (Method::GET, ["watcher", "history"]) => {
            let limit = params
                .iter()
                .find(|(k, _)| k == "limit")
                .and_then(|(_, v)| v.parse().ok())
                .unwrap_or(HISTORY_LIMIT);
            Route::Watcher(WatcherRoute::History(limit))
        }
        (Method::POST, ["watcher", "start"]) => Route::Watcher(WatcherRoute::Start(body)),
        (Method::POST, ["watcher", "stop"]) => Route::Watcher(WatcherRoute::Stop),
        (Method::POST, ["watcher", "watch"]) => Route::Watcher(WatcherRoute::Watch(body)),
        (Method::POST, ["watcher", "unwatch"]) => Route::Watcher(WatcherRoute::Unwatch(body)),
        (Method::GET, ["events"]) => Route::Watcher(WatcherRoute::Events),
        // Every declared call, by its method name (Mnemo's own shapes); and the declarations.
        (Method::POST, ["call", name]) => call(name, body, Form::Mnemo),
        (Method::GET, ["schema"]) => Route::Schema,
        _ => Route::NotFound,
    }
}
