//! `mnemo serve`: the HTTP API (Keyoku's routes under /api/v1) over one store. Each request is
//! read and checked on its own thread (so a client that stalls mid-body holds up nobody), then
//! handed to the engine component, which runs calls one at a time. Every route but health
//! needs the Bearer token, compared in constant time.

use std::collections::HashMap;
use std::io::{Read, Write};
use std::path::Path;
use std::sync::{mpsc, Arc};

use anyhow::{Context, Result};
use serde_json::{json, Map, Value};
use subtle::ConstantTimeEq;
use tiny_http::{Header, Method, Request, Response, Server};

use crate::runtime::Runtime;

/// Largest request body (1 MiB, as Keyoku's server allows).
pub const MAX_BODY: usize = 1 << 20;
/// Random bytes of a generated token (printed as hex).
const TOKEN_BYTES: usize = 16;

/// The API token: `MNEMO_TOKEN`, else the one in `<data>/.env`, else a new one written there
/// (mode 0600).
pub fn token(data: &Path) -> Result<String> {
    if let Ok(t) = std::env::var("MNEMO_TOKEN") {
        if !t.trim().is_empty() {
            return Ok(t.trim().to_string());
        }
    }
    let env = data.join(".env");
    if let Ok(text) = std::fs::read_to_string(&env) {
        if let Some(t) = text
            .lines()
            .find_map(|l| l.trim().strip_prefix("MNEMO_TOKEN="))
        {
            return Ok(t.trim().to_string());
        }
    }
    let mut bytes = [0u8; TOKEN_BYTES];
    getrandom::fill(&mut bytes)
        .map_err(|e| anyhow::anyhow!("no OS randomness for a token: {e}"))?;
    let token: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
    let mut f = {
        use std::os::unix::fs::OpenOptionsExt;
        std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .mode(0o600)
            .open(&env)
            .with_context(|| format!("writing {}", env.display()))?
    };
    writeln!(f, "MNEMO_TOKEN={token}")?;
    Ok(token)
}

/// An HTTP status and a JSON body.
type Answer = (u16, Value);

/// A request read and checked, waiting for the engine.
struct Parsed {
    method: Method,
    path: String,
    /// Query parameters as sent; typed by the call's schema when routed.
    params: Vec<(String, String)>,
    body: Value,
}

/// Serves until the process is stopped.
pub fn serve(mut rt: Runtime, token: &str, bind: &str, port: u16) -> Result<()> {
    let schema = rt.schema()?;
    let shapes = Shapes::from_schema(&schema);
    let server = Server::http((bind, port))
        .map_err(|e| anyhow::anyhow!("cannot listen on {bind}:{port}: {e}"))?;
    eprintln!("mnemo: serving http://{}/api/v1", server.server_addr());
    let (ready, requests) = mpsc::channel::<(Request, Result<Parsed, Answer>)>();
    let token: Arc<str> = token.into();
    std::thread::spawn(move || {
        for mut request in server.incoming_requests() {
            let (ready, token) = (ready.clone(), token.clone());
            std::thread::spawn(move || {
                let parsed = parse(&token, &mut request);
                let _ = ready.send((request, parsed));
            });
        }
    });
    for (request, parsed) in requests {
        let (status, body) = match parsed {
            Ok(parsed) => route(&mut rt, &shapes, &schema, parsed),
            Err(answer) => answer,
        };
        let response = Response::from_string(body.to_string())
            .with_status_code(status)
            .with_header(
                Header::from_bytes("Content-Type", "application/json").expect("static header"),
            );
        let _ = request.respond(response);
    }
    Ok(())
}

fn error(status: u16, code: &str, message: impl Into<String>) -> Answer {
    (status, json!({ "error": message.into(), "code": code }))
}

/// HTTP status of an engine error code.
fn status_of(code: &str) -> u16 {
    match code {
        "not_found" => 404,
        "embedder_mismatch" | "schema_too_new" => 409,
        "storage_error" | "embedder_error" | "extractor_error" => 500,
        _ => 400,
    }
}

fn authorised(request: &Request, token: &str) -> bool {
    request.headers().iter().any(|h| {
        h.field.equiv("Authorization")
            && h.value
                .as_str()
                .strip_prefix("Bearer ")
                .is_some_and(|t| bool::from(t.trim().as_bytes().ct_eq(token.as_bytes())))
    })
}

/// The request body as JSON (`{}` when empty), within [`MAX_BODY`].
fn body(request: &mut Request) -> Result<Value, Answer> {
    if request.body_length().is_some_and(|n| n > MAX_BODY) {
        return Err(error(413, "body_too_large", "request body exceeds 1 MiB"));
    }
    let mut bytes = Vec::new();
    request
        .as_reader()
        .take(MAX_BODY as u64 + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| error(400, "invalid_input", format!("cannot read the body: {e}")))?;
    if bytes.len() > MAX_BODY {
        return Err(error(413, "body_too_large", "request body exceeds 1 MiB"));
    }
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Ok(json!({}));
    }
    let text = std::str::from_utf8(&bytes)
        .map_err(|_| error(400, "invalid_input", "the body is not valid UTF-8"))?;
    serde_json::from_str(text)
        .map_err(|e| error(400, "invalid_input", format!("malformed JSON body: {e}")))
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
struct Shapes(HashMap<String, HashMap<String, Shape>>);

impl Shapes {
    /// Reads the shapes from the engine's call schema.
    fn from_schema(schema: &Value) -> Shapes {
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
    fn args(&self, method: &str, params: &[(String, String)]) -> Value {
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

/// Runs one engine call and shapes its answer.
fn call(rt: &mut Runtime, method: &str, args: Value) -> Answer {
    match rt.call(method, &args.to_string()) {
        Ok(Ok(out)) => (200, serde_json::from_str(&out).unwrap_or(Value::Null)),
        Ok(Err(e)) => error(status_of(&e.code), &e.code, e.message),
        Err(e) => error(500, "internal_error", format!("{e:#}")),
    }
}

fn with(mut args: Value, key: &str, value: Value) -> Value {
    if let Some(o) = args.as_object_mut() {
        o.insert(key.to_string(), value);
    }
    args
}

/// Reads and checks a request: the answer itself when no engine call is needed (health, a
/// bad token, a bad body), else what the engine should run.
fn parse(token: &str, request: &mut Request) -> Result<Parsed, Answer> {
    let url = request.url().to_string();
    let path = url
        .split('?')
        .next()
        .unwrap_or("")
        .trim_end_matches('/')
        .to_string();
    let method = request.method().clone();
    if method == Method::Get && path == "/api/v1/health" {
        return Err((
            200,
            json!({ "status": "ok", "version": env!("CARGO_PKG_VERSION") }),
        ));
    }
    if !authorised(request, token) {
        return Err((401, json!({ "error": "unauthorized" })));
    }
    let body = match method {
        Method::Post | Method::Put | Method::Patch => body(request)?,
        _ => json!({}),
    };
    if !body.is_object() {
        return Err(error(
            400,
            "invalid_input",
            "the body must be a JSON object",
        ));
    }
    Ok(Parsed {
        params: url
            .split_once('?')
            .map(|(_, q)| form_urlencoded::parse(q.as_bytes()).into_owned().collect())
            .unwrap_or_default(),
        method,
        path,
        body,
    })
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

/// Runs a checked request's route on the engine.
fn route(rt: &mut Runtime, shapes: &Shapes, schema: &Value, request: Parsed) -> Answer {
    let Parsed {
        method,
        path,
        params,
        body,
    } = request;
    let segments: Vec<&str> = path.trim_start_matches("/api/v1/").split('/').collect();
    match (&method, segments.as_slice()) {
        (Method::Post, ["remember"]) => call(rt, "remember", body),
        (Method::Post, ["extract"]) => call(rt, "extract", body),
        (Method::Get, ["extract", "instructions"]) => call(rt, "llm_instructions", json!({})),
        (Method::Post, ["seed"]) => call(rt, "seed", body),
        (Method::Post, ["search"]) => call(rt, "search", body),
        (Method::Post, ["consolidate"]) => call(rt, "maintain", json!({})),
        (Method::Get, ["stats"]) => call(rt, "stats", shapes.args("stats", &params)),
        (Method::Get, ["stats", entity]) => call(rt, "stats", json!({ "entity_id": entity })),
        (Method::Get, ["memories"]) => call(rt, "list", shapes.args("list", &params)),
        (Method::Post, ["memories"]) => call(rt, "seed", json!({ "items": [body] })),
        (Method::Get, ["memories", id]) => call(
            rt,
            "get",
            with(shapes.args("get", &params), "id", json!(id)),
        ),
        (Method::Delete, ["memories", id]) => call(
            rt,
            "forget",
            with(shapes.args("forget", &params), "id", json!(id)),
        ),
        (Method::Put | Method::Patch, ["memories", id]) => {
            let mut patch = body;
            let entity = patch
                .as_object_mut()
                .and_then(|o| o.remove("entity_id"))
                .unwrap_or(Value::Null);
            call(
                rt,
                "update",
                json!({ "entity_id": entity, "id": id, "patch": patch }),
            )
        }
        (Method::Post, ["memories", id, action @ ("reinforce" | "demote" | "pin" | "status")]) => {
            let method = if *action == "status" {
                "set_status"
            } else {
                action
            };
            call(rt, method, with(body, "id", json!(id)))
        }
        (Method::Get, ["memories", id, "history"]) => call(
            rt,
            "status_history",
            with(shapes.args("status_history", &params), "id", json!(id)),
        ),
        (Method::Get, ["entities"]) => call(rt, "entities", shapes.args("entities", &params)),
        (Method::Get, ["conflicts"]) => call(rt, "conflicts", shapes.args("conflicts", &params)),
        (Method::Post, ["schedule"]) => call(rt, "schedule_create", body),
        (Method::Get, ["schedules"]) => call(rt, "schedules", shapes.args("schedules", &params)),
        (Method::Get, ["scheduled"]) => call(rt, "scheduled", shapes.args("scheduled", &params)),
        (Method::Post, ["schedule", id, "ack"]) => {
            call(rt, "schedule_ack", with(body, "id", json!(id)))
        }
        (Method::Put | Method::Patch, ["schedule", id]) => {
            call(rt, "schedule_update", with(body, "id", json!(id)))
        }
        (Method::Delete, ["schedule", id]) => call(
            rt,
            "schedule_cancel",
            with(shapes.args("schedule_cancel", &params), "id", json!(id)),
        ),
        (Method::Post, ["heartbeat", "check"]) => call(rt, "heartbeat_check", body),
        (Method::Post, ["heartbeat", "context"]) => call(rt, "heartbeat_context", body),
        (Method::Post, ["heartbeat", "record-message" | "message"]) => {
            call(rt, "record_message", keyoku_message(body))
        }
        (Method::Post, ["conflicts", id, "resolve"]) => {
            call(rt, "resolve_conflict", with(body, "id", json!(id)))
        }
        (Method::Get, ["graph", "relationships"]) => {
            call(rt, "relationships", shapes.args("relationships", &params))
        }
        (Method::Get, ["graph", "traverse"]) => {
            call(rt, "traverse", shapes.args("traverse", &params))
        }
        (Method::Get, ["graph", "path"]) => call(rt, "path", shapes.args("path", &params)),
        (Method::Get, ["export"]) => call(rt, "export", shapes.args("export", &params)),
        (Method::Post, ["import"]) => call(rt, "import", body),
        // Every declared call, by its method name; and the declarations themselves.
        (Method::Post, ["call", method]) => call(rt, method, body),
        (Method::Get, ["schema"]) => (200, schema.clone()),
        _ => error(
            404,
            "not_found",
            format!("no route {} {path}", method.as_str()),
        ),
    }
}
