//! Keyoku's routes under `/api/v1`, as engine calls: which call a request makes and its
//! arguments (the body, the path's ids, query parameters typed by the call's schema), and the
//! HTTP status of the engine's error codes. Pure: no I/O here.

use std::collections::HashMap;

use axum::http::Method;
use serde_json::{json, Map, Value};

/// Where every route lives.
pub const PREFIX: &str = "/api/v1/";

/// What a request asks for.
#[derive(Debug, PartialEq)]
pub enum Route {
    /// An engine call with its arguments.
    Call(String, Value),
    /// The schema of every call.
    Schema,
    /// No such route.
    NotFound,
}

/// HTTP status of an engine error code.
pub fn status_of(code: &str) -> u16 {
    match code {
        "not_found" => 404,
        "embedder_mismatch" | "schema_too_new" => 409,
        "storage_error" | "embedder_error" | "extractor_error" => 500,
        _ => 400,
    }
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

/// Keyoku's record-message body (`message`, `action_id`, an agent's by default) in the
/// engine's words (`content`, `act_id`, `role`); the engine's own words pass unchanged.
fn keyoku_message(body: Value) -> Value {
    let Value::Object(mut o) = body else {
        return body;
    };
    for (theirs, ours) in [("message", "content"), ("action_id", "act_id")] {
        if !o.contains_key(ours) {
            if let Some(v) = o.remove(theirs) {
                o.insert(ours.into(), v);
            }
        }
    }
    o.entry("role").or_insert_with(|| json!("agent"));
    // Keyoku names the agent; one store serves one agent here.
    if o.get("agent_id")
        .is_some_and(|a| a.is_string() || a.is_null())
    {
        o.remove("agent_id");
    }
    Value::Object(o)
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
    let call = |method: &str, args: Value| Route::Call(method.to_string(), args);
    match (method, segments.as_slice()) {
        (Method::POST, ["remember"]) => call("remember", body),
        (Method::POST, ["extract"]) => call("extract", body),
        (Method::GET, ["extract", "instructions"]) => call("llm_instructions", json!({})),
        (Method::POST, ["seed"]) => call("seed", body),
        (Method::POST, ["search"]) => call("search", body),
        (Method::POST, ["consolidate"]) => call("maintain", json!({})),
        (Method::GET, ["stats"]) => call("stats", shapes.args("stats", params)),
        (Method::GET, ["stats", entity]) => call("stats", json!({ "entity_id": entity })),
        (Method::GET, ["memories"]) => call("list", shapes.args("list", params)),
        (Method::POST, ["memories"]) => call("seed", json!({ "items": [body] })),
        (Method::GET, ["memories", id]) => {
            call("get", with(shapes.args("get", params), "id", json!(id)))
        }
        (Method::DELETE, ["memories", id]) => call(
            "forget",
            with(shapes.args("forget", params), "id", json!(id)),
        ),
        (Method::PUT | Method::PATCH, ["memories", id]) => {
            let mut patch = body;
            let entity = patch
                .as_object_mut()
                .and_then(|o| o.remove("entity_id"))
                .unwrap_or(Value::Null);
            call(
                "update",
                json!({ "entity_id": entity, "id": id, "patch": patch }),
            )
        }
        (Method::POST, ["memories", id, action @ ("reinforce" | "demote" | "pin" | "status")]) => {
            let method = if *action == "status" {
                "set_status"
            } else {
                action
            };
            call(method, with(body, "id", json!(id)))
        }
        (Method::GET, ["memories", id, "history"]) => call(
            "status_history",
            with(shapes.args("status_history", params), "id", json!(id)),
        ),
        (Method::GET, ["entities"]) => call("entities", shapes.args("entities", params)),
        (Method::GET, ["conflicts"]) => call("conflicts", shapes.args("conflicts", params)),
        (Method::POST, ["schedule"]) => call("schedule_create", body),
        (Method::GET, ["schedules"]) => call("schedules", shapes.args("schedules", params)),
        (Method::GET, ["scheduled"]) => call("scheduled", shapes.args("scheduled", params)),
        (Method::POST, ["schedule", id, "ack"]) => {
            call("schedule_ack", with(body, "id", json!(id)))
        }
        (Method::PUT | Method::PATCH, ["schedule", id]) => {
            call("schedule_update", with(body, "id", json!(id)))
        }
        (Method::DELETE, ["schedule", id]) => call(
            "schedule_cancel",
            with(shapes.args("schedule_cancel", params), "id", json!(id)),
        ),
        (Method::POST, ["heartbeat", "check"]) => call("heartbeat_check", body),
        (Method::POST, ["heartbeat", "context"]) => call("heartbeat_context", body),
        (Method::POST, ["heartbeat", "record-message" | "message"]) => {
            call("record_message", keyoku_message(body))
        }
        (Method::POST, ["conflicts", id, "resolve"]) => {
            call("resolve_conflict", with(body, "id", json!(id)))
        }
        (Method::GET, ["graph", "relationships"]) => {
            call("relationships", shapes.args("relationships", params))
        }
        (Method::GET, ["graph", "traverse"]) => call("traverse", shapes.args("traverse", params)),
        (Method::GET, ["graph", "path"]) => call("path", shapes.args("path", params)),
        (Method::GET, ["export"]) => call("export", shapes.args("export", params)),
        (Method::POST, ["import"]) => call("import", body),
        // Every declared call, by its method name; and the declarations themselves.
        (Method::POST, ["call", name]) => call(name, body),
        (Method::GET, ["schema"]) => Route::Schema,
        _ => Route::NotFound,
    }
}
