//! # mnemo-http
//!
//! Mnemo's HTTP API — Keyoku's routes under `/api/v1`, and every engine call at
//! `/api/v1/call/{method}` — as engine calls, with no I/O: which call a request makes
//! ([`routes`]), the shape its answer takes ([`keyoku`]), and the answer itself ([`respond`]).
//! The native server (`mnemo serve`, on hyper) and the Cloudflare Durable Object (the engine
//! compiled for Workers) both serve the API through this crate, so they answer alike.

pub mod keyoku;
pub mod routes;

use std::future::Future;
use std::pin::pin;
use std::task::{Context, Poll, Waker};

use serde_json::{json, Value};

use keyoku::Form;
pub use routes::{route, EngineCall, Route, Shapes, WatcherRoute, PREFIX};

/// The largest request body served (1 MiB).
pub const MAX_BODY: usize = 1 << 20;

/// What an engine call came to.
#[derive(Debug, Clone, PartialEq)]
pub enum Outcome {
    /// The engine's JSON answer.
    Answer(String),
    /// The engine refused the call (bad input, not found, …).
    Refused { code: String, message: String },
    /// The engine could not run it.
    Failed(String),
}

/// An HTTP answer: status and JSON body.
#[derive(Debug, Clone, PartialEq)]
pub struct Reply {
    pub status: u16,
    pub body: String,
}

impl Reply {
    /// A JSON answer.
    pub fn json(status: u16, body: String) -> Reply {
        Reply { status, body }
    }

    /// An error answer: `{"error": message, "code": code}`.
    pub fn error(status: u16, code: &str, message: impl Into<String>) -> Reply {
        Reply::json(
            status,
            json!({ "error": message.into(), "code": code }).to_string(),
        )
    }

    /// `401` for a request without the right bearer token.
    pub fn unauthorized() -> Reply {
        Reply::json(401, json!({ "error": "unauthorized" }).to_string())
    }

    /// `413` for a body over [`MAX_BODY`].
    pub fn too_large() -> Reply {
        Reply::error(413, "body_too_large", "request body exceeds 1 MiB")
    }

    /// `404` for a path outside [`PREFIX`] or no route.
    pub fn no_route(method: &str, path: &str) -> Reply {
        if path.starts_with(PREFIX) {
            Reply::error(404, "not_found", format!("no route {method} {path}"))
        } else {
            Reply::error(
                404,
                "not_found",
                format!("no route {method} {path}: routes start with {PREFIX}"),
            )
        }
    }

    /// The answer to a call the engine refused or could not run.
    pub fn failure(outcome: Outcome) -> Reply {
        match outcome {
            Outcome::Refused { code, message } => {
                Reply::error(routes::status_of(&code), &code, message)
            }
            Outcome::Failed(message) => Reply::error(500, "internal_error", message),
            Outcome::Answer(_) => {
                Reply::error(500, "internal_error", "an answer taken for a failure")
            }
        }
    }
}

/// Whether requests with this method carry a JSON body.
pub fn has_body(method: &http::Method) -> bool {
    matches!(
        *method,
        http::Method::POST | http::Method::PUT | http::Method::PATCH | http::Method::DELETE
    )
}

/// A request body as the JSON object routes take: `{}` when empty or blank; refused (400,
/// or 413 over [`MAX_BODY`]) when not UTF-8, not JSON, or not an object.
pub fn parse_body(bytes: &[u8]) -> Result<Value, Reply> {
    if bytes.len() > MAX_BODY {
        return Err(Reply::too_large());
    }
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Ok(json!({}));
    }
    let text = std::str::from_utf8(bytes)
        .map_err(|_| Reply::error(400, "invalid_input", "the body is not valid UTF-8"))?;
    let value: Value = serde_json::from_str(text)
        .map_err(|e| Reply::error(400, "invalid_input", format!("malformed JSON body: {e}")))?;
    if !value.is_object() {
        return Err(Reply::error(
            400,
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

/// Runs a route's engine call through `exec(method, args)`: its owner looked up first when the
/// request addressed a memory by id alone, schedules read as their memories, the answer given
/// the route's form.
pub async fn respond<F, Fut>(mut exec: F, mut call: EngineCall) -> Reply
where
    F: FnMut(String, String) -> Fut,
    Fut: Future<Output = Outcome>,
{
    if let Some(id) = call.locate.take() {
        match exec("locate".into(), json!({ "id": id }).to_string()).await {
            Outcome::Answer(text) => {
                let owner = serde_json::from_str::<Value>(&text)
                    .map(|v| v["entity_id"].clone())
                    .unwrap_or(Value::Null);
                if let Some(o) = call.args.as_object_mut() {
                    o.insert("entity_id".into(), owner);
                }
            }
            outcome => return Reply::failure(outcome),
        }
    }
    let outcome = exec(call.method.clone(), call.args.to_string()).await;
    let (text, form) = match (outcome, call.form) {
        (Outcome::Answer(text), Form::Mnemo) => return Reply::json(200, text),
        (Outcome::Answer(text), form) => (text, form),
        (outcome, _) => return Reply::failure(outcome),
    };
    let answer: Value = match serde_json::from_str(&text) {
        Ok(answer) => answer,
        Err(e) => {
            return Reply::error(
                500,
                "internal_error",
                format!("the engine answered unreadable JSON: {e}"),
            )
        }
    };
    // Schedules are given as their memories: read them by id (not an access).
    let mut rows = Vec::new();
    let ids = keyoku::schedule_ids(form, &answer);
    if form.holds_schedules() && !ids.is_empty() {
        let owner = if call.args["entity_id"].is_string() {
            call.args["entity_id"].clone()
        } else {
            answer["entity_id"].clone()
        };
        let read = json!({ "entity_id": owner, "ids": ids, "limit": ids.len() });
        match exec("list".into(), read.to_string()).await {
            Outcome::Answer(page) => {
                rows = serde_json::from_str::<Value>(&page)
                    .ok()
                    .and_then(|p| p["memories"].as_array().cloned())
                    .unwrap_or_default();
            }
            outcome => return Reply::failure(outcome),
        }
    }
    Reply::json(200, keyoku::reshape(form, answer, &rows).to_string())
}

/// [`respond`] for an engine that answers in place (no waiting): the Durable Object's.
pub fn respond_now(mut exec: impl FnMut(&str, &str) -> Outcome, call: EngineCall) -> Reply {
    let future = pin!(respond(
        |method, args| std::future::ready(exec(&method, &args)),
        call
    ));
    match future.poll(&mut Context::from_waker(Waker::noop())) {
        Poll::Ready(reply) => reply,
        // Every step is a ready future, so the first poll finishes.
        Poll::Pending => Reply::error(500, "internal_error", "the engine did not answer in place"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bodies_are_json_objects_or_refused() {
        assert_eq!(parse_body(b"").unwrap(), json!({}));
        assert_eq!(parse_body(b" \n").unwrap(), json!({}));
        assert_eq!(parse_body(br#"{"a":1}"#).unwrap(), json!({"a": 1}));
        for bad in [&b"[1]"[..], b"\"x\"", b"{", b"\xff\xfe", b"null"] {
            assert_eq!(parse_body(bad).unwrap_err().status, 400, "{bad:?}");
        }
        assert_eq!(
            parse_body(&vec![b' '; MAX_BODY + 1]).unwrap_err().status,
            413
        );
    }

    #[test]
    fn a_memory_named_by_id_alone_is_located_then_read() {
        let shapes = Shapes::from_schema(&json!({}));
        let Route::Call(call) = route(
            &shapes,
            http::Method::GET,
            "/api/v1/memories/m1",
            &[],
            json!({}),
        ) else {
            panic!("not a call");
        };
        let mut seen = Vec::new();
        let reply = respond_now(
            |method, args| {
                seen.push((method.to_string(), args.to_string()));
                match method {
                    "locate" => Outcome::Answer(r#"{"entity_id":"ana"}"#.into()),
                    _ => Outcome::Refused {
                        code: "not_found".into(),
                        message: "no memory m1".into(),
                    },
                }
            },
            call,
        );
        assert_eq!(seen[0], ("locate".into(), r#"{"id":"m1"}"#.into()));
        assert_eq!(seen[1].0, "get");
        assert!(seen[1].1.contains(r#""entity_id":"ana""#), "{}", seen[1].1);
        assert_eq!(reply.status, 404);
        assert_eq!(reply.body, r#"{"error":"no memory m1","code":"not_found"}"#);
    }
}
