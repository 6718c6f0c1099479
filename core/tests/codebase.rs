//! The codebase layer: `ingest_code` stores one memory per source file that search finds by
//! what its symbols are called; ingesting again changes nothing, a changed file supersedes its
//! memory, a complete run invalidates files gone (drift detection restores them); the layer is
//! exempt from decay, dedup and clustering and written by `ingest_code` only; owners and agents
//! stay apart; bad files are refused and write nothing.
mod common;

use common::*;
use mnemo_core::*;
use serde_json::{json, Value};

fn call(e: &mut Engine, method: &str, args: Value) -> Result<Value> {
    e.call_json(method, &args.to_string())
        .map(|s| serde_json::from_str(&s).expect("json"))
}

fn auth_file(lines: u32) -> Value {
    json!({
        "path": "server/src/auth.rs", "language": "rust", "lines": lines,
        "summary": "Bearer tokens: how a request proves who sent it.",
        "symbols": [
            {"kind": "function", "name": "check_token", "signature": "pub fn check_token(header: &str, token: &str) -> bool", "line": 12},
            {"kind": "type", "name": "Session", "signature": "pub struct Session", "line": 3}
        ]
    })
}

fn files() -> Value {
    json!([
        auth_file(40),
        {"path": "web/src/cart.ts", "language": "typescript", "lines": 80, "symbols": [
            {"kind": "function", "name": "addToCart", "signature": "export function addToCart(item: Item): Cart", "line": 5},
            {"kind": "interface", "name": "CartItem", "signature": "export interface CartItem", "line": 1}
        ]},
        {"path": "tools/report.py", "language": "python", "lines": 30, "summary": "Monthly sales report.", "symbols": [
            {"kind": "function", "name": "render_report", "signature": "def render_report(rows: list[Row]) -> str:", "line": 9}
        ]}
    ])
}

fn ingest(e: &mut Engine, owner: &str, files: Value, complete: bool) -> Value {
    call(
        e,
        "ingest_code",
        json!({"entity_id": owner, "files": files, "complete": complete}),
    )
    .unwrap()
}

/// Asserts that kai has no memory: a refused call wrote nothing.
fn nothing_written(e: &mut Engine) {
    let stats = call(e, "stats", json!({"entity_id": "kai"})).unwrap();
    assert_eq!(stats["total"], 0, "nothing was written: {stats}");
}

/// `ingest_code` of `files` for kai, refused as bad input naming `path`.
fn refused(e: &mut Engine, files: Value, path: &str) -> Error {
    let err = call(
        e,
        "ingest_code",
        json!({"entity_id": "kai", "files": files}),
    )
    .unwrap_err();
    assert_eq!(err.code(), "invalid_input", "{err}");
    assert!(err.to_string().contains(path), "{err} names {path}");
    err
}

fn top(e: &mut Engine, owner: &str, query: &str) -> String {
    let hits = call(
        e,
        "search",
        json!({"entity_id": owner, "query": query, "limit": 3}),
    )
    .unwrap();
    hits[0]["memory"]["content"]
        .as_str()
        .unwrap_or("")
        .to_string()
}

fn by_path(e: &mut Engine, owner: &str, path: &str) -> Vec<Value> {
    let page = call(e, "list", json!({"entity_id": owner, "limit": 100, "statuses": ["active", "invalidated", "superseded"]})).unwrap();
    page["memories"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["source_ref"] == json!(format!("code:{path}")))
        .cloned()
        .collect()
}

#[test]
fn files_become_codebase_memories_that_search_finds_by_their_symbols() {
    let (mut e, _clock) = engine();
    let r = ingest(&mut e, "kai", files(), false);
    assert_eq!(
        (r["created"].clone(), r["symbols"].clone()),
        (json!(3), json!(5)),
        "{r}"
    );
    let auth = &by_path(&mut e, "kai", "server/src/auth.rs")[0];
    assert_eq!(auth["layer"], "codebase");
    let content = auth["content"].as_str().unwrap();
    assert!(
        content.starts_with("server/src/auth.rs — rust, 40 lines. Bearer tokens"),
        "{content}"
    );
    assert!(
        content.contains("- pub fn check_token(header: &str, token: &str) -> bool (line 12)"),
        "{content}"
    );
    assert!(top(&mut e, "kai", "where is the token checked?").contains("server/src/auth.rs"));
    // A camelCase name is found by its words.
    assert!(top(&mut e, "kai", "where do items get added to the cart").contains("web/src/cart.ts"));
    assert!(top(&mut e, "kai", "which script renders the sales report").contains("tools/report.py"));
}

/// A test names the function it tests as often as the file that defines it, and more: a
/// question about where something is finds the code first, and its test only when the
/// question asks about tests. `why` says the test file was weighed less.
#[test]
fn the_code_ranks_above_its_tests_unless_the_question_is_about_tests() {
    let (mut e, _) = engine();
    let test = json!({
        "path": "server/tests/auth.rs", "language": "rust", "lines": 90,
        "summary": "Checks check_token with a good token, a bad token and no token.",
        "symbols": [
            {"kind": "function", "name": "check_token_accepts_the_token", "signature": "fn check_token_accepts_the_token()", "line": 4},
            {"kind": "function", "name": "check_token_refuses_a_bad_token", "signature": "fn check_token_refuses_a_bad_token()", "line": 12},
            {"kind": "function", "name": "check_token_refuses_no_token", "signature": "fn check_token_refuses_no_token()", "line": 20}
        ]
    });
    ingest(&mut e, "kai", json!([auth_file(40), test]), false);
    let search = |e: &mut Engine, query: &str| {
        call(
            e,
            "search",
            json!({"entity_id": "kai", "query": query, "limit": 1}),
        )
        .unwrap()
    };
    let hits = search(&mut e, "where is the token checked? check_token");
    let first = hits[0]["memory"]["content"].as_str().unwrap();
    assert!(first.starts_with("server/src/auth.rs — "), "{hits}");
    assert!(
        hits[0]["why"].get("test_file_multiplier").is_none(),
        "{hits}"
    );
    let hits = search(&mut e, "where is check_token tested?");
    let first = hits[0]["memory"]["content"].as_str().unwrap();
    assert!(first.starts_with("server/tests/auth.rs — "), "{hits}");
    // Asked for more, the test comes after the code, saying why.
    let hits = call(
        &mut e,
        "search",
        json!({"entity_id": "kai", "query": "where is the token checked? check_token", "limit": 2}),
    )
    .unwrap();
    assert_eq!(hits[1]["why"]["test_file_multiplier"], 0.5, "{hits}");
}

#[test]
fn a_second_run_changes_only_what_changed() {
    let (mut e, _clock) = engine();
    ingest(&mut e, "kai", files(), false);
    let r = ingest(&mut e, "kai", files(), false);
    assert_eq!(
        (r["unchanged"].clone(), r["created"].clone()),
        (json!(3), json!(0)),
        "{r}"
    );
    let r = ingest(&mut e, "kai", json!([auth_file(55)]), false);
    assert_eq!(r["replaced"], 1, "{r}");
    let all = by_path(&mut e, "kai", "server/src/auth.rs");
    let statuses: Vec<&str> = all.iter().map(|m| m["status"].as_str().unwrap()).collect();
    assert_eq!(
        statuses.iter().filter(|s| **s == "active").count(),
        1,
        "{statuses:?}"
    );
    assert_eq!(
        statuses.iter().filter(|s| **s == "superseded").count(),
        1,
        "{statuses:?}"
    );
    let old = all.iter().find(|m| m["status"] == "superseded").unwrap();
    let history = call(
        &mut e,
        "status_history",
        json!({"entity_id": "kai", "id": old["id"]}),
    )
    .unwrap();
    assert!(history[0]["reason"]
        .as_str()
        .unwrap()
        .starts_with("codebase: server/src/auth.rs changed"));
}

#[test]
fn a_complete_run_invalidates_files_gone_and_they_come_back() {
    let (mut e, _clock) = engine();
    ingest(&mut e, "kai", files(), true);
    let fewer: Vec<Value> = files().as_array().unwrap()[..2].to_vec();
    let r = ingest(&mut e, "kai", json!(fewer), true);
    assert_eq!(r["gone"], 1, "{r}");
    let report = &by_path(&mut e, "kai", "tools/report.py")[0];
    assert_eq!(report["status"], "invalidated");
    let history = call(
        &mut e,
        "status_history",
        json!({"entity_id": "kai", "id": report["id"]}),
    )
    .unwrap();
    assert_eq!(
        history[0]["reason"],
        "drift: tools/report.py is gone from the workspace"
    );
    assert!(!top(&mut e, "kai", "sales report").contains("tools/report.py"));
    // Listed again as it was: the same memory is back.
    let r = ingest(&mut e, "kai", files(), true);
    assert_eq!(
        (r["restored"].clone(), r["created"].clone()),
        (json!(1), json!(0)),
        "{r}"
    );
    assert_eq!(
        by_path(&mut e, "kai", "tools/report.py")[0]["status"],
        "active"
    );
    // A report of drift restores it too.
    ingest(&mut e, "kai", json!(fewer), true);
    call(&mut e, "drift", json!({"entity_id": "kai", "paths": [{"path": "tools/report.py", "state": "file", "lines": 30}]})).unwrap();
    assert_eq!(
        by_path(&mut e, "kai", "tools/report.py")[0]["status"],
        "active"
    );
}

#[test]
fn the_layer_is_kept_apart_and_never_decays() {
    let (mut e, clock) = engine();
    ingest(&mut e, "kai", files(), false);
    let auth = by_path(&mut e, "kai", "server/src/auth.rs")[0]["id"].clone();
    // A note saying much the same is its own memory, not a duplicate of the file's.
    let r = call(&mut e, "seed", json!({"items": [{"entity_id": "kai", "content": "server/src/auth.rs — rust, 40 lines. Bearer tokens: how a request proves who sent it."}]})).unwrap();
    assert_eq!(r["outcomes"][0]["action"], "created", "{r}");
    for (method, args, field) in [
        (
            "seed",
            json!({"items": [{"entity_id": "kai", "content": "x", "layer": "codebase"}]}),
            "layer",
        ),
        (
            "set_layer",
            json!({"entity_id": "kai", "id": "mem_x", "layer": "codebase", "reason": "r"}),
            "",
        ),
        (
            "set_layer",
            json!({"entity_id": "kai", "id": auth, "layer": "semantic", "reason": "r"}),
            "layer",
        ),
    ] {
        let err = call(&mut e, method, args).unwrap_err();
        assert!(err.to_string().contains(field), "{err}");
    }
    clock.advance(800 * DAY_MS);
    call(&mut e, "consolidate", json!({})).unwrap();
    let m = call(&mut e, "get", json!({"entity_id": "kai", "id": auth})).unwrap();
    assert_eq!(
        (m["state"].clone(), m["status"].clone()),
        (json!("ACTIVE"), json!("active"))
    );
}

#[test]
fn owners_and_agents_do_not_see_each_others_code() {
    let (mut e, _clock) = engine();
    call(
        &mut e,
        "ingest_code",
        json!({"entity_id": "kai", "agent_id": "coder", "files": files()}),
    )
    .unwrap();
    assert_eq!(top(&mut e, "ana", "where is the token checked"), "");
    let other = call(
        &mut e,
        "search",
        json!({"entity_id": "kai", "agent_id": "reviewer", "query": "where is the token checked"}),
    )
    .unwrap();
    assert_eq!(
        other,
        json!([]),
        "another agent's private code memories stay its own"
    );
    let mine = call(
        &mut e,
        "search",
        json!({"entity_id": "kai", "agent_id": "coder", "query": "where is the token checked"}),
    )
    .unwrap();
    assert!(mine.to_string().contains("server/src/auth.rs"));
    // The reviewer ingesting the same tree has its own memories, and invalidates none of the coder's.
    let r = call(&mut e, "ingest_code", json!({"entity_id": "kai", "agent_id": "reviewer", "files": [auth_file(40)], "complete": true})).unwrap();
    assert_eq!(
        (r["created"].clone(), r["gone"].clone()),
        (json!(1), json!(0))
    );
    let mine = call(
        &mut e,
        "search",
        json!({"entity_id": "kai", "agent_id": "coder", "query": "monthly sales report"}),
    )
    .unwrap();
    assert!(mine.to_string().contains("tools/report.py"));
}

#[test]
fn bad_files_are_refused_by_name_and_write_nothing() {
    let (mut e, _clock) = engine();
    let file = |patch: Value| {
        let mut f = auth_file(40);
        for (k, v) in patch.as_object().unwrap() {
            f[k] = v.clone();
        }
        f
    };
    let many: Vec<Value> = (0..1001)
        .map(|i| file(json!({"path": format!("src/f{i}.rs")})))
        .collect();
    for (files, path) in [
        (json!([]), "files"),
        (json!(many), "files"),
        (json!([file(json!({"path": ""}))]), "files[0].path"),
        (
            json!([file(json!({"path": "../etc/passwd"}))]),
            "files[0].path",
        ),
        (
            json!([file(json!({"path": "/etc/passwd"}))]),
            "files[0].path",
        ),
        (json!([file(json!({"path": "a//b.rs"}))]), "files[0].path"),
        (json!([file(json!({"path": "a\\b.rs"}))]), "files[0].path"),
        (
            json!([file(json!({"path": "x/".repeat(600)}))]),
            "files[0].path",
        ),
        (json!([file(json!({})), file(json!({}))]), "files[1].path"),
        (
            json!([file(json!({"language": "Rust!"}))]),
            "files[0].language",
        ),
        (json!([file(json!({"language": ""}))]), "files[0].language"),
        (json!([file(json!({"lines": -1}))]), "files[0].lines"),
        (json!([file(json!({"lines": "40"}))]), "files[0].lines"),
        (
            json!([file(json!({"lines": 5}))]),
            "files[0].symbols[0].line",
        ),
        (
            json!([file(
                json!({"symbols": [{"kind": "function", "name": "f", "line": 0}]})
            )]),
            "files[0].symbols[0].line",
        ),
        (
            json!([file(
                json!({"symbols": [{"kind": "function", "name": " ", "line": 1}]})
            )]),
            "files[0].symbols[0].name",
        ),
        (
            json!([file(
                json!({"symbols": [{"kind": "function", "name": "a\nb", "line": 1}]})
            )]),
            "files[0].symbols[0].name",
        ),
        (
            json!([file(
                json!({"symbols": [{"kind": "lambda", "name": "f", "line": 1}]})
            )]),
            "files[0].symbols[0].kind",
        ),
        (json!([file(json!({"extra": 1}))]), "files[0]"),
    ] {
        refused(&mut e, files, path);
    }
    assert!(e
        .call_json(
            "ingest_code",
            r#"{"entity_id":"kai","files":[{"path":"a/b.rs","language":"rust","lines":NaN}]}"#
        )
        .is_err());
    nothing_written(&mut e);
    // Names of any script, and a path that looks like SQL, are just text.
    let r = ingest(
        &mut e,
        "kai",
        json!([
            file(
                json!({"path": "notas/reunião.py", "language": "python", "symbols": [{"kind": "function", "name": "análise", "line": 1}]})
            ),
            file(json!({"path": "'; DROP TABLE memories;--.rs", "symbols": []})),
        ]),
        false,
    );
    assert_eq!(r["created"], 2);
    assert!(top(&mut e, "kai", "análise").contains("reunião"));
}

const AUTH_RS: &str = "//! Bearer tokens: how a request proves who sent it.\n\npub struct Session;\n\nimpl Session {\n    pub fn user(&self) -> &str { \"\" }\n}\n\n/// Whether the header carries the token.\npub fn check_token(header: &str, token: &str) -> bool {\n    header == token\n}\n";

#[test]
fn a_file_sent_as_text_is_parsed_by_the_engine() {
    let (mut e, _clock) = engine();
    let r = ingest(
        &mut e,
        "kai",
        json!([
            {"path": "server/src/auth.rs", "text": AUTH_RS},
            {"path": "web/src/cart.tsx", "text": "/** The cart. */\nexport function Cart(p: Props) { return <ul>{p.items}</ul>; }\n"},
            {"path": "tools/Makefile.inc", "language": "python", "text": "def build():\n    pass\n"}
        ]),
        true,
    );
    assert_eq!(
        (r["created"].as_u64(), r["symbols"].as_u64()),
        (Some(3), Some(5)),
        "{r}"
    );
    let hit = top(&mut e, "kai", "where is the token checked?");
    for said in [
        "server/src/auth.rs — rust, 12 lines. Bearer tokens: how a request proves who sent it.",
        "- pub fn check_token(header: &str, token: &str) -> bool (line 10)",
        "- pub struct Session (line 3)",
        "- pub fn user(&self) -> &str (line 6)",
    ] {
        assert!(hit.contains(said), "{said:?} in {hit}");
    }
    assert!(top(&mut e, "kai", "the Cart component")
        .contains("web/src/cart.tsx — typescript, 2 lines. The cart."));
    assert!(top(&mut e, "kai", "build").contains("tools/Makefile.inc — python"));
    // Sent again, as text or as what it parses to, the file is unchanged.
    let again = ingest(
        &mut e,
        "kai",
        json!([{"path": "server/src/auth.rs", "text": AUTH_RS}]),
        false,
    );
    assert_eq!(again["unchanged"], 1, "{again}");
}

#[test]
fn bad_source_texts_are_refused_by_name_and_write_nothing() {
    let (mut e, _clock) = engine();
    let text = |path: &str, text: &str| json!({"path": path, "text": text});
    let big = "x".repeat(codebase::MAX_SOURCE_BYTES + 1);
    let with = |extra: Value| {
        let mut f = text("a.rs", "fn a() {}");
        for (k, v) in extra.as_object().unwrap() {
            f[k] = v.clone();
        }
        f
    };
    let heavy: Vec<Value> = (0..25)
        .map(|i| text(&format!("f{i}.rs"), &"/".repeat(1 << 20)))
        .collect();
    for (files, path, says) in [
        (
            json!([text("README.md", "# x")]),
            "files[0].language",
            "README.md's extension",
        ),
        (
            json!([with(json!({"language": "cobol"}))]),
            "files[0].language",
            "not cobol",
        ),
        (
            json!([with(json!({"language": "Rust"}))]),
            "files[0].language",
            "lower-case",
        ),
        (
            json!([with(
                json!({"symbols": [{"kind": "function", "name": "a", "line": 1}]})
            )]),
            "files[0].symbols",
            "not both",
        ),
        (
            json!([with(json!({"lines": 1}))]),
            "files[0].lines",
            "not both",
        ),
        (
            json!([with(json!({"summary": "A."}))]),
            "files[0].summary",
            "not both",
        ),
        (json!([text("a.rs", "fn a() {}\0")]), "files[0].text", "NUL"),
        (json!([text("a.rs", &big)]), "files[0].text", "over the"),
        (json!([with(json!({"text": 3}))]), "files[0].text", ""),
        (
            json!([with(json!({"text": null, "language": "rust"}))]),
            "files[0].lines",
            "required",
        ),
        (
            json!([{"path": "a.rs", "lines": 3}]),
            "files[0].language",
            "required",
        ),
        (json!([text("../a.rs", "")]), "files[0].path", ""),
        (json!(heavy), "files", "several calls"),
    ] {
        let err = refused(&mut e, files, path);
        assert!(err.to_string().contains(says), "{err} says {says}");
    }
    nothing_written(&mut e);
    // Unicode, an empty file and text that looks like an attack are only source.
    let r = ingest(
        &mut e,
        "kai",
        json!([
            text(
                "notas/reunião.py",
                "def análise():\n    \"\"\"'; DROP TABLE memories;--\"\"\"\n"
            ),
            text("empty.go", ""),
            text("broken.rs", "fn (((( {{{{ <script>"),
        ]),
        false,
    );
    assert_eq!(r["created"], 3, "{r}");
    assert!(top(&mut e, "kai", "análise").contains("- def análise() (line 1)"));
}
