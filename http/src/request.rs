//! What the pipeline reads of a request before any engine call: whether it needs the token
//! ([`gate`]), whether its body may be read ([`check_length`]), its body and query, and which
//! owner it concerns ([`owner_of`], for a server that keeps each owner apart).

use mnemo_core::field::Id;
use serde_json::{json, Value};

use crate::keyoku;
use crate::reply::Reply;
use crate::routes::PREFIX;

/// The largest request body served (1 MiB, as Keyoku's server allows), but for a document's
/// or an export's.
pub const MAX_BODY: usize = 1 << 20;

/// The largest body of a request that carries a document, source files or an export (`POST
/// /api/v1/call/ingest`, `POST /api/v1/call/ingest_code`, `POST /api/v1/import`): 48 MiB,
/// room for a document at its longest (10,000,000 characters), or the 24 MiB of source text
/// one `ingest_code` reads, written as JSON.
pub const MAX_DOCUMENT_BODY: usize = 48 << 20;

/// The largest body served on `path`: [`MAX_DOCUMENT_BODY`] for the routes that take a
/// document, source files or an export, else [`MAX_BODY`].
pub fn max_body(path: &str) -> usize {
    match path.strip_prefix(PREFIX).map(|p| p.trim_end_matches('/')) {
        Some("call/ingest" | "call/ingest_code" | "import") => MAX_DOCUMENT_BODY,
        _ => MAX_BODY,
    }
}

/// The header that names the owner a request is for, where its path, query and body do not
/// (read by [`owner_of`]).
pub const OWNER_HEADER: &str = "x-mnemo-owner";

/// The path of the health answer, the one route served without the token.
const HEALTH: &str = "/api/v1/health";

/// A request as a server hands it over.
#[derive(Debug, Clone, Copy, Default)]
pub struct Request<'a> {
    /// The method as sent (`GET`, `POST`, …).
    pub method: &'a str,
    /// The path as sent (percent-encoded), without the query.
    pub path: &'a str,
    /// The query string without its `?` (empty for none).
    pub query: &'a str,
    /// The [`OWNER_HEADER`] header, where the server reads it.
    pub owner: Option<&'a str>,
    /// The body's bytes (empty for none, and for a method that carries none).
    pub body: &'a [u8],
}

/// What a request is, before its token and body are read.
#[derive(Debug, PartialEq)]
pub enum Gate {
    /// `GET /api/v1/health`: answered by [`health`], without the token or the engine.
    Health,
    /// Answered now, without the token: no such path, or a method the path does not take.
    Answer(Reply),
    /// A route of the API: the token, then the body (see [`check_length`] and [`has_body`]),
    /// then the answer ([`crate::handle`]).
    Api,
}

/// The first look at a request: see [`Gate`].
pub fn gate(method: &str, path: &str) -> Gate {
    if path == HEALTH {
        return match method {
            "GET" | "HEAD" => Gate::Health,
            _ => Gate::Answer(Reply::wrong_method(method, path, "GET")),
        };
    }
    if !path.starts_with(PREFIX) {
        return Gate::Answer(Reply::no_route(method, path));
    }
    Gate::Api
}

/// The health answer: `{status: "ok", version, timestamp, sse_clients}`, `now_ms` the
/// server's clock (ms since the epoch).
pub fn health(version: &str, now_ms: i64, sse_clients: usize) -> Reply {
    Reply::json(
        200,
        json!({
            "status": "ok",
            "version": version,
            "timestamp": keyoku::rfc3339(now_ms),
            "sse_clients": sse_clients,
        })
        .to_string(),
    )
}

/// Refuses (413) a body for `path` whose declared length (the `content-length` header) is over
/// its [`max_body`], before it is read; a server still reads at most that many bytes.
pub fn check_length(path: &str, content_length: Option<&str>) -> Result<(), Reply> {
    let declared = content_length.and_then(|v| v.trim().parse::<u64>().ok());
    match declared {
        Some(n) if n > max_body(path) as u64 => Err(Reply::too_large(max_body(path))),
        _ => Ok(()),
    }
}

/// Whether requests with this method carry a JSON body (other methods' bodies are not read).
pub fn has_body(method: &str) -> bool {
    matches!(method, "POST" | "PUT" | "PATCH" | "DELETE")
}

/// A request body for `path` as the JSON object routes take: `{}` when empty or blank;
/// refused (400, or 413 over its [`max_body`]) when not UTF-8, not JSON, or not an object.
pub fn parse_body(path: &str, bytes: &[u8]) -> Result<Value, Reply> {
    if bytes.len() > max_body(path) {
        return Err(Reply::too_large(max_body(path)));
    }
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Ok(json!({}));
    }
    let text = std::str::from_utf8(bytes)
        .map_err(|_| Reply::error("invalid_input", "the body is not valid UTF-8"))?;
    let value: Value = serde_json::from_str(text)
        .map_err(|e| Reply::error("invalid_input", format!("malformed JSON body: {e}")))?;
    if !value.is_object() {
        return Err(Reply::error(
            "invalid_input",
            "the body must be a JSON object",
        ));
    }
    Ok(value)
}

/// A query string's pairs, percent-decoded.
pub fn parse_query(query: &str) -> Vec<(String, String)> {
    form_urlencoded::parse(query.as_bytes())
        .into_owned()
        .collect()
}

/// The one owner a request concerns, checked as every call checks `entity_id`: a server that
/// keeps each owner's memories apart (the Worker, one Durable Object per owner) sends the
/// request to that owner's store. Every owner the request names counts: the
/// [`OWNER_HEADER`] header, the query's `entity_id`s, the path of `/stats/{owner}`, and the
/// body's `entity_id`s (its own, its items', and the records of an import's JSON lines).
/// None, or more than one, is refused (`owner_required`).
///
/// `store` names the store when the server is told it (a test hook: a conformance
/// scenario's several owners in one store): then the first owner named is the one checked,
/// and the store's name stands for the owner when none is named.
pub fn owner_of(request: &Request, store: Option<&str>) -> Result<String, Reply> {
    if request.body.len() > max_body(request.path) {
        return Err(Reply::too_large(max_body(request.path)));
    }
    let mut owners = owners_named(request)?;
    if let Some(store) = store {
        if owners.is_empty() {
            owners.push(json!(store));
        }
        owners.truncate(1);
    }
    match owners.as_slice() {
        [] => Err(Reply::error(
            "owner_required",
            format!(
                "each owner's memories live in their own Durable Object: name the owner with entity_id (in the body or the query) or the {OWNER_HEADER} header"
            ),
        )),
        // Read as the engine reads a call's `entity_id`: the same refusal, word for word.
        [owner] => match mnemo_core::api::from_value::<Id>("args.entity_id", owner) {
            Ok(owner) => Ok(owner.into()),
            Err(e) => Err(Reply::error(e.code(), e.to_string())),
        },
        many => Err(Reply::error(
            "owner_required",
            format!(
                "one owner per request here; this one names {}: {}",
                many.len(),
                Value::from(many[..many.len().min(5)].to_vec())
            ),
        )),
    }
}

/// Every `entity_id` a request names, each once, in the order [`owner_of`] lists them. A
/// body that is not JSON is refused only when nothing else names an owner (else the route
/// refuses it, with the reason).
fn owners_named(request: &Request) -> Result<Vec<Value>, Reply> {
    let mut owners = Owners::default();
    if let Some(owner) = request.owner {
        owners.add(json!(owner));
    }
    for (key, value) in parse_query(request.query) {
        if key == "entity_id" {
            owners.add(json!(value));
        }
    }
    if let Some(owner) = stats_owner(request.path) {
        owners.add(json!(owner));
    }
    // A blank body is none (as the routes take it).
    if !request.body.iter().all(u8::is_ascii_whitespace) {
        match serde_json::from_slice::<Value>(request.body) {
            Ok(body) => owners.visit(&body, 0),
            Err(_) if !owners.0.is_empty() => {}
            // The routes' own refusal of it (not UTF-8, or malformed, with the reason).
            Err(e) => {
                return Err(parse_body(request.path, request.body)
                    .err()
                    .unwrap_or_else(|| {
                        Reply::error("invalid_input", format!("malformed JSON body: {e}"))
                    }))
            }
        }
    }
    Ok(owners.0)
}

/// The owner in the path of `/stats/{owner}`, percent-decoded (as sent when it is not
/// UTF-8).
fn stats_owner(path: &str) -> Option<String> {
    let rest = path.strip_prefix(PREFIX)?.strip_prefix("stats/")?;
    let segment = rest.strip_suffix('/').unwrap_or(rest);
    if segment.is_empty() || segment.contains('/') {
        return None;
    }
    let decoded = percent_encoding::percent_decode_str(segment).decode_utf8();
    Some(decoded.map_or_else(|_| segment.to_string(), |s| s.into_owned()))
}

/// The owners found so far: each text, number or boolean once; each other value counts.
#[derive(Default)]
struct Owners(Vec<Value>);

impl Owners {
    fn add(&mut self, owner: Value) {
        let scalar = owner.is_string() || owner.is_number() || owner.is_boolean();
        if !(scalar && self.0.contains(&owner)) {
            self.0.push(owner);
        }
    }

    /// The `entity_id`s in `value`, down to items of items (`depth` 2), and in the records of
    /// a `jsonl` text (an import's). A malformed line is left for the import to name.
    fn visit(&mut self, value: &Value, depth: usize) {
        if depth > 2 {
            return;
        }
        match value {
            Value::Array(items) => items.iter().for_each(|v| self.visit(v, depth + 1)),
            Value::Object(fields) => {
                if let Some(owner) = fields.get("entity_id").filter(|v| !v.is_null()) {
                    self.add(owner.clone());
                }
                for (key, inner) in fields {
                    match (key.as_str(), inner) {
                        ("entity_id", _) => {}
                        ("jsonl", Value::String(lines)) => {
                            for line in lines.split('\n') {
                                if let Ok(record) = serde_json::from_str::<Value>(line) {
                                    self.visit(&record, depth + 1);
                                }
                            }
                        }
                        _ => self.visit(inner, depth + 1),
                    }
                }
            }
            _ => {}
        }
    }
}
