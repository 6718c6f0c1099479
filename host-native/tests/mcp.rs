//! `mnemo mcp` driven by a real MCP client: the protocol's TypeScript SDK
//! (`@modelcontextprotocol/sdk`, installed by `npm ci`), over stdio and over streamable HTTP.
//! The client's session and its checks are in `mcp-client.mjs`.
mod common;

use std::path::Path;
use std::process::{Command, Stdio};

use common::Server;

/// A server process killed when the test ends, passed or not.
struct Killed(std::process::Child);

impl Drop for Killed {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Runs the client session; fails with what the client printed when it did not pass.
fn session(args: &[&str]) {
    let args: Vec<&std::ffi::OsStr> = args.iter().map(|a| a.as_ref()).collect();
    let out = common::node("mcp-client.mjs", &args);
    assert!(
        out.contains("\"ok\":true"),
        "the MCP client session failed:\n{out}"
    );
}

#[test]
fn an_mcp_client_uses_every_tool_over_stdio() {
    let data = Server::fresh("mcp-stdio");
    session(&["stdio", env!("CARGO_BIN_EXE_mnemo"), data.to_str().unwrap()]);
    // What the agent stored is in the store, for every other face.
    let out = Command::new(env!("CARGO_BIN_EXE_mnemo"))
        .args([
            "--data",
            data.to_str().unwrap(),
            "stats",
            "--entity",
            "ana",
            "--json",
        ])
        .output()
        .unwrap();
    let stats: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(stats["total"].as_u64().unwrap() >= 1, "{stats}");
    let _ = std::fs::remove_dir_all(data);
}

/// `mnemo call` on the store in `data`: its JSON answer.
fn call(data: &Path, method: &str, args: serde_json::Value) -> serde_json::Value {
    let out = Command::new(env!("CARGO_BIN_EXE_mnemo"))
        .args(["--data", data.to_str().unwrap(), "call", "--json", method])
        .arg(args.to_string())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{method}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn an_mcp_server_bound_to_an_agent_shows_it_only_what_it_may_see() {
    use serde_json::json;
    let data = Server::fresh("mcp-agent");
    call(
        &data,
        "team_create",
        json!({"entity_id": "acme", "name": "Platform", "id": "platform"}),
    );
    for agent in ["alice", "bob"] {
        let member = json!({"entity_id": "acme", "team_id": "platform", "member_id": agent});
        call(&data, "team_member_add", member);
    }
    let mut ids = serde_json::Map::new();
    for (key, agent, team, visibility, content) in [
        (
            "alice_private",
            Some("alice"),
            None,
            "private",
            "The vault code is kumquat 4711",
        ),
        (
            "alice_team",
            Some("alice"),
            Some("platform"),
            "team",
            "Deploy the rutabaga release on Friday",
        ),
        (
            "alice_global",
            Some("alice"),
            None,
            "global",
            "The office is near the quince market",
        ),
        (
            "carol_private",
            Some("carol"),
            None,
            "private",
            "Carol is allergic to persimmon",
        ),
        (
            "owner_private",
            None,
            None,
            "private",
            "The salary review settled on kiwano terms",
        ),
    ] {
        let item = json!({"entity_id": "acme", "agent_id": agent, "team_id": team,
            "visibility": visibility, "content": content, "type": "PLAN"});
        let r = call(&data, "seed", json!({"items": [item]}));
        ids.insert(key.into(), r["outcomes"][0]["id"].clone());
    }
    // The graph: alice's private sentence names a surname and a city bob must not learn.
    for (visibility, team, content) in [
        ("private", None, "My sister Ana Souza lives in Lisbon."),
        ("team", Some("platform"), "My sister Ana lives in Porto."),
    ] {
        let args = json!({"entity_id": "acme", "agent_id": "alice", "team_id": team,
            "visibility": visibility, "content": content});
        call(&data, "remember", args);
    }
    let out = Command::new("node")
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/mcp-agent-client.mjs"))
        .args([env!("CARGO_BIN_EXE_mnemo"), data.to_str().unwrap()])
        .arg(serde_json::Value::Object(ids).to_string())
        .output()
        .expect("node runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success() && stdout.contains("\"leaks\":0"),
        "the agent's MCP session failed:\n{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let _ = std::fs::remove_dir_all(data);
}

#[test]
fn an_mcp_server_bound_to_one_owner_takes_no_entity_id() {
    let data = Server::fresh("mcp-bound");
    session(&[
        "stdio-bound",
        env!("CARGO_BIN_EXE_mnemo"),
        data.to_str().unwrap(),
    ]);
    let _ = std::fs::remove_dir_all(data);
}

#[test]
fn an_mcp_client_works_over_streamable_http_behind_the_token() {
    let data = Server::fresh("mcp-http");
    let mut server = Killed(
        Command::new(env!("CARGO_BIN_EXE_mnemo"))
            .args([
                "--data",
                data.to_str().unwrap(),
                "mcp",
                "--http",
                "--port",
                "0",
            ])
            .env("MNEMO_TOKEN", "mcp-token")
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap(),
    );
    let server = &mut server.0;
    let line = common::banner(server);
    let url = line
        .trim()
        .strip_prefix("mnemo: serving MCP at ")
        .unwrap_or_else(|| panic!("unexpected banner {line:?}"))
        .to_string();
    session(&["http", &url, "mcp-token"]);
    // Without the token, or with another, nothing is served.
    let no = Command::new("node")
        .args([
            "--input-type=module",
            "-e",
            &format!(
                "const r = await fetch('{url}', {{method: 'POST', headers: {{'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: 'Bearer nope'}}, body: '{{}}'}}); console.log(r.status)"
            ),
        ])
        .output()
        .unwrap();
    assert_eq!(String::from_utf8_lossy(&no.stdout).trim(), "401");
    // SIGTERM: the server closes the store and exits cleanly.
    unsafe { libc::kill(server.id() as i32, libc::SIGTERM) };
    assert!(server.wait().unwrap().success());
    let _ = std::fs::remove_dir_all(data);
}

/// An agent asking over MCP about "my sister" gets what the user said of her by name, and is
/// told whom the relation named; another owner's agent asking the same is told of no one.
#[test]
fn an_mcp_search_follows_a_relation_the_question_names() {
    let data = common::Dir::new("mcp-hop");
    for (owner, said) in [
        ("kim", "My sister Ana is a nurse."),
        ("kim", "Ana lives in Lisbon now."),
        ("kim", "I live in Porto."),
        ("lee", "Ana lives in Lisbon now."),
    ] {
        common::cli(&data.0, &["remember", "--entity", owner, said]);
    }
    let ask = |owner: &str| -> Vec<serde_json::Value> {
        let args: Vec<&std::ffi::OsStr> = [
            env!("CARGO_BIN_EXE_mnemo"),
            data.0.to_str().unwrap(),
            owner,
            "Which city does my sister live in?",
        ]
        .into_iter()
        .map(|a| a.as_ref())
        .collect();
        serde_json::from_str(&common::node("mcp-search-client.mjs", &args)).expect("json hits")
    };
    let kim = ask("kim");
    assert_eq!(kim[0]["content"], "Ana lives in Lisbon now.", "{kim:?}");
    assert_eq!(
        kim[0]["why"]["hop"],
        serde_json::json!({"phrase": "my sister", "entity": "Ana"}),
        "{kim:?}"
    );
    // Only hits naming Ana were found through her; the user's own city ranks below hers.
    for h in &kim {
        let names_ana = h["content"].as_str().is_some_and(|c| c.contains("Ana"));
        assert_eq!(h["why"].get("hop").is_some(), names_ana, "{kim:?}");
    }
    // Lee said nothing of a sister: the same memory, found by its words only, names no one.
    let lee = ask("lee");
    assert!(lee.iter().all(|h| h["why"].get("hop").is_none()), "{lee:?}");
}
