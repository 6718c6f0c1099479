//! The JSON Schema of the call vocabulary, made from the declaration in `calls!`: every call's
//! method, summary, MCP tool name, and the schemas of its arguments and result, with the
//! types they share under `$defs`. Faces derive their own bindings from it (the npm package's
//! TypeScript declarations, the HTTP server's query parameters, the CLI's `call --list`).

use schemars::generate::SchemaSettings;
use serde_json::{json, Value};

use super::{declared, CallInfo};

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
/// args, result, mcp?, unwrap?}], "$defs"}` (the [`CallInfo`] of each call, and its types). Argument schemas describe what a call accepts (fields with a default may be left
/// out); result schemas what it answers (every field is there unless said otherwise). A type
/// in both (an extracted memory) is described as an argument.
pub fn schema() -> Value {
    let mut args = SchemaSettings::default().for_deserialize().into_generator();
    let mut results = SchemaSettings::default().for_serialize().into_generator();
    let calls: Vec<Value> = declared(&mut args, &mut results)
        .into_iter()
        .map(|c| {
            let mut call = json!({
                "method": c.info.method,
                "summary": c.info.summary(),
                "writes": c.info.writes,
                "creates": c.info.creates,
                "stateless": c.info.stateless,
                "args": c.args,
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
    let mut defs = args.definitions().clone();
    for (name, def) in results.definitions() {
        defs.entry(name.clone()).or_insert_with(|| def.clone());
    }
    json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "Mnemo calls",
        "calls": calls,
        "$defs": defs,
    })
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
}
