//! The JSON Schema of the call vocabulary, made from the declaration in `calls!`: every call's
//! method, summary, MCP tool name, and the schemas of its arguments and result, with the
//! types they share under `$defs`. Faces derive their own bindings from it (the npm package's
//! TypeScript declarations, the HTTP server's query parameters, the CLI's `call --list`).

use schemars::generate::SchemaSettings;
use serde_json::{json, Value};

use super::{declared, CallInfo};
use crate::error::{Error, Result};

/// One call as the schema describes it.
pub(super) struct CallSchema {
    pub info: CallInfo,
    pub args: schemars::Schema,
    pub result: schemars::Schema,
}

/// Marks a vector field whose vector a host embedder may supply: its value names the text
/// field of the same object the vector is of.
pub const EMBEDS: &str = "x-embeds";

/// The schema document: `{"$schema", "calls": [{method, summary, writes, creates, stateless,
/// agents, owner, args, result, mcp?, unwrap?}], "$defs"}` (the [`CallInfo`] of each call, where
/// its arguments name an agent and whether it is the owner's — see [`for_agent`] —, and its
/// types). Argument schemas describe what a call accepts (fields with a default may be left
/// out); result schemas what it answers (every field is there unless said otherwise). A type
/// in both (an extracted memory) is described as an argument. `codebase` tells a host walking
/// a repository for `ingest_code` what the engine reads: `languages` (each language's file
/// extensions), `max_files` per call, `max_path_chars` per path, `max_source_bytes` per file
/// and `max_text_bytes` per call.
pub fn schema() -> Value {
    let mut args = SchemaSettings::default().for_deserialize().into_generator();
    let mut results = SchemaSettings::default().for_serialize().into_generator();
    let declared = declared(&mut args, &mut results);
    let mut defs = args.definitions().clone();
    for (name, def) in results.definitions() {
        defs.entry(name.clone()).or_insert_with(|| def.clone());
    }
    let all = Value::Object(defs.clone());
    let calls: Vec<Value> = declared
        .into_iter()
        .map(|c| {
            let args = Value::from(c.args);
            let agents = agent_paths(&args, &all);
            let owner = owners(&c.info, &args, &all, &agents);
            let mut call = json!({
                "method": c.info.method,
                "summary": c.info.summary(),
                "writes": c.info.writes,
                "creates": c.info.creates,
                "stateless": c.info.stateless,
                "agents": agents,
                "owner": owner,
                "args": args,
                "result": c.result,
            });
            if let Some(tool) = c.info.mcp {
                call["mcp"] = json!(tool);
            }
            if let Some(field) = c.info.unwrap {
                call["unwrap"] = json!(field);
            }
            call
        })
        .collect();
    json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "Mnemo calls",
        "calls": calls,
        "codebase": codebase(),
        "$defs": defs,
    })
}

/// What `ingest_code` reads, for a host walking a repository to send it only those files.
fn codebase() -> Value {
    use crate::codebase::{
        LANGUAGES, MAX_CODE_FILES, MAX_CODE_PATH_CHARS, MAX_CODE_TEXT_BYTES, MAX_SOURCE_BYTES,
    };
    let languages: serde_json::Map<String, Value> = LANGUAGES
        .iter()
        .map(|(name, extensions)| (name.to_string(), json!(extensions)))
        .collect();
    json!({
        "languages": languages,
        "max_files": MAX_CODE_FILES,
        "max_path_chars": MAX_CODE_PATH_CHARS,
        "max_source_bytes": MAX_SOURCE_BYTES,
        "max_text_bytes": MAX_CODE_TEXT_BYTES,
    })
}

/// The definition a `$ref` names.
pub fn ref_name(schema: &Value) -> Option<&str> {
    schema["$ref"].as_str()?.strip_prefix("#/$defs/")
}

/// Calls `visit(path, name, property)` for every property of an argument object, of the
/// objects inside it and of their lists' items: `path` is the keys down to the object holding
/// it, `*` standing for each item of a list.
pub fn properties(
    schema: &Value,
    defs: &Value,
    path: &mut Vec<String>,
    visit: &mut impl FnMut(&[String], &str, &Value),
) {
    if path.len() > 8 {
        return;
    }
    let schema = match ref_name(schema) {
        Some(name) => &defs[name],
        None => schema,
    };
    for (name, prop) in schema["properties"].as_object().into_iter().flatten() {
        visit(path, name, prop);
        let target = match ref_name(prop) {
            Some(n) => &defs[n],
            None => prop,
        };
        path.push(name.clone());
        if target.get("items").is_some() {
            path.push("*".into());
            properties(&target["items"], defs, path, visit);
            path.pop();
        } else if target.get("properties").is_some() {
            properties(target, defs, path, visit);
        }
        path.pop();
    }
}

/// Where a call's arguments name the agent they are made for (`agent_id`): the paths of the
/// objects holding it.
fn agent_paths(args: &Value, defs: &Value) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    properties(args, defs, &mut Vec::new(), &mut |path, name, _| {
        if name == "agent_id" {
            out.push(path.to_vec());
        }
    });
    out
}

/// Whether a call is the owner's, which a face acting for one agent refuses: one that names no
/// agent yet reads or changes an owner's store (teams, conflicts), or that writes store-wide
/// (imports, maintenance). Stateless calls and store-wide reads (`embed`, `store_stats`) are
/// anyone's.
fn owners(info: &CallInfo, args: &Value, defs: &Value, agents: &[Vec<String>]) -> bool {
    let mut owned = false;
    properties(args, defs, &mut Vec::new(), &mut |_, name, _| {
        owned |= name == "entity_id";
    });
    agents.is_empty() && !info.stateless && (owned || info.writes)
}

/// Makes the arguments of `call` (its entry in [`schema`]) ones for `agent`, as a face acting
/// for one agent does: `agent_id` filled in wherever the call names one, another agent refused,
/// and the owner's calls refused.
pub fn for_agent(call: &Value, args: &mut Value, agent: &str) -> Result<()> {
    let method = call["method"].as_str().unwrap_or_default();
    if call["owner"] == Value::Bool(true) {
        return Err(Error::invalid(
            "method",
            format!("{method} is the owner's, and this acts for agent {agent:?} only"),
        ));
    }
    for path in call["agents"].as_array().into_iter().flatten() {
        let path: Vec<&str> = path
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
            .collect();
        let mut refused = None;
        objects_at(args, &path, &mut |o| match o.get("agent_id") {
            None | Some(Value::Null) => {
                o.insert("agent_id".into(), json!(agent));
            }
            Some(given) if given == &json!(agent) => {}
            Some(_) => refused = Some(()),
        });
        if refused.is_some() {
            return Err(Error::invalid(
                "agent_id",
                format!("this acts for agent {agent:?} only"),
            ));
        }
    }
    Ok(())
}

/// Calls `f` on each object at `path` in `v` (`*`: each item of a list).
fn objects_at(
    v: &mut Value,
    path: &[&str],
    f: &mut impl FnMut(&mut serde_json::Map<String, Value>),
) {
    match path.split_first() {
        None => {
            if let Value::Object(o) = v {
                f(o);
            }
        }
        Some((&"*", rest)) => {
            if let Value::Array(items) = v {
                items.iter_mut().for_each(|x| objects_at(x, rest, f));
            }
        }
        Some((key, rest)) => {
            if let Some(x) = v.get_mut(*key) {
                objects_at(x, rest, f);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every `$ref` in a schema value.
    fn refs(v: &Value, out: &mut Vec<String>) {
        match v {
            Value::Object(o) => {
                if let Some(Value::String(r)) = o.get("$ref") {
                    out.push(r.clone());
                }
                o.values().for_each(|x| refs(x, out));
            }
            Value::Array(a) => a.iter().for_each(|x| refs(x, out)),
            _ => {}
        }
    }

    #[test]
    fn the_codebase_entry_tells_what_ingest_code_reads() {
        let c = &schema()["codebase"];
        let languages = c["languages"].as_object().expect("languages");
        for ext in ["rs", "py", "tsx", "mjs", "go"] {
            let named = crate::codebase::language_of_extension(ext).expect("read");
            assert!(languages[named]
                .as_array()
                .is_some_and(|e| e.contains(&json!(ext))));
        }
        assert_eq!(languages.len(), crate::codebase::LANGUAGES.len());
        assert_eq!(c["max_files"], crate::codebase::MAX_CODE_FILES);
        assert_eq!(c["max_path_chars"], crate::codebase::MAX_CODE_PATH_CHARS);
        assert_eq!(c["max_source_bytes"], crate::codebase::MAX_SOURCE_BYTES);
        assert_eq!(c["max_text_bytes"], crate::codebase::MAX_CODE_TEXT_BYTES);
    }

    #[test]
    fn every_call_is_described_and_every_reference_resolves() {
        let s = schema();
        let calls = s["calls"].as_array().expect("calls");
        for c in calls {
            assert!(!c["summary"].as_str().unwrap_or("").is_empty(), "{c}");
            assert!(c["args"].is_object() && c["result"].is_object(), "{c}");
        }
        let mut all = Vec::new();
        refs(&s, &mut all);
        assert!(!all.is_empty());
        for r in all {
            let name = r.strip_prefix("#/$defs/").expect("local reference");
            assert!(s["$defs"].get(name).is_some(), "unresolved {r}");
        }
    }

    #[test]
    fn what_faces_decide_by_call_is_declared_with_it() {
        let s = schema();
        let call = |m: &str| {
            s["calls"]
                .as_array()
                .and_then(|c| c.iter().find(|c| c["method"] == m))
                .cloned()
                .expect(m)
        };
        assert_eq!(call("seed")["unwrap"], json!("items"));
        assert_eq!(call("import")["unwrap"], json!("jsonl"));
        assert!(call("remember").get("unwrap").is_none());
        assert_eq!(call("remember")["creates"], json!(true));
        assert_eq!(call("forget")["creates"], json!(false));
        assert_eq!(call("extract")["stateless"], json!(true));
        assert_eq!(call("search")["stateless"], json!(false));
        for info in crate::api::CALLS {
            // A call that adds writes; one that needs no store writes none.
            assert!(!info.creates || info.writes, "{}", info.method);
            assert!(!info.stateless || !info.writes, "{}", info.method);
            // A method takes a field directly only when it is the arguments' one field.
            if let Some(field) = info.unwrap {
                let args = &call(info.method)["args"];
                let name = args["$ref"]
                    .as_str()
                    .and_then(|r| r.strip_prefix("#/$defs/"));
                let props = &s["$defs"][name.unwrap_or_default()]["properties"];
                let fields: Vec<&String> = props.as_object().expect("properties").keys().collect();
                assert_eq!(fields, [field], "{}", info.method);
            }
        }
    }

    #[test]
    fn arguments_say_what_is_accepted() {
        let s = schema();
        let search = &s["$defs"]["SearchRequest"];
        assert_eq!(search["additionalProperties"], json!(false));
        assert!(search["properties"]["limit"].is_object());
        assert_eq!(search["properties"]["vector"][EMBEDS], json!("query"));
        let mode = &s["$defs"]["RankMode"];
        assert_eq!(mode["oneOf"][0]["const"], json!("balanced"));
        assert!(mode["oneOf"][0]["description"].is_string());
        let seed = s["calls"]
            .as_array()
            .and_then(|c| c.iter().find(|c| c["method"] == "seed"))
            .expect("seed");
        assert_eq!(seed["args"]["$ref"], json!("#/$defs/SeedArgs"));
        assert_eq!(
            s["$defs"]["NewMemory"]["properties"]["vector"][EMBEDS],
            json!("content")
        );
    }

    #[test]
    fn a_call_for_one_agent_is_filled_in_and_the_owners_calls_are_refused() {
        let doc = schema();
        let call = |m: &str| {
            doc["calls"]
                .as_array()
                .unwrap()
                .iter()
                .find(|c| c["method"] == m)
                .unwrap()
                .clone()
        };
        assert_eq!(call("seed")["agents"], json!([["items", "*"]]));
        assert_eq!(call("search")["agents"], json!([[]]));
        for (m, owner) in [
            ("team_create", true),
            ("team_member_add", true),
            ("import", true),
            ("consolidate", true),
            ("search", false),
            ("embed", false),
            ("extract", false),
        ] {
            assert_eq!(call(m)["owner"], json!(owner), "{m}");
        }
        let mut args = json!({"items": [{"content": "a"}, {"content": "b", "agent_id": "bob"}]});
        for_agent(&call("seed"), &mut args, "bob").unwrap();
        assert_eq!(args["items"][0]["agent_id"], "bob");
        let mut args = json!({"items": [{"content": "a", "agent_id": "alice"}]});
        let err = for_agent(&call("seed"), &mut args, "bob").unwrap_err();
        assert!(err.to_string().contains("agent \"bob\" only"), "{err}");
        let err = for_agent(&call("team_member_add"), &mut json!({}), "bob").unwrap_err();
        assert!(
            err.to_string().contains("team_member_add is the owner's"),
            "{err}"
        );
        let mut args = json!({"query": "x"});
        for_agent(&call("search"), &mut args, "bob").unwrap();
        assert_eq!(args, json!({"query": "x", "agent_id": "bob"}));
    }
}
