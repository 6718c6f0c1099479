//! Drift detection: memories citing paths of the host's workspace are invalidated when a path
//! is gone (or a cited line is past its file's end), restored when it is back, left alone
//! when the host cannot tell; a host without a workspace is told so and gets the paths to
//! check, which it reports with `drift`, one owner at a time; bad reports change nothing.
mod common;

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::rc::Rc;

use common::*;
use mnemo_core::*;
use serde_json::{json, Value};

/// A host's workspace as a table the test edits between runs (the native host's is a real
/// directory: `host-native/tests/drift.rs`).
#[derive(Clone, Default)]
struct Listed(Rc<RefCell<BTreeMap<String, PathState>>>);

impl Listed {
    fn file(&self, path: &str, lines: u32) {
        self.0
            .borrow_mut()
            .insert(path.into(), PathState::File { lines: Some(lines) });
    }
    fn remove(&self, path: &str) {
        self.0.borrow_mut().remove(path);
    }
    fn unknown(&self, path: &str) {
        self.0.borrow_mut().insert(
            path.into(),
            PathState::Unknown {
                reason: "permission denied".into(),
            },
        );
    }
}

impl Workspace for Listed {
    fn states(&self, paths: &[String]) -> Option<Vec<PathState>> {
        let table = self.0.borrow();
        Some(
            paths
                .iter()
                .map(|p| table.get(p).cloned().unwrap_or(PathState::Missing))
                .collect(),
        )
    }
}

fn with_workspace() -> (Engine, ManualClock, Listed) {
    let clock = ManualClock::new(T0);
    let ws = Listed::default();
    let e = Engine::builder(clock.clone())
        .config(without_dedup())
        .workspace(ws.clone())
        .open_in_memory()
        .expect("open");
    (e, clock, ws)
}

fn call(e: &mut Engine, method: &str, args: Value) -> Result<Value> {
    e.call_json(method, &args.to_string())
        .map(|s| serde_json::from_str(&s).expect("json"))
}

fn note(e: &mut Engine, owner: &str, text: &str) -> String {
    let r = call(
        e,
        "seed",
        json!({"items": [{"entity_id": owner, "content": text}]}),
    )
    .unwrap();
    r["outcomes"][0]["id"].as_str().expect("id").to_string()
}

fn status(e: &mut Engine, owner: &str, id: &str) -> String {
    let m = call(e, "list", json!({"entity_id": owner, "ids": [id]})).unwrap();
    m["memories"][0]["status"]
        .as_str()
        .expect("status")
        .to_string()
}

/// The reason of a memory's last status change.
fn last_reason(e: &mut Engine, owner: &str, id: &str) -> String {
    let history = call(e, "status_history", json!({"entity_id": owner, "id": id})).unwrap();
    let last = history
        .as_array()
        .and_then(|h| h.last())
        .expect("a status change");
    last["reason"].as_str().expect("a reason").to_string()
}

fn drift_report(e: &mut Engine) -> Value {
    call(e, "consolidate", json!({})).unwrap()["consolidation"]["drift"].clone()
}

#[test]
fn a_gone_path_invalidates_and_its_return_restores() {
    let (mut e, _clock, ws) = with_workspace();
    ws.file("core/src/auth.rs", 120);
    ws.file("docs/API.md", 40);
    let auth = note(
        &mut e,
        "kai",
        "The token is checked in core/src/auth.rs:42 by check_token.",
    );
    let api = note(&mut e, "kai", "Every call is listed in docs/API.md.");
    let plain = note(&mut e, "kai", "Kai prefers tabs over spaces.");
    let r = drift_report(&mut e);
    assert_eq!(r["workspace"], true);
    assert_eq!(r["checked"], 2);
    assert_eq!(r["invalidated"], 0);

    ws.remove("core/src/auth.rs");
    let r = drift_report(&mut e);
    assert_eq!(r["invalidated"], 1, "{r}");
    assert_eq!(status(&mut e, "kai", &auth), "invalidated");
    assert_eq!(status(&mut e, "kai", &api), "active");
    assert_eq!(status(&mut e, "kai", &plain), "active");
    assert_eq!(
        last_reason(&mut e, "kai", &auth),
        "drift: core/src/auth.rs is gone from the workspace"
    );
    let hits = call(
        &mut e,
        "search",
        json!({"entity_id": "kai", "query": "where is the token checked"}),
    )
    .unwrap();
    assert!(
        !hits.to_string().contains(&auth),
        "an invalidated memory is not found: {hits}"
    );

    // Again with nothing changed: nothing more happens.
    let r = drift_report(&mut e);
    assert_eq!(
        (r["invalidated"].clone(), r["restored"].clone()),
        (json!(0), json!(0))
    );

    ws.file("core/src/auth.rs", 120);
    let r = drift_report(&mut e);
    assert_eq!(r["restored"], 1, "{r}");
    assert_eq!(status(&mut e, "kai", &auth), "active");
    assert_eq!(
        last_reason(&mut e, "kai", &auth),
        "drift: core/src/auth.rs back in the workspace"
    );
}

#[test]
fn a_line_past_the_end_is_a_dead_reference() {
    let (mut e, _clock, ws) = with_workspace();
    ws.file("src/lib.rs", 30);
    let id = note(&mut e, "kai", "The parser starts at src/lib.rs:42.");
    let fine = note(&mut e, "kai", "The lexer starts at src/lib.rs:12.");
    drift_report(&mut e);
    assert_eq!(status(&mut e, "kai", &id), "invalidated");
    assert_eq!(status(&mut e, "kai", &fine), "active");
    assert_eq!(
        last_reason(&mut e, "kai", &id),
        "drift: src/lib.rs has 30 lines, not 42"
    );
    // The file grows: the line is back.
    ws.file("src/lib.rs", 50);
    drift_report(&mut e);
    assert_eq!(status(&mut e, "kai", &id), "active");
}

#[test]
fn what_the_host_cannot_tell_changes_nothing() {
    let (mut e, _clock, ws) = with_workspace();
    ws.unknown("secret/keys.txt");
    let id = note(&mut e, "kai", "The keys are in secret/keys.txt.");
    let r = drift_report(&mut e);
    assert_eq!(r["unknown"], 1);
    assert_eq!(r["checked"], 0);
    assert_eq!(status(&mut e, "kai", &id), "active");
}

#[test]
fn an_invalidation_by_hand_is_not_undone() {
    let (mut e, _clock, ws) = with_workspace();
    let id = note(&mut e, "kai", "Build with scripts/build.sh.");
    drift_report(&mut e);
    assert_eq!(status(&mut e, "kai", &id), "invalidated");
    // The owner says it is wrong for another reason; the file coming back does not undo that.
    call(
        &mut e,
        "set_status",
        json!({"entity_id": "kai", "id": id, "status": "active", "reason": "checked"}),
    )
    .unwrap();
    call(&mut e, "set_status", json!({"entity_id": "kai", "id": id, "status": "invalidated", "reason": "the script was renamed"})).unwrap();
    ws.file("scripts/build.sh", 10);
    let r = drift_report(&mut e);
    assert_eq!(r["restored"], 0);
    assert_eq!(status(&mut e, "kai", &id), "invalidated");
}

#[test]
fn without_a_workspace_the_step_says_so_and_lists_the_paths() {
    let (mut e, _clock) = engine();
    let id = note(
        &mut e,
        "kai",
        "Config lives in config/app.toml and docs/setup.md:3.",
    );
    note(&mut e, "ana", "Ana's notes are in notes/ana.md.");
    let r = drift_report(&mut e);
    assert_eq!(r["workspace"], false);
    assert_eq!(r["checked"], 0);
    assert_eq!(
        r["wanted"],
        json!([
            {"entity_id": "ana", "paths": ["notes/ana.md"]},
            {"entity_id": "kai", "paths": ["config/app.toml", "docs/setup.md"]},
        ])
    );
    assert_eq!(status(&mut e, "kai", &id), "active");
}

#[test]
fn a_host_reports_what_it_found_for_one_owner() {
    let (mut e, _clock) = engine();
    let kai = note(&mut e, "kai", "Config lives in config/app.toml.");
    let ana = note(&mut e, "ana", "Ana keeps hers in config/app.toml too.");
    let r = call(
        &mut e,
        "drift",
        json!({"entity_id": "kai", "paths": [{"path": "config/app.toml", "state": "missing"}]}),
    )
    .unwrap();
    assert_eq!(r["invalidated"], 1);
    assert_eq!(status(&mut e, "kai", &kai), "invalidated");
    assert_eq!(
        status(&mut e, "ana", &ana),
        "active",
        "another owner's memory is not touched"
    );
    let r = call(&mut e, "drift", json!({"entity_id": "kai", "paths": [{"path": "config/app.toml", "state": "file", "lines": 3}]})).unwrap();
    assert_eq!(r["restored"], 1);
    assert_eq!(status(&mut e, "kai", &kai), "active");
    // Another owner's report cannot reach kai's memories.
    call(
        &mut e,
        "drift",
        json!({"entity_id": "ana", "paths": [{"path": "config/app.toml", "state": "missing"}]}),
    )
    .unwrap();
    assert_eq!(status(&mut e, "kai", &kai), "active");
    assert_eq!(status(&mut e, "ana", &ana), "invalidated");
}

#[test]
fn bad_reports_are_refused_and_change_nothing() {
    let (mut e, _clock) = engine();
    let id = note(&mut e, "kai", "Config lives in config/app.toml.");
    let many: Vec<Value> = (0..1001)
        .map(|i| json!({"path": format!("d/{i}.rs"), "state": "missing"}))
        .collect();
    let long = "a/".repeat(600) + "x.rs";
    for (args, path) in [
        (json!({"entity_id": "kai", "paths": []}), "paths"),
        (json!({"entity_id": "kai", "paths": many}), "paths"),
        (
            json!({"entity_id": "kai", "paths": [{"path": "", "state": "missing"}]}),
            "paths[0].path",
        ),
        (
            json!({"entity_id": "kai", "paths": [{"path": long, "state": "missing"}]}),
            "paths[0].path",
        ),
        (
            json!({"entity_id": "kai", "paths": [{"path": "a/b.rs", "state": "gone"}]}),
            "paths[0].state",
        ),
        (
            json!({"entity_id": "kai", "paths": [{"path": "a/b.rs", "state": "directory", "lines": 3}]}),
            "paths[0].lines",
        ),
        (
            json!({"entity_id": "kai", "paths": [{"path": "a/b.rs", "state": "file", "lines": -1}]}),
            "paths[0].lines",
        ),
        (
            json!({"entity_id": "kai", "paths": [{"path": "a/b.rs", "state": "file", "lines": "3"}]}),
            "paths[0].lines",
        ),
        (
            json!({"entity_id": "kai", "paths": [{"path": 7, "state": "file"}]}),
            "paths[0].path",
        ),
        (
            json!({"entity_id": "kai", "paths": [{"path": "config/app.toml", "state": "missing"}, {"path": "config/app.toml", "state": "file"}]}),
            "paths[1].path",
        ),
        (
            json!({"entity_id": "kai", "paths": [{"path": "a/b.rs", "state": "missing", "why": 1}]}),
            "paths[0]",
        ),
        (
            json!({"entity_id": "kai'; DROP TABLE memories;--", "paths": [{"path": "config/app.toml", "state": "missing"}]}),
            "entity_id",
        ),
        (
            json!({"paths": [{"path": "config/app.toml", "state": "missing"}]}),
            "entity_id",
        ),
    ] {
        let err = call(&mut e, "drift", args.clone()).expect_err(&args.to_string());
        assert_eq!(err.code(), "invalid_input", "{args}");
        assert!(err.to_string().contains(path), "{err} names {path}");
    }
    // NaN is no JSON: a host sending it is refused before the call.
    assert!(e
        .call_json(
            "drift",
            r#"{"entity_id":"kai","paths":[{"path":"a/b.rs","state":"file","lines":NaN}]}"#
        )
        .is_err());
    assert_eq!(status(&mut e, "kai", &id), "active");
    // A path of any script, and one no memory cites, are fine and change nothing else.
    let r = call(&mut e, "drift", json!({"entity_id": "kai", "paths": [{"path": "notas/reunião.md", "state": "missing"}, {"path": "'; DROP TABLE memories;--", "state": "missing"}]})).unwrap();
    assert_eq!(r["invalidated"], 0);
    assert_eq!(status(&mut e, "kai", &id), "active");
}

/// `server/src/auth.rs` for `ingest_code`, declaring `names`.
fn auth_file(names: &[&str]) -> Value {
    let symbols: Vec<Value> = names
        .iter()
        .enumerate()
        .map(|(i, n)| json!({"kind": "function", "name": n, "signature": format!("pub fn {n}(header: &str) -> bool"), "line": 3 + i}))
        .collect();
    json!({"entity_id": "kai", "files": [{"path": "server/src/auth.rs", "language": "rust", "lines": 40, "symbols": symbols}]})
}

/// The codebase layer reads `server/src/auth.rs` declaring `names`.
fn read(e: &mut Engine, names: &[&str]) {
    call(e, "ingest_code", auth_file(names)).unwrap();
}

#[test]
fn a_name_the_codebase_layer_no_longer_finds_in_its_file_is_a_dead_reference() {
    let (mut e, clock, ws) = with_workspace();
    ws.file("server/src/auth.rs", 40);
    let said = "The token is checked by `check_token` in server/src/auth.rs.";
    let claim = note(&mut e, "kai", said);
    // Lee says the same, with no codebase layer of his own.
    let lees = note(&mut e, "lee", said);
    // Before the codebase layer has read the file, the name cannot be checked.
    assert_eq!(drift_report(&mut e)["invalidated"], 0);

    clock.advance(DAY_MS);
    read(&mut e, &["check_token", "parse_header"]);
    assert_eq!(drift_report(&mut e)["invalidated"], 0, "declared");
    assert_eq!(status(&mut e, "kai", &claim), "active");

    // The function is renamed: the claim is dead, Lee's stays as it is.
    clock.advance(DAY_MS);
    read(&mut e, &["verify_token", "parse_header"]);
    // Said after that read: the layer has not seen the file since, so it cannot tell.
    let newer = note(
        &mut e,
        "kai",
        "`issue_token` in server/src/auth.rs makes a token.",
    );
    let r = drift_report(&mut e);
    assert_eq!(r["invalidated"], 1, "{r}");
    assert_eq!(status(&mut e, "kai", &claim), "invalidated");
    assert_eq!(
        last_reason(&mut e, "kai", &claim),
        "drift: `check_token` is no longer in server/src/auth.rs"
    );
    assert_eq!(status(&mut e, "kai", &newer), "active");
    assert_eq!(status(&mut e, "lee", &lees), "active");

    // Back under its old name: restored.
    clock.advance(DAY_MS);
    read(&mut e, &["check_token", "parse_header"]);
    assert_eq!(drift_report(&mut e)["restored"], 1);
    assert_eq!(status(&mut e, "kai", &claim), "active");
    // The newer claim is now checked too: the file, read since, does not declare issue_token.
    assert_eq!(status(&mut e, "kai", &newer), "invalidated");

    // An agent's own reading of the file judges only its own claims.
    clock.advance(DAY_MS);
    let mut spy = auth_file(&["parse_header"]);
    spy["agent_id"] = "spy".into();
    call(&mut e, "ingest_code", spy).unwrap();
    assert_eq!(drift_report(&mut e)["invalidated"], 0);
    assert_eq!(status(&mut e, "kai", &claim), "active");
}

/// A name cited with no file is checked against the codebase layer as a whole, with no
/// workspace: once a complete run after the memory finds no file declaring a name some file
/// declared when the memory was said. A name no file ever declared (a library, a flag) is
/// never checked; a name declared again restores the memory; another owner's or agent's
/// reading of the code judges nothing of the owner's.
#[test]
fn a_name_cited_alone_is_checked_against_the_whole_codebase_after_a_complete_run() {
    let clock = ManualClock::new(T0);
    let mut e = Engine::builder(clock.clone())
        .config(without_dedup())
        .open_in_memory()
        .expect("open");
    let complete = |e: &mut Engine, agent: Option<&str>, names: &[&str]| {
        let mut run = auth_file(names);
        run["complete"] = true.into();
        if let Some(a) = agent {
            run["agent_id"] = a.into();
        }
        call(e, "ingest_code", run).unwrap();
    };
    complete(&mut e, None, &["check_token", "parse_header"]);
    clock.advance(DAY_MS);
    let said = "Requests are authenticated by `check_token`.";
    let claim = note(&mut e, "kai", said);
    let library = note(&mut e, "kai", "We parse the body with `serde_json`.");
    let lees = note(&mut e, "lee", said);
    // No complete run since they were said: nothing can be told.
    assert_eq!(drift_report(&mut e)["invalidated"], 0);
    // A run that is not the whole tree renames it: still nothing told.
    clock.advance(DAY_MS);
    read(&mut e, &["verify_token", "parse_header"]);
    assert_eq!(drift_report(&mut e)["invalidated"], 0);
    assert_eq!(status(&mut e, "kai", &claim), "active");
    // The whole tree, read after the claim, declares it nowhere.
    clock.advance(DAY_MS);
    complete(&mut e, None, &["verify_token", "parse_header"]);
    let r = drift_report(&mut e);
    assert_eq!(r["invalidated"], 1, "{r}");
    assert_eq!(r["workspace"], false, "{r}");
    assert_eq!(status(&mut e, "kai", &claim), "invalidated");
    assert_eq!(
        last_reason(&mut e, "kai", &claim),
        "drift: `check_token` is no longer in the codebase"
    );
    assert_eq!(status(&mut e, "kai", &library), "active", "never declared");
    assert_eq!(status(&mut e, "lee", &lees), "active");
    // Declared again: restored.
    clock.advance(DAY_MS);
    complete(&mut e, None, &["verify_token", "check_token"]);
    assert_eq!(drift_report(&mut e)["restored"], 1);
    assert_eq!(status(&mut e, "kai", &claim), "active");
    assert_eq!(
        last_reason(&mut e, "kai", &claim),
        "drift: `check_token` back in the codebase"
    );
    // An agent's own complete reading, without it, judges only the agent's claims.
    clock.advance(DAY_MS);
    complete(&mut e, Some("spy"), &["parse_header"]);
    assert_eq!(drift_report(&mut e)["invalidated"], 0);
    assert_eq!(status(&mut e, "kai", &claim), "active");
}
