//! Many agents on one owner, over HTTP, proved by attack: `mnemo serve` on loopback, every read
//! route (Keyoku's REST routes and `/call/{method}`) asked by each caller — the owner, a team
//! member that wrote, its teammate, an agent outside the team — shows no text and no id of a
//! memory that caller may not see, and shows it what it may.
mod common;

use std::collections::BTreeMap;

use common::Server;
use serde_json::{json, Value};

/// The memories: key, the agent that wrote it, its visibility, whether it is the team's, what
/// it says (a word no other says).
const WRITTEN: &[(&str, Option<&str>, &str, bool, &str)] = &[
    (
        "alice_private",
        Some("alice"),
        "private",
        false,
        "The vault code is kumquat 4711",
    ),
    (
        "alice_team",
        Some("alice"),
        "team",
        true,
        "Deploy the rutabaga release on Friday",
    ),
    (
        "alice_global",
        Some("alice"),
        "global",
        false,
        "The office is near the quince market",
    ),
    (
        "carol_private",
        Some("carol"),
        "private",
        false,
        "Carol is allergic to persimmon",
    ),
    (
        "owner_private",
        None,
        "private",
        false,
        "The salary review settled on kiwano terms",
    ),
];

/// What each caller may see.
fn may_see(caller: Option<&str>) -> Vec<&'static str> {
    match caller {
        None => WRITTEN.iter().map(|w| w.0).collect(),
        Some("alice") => vec!["alice_private", "alice_team", "alice_global"],
        Some("bob") => vec!["alice_team", "alice_global"],
        Some("carol") => vec!["alice_global", "carol_private"],
        Some(other) => panic!("no caller {other}"),
    }
}

/// The owner's team (alice and bob) and the memories of [`WRITTEN`], made by `call`; their ids
/// by key.
fn populate(call: &dyn Fn(&str, Value) -> Value) -> BTreeMap<&'static str, String> {
    call(
        "team_create",
        json!({"entity_id": "acme", "name": "Platform", "id": "platform"}),
    );
    for member in ["alice", "bob"] {
        call(
            "team_member_add",
            json!({"entity_id": "acme", "team_id": "platform", "member_id": member}),
        );
    }
    let mut ids = BTreeMap::new();
    for (key, agent, visibility, team, content) in WRITTEN {
        let item = json!({"entity_id": "acme", "agent_id": agent, "visibility": visibility,
            "team_id": team.then_some("platform"), "content": content, "type": "PLAN",
            "expires_at": 4_102_444_800_000i64});
        let r = call("seed", json!({ "items": [item] }));
        let id = r["outcomes"][0]["id"].as_str().expect("created");
        ids.insert(*key, id.to_string());
    }
    ids
}

/// What memory `key` of [`WRITTEN`] says.
fn content_of(key: &str) -> &'static str {
    WRITTEN
        .iter()
        .find(|w| w.0 == key)
        .map(|w| w.4)
        .expect("a key of WRITTEN")
}

/// Fails with the leaks found, if any, and unless enough probes were made.
fn no_leaks(probes: usize, at_least: usize, leaks: &[String]) {
    assert!(probes >= at_least, "{probes} probes");
    assert!(
        leaks.is_empty(),
        "{} leaks of {probes} probes:\n{}",
        leaks.len(),
        leaks.join("\n")
    );
}

#[test]
fn every_http_read_route_shows_each_agent_only_what_it_may_see() {
    let s = Server::start("agents", None);
    let call = |method: &str, args: Value| {
        let (st, answer) = s.send("POST", &format!("/api/v1/call/{method}"), args.clone());
        assert_eq!(st, 200, "{method} {args}: {answer}");
        answer
    };
    let ids = populate(&call);
    // Searches returning every memory together link them by co-recall: `related` must not
    // follow a link into a memory its caller may not see.
    for _ in 0..3 {
        call(
            "search",
            json!({"entity_id": "acme", "min_score": 0, "limit": 10,
            "query": "vault rutabaga office quince persimmon salary kumquat kiwano"}),
        );
    }
    // Alice's private graph: a surname and a city only she and the owner may learn.
    call(
        "remember",
        json!({"entity_id": "acme", "agent_id": "alice", "visibility": "private",
            "content": "My sister Ana Souza lives in Lisbon."}),
    );
    let graph_secrets = ["Souza", "Lisbon"];

    let (mut probes, mut leaks) = (0, Vec::new());
    for caller in [None, Some("alice"), Some("bob"), Some("carol")] {
        let who = caller.map_or(String::new(), |a| format!("&agent_id={a}"));
        let body = |mut b: Value| {
            b["entity_id"] = json!("acme");
            if let Some(a) = caller {
                b["agent_id"] = json!(a);
            }
            b
        };
        let mut asked: Vec<(String, Option<&str>, u16, Value)> = Vec::new();
        let mut ask =
            |name: String, id: Option<&'static str>, method: &str, path: String, b: Value| {
                let (st, answer) = s.send(method, &path, b);
                asked.push((name, id, st, answer));
            };
        for (key, _, _, _, content) in WRITTEN {
            let b = body(json!({"query": content, "min_score": 0, "limit": 50}));
            ask(
                format!("POST /search {key}"),
                None,
                "POST",
                "/api/v1/search".into(),
                b,
            );
            let b = body(json!({"query": content, "min_score": 0, "team_aware": false}));
            ask(
                format!("POST /search not team-aware {key}"),
                None,
                "POST",
                "/api/v1/search".into(),
                b,
            );
            let b = body(json!({"query": content, "dry_run": true}));
            ask(
                format!("POST /heartbeat/context {key}"),
                None,
                "POST",
                "/api/v1/heartbeat/context".into(),
                b,
            );
            let id = &ids[key];
            ask(
                format!("GET /memories/{{id}} {key}"),
                Some(key),
                "GET",
                format!("/api/v1/memories/{id}?entity_id=acme{who}"),
                Value::Null,
            );
            ask(
                format!("GET /memories/{{id}}/history {key}"),
                Some(key),
                "GET",
                format!("/api/v1/memories/{id}/history?entity_id=acme{who}"),
                Value::Null,
            );
            ask(
                format!("POST /call/related {key}"),
                Some(key),
                "POST",
                "/api/v1/call/related".into(),
                body(json!({ "id": id })),
            );
        }
        for (name, path) in [
            ("GET /memories", "/api/v1/memories?limit=1000"),
            ("GET /memories/sample", "/api/v1/memories/sample?limit=1000"),
            ("GET /stats", "/api/v1/stats"),
            ("GET /export", "/api/v1/export"),
            ("GET /conflicts", "/api/v1/conflicts?limit=100"),
            ("GET /schedules", "/api/v1/schedules?all=true"),
            ("GET /scheduled", "/api/v1/scheduled"),
        ] {
            ask(
                name.into(),
                None,
                "GET",
                format!(
                    "{path}{}entity_id=acme{who}",
                    if path.contains('?') { '&' } else { '?' }
                ),
                Value::Null,
            );
        }
        ask(
            "POST /heartbeat/check".into(),
            None,
            "POST",
            "/api/v1/heartbeat/check".into(),
            body(json!({})),
        );
        ask(
            "POST /call/list".into(),
            None,
            "POST",
            "/api/v1/call/list".into(),
            body(json!({"ids": ids.values().collect::<Vec<_>>(), "limit": 1000})),
        );
        for (name, path) in [
            ("GET /graph/entities", "/api/v1/graph/entities"),
            ("GET /graph/relationships", "/api/v1/graph/relationships"),
        ] {
            ask(
                name.into(),
                None,
                "GET",
                format!("{path}?entity_id=acme{who}"),
                Value::Null,
            );
        }
        for (method, args) in [
            ("traverse", json!({"from": "user", "depth": 5})),
            ("path", json!({"from": "user", "to": "Lisbon"})),
            ("entities", json!({"query": "souza"})),
        ] {
            ask(
                format!("POST /call/{method}"),
                None,
                "POST",
                format!("/api/v1/call/{method}"),
                body(args),
            );
        }

        let may = may_see(caller);
        for (name, id_asked, status, answer) in &asked {
            assert!(
                *status == 200 || *status == 404,
                "{caller:?} {name}: {status} {answer}"
            );
            let text = answer.to_string();
            for (key, _, _, _, content) in WRITTEN {
                probes += 1;
                // A refusal repeats the id it was asked about: that shows nothing.
                let named = *status == 404 && id_asked == &Some(*key);
                let shown = text.contains(content) || (!named && text.contains(ids[key].as_str()));
                if shown && !may.contains(key) {
                    leaks.push(format!("{caller:?} {name} shows {key}"));
                }
            }
            for word in graph_secrets {
                probes += 1;
                let hers = matches!(caller, None | Some("alice"));
                if !hers && text.contains(word) {
                    leaks.push(format!("{caller:?} {name} shows {word}"));
                }
            }
        }
        // And each caller sees what it may, by get, list and search.
        for key in &may {
            let content = content_of(key);
            for route in [
                format!("GET /memories/{{id}} {key}"),
                "GET /memories".into(),
                format!("POST /search {key}"),
            ] {
                let (_, _, st, answer) = asked.iter().find(|a| a.0 == route).expect("asked");
                assert!(
                    answer.to_string().contains(content),
                    "{caller:?} {route}: {st} {answer}"
                );
            }
        }
        let stats = &asked.iter().find(|a| a.0 == "GET /stats").expect("stats").3;
        // Alice's graph sentence is one more memory for her and the owner.
        let graph = usize::from(matches!(caller, None | Some("alice")));
        assert_eq!(
            stats["total_memories"].as_u64().or(stats["total"].as_u64()),
            Some((may.len() + graph) as u64),
            "{caller:?}: {stats}"
        );
        let seen = &asked
            .iter()
            .find(|a| a.0 == "GET /graph/entities")
            .expect("graph")
            .3;
        assert_eq!(
            seen.to_string().contains("Lisbon"),
            graph == 1,
            "{caller:?}: {seen}"
        );
    }
    no_leaks(probes, 600, &leaks);
}

/// The same attack through the CLI (`mnemo call`, each call a new process on the store's
/// directory): every read call made for each caller shows no text or id of a memory, a
/// message or a graph name it may not see, and an agent's write to another's memory is refused.
#[test]
fn every_cli_read_shows_each_agent_only_what_it_may_see() {
    let data = Server::fresh("agents-cli");
    let run = |method: &str, args: Value| -> (bool, String) {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_mnemo"))
            .arg("--data")
            .arg(&data)
            .args([
                "--json",
                "--now",
                common::NOW,
                "--seed",
                "3",
                "call",
                method,
            ])
            .arg(args.to_string())
            .output()
            .expect("run mnemo");
        (
            out.status.success(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
        )
    };
    let ok = |method: &str, args: Value| -> Value {
        let (success, text) = run(method, args.clone());
        assert!(success, "{method} {args}: {text}");
        serde_json::from_str(&text).expect("JSON")
    };
    let ids = populate(&ok);
    // Alice's private graph and conversation: a surname, a city, a secret plan.
    ok(
        "remember",
        json!({"entity_id": "acme", "agent_id": "alice", "visibility": "private",
            "content": "My sister Ana Souza lives in Lisbon."}),
    );
    ok(
        "record_message",
        json!({"entity_id": "acme", "agent_id": "alice", "role": "user",
            "content": "Keep the zucchini plan between us"}),
    );
    let alices = ["Souza", "Lisbon", "zucchini"];
    let (mut probes, mut leaks) = (0, Vec::new());
    for caller in [None, Some("alice"), Some("bob"), Some("carol")] {
        let who = |mut args: Value| {
            args["entity_id"] = json!("acme");
            if let Some(a) = caller {
                args["agent_id"] = json!(a);
            }
            args
        };
        let mut asked: Vec<(String, Option<&str>, String)> = Vec::new();
        let everything = "vault rutabaga office quince persimmon salary kumquat kiwano Lisbon";
        for (method, args) in [
            (
                "search",
                json!({"query": everything, "min_score": 0, "limit": 50}),
            ),
            ("list", json!({"limit": 1000})),
            ("list", json!({ "ids": ids.values().collect::<Vec<_>>() })),
            ("sample", json!({"limit": 1000})),
            ("stats", json!({})),
            ("export", json!({})),
            ("conflicts", json!({})),
            ("schedules", json!({"all": true})),
            ("heartbeat_check", json!({"dry_run": true})),
            (
                "heartbeat_context",
                json!({"dry_run": true, "query": everything}),
            ),
            ("entities", json!({})),
            ("relationships", json!({})),
            ("messages", json!({})),
        ] {
            let (_, text) = run(method, who(args.clone()));
            asked.push((format!("{method} {args}"), None, text));
        }
        for (key, id) in &ids {
            for method in ["get", "status_history", "related"] {
                let (_, text) = run(method, who(json!({ "id": id })));
                asked.push((format!("{method} {key}"), Some(key), text));
            }
        }
        let may = may_see(caller);
        for (name, asking, text) in &asked {
            for (key, _, _, _, content) in WRITTEN {
                probes += 1;
                // A refusal repeats the id it was asked about: that shows nothing.
                let named = text.contains("\"error\"") && asking == &Some(*key);
                let shown = text.contains(content) || (!named && text.contains(ids[key].as_str()));
                if shown && !may.contains(key) {
                    leaks.push(format!("{caller:?} {name} shows {key}"));
                }
            }
            for word in alices {
                probes += 1;
                if text.contains(word) && !matches!(caller, None | Some("alice")) {
                    leaks.push(format!("{caller:?} {name} shows {word}"));
                }
            }
        }
        let listed = &asked
            .iter()
            .find(|a| a.0.starts_with("list {\"limit\""))
            .expect("list")
            .2;
        for key in &may {
            let content = content_of(key);
            assert!(listed.contains(content), "{caller:?} lists {key}: {listed}");
        }
    }
    // `--agent bob` acts as bob for every command: he lists what he may see, what he
    // remembers is his, another agent's id and the owner's calls are refused.
    let as_bob = |args: &[&str]| -> (bool, String) {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_mnemo"))
            .arg("--data")
            .arg(&data)
            .args(["--json", "--now", common::NOW, "--agent", "bob"])
            .args(args)
            .output()
            .expect("run mnemo");
        (
            out.status.success(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
        )
    };
    let (done, listed) = as_bob(&["list", "--entity", "acme", "--limit", "1000"]);
    assert!(done, "{listed}");
    for (key, _, _, _, content) in WRITTEN {
        assert_eq!(
            listed.contains(content),
            may_see(Some("bob")).contains(key),
            "bob lists {key}"
        );
    }
    assert!(
        !listed.contains("Souza") && !listed.contains("zucchini"),
        "{listed}"
    );
    let (done, said) = as_bob(&[
        "remember",
        "--entity",
        "acme",
        "The vault code is kumquat 4711",
    ]);
    assert!(done, "{said}");
    let (done, mine) = as_bob(&["list", "--entity", "acme", "--limit", "1000"]);
    assert!(
        done && mine.contains("kumquat") && mine.contains("\"agent_id\":\"bob\""),
        "{mine}"
    );
    let (done, text) = as_bob(&[
        "call",
        "search",
        r#"{"entity_id":"acme","agent_id":"alice","query":"vault"}"#,
    ]);
    assert!(!done && text.contains(r#"agent \"bob\" only"#), "{text}");
    let (done, text) = as_bob(&[
        "call",
        "team_member_add",
        r#"{"entity_id":"acme","team_id":"platform","member_id":"bob"}"#,
    ]);
    assert!(
        !done && text.contains("team_member_add is the owner's"),
        "{text}"
    );
    // Bob cannot change alice's team memory he sees, nor touch her private one.
    let (done, text) = run(
        "forget",
        json!({"entity_id": "acme", "agent_id": "bob", "id": ids["alice_team"]}),
    );
    assert!(!done && text.contains("not this agent's"), "{text}");
    let (done, text) = run(
        "pin",
        json!({"entity_id": "acme", "agent_id": "bob", "id": ids["alice_private"], "pinned": true}),
    );
    assert!(!done && text.contains("not_found"), "{text}");
    no_leaks(probes, 600, &leaks);
    println!("cli agent probes: {probes}, leaks: 0");
    let _ = std::fs::remove_dir_all(data);
}
