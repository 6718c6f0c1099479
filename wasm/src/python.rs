//! The Python package's generated bindings, `python/mnemo/_calls.py`: one method per engine
//! call, its keyword arguments and their types and its docstring from the call's schema, so a
//! call added or changed reaches Python by regenerating (`wasm/tests/bindings.rs` fails when
//! the file is stale).

use std::fmt::Write;

use serde_json::Value;

const HEADER: &str = "# Generated from the engine's call declarations (mnemo_core::api) by\n# `cargo run -p mnemo-wasm --example bindings`; do not edit.\n";

/// A Python identifier for a call or argument `name` (`import` and `from` are keywords:
/// `import_`, `from_`).
fn identifier(name: &str) -> String {
    const KEYWORDS: &[&str] = &[
        "False", "None", "True", "and", "as", "assert", "async", "await", "break", "class",
        "continue", "def", "del", "elif", "else", "except", "finally", "for", "from", "global",
        "if", "import", "in", "is", "lambda", "nonlocal", "not", "or", "pass", "raise", "return",
        "try", "while", "with", "yield",
    ];
    if KEYWORDS.contains(&name) {
        format!("{name}_")
    } else {
        name.to_string()
    }
}

/// The schema `definition` a `$ref` points to, else `schema` itself.
fn resolved<'a>(schema: &'a Value, defs: &'a Value) -> &'a Value {
    match schema["$ref"].as_str().and_then(|r| r.rsplit('/').next()) {
        Some(name) => &defs[name],
        None => schema,
    }
}

/// The Python type hint of a JSON schema.
fn hint(schema: &Value, defs: &Value) -> String {
    if let Some(any) = schema["anyOf"].as_array().or(schema["oneOf"].as_array()) {
        return union(any.iter().map(|s| hint(s, defs)));
    }
    let s = resolved(schema, defs);
    if s.get("enum").is_some() || s["const"].is_string() {
        return "str".into();
    }
    if let Some(any) = s["anyOf"].as_array().or(s["oneOf"].as_array()) {
        return union(any.iter().map(|x| hint(x, defs)));
    }
    let one = |t: &str| match t {
        "string" => "str".to_string(),
        "integer" => "int".to_string(),
        "number" => "float".to_string(),
        "boolean" => "bool".to_string(),
        "null" => "None".to_string(),
        "array" => format!("List[{}]", hint(&s["items"], defs)),
        _ => "Dict[str, Any]".to_string(),
    };
    match &s["type"] {
        Value::String(t) => one(t),
        Value::Array(ts) => union(ts.iter().filter_map(Value::as_str).map(one)),
        _ if s.get("properties").is_some() => "Dict[str, Any]".into(),
        _ => "Any".into(),
    }
}

/// `a | b | None`, each once, `None` last.
fn union(hints: impl Iterator<Item = String>) -> String {
    let mut all: Vec<String> = Vec::new();
    for h in hints {
        for part in h.split(" | ") {
            if !all.iter().any(|a| a == part) {
                all.push(part.to_string());
            }
        }
    }
    if all.iter().any(|a| a == "Any") {
        return "Any".into();
    }
    all.sort_by_key(|a| a == "None");
    all.join(" | ")
}

/// A docstring's text: no `"""`, no trailing backslash.
fn docstring(text: &str) -> String {
    text.replace('\\', "\\\\").replace("\"\"\"", "'''")
}

/// Generates `python/mnemo/_calls.py` from the schema document.
pub fn generate(schema: &Value) -> String {
    let defs = &schema["$defs"];
    let mut out = String::from(HEADER);
    out += "\"\"\"The engine's calls as methods of `Mnemo`, one per declared call.\"\"\"\n\n";
    // `typing`'s names: a method named `list` shadows the builtin in the class's annotations.
    out += "from __future__ import annotations\n\nfrom typing import Any, Dict, List, Tuple\n\n\n";
    out += "class Calls:\n";
    out += "    \"\"\"Every engine call as a method: keyword arguments as the call's schema names them\n";
    out += "    (see docs/API.md), the answer as parsed JSON.\"\"\"\n\n";
    out += "    def call(self, method: str, args: Dict[str, Any] | None = None) -> Any:\n";
    out += "        \"\"\"Runs one engine call by its name with its arguments.\"\"\"\n";
    out += "        raise NotImplementedError\n";
    for call in schema["calls"].as_array().into_iter().flatten() {
        let method = call["method"].as_str().unwrap_or_default();
        let args = resolved(&call["args"], defs);
        let required: Vec<&str> = args["required"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
            .collect();
        let mut params: Vec<(String, String, String, bool)> = Vec::new();
        for (name, prop) in args["properties"].as_object().into_iter().flatten() {
            let needed = required.contains(&name.as_str());
            let mut h = hint(prop, defs);
            if !needed && h != "Any" && !h.ends_with("None") {
                h += " | None";
            }
            params.push((name.clone(), identifier(name), h, needed));
        }
        params.sort_by_key(|p| !p.3);
        let mut signature = String::from("self");
        if !params.is_empty() {
            signature += ", *";
        }
        for (_, id, h, needed) in &params {
            let _ = write!(signature, ", {id}: {h}");
            if !needed {
                signature += " = None";
            }
        }
        let _ = writeln!(out, "\n    def {}({signature}) -> Any:", identifier(method));
        let summary = docstring(call["summary"].as_str().unwrap_or(method));
        let _ = writeln!(out, "        \"\"\"{summary}");
        out += "\n        Arguments (docs/API.md):\n";
        for (name, id, _, needed) in &params {
            let prop = resolved(&args["properties"][name], defs);
            let about = args["properties"][name]["description"]
                .as_str()
                .or(prop["description"].as_str())
                .unwrap_or("");
            let about = docstring(&about.replace('\n', " "));
            let optional = if *needed { "" } else { " Optional." };
            let _ = writeln!(out, "            {id}: {about}{optional}");
        }
        out += "        \"\"\"\n";
        let pairs: Vec<String> = params
            .iter()
            .map(|(name, id, _, _)| format!("(\"{name}\", {id})"))
            .collect();
        let _ = writeln!(
            out,
            "        given: List[Tuple[str, Any]] = [{}]\n        return self.call(\"{method}\", {{k: v for k, v in given if v is not None}})",
            pairs.join(", ")
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hints_and_names() {
        let defs = serde_json::json!({"Kind": {"type": "string", "enum": ["fact"]}});
        assert_eq!(
            hint(&serde_json::json!({"type": ["string", "null"]}), &defs),
            "str | None"
        );
        assert_eq!(
            hint(
                &serde_json::json!({"type": "array", "items": {"$ref": "#/$defs/Kind"}}),
                &defs
            ),
            "List[str]"
        );
        assert_eq!(
            hint(
                &serde_json::json!({"anyOf": [{"type": "null"}, {"type": "integer"}]}),
                &defs
            ),
            "int | None"
        );
        assert_eq!(identifier("from"), "from_");
        assert_eq!(identifier("query"), "query");
    }
}
