//! Many agents on one owner's store, proved by attack: every read call, made for each agent
//! (a team member, a teammate, an agent outside the team, an ex-member) and for the owner,
//! returns exactly the memories that caller may see — its own, `global` ones, and `team` ones
//! of its teams — and no text or id of any other; an agent changes only its own memories;
//! dedup and conflicts never cross from one agent's memory to another's.
mod common;

use std::collections::BTreeMap;

use common::*;
use mnemo_core::*;
use serde_json::{json, Value};

/// Runs a call, its answer as JSON text, or the error's code and message.
fn call(e: &mut Engine, method: &str, args: Value) -> Result<String, (String, String)> {
    e.call_json(method, &args.to_string())
        .map_err(|err| (err.code().to_string(), err.to_string()))
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

fn ok(e: &mut Engine, method: &str, args: Value) -> Value {
    let text = call(e, method, args.clone())
        .unwrap_or_else(|(code, m)| panic!("{method} {args}: {code}: {m}"));
    serde_json::from_str(&text).expect("JSON")
}

/// A memory of the scenario: what it says (a word no other says), and who wrote it how.
struct Written {
    key: &'static str,
    content: &'static str,
    agent: Option<&'static str>,
    visibility: &'static str,
    team: Option<&'static str>,
}

const WRITTEN: &[Written] = &[
    Written {
        key: "alice_private",
        content: "The vault code is kumquat 4711",
        agent: Some("alice"),
        visibility: "private",
        team: None,
    },
    Written {
        key: "alice_team",
        content: "Deploy the rutabaga release on Friday",
        agent: Some("alice"),
        visibility: "team",
        team: Some("$team"),
    },
    Written {
        key: "alice_global",
        content: "The office moved to Porto near the quince market",
        agent: Some("alice"),
        visibility: "global",
        team: None,
    },
    Written {
        key: "carol_private",
        content: "Carol is allergic to persimmon and peanuts",
        agent: Some("carol"),
        visibility: "private",
        team: None,
    },
    Written {
        key: "owner_private",
        content: "The salary review settled on kiwano terms",
        agent: None,
        visibility: "private",
        team: None,
    },
];

/// Who may see which memory: the rule, written out for each caller.
fn expected(caller: Option<&str>) -> Vec<&'static str> {
    match caller {
        None => WRITTEN.iter().map(|w| w.key).collect(),
        Some("alice") => vec!["alice_private", "alice_team", "alice_global"],
        Some("bob") => vec!["alice_team", "alice_global"],
        Some("carol") => vec!["alice_global", "carol_private"],
        Some("dave") => vec!["alice_global"],
        Some(other) => panic!("no caller {other}"),
    }
}

/// The store of the scenario: a team (alice, bob; dave joined and left), the memories, and
/// their ids by key.
fn scenario() -> (Engine, ManualClock, String, BTreeMap<&'static str, String>) {
    let (mut e, clock) = engine();
    let team = ok(
        &mut e,
        "team_create",
        json!({"entity_id": "acme", "name": "Platform"}),
    );
    let team = team["id"].as_str().expect("team id").to_string();
    for agent in ["alice", "bob", "dave"] {
        ok(
            &mut e,
            "team_member_add",
            json!({"entity_id": "acme", "team_id": team, "member_id": agent}),
        );
    }
    ok(
        &mut e,
        "team_member_remove",
        json!({"entity_id": "acme", "team_id": team, "member_id": "dave"}),
    );
    let mut ids = BTreeMap::new();
    for w in WRITTEN {
        let mut item = json!({
            "entity_id": "acme", "content": w.content, "visibility": w.visibility,
            "type": "PLAN", "expires_at": T0 + 3_600_000,
        });
        if let Some(a) = w.agent {
            item["agent_id"] = json!(a);
        }
        if w.team.is_some() {
            item["team_id"] = json!(team);
        }
        let r = ok(&mut e, "seed", json!({ "items": [item] }));
        let id = r["outcomes"][0]["id"]
            .as_str()
            .expect("created")
            .to_string();
        ids.insert(w.key, id);
    }
    // Two searches return every memory together, so each is linked to the others by
    // co-recall (`related` must not follow a link into a memory the caller may not see).
    clock.advance(60_000);
    for _ in 0..3 {
        ok(
            &mut e,
            "search",
            json!({"entity_id": "acme", "query": "vault rutabaga Porto persimmon salary kumquat quince kiwano", "limit": 10, "min_score": 0.0}),
        );
    }
    (e, clock, team, ids)
}

/// Every read call a caller can make, each answer as text.
fn reads(
    e: &mut Engine,
    caller: Option<&str>,
    ids: &BTreeMap<&str, String>,
) -> Vec<(String, String)> {
    let who = |mut args: Value| {
        args["entity_id"] = json!("acme");
        if let Some(a) = caller {
            args["agent_id"] = json!(a);
        }
        args
    };
    let mut out = Vec::new();
    let mut read = |e: &mut Engine, name: String, method: &str, args: Value| {
        let text = match call(e, method, who(args)) {
            Ok(t) => t,
            Err((code, m)) => format!("error {code}: {m}"),
        };
        out.push((name, text));
    };
    for w in WRITTEN {
        let words = w.content;
        read(
            e,
            format!("search {}", w.key),
            "search",
            json!({"query": words, "min_score": 0.0, "limit": 50}),
        );
        read(
            e,
            format!("search own {}", w.key),
            "search",
            json!({"query": words, "min_score": 0.0, "team_aware": false}),
        );
        // A time window (read whole, never through the vector lists) and a span the
        // question names ("today"), which searches inside it first.
        read(
            e,
            format!("search window {}", w.key),
            "search",
            json!({"query": words, "min_score": 0.0, "after": T0 - 3_600_000, "before": T0 + 3_600_000}),
        );
        read(
            e,
            format!("search today {}", w.key),
            "search",
            json!({"query": format!("{words} today"), "min_score": 0.0, "limit": 50}),
        );
        read(
            e,
            format!("heartbeat_context {}", w.key),
            "heartbeat_context",
            json!({"query": words, "dry_run": true}),
        );
    }
    for (key, id) in ids {
        read(e, format!("get {key}"), "get", json!({ "id": id }));
        read(
            e,
            format!("status_history {key}"),
            "status_history",
            json!({ "id": id }),
        );
        read(e, format!("related {key}"), "related", json!({ "id": id }));
    }
    read(
        e,
        "list".into(),
        "list",
        json!({"limit": 1000, "states": ["ACTIVE", "STALE", "ARCHIVED", "DELETED"]}),
    );
    read(
        e,
        "list by ids".into(),
        "list",
        json!({"ids": ids.values().collect::<Vec<_>>()}),
    );
    read(e, "sample".into(), "sample", json!({"limit": 1000}));
    read(e, "export".into(), "export", json!({}));
    read(e, "stats".into(), "stats", json!({}));
    read(
        e,
        "heartbeat_check".into(),
        "heartbeat_check",
        json!({"dry_run": true}),
    );
    read(e, "conflicts".into(), "conflicts", json!({}));
    read(e, "schedules".into(), "schedules", json!({"all": true}));
    out
}

#[test]
fn every_read_shows_each_caller_exactly_what_it_may_see() {
    let (mut e, _clock, _team, ids) = scenario();
    let (mut probes, mut leaks) = (0, Vec::new());
    for caller in [
        None,
        Some("alice"),
        Some("bob"),
        Some("carol"),
        Some("dave"),
    ] {
        let may = expected(caller);
        let answers = reads(&mut e, caller, &ids);
        for (name, text) in &answers {
            for w in WRITTEN {
                probes += 1;
                // A refusal repeats the id asked for: that shows nothing.
                let asked = name.ends_with(&format!(" {}", w.key)) && text.starts_with("error ");
                let shown =
                    text.contains(w.content) || (!asked && text.contains(ids[w.key].as_str()));
                if shown && !may.contains(&w.key) {
                    leaks.push(format!("{caller:?} {name}: shows {}", w.key));
                }
            }
        }
        // And each caller does see what it may: by get, list and search.
        let find = |name: &str| &answers.iter().find(|(n, _)| n == name).expect(name).1;
        for key in &may {
            let content = WRITTEN
                .iter()
                .find(|w| &w.key == key)
                .map(|w| w.content)
                .unwrap();
            assert!(
                find(&format!("get {key}")).contains(content),
                "{caller:?} get {key}"
            );
            assert!(find("list").contains(content), "{caller:?} list {key}");
            assert!(
                find(&format!("search {key}")).contains(content),
                "{caller:?} search {key}"
            );
            assert!(find("export").contains(content), "{caller:?} export {key}");
            for read in ["search window", "search today"] {
                assert!(
                    find(&format!("{read} {key}")).contains(content),
                    "{caller:?} {read} {key}"
                );
            }
        }
        let stats: Value = serde_json::from_str(find("stats")).expect("stats");
        assert_eq!(
            stats["total"],
            may.len(),
            "{caller:?} stats count what it sees"
        );
        let vectors: u64 = (stats["by_precision"].as_object().expect("by_precision"))
            .values()
            .filter_map(Value::as_u64)
            .sum();
        assert_eq!(
            vectors,
            may.len() as u64,
            "{caller:?} stats count the vectors it sees"
        );
        let total: Value = serde_json::from_str(find("list")).expect("list");
        assert_eq!(total["total"], may.len(), "{caller:?} list total");
        // Not team-aware: the agent's own memories only.
        if let Some(agent) = caller {
            let own = find("search own alice_global");
            let alices = agent == "alice";
            assert_eq!(
                own.contains("quince market"),
                alices,
                "{caller:?} own search"
            );
        }
    }
    no_leaks(probes, 1200, &leaks);
}

#[test]
fn an_agent_changes_only_its_own_memories() {
    let (mut e, _clock, _team, ids) = scenario();
    let before = ok(&mut e, "export", json!({"entity_id": "acme"}));
    for method in ["forget", "reinforce", "demote"] {
        for key in [
            "alice_team",
            "alice_global",
            "alice_private",
            "owner_private",
        ] {
            let args = json!({"entity_id": "acme", "agent_id": "bob", "id": ids[key]});
            let (code, _) = call(&mut e, method, args).expect_err("refused");
            let seen = expected(Some("bob")).contains(&key);
            assert_eq!(
                code,
                if seen { "invalid_input" } else { "not_found" },
                "{method} {key}"
            );
        }
    }
    let patch = json!({"entity_id": "acme", "agent_id": "bob", "id": ids["alice_team"], "patch": {"content": "Deploy nothing"}});
    assert_eq!(
        call(&mut e, "update", patch).unwrap_err().0,
        "invalid_input"
    );
    let pin = json!({"entity_id": "acme", "agent_id": "carol", "id": ids["alice_private"], "pinned": true});
    assert_eq!(call(&mut e, "pin", pin).unwrap_err().0, "not_found");
    let status = json!({"entity_id": "acme", "agent_id": "bob", "id": ids["alice_global"], "status": "invalidated", "reason": "no"});
    assert_eq!(
        call(&mut e, "set_status", status).unwrap_err().0,
        "invalid_input"
    );
    for key in [
        "alice_team",
        "alice_global",
        "alice_private",
        "owner_private",
    ] {
        let layer = json!({"entity_id": "acme", "agent_id": "bob", "id": ids[key], "layer": "procedural", "reason": "mine now"});
        let seen = expected(Some("bob")).contains(&key);
        assert_eq!(
            call(&mut e, "set_layer", layer).unwrap_err().0,
            if seen { "invalid_input" } else { "not_found" },
            "set_layer {key}"
        );
    }
    // Forgetting everything, bob forgets his own: none.
    let all = ok(
        &mut e,
        "forget_all",
        json!({"entity_id": "acme", "agent_id": "bob"}),
    );
    assert_eq!(all["forgotten"], 0);
    assert_eq!(
        ok(&mut e, "export", json!({"entity_id": "acme"})),
        before,
        "nothing changed"
    );
    // Alice changes hers.
    let args = json!({"entity_id": "acme", "agent_id": "alice", "id": ids["alice_team"]});
    assert_eq!(ok(&mut e, "reinforce", args)["feedback"], 3);
    let all = ok(
        &mut e,
        "forget_all",
        json!({"entity_id": "acme", "agent_id": "alice"}),
    );
    assert_eq!(all["forgotten"], 3);
    let left = ok(&mut e, "list", json!({"entity_id": "acme"}));
    assert_eq!(left["total"], 2, "carol's and the owner's stay");
}

#[test]
fn saying_what_another_agent_keeps_private_makes_ones_own_memory() {
    let (mut e, _clock, team, ids) = scenario();
    // Bob says word for word what Alice keeps private: his own memory, hers untouched.
    let r = ok(
        &mut e,
        "seed",
        json!({"items": [{"entity_id": "acme", "agent_id": "bob", "visibility": "private", "content": "The vault code is kumquat 4711"}]}),
    );
    assert_eq!(r["outcomes"][0]["action"], "created", "{r}");
    assert_ne!(r["outcomes"][0]["id"], json!(ids["alice_private"]));
    // Said again by Bob, it is Bob's duplicate.
    let again = ok(
        &mut e,
        "seed",
        json!({"items": [{"entity_id": "acme", "agent_id": "bob", "visibility": "private", "content": "The vault code is kumquat 4711"}]}),
    );
    assert_eq!(again["outcomes"][0]["action"], "skipped");
    assert_eq!(again["outcomes"][0]["existing"], r["outcomes"][0]["id"]);
    // A contradiction by Carol of Alice's global note does not supersede it.
    let said = ok(
        &mut e,
        "remember",
        json!({"entity_id": "acme", "agent_id": "carol", "content": "The office did not move to Porto near the quince market"}),
    );
    assert!(
        said["outcomes"]
            .as_array()
            .unwrap()
            .iter()
            .all(|o| o["action"] != "conflict"),
        "{said}"
    );
    let alice = ok(
        &mut e,
        "get",
        json!({"entity_id": "acme", "id": ids["alice_global"]}),
    );
    assert_eq!(alice["status"], "active");
    // The same words for the team by Bob are the team's, not Alice's private ones.
    let shared = ok(
        &mut e,
        "seed",
        json!({"items": [{"entity_id": "acme", "agent_id": "bob", "team_id": team, "content": "The vault code is kumquat 4711"}]}),
    );
    assert_eq!(shared["outcomes"][0]["action"], "created");
    let got = ok(
        &mut e,
        "get",
        json!({"entity_id": "acme", "id": shared["outcomes"][0]["id"]}),
    );
    assert_eq!(got["visibility"], "team", "the team's default visibility");
}

#[test]
fn teams_refuse_bad_requests_and_change_nothing() {
    let (mut e, _clock, team, _ids) = scenario();
    let before = ok(
        &mut e,
        "team_members",
        json!({"entity_id": "acme", "team_id": team}),
    );
    let refused = [
        (
            "team_get",
            json!({"entity_id": "acme", "team_id": "no-such-team"}),
            "not_found",
        ),
        (
            "team_get",
            json!({"entity_id": "other", "team_id": team}),
            "not_found",
        ),
        (
            "team_member_add",
            json!({"entity_id": "other", "team_id": team, "member_id": "eve"}),
            "not_found",
        ),
        (
            "team_member_add",
            json!({"entity_id": "acme", "team_id": team, "member_id": "alice"}),
            "invalid_input",
        ),
        (
            "team_member_add",
            json!({"entity_id": "acme", "team_id": team, "member_id": "eve; DROP TABLE teams"}),
            "invalid_input",
        ),
        (
            "team_member_add",
            json!({"entity_id": "acme", "team_id": team, "member_id": "Ána"}),
            "invalid_input",
        ),
        (
            "team_member_add",
            json!({"entity_id": "acme", "team_id": team, "member_id": "eve", "role": "owner"}),
            "invalid_input",
        ),
        (
            "team_member_remove",
            json!({"entity_id": "acme", "team_id": team, "member_id": "zed"}),
            "invalid_input",
        ),
        (
            "team_create",
            json!({"entity_id": "acme", "name": ""}),
            "invalid_input",
        ),
        (
            "team_create",
            json!({"entity_id": "acme", "name": "x".repeat(201)}),
            "invalid_input",
        ),
        (
            "team_create",
            json!({"entity_id": "acme", "name": "A", "default_visibility": "public"}),
            "invalid_input",
        ),
        (
            "team_create",
            json!({"entity_id": "acme", "name": 5}),
            "invalid_input",
        ),
        (
            "team_create",
            json!({"entity_id": "acme", "name": "A\u{0}B"}),
            "invalid_input",
        ),
        (
            "team_create",
            json!({"entity_id": "acme", "name": "A", "description": "x\u{0}"}),
            "invalid_input",
        ),
        (
            "seed",
            json!({"items": [{"entity_id": "acme", "content": "x", "team_id": "no-such-team"}]}),
            "invalid_input",
        ),
        (
            "seed",
            json!({"items": [{"entity_id": "acme", "content": "x", "agent_id": "carol", "team_id": team}]}),
            "invalid_input",
        ),
        (
            "seed",
            json!({"items": [{"entity_id": "acme", "content": "x", "visibility": "team"}]}),
            "invalid_input",
        ),
        (
            "seed",
            json!({"items": [{"entity_id": "acme", "content": "x", "visibility": "everyone"}]}),
            "invalid_input",
        ),
        (
            "seed",
            json!({"items": [{"entity_id": "other", "content": "x", "team_id": team}]}),
            "invalid_input",
        ),
        (
            "search",
            json!({"entity_id": "acme", "agent_id": "", "query": "x"}),
            "invalid_input",
        ),
        (
            "search",
            json!({"entity_id": "acme", "agent_id": "a b", "query": "x"}),
            "invalid_input",
        ),
        (
            "heartbeat_check",
            json!({"entity_id": "acme", "agent_id": "carol", "team_id": team}),
            "invalid_input",
        ),
        (
            "heartbeat_check",
            json!({"entity_id": "acme", "team_id": "no-such-team"}),
            "invalid_input",
        ),
        (
            "entities",
            json!({"entity_id": "acme", "agent_id": "b\0b"}),
            "invalid_input",
        ),
        (
            "path",
            json!({"entity_id": "acme", "agent_id": 7, "from": "a", "to": "b"}),
            "invalid_input",
        ),
        ("sample", json!({"agent_id": "bob"}), "invalid_input"),
    ];
    for (method, args, code) in refused {
        let err = call(&mut e, method, args.clone()).expect_err("refused");
        assert_eq!(err.0, code, "{method} {args}: {}", err.1);
    }
    // The last member stays: delete the team instead.
    ok(
        &mut e,
        "team_member_remove",
        json!({"entity_id": "acme", "team_id": team, "member_id": "bob"}),
    );
    let last = call(
        &mut e,
        "team_member_remove",
        json!({"entity_id": "acme", "team_id": team, "member_id": "alice"}),
    );
    assert!(last.unwrap_err().1.contains("last member"));
    ok(
        &mut e,
        "team_member_add",
        json!({"entity_id": "acme", "team_id": team, "member_id": "bob", "role": "admin"}),
    );
    let after = ok(
        &mut e,
        "team_members",
        json!({"entity_id": "acme", "team_id": team}),
    );
    assert_eq!(
        after.as_array().unwrap().len(),
        before.as_array().unwrap().len()
    );
    assert_eq!(after[1]["role"], "admin");
}

#[test]
fn a_deleted_teams_memories_stay_with_their_writers() {
    let (mut e, _clock, team, ids) = scenario();
    let gone = ok(
        &mut e,
        "team_delete",
        json!({"entity_id": "acme", "team_id": team}),
    );
    assert_eq!(
        (gone["status"].as_str(), gone["members_removed"].as_u64()),
        (Some("deleted"), Some(2))
    );
    let bob = json!({"entity_id": "acme", "agent_id": "bob", "id": ids["alice_team"]});
    assert_eq!(call(&mut e, "get", bob).unwrap_err().0, "not_found");
    let alice = json!({"entity_id": "acme", "agent_id": "alice", "id": ids["alice_team"]});
    assert_eq!(
        ok(&mut e, "get", alice)["content"],
        "Deploy the rutabaga release on Friday"
    );
    assert_eq!(
        call(
            &mut e,
            "team_get",
            json!({"entity_id": "acme", "team_id": team})
        )
        .unwrap_err()
        .0,
        "not_found"
    );
}

#[test]
fn a_team_heartbeat_sees_the_teams_and_the_global_memories() {
    let (mut e, _clock, team, _ids) = scenario();
    let r = ok(
        &mut e,
        "heartbeat_context",
        json!({"entity_id": "acme", "team_id": team, "dry_run": true, "query": "rutabaga kumquat quince kiwano persimmon"}),
    );
    let text = r.to_string();
    assert!(
        text.contains("rutabaga") && text.contains("quince"),
        "{text}"
    );
    assert!(
        !text.contains("kumquat") && !text.contains("kiwano") && !text.contains("persimmon"),
        "{text}"
    );
}

/// The graph an agent reads is what the memories it may see say: another agent's private
/// statement adds no entity, relationship, name or count, on any graph call or in an export.
#[test]
fn an_agents_graph_is_what_the_memories_it_may_see_say() {
    let (mut e, _clock) = engine();
    for (agent, visibility, content) in [
        ("alice", "private", "My sister Ana Souza lives in Lisbon."),
        ("bob", "global", "My sister Ana lives in Porto."),
    ] {
        ok(
            &mut e,
            "remember",
            json!({"entity_id": "acme", "agent_id": agent, "visibility": visibility, "content": content}),
        );
    }
    // What alice alone said: a surname and a city.
    let secret = ["Souza", "Lisbon"];
    let (mut probes, mut leaks) = (0, Vec::new());
    for caller in [None, Some("alice"), Some("bob"), Some("carol")] {
        let who = |mut args: Value| {
            args["entity_id"] = json!("acme");
            if let Some(a) = caller {
                args["agent_id"] = json!(a);
            }
            args
        };
        let mut answers = Vec::new();
        for (method, args) in [
            ("entities", json!({})),
            ("entities", json!({"query": "souza"})),
            ("entities", json!({"query": "lisbon"})),
            ("relationships", json!({})),
            ("relationships", json!({"entity": "Ana"})),
            ("relationships", json!({"entity": "Lisbon"})),
            ("relationships", json!({"entity": "Ana Souza"})),
            ("traverse", json!({"from": "user", "depth": 5})),
            ("traverse", json!({"from": "Ana", "depth": 5})),
            ("traverse", json!({"from": "Lisbon"})),
            ("path", json!({"from": "user", "to": "Lisbon"})),
            ("path", json!({"from": "Ana Souza", "to": "Porto"})),
            ("export", json!({})),
        ] {
            let text = match call(&mut e, method, who(args.clone())) {
                Ok(t) => t,
                // A refusal names what was asked for: that shows nothing.
                Err((code, _)) => format!("error {code}"),
            };
            answers.push((format!("{method} {args}"), text));
        }
        let alice_sees = matches!(caller, None | Some("alice"));
        for (name, text) in &answers {
            for word in secret {
                probes += 1;
                if !alice_sees && text.contains(word) {
                    leaks.push(format!("{caller:?} {name}: shows {word}"));
                }
            }
        }
        let find = |name: &str| &answers.iter().find(|(n, _)| n == name).expect(name).1;
        let ents: Value = serde_json::from_str(find("entities {}")).expect("entities");
        let names: Vec<&str> = ents
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x["name"].as_str().unwrap())
            .collect();
        let rels = find("relationships {}");
        match caller {
            None | Some("alice") => {
                assert!(
                    names.contains(&"Ana Souza") && names.contains(&"Lisbon"),
                    "{caller:?} {names:?}"
                );
                assert!(rels.contains("\"Lisbon\""), "{caller:?} {rels}");
                let path: Value =
                    serde_json::from_str(find(r#"path {"from":"user","to":"Lisbon"}"#)).unwrap();
                assert_eq!(path["found"], true, "{caller:?}");
            }
            Some("bob") | Some("carol") => {
                // Bob and Carol (his memory is global) know Ana by the name his memory
                // gives her, her sibling tie stated once.
                assert!(
                    names.contains(&"Ana") && names.contains(&"Porto"),
                    "{names:?}"
                );
                let ana = ents
                    .as_array()
                    .unwrap()
                    .iter()
                    .find(|x| x["name"] == "Ana")
                    .unwrap();
                assert_eq!(
                    (
                        ana["mentions"].as_i64(),
                        ana["aliases"].as_array().map(Vec::len)
                    ),
                    (Some(1), Some(0))
                );
                let r: Value =
                    serde_json::from_str(find(r#"relationships {"entity":"Ana"}"#)).unwrap();
                let sib = r
                    .as_array()
                    .unwrap()
                    .iter()
                    .find(|x| x["relation"] == "sibling_of" && x["from"] == "user")
                    .expect("sibling");
                assert_eq!(
                    (sib["to"].as_str(), sib["evidence"].as_i64()),
                    (Some("Ana"), Some(1))
                );
                assert_eq!(
                    find(r#"relationships {"entity":"Ana Souza"}"#),
                    "error not_found"
                );
                assert_eq!(find(r#"traverse {"from":"Lisbon"}"#), "error not_found");
            }
            _ => unreachable!(),
        }
    }
    no_leaks(probes, 100, &leaks);
}

/// Each agent's conversation is its own: `messages` and the heartbeat context's recent
/// messages for an agent hold only what was said in its conversation; the owner reads all.
#[test]
fn an_agent_reads_only_its_own_conversation() {
    let (mut e, _clock) = engine();
    for (agent, role, text) in [
        (Some("alice"), "user", "I am pregnant, keep it quiet"),
        (Some("alice"), "agent", "Congratulations, noted privately"),
        (Some("bob"), "agent", "Your build passed"),
        (None, "agent", "Good morning"),
    ] {
        let mut m = json!({"entity_id": "acme", "role": role, "content": text});
        if let Some(a) = agent {
            m["agent_id"] = json!(a);
        }
        let r = ok(&mut e, "record_message", m);
        assert_eq!(r["agent_id"], json!(agent), "{r}");
    }
    let said = |e: &mut Engine, method: &str, args: Value| -> Vec<String> {
        let r = ok(e, method, args);
        let list = if method == "messages" {
            r
        } else {
            r["recent_messages"].clone()
        };
        list.as_array()
            .expect("messages")
            .iter()
            .map(|m| m["content"].as_str().unwrap().to_string())
            .collect()
    };
    let bob = said(
        &mut e,
        "messages",
        json!({"entity_id": "acme", "agent_id": "bob"}),
    );
    assert_eq!(bob, vec!["Your build passed"]);
    let alice = said(
        &mut e,
        "messages",
        json!({"entity_id": "acme", "agent_id": "alice"}),
    );
    assert_eq!(alice.len(), 2, "{alice:?}");
    assert_eq!(
        said(&mut e, "messages", json!({"entity_id": "acme"})).len(),
        4
    );
    let ctx = |agent: &str| json!({"entity_id": "acme", "agent_id": agent, "dry_run": true});
    assert_eq!(
        said(&mut e, "heartbeat_context", ctx("bob")),
        vec!["Your build passed"]
    );
    assert_eq!(
        said(&mut e, "heartbeat_context", ctx("alice")),
        vec!["Congratulations, noted privately"]
    );
    assert!(said(&mut e, "heartbeat_context", ctx("carol")).is_empty());
    for bad in [
        json!({"entity_id": "acme", "agent_id": "a b"}),
        json!({"entity_id": "acme", "agent_id": ""}),
        json!({"entity_id": "acme", "agent_id": ["bob"]}),
    ] {
        let err = call(&mut e, "messages", bad.clone()).expect_err("refused");
        assert_eq!(err.0, "invalid_input", "{bad}: {}", err.1);
        let mut m = bad.clone();
        m["role"] = json!("user");
        m["content"] = json!("hello");
        let err = call(&mut e, "record_message", m).expect_err("refused");
        assert!(err.1.contains("agent_id"), "{bad}: {}", err.1);
    }
    assert_eq!(
        said(&mut e, "messages", json!({"entity_id": "acme"})).len(),
        4
    );
}

/// A schedule is its agent's to acknowledge, change and cancel; another agent cannot touch it
/// (nor learn it exists), and the owner can.
#[test]
fn an_agent_changes_only_its_own_schedules() {
    let (mut e, _clock) = engine();
    let made = ok(
        &mut e,
        "schedule_create",
        json!({"entity_id": "acme", "agent_id": "alice", "content": "Water the plants", "cron_tag": "cron:daily:09:00"}),
    );
    let id = made["id"].as_str().expect("id").to_string();
    let before = ok(
        &mut e,
        "schedules",
        json!({"entity_id": "acme", "all": true}),
    );
    for (method, extra) in [
        ("schedule_ack", json!({})),
        ("schedule_update", json!({"content": "Water nothing"})),
        ("schedule_cancel", json!({})),
    ] {
        let mut args = json!({"entity_id": "acme", "agent_id": "bob", "id": id});
        for (k, v) in extra.as_object().unwrap() {
            args[k] = v.clone();
        }
        let err = call(&mut e, method, args).expect_err("bob may not");
        assert_eq!(err.0, "not_found", "{method}: {}", err.1);
    }
    assert_eq!(
        ok(
            &mut e,
            "schedules",
            json!({"entity_id": "acme", "all": true})
        ),
        before,
        "nothing changed"
    );
    let mut args = json!({"entity_id": "acme", "agent_id": "alice", "id": id});
    let acked = ok(&mut e, "schedule_ack", args.clone());
    assert!(acked["acknowledged_at"].is_number(), "{acked}");
    args["content"] = json!("Water the ferns");
    ok(&mut e, "schedule_update", args);
    let gone = ok(
        &mut e,
        "schedule_cancel",
        json!({"entity_id": "acme", "id": id}),
    );
    assert_eq!(gone["status"], "cancelled", "the owner may");
}

/// A peer card is made from what the caller may see: another agent's private memories add no
/// fact, name, relationship or count to it, and an entity only they say enough about has no
/// card for anyone else.
#[test]
fn an_agents_peer_card_holds_only_what_it_may_see() {
    let (mut e, _clock) = engine();
    for (agent, visibility, content) in [
        ("alice", "private", "My sister Ana Souza lives in Lisbon."),
        ("alice", "private", "Ana's passport number is 7731."),
        ("alice", "private", "Ana is allergic to penicillin."),
        ("bob", "global", "My sister Ana lives in Porto."),
        ("bob", "global", "Ana works at Farfetch."),
        ("bob", "global", "Ana loves surfing with Rui."),
        ("alice", "private", "Rui plays the oboe at Gulbenkian."),
        ("alice", "private", "Rui studied in Coimbra."),
        ("alice", "private", "Ana and Rui met in Coimbra."),
        ("alice", "private", "Rui visited Ana in Lisbon."),
    ] {
        ok(
            &mut e,
            "remember",
            json!({"entity_id": "acme", "agent_id": agent, "visibility": visibility, "content": content}),
        );
    }
    let secret = ["Souza", "Lisbon", "7731", "penicillin", "oboe", "Coimbra"];
    // Consolidation proposes a bridge between Ana and Rui from alice's two memories.
    let r = ok(&mut e, "consolidate", json!({}));
    assert!(
        r["consolidation"]["synthesis"]["proposed"].as_u64() >= Some(1),
        "{r}"
    );
    let (mut probes, mut leaks) = (0, Vec::new());
    for caller in [None, Some("alice"), Some("bob"), Some("carol")] {
        let mut answers = Vec::new();
        for name in ["Ana", "Ana Souza", "Rui", "Lisbon", "Porto"] {
            let mut args = json!({"entity_id": "acme", "name": name});
            if let Some(a) = caller {
                args["agent_id"] = json!(a);
            }
            let text = match call(&mut e, "card", args) {
                Ok(t) => t,
                Err((code, _)) => format!("error {code}"),
            };
            answers.push((name, text));
        }
        let ctx = ok(
            &mut e,
            "heartbeat_context",
            json!({"entity_id": "acme", "agent_id": caller.unwrap_or("alice")}),
        );
        if caller.is_some() {
            answers.push(("heartbeat_context", ctx["cards"].to_string()));
        }
        let mut args = json!({"entity_id": "acme"});
        if let Some(a) = caller {
            args["agent_id"] = json!(a);
        }
        let bridges = call(&mut e, "bridges", args).expect("bridges");
        answers.push(("bridges", bridges.clone()));
        let alice_sees = matches!(caller, None | Some("alice"));
        for (name, text) in &answers {
            for word in secret {
                probes += 1;
                if !alice_sees && text.contains(word) {
                    leaks.push(format!("{caller:?} card {name}: shows {word}"));
                }
            }
        }
        let card: Value = serde_json::from_str(&answers[0].1).expect("Ana has a card");
        if alice_sees {
            assert_eq!(card["name"], "Ana Souza", "{caller:?}");
            assert_eq!(card["memories"], 8, "{card}");
            assert!(
                bridges.contains("Coimbra"),
                "{caller:?} sees the bridge: {bridges}"
            );
            assert!(
                answers[2].1.contains("oboe"),
                "{caller:?}: {}",
                answers[2].1
            );
        } else {
            assert_eq!(
                (card["name"].as_str(), card["memories"].as_u64()),
                (Some("Ana"), Some(3)),
                "{card}"
            );
            assert_eq!(answers[1].1, "error not_found", "{caller:?} by her surname");
            // Rui: one memory bob's agents see; alice's two make no card for them.
            assert_eq!(answers[2].1, "error not_found", "{caller:?}");
            assert_eq!(
                bridges, "[]",
                "{caller:?}: one context of theirs is no bridge"
            );
        }
    }
    no_leaks(probes, 100, &leaks);
}

/// Where someone works, lives or who they are married to is one thing at a time, and a newer
/// statement of it supersedes the older — but only the writer's own: another agent saying
/// where Rui works, or the owner, neither supersedes nor names what an agent keeps.
#[test]
fn a_contradiction_never_reaches_across_agents() {
    let (mut e, _clock) = engine();
    let said = |e: &mut Engine, agent: Option<&str>, content: &str| {
        let mut args = json!({"entity_id": "acme", "content": content});
        if let Some(a) = agent {
            args["agent_id"] = json!(a);
        }
        ok(e, "remember", args)
    };
    let alices = said(&mut e, Some("alice"), "Rui works at Sonae.");
    let alices = alices["outcomes"][0]["id"].as_str().unwrap().to_string();
    for (agent, content) in [
        (Some("bob"), "Rui works at Galp."),
        (None, "Rui works at Jeronimo Martins."),
    ] {
        let r = said(&mut e, agent, content);
        assert_eq!(r["outcomes"][0]["action"], "created", "{agent:?}: {r}");
        assert!(
            !r.to_string().contains(&alices),
            "{agent:?} shown alice's id: {r}"
        );
    }
    let m = ok(&mut e, "get", json!({"entity_id": "acme", "id": alices}));
    assert_eq!(m["status"], "active");
    // Alice's own newer word does supersede hers.
    let r = said(&mut e, Some("alice"), "Rui now works at EDP.");
    assert_eq!(r["outcomes"][0]["existing"], json!(alices), "{r}");
}

/// Relevance lent along a conversation never crosses agents: a memory another agent keeps
/// private neither appears, nor lends, nor counts as a place (its match would show in the
/// caller's `why`): an agent's search of a shared conversation weighs its memories as in a
/// store holding only what it may see, while the other agent finds its answer two places
/// along its own messages.
/// A store of owner "acme" holding the lines `said` (agent, text) of one session, or only
/// those of agent `only`.
fn chat(said: &[(&str, &str)], only: Option<&str>) -> Engine {
    let (mut e, _clock) = engine();
    for (agent, text) in said.iter().filter(|(a, _)| only.is_none_or(|o| o == *a)) {
        let item =
            json!({"entity_id": "acme", "agent_id": agent, "content": text, "session_id": "chat"});
        ok(&mut e, "seed", json!({ "items": [item] }));
    }
    e
}

#[test]
fn lending_along_a_conversation_never_crosses_agents() {
    let said = [
        ("alice", "Cat: I finally read Becoming Nicole last week."),
        ("bob", "Mel: oh, how was it?"),
        ("alice", "Cat: I loved it."),
        ("bob", "Mel: lovely weather here today"),
        ("alice", "Cat: it taught me self-acceptance and hope."),
        ("bob", "Mel: shall we walk later?"),
    ];
    let store = |only: Option<&str>| chat(&said, only);
    let search = |e: &mut Engine, agent: &str| {
        let args = json!({"entity_id": "acme", "agent_id": agent, "query": "What stayed with her from Becoming Nicole?", "min_score": 0.0});
        ok(e, "search", args).as_array().expect("hits").clone()
    };
    // What each hit's relevance was made of, by its text.
    let weighed = |hits: &[Value]| -> BTreeMap<String, (Value, Value, Value)> {
        hits.iter()
            .map(|h| {
                let w = &h["why"];
                let key = h["memory"]["content"]
                    .as_str()
                    .unwrap_or_default()
                    .to_string();
                (
                    key,
                    (
                        w["relevance"].clone(),
                        w["vector"].clone(),
                        w["context"].clone(),
                    ),
                )
            })
            .collect()
    };
    let mut shared = store(None);
    let alice = search(&mut shared, "alice");
    let answer = alice
        .iter()
        .find(|h| h["memory"]["content"] == json!(said[4].1))
        .expect("alice finds her answer two of her places along");
    assert!(
        answer["why"]["context"].as_f64().unwrap_or(0.0) > 0.0,
        "{answer}"
    );
    assert!(alice
        .iter()
        .all(|h| h["memory"]["agent_id"] == json!("alice")));
    let bob = search(&mut shared, "bob");
    let text = serde_json::to_string(&bob).unwrap();
    assert!(!text.contains("Nicole") && !text.contains("Cat:"), "{text}");
    let alone = search(&mut store(Some("bob")), "bob");
    assert_eq!(weighed(&bob), weighed(&alone));
    assert_eq!(
        weighed(&alice),
        weighed(&search(&mut store(Some("alice")), "alice"))
    );
}

/// Whether a question names the speaker of a line is decided by the lines the caller may see:
/// another agent's private line of that speaker changes nothing of its answer.
#[test]
fn a_speaker_is_named_only_by_lines_the_caller_may_see() {
    let said = [
        ("alice", "Caroline: I love pottery and long walks."),
        ("bob", "Melanie: Caroline, you love pottery, right?"),
        ("bob", "Melanie: pottery class was fun today"),
    ];
    let store = |only: Option<&str>| chat(&said, only);
    let search = |e: &mut Engine, agent: &str| {
        let args = json!({"entity_id": "acme", "agent_id": agent, "query": "What does Caroline love?", "min_score": 0.0});
        ok(e, "search", args)
    };
    // The owner sees Caroline's line: Melanie's count for less.
    let owner = ok(
        &mut store(None),
        "search",
        json!({"entity_id": "acme", "query": "What does Caroline love?", "min_score": 0.0}),
    );
    assert_eq!(owner[0]["memory"]["content"], json!(said[0].1), "{owner}");
    assert_eq!(owner[1]["why"]["speaker_multiplier"], json!(0.7), "{owner}");
    // Bob does not: his answer is the one he gets from a store of his own lines alone.
    let bob = search(&mut store(None), "bob");
    let alone = search(&mut store(Some("bob")), "bob");
    let whys = |hits: &Value| -> Vec<(Value, Value)> {
        hits.as_array()
            .expect("hits")
            .iter()
            .map(|h| (h["memory"]["content"].clone(), h["why"].clone()))
            .collect()
    };
    assert_eq!(whys(&bob), whys(&alone), "{bob}");
    assert!(!bob.to_string().contains("speaker_multiplier"), "{bob}");
}

/// A search follows "my sister" through the owner's graph only by statements the caller may
/// see: another agent's private "my sister Ana" names no one to this one, in hops or hits.
#[test]
fn a_relation_stated_privately_by_another_agent_is_not_followed() {
    let (mut e, _) = engine();
    for (content, visibility) in [
        ("My sister Ana is a nurse.", "private"),
        ("Ana lives in Lisbon now, near the river.", "global"),
    ] {
        ok(
            &mut e,
            "remember",
            json!({"entity_id": "acme", "agent_id": "alice", "content": content, "visibility": visibility}),
        );
    }
    let asked = |agent: &str| json!({"entity_id": "acme", "agent_id": agent, "query": "Which city does my sister live in?", "min_score": 0.0});
    let alice = ok(&mut e, "search", asked("alice"));
    let lisbon = alice
        .as_array()
        .expect("hits")
        .iter()
        .find(|h| h["memory"]["content"] == "Ana lives in Lisbon now, near the river.");
    assert_eq!(
        lisbon.map(|h| &h["why"]["hop"]),
        Some(&json!({"phrase": "my sister", "entity": "Ana"})),
        "{alice:#}"
    );
    // A host that embeds ahead of the search (a page's model) is told the question with her
    // name in place for alice only: to the others, who her sister is stays unsaid.
    let question = "Which city does my sister live in?";
    let texts = |e: &mut Engine, agent: &str| {
        e.texts_to_embed("search", &asked(agent).to_string())
            .expect("texts")
    };
    let for_alice = texts(&mut e, "alice");
    assert_eq!(for_alice.len(), 2, "{for_alice:?}");
    assert!(for_alice[0].contains("Ana") && !for_alice[0].contains("sister"));
    assert_eq!(for_alice[1], question);
    for agent in ["bob", "carol"] {
        let text = call(&mut e, "search", asked(agent)).expect("search");
        assert!(
            !text.contains("\"hop\"") && !text.contains("nurse"),
            "{agent}: {text}"
        );
        assert_eq!(texts(&mut e, agent), [question], "{agent}");
    }
    // The owner's own view sees alice's private statement; another owner's does not.
    let owner = json!({"entity_id": "acme", "query": question});
    assert!(e
        .texts_to_embed("search", &owner.to_string())
        .expect("texts")[0]
        .contains("Ana"));
    let other = json!({"entity_id": "globex", "query": question});
    assert_eq!(
        e.texts_to_embed("search", &other.to_string())
            .expect("texts"),
        [question]
    );
}

/// The typed Rust API reads for the agent a request names, as every face's call does: a
/// program using `Engine` directly gets the same view, not the owner's.
#[test]
fn the_typed_api_reads_for_the_agent_a_request_names() {
    let (mut e, _) = engine();
    let secret = "The vault code is kumquat 4711";
    for (agent, content, visibility) in [
        ("bob", secret, "private"),
        (
            "alice",
            "Alice keeps the spare key in the red drawer",
            "private",
        ),
        ("bob", "The office opens at nine", "global"),
    ] {
        ok(
            &mut e,
            "seed",
            json!({"items": [{"entity_id": "acme", "agent_id": agent, "visibility": visibility, "content": content}]}),
        );
    }
    let as_agent = |agent: &str| {
        let mut req = SearchRequest::new(Id::owner("acme").unwrap(), "vault code kumquat");
        req.agent_id = Some(id(agent));
        req.min_score = Some(0.0);
        req
    };
    let said = |hits: Vec<SearchHit>| -> Vec<String> {
        hits.into_iter().map(|h| h.memory.content).collect()
    };
    // Bob sees his secret; alice, searching the same words, does not.
    assert!(said(e.search(&as_agent("bob")).unwrap()).contains(&secret.to_string()));
    let alice = said(e.search(&as_agent("alice")).unwrap());
    assert!(!alice.contains(&secret.to_string()), "{alice:?}");
    let mut list = ListRequest::new(Id::owner("acme").unwrap());
    list.agent_id = Some(id("alice"));
    let page = e.list(&list).unwrap();
    let listed: Vec<&str> = page.memories.iter().map(|m| m.content.as_str()).collect();
    assert_eq!(listed.len(), 2, "her own and the global one: {listed:?}");
    assert!(!listed.contains(&secret), "{listed:?}");
    // The owner's view, with no agent, sees all three; after a narrowed call it is whole again.
    list.agent_id = None;
    assert_eq!(e.list(&list).unwrap().memories.len(), 3);
    let owners = said(
        e.search(&SearchRequest {
            min_score: Some(0.0),
            ..SearchRequest::new(Id::owner("acme").unwrap(), "vault code kumquat")
        })
        .unwrap(),
    );
    assert!(owners.contains(&secret.to_string()), "{owners:?}");
}
