//! The pipeline every server runs, from request bytes to response bytes: what is answered
//! before the token, the body and its limits, routing, the engine calls a route makes, the
//! status of each error, and which owner a request concerns.

use mnemo_http::{
    check_length, gate, handle, handle_now, health, max_body, owner_of, parse_body, Api, Gate,
    Handled, Outcome, Reply, Request, WatcherRoute, MAX_BODY, MAX_DOCUMENT_BODY,
};
use serde_json::{json, Value};

/// The engine's call schema, as the npm package ships it.
const SCHEMA: &str = include_str!("../../www/src/schema.json");

fn api() -> Api {
    Api::from_text(SCHEMA).expect("the shipped schema")
}

fn request<'a>(method: &'a str, path: &'a str, body: &'a [u8]) -> Request<'a> {
    let (path, query) = path.split_once('?').unwrap_or((path, ""));
    Request {
        method,
        path,
        query,
        owner: None,
        body,
    }
}

/// Answers `request` with an engine that records its calls and answers each with `answer`.
fn answer(request: &Request, answer: Outcome) -> (Reply, Vec<(String, Value)>) {
    let mut calls = Vec::new();
    let reply = handle_now(&api(), request, |method, args| {
        calls.push((method.to_string(), serde_json::from_str(args).unwrap()));
        answer.clone()
    });
    (reply, calls)
}

fn body(reply: &Reply) -> Value {
    serde_json::from_str(&reply.body).unwrap_or_else(|e| panic!("{e}: {}", reply.body))
}

/// The code and message of an error answer, with its status.
fn refusal(reply: &Reply) -> (u16, String, String) {
    let b = body(reply);
    let text = |k: &str| b[k].as_str().unwrap_or_default().to_string();
    (reply.status, text("code"), text("error"))
}

#[test]
fn health_and_paths_outside_the_api_are_answered_before_the_token() {
    assert_eq!(gate("GET", "/api/v1/health"), Gate::Health);
    assert_eq!(gate("HEAD", "/api/v1/health"), Gate::Health);
    assert_eq!(gate("POST", "/api/v1/search"), Gate::Api);
    assert_eq!(gate("GET", "/api/v1/nowhere"), Gate::Api);
    for path in [
        "/health",
        "/",
        "/api/v1",
        "/api/v1x/stats",
        "/api/v2/health",
        "/API/V1/health",
        "//api/v1/health",
    ] {
        let Gate::Answer(reply) = gate("GET", path) else {
            panic!("{path} let through");
        };
        let (status, code, message) = refusal(&reply);
        assert_eq!((status, code.as_str()), (404, "not_found"), "{path}");
        assert_eq!(
            message,
            format!("no route GET {path}: routes start with /api/v1/")
        );
    }
    let Gate::Answer(reply) = gate("POST", "/api/v1/health") else {
        panic!("POST health let through");
    };
    assert_eq!(
        refusal(&reply),
        (
            405,
            "method_not_allowed".into(),
            "POST is not allowed on /api/v1/health: use GET".into()
        )
    );
}

#[test]
fn health_says_ok_with_the_version_the_time_and_the_event_clients() {
    let reply = health("1.2.3", 1_767_225_600_123, 2);
    assert_eq!(reply.status, 200);
    assert_eq!(
        body(&reply),
        json!({"status": "ok", "version": "1.2.3", "timestamp": "2026-01-01T00:00:00.123Z", "sse_clients": 2})
    );
}

#[test]
fn a_body_declared_over_the_limit_is_refused_before_it_is_read() {
    assert_eq!(check_length(SEED_PATH, None), Ok(()));
    assert_eq!(check_length(SEED_PATH, Some("0")), Ok(()));
    assert_eq!(check_length(SEED_PATH, Some(&MAX_BODY.to_string())), Ok(()));
    // Not a length: the read itself is held to the limit.
    assert_eq!(check_length(SEED_PATH, Some("lots")), Ok(()));
    let refused = check_length(SEED_PATH, Some(&(MAX_BODY + 1).to_string())).unwrap_err();
    assert_eq!(
        refusal(&refused),
        (
            413,
            "body_too_large".into(),
            "request body exceeds 1 MiB (the limit of this route; documents, source files and imports may take 48 MiB)".into()
        )
    );
    // A document's, source files' and an export's routes take 48 MiB, and a 100 MB body is
    // refused unread.
    for path in [
        "/api/v1/call/ingest",
        "/api/v1/call/ingest_code",
        "/api/v1/import",
        "/api/v1/import/",
    ] {
        assert_eq!(max_body(path), MAX_DOCUMENT_BODY, "{path}");
        assert_eq!(
            check_length(path, Some(&MAX_DOCUMENT_BODY.to_string())),
            Ok(())
        );
        let refused = check_length(path, Some("104857600")).unwrap_err();
        assert!(
            refusal(&refused)
                .2
                .starts_with("request body exceeds 48 MiB"),
            "{path}"
        );
    }
    for path in [
        "/api/v1/call/ingestx",
        "/api/v1/call/extract",
        "/api/v1/callingest",
        "/ingest",
    ] {
        assert_eq!(max_body(path), MAX_BODY, "{path}");
    }
}

#[test]
fn bodies_are_json_objects_or_refused() {
    assert_eq!(parse_body(SEED_PATH, b"").unwrap(), json!({}));
    assert_eq!(parse_body(SEED_PATH, b" \n").unwrap(), json!({}));
    assert_eq!(
        parse_body(SEED_PATH, br#"{"a":1}"#).unwrap(),
        json!({"a": 1})
    );
    for bad in [&b"[1]"[..], b"\"x\"", b"{", b"\xff\xfe", b"null"] {
        assert_eq!(
            parse_body(SEED_PATH, bad).unwrap_err().status,
            400,
            "{bad:?}"
        );
    }
    assert_eq!(
        parse_body(SEED_PATH, &vec![b' '; MAX_BODY + 1])
            .unwrap_err()
            .status,
        413
    );
    assert_eq!(
        parse_body("/api/v1/call/ingest", &vec![b' '; MAX_BODY + 1]).unwrap(),
        json!({})
    );
}

/// A route whose bodies are held to [`MAX_BODY`].
const SEED_PATH: &str = "/api/v1/seed";

#[test]
fn a_bad_body_is_refused_with_the_reason_and_reaches_no_engine() {
    let oversized = vec![b' '; MAX_BODY + 1];
    let cases: [(&[u8], u16, &str, &str); 5] = [
        (
            br#"{"content": "#,
            400,
            "invalid_input",
            "malformed JSON body: EOF while parsing a value at line 1 column 12",
        ),
        (
            b"[\"ana\"]",
            400,
            "invalid_input",
            "the body must be a JSON object",
        ),
        (
            b"\xff\xfe{",
            400,
            "invalid_input",
            "the body is not valid UTF-8",
        ),
        (
            br#"{"importance": NaN}"#,
            400,
            "invalid_input",
            "malformed JSON body: expected value at line 1 column 16",
        ),
        (
            &oversized,
            413,
            "body_too_large",
            "request body exceeds 1 MiB (the limit of this route; documents, source files and imports may take 48 MiB)",
        ),
    ];
    for (bytes, status, code, message) in cases {
        let (reply, calls) = answer(
            &request("POST", "/api/v1/remember?entity_id=ana", bytes),
            Outcome::Answer("{}".into()),
        );
        assert_eq!(
            refusal(&reply),
            (status, code.into(), message.into()),
            "{}",
            String::from_utf8_lossy(&bytes[..bytes.len().min(40)])
        );
        assert!(calls.is_empty(), "{calls:?}");
    }
}

#[test]
fn a_method_without_a_body_has_its_body_ignored() {
    let (reply, calls) = answer(
        &request("GET", "/api/v1/memories?entity_id=ana", b"{not json"),
        Outcome::Answer(r#"{"memories":[],"next_cursor":null}"#.into()),
    );
    assert_eq!((reply.status, reply.body.as_str()), (200, "[]"));
    assert_eq!(calls, [("list".into(), json!({"entity_id": "ana"}))]);
}

#[test]
fn query_parameters_are_typed_by_the_call_they_reach() {
    let (_, calls) = answer(
        &request(
            "GET",
            "/api/v1/memories?entity_id=123&limit=5&types=FACT,EVENT&type=PLAN&tag=caf%C3%A9+au+lait&pinned=true",
            b"",
        ),
        Outcome::Answer(r#"{"memories":[]}"#.into()),
    );
    assert_eq!(
        calls[0].1,
        json!({"entity_id": "123", "limit": 5, "types": ["FACT", "EVENT", "PLAN"], "tag": "café au lait", "pinned": true})
    );
}

#[test]
fn an_unknown_route_or_a_method_a_route_does_not_take_is_not_found() {
    for (method, path) in [
        ("GET", "/api/v1/nowhere"),
        ("DELETE", "/api/v1/search"),
        ("GET", "/api/v1/remember"),
        ("POST", "/api/v1/memories/m1/explode"),
        ("GET", "/api/v1/health/"),
    ] {
        let (reply, calls) = answer(&request(method, path, b""), Outcome::Answer("{}".into()));
        assert_eq!(
            refusal(&reply),
            (404, "not_found".into(), format!("no route {method} {path}"))
        );
        assert!(calls.is_empty());
    }
    let (reply, _) = answer(
        &request("GE T", "/api/v1/stats", b""),
        Outcome::Answer("{}".into()),
    );
    assert_eq!(
        refusal(&reply),
        (
            400,
            "invalid_input".into(),
            r#"invalid method "GE T""#.into()
        )
    );
}

#[test]
fn the_schema_route_serves_the_schema_as_given() {
    let (reply, _) = answer(
        &request("GET", "/api/v1/schema", b""),
        Outcome::Failed("unused".into()),
    );
    assert_eq!((reply.status, reply.body.as_str()), (200, SCHEMA));
}

#[test]
fn watcher_routes_go_to_the_server_that_runs_one_and_are_501_elsewhere() {
    let req = request("GET", "/api/v1/watcher/history?limit=7", b"");
    let api = api();
    let handled = run_in_place(handle(&api, &req, |_, _| async {
        Outcome::Failed("unused".into())
    }));
    assert_eq!(handled, Handled::Watcher(WatcherRoute::History(7)));
    let (reply, _) = answer(&req, Outcome::Failed("unused".into()));
    let (status, code, message) = refusal(&reply);
    assert_eq!((status, code.as_str()), (501, "not_implemented"));
    assert!(message.contains("mnemo serve"), "{message}");
}

#[test]
fn keyokus_team_routes_are_the_owners_team_calls() {
    let member = Outcome::Answer(
        r#"{"team_id":"t1","agent_id":"bob","role":"member","joined_at":1}"#.into(),
    );
    for (method, path, sent, call, args, status) in [
        (
            "POST",
            "/api/v1/teams?entity_id=acme",
            json!({"name": "Ops", "description": "d"}),
            "team_create",
            json!({"entity_id": "acme", "name": "Ops", "description": "d"}),
            None,
        ),
        (
            "GET",
            "/api/v1/teams/t1?entity_id=acme",
            json!(null),
            "team_get",
            json!({"entity_id": "acme", "team_id": "t1"}),
            None,
        ),
        (
            "DELETE",
            "/api/v1/teams/t1?entity_id=acme",
            json!(null),
            "team_delete",
            json!({"entity_id": "acme", "team_id": "t1"}),
            None,
        ),
        (
            "POST",
            "/api/v1/teams/t1/members?entity_id=acme",
            json!({"agent_id": "bob"}),
            "team_member_add",
            json!({"entity_id": "acme", "team_id": "t1", "member_id": "bob"}),
            Some("added"),
        ),
        (
            "GET",
            "/api/v1/teams/t1/members?entity_id=acme",
            json!(null),
            "team_members",
            json!({"entity_id": "acme", "team_id": "t1"}),
            None,
        ),
        (
            "DELETE",
            "/api/v1/teams/t1/members/bob?entity_id=acme",
            json!(null),
            "team_member_remove",
            json!({"entity_id": "acme", "team_id": "t1", "member_id": "bob"}),
            Some("removed"),
        ),
    ] {
        let bytes = if sent.is_null() {
            Vec::new()
        } else {
            sent.to_string().into_bytes()
        };
        let (reply, calls) = answer(&request(method, path, &bytes), member.clone());
        assert_eq!(calls, vec![(call.to_string(), args)], "{method} {path}");
        assert_eq!(reply.status, 200, "{method} {path}: {}", reply.body);
        if let Some(status) = status {
            assert_eq!(body(&reply)["status"], status, "Keyoku's {method} {path}");
            assert_eq!(body(&reply)["agent_id"], "bob");
        }
    }
}

#[test]
fn an_engine_refusal_takes_the_status_of_its_code_and_a_failure_is_500() {
    for (outcome, status, code) in [
        (
            Outcome::Refused {
                code: "invalid_input".into(),
                message: "invalid query: must not be empty".into(),
            },
            400,
            "invalid_input",
        ),
        (
            Outcome::Refused {
                code: "schema_too_new".into(),
                message: "newer".into(),
            },
            409,
            "schema_too_new",
        ),
        (
            Outcome::Refused {
                code: "storage_error".into(),
                message: "disk".into(),
            },
            500,
            "storage_error",
        ),
        (
            Outcome::Failed("the engine has stopped".into()),
            500,
            "internal",
        ),
        (Outcome::Answer("not json".into()), 500, "internal"),
    ] {
        let (reply, _) = answer(
            &request(
                "POST",
                "/api/v1/search",
                br#"{"entity_id":"ana","query":"x"}"#,
            ),
            outcome.clone(),
        );
        let (got_status, got_code, _) = refusal(&reply);
        assert_eq!(
            (got_status, got_code.as_str()),
            (status, code),
            "{outcome:?}"
        );
    }
    // Mnemo's own routes pass the engine's answer through unread.
    let (reply, _) = answer(
        &request("POST", "/api/v1/call/stats", br#"{"entity_id":"ana"}"#),
        Outcome::Answer("not json".into()),
    );
    assert_eq!((reply.status, reply.body.as_str()), (200, "not json"));
}

#[test]
fn a_memory_named_by_id_alone_is_located_then_read() {
    let mut seen = Vec::new();
    let reply = handle_now(
        &api(),
        &request("GET", "/api/v1/memories/m1", b""),
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
    );
    assert_eq!(seen[0], ("locate".into(), r#"{"id":"m1"}"#.into()));
    assert_eq!(seen[1].0, "get");
    assert!(seen[1].1.contains(r#""entity_id":"ana""#), "{}", seen[1].1);
    assert_eq!(reply.status, 404);
    assert_eq!(reply.body, r#"{"error":"no memory m1","code":"not_found"}"#);
}

/// The owner `request` concerns, or its refusal's status, code and message.
fn owner(request: &Request) -> Result<String, (u16, String, String)> {
    owner_of(request, None).map_err(|r| refusal(&r))
}

#[test]
fn the_owner_is_found_in_the_header_the_query_the_stats_path_or_the_body() {
    let ana = Ok("ana".to_string());
    assert_eq!(
        owner(&request(
            "POST",
            "/api/v1/search",
            br#"{"entity_id":"ana","query":"x"}"#
        )),
        ana
    );
    assert_eq!(
        owner(&request("GET", "/api/v1/memories?entity_id=ana", b"")),
        ana
    );
    assert_eq!(owner(&request("GET", "/api/v1/stats/ana", b"")), ana);
    assert_eq!(owner(&request("GET", "/api/v1/stats/ana/", b"")), ana);
    assert_eq!(owner(&request("GET", "/api/v1/stats/%61na", b"")), ana);
    let by_header = Request {
        owner: Some("ana"),
        ..request("GET", "/api/v1/memories/m1", b"")
    };
    assert_eq!(owner(&by_header), ana);
    // Items of a seed, and the records of an import's JSON lines.
    assert_eq!(
        owner(&request(
            "POST",
            "/api/v1/seed",
            br#"{"memories":[{"entity_id":"ana","content":"a"},{"entity_id":"ana","content":"b"}]}"#
        )),
        ana
    );
    let import = json!({"jsonl": "{\"entity_id\":\"ana\",\"content\":\"a\"}\nnot json\n\n"});
    assert_eq!(
        owner(&request(
            "POST",
            "/api/v1/import",
            import.to_string().as_bytes()
        )),
        ana
    );
    // The same owner named in several places is one owner.
    let everywhere = Request {
        owner: Some("ana"),
        ..request(
            "POST",
            "/api/v1/remember?entity_id=ana",
            br#"{"entity_id":"\u0061na","content":"x"}"#,
        )
    };
    assert_eq!(owner(&everywhere), ana);
    // Deeper than items of items is not looked at; null is no owner.
    assert_eq!(
        owner(&request(
            "POST",
            "/api/v1/call/x?entity_id=ana",
            br#"{"entity_id":null,"a":{"b":{"c":{"entity_id":"bob"}}}}"#
        )),
        ana
    );
}

#[test]
fn no_owner_or_two_owners_is_refused_with_how_to_name_one() {
    let (status, code, message) =
        owner(&request("POST", "/api/v1/search", br#"{"query":"x"}"#)).unwrap_err();
    assert_eq!((status, code.as_str()), (400, "owner_required"));
    assert!(message.contains("x-mnemo-owner"), "{message}");
    assert_eq!(
        owner(&request("POST", "/api/v1/search", b"  "))
            .unwrap_err()
            .1,
        "owner_required"
    );
    assert_eq!(
        owner(&request(
            "POST",
            "/api/v1/seed?entity_id=cy",
            br#"{"memories":[{"entity_id":"ana","content":"a"},{"entity_id":"bob","content":"b"}]}"#
        )),
        Err((
            400,
            "owner_required".into(),
            r#"one owner per request here; this one names 3: ["cy","ana","bob"]"#.into()
        ))
    );
    assert_eq!(
        owner(&request("GET", "/api/v1/stats/ana?entity_id=bob", b""))
            .unwrap_err()
            .1,
        "owner_required"
    );
}

#[test]
fn an_owner_id_the_engine_would_refuse_never_reaches_a_store() {
    let long = "a".repeat(257);
    for bad in [
        "ana' OR 1=1 --",
        "ana\u{0}",
        "ana\nbob",
        "Ána",
        "李",
        "../../etc/passwd",
        "",
        long.as_str(),
    ] {
        let body = json!({"entity_id": bad, "query": "x"}).to_string();
        let (status, code, message) =
            owner(&request("POST", "/api/v1/search", body.as_bytes())).unwrap_err();
        assert_eq!((status, code.as_str()), (400, "invalid_input"), "{bad:?}");
        assert!(
            message.starts_with("invalid args.entity_id: "),
            "{bad:?}: {message}"
        );
    }
    for good in ["bob", "ana.", "a:b.c-d_e", "user_42", &long[..256]] {
        let body = json!({"entity_id": good}).to_string();
        assert_eq!(
            owner(&request("POST", "/api/v1/search", body.as_bytes())),
            Ok(good.to_string())
        );
    }
    // Percent-encoded in a path, the decoded id is checked.
    assert_eq!(
        owner(&request("GET", "/api/v1/stats/ana%27%20OR%201%3D1", b""))
            .unwrap_err()
            .1,
        "invalid_input"
    );
    assert_eq!(
        owner(&request("POST", "/api/v1/remember", br#"{"entity_id":42}"#)),
        Err((
            400,
            "invalid_input".into(),
            "invalid args.entity_id: invalid type: integer `42`, expected a string".into()
        ))
    );
}

#[test]
fn a_body_that_is_not_json_is_refused_unless_an_owner_is_named_elsewhere() {
    assert_eq!(
        owner(&request(
            "POST",
            "/api/v1/remember?entity_id=ana",
            b"{\"content\": "
        )),
        Ok("ana".into())
    );
    let (status, code, message) =
        owner(&request("POST", "/api/v1/remember", b"{\"content\": ")).unwrap_err();
    assert_eq!((status, code.as_str()), (400, "invalid_input"));
    assert!(message.starts_with("malformed JSON body"), "{message}");
    assert_eq!(
        owner(&request("POST", "/api/v1/remember", b"\xff{"))
            .unwrap_err()
            .2,
        "the body is not valid UTF-8"
    );
    let oversized = vec![b' '; MAX_BODY + 1];
    assert_eq!(
        owner(&request(
            "POST",
            "/api/v1/remember?entity_id=ana",
            &oversized
        ))
        .unwrap_err()
        .0,
        413
    );
}

#[test]
fn a_store_named_by_the_test_hook_takes_the_first_owner_or_stands_for_one() {
    let two = request(
        "POST",
        "/api/v1/seed",
        br#"{"memories":[{"entity_id":"ana","content":"a"},{"entity_id":"bob","content":"b"}]}"#,
    );
    assert_eq!(owner_of(&two, Some("scenario")), Ok("ana".into()));
    let none = request("POST", "/api/v1/call/store_stats", b"{}");
    assert_eq!(owner_of(&none, Some("scenario-x")), Ok("scenario-x".into()));
    // The first owner is still checked.
    let bad = request("POST", "/api/v1/search", br#"{"entity_id":"no way"}"#);
    assert_eq!(owner_of(&bad, Some("scenario")).unwrap_err().status, 400);
}

/// Runs a future that never waits (every engine call here answers in place).
fn run_in_place<F: std::future::Future>(future: F) -> F::Output {
    use std::task::{Context, Poll, Waker};
    let mut future = std::pin::pin!(future);
    match future
        .as_mut()
        .poll(&mut Context::from_waker(Waker::noop()))
    {
        Poll::Ready(out) => out,
        Poll::Pending => panic!("the future waited"),
    }
}
