//! The Python package's generated bindings, `python/mnemo/_calls.py`: a typed dict (or a
//! `Literal`) per schema definition, and one method per engine call with its keyword arguments,
//! its result's type and its docstring from the call's schema, so a call added or changed
//! reaches Python by regenerating (`wasm/tests/bindings.rs` fails when the file is stale).

use std::fmt::Write;

use serde_json::Value;

use crate::syntax::{distinct, ref_name, render, required, Syntax};

const HEADER: &str = "# Generated from the engine's call declarations (mnemo_core::api) by\n# `cargo run -p mnemo-wasm --example bindings`; do not edit.\n";

/// Python's keywords: not a method's, an argument's or a class field's name.
const KEYWORDS: &[&str] = &[
    "False", "None", "True", "and", "as", "assert", "async", "await", "break", "class", "continue",
    "def", "del", "elif", "else", "except", "finally", "for", "from", "global", "if", "import",
    "in", "is", "lambda", "nonlocal", "not", "or", "pass", "raise", "return", "try", "while",
    "with", "yield",
];

/// A Python identifier for a call or argument `name` (`import` and `from` are keywords:
/// `import_`, `from_`).
fn identifier(name: &str) -> String {
    if KEYWORDS.contains(&name) {
        format!("{name}_")
    } else {
        name.to_string()
    }
}

/// Python's words for a schema's type: definitions by name, `Literal`s, `List`, `Dict`.
struct Py;

impl Syntax for Py {
    fn named(&self, name: &str) -> String {
        name.to_string()
    }
    fn constant(&self, value: &Value) -> String {
        format!("Literal[{value}]")
    }
    fn enumeration(&self, values: &[Value]) -> String {
        let values: Vec<String> = values.iter().map(Value::to_string).collect();
        format!("Literal[{}]", values.join(", "))
    }
    fn union(&self, parts: Vec<String>) -> String {
        union(parts.into_iter())
    }
    fn json(&self, json_type: &str, schema: &Value) -> String {
        match json_type {
            "string" => "str".to_string(),
            "integer" => "int".to_string(),
            "number" => "float".to_string(),
            "boolean" => "bool".to_string(),
            "null" => "None".to_string(),
            "array" => format!("List[{}]", hint(&schema["items"])),
            _ => match schema.get("additionalProperties") {
                Some(v) if v.is_object() => format!("Dict[str, {}]", hint(v)),
                _ => "Dict[str, Any]".to_string(),
            },
        }
    }
    fn any(&self) -> String {
        "Any".into()
    }
}

/// The Python type hint of a JSON schema: a definition by its name.
fn hint(schema: &Value) -> String {
    render(schema, &Py)
}

/// `a | b | None`, each once, `None` last (`Any` alone when any part is).
fn union(hints: impl Iterator<Item = String>) -> String {
    let parts = hints.flat_map(|h| h.split(" | ").map(str::to_string).collect::<Vec<_>>());
    let mut all = distinct(parts);
    if all.iter().any(|a| a == "Any") {
        return "Any".into();
    }
    all.sort_by_key(|a| a == "None");
    all.join(" | ")
}

/// The schema `definition` a `$ref` points to, else `schema` itself.
fn resolved<'a>(schema: &'a Value, defs: &'a Value) -> &'a Value {
    match ref_name(schema) {
        Some(name) => &defs[name],
        None => schema,
    }
}

/// A docstring's or comment's text on one line: no `"""`, no trailing backslash.
fn docstring(text: &str) -> String {
    text.replace('\\', "\\\\")
        .replace("\"\"\"", "'''")
        .replace('\n', " ")
}

/// A class name for each variant of a tagged union: the definition's name and its tag.
fn variant_name(name: &str, variant: &Value, i: usize) -> String {
    let tag = variant["properties"]
        .as_object()
        .into_iter()
        .flatten()
        .find_map(|(_, p)| p["const"].as_str());
    match tag {
        Some(tag) => {
            let mut out = name.to_string();
            for word in tag.split('_') {
                let mut cs = word.chars();
                if let Some(c) = cs.next() {
                    out.extend(c.to_uppercase());
                    out.extend(cs);
                }
            }
            out
        }
        None => format!("{name}{i}"),
    }
}

/// The typed dict of an object schema: class syntax, or the functional form when a field's
/// name is a keyword (`from`).
fn typed_dict(out: &mut String, name: &str, schema: &Value) {
    let needed = required(schema);
    let props = schema["properties"].as_object().into_iter().flatten();
    let field = |field: &str, prop: &Value| {
        let h = hint(prop);
        if needed.contains(field) {
            h
        } else {
            format!("NotRequired[{h}]")
        }
    };
    let about = docstring(schema["description"].as_str().unwrap_or(name));
    if props.clone().any(|(f, _)| KEYWORDS.contains(&f.as_str())) {
        let _ = writeln!(out, "#: {about}");
        let _ = writeln!(out, "{name} = TypedDict(\"{name}\", {{");
        for (f, prop) in props {
            let _ = writeln!(
                out,
                "    #: {}",
                docstring(prop["description"].as_str().unwrap_or(""))
            );
            let _ = writeln!(out, "    \"{f}\": \"{}\",", field(f, prop));
        }
        out.push_str("})\n\n\n");
        return;
    }
    let _ = writeln!(out, "class {name}(TypedDict):");
    let _ = writeln!(out, "    \"\"\"{about}\"\"\"\n");
    for (f, prop) in props {
        if let Some(d) = prop["description"].as_str() {
            let _ = writeln!(out, "    #: {}", docstring(d));
        }
        let _ = writeln!(out, "    {f}: {}", field(f, prop));
    }
    out.push_str("\n\n");
}

/// The module's types: a `Literal` per string enum, a typed dict per object, a union of typed
/// dicts per tagged union (the functional typed dicts and unions last, as they are evaluated
/// when the module loads).
fn types(defs: &Value) -> String {
    let (mut literals, mut classes, mut last) = (String::new(), String::new(), String::new());
    for (name, def) in defs.as_object().into_iter().flatten() {
        let about = docstring(def["description"].as_str().unwrap_or(name));
        let variants = def["oneOf"].as_array();
        if def["properties"].as_object().is_some_and(|p| !p.is_empty()) {
            typed_dict(&mut classes, name, def);
        } else if let Some(vs) =
            variants.filter(|v| v.iter().any(|v| v.get("properties").is_some()))
        {
            let names: Vec<String> = vs
                .iter()
                .enumerate()
                .map(|(i, v)| variant_name(name, v, i))
                .collect();
            for (v, n) in vs.iter().zip(&names) {
                typed_dict(&mut classes, n, v);
            }
            let _ = writeln!(
                last,
                "#: {about}\n{name}: TypeAlias = Union[{}]\n",
                names.join(", ")
            );
        } else if let Some(consts) = variants.and_then(|vs| {
            vs.iter()
                .map(|v| v.get("const"))
                .collect::<Option<Vec<_>>>()
        }) {
            let values: Vec<String> = consts.iter().map(|c| c.to_string()).collect();
            let _ = writeln!(
                literals,
                "#: {about}\n{name}: TypeAlias = Literal[{}]\n",
                values.join(", ")
            );
        } else {
            let _ = writeln!(literals, "#: {about}\n{name}: TypeAlias = {}\n", hint(def));
        }
    }
    format!("{literals}\n{classes}{last}")
}

/// What `ingest_code` reads (the schema's `codebase`), as constants a repository walk keeps to.
fn codebase(what: &Value) -> String {
    let mut out = String::from("\n");
    let languages: Vec<String> = what["languages"]
        .as_object()
        .into_iter()
        .flatten()
        .map(|(name, exts)| {
            // Quoted as JSON quotes them, as the literals above are.
            let exts: Vec<String> = exts
                .as_array()
                .into_iter()
                .flatten()
                .map(Value::to_string)
                .collect();
            // A tuple of one needs its comma.
            let one = if exts.len() == 1 { "," } else { "" };
            format!("{}: ({}{one})", Value::from(name.as_str()), exts.join(", "))
        })
        .collect();
    out += "#: The languages `ingest_code` parses from a file's `text`, each with its file extensions.\n";
    let _ = writeln!(
        out,
        "CODE_LANGUAGES: Dict[str, Tuple[str, ...]] = {{{}}}",
        languages.join(", ")
    );
    for (key, name, about) in [
        (
            "max_files",
            "MAX_CODE_FILES",
            "Files one `ingest_code` call takes at most.",
        ),
        (
            "max_path_chars",
            "MAX_CODE_PATH_CHARS",
            "The longest path of a file, in characters.",
        ),
        (
            "max_source_bytes",
            "MAX_SOURCE_BYTES",
            "The longest `text` of one file, in bytes of UTF-8.",
        ),
        (
            "max_text_bytes",
            "MAX_CODE_TEXT_BYTES",
            "The most `text` one `ingest_code` call reads, in bytes of UTF-8.",
        ),
    ] {
        let _ = writeln!(out, "#: {about}\n{name} = {}", what[key]);
    }
    out
}

/// Generates `python/mnemo/_calls.py` from the schema document.
pub fn generate(schema: &Value) -> String {
    let defs = &schema["$defs"];
    let mut out = String::from(HEADER);
    out += "\"\"\"The engine's calls as methods of `Mnemo`, one per declared call, and the types of their\n";
    out += "arguments and answers (typed dicts of the JSON they are).\"\"\"\n\n";
    // `typing`'s names: a method named `list` shadows the builtin in the class's annotations.
    out += "from __future__ import annotations\n\n";
    out += "from typing import Any, Dict, List, Literal, NotRequired, Tuple, TypeAlias, TypedDict, Union, cast\n\n";
    out += &types(defs);
    out += &codebase(&schema["codebase"]);
    out += "\n";
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
            let mut h = hint(prop);
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
        let result = hint(&call["result"]);
        let _ = writeln!(
            out,
            "\n    def {}({signature}) -> {result}:",
            identifier(method)
        );
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
            "        given: List[Tuple[str, Any]] = [{}]\n        return cast(\"{result}\", self.call(\"{method}\", {{k: v for k, v in given if v is not None}}))",
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
        assert_eq!(
            hint(&serde_json::json!({"type": ["string", "null"]})),
            "str | None"
        );
        assert_eq!(
            hint(&serde_json::json!({"type": "array", "items": {"$ref": "#/$defs/Kind"}})),
            "List[Kind]"
        );
        assert_eq!(
            hint(&serde_json::json!({"anyOf": [{"type": "null"}, {"type": "integer"}]})),
            "int | None"
        );
        assert_eq!(
            hint(
                &serde_json::json!({"type": "object", "additionalProperties": {"type": "integer"}})
            ),
            "Dict[str, int]"
        );
        assert_eq!(identifier("from"), "from_");
        assert_eq!(identifier("query"), "query");
    }

    #[test]
    fn definitions_become_literals_typed_dicts_and_unions() {
        let defs = serde_json::json!({
            "Kind": {"oneOf": [{"type": "string", "const": "fact"}, {"type": "string", "const": "narrative"}]},
            "Hop": {"type": "object", "description": "A hop.", "required": ["from"],
                    "properties": {"from": {"type": "string"}, "to": {"type": ["string", "null"]}}},
            "Outcome": {"oneOf": [
                {"type": "object", "required": ["action"], "properties": {"action": {"const": "created"}, "id": {"type": "string"}}},
                {"type": "object", "required": ["action"], "properties": {"action": {"const": "not_found"}}}
            ]}
        });
        let out = types(&defs);
        assert!(
            out.contains("Kind: TypeAlias = Literal[\"fact\", \"narrative\"]"),
            "{out}"
        );
        assert!(out.contains("Hop = TypedDict(\"Hop\", {"), "{out}");
        assert!(
            out.contains("\"to\": \"NotRequired[str | None]\","),
            "{out}"
        );
        assert!(out.contains("class OutcomeNotFound(TypedDict):"), "{out}");
        assert!(out.contains("    id: NotRequired[str]"), "{out}");
        assert!(
            out.contains("Outcome: TypeAlias = Union[OutcomeCreated, OutcomeNotFound]"),
            "{out}"
        );
    }
}
