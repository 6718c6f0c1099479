//! The API reference, `docs/API.md`, generated from the engine's call schema (`api::schema`):
//! each call with what it does, its names on every face, a table of its argument fields (type,
//! whether required, description and every limit the schema states) and its result, then every
//! type the calls name. `cargo run -p mnemo-wasm --example bindings` writes it beside the npm
//! package's bindings; a test fails when the checked-in file differs from what this produces.

use std::fmt::Write;

use serde_json::{Map, Value};

use crate::syntax::{distinct, ref_name, render, required, Syntax};

/// What the reference says before the calls: where it comes from and how a call is reached.
const PREAMBLE: &str = "\
# Mnemo API reference

<!-- Generated from the engine's call declarations (mnemo_core::api) by
`cargo run -p mnemo-wasm --example bindings`; do not edit. -->

Every engine call is declared once, in `calls!` (`core/src/api/mod.rs`), and every face offers
it with the same snake_case JSON arguments and answer:

- Rust: a typed `Engine` method, or `Engine::call_json(method, json)`;
- JavaScript (`www/`): the camelCase method on `Mnemo` (`setStatus` for `set_status`);
- HTTP (`mnemo serve`, the Cloudflare Worker): `POST /api/v1/call/{method}` with the arguments
  as the body; `GET /api/v1/schema` returns the declarations as JSON Schema;
- CLI: `mnemo call METHOD JSON` (`mnemo call --list`, `mnemo call METHOD --schema`);
- WIT component: `store.call(method, args)`;
- MCP (`mnemo mcp`): the calls that have a tool name, as tools.

A refused argument is reported with its path (`invalid args.items[2].importance: …`).

## Adding a call

1. Write the engine method (a thin `Engine` method in `core/src/engine.rs` over the feature
   module that does the work).
2. Declare it once in `calls!` (`core/src/api/mod.rs`): its doc comment, method name, argument
   and result types (deriving `schemars::JsonSchema`, each field with a one-line doc), and the
   engine code that runs it.
3. Run `cargo run -p mnemo-wasm --example bindings` to regenerate the npm package's
   declarations, its call table, its schema and this reference.

The component, `mnemo call`, `POST /api/v1/call/{method}`, MCP (when the call has a tool name)
and the JS package then offer it; a typed CLI command or a text rendering in
`host-native/src/output.rs` is optional. Tests ask every face for every declared call.
";

/// A type name as a link to its section.
fn type_link(name: &str) -> String {
    format!("[`{name}`](#type-{})", name.to_lowercase())
}

/// The reference's words for a schema's type: links to the named types, `list of`, `map of`.
struct Prose;

impl Syntax for Prose {
    fn named(&self, name: &str) -> String {
        type_link(name)
    }
    fn constant(&self, value: &Value) -> String {
        format!("`{value}`")
    }
    fn enumeration(&self, _values: &[Value]) -> String {
        "string".into()
    }
    fn union(&self, parts: Vec<String>) -> String {
        alternatives(parts)
    }
    fn json(&self, json_type: &str, schema: &Value) -> String {
        match json_type {
            "array" => format!("list of {}", type_of(&schema["items"])),
            "object" => match schema.get("additionalProperties") {
                Some(v) if v.is_object() => format!("map of {}", type_of(v)),
                _ => "object".into(),
            },
            other => other.to_string(),
        }
    }
    fn any(&self) -> String {
        "any".into()
    }
}

/// The type of a schema in words, with links to the named types.
fn type_of(schema: &Value) -> String {
    render(schema, &Prose)
}

/// Distinct alternatives joined by "or".
fn alternatives(parts: impl IntoIterator<Item = String>) -> String {
    distinct(parts).join(" or ")
}

/// Numeric formats that only say the width of a number (its range is stated apart).
const WIDTHS: &[&str] = &[
    "int", "int8", "int16", "int32", "int64", "uint", "uint8", "uint16", "uint32", "uint64",
    "float", "double",
];

/// The limits a schema states: bounds, lengths, pattern, allowed values, format, default.
fn limits(schema: &Value) -> Vec<String> {
    let mut out = Vec::new();
    let num = |k: &str| schema.get(k).filter(|v| v.is_number());
    match (num("minimum"), num("maximum")) {
        (Some(lo), Some(hi)) => out.push(format!("{lo}–{hi}")),
        (Some(lo), None) => out.push(format!("≥ {lo}")),
        (None, Some(hi)) => out.push(format!("≤ {hi}")),
        (None, None) => {}
    }
    if let Some(v) = num("exclusiveMinimum") {
        out.push(format!("> {v}"));
    }
    if let Some(v) = num("exclusiveMaximum") {
        out.push(format!("< {v}"));
    }
    for (lo, hi, unit) in [
        ("minLength", "maxLength", "characters"),
        ("minItems", "maxItems", "items"),
    ] {
        match (num(lo), num(hi)) {
            (Some(lo), Some(hi)) => out.push(format!("{lo}–{hi} {unit}")),
            (Some(lo), None) => out.push(format!("at least {lo} {unit}")),
            (None, Some(hi)) => out.push(format!("at most {hi} {unit}")),
            (None, None) => {}
        }
    }
    if let Some(p) = schema["pattern"].as_str() {
        out.push(format!("pattern `{p}`"));
    }
    if let Some(values) = schema["enum"].as_array() {
        let values: Vec<String> = values.iter().map(|v| format!("`{}`", text(v))).collect();
        out.push(format!("one of {}", values.join(", ")));
    }
    if let Some(f) = schema["format"].as_str().filter(|f| !WIDTHS.contains(f)) {
        out.push(format!("format `{f}`"));
    }
    // An optional value of a constrained type: the limits of its alternatives that are not null.
    for key in ["anyOf", "oneOf"] {
        for option in schema[key].as_array().into_iter().flatten() {
            out.extend(limits(option));
        }
    }
    if let Some(items) = schema.get("items").filter(|i| i.is_object()) {
        let each = limits(items);
        if !each.is_empty() {
            out.push(format!("each: {}", each.join(", ")));
        }
    }
    if let Some(d) = schema.get("default").filter(|d| !d.is_null()) {
        out.push(format!("default `{d}`"));
    }
    out
}

/// A JSON value as plain text (a string without its quotes).
fn text(v: &Value) -> String {
    v.as_str().map_or_else(|| v.to_string(), str::to_string)
}

/// A description as one line fit for a table cell or a paragraph.
fn prose(text: Option<&str>) -> String {
    let text = text.unwrap_or_default();
    text.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .replace("[`", "`")
        .replace("`]", "`")
        .replace('|', "\\|")
}

/// The table of an object's fields.
fn field_table(out: &mut String, schema: &Value, props: &Map<String, Value>) {
    let required = required(schema);
    out.push_str("| field | type | required | description | limits |\n");
    out.push_str("|---|---|---|---|---|\n");
    for (name, prop) in props {
        let needed = required.contains(name.as_str());
        // A required field has no default a caller may rely on, whatever the schema says.
        let mut stated = limits(prop);
        if needed {
            stated.retain(|l| !l.starts_with("default "));
        }
        let _ = writeln!(
            out,
            "| `{name}` | {} | {} | {} | {} |",
            type_of(prop).replace('|', "\\|"),
            if needed { "yes" } else { "no" },
            prose(prop["description"].as_str()),
            stated.join("; ").replace('|', "\\|"),
        );
    }
}

/// The types a schema names, directly or through lists, maps and alternatives.
fn named(schema: &Value, out: &mut Vec<String>) {
    match schema {
        Value::Object(map) => {
            if let Some(name) = ref_name(schema) {
                if !out.iter().any(|n| n == name) {
                    out.push(name.to_string());
                }
            }
            for v in map.values() {
                named(v, out);
            }
        }
        Value::Array(items) => items.iter().for_each(|v| named(v, out)),
        _ => {}
    }
}

/// One named type: what it is, then its fields, variants or values.
fn definition(out: &mut String, name: &str, schema: &Value) {
    let _ = writeln!(out, "### type `{name}`\n");
    let about = prose(schema["description"].as_str());
    if !about.is_empty() {
        let _ = writeln!(out, "{about}\n");
    }
    if let Some(props) = schema["properties"].as_object().filter(|p| !p.is_empty()) {
        field_table(out, schema, props);
        out.push('\n');
    } else if let Some(values) = schema["enum"].as_array() {
        let values: Vec<String> = values.iter().map(|v| format!("`{}`", text(v))).collect();
        let _ = writeln!(out, "One of {}.\n", values.join(", "));
    } else if let Some(variants) = schema["oneOf"].as_array() {
        let _ = writeln!(out, "One of:\n");
        for v in variants {
            variant(out, v);
        }
        out.push('\n');
    } else {
        let stated = limits(schema);
        if stated.is_empty() {
            let _ = writeln!(out, "A {}.\n", type_of(schema));
        } else {
            let _ = writeln!(out, "A {}: {}.\n", type_of(schema), stated.join("; "));
        }
    }
}

/// One alternative of a `oneOf`: a constant, or an object told apart by a constant field.
fn variant(out: &mut String, v: &Value) {
    let about = prose(v["description"].as_str());
    let dash = if about.is_empty() { "" } else { " — " };
    let constant = v.get("const").map(std::slice::from_ref);
    if let Some(values) = v["enum"].as_array().map(Vec::as_slice).or(constant) {
        let values: Vec<String> = values.iter().map(|v| format!("`{}`", text(v))).collect();
        let _ = writeln!(out, "- {}{dash}{about}", values.join(", "));
        return;
    }
    let Some(props) = v["properties"].as_object() else {
        let _ = writeln!(out, "- {}{dash}{about}", type_of(v));
        return;
    };
    let tag = props
        .iter()
        .find_map(|(k, p)| p.get("const").map(|c| format!("`{k}: {c}`")))
        .unwrap_or_else(|| "an object".into());
    let fields: Vec<String> = props
        .iter()
        .filter(|(_, p)| p.get("const").is_none())
        .map(|(k, p)| format!("`{k}` ({})", type_of(p)))
        .collect();
    let with = if fields.is_empty() {
        String::new()
    } else {
        format!(" with {}", fields.join(", "))
    };
    let _ = writeln!(out, "- {tag}{with}{dash}{about}");
}

/// Generates `docs/API.md` from the schema document.
pub fn generate(schema: &Value) -> String {
    let defs = &schema["$defs"];
    let calls = schema["calls"].as_array().cloned().unwrap_or_default();
    let mut out = String::from(PREAMBLE);

    out.push_str("\n## Calls\n\n");
    for call in &calls {
        let method = call["method"].as_str().unwrap_or_default();
        let _ = writeln!(out, "- [`{method}`](#{method})");
    }
    out.push('\n');

    let mut types = Vec::new();
    for call in &calls {
        let method = call["method"].as_str().unwrap_or_default();
        let _ = writeln!(out, "### `{method}`\n");
        let _ = writeln!(out, "{}\n", prose(call["summary"].as_str()));
        let mut faces = format!("HTTP `POST /api/v1/call/{method}`");
        if let Some(tool) = call["mcp"].as_str() {
            let _ = write!(faces, " · MCP tool `{tool}`");
        }
        if call["writes"].as_bool() == Some(true) {
            faces += " · writes";
        }
        let _ = writeln!(out, "{faces}\n");
        let args = ref_name(&call["args"]).map_or(&call["args"], |n| &defs[n]);
        match args["properties"].as_object().filter(|p| !p.is_empty()) {
            Some(props) => {
                let name = ref_name(&call["args"]).unwrap_or("arguments");
                let _ = writeln!(out, "Arguments (`{name}`):\n");
                field_table(&mut out, args, props);
                out.push('\n');
            }
            None => out.push_str("No arguments.\n\n"),
        }
        let _ = writeln!(out, "Result: {}\n", type_of(&call["result"]));
        named(args, &mut types);
        named(&call["result"], &mut types);
    }

    // Every type the calls name, and the types those name in turn, in alphabetical order.
    let mut i = 0;
    while i < types.len() {
        let def = &defs[types[i].as_str()];
        named(def, &mut types);
        i += 1;
    }
    types.sort();
    out.push_str("## Types\n\n");
    for name in &types {
        definition(&mut out, name, &defs[name.as_str()]);
    }
    while out.ends_with("\n\n") {
        out.pop();
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_field_is_described_with_its_type_and_every_limit_the_schema_states() {
        let field = json!({"type": ["integer", "null"], "format": "uint", "minimum": 1, "maximum": 1000, "default": 10});
        assert_eq!(type_of(&field), "integer or null");
        assert_eq!(limits(&field), ["1–1000", "default `10`"]);
        let id = json!({"type": "string", "maxLength": 64, "pattern": "^[a-z]+$"});
        assert_eq!(limits(&id), ["at most 64 characters", "pattern `^[a-z]+$`"]);
        let optional = json!({"anyOf": [{"type": "integer", "minimum": 0}, {"type": "null"}]});
        assert_eq!(type_of(&optional), "integer or null");
        assert_eq!(limits(&optional), ["≥ 0"]);
        let list = json!({"type": "array", "items": {"$ref": "#/$defs/Memory"}, "maxItems": 10});
        assert_eq!(type_of(&list), "list of [`Memory`](#type-memory)");
        assert_eq!(limits(&list), ["at most 10 items"]);
    }

    #[test]
    fn every_call_and_every_type_it_names_has_a_section() {
        let schema = mnemo_core::api::schema();
        let doc = generate(&schema);
        for info in mnemo_core::CALLS {
            assert!(
                doc.contains(&format!("### `{}`\n", info.method)),
                "{}",
                info.method
            );
        }
        assert!(doc.contains("Arguments (`RememberArgs`):"));
        for name in ["WriteReport", "NewMemory", "MemoryType", "Outcome"] {
            assert!(doc.contains(&format!("### type `{name}`\n")), "{name}");
        }
        assert!(doc.contains("MCP tool `memory_store`"));
    }
}
