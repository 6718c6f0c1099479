//! The call schema tells the truth. It is what MCP tools, the npm package's TypeScript and the
//! HTTP face show an agent or a programmer, so every field it declares says what it is, and
//! every limit it states (`minimum`, `maximum`, `minLength`, `maxLength`, `minItems`,
//! `maxItems`, `pattern`) is the engine's: the engine accepts the bound and refuses just past
//! it, naming the field. The limits are found by walking the schema, so a limit stated later is
//! probed without touching this file.
mod common;

use std::collections::BTreeSet;

use common::*;
use mnemo_core::*;
use serde_json::{json, Value};

/// The definition a `{"$ref": "#/$defs/X"}` points at, else the schema itself.
fn resolve<'a>(s: &'a Value, v: &'a Value) -> &'a Value {
    match v["$ref"].as_str().and_then(|r| r.strip_prefix("#/$defs/")) {
        Some(name) => &s["$defs"][name],
        None => v,
    }
}

/// Every property of every object inside `v` (nested schemas included) without a description,
/// by path.
fn undescribed(v: &Value, path: &str, out: &mut Vec<String>) {
    match v {
        Value::Object(o) => {
            if let Some(Value::Object(props)) = o.get("properties") {
                for (name, p) in props {
                    let described = p["description"]
                        .as_str()
                        .is_some_and(|d| !d.trim().is_empty());
                    if !described {
                        out.push(format!("{path}.properties.{name}"));
                    }
                }
            }
            for (k, x) in o {
                undescribed(x, &format!("{path}.{k}"), out);
            }
        }
        Value::Array(a) => {
            for (i, x) in a.iter().enumerate() {
                undescribed(x, &format!("{path}[{i}]"), out);
            }
        }
        _ => {}
    }
}

#[test]
fn every_field_of_every_call_and_definition_is_described() {
    let s = api::schema();
    let mut missing = Vec::new();
    for c in s["calls"].as_array().expect("calls") {
        let m = c["method"].as_str().unwrap_or("?");
        undescribed(&c["args"], &format!("{m}.args"), &mut missing);
        undescribed(&c["result"], &format!("{m}.result"), &mut missing);
    }
    for (name, def) in s["$defs"].as_object().expect("$defs") {
        undescribed(def, &format!("$defs.{name}"), &mut missing);
    }
    assert!(
        missing.is_empty(),
        "{} fields without a doc comment (their description in the schema):\n{}",
        missing.len(),
        missing.join("\n")
    );
}

#[test]
fn every_time_field_says_it_is_in_epoch_milliseconds() {
    // A time in seconds (1690000000) would be read as January 1970: the description says.
    let s = api::schema();
    let mut wrong = Vec::new();
    for (name, def) in s["$defs"].as_object().expect("$defs") {
        for (field, p) in def["properties"].as_object().into_iter().flatten() {
            let int64 = p["format"] == "int64";
            let timely = field.ends_with("_at") || field == "first_seen" || field == "last_seen";
            let says = p["description"]
                .as_str()
                .is_some_and(|d| d.contains("milliseconds since the Unix epoch"));
            if int64 && timely && !says {
                wrong.push(format!("{name}.{field}"));
            }
        }
    }
    assert!(wrong.is_empty(), "times without their unit: {wrong:?}");
}

/// One step of a path into an argument object.
#[derive(Debug, Clone, PartialEq)]
enum Step {
    Key(String),
    First,
}

fn show(path: &[Step]) -> String {
    let mut out = String::new();
    for s in path {
        match s {
            Step::Key(k) if out.is_empty() => out.push_str(k),
            Step::Key(k) => {
                out.push('.');
                out.push_str(k);
            }
            Step::First => out.push_str("[0]"),
        }
    }
    out
}

/// A limit the schema states, at a path of a call's arguments.
#[derive(Debug, Clone)]
struct Limit {
    path: Vec<Step>,
    keyword: &'static str,
    value: Value,
    /// The schema of the value limited (its `type` says how to probe it).
    schema: Value,
}

const KEYWORDS: [&str; 7] = [
    "minimum",
    "maximum",
    "minLength",
    "maxLength",
    "minItems",
    "maxItems",
    "pattern",
];

/// Every limit stated in `v` or below it, `v` being at `path`.
fn limits(s: &Value, v: &Value, path: &[Step], seen: &mut BTreeSet<String>, out: &mut Vec<Limit>) {
    let v = resolve(s, v);
    for k in KEYWORDS {
        if let Some(value) = v.get(k) {
            out.push(Limit {
                path: path.to_vec(),
                keyword: k,
                value: value.clone(),
                schema: v.clone(),
            });
        }
    }
    for branch in v["anyOf"].as_array().into_iter().flatten() {
        limits(s, branch, path, seen, out);
    }
    if let Some(items) = v.get("items") {
        let mut p = path.to_vec();
        p.push(Step::First);
        limits(s, items, &p, seen, out);
    }
    for (name, prop) in v["properties"].as_object().into_iter().flatten() {
        let mut p = path.to_vec();
        p.push(Step::Key(name.clone()));
        // A type that contains itself is walked once per path prefix.
        if seen.insert(show(&p)) {
            limits(s, prop, &p, seen, out);
        }
    }
}

/// Valid arguments of each call, in the fixtures' engine (`$memory`, `$schedule` and `$act`
/// stand for the ids made there). A limit is probed in the first of a call's argument objects that holds
/// the object the limited field belongs to; a call's limits need at least one that does.
fn bases(method: &str) -> Vec<Value> {
    let memory = json!({
        "entity_id": "ana",
        "content": "Ana drinks green tea",
        "tags": ["tea"],
        "cron_tag": "cron:daily",
    });
    let extracted = json!({
        "content": "Ana drinks green tea",
        "tags": ["tea"],
        "entities": [{"name": "Ana", "type": "PERSON", "aliases": ["Ana S"]}],
        "relationships": [{"from": "Ana", "relation": "likes", "to": "tea", "confidence": 0.9}],
    });
    let owner_and_memory = json!({"entity_id": "ana", "id": "$memory"});
    let schedule = json!({"entity_id": "ana", "id": "$schedule"});
    match method {
        "remember" => vec![
            json!({"entity_id": "ana", "content": "I drink green tea every morning"}),
            json!({"entity_id": "ana", "content": "tea", "extracted": [extracted]}),
            json!({"entity_id": "ana", "messages": [{"role": "user", "content": "I drink tea"}]}),
        ],
        "extract" => vec![json!({"content": "I drink green tea every morning"})],
        "seed" => vec![json!({"items": [memory]})],
        "search" => vec![json!({"entity_id": "ana", "query": "tea"})],
        "list" => vec![json!({"entity_id": "ana", "ids": ["$memory"]})],
        "update" => vec![
            json!({"entity_id": "ana", "id": "$memory", "patch": {"content": "Ana drinks black tea"}}),
        ],
        "pin" => vec![json!({"entity_id": "ana", "id": "$memory", "pinned": true})],
        "set_status" => vec![
            json!({"entity_id": "ana", "id": "$memory", "status": "challenged", "reason": "said otherwise"}),
        ],
        "set_layer" => vec![
            json!({"entity_id": "ana", "id": "$memory", "layer": "procedural", "reason": "how Ana makes tea"}),
        ],
        "locate" => vec![json!({"id": "$memory"})],
        "sample" => vec![json!({"entity_id": "ana"})],
        "related" => vec![owner_and_memory],
        "import" => vec![json!({"jsonl": memory.to_string()})],
        "import_notes" => vec![json!({"entity_id": "ana", "markdown": "- Ana drinks tea"})],
        "ingest" => vec![
            json!({"entity_id": "ana", "title": "Tea", "content": "Ana drinks tea.",
            "filename": "tea.md", "mime": "text/markdown", "source_ref": "notes:tea", "tags": ["tea"],
            "chunking": {"min_chars": 100, "max_chars": 200, "overlap": 10}}),
        ],
        "documents" => vec![json!({"entity_id": "ana"})],
        "document" | "forget_document" => vec![json!({"entity_id": "ana", "id": "$document"})],
        "write_summary" => vec![
            json!({"entity_id": "ana", "document_id": "$document", "position": 0, "summary": "Tea."}),
        ],
        "embed" => vec![json!({"texts": ["tea"]})],
        "reembed" => vec![json!({"model": "mnemo-hash-v1"})],
        "entities" | "relationships" | "conflicts" | "schedules" | "messages" | "scheduled"
        | "stats" | "export" | "forget_all" => vec![json!({"entity_id": "ana"})],
        "traverse" => vec![json!({"entity_id": "ana", "from": "user"})],
        "team_create" => vec![json!({"entity_id": "ana", "name": "Kitchen"})],
        "team_get" | "team_delete" | "team_members" => {
            vec![json!({"entity_id": "ana", "team_id": "$team"})]
        }
        "team_member_add" => {
            vec![json!({"entity_id": "ana", "team_id": "$team", "member_id": "cy"})]
        }
        "team_member_remove" => {
            vec![json!({"entity_id": "ana", "team_id": "$team", "member_id": "bo"})]
        }
        "path" => vec![json!({"entity_id": "ana", "from": "user", "to": "tea"})],
        "card" => vec![json!({"entity_id": "ana", "name": "user"})],
        "bridges" => vec![json!({"entity_id": "ana", "status": "proposed", "limit": 5})],
        "decide_bridge" => vec![
            json!({"entity_id": "ana", "id": "brg_1", "related": false, "reason": "Only mentioned together."}),
        ],
        "ingest_code" => vec![
            json!({"entity_id": "ana", "files": [{"path": "src/a.rs", "language": "rust", "lines": 3, "summary": "A.", "symbols": [{"kind": "function", "name": "f", "signature": "fn f()", "line": 1}]}]}),
            json!({"entity_id": "ana", "agent_id": "coder", "complete": true, "files": [{"path": "b.py", "language": "python", "lines": 1}]}),
        ],
        "drift" => vec![
            json!({"entity_id": "ana", "paths": [{"path": "src/a.rs", "state": "file", "lines": 3}]}),
            json!({"entity_id": "ana", "paths": [{"path": "src", "state": "directory"}, {"path": "b/c.md", "state": "missing"}]}),
        ],
        "write_card_summary" => {
            vec![json!({"entity_id": "ana", "name": "user", "summary": "The user."})]
        }
        "resolve_conflict" => {
            vec![
                json!({"entity_id": "ana", "id": "c1", "resolution": "keep_both", "reason": "both"}),
            ]
        }
        "schedule_create" => {
            vec![
                json!({"entity_id": "ana", "content": "Water the plants", "cron_tag": "cron:daily:09:00"}),
            ]
        }
        "schedule_update" => {
            vec![json!({"entity_id": "ana", "id": "$schedule", "content": "Water the roses"})]
        }
        "schedule_ack" | "schedule_cancel" => vec![schedule],
        "heartbeat_check" => vec![json!({"entity_id": "ana", "quiet_hours": {"enabled": true}})],
        "heartbeat_context" => {
            vec![json!({"entity_id": "ana", "query": "tea", "quiet_hours": {"enabled": true}})]
        }
        "record_message" => vec![
            json!({"entity_id": "ana", "role": "user", "content": "hello"}),
            json!({"entity_id": "ana", "role": "agent", "content": "hello", "act_id": "$act"}),
        ],
        "get" | "forget" | "reinforce" | "demote" | "status_history" => vec![owner_and_memory],
        _ => vec![json!({})],
    }
}

/// Fields a call takes from its argument type but refuses whatever their value (the type is
/// shared with a call that uses them).
const NOT_TAKEN: &[(&str, &str)] = &[("heartbeat_check", "query"), ("heartbeat_check", "top_k")];

/// Fields the engine names otherwise when it refuses them (a count checked as a `limit`,
/// the write path's batch, which it calls `memories` whatever the call names it, and the
/// relationships of one memory, counted with its entities).
const NAMED_OTHERWISE: &[(&str, &str)] = &[
    ("max_results", "limit"),
    ("top_k", "limit"),
    ("items", "memories"),
    ("relationships", "entities"),
];

/// Fields naming something that must exist, with the words the engine refuses a well-formed id
/// of nothing with (by the field's name): such a refusal is not of the value's form.
const MUST_EXIST: &[(&str, &str, &str)] = &[
    ("record_message", "act_id", "no act "),
    ("remember", "team_id", "no team "),
    ("seed", "team_id", "no team "),
    ("heartbeat_check", "team_id", "no team "),
    ("heartbeat_context", "team_id", "no team "),
    ("team_member_remove", "member_id", "no member "),
    ("ingest", "team_id", "no team "),
];

/// A fresh engine with one memory, one schedule and one heartbeat act of `ana`, and their ids
/// by placeholder.
fn fixtures() -> (Engine, Vec<(&'static str, String)>) {
    let (mut e, _) = engine();
    let memory = seed_one(&mut e, mem("ana", "Ana drinks green tea"));
    let schedule = e
        .schedule_create(&ScheduleCreate {
            entity_id: id("ana"),
            content: content("Water the plants"),
            cron_tag: "cron:daily:09:00".into(),
            agent_id: None,
        })
        .expect("schedule")
        .id;
    let act = e
        .heartbeat_check(&HeartbeatRequest::new(id("ana")))
        .expect("heartbeat")
        .act_id
        .expect("a first contact is an act");
    let team = e
        .call(
            Call::parse("team_create", &json!({"entity_id": "ana", "name": "Crew"})).expect("args"),
        )
        .expect("team")["id"]
        .as_str()
        .expect("team id")
        .to_string();
    let document = e
        .call(
            Call::parse(
                "ingest",
                &json!({"entity_id": "ana", "title": "Tea", "content": "# Tea\n\nAna drinks tea."}),
            )
            .expect("args"),
        )
        .expect("ingest")["document"]["id"]
        .as_str()
        .expect("document id")
        .to_string();
    for agent in ["al", "bo"] {
        let add = json!({"entity_id": "ana", "team_id": team, "member_id": agent});
        e.call(Call::parse("team_member_add", &add).expect("args"))
            .expect("member");
    }
    (
        e,
        vec![
            ("$memory", memory),
            ("$schedule", schedule),
            ("$act", act),
            ("$team", team),
            ("$document", document),
        ],
    )
}

fn fill(v: &Value, ids: &[(&str, String)]) -> Value {
    match v {
        Value::String(s) => match ids.iter().find(|(k, _)| k == s) {
            Some((_, id)) => json!(id),
            None => v.clone(),
        },
        Value::Array(a) => Value::Array(a.iter().map(|x| fill(x, ids)).collect()),
        Value::Object(o) => {
            Value::Object(o.iter().map(|(k, x)| (k.clone(), fill(x, ids))).collect())
        }
        _ => v.clone(),
    }
}

/// The value at `path`, if there is one.
fn at<'a>(v: &'a Value, path: &[Step]) -> Option<&'a Value> {
    path.iter().try_fold(v, |v, s| match s {
        Step::Key(k) => v.get(k),
        Step::First => v.get(0),
    })
}

/// `v` with `x` at `path` (the containers above it must exist, but a list may be empty).
fn with(v: &Value, path: &[Step], x: Value) -> Value {
    let mut out = v.clone();
    let (last, parent) = path.split_last().expect("a path");
    let mut cur = &mut out;
    for s in parent {
        cur = match s {
            Step::Key(k) => &mut cur[k.as_str()],
            Step::First => &mut cur[0],
        };
    }
    match last {
        Step::Key(k) => cur[k.as_str()] = x,
        Step::First => match cur.as_array_mut() {
            Some(a) if !a.is_empty() => a[0] = x,
            Some(a) => a.push(x),
            None => *cur = json!([x]),
        },
    }
    out
}

/// The last name of a field path, without list places: `args.items[0].tags` → `tags`.
fn leaf(field: &str) -> String {
    let field = field.rsplit(['.', ' ']).next().unwrap_or(field);
    field.split('[').next().unwrap_or(field).to_string()
}

/// What the engine made of one call: `Ok(())` when it took the field, or the field it named in
/// refusing the arguments.
fn run(method: &str, args: &Value) -> std::result::Result<(), (String, String)> {
    let (mut e, _) = fixtures();
    match e.call_json(method, &args.to_string()) {
        Ok(_) => Ok(()),
        Err(Error::InvalidInput { field, reason }) => Err((field, reason)),
        Err(other) if other.code() == "unknown_value" => Err(("?".into(), other.to_string())),
        Err(_) => Ok(()),
    }
}

/// The probes of one limit: values the engine must take, and values it must refuse.
fn probes(limit: &Limit, base: Option<&Value>) -> (Vec<Value>, Vec<Value>) {
    let n = |v: &Value| v.as_f64().expect("a number");
    let integer = limit.schema["type"] == "integer"
        || limit.schema["type"]
            .as_array()
            .is_some_and(|t| t.contains(&json!("integer")));
    let step = if integer { 1.0 } else { 0.001 };
    let num = |x: f64| if integer { json!(x as i64) } else { json!(x) };
    // Text of `len` characters, from the valid value where there is one (so a pattern holds).
    let text = |len: usize| {
        let start = base.and_then(Value::as_str).unwrap_or("x");
        let mut t: String = start.chars().take(len).collect();
        let have = t.chars().count();
        t.extend(std::iter::repeat_n('x', len - have));
        json!(t)
    };
    let list = |len: usize| {
        let item = base
            .and_then(|b| b.get(0))
            .cloned()
            .unwrap_or_else(|| json!("x"));
        json!(vec![item; len])
    };
    let bound = &limit.value;
    match limit.keyword {
        "minimum" => (vec![num(n(bound))], vec![num(n(bound) - step)]),
        "maximum" => (vec![num(n(bound))], vec![num(n(bound) + step)]),
        "minLength" | "minItems" => {
            let k = bound.as_u64().expect("a count") as usize;
            let make = |len| {
                if limit.keyword == "minLength" {
                    text(len)
                } else {
                    list(len)
                }
            };
            (
                vec![make(k)],
                if k == 0 { vec![] } else { vec![make(k - 1)] },
            )
        }
        "maxLength" => {
            let k = bound.as_u64().expect("a count") as usize;
            (vec![text(k)], vec![text(k + 1)])
        }
        "maxItems" => {
            let k = bound.as_u64().expect("a count") as usize;
            (vec![list(k)], vec![list(k + 1)])
        }
        "pattern" => {
            let re = regex::Regex::new(bound.as_str().expect("a pattern")).expect("a regex");
            let valid = base.and_then(Value::as_str).unwrap_or("x").to_string();
            let tries = [
                valid.clone(),
                format!("{valid} "),
                format!("{valid}é"),
                format!("{valid}/"),
                String::new(),
                "a".repeat(256),
                "a".repeat(257),
            ];
            let (ok, bad): (Vec<String>, Vec<String>) =
                tries.into_iter().partition(|t| re.is_match(t));
            (
                ok.into_iter().map(Value::from).collect(),
                bad.into_iter().map(Value::from).collect(),
            )
        }
        other => unreachable!("{other}"),
    }
}

#[test]
fn every_limit_the_schema_states_is_the_engines() {
    let s = api::schema();
    let mut failures = Vec::new();
    let mut probed = 0;
    // Ids come from the engine's seeded entropy: every fresh fixture makes the same.
    let (_, ids) = fixtures();
    for c in s["calls"].as_array().expect("calls") {
        let method = c["method"].as_str().expect("method");
        let bases: Vec<Value> = bases(method).iter().map(|b| fill(b, &ids)).collect();
        for b in &bases {
            if let Err((field, reason)) = run(method, b) {
                failures.push(format!(
                    "{method}: the valid arguments {b} are refused: {field}: {reason}"
                ));
            }
        }
        let mut found = Vec::new();
        limits(&s, &c["args"], &[], &mut BTreeSet::new(), &mut found);
        for limit in found {
            let name = match limit.path.iter().rev().find_map(|s| match s {
                Step::Key(k) => Some(k.clone()),
                Step::First => None,
            }) {
                Some(name) => name,
                None => continue,
            };
            if NOT_TAKEN.contains(&(method, name.as_str())) {
                continue;
            }
            let path = show(&limit.path);
            // The first argument object holding the limited value, else the first holding the
            // object or list it belongs to.
            let holder = limit.path.iter().rposition(|s| matches!(s, Step::Key(_)));
            let container = &limit.path[..holder.expect("a field")];
            let holds = |b: &&Value, p: &[Step]| at(b, p).is_some_and(|c| !c.is_null());
            let base = bases.iter().find(|b| holds(b, &limit.path));
            let Some(base) = base.or_else(|| bases.iter().find(|b| holds(b, container))) else {
                failures.push(format!(
                    "{method}: no valid arguments reach {path}: add some to `bases`"
                ));
                continue;
            };
            let current = at(base, &limit.path);
            let (take, refuse) = probes(&limit, current);
            let named = |field: &str| {
                let field = leaf(field);
                field == name || NAMED_OTHERWISE.contains(&(name.as_str(), field.as_str()))
            };
            let absent = MUST_EXIST
                .iter()
                .find(|(m, f, _)| *m == method && *f == name)
                .map(|(_, _, words)| *words);
            for v in take {
                probed += 1;
                if let Err((field, reason)) = run(method, &with(base, &limit.path, v.clone())) {
                    if absent.is_some_and(|words| reason.starts_with(words)) {
                        continue;
                    }
                    if named(&field) {
                        failures.push(format!(
                            "{method}.{path} ({} {}): {} refused: {field}: {reason}",
                            limit.keyword,
                            limit.value,
                            short(&v)
                        ));
                    }
                }
            }
            for v in refuse {
                probed += 1;
                match run(method, &with(base, &limit.path, v.clone())) {
                    Err((field, _)) if named(&field) => {}
                    other => failures.push(format!(
                        "{method}.{path} ({} {}): {} not refused by name: {other:?}",
                        limit.keyword,
                        limit.value,
                        short(&v)
                    )),
                }
            }
        }
    }
    assert!(probed > 100, "only {probed} probes: is the schema walked?");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// A value short enough to print.
fn short(v: &Value) -> String {
    let t = v.to_string();
    if t.chars().count() > 60 {
        format!(
            "{}… ({} characters)",
            t.chars().take(40).collect::<String>(),
            t.chars().count()
        )
    } else {
        t
    }
}
