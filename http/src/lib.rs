//! # mnemo-http
//!
//! Mnemo's HTTP API — Keyoku's routes under `/api/v1`, and every engine call at
//! `/api/v1/call/{method}` — from request bytes to response bytes, with no I/O. A server
//! keeps only its transport (connections, timeouts, reading at most [`max_body`], the token's
//! secret) and asks this crate everything else, in this order:
//!
//! 1. [`gate`]: the health answer ([`health`]) and paths outside the API, before the token;
//! 2. the token (the server's secret), refused with [`Reply::unauthorized`];
//! 3. [`check_length`] on the declared length, then the body read;
//! 4. [`owner_of`] where each owner's memories live apart (the Worker sends the request to
//!    that owner's Durable Object);
//! 5. [`handle`] (or [`handle_now`]): the body and query parsed, the route ([`routes`]), its
//!    engine calls run through the server's engine, the answer given its shape ([`keyoku`]).
//!
//! Every error answer takes its status from its code ([`status_of`]). `mnemo serve` (on
//! hyper), the wasm binding's `Mnemo.http` (the Durable Object's engine) and the Worker in
//! front of it all serve the API through this crate, so they answer alike.

#![warn(missing_docs)]

pub mod keyoku;
mod reply;
mod request;
pub mod routes;

use std::future::Future;
use std::pin::pin;
use std::task::{Context, Poll, Waker};

use serde_json::{json, Value};

use keyoku::Form;
pub use reply::{status_of, Reply};
pub use request::{
    check_length, gate, has_body, health, max_body, owner_of, parse_body, parse_query, Gate,
    Request, MAX_BODY, MAX_DOCUMENT_BODY, OWNER_HEADER,
};
pub use routes::{route, EngineCall, Route, Shapes, WatcherRoute, PREFIX};

/// What an engine call came to, as every face that runs one hands it over.
#[derive(Debug, Clone, PartialEq)]
pub enum Outcome {
    /// The engine's JSON answer.
    Answer(String),
    /// The engine refused the call (bad input, not found, …).
    Refused {
        /// The error's code (`invalid_input`, `not_found`, …).
        code: String,
        /// What was wrong, in words a caller can act on.
        message: String,
    },
    /// The engine could not run it (it has stopped, or failed).
    Failed(String),
}

impl Outcome {
    /// The answer to a call the engine refused or could not run.
    fn failure(self) -> Reply {
        match self {
            Outcome::Refused { code, message } => Reply::error(&code, message),
            Outcome::Failed(message) => Reply::error("internal", message),
            Outcome::Answer(_) => Reply::error("internal", "an answer taken for a failure"),
        }
    }
}

/// What the pipeline knows of the engine: its call schema (served at `/schema`) and how each
/// call reads query parameters ([`Shapes`]).
pub struct Api {
    shapes: Shapes,
    schema: String,
}

impl Api {
    /// From the engine's call schema.
    pub fn new(schema: &Value) -> Api {
        Api {
            shapes: Shapes::from_schema(schema),
            schema: schema.to_string(),
        }
    }

    /// From the text of the engine's call schema (`schema.json`), served as given; refused
    /// with the reason when it is not one.
    pub fn from_text(text: &str) -> Result<Api, String> {
        let schema: Value =
            serde_json::from_str(text).map_err(|e| format!("invalid schema: {e}"))?;
        if !schema["calls"].is_array() {
            return Err(
                "invalid schema: expected the engine's call schema (schema.json), with calls"
                    .into(),
            );
        }
        Ok(Api {
            shapes: Shapes::from_schema(&schema),
            schema: text.to_string(),
        })
    }
}

/// What [`handle`] came to.
#[derive(Debug, PartialEq)]
pub enum Handled {
    /// The answer.
    Reply(Reply),
    /// A watcher route, or the event stream: for a server that runs the watcher (`mnemo
    /// serve`; [`handle_now`] answers them 501).
    Watcher(WatcherRoute),
}

/// Answers a request of the API (one [`gate`] let through, its token checked): its body and
/// query read, its route's engine calls run through `exec(method, args)`.
pub async fn handle<F, Fut>(api: &Api, request: &Request<'_>, exec: F) -> Handled
where
    F: FnMut(String, String) -> Fut,
    Fut: Future<Output = Outcome>,
{
    let Ok(method) = http::Method::from_bytes(request.method.as_bytes()) else {
        let why = format!("invalid method {:?}", request.method);
        return Handled::Reply(Reply::error("invalid_input", why));
    };
    let path = request.path;
    if !path.starts_with(PREFIX) {
        return Handled::Reply(Reply::no_route(request.method, path));
    }
    let body = if has_body(request.method) {
        match parse_body(path, request.body) {
            Ok(body) => body,
            Err(refused) => return Handled::Reply(refused),
        }
    } else {
        json!({})
    };
    let params = parse_query(request.query);
    Handled::Reply(match route(&api.shapes, method, path, &params, body) {
        Route::Call(call) => respond(exec, call).await,
        Route::Schema => Reply::json(200, api.schema.clone()),
        Route::Watcher(watcher) => return Handled::Watcher(watcher),
        Route::Unsupported(why) => Reply::error("not_implemented", why),
        Route::NotFound => Reply::no_route(request.method, path),
    })
}

/// [`handle`] for an engine that answers in place (no waiting) and runs no watcher: the
/// Durable Object's.
pub fn handle_now(
    api: &Api,
    request: &Request<'_>,
    mut exec: impl FnMut(&str, &str) -> Outcome,
) -> Reply {
    let future = pin!(handle(api, request, |method, args| {
        std::future::ready(exec(&method, &args))
    }));
    match future.poll(&mut Context::from_waker(Waker::noop())) {
        Poll::Ready(Handled::Reply(reply)) => reply,
        Poll::Ready(Handled::Watcher(_)) => Reply::error(
            "not_implemented",
            "the watcher and its event stream run in the native server (mnemo serve); \
             here, poll POST /api/v1/heartbeat/check",
        ),
        // Every step is a ready future, so the first poll finishes.
        Poll::Pending => Reply::error("internal", "the engine did not answer in place"),
    }
}

/// Runs a route's engine call through `exec(method, args)`: its owner looked up first when the
/// request addressed a memory by id alone, schedules read as their memories, the answer given
/// the route's form.
async fn respond<F, Fut>(mut exec: F, mut call: EngineCall) -> Reply
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
            outcome => return outcome.failure(),
        }
    }
    let outcome = exec(call.method.clone(), call.args.to_string()).await;
    let (text, form) = match (outcome, call.form) {
        (Outcome::Answer(text), Form::Mnemo) => return Reply::json(200, text),
        (Outcome::Answer(text), form) => (text, form),
        (outcome, _) => return outcome.failure(),
    };
    let answer: Value = match serde_json::from_str(&text) {
        Ok(answer) => answer,
        Err(e) => {
            return Reply::error(
                "internal",
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
            outcome => return outcome.failure(),
        }
    }
    Reply::json(200, keyoku::reshape(form, answer, &rows).to_string())
}
