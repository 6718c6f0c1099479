//! Drives a real `mnemo serve` on loopback: every route, the token, the limits, malformed and
//! wrongly typed bodies, and that a refused request changed nothing.

mod common;

use std::io::{Read, Write};
use std::net::TcpStream;

use common::{cli, Server};
use serde_json::{json, Value};

#[test]
fn every_route_answers_with_the_engines_json() {
    let s = Server::start("routes", None);
    assert_eq!(s.token.len(), 32, "a 16-byte hex token");
    let mode = std::fs::metadata(s.data.join(".env")).unwrap();
    assert_eq!(
        std::os::unix::fs::PermissionsExt::mode(&mode.permissions()) & 0o777,
        0o600
    );
    assert_eq!(s.raw("GET", "/api/v1/health", None, b"").0, 200);

    let (st, r) = s.send("POST", "/api/v1/seed", json!({"items": [{"entity_id": "ana", "content": "Ana drinks green tea every morning", "type": "PREFERENCE"}]}));
    assert_eq!(st, 200, "{r}");
    let id = r["outcomes"][0]["id"].as_str().unwrap().to_string();
    let (st, r) = s.send("POST", "/api/v1/remember", json!({"entity_id": "ana", "content": "Her sister Lena lives in Lisbon", "session_id": "s1"}));
    assert_eq!(
        (st, r["outcomes"][0]["action"].as_str()),
        (200, Some("created"))
    );
    let (st, r) = s.send(
        "POST",
        "/api/v1/remember",
        json!({"entity_id": "ana", "content": "lol ok"}),
    );
    assert_eq!(
        (st, r["outcomes"][0]["reason"].as_str()),
        (200, Some("not_significant"))
    );
    let before = s.total();
    let (st, r) = s.send(
        "POST",
        "/api/v1/extract",
        json!({"content": "My brother Tiago works at Shopify. I need to call him tomorrow."}),
    );
    assert_eq!(st, 200, "{r}");
    assert_eq!(
        (r[0]["type"].as_str(), r[1]["type"].as_str()),
        (Some("RELATIONSHIP"), Some("PLAN"))
    );
    assert_eq!(
        r[0]["relationships"][0],
        json!({"from": "user", "relation": "sibling_of", "to": "Tiago", "confidence": 0.9})
    );
    assert!(r[1]["expires_at"].is_i64());
    assert_eq!(s.total(), before, "extract stores nothing");
    let (st, r) = s.send("POST", "/api/v1/extract", json!({"content": 5}));
    assert_eq!((st, r["code"].as_str()), (400, Some("invalid_input")));
    let (st, r) = s.send("GET", "/api/v1/extract/instructions", Value::Null);
    assert!(
        st == 200 && r.as_str().is_some_and(|t| t.contains("\"memories\"")),
        "{r}"
    );

    let (st, r) = s.send(
        "POST",
        "/api/v1/memories",
        json!({"entity_id": "ana", "content": "Ana is learning the cello", "type": "ACTIVITY"}),
    );
    assert_eq!(
        (st, r["outcomes"][0]["action"].as_str()),
        (200, Some("created"))
    );
    for mode in [
        "balanced",
        "recent",
        "important",
        "historical",
        "comprehensive",
    ] {
        let (st, hits) = s.send(
            "POST",
            "/api/v1/search",
            json!({"entity_id": "ana", "query": "what does Ana drink?", "mode": mode}),
        );
        assert_eq!(st, 200);
        assert_eq!(hits[0]["memory"]["id"], id.as_str());
        assert_eq!(hits[0]["why"]["mode"], mode);
    }
    // A time window over HTTP, its ends RFC 3339 as the memories' times are here, or ms: the
    // drink was said at T0, so a window ending then is empty and one holding it finds it; one
    // that holds no time is refused by name.
    let said = hits_of(&s, "what does Ana drink?")[0]["memory"]["created_at"].clone();
    assert!(said.is_string(), "{said}");
    let window = |after: Value, before: Value| {
        s.send(
            "POST",
            "/api/v1/search",
            json!({"entity_id": "ana", "query": "what does Ana drink?", "after": after, "before": before}),
        )
    };
    let (st, empty) = window(Value::Null, said.clone());
    assert_eq!(
        (st, empty.as_array().map(Vec::len)),
        (200, Some(0)),
        "{empty}"
    );
    let (st, inside) = window(said.clone(), json!("9999-01-01T00:00:00Z"));
    assert_eq!(st, 200);
    assert_eq!(inside[0]["memory"]["id"], id.as_str(), "{inside}");
    let (st, err) = window(said.clone(), said.clone());
    assert_eq!(st, 400, "{err}");
    assert!(err.to_string().contains("before"), "{err}");
    // A question naming a time, read as of an RFC 3339 time: the drink said then is inside.
    let (st, asked) = s.send(
        "POST",
        "/api/v1/search",
        json!({"entity_id": "ana", "query": "what did Ana drink today?", "as_of": said}),
    );
    assert_eq!(st, 200, "{asked}");
    assert_eq!(asked[0]["why"]["period"]["inside"], true, "{asked}");
    let (st, err) = window(json!("last week"), Value::Null);
    assert_eq!(st, 400, "{err}");
    assert!(err.to_string().contains("after"), "{err}");
    let (_, page) = s.send(
        "GET",
        "/api/v1/memories?entity_id=ana&limit=2&state=ACTIVE",
        Value::Null,
    );
    // Keyoku's list: an array of memories, RFC 3339 times and lowercase states.
    let listed = page.as_array().unwrap();
    assert_eq!(listed.len(), 2, "{page}");
    assert!(listed
        .iter()
        .all(|m| m["state"] == "active" && m["created_at"].is_string()));
    assert_eq!(
        (
            s.send(
                "POST",
                "/api/v1/call/list",
                json!({"entity_id": "ana", "limit": 2})
            )
            .1["total"]
                .as_u64(),
            2
        ),
        (Some(3), 2)
    );
    let path = format!("/api/v1/memories/{id}");
    assert_eq!(
        s.send("GET", &format!("{path}?entity_id=ana"), Value::Null)
            .1["content"],
        "Ana drinks green tea every morning"
    );
    assert_eq!(
        s.send(
            "PATCH",
            &path,
            json!({"entity_id": "ana", "importance": 0.9})
        )
        .1["importance"],
        0.9
    );
    assert_eq!(
        s.send(
            "POST",
            &format!("{path}/reinforce"),
            json!({"entity_id": "ana"})
        )
        .1["feedback"],
        3
    );
    assert_eq!(
        s.send(
            "POST",
            &format!("{path}/demote"),
            json!({"entity_id": "ana"})
        )
        .1["feedback"],
        2
    );
    assert_eq!(
        s.send(
            "POST",
            &format!("{path}/pin"),
            json!({"entity_id": "ana", "pinned": true})
        )
        .1["pinned"],
        true
    );
    let (st, _) = s.send(
        "POST",
        &format!("{path}/status"),
        json!({"entity_id": "ana", "status": "challenged", "reason": "said coffee"}),
    );
    assert_eq!(st, 200);
    let (st, moved) = s.send(
        "POST",
        &format!("{path}/layer"),
        json!({"entity_id": "ana", "layer": "procedural", "reason": "every morning, for years"}),
    );
    assert_eq!((st, &moved["layer"]), (200, &json!("procedural")));
    assert_eq!(
        s.send("GET", &format!("{path}/history?entity_id=ana"), Value::Null)
            .1[1]["layer"]["new"],
        "procedural"
    );
    assert_eq!(
        s.send("GET", &format!("{path}/history?entity_id=ana"), Value::Null)
            .1[0]["new"],
        "challenged"
    );
    assert_eq!(
        s.send("GET", "/api/v1/stats/ana", Value::Null).1["total"],
        3
    );
    let consolidated = s.send("POST", "/api/v1/consolidate", Value::Null).1;
    assert!(consolidated["examined"].is_number(), "{consolidated}");
    assert!(
        consolidated["consolidation"]["pruning"]["archived"].is_number(),
        "{consolidated}"
    );
    let (st, jsonl) = s.send("GET", "/api/v1/export?entity_id=ana", Value::Null);
    assert_eq!((st, jsonl.as_str().unwrap().lines().count()), (200, 3));
    let (st, r) = s.send("POST", "/api/v1/import", json!({"jsonl": jsonl}));
    assert_eq!((st, r["already_present"].as_u64()), (200, Some(3)));
    let (st, gone) = s.send("DELETE", &format!("{path}?entity_id=ana"), Value::Null);
    assert_eq!(
        (
            st,
            gone["status"].as_str(),
            gone["memory"]["state"].as_str()
        ),
        (200, Some("deleted"), Some("deleted"))
    );
    assert_eq!(
        s.send("GET", &format!("{path}?entity_id=ben"), Value::Null)
            .0,
        404
    );
    assert_eq!(s.send("GET", "/api/v1/nothing-here", Value::Null).0, 404);
}

/// The hits of a search of Ana's memories for `query`.
fn hits_of(s: &Server, query: &str) -> Vec<Value> {
    let (st, hits) = s.send(
        "POST",
        "/api/v1/search",
        json!({"entity_id": "ana", "query": query}),
    );
    assert_eq!(st, 200, "{hits}");
    hits.as_array().cloned().unwrap_or_default()
}

#[test]
fn without_the_token_nothing_but_health_answers() {
    let s = Server::start("auth", Some("s3cret-token"));
    s.send(
        "POST",
        "/api/v1/seed",
        json!({"items": [{"entity_id": "ana", "content": "Ana drinks green tea"}]}),
    );
    let routes = [
        ("POST", "/api/v1/search"),
        ("POST", "/api/v1/seed"),
        ("POST", "/api/v1/remember"),
        ("POST", "/api/v1/extract"),
        ("GET", "/api/v1/extract/instructions"),
        ("GET", "/api/v1/entities?entity_id=ana"),
        ("GET", "/api/v1/conflicts?entity_id=ana"),
        ("POST", "/api/v1/conflicts/cfl_1/resolve"),
        ("GET", "/api/v1/graph/relationships?entity_id=ana"),
        ("GET", "/api/v1/graph/traverse?entity_id=ana&from=user"),
        ("GET", "/api/v1/graph/path?entity_id=ana&from=user&to=x"),
        ("GET", "/api/v1/graph/card?entity_id=ana&name=x"),
        ("GET", "/api/v1/graph/bridges?entity_id=ana"),
        ("GET", "/api/v1/memories?entity_id=ana"),
        ("GET", "/api/v1/stats?entity_id=ana"),
        ("POST", "/api/v1/consolidate"),
        ("GET", "/api/v1/export?entity_id=ana"),
        ("DELETE", "/api/v1/memories/x?entity_id=ana"),
    ];
    for (method, path) in routes {
        for token in [None, Some("wrong"), Some("s3cret-tokenX"), Some("")] {
            let (st, body) = s.raw(method, path, token, b"{}");
            assert_eq!(
                (st, body.clone()),
                (401, json!({"error": "unauthorized"})),
                "{method} {path} {token:?}"
            );
        }
    }
    assert_eq!(s.total(), 1);
    assert!(
        !s.data.join(".env").exists(),
        "MNEMO_TOKEN was given: no token file"
    );
}

#[test]
fn limits_and_bad_bodies_are_refused_and_change_nothing() {
    let s = Server::start("limits", None);
    s.send(
        "POST",
        "/api/v1/seed",
        json!({"items": [{"entity_id": "ana", "content": "Ana drinks green tea"}]}),
    );
    let big = vec![b' '; (1 << 20) + 1];
    let (st, body) = s.raw("POST", "/api/v1/seed", Some(&s.token), &big);
    assert_eq!((st, body["code"].as_str()), (413, Some("body_too_large")));
    assert!(
        body["error"].as_str().unwrap().contains("exceeds 1 MiB"),
        "{body}"
    );
    // A document over 1 MiB is taken on the ingest route (48 MiB), and only there.
    let section = |i: usize| {
        format!(
            "## Part {i}\n\n{}\n\n",
            "Part {i} of the handbook says what the team does on each day of the week. ".repeat(12)
        )
    };
    let handbook: String = (0..1_700).map(section).collect();
    assert!(handbook.len() > 1 << 20, "{}", handbook.len());
    let doc = json!({"entity_id": "ana", "title": "Handbook", "content": handbook});
    let d = Server::start("limits-document", None);
    let (st, body) = d.send("POST", "/api/v1/call/ingest", doc.clone());
    assert_eq!(st, 200, "{body}");
    assert!(
        body["document"]["passages"].as_u64().unwrap() >= 1_700,
        "{body}"
    );
    let (st, body) = d.send("POST", "/api/v1/call/extract", doc);
    assert_eq!((st, body["code"].as_str()), (413, Some("body_too_large")));
    // So are source files' texts (1.4 MiB of them here), which the engine parses.
    let text = |name: &str| {
        (0..15_000)
            .map(|i| format!("pub fn {name}_{i}(x: u32) -> u32 {{ x + {i} }}\n"))
            .collect::<String>()
    };
    let files = json!({"entity_id": "ana", "complete": true, "files": [
        {"path": "src/left.rs", "text": text("left")},
        {"path": "src/right.rs", "text": text("right")}]});
    assert!(files.to_string().len() > 1 << 20);
    let (st, body) = d.send("POST", "/api/v1/call/ingest_code", files);
    assert_eq!(
        (st, body["created"].as_u64(), body["symbols"].as_u64()),
        (200, Some(2), Some(800)),
        "{body}"
    );
    let cases = [
        (
            json!({"items": [{"entity_id": "ana", "content": "x".repeat(50_001)}]}),
            "content",
        ),
        (
            json!({"items": [{"entity_id": "ana", "content": 42}]}),
            "args.items[0].content",
        ),
        (
            json!({"items": [{"entity_id": "ana", "content": "x", "colour": "red"}]}),
            "colour",
        ),
        (
            json!({"items": [{"entity_id": "a b c", "content": "x"}]}),
            "entity_id",
        ),
        (
            json!({"items": [{"entity_id": "ana", "content": "x", "vector": [1.0, 2.0]}]}),
            "256",
        ),
    ];
    for (body, needle) in cases {
        let (st, r) = s.send("POST", "/api/v1/seed", body);
        assert_eq!(st, 400, "{r}");
        assert!(r["error"].as_str().unwrap().contains(needle), "{r}");
        assert!(r["code"].is_string());
    }
    let (st, r) = s.send(
        "POST",
        "/api/v1/search",
        json!({"entity_id": "ana", "query": "tea", "limit": 1001}),
    );
    assert_eq!((st, r["code"].as_str()), (400, Some("invalid_input")));
    let (st, r) = s.raw(
        "POST",
        "/api/v1/search",
        Some(&s.token),
        b"{\"entity_id\": \"ana\", \"query\": ",
    );
    assert_eq!((st, r["code"].as_str()), (400, Some("invalid_input")));
    assert!(
        r["error"].as_str().unwrap().contains("malformed JSON"),
        "{r}"
    );
    let (st, _) = s.raw(
        "POST",
        "/api/v1/search",
        Some(&s.token),
        &[0xff, 0xfe, b'{'],
    );
    assert_eq!(st, 400);
    let (st, _) = s.raw("POST", "/api/v1/search", Some(&s.token), b"[1, 2]");
    assert_eq!(st, 400);
    assert_eq!(
        s.send(
            "GET",
            "/api/v1/memories/bad%20id?entity_id=ana",
            Value::Null
        )
        .0,
        400
    );
    assert_eq!(s.total(), 1, "a refused request changed the store");
    // Injection is just text.
    let (st, hits) = s.send(
        "POST",
        "/api/v1/search",
        json!({"entity_id": "ana", "query": "tea'; DROP TABLE memories; -- NEAR(\""}),
    );
    assert_eq!(
        (st, hits[0]["memory"]["content"].as_str()),
        (200, Some("Ana drinks green tea"))
    );
}

#[test]
fn a_client_stalled_mid_body_holds_up_nobody() {
    let server = Server::start("stall", Some("tok"));
    // Headers promise 100 kB (more than a server reads ahead by itself); 9 bytes arrive, then
    // nothing. The connection stays open.
    const PROMISED: usize = 100_000;
    let start = b"{\"items\":";
    let mut stalled = TcpStream::connect(&server.addr).unwrap();
    let head = format!("POST /api/v1/seed HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer tok\r\nContent-Length: {PROMISED}\r\nConnection: close\r\n\r\n");
    stalled.write_all(head.as_bytes()).unwrap();
    stalled.write_all(start).unwrap();
    let (status, body) = server.send(
        "POST",
        "/api/v1/seed",
        json!({ "items": [{ "entity_id": "ana", "content": "Ana rows on Sundays" }] }),
    );
    assert_eq!(status, 200, "{body}");
    assert_eq!(server.total(), 1);
    // The stalled request, finished late, is answered too.
    stalled
        .write_all(&vec![b' '; PROMISED - start.len()])
        .unwrap();
    let mut out = String::new();
    stalled
        .set_read_timeout(Some(std::time::Duration::from_secs(60)))
        .unwrap();
    let _ = stalled.read_to_string(&mut out);
    assert!(out.starts_with("HTTP/1.1 400"), "{out}");
}

#[test]
fn graph_and_conflict_routes() {
    let s = Server::start("graph", Some("tok"));
    // The knowledge graph routes.
    let (st, _) = s.send(
        "POST",
        "/api/v1/remember",
        json!({"entity_id": "ana", "content": "My brother Tiago works at Shopify."}),
    );
    assert_eq!(st, 200);
    let (st, r) = s.send(
        "GET",
        "/api/v1/entities?entity_id=ana&type=PERSON",
        Value::Null,
    );
    assert_eq!(st, 200, "{r}");
    assert!(
        r.as_array().unwrap().iter().any(|e| e["name"] == "Tiago"),
        "{r}"
    );
    assert!(
        r.as_array().unwrap().iter().all(|e| e["type"] == "PERSON"),
        "{r}"
    );
    let (st, r) = s.send(
        "GET",
        "/api/v1/graph/relationships?entity_id=ana&entity=tiago&stated_only=true&min_strength=0.5",
        Value::Null,
    );
    assert_eq!(st, 200, "{r}");
    let rels: Vec<String> = r
        .as_array()
        .unwrap()
        .iter()
        .map(|x| {
            format!(
                "{} {} {}",
                x["from"].as_str().unwrap(),
                x["relation"].as_str().unwrap(),
                x["to"].as_str().unwrap()
            )
        })
        .collect();
    assert_eq!(rels.len(), 2, "{rels:?}");
    assert!(
        rels.contains(&"user sibling_of Tiago".to_string())
            && rels.contains(&"Tiago works_at Shopify".to_string())
    );
    let (st, r) = s.send(
        "GET",
        "/api/v1/graph/traverse?entity_id=ana&from=user&depth=2",
        Value::Null,
    );
    assert_eq!(st, 200, "{r}");
    assert!(
        r["nodes"]
            .as_array()
            .unwrap()
            .iter()
            .any(|n| n["name"] == "Shopify" && n["depth"] == 2),
        "{r}"
    );
    let (st, r) = s.send(
        "GET",
        "/api/v1/graph/path?entity_id=ana&from=user&to=Shopify",
        Value::Null,
    );
    assert_eq!(
        (st, r["found"].as_bool(), r["hops"].as_array().map(Vec::len)),
        (200, Some(true), Some(2)),
        "{r}"
    );
    let (st, r) = s.send(
        "GET",
        "/api/v1/graph/traverse?entity_id=ana&from=user&depth=9",
        Value::Null,
    );
    assert_eq!((st, r["code"].as_str()), (400, Some("invalid_input")));
    let (st, r) = s.send(
        "GET",
        "/api/v1/graph/path?entity_id=ana&from=user&to=Atlantis",
        Value::Null,
    );
    assert_eq!((st, r["code"].as_str()), (404, Some("not_found")));
    for said in ["Tiago plays chess on Sundays.", "Tiago lives in Braga."] {
        s.send(
            "POST",
            "/api/v1/remember",
            json!({"entity_id": "ana", "content": said}),
        );
    }
    let (st, r) = s.send(
        "GET",
        "/api/v1/graph/card?entity_id=ana&name=tiago",
        Value::Null,
    );
    assert_eq!(
        (st, r["name"].as_str(), r["memories"].as_u64()),
        (200, Some("Tiago"), Some(3)),
        "{r}"
    );
    let (st, r) = s.send(
        "GET",
        "/api/v1/graph/card?entity_id=ana&name=Shopify",
        Value::Null,
    );
    assert_eq!((st, r["code"].as_str()), (404, Some("not_found")), "{r}");
    let (st, r) = s.send("GET", "/api/v1/graph/card?entity_id=ana", Value::Null);
    assert_eq!(
        (st, r["code"].as_str()),
        (400, Some("invalid_input")),
        "{r}"
    );
    let (st, r) = s.send("GET", "/api/v1/graph/bridges?entity_id=ana", Value::Null);
    assert_eq!((st, r.is_array()), (200, true), "{r}");
    let (st, r) = s.send(
        "GET",
        "/api/v1/graph/bridges?entity_id=ana&status=maybe",
        Value::Null,
    );
    assert_eq!(
        (st, r["code"].as_str()),
        (400, Some("invalid_input")),
        "{r}"
    );
    let (st, r) = s.send(
        "GET",
        "/api/v1/graph/card?entity_id=bob&name=tiago",
        Value::Null,
    );
    assert_eq!((st, r["code"].as_str()), (404, Some("not_found")), "{r}");
    let (st, r) = s.send("GET", "/api/v1/entities?entity_id=bob", Value::Null);
    assert_eq!((st, r), (200, json!([])), "another owner's graph is empty");

    // Conflicts: found on remember, listed, resolved once.
    s.send(
        "POST",
        "/api/v1/remember",
        json!({"entity_id": "ana", "content": "I like coffee."}),
    );
    let (st, r) = s.send(
        "POST",
        "/api/v1/remember",
        json!({"entity_id": "ana", "content": "I don't like coffee."}),
    );
    assert_eq!(
        (
            st,
            r["outcomes"][0]["action"].as_str(),
            r["outcomes"][0]["mode"].as_str()
        ),
        (200, Some("conflict"), Some("ask")),
        "{r}"
    );
    let cid = r["outcomes"][0]["conflict"].as_str().unwrap().to_string();
    let (st, r) = s.send(
        "GET",
        "/api/v1/conflicts?entity_id=ana&status=open",
        Value::Null,
    );
    assert_eq!((st, r[0]["id"].as_str()), (200, Some(cid.as_str())), "{r}");
    let path = format!("/api/v1/conflicts/{cid}/resolve");
    let (st, r) = s.send(
        "POST",
        &path,
        json!({"entity_id": "ana", "resolution": "maybe"}),
    );
    assert_eq!(
        (st, r["code"].as_str()),
        (400, Some("invalid_input")),
        "{r}"
    );
    let (st, r) = s.send(
        "POST",
        &path,
        json!({"entity_id": "ana", "resolution": "use_new", "reason": "asked"}),
    );
    assert_eq!(
        (st, r["status"].as_str(), r["resolution"].as_str()),
        (200, Some("resolved"), Some("use_new")),
        "{r}"
    );
    let (st, r) = s.send(
        "POST",
        &path,
        json!({"entity_id": "ana", "resolution": "keep_both"}),
    );
    assert_eq!(
        (st, r["code"].as_str()),
        (400, Some("invalid_input")),
        "resolved once: {r}"
    );
    let (st, r) = s.send(
        "POST",
        "/api/v1/conflicts/cfl_0000000000000000/resolve",
        json!({"entity_id": "ana", "resolution": "keep_both"}),
    );
    assert_eq!((st, r["code"].as_str()), (404, Some("not_found")));
}

#[test]
fn schedule_routes() {
    let s = Server::start("schedule", Some("tok"));
    let (st, created) = s.send(
        "POST",
        "/api/v1/schedule",
        json!({"entity_id": "kai", "agent_id": "bot", "content": "stand-up", "cron_tag": "cron:every:1h"}),
    );
    assert_eq!(st, 200, "{created}");
    let id = created["id"].as_str().unwrap().to_string();
    let (st, list) = s.send("GET", "/api/v1/schedules?entity_id=kai", Value::Null);
    assert_eq!((st, list[0]["id"].as_str()), (200, Some(id.as_str())));
    // Keyoku's list: every live schedule of the agent, as PLAN memories; the due ones are
    // `scheduled`. Another agent lists none of bot's.
    let (st, all) = s.send(
        "GET",
        "/api/v1/scheduled?entity_id=kai&agent_id=bot",
        Value::Null,
    );
    assert_eq!(
        (st, all[0]["id"].as_str(), all[0]["type"].as_str()),
        (200, Some(id.as_str()), Some("PLAN")),
        "{all}"
    );
    let (st, none) = s.send(
        "GET",
        "/api/v1/scheduled?entity_id=kai&agent_id=other",
        Value::Null,
    );
    assert_eq!(
        (st, none.as_array().map(Vec::len)),
        (200, Some(0)),
        "{none}"
    );
    let (st, due) = s.send(
        "POST",
        "/api/v1/call/scheduled",
        json!({"entity_id": "kai"}),
    );
    assert_eq!(
        (st, due),
        (200, json!([])),
        "the server's clock is fixed at its start: not due yet"
    );
    let (st, r) = s.send(
        "POST",
        &format!("/api/v1/schedule/{id}/ack"),
        json!({"entity_id": "kai"}),
    );
    assert_eq!(
        (st, r["schedule"]["acknowledged_at"].is_string()),
        (200, true),
        "{r}"
    );
    let (st, r) = s.send(
        "PUT",
        &format!("/api/v1/schedule/{id}"),
        json!({"entity_id": "kai", "cron_tag": "cron:daily:07:30"}),
    );
    assert_eq!(
        (st, r["cron_tag"].as_str()),
        (200, Some("cron:daily:07:30")),
        "{r}"
    );
    let (st, r) = s.send(
        "PUT",
        &format!("/api/v1/schedule/{id}"),
        json!({"entity_id": "kai", "cron_tag": "cron:daily:7"}),
    );
    assert_eq!((st, r["code"].as_str()), (400, Some("invalid_input")));
    let (st, r) = s.send(
        "DELETE",
        &format!("/api/v1/schedule/{id}?entity_id=kai"),
        Value::Null,
    );
    assert_eq!((st, r["status"].as_str()), (200, Some("cancelled")));
    let (st, r) = s.send(
        "DELETE",
        &format!("/api/v1/schedule/{id}?entity_id=bob"),
        Value::Null,
    );
    assert_eq!((st, r["code"].as_str()), (404, Some("not_found")));
    let (st, r) = s.send(
        "POST",
        "/api/v1/schedule",
        json!({"entity_id": "kai", "content": "x", "cron_tag": 5}),
    );
    assert_eq!((st, r["code"].as_str()), (400, Some("invalid_input")));
    for (method, path) in [
        ("POST", "/api/v1/schedule"),
        ("GET", "/api/v1/schedules?entity_id=kai"),
        ("GET", "/api/v1/scheduled?entity_id=kai"),
    ] {
        assert_eq!(s.raw(method, path, None, b"{}").0, 401, "{method} {path}");
    }
}

#[test]
fn heartbeat_routes() {
    let s = Server::start("heartbeat", Some("tok"));
    s.send(
        "POST",
        "/api/v1/seed",
        json!({"items": [{"entity_id": "kai", "content": "Kai drinks green tea"}]}),
    );
    let (st, r) = s.send(
        "POST",
        "/api/v1/heartbeat/check",
        json!({"entity_id": "kai", "dry_run": true}),
    );
    assert_eq!(st, 200, "{r}");
    assert_eq!(
        (
            r["should_act"].clone(),
            r["decision_reason"].clone(),
            r["act_id"].clone()
        ),
        (json!(true), json!("first_contact"), Value::Null)
    );
    let (st, r) = s.send(
        "POST",
        "/api/v1/heartbeat/check",
        json!({"entity_id": "kai"}),
    );
    let act = r["act_id"].as_str().expect("recorded").to_string();
    assert_eq!(st, 200);
    // Keyoku's record-message body: the agent's message delivering an act.
    let (st, m) = s.send(
        "POST",
        "/api/v1/heartbeat/record-message",
        json!({"entity_id": "kai", "agent_id": "default", "action_id": act, "message": "Hi Kai!"}),
    );
    assert_eq!(st, 200, "{m}");
    assert_eq!(
        (m["role"].as_str(), m["act_id"].as_str()),
        (Some("agent"), Some(act.as_str()))
    );
    // The plugin's own act ids, which the engine never made, are recorded without a link.
    let (st, m) = s.send(
        "POST",
        "/api/v1/heartbeat/record-message",
        json!({"entity_id": "kai", "action_id": "plugin-act-7", "message": "Done!"}),
    );
    assert_eq!(
        (st, m["status"].as_str(), m["act_id"].is_null()),
        (200, Some("ok"), true),
        "{m}"
    );
    let (st, m) = s.send(
        "POST",
        "/api/v1/heartbeat/record-message",
        json!({"entity_id": "kai", "role": "user", "content": "hello"}),
    );
    assert_eq!((st, m["role"].as_str()), (200, Some("user")));
    let (st, c) = s.send(
        "POST",
        "/api/v1/heartbeat/context",
        json!({"entity_id": "kai", "query": "tea", "dry_run": true}),
    );
    assert_eq!(st, 200, "{c}");
    assert_eq!(c["in_conversation"], true);
    assert_eq!(c["recent_messages"][0], "Done!");
    assert_eq!(c["recent_messages"][1], "Hi Kai!");
    assert_eq!(c["messages"][1]["content"], "Hi Kai!");
    assert_eq!(
        c["relevant_memories"][0]["memory"]["content"],
        "Kai drinks green tea"
    );
    // Keyoku's engine's `virtual_now`: decide as of that time, from what was written by then.
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis() as i64;
    s.send(
        "POST",
        "/api/v1/seed",
        json!({"items": [{"entity_id": "kai", "content": "Renew the passport", "type": "PLAN",
               "importance": 0.9, "expires_at": now + 30 * 3_600_000}]}),
    );
    let due = |virtual_now: &str| {
        let (st, r) = s.send(
            "POST",
            "/api/v1/heartbeat/check",
            json!({"entity_id": "kai", "dry_run": true, "virtual_now": virtual_now,
                   "auto_ack_scheduled": true}),
        );
        assert_eq!(st, 200, "{r}");
        r["deadlines"].as_array().map_or(0, Vec::len)
    };
    let rfc = |ms: i64| {
        time::OffsetDateTime::from_unix_timestamp_nanos(ms as i128 * 1_000_000)
            .unwrap()
            .format(&time::format_description::well_known::Rfc3339)
            .unwrap()
    };
    assert_eq!(due(&rfc(now + 20 * 3_600_000)), 1, "due within a day then");
    assert_eq!(due(&rfc(now)), 0, "30 hours out now");
    assert_eq!(due("2020-01-01T00:00:00Z"), 0, "not yet written in 2020");
    // Bad bodies: clear errors, nothing recorded.
    for (path, body) in [
        (
            "/api/v1/heartbeat/check",
            json!({"entity_id": "kai", "virtual_now": "next tuesday"}),
        ),
        (
            "/api/v1/heartbeat/check",
            json!({"entity_id": "kai", "virtual_now": 17}),
        ),
        (
            "/api/v1/heartbeat/check",
            json!({"entity_id": "kai", "autonomy": "shout"}),
        ),
        (
            "/api/v1/heartbeat/check",
            json!({"entity_id": "kai", "utc_offset_minutes": "x"}),
        ),
        (
            "/api/v1/heartbeat/check",
            json!({"entity_id": "kai", "max_results": 1000}),
        ),
        (
            "/api/v1/heartbeat/check",
            json!({"entity_id": "kai", "query": "tea"}),
        ),
        ("/api/v1/heartbeat/check", json!({"entity_id": "k a i"})),
        (
            "/api/v1/heartbeat/context",
            json!({"entity_id": "kai", "deadline_window": "NaN"}),
        ),
        (
            "/api/v1/heartbeat/record-message",
            json!({"entity_id": "kai", "message": ""}),
        ),
        (
            "/api/v1/heartbeat/record-message",
            json!({"entity_id": "kai", "agent_id": 7, "message": "x"}),
        ),
    ] {
        let (st, r) = s.send("POST", path, body.clone());
        assert_eq!(
            (st, r["code"].as_str()),
            (400, Some("invalid_input")),
            "{path} {body}: {r}"
        );
    }
    let (_, after) = s.send(
        "POST",
        "/api/v1/heartbeat/context",
        json!({"entity_id": "kai", "dry_run": true}),
    );
    // The two agent messages recorded above, and none of the refused ones.
    assert_eq!(
        after["recent_messages"].as_array().map(Vec::len),
        Some(2),
        "{after}"
    );
    for path in [
        "/api/v1/heartbeat/check",
        "/api/v1/heartbeat/context",
        "/api/v1/heartbeat/record-message",
    ] {
        assert_eq!(s.raw("POST", path, None, b"{}").0, 401, "{path}");
    }
}

#[test]
fn every_declared_call_has_a_route_and_query_parameters_follow_the_schema() {
    let s = Server::start("declared", None);
    // The declaration itself, as the engine gives it.
    let (st, schema) = s.send("GET", "/api/v1/schema", Value::Null);
    assert_eq!(st, 200);
    assert_eq!(schema.to_string(), mnemo_core::api::schema().to_string());
    // Every declared call answers at /call/{method}: a result, or its arguments refused —
    // never "no route" or "no such method".
    for method in mnemo_core::METHODS {
        let (st, r) = s.send("POST", &format!("/api/v1/call/{method}"), json!({}));
        assert_ne!(st, 404, "{method}: {r}");
        assert!(
            !(r["code"] == "unknown_value" && r["error"].as_str().unwrap_or("").contains("method")),
            "{method}: {r}"
        );
    }
    let (st, r) = s.send("POST", "/api/v1/call/frobnicate", json!({}));
    assert_eq!(
        (st, r["code"].as_str()),
        (400, Some("unknown_value")),
        "{r}"
    );
    // Query parameters take their argument's type from the schema: numbers, booleans and
    // lists (repeated, comma-separated, or under the singular name); ids stay text.
    let (st, r) = s.send(
        "POST",
        "/api/v1/call/seed",
        json!({"items": [
            {"entity_id": "123", "content": "Tea at nine", "type": "PREFERENCE", "pinned": true},
            {"entity_id": "123", "content": "Moved to Porto", "type": "EVENT"},
            {"entity_id": "123", "content": "Call the bank", "type": "PLAN"}
        ]}),
    );
    assert_eq!(st, 200, "{r}");
    let (st, page) = s.send(
        "GET",
        "/api/v1/memories?entity_id=123&limit=5&type=PREFERENCE,EVENT&oldest_first=true",
        Value::Null,
    );
    assert_eq!(st, 200, "{page}");
    let contents: Vec<&str> = page
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["content"].as_str().unwrap())
        .collect();
    assert_eq!(contents, ["Tea at nine", "Moved to Porto"]);
    let (st, page) = s.send(
        "GET",
        "/api/v1/memories?entity_id=123&types=PLAN&types=EVENT&pinned=false",
        Value::Null,
    );
    assert_eq!(
        (st, page.as_array().map(Vec::len)),
        (200, Some(2)),
        "{page}"
    );
    // A value that is not of its type reaches the engine as text, and is refused by name.
    let (st, r) = s.send(
        "GET",
        "/api/v1/memories?entity_id=123&limit=many",
        Value::Null,
    );
    assert_eq!(
        (st, r["code"].as_str()),
        (400, Some("invalid_input")),
        "{r}"
    );
    assert!(r["error"].as_str().unwrap().contains("args.limit"), "{r}");
}

#[test]
fn the_server_maintains_and_consolidates_on_its_own() {
    let data = Server::fresh("maintains");
    let settings =
        std::env::temp_dir().join(format!("mnemo-http-{}-maintains.json", std::process::id()));
    std::fs::write(
        &settings,
        r#"{"consolidation": {"max_memories": 2, "every_hours": 0}}"#,
    )
    .unwrap();
    let s = Server::start_env(
        data,
        Some("tok"),
        &["--maintain-every", "1"],
        None,
        &[("MNEMO_CONFIG", settings.to_str().unwrap())],
    );
    for text in [
        "I collect vintage stamps.",
        "My bicycle is blue.",
        "I enjoy hiking in the Alps.",
    ] {
        let (st, _) = s.send(
            "POST",
            "/api/v1/remember",
            json!({"entity_id": "ana", "content": text}),
        );
        assert_eq!(st, 200);
    }
    // No request asks for it: the server's own pass prunes the owner over its bound.
    let archived =
        || s.send("GET", "/api/v1/stats/ana", Value::Null).1["by_state"]["archived"].clone();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    while archived() != json!(1) {
        assert!(
            std::time::Instant::now() < deadline,
            "no maintenance pass pruned: {}",
            archived()
        );
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    let _ = std::fs::remove_file(settings);
}

#[test]
fn reembed_moves_the_served_store_and_refuses_what_it_cannot() {
    let s = Server::start("reembed", None);
    let (st, _) = s.send(
        "POST",
        "/api/v1/seed",
        json!({"items": [{"entity_id": "ana", "content": "I work as a marine biologist"}]}),
    );
    assert_eq!(st, 200);
    for bad in [
        json!({"model": "nomic-embed"}),
        json!({}),
        json!({"model": 7}),
        json!({"model": "mnemo-hash-v1", "x": 1}),
    ] {
        let (st, r) = s.send("POST", "/api/v1/reembed", bad);
        assert_eq!(st, 400, "{r}");
        assert!(
            r["error"].as_str().unwrap().contains("model")
                || r["error"].as_str().unwrap().contains("x"),
            "{r}"
        );
    }
    let (st, r) = s.send("POST", "/api/v1/reembed", json!({"model": "mnemo-hash-v1"}));
    assert_eq!(st, 200, "{r}");
    assert_eq!(
        (r["model"].as_str(), r["memories"].as_u64()),
        (Some("mnemo-hash-v1"), Some(1))
    );
    let (_, r) = s.send("POST", "/api/v1/call/embedding_model", json!({}));
    assert_eq!(r, json!({"model": "mnemo-hash-v1", "dimension": 384}));
}

/// The memories of `list` (a `list` answer) without what differs from store to store (ids,
/// made by each store's own randomness).
fn without_ids(list: &Value) -> Vec<Value> {
    list["memories"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            let mut m = m.clone();
            m.as_object_mut().unwrap().remove("id");
            m
        })
        .collect()
}

#[test]
fn a_served_remember_stores_what_the_engine_itself_extracts() {
    // The server runs the built-in extractor on the request's thread; the CLI leaves it to
    // the component. Same clock, same text: the same memories and graph.
    let text = "My sister Ana moved to Porto last week. I have a dentist appointment \
                tomorrow at 3pm. I think I prefer green tea to coffee. Remind me to call Marco \
                on Friday!";
    let args = json!({"entity_id": "kai", "content": text, "session_id": "s1"});
    // And a conversation given as messages: only the user's turns are remembered.
    let chat = json!({"entity_id": "kai", "session_id": "s2", "messages": [
        {"role": "user", "content": "My brother Omar lives in Accra."},
        {"role": "assistant", "content": "Noted! Your brother Omar lives in Accra."},
        {"role": "user", "content": "I start my new job at the bakery next Monday."},
    ]});
    let mut s = Server::start("extract-ahead", None);
    let (st, served) = s.send("POST", "/api/v1/remember", args.clone());
    assert_eq!(st, 200, "{served}");
    let (st, served_chat) = s.send("POST", "/api/v1/remember", chat.clone());
    assert_eq!(st, 200, "{served_chat}");
    s.keep = true;
    let served_data = s.data.clone();
    drop(s);
    let direct_data = Server::fresh("extract-ahead-cli");
    let direct = cli(&direct_data, &["call", "remember", &args.to_string()]);
    let direct_chat = cli(&direct_data, &["call", "remember", &chat.to_string()]);
    let actions = |r: &Value| -> Vec<Value> {
        (r["outcomes"].as_array().unwrap().iter())
            .map(|o| o["action"].clone())
            .collect()
    };
    assert_eq!(actions(&served), actions(&direct));
    assert_eq!(actions(&served_chat), actions(&direct_chat));
    let list = r#"{"entity_id": "kai", "oldest_first": true}"#;
    let memories = without_ids(&cli(&served_data, &["call", "list", list]));
    assert!(memories.len() >= 5, "{memories:?}");
    assert!(
        !format!("{memories:?}").contains("Noted!"),
        "the assistant's turn is not remembered: {memories:?}"
    );
    assert_eq!(
        (memories.iter())
            .filter(|m| !m["expires_at"].is_null())
            .count(),
        3,
        "the appointment, the reminder and the new job expire: {memories:?}"
    );
    assert_eq!(
        memories,
        without_ids(&cli(&direct_data, &["call", "list", list]))
    );
    let entities = r#"{"entity_id": "kai"}"#;
    let served_entities = cli(&served_data, &["call", "entities", entities]);
    assert!(
        served_entities.as_array().is_some_and(|e| !e.is_empty()),
        "{served_entities}"
    );
    assert_eq!(
        without_ids(&json!({"memories": served_entities})),
        without_ids(&json!({"memories": cli(&direct_data, &["call", "entities", entities])}))
    );
    let _ = std::fs::remove_dir_all(&served_data);
    let _ = std::fs::remove_dir_all(&direct_data);
}

#[test]
fn a_served_search_lets_one_messages_statements_give_way_and_says_so() {
    // Two messages remembered over HTTP with their ids as `source_ref`; the second is three
    // statements.
    let s = Server::start("gave-way", None);
    for (id, content) in [
        ("msg-1", "Ana enjoys reading novels on the train."),
        (
            "msg-2",
            "Ana loves hiking in the mountains. Ana loves painting landscapes. Ana loves cooking Thai food.",
        ),
    ] {
        let args = json!({"entity_id": "ana", "content": content, "source_ref": id});
        let (st, r) = s.send("POST", "/api/v1/call/remember", args);
        assert_eq!(st, 200, "{r}");
    }
    let search = |limit: usize| -> Vec<Value> {
        let args = json!({"entity_id": "ana", "query": "What does Ana love?", "limit": limit});
        let (st, hits) = s.send("POST", "/api/v1/call/search", args);
        assert_eq!(st, 200, "{hits}");
        hits.as_array().cloned().unwrap_or_default()
    };
    let refs = |hits: &[Value]| -> Vec<String> {
        (hits.iter())
            .map(|h| {
                h["memory"]["source_ref"]
                    .as_str()
                    .unwrap_or_default()
                    .to_string()
            })
            .collect()
    };
    // With room for two, both messages answer.
    let mut two = refs(&search(2));
    two.sort();
    assert_eq!(two, ["msg-1", "msg-2"]);
    // With room for all, the second message's other statements follow, each naming the hit of
    // its message it followed.
    let hits = search(10);
    assert_eq!(refs(&hits)[2..], ["msg-2", "msg-2"], "{hits:?}");
    let kept = (hits[..2].iter())
        .find(|h| h["memory"]["source_ref"] == "msg-2")
        .map(|h| h["memory"]["id"].clone());
    let gave_way: Vec<Value> = hits
        .iter()
        .map(|h| h["why"]["gave_way_to"].clone())
        .collect();
    let kept = kept.expect("a statement of msg-2 among the first two");
    assert_eq!(gave_way, [Value::Null, Value::Null, kept.clone(), kept]);
}

/// A markdown plan of three sections, each long enough to be a passage of its own.
fn plan_2027() -> String {
    let section = |title: &str, words: &str| {
        let body: Vec<String> = (1..=12)
            .map(|i| format!("{words} Point {i} is written down here at length."))
            .collect();
        format!("## {title}\n\n{}", body.join(" "))
    };
    [
        "# Plan 2027".to_string(),
        section("Hiring", "The hiring plan adds two engineers in Lisbon."),
        section(
            "Budget",
            "The Q4 budget priorities are the data centre lease and security audits.",
        ),
        section("Travel", "Team offsites move to Porto in the spring."),
    ]
    .join("\n\n")
}

#[test]
fn documents_are_ingested_found_to_the_passage_and_kept_to_their_owner() {
    let s = Server::start("documents", None);
    let text = plan_2027();
    let (st, r) = s.send(
        "POST",
        "/api/v1/call/ingest",
        json!({"entity_id": "ana", "title": "Plan 2027", "content": text,
               "filename": "plan-2027.md", "source_ref": "drive:plan", "tags": ["work"]}),
    );
    assert_eq!((st, r["action"].as_str()), (200, Some("created")), "{r}");
    let doc = r["document"].clone();
    let id = doc["id"].as_str().unwrap().to_string();
    assert!(doc["passages"].as_u64().unwrap() >= 3, "{doc}");
    let passages = doc["passages"].as_u64().unwrap();
    assert_eq!(
        s.total(),
        passages,
        "every passage is one memory of the owner's"
    );
    // Keyoku's search route carries where a passage lies.
    let (st, hits) = s.send(
        "POST",
        "/api/v1/search",
        json!({"entity_id": "ana", "query": "What are the Q4 budget priorities?"}),
    );
    assert_eq!(st, 200, "{hits}");
    assert_eq!(hits[0]["passage"]["document_id"], json!(id), "{hits}");
    assert_eq!(
        hits[0]["passage"]["section"],
        json!(["Plan 2027", "Budget"])
    );
    assert!(hits[0]["memory"]["content"]
        .as_str()
        .unwrap()
        .contains("Q4 budget priorities"));
    let (st, list) = s.send(
        "POST",
        "/api/v1/call/documents",
        json!({"entity_id": "ana"}),
    );
    assert_eq!(
        (st, list[0]["id"].as_str()),
        (200, Some(id.as_str())),
        "{list}"
    );
    let (st, shown) = s.send(
        "POST",
        "/api/v1/call/document",
        json!({"entity_id": "ana", "id": id}),
    );
    assert_eq!(st, 200, "{shown}");
    assert_eq!(shown["passages"].as_array().unwrap().len() as u64, passages);
    // Another owner, by id, by search, by list: nothing.
    let (st, r) = s.send(
        "POST",
        "/api/v1/call/document",
        json!({"entity_id": "ben", "id": id}),
    );
    assert_eq!((st, r["code"].as_str()), (404, Some("not_found")), "{r}");
    let (_, hits) = s.send(
        "POST",
        "/api/v1/search",
        json!({"entity_id": "ben", "query": "Q4 budget priorities"}),
    );
    assert_eq!(hits, json!([]));
    let (_, list) = s.send(
        "POST",
        "/api/v1/call/documents",
        json!({"entity_id": "ben"}),
    );
    assert_eq!(list, json!([]));
    let (st, r) = s.send(
        "POST",
        "/api/v1/call/forget_document",
        json!({"entity_id": "ben", "id": id}),
    );
    assert_eq!((st, r["code"].as_str()), (404, Some("not_found")), "{r}");

    // Bad documents: refused by name, nothing written.
    let cases = [
        (
            json!({"entity_id": "ana", "title": "Empty", "content": " \n\t "}),
            "content",
        ),
        (
            json!({"entity_id": "ana", "title": "", "content": "text"}),
            "title",
        ),
        (
            json!({"entity_id": "ana", "title": "T", "content": 42}),
            "args.content",
        ),
        (
            json!({"entity_id": "ana", "title": "T", "content": "x", "source": "fax"}),
            "source",
        ),
        (
            json!({"entity_id": "ana", "title": "T", "content": "text",
                   "chunking": {"min_chars": 900, "max_chars": 800, "overlap_chars": 100}}),
            "chunking",
        ),
        (
            json!({"entity_id": "ana", "title": "T", "content": "a\u{0}b"}),
            "content",
        ),
    ];
    for (body, needle) in cases {
        let (st, r) = s.send("POST", "/api/v1/call/ingest", body.clone());
        assert_eq!(
            (st, r["code"].as_str()),
            (400, Some("invalid_input")),
            "{body}: {r}"
        );
        assert!(r["error"].as_str().unwrap().contains(needle), "{body}: {r}");
    }
    // A document longer than the engine takes (10,000,000 characters) is refused, by name;
    // a body over the ingest route's 48 MiB is refused before it is read (tests/hostile.rs).
    let huge = format!(
        "{{\"entity_id\":\"ana\",\"title\":\"Huge\",\"content\":\"{}\"}}",
        "word ".repeat(2_000_001)
    );
    let (st, r) = s.raw(
        "POST",
        "/api/v1/call/ingest",
        Some(&s.token),
        huge.as_bytes(),
    );
    assert_eq!(
        (st, r["code"].as_str()),
        (400, Some("invalid_input")),
        "{r}"
    );
    assert!(
        r["error"]
            .as_str()
            .unwrap()
            .contains("longer than 10000000 characters"),
        "{r}"
    );
    assert_eq!(s.total(), passages, "a refused ingest wrote something");
    let (_, list) = s.send(
        "POST",
        "/api/v1/call/documents",
        json!({"entity_id": "ana"}),
    );
    assert_eq!(list.as_array().unwrap().len(), 1, "{list}");

    // Forgotten, its passages go with it.
    let (st, r) = s.send(
        "POST",
        "/api/v1/call/forget_document",
        json!({"entity_id": "ana", "id": id}),
    );
    assert_eq!(st, 200, "{r}");
    assert_eq!(s.total(), 0);
    let (_, hits) = s.send(
        "POST",
        "/api/v1/search",
        json!({"entity_id": "ana", "query": "Q4 budget priorities"}),
    );
    assert_eq!(hits, json!([]));
}
