//! The watcher: heartbeat checks the server runs by itself for watched owners, each at the
//! engine's adaptive tick (`next_tick_ms` of its last check) or at a fixed interval, and the
//! event stream (`GET /api/v1/events`, server-sent events) that pushes what each check
//! decided. Keyoku's watcher routes and shapes: `/watcher/status|history|start|stop|watch|
//! unwatch`.

use std::collections::{BTreeMap, VecDeque};
use std::convert::Infallible;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::response::sse::{Event, KeepAlive, Sse};
use serde_json::{json, Value};
use tokio::sync::broadcast;
use tokio::time::Instant;
use tokio_stream::wrappers::BroadcastStream;
use tokio_stream::{Stream, StreamExt};

use crate::engine::Engine;
use mnemo_http::Outcome;

/// Ticks kept for `/watcher/history`.
const HISTORY: usize = 500;
/// Events a slow event-stream client may fall behind by before it misses some.
const BACKLOG: usize = 256;
/// How often the watcher looks for a due owner.
const POLL: Duration = Duration::from_millis(100);
/// Shortest and longest wait between two checks of one owner (`interval_ms` is held to this
/// range too).
const MIN_INTERVAL_MS: u64 = 100;
const MAX_INTERVAL_MS: u64 = 24 * 3_600_000;

#[derive(Default)]
struct State {
    running: bool,
    /// Watched owners and when each is next checked.
    due: BTreeMap<String, Instant>,
    /// A fixed interval (`interval_ms`), else the engine's adaptive tick.
    interval_ms: Option<u64>,
    tick_count: u64,
    last_tick: Option<String>,
    history: VecDeque<Value>,
}

/// The watcher and its event stream; cheap to clone.
#[derive(Clone)]
pub struct Watcher {
    state: Arc<Mutex<State>>,
    events: broadcast::Sender<String>,
}

fn now_rfc3339() -> Value {
    json!(mnemo_http::keyoku::rfc3339(super::now_ms()))
}

impl Watcher {
    /// A stopped watcher; its loop runs checks on `engine` once started.
    pub fn new(engine: Engine) -> Watcher {
        let (events, _) = broadcast::channel(BACKLOG);
        let w = Watcher {
            state: Arc::default(),
            events,
        };
        tokio::spawn(w.clone().run(engine));
        w
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        // A panic while holding the lock leaves plain data behind: keep using it.
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Clients connected to the event stream.
    pub fn clients(&self) -> usize {
        self.events.receiver_count()
    }

    /// `GET /watcher/status`.
    pub fn status(&self) -> Value {
        let s = self.lock();
        json!({
            "running": s.running,
            "entity_ids": s.due.keys().collect::<Vec<_>>(),
            "interval_ms": s.interval_ms.unwrap_or(0),
            "adaptive": s.interval_ms.is_none(),
            "tick_count": s.tick_count,
            "last_tick": s.last_tick,
        })
    }

    /// `GET /watcher/history?limit=`: the newest ticks first.
    pub fn history(&self, limit: usize) -> Value {
        let s = self.lock();
        let ticks: Vec<&Value> = s.history.iter().rev().take(limit).collect();
        json!({ "ticks": ticks, "total": s.history.len() })
    }

    /// `POST /watcher/start {entity_ids, interval_ms?}`: watches these owners (checked at
    /// once) and starts.
    pub fn start(&self, body: &Value) -> Result<Value, String> {
        let ids = match body.get("entity_ids") {
            None | Some(Value::Null) => Vec::new(),
            Some(Value::Array(a)) => a
                .iter()
                .map(|v| {
                    owner(v).ok_or_else(|| {
                        "invalid entity_ids: each must be an owner id (1 to 256 characters)"
                            .to_string()
                    })
                })
                .collect::<Result<Vec<_>, _>>()?,
            Some(_) => return Err("invalid entity_ids: expected a list of owner ids".into()),
        };
        let interval = match body.get("interval_ms") {
            None | Some(Value::Null) => None,
            Some(v) => match v.as_u64() {
                Some(ms) if (MIN_INTERVAL_MS..=MAX_INTERVAL_MS).contains(&ms) => Some(ms),
                _ => {
                    return Err(format!(
                        "invalid interval_ms: a whole number of ms from {MIN_INTERVAL_MS} to {MAX_INTERVAL_MS}"
                    ))
                }
            },
        };
        let mut s = self.lock();
        let now = Instant::now();
        for id in ids {
            s.due.insert(id, now);
        }
        s.interval_ms = interval;
        s.running = true;
        Ok(json!({ "status": "started" }))
    }

    /// `POST /watcher/stop`.
    pub fn stop(&self) -> Value {
        self.lock().running = false;
        json!({ "status": "stopped" })
    }

    /// `POST /watcher/watch {entity_id}`.
    pub fn watch(&self, body: &Value) -> Result<Value, String> {
        let id = owner(&body["entity_id"])
            .ok_or("invalid entity_id: an owner id (1 to 256 characters)")?;
        self.lock().due.insert(id.clone(), Instant::now());
        Ok(json!({ "status": "watching", "entity_id": id }))
    }

    /// `POST /watcher/unwatch {entity_id}`.
    pub fn unwatch(&self, body: &Value) -> Result<Value, String> {
        let id = owner(&body["entity_id"])
            .ok_or("invalid entity_id: an owner id (1 to 256 characters)")?;
        self.lock().due.remove(&id);
        Ok(json!({ "status": "unwatched", "entity_id": id }))
    }

    /// `GET /events`: every event from now on, as server-sent events.
    pub fn subscribe(&self) -> Sse<impl Stream<Item = Result<Event, Infallible>>> {
        let hello =
            json!({ "event": "connected", "type": "connected", "timestamp": now_rfc3339() })
                .to_string();
        let events = BroadcastStream::new(self.events.subscribe());
        // A client that falls more than BACKLOG events behind misses those (`Lagged`).
        let stream = tokio_stream::once(Ok(hello)).chain(events).filter_map(|e| {
            let text = e.ok()?;
            let name = serde_json::from_str::<Value>(&text)
                .ok()
                .and_then(|v| v["event"].as_str().map(str::to_string))
                .unwrap_or_else(|| "message".into());
            Some(Ok(Event::default().event(name).data(text)))
        });
        Sse::new(stream).keep_alive(KeepAlive::default())
    }

    /// The loop: checks each watched owner when it is due, records the tick, pushes the event.
    async fn run(self, engine: Engine) {
        loop {
            tokio::time::sleep(POLL).await;
            let due: Vec<String> = {
                let s = self.lock();
                if !s.running {
                    continue;
                }
                let now = Instant::now();
                s.due
                    .iter()
                    .filter(|(_, at)| **at <= now)
                    .map(|(id, _)| id.clone())
                    .collect()
            };
            for id in due {
                self.check(&engine, &id).await;
            }
        }
    }

    async fn check(&self, engine: &Engine, id: &str) {
        let args = json!({ "entity_id": id }).to_string();
        let (report, error) = match engine.call("heartbeat_check", args).await {
            Outcome::Answer(text) => (
                serde_json::from_str::<Value>(&text).unwrap_or(Value::Null),
                None,
            ),
            Outcome::Refused { message, .. } => (Value::Null, Some(message)),
            Outcome::Failed(m) => (Value::Null, Some(m)),
        };
        let mut s = self.lock();
        let adaptive = report["next_tick_ms"].as_u64().unwrap_or(MIN_INTERVAL_MS);
        let interval = s
            .interval_ms
            .unwrap_or(adaptive)
            .clamp(MIN_INTERVAL_MS, MAX_INTERVAL_MS);
        // Unwatched while the check ran: stays unwatched.
        if let Some(at) = s.due.get_mut(id) {
            *at = Instant::now() + Duration::from_millis(interval);
        }
        s.tick_count += 1;
        let timestamp = now_rfc3339();
        s.last_tick = timestamp.as_str().map(str::to_string);
        let tick = json!({
            "tick_number": s.tick_count,
            "timestamp": timestamp,
            "entity_id": id,
            "signals_found": report["signals"].as_array().map_or(0, Vec::len),
            "should_act": report["should_act"].as_bool().unwrap_or(false),
            "decision_reason": report["decision_reason"].as_str().or(error.as_deref()).unwrap_or("error"),
            "urgency": report["urgency_tier"],
            "interval_ms": interval,
        });
        if s.history.len() == HISTORY {
            s.history.pop_front();
        }
        s.history.push_back(tick.clone());
        drop(s);
        let event = match error {
            None => json!({
                "event": "heartbeat", "type": "heartbeat", "entity_id": id,
                "timestamp": timestamp, "tick": tick, "data": report,
            }),
            Some(e) => json!({
                "event": "watcher_error", "type": "watcher_error", "entity_id": id,
                "timestamp": timestamp, "tick": tick, "data": { "error": e },
            }),
        };
        // Nobody listening is fine: the tick is in the history.
        let _ = self.events.send(event.to_string());
    }
}

/// An owner id as the watcher takes it (the engine checks the rest when it runs).
fn owner(v: &Value) -> Option<String> {
    v.as_str()
        .filter(|s| !s.trim().is_empty() && s.chars().count() <= 256 && !s.contains('\0'))
        .map(str::to_string)
}
