//! Drift detection through the real `mnemo` binary and a real directory: `--workspace DIR`
//! makes consolidation invalidate a memory whose cited file is deleted and restore it when the
//! file is back, over the CLI and over `serve`; what the host cannot or should not read (a
//! symbolic-link loop, a link out of the workspace, a binary or 50 MB file, a name that is not
//! UTF-8) changes nothing it should not; a workspace that is not there is a clear error; a
//! function renamed in a repository `mnemo ingest-code` reads invalidates what cites its old
//! name alone.

mod common;

use std::path::Path;
use std::process::Command;

use common::{Dir, Server};
use serde_json::{json, Value};

/// `mnemo --workspace W <args>` on `data`, parsed; panics unless it succeeded.
fn cli(data: &Path, ws: &Path, args: &[&str]) -> Value {
    let mut all = vec!["--workspace", ws.to_str().expect("utf-8 temp dir")];
    all.extend_from_slice(args);
    common::cli(data, &all)
}

fn seed(data: &Path, ws: &Path, text: &str) -> String {
    let r = cli(data, ws, &["seed", "--entity", "kai", text]);
    r["outcomes"][0]["id"].as_str().expect("id").to_string()
}

fn status(data: &Path, ws: &Path, id: &str) -> String {
    let m = cli(data, ws, &["get", "--entity", "kai", id]);
    m["status"].as_str().expect("status").to_string()
}

fn drift(data: &Path, ws: &Path) -> Value {
    cli(data, ws, &["consolidate"])["consolidation"]["drift"].clone()
}

#[test]
fn a_deleted_file_invalidates_what_cites_it_and_its_return_restores_it() {
    let (data, ws) = (Dir::new("drift-cli-data"), Dir::new("drift-cli-ws"));
    ws.write(
        "src/auth.rs",
        b"fn check_token() {}\n".repeat(50).as_slice(),
    );
    ws.write("docs/API.md", b"# API\n");
    let auth = seed(&data.0, &ws.0, "The token is checked in src/auth.rs:42.");
    let api = seed(&data.0, &ws.0, "Every call is in docs/API.md.");
    let r = drift(&data.0, &ws.0);
    assert_eq!(
        (r["workspace"].clone(), r["checked"].clone()),
        (json!(true), json!(2)),
        "{r}"
    );

    std::fs::remove_file(ws.0.join("src/auth.rs")).expect("rm");
    let r = drift(&data.0, &ws.0);
    assert_eq!(r["invalidated"], 1, "{r}");
    assert_eq!(status(&data.0, &ws.0, &auth), "invalidated");
    assert_eq!(status(&data.0, &ws.0, &api), "active");
    let history = cli(&data.0, &ws.0, &["history", "--entity", "kai", &auth]);
    assert_eq!(
        history[0]["reason"],
        "drift: src/auth.rs is gone from the workspace"
    );

    // Back, but shorter than the cited line: still dead. Long enough: restored.
    ws.write("src/auth.rs", b"fn check_token() {}\n");
    drift(&data.0, &ws.0);
    assert_eq!(status(&data.0, &ws.0, &auth), "invalidated");
    ws.write(
        "src/auth.rs",
        b"fn check_token() {}\n".repeat(60).as_slice(),
    );
    let r = drift(&data.0, &ws.0);
    assert_eq!(r["restored"], 1, "{r}");
    assert_eq!(status(&data.0, &ws.0, &auth), "active");
}

#[test]
fn without_a_workspace_consolidation_says_so() {
    let data = Dir::new("drift-none-data");
    common::cli(&data.0, &["seed", "--entity", "kai", "See src/main.rs."]);
    let r = common::cli(&data.0, &["consolidate"])["consolidation"]["drift"].clone();
    assert_eq!(r["workspace"], false);
    assert_eq!(
        r["wanted"],
        json!([{"entity_id": "kai", "paths": ["src/main.rs"]}])
    );
}

#[test]
fn a_workspace_that_is_not_there_is_refused_before_anything_runs() {
    let (data, ws) = (Dir::new("drift-bad-data"), Dir::new("drift-bad-ws"));
    ws.write("file.txt", b"x");
    for (dir, says) in [
        (ws.0.join("nope"), "no such directory"),
        (ws.0.join("file.txt"), "not a directory"),
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_mnemo"))
            .arg("--data")
            .arg(&data.0)
            .arg("--workspace")
            .arg(&dir)
            .args(["seed", "--entity", "kai", "x"])
            .output()
            .expect("run");
        assert!(!out.status.success());
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(says) && err.contains("--workspace"), "{err}");
    }
    assert!(!data.0.join("mnemo.db").exists(), "nothing was written");
}

#[test]
fn what_cannot_or_should_not_be_read_changes_nothing_it_should_not() {
    let (data, ws) = (Dir::new("drift-hostile-data"), Dir::new("drift-hostile-ws"));
    // A 50 MB source file: there, its lines not counted, so a cited line is not judged.
    let big = ws.0.join("src/big.rs");
    std::fs::create_dir_all(big.parent().unwrap()).unwrap();
    std::fs::File::create(&big)
        .unwrap()
        .set_len(50 << 20)
        .unwrap();
    ws.write("assets/logo.png", &[0x89, b'P', b'N', b'G', 0, 0, 1, 10]);
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        std::os::unix::fs::symlink(ws.0.join("loop/b"), ws.0.join("loop-a")).unwrap();
        std::fs::create_dir_all(ws.0.join("loop")).unwrap();
        std::os::unix::fs::symlink(ws.0.join("loop-a"), ws.0.join("loop/b")).unwrap();
        std::os::unix::fs::symlink("/etc", ws.0.join("etc")).unwrap();
        let odd = std::ffi::OsStr::from_bytes(b"src/caf\xe9.rs");
        std::fs::write(ws.0.join(odd), b"not utf-8 named\n").unwrap();
    }
    let ids: Vec<String> = [
        "The huge table is in src/big.rs:900000.",
        "The logo is assets/logo.png:3.",
        "Loops live in loop-a/x.rs.",
        "The hosts file is etc/hostname.txt.",
        "The host file is /etc/hostname.conf.",
    ]
    .iter()
    .map(|t| seed(&data.0, &ws.0, t))
    .collect();
    let r = drift(&data.0, &ws.0);
    assert_eq!(r["invalidated"], 0, "{r}");
    assert_eq!(r["unknown"], 3, "the loop and both ways out: {r}");
    for id in &ids {
        assert_eq!(status(&data.0, &ws.0, id), "active");
    }
    assert!(
        std::fs::metadata(&big).unwrap().len() == 50 << 20,
        "nothing was written"
    );
}

#[test]
fn serve_checks_the_same_workspace() {
    let ws = Dir::new("drift-serve-ws");
    ws.write("lib/util.py", b"def f():\n    pass\n");
    let ws_arg = ws.0.to_str().unwrap().to_string();
    let server = Server::start_with("drift-serve", Some("tok"), &["--workspace", &ws_arg], None);
    let (code, r) = server.send(
        "POST",
        "/api/v1/call/seed",
        json!({"items": [{"entity_id": "kai", "content": "Helpers are in lib/util.py."}]}),
    );
    assert_eq!(code, 200, "{r}");
    let id = r["outcomes"][0]["id"].as_str().unwrap().to_string();
    std::fs::remove_file(ws.0.join("lib/util.py")).unwrap();
    let (code, r) = server.send("POST", "/api/v1/call/consolidate", json!({}));
    assert_eq!(code, 200, "{r}");
    assert_eq!(r["consolidation"]["drift"]["invalidated"], 1, "{r}");
    let (_, m) = server.send(
        "POST",
        "/api/v1/call/get",
        json!({"entity_id": "kai", "id": id}),
    );
    assert_eq!(m["status"], "invalidated");
}

#[test]
fn an_mcp_agent_on_a_workspace_no_longer_finds_what_cites_a_deleted_file() {
    let (data, ws) = (Dir::new("drift-mcp-data"), Dir::new("drift-mcp-ws"));
    ws.write("src/auth.ts", b"export function checkToken() {}\n");
    let id = seed(
        &data.0,
        &ws.0,
        "The token is checked in src/auth.ts by checkToken.",
    );
    std::fs::remove_file(ws.0.join("src/auth.ts")).expect("rm");
    let out = common::node(
        "mcp-drift-client.mjs",
        &[
            env!("CARGO_BIN_EXE_mnemo").as_ref(),
            data.0.as_os_str(),
            ws.0.as_os_str(),
            id.as_ref(),
        ],
    );
    assert!(out.contains("\"ok\":true"), "{out}");
}

/// A name cited with no file, through the CLI as a user runs it: `mnemo ingest-code` reads the
/// repository whole; after the function is renamed and the repository read again, the memory
/// citing the old name is invalidated by consolidation (no workspace needed), and restored
/// when the name is back.
#[test]
fn a_renamed_function_invalidates_what_cites_it_by_name_alone() {
    let (data, repo) = (Dir::new("drift-name-data"), Dir::new("drift-name-repo"));
    // Each step a day after the one before.
    let at = |day: u32, args: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_mnemo"))
            .arg("--data")
            .arg(&data.0)
            .args(["--json", "--now", &format!("2026-03-{day:02}T09:00:00Z")])
            .args(args)
            .output()
            .expect("run mnemo");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        serde_json::from_slice::<Value>(&out.stdout).expect("json")
    };
    let repo_dir = repo.0.to_str().expect("utf-8").to_string();
    let read = |day: u32, name: &str| {
        repo.write(
            "src/auth.rs",
            format!("pub fn {name}(header: &str) -> bool {{\n    !header.is_empty()\n}}\n")
                .as_bytes(),
        );
        let r = at(day, &["ingest-code", "--entity", "kai", &repo_dir]);
        assert_eq!(r["files"], 1, "{r}");
    };
    read(1, "check_token");
    let said = at(
        2,
        &[
            "seed",
            "--entity",
            "kai",
            "Requests are authenticated by `check_token`.",
        ],
    );
    let id = said["outcomes"][0]["id"].as_str().expect("id").to_string();
    let drift = |day: u32| at(day, &["consolidate"])["consolidation"]["drift"].clone();
    assert_eq!(drift(3)["invalidated"], 0);
    read(4, "verify_token");
    let r = drift(5);
    assert_eq!(r["invalidated"], 1, "{r}");
    assert_eq!(
        at(5, &["get", "--entity", "kai", &id])["status"],
        "invalidated"
    );
    let history = at(5, &["history", "--entity", "kai", &id]);
    assert_eq!(
        history[0]["reason"],
        "drift: `check_token` is no longer in the codebase"
    );
    read(6, "check_token");
    assert_eq!(drift(7)["restored"], 1);
    assert_eq!(at(7, &["get", "--entity", "kai", &id])["status"], "active");
}
