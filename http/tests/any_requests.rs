//! Whatever a client sends reaches the HTTP API's pipeline without a fault: drawn requests
//! (Keyoku's routes and others, every method, drawn query strings and JSON bodies of any
//! shape, and bytes that are not JSON) through `handle_now` to a real engine. Each is answered
//! with JSON, as a success or a refusal of the request (4xx), never a server error or a panic:
//! a route's reading of a body (Keyoku's shapes) takes whatever the body is. (60,000 draws
//! passed once; each run makes 20,000.)

use std::collections::BTreeMap;
use std::sync::Arc;

use mnemo_core::{Engine, Entropy, ManualClock, SeededEntropy, StaticModel};
use mnemo_http::{handle_now, Api, Outcome, Request};
use serde_json::{json, Map, Value};

/// The engine's call schema, as the npm package ships it.
const SCHEMA: &str = include_str!("../../www/src/schema.json");

/// The API's routes (`{}` an id or owner), as `mnemo_http::route` reads them.
const ROUTES: &[(&str, &str)] = &[
    ("POST", "remember"),
    ("POST", "extract"),
    ("GET", "extract/instructions"),
    ("POST", "seed"),
    ("POST", "search"),
    ("POST", "consolidate"),
    ("POST", "reembed"),
    ("GET", "stats"),
    ("GET", "stats/{}"),
    ("GET", "memories"),
    ("GET", "memories/sample"),
    ("POST", "memories"),
    ("DELETE", "memories"),
    ("GET", "memories/{}"),
    ("DELETE", "memories/{}"),
    ("PATCH", "memories/{}"),
    ("PUT", "memories/{}"),
    ("PUT", "memories/{}/tags"),
    ("POST", "memories/{}/reinforce"),
    ("POST", "memories/{}/demote"),
    ("POST", "memories/{}/pin"),
    ("POST", "memories/{}/status"),
    ("POST", "memories/{}/layer"),
    ("GET", "memories/{}/history"),
    ("GET", "entities"),
    ("GET", "graph/entities"),
    ("GET", "graph/relationships"),
    ("GET", "graph/card"),
    ("GET", "graph/path"),
    ("GET", "graph/traverse"),
    ("GET", "graph/bridges"),
    ("GET", "conflicts"),
    ("POST", "conflicts/{}/resolve"),
    ("POST", "heartbeat/check"),
    ("POST", "heartbeat/context"),
    ("POST", "heartbeat/message"),
    ("POST", "schedule"),
    ("POST", "schedule/ack"),
    ("POST", "schedule/{}/ack"),
    ("PATCH", "schedule/{}"),
    ("DELETE", "schedule/{}"),
    ("GET", "schedules"),
    ("GET", "scheduled"),
    ("GET", "export"),
    ("POST", "import"),
    ("POST", "teams"),
    ("GET", "teams/{}"),
    ("DELETE", "teams/{}"),
    ("POST", "teams/{}/members"),
    ("GET", "teams/{}/members"),
];

/// Path segments after `/api/v1/`: the routes' own, ids and owners, and noise.
const SEGMENTS: &[&str] = &[
    "remember",
    "extract",
    "seed",
    "search",
    "consolidate",
    "reembed",
    "stats",
    "memories",
    "sample",
    "tags",
    "reinforce",
    "demote",
    "pin",
    "status",
    "layer",
    "history",
    "entities",
    "relationships",
    "graph",
    "conflicts",
    "resolve",
    "heartbeat",
    "check",
    "context",
    "schedule",
    "schedules",
    "ack",
    "cancel",
    "teams",
    "members",
    "export",
    "import",
    "schema",
    "documents",
    "messages",
    "u",
    "ana",
    "mem_0",
    "mem_64e2e78096edf42b99d410ae",
    "%00",
    "..",
    "%2F",
    "ü",
    "",
];

/// Keys a body may hold: the calls' and Keyoku's names, and others.
const KEYS: &[&str] = &[
    "entity_id",
    "content",
    "query",
    "limit",
    "items",
    "id",
    "agent_id",
    "team_id",
    "tags",
    "type",
    "importance",
    "mode",
    "after",
    "before",
    "as_of",
    "vector",
    "metadata",
    "status",
    "layer",
    "cron",
    "memory_id",
    "member_id",
    "text",
    "max_results",
    "top_k",
    "autonomy",
    "created_at",
    "expires_at",
    "virtual_now",
    "session_id",
    "visibility",
    "colour",
];

/// Draws from the engine's own seeded generator (SplitMix64): the same on every run.
struct Draws(SeededEntropy);

impl Draws {
    fn next(&mut self) -> u64 {
        self.0.next_u64()
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn pick<'a>(&mut self, from: &[&'a str]) -> &'a str {
        from[self.below(from.len())]
    }

    /// A JSON value of any kind, nested at most `depth` deep.
    fn value(&mut self, depth: usize) -> Value {
        match self.below(if depth == 0 { 7 } else { 9 }) {
            0 => Value::Null,
            1 => json!(self.below(2) == 0),
            2 => json!([-1, 0, 1, 10, 1_000_000, i64::MAX][self.below(6)]),
            3 => json!([0.5, -0.0, 1e308, -1e-300, 1.0][self.below(5)]),
            4 => json!(self.pick(SEGMENTS)),
            5 => json!(["x".repeat(20_000), "ü🙂\u{200d}".into(), " ".into()][self.below(3)]),
            6 => json!(self.pick(&["2026-11-30T10:00:00Z", "yesterday", "0 9 * * *", "hot"])),
            7 => Value::Array((0..self.below(4)).map(|_| self.value(depth - 1)).collect()),
            _ => self.object(depth - 1),
        }
    }

    fn object(&mut self, depth: usize) -> Value {
        let mut o = Map::new();
        for _ in 0..self.below(6) {
            let key = self.pick(KEYS).to_string();
            let value = self.value(depth);
            o.insert(key, value);
        }
        if self.below(4) > 0 {
            o.insert("entity_id".into(), json!("u"));
        }
        Value::Object(o)
    }
}

#[test]
fn any_request_is_answered_without_a_fault() {
    let api = Api::from_text(SCHEMA).expect("the shipped schema");
    // The default embedder, its weights handed over as a browser or edge host hands them.
    let weights: &'static [u8] = include_bytes!("../../core/assets/mnemo-static-v1.bin");
    let mut engine = Engine::builder(ManualClock::new(1_700_000_000_000))
        .weights(Arc::new(StaticModel::from_bytes(weights).expect("weights")))
        .open_in_memory()
        .expect("open");
    engine
        .call_json(
            "remember",
            r#"{"entity_id":"u","content":"I am allergic to penicillin."}"#,
        )
        .expect("remember");
    let mut draws = Draws(SeededEntropy::new(5));
    let mut statuses: BTreeMap<u16, usize> = BTreeMap::new();
    let mut calls = 0;
    for _ in 0..20_000 {
        // Mostly a route with an id, owner or noise in its place; else any method and path.
        let (method, path) = if draws.below(5) > 0 {
            let (method, route) = ROUTES[draws.below(ROUTES.len())];
            let id = draws.pick(&["u", "mem_0", "mem_64e2e78096edf42b99d410ae", "%00", ".."]);
            (method, format!("/api/v1/{}", route.replace("{}", id)))
        } else {
            let method = draws.pick(&["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD"]);
            let segments: Vec<&str> = (0..1 + draws.below(3))
                .map(|_| draws.pick(SEGMENTS))
                .collect();
            (method, format!("/api/v1/{}", segments.join("/")))
        };
        let mut query = (0..draws.below(3))
            .map(|_| format!("{}={}", draws.pick(KEYS), draws.pick(SEGMENTS)))
            .collect::<Vec<_>>();
        if draws.below(2) == 0 {
            query.push("entity_id=u".into());
        }
        let query = query.join("&");
        let body = match draws.below(5) {
            0 => Vec::new(),
            1 => b"{not json".to_vec(),
            2 => draws.value(3).to_string().into_bytes(),
            _ => draws.object(3).to_string().into_bytes(),
        };
        let request = Request {
            method,
            path: &path,
            query: &query,
            owner: None,
            body: &body,
        };
        let reply = handle_now(&api, &request, |m, args| {
            calls += 1;
            match engine.call_json(m, args) {
                Ok(answer) => Outcome::Answer(answer),
                Err(e) => Outcome::Refused {
                    code: e.code().to_string(),
                    message: e.to_string(),
                },
            }
        });
        let seen = || format!("{method} {path}?{query} {}", String::from_utf8_lossy(&body));
        *statuses.entry(reply.status).or_insert(0) += 1;
        assert!(
            reply.status < 500,
            "{}: {} {}",
            seen(),
            reply.status,
            reply.body
        );
        if !reply.body.is_empty() {
            let parsed = serde_json::from_str::<Value>(&reply.body);
            assert!(parsed.is_ok(), "{}: not JSON: {}", seen(), reply.body);
        }
    }
    // The draws reached the engine: most made a call, and some hundreds were answered.
    let answered: usize = statuses.range(200..300).map(|(_, n)| n).sum();
    assert!(
        calls > 1_500 && answered > 200,
        "{calls} calls, {statuses:?}"
    );
    // The store still works (the draws may have forgotten everything, as DELETE /memories does).
    engine
        .call_json(
            "remember",
            r#"{"entity_id":"w","content":"My sister Ana lives in Lisbon."}"#,
        )
        .expect("remember");
    let hits = engine
        .call_json(
            "search",
            r#"{"entity_id":"w","query":"where does Ana live?"}"#,
        )
        .expect("search");
    assert!(hits.contains("lives in Lisbon"), "{hits}");
}
