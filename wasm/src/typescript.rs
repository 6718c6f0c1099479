//! The npm package's bindings, generated from the engine's call schema (`api::schema`): its
//! TypeScript declarations (`www/src/index.d.ts`) and its table of calls (`www/src/calls.js`,
//! which gives every call its method on `Mnemo` and says where the texts sit whose vectors a
//! host embedder supplies). `cargo run -p mnemo-wasm --example bindings` writes both; a test
//! fails when the checked-in files differ from what this produces.

use std::fmt::Write;

use serde_json::{Map, Value};

use crate::syntax::{distinct, ref_name, render, required, Syntax};
use mnemo_core::api::properties;

/// Marks a vector field in the schema; its value names the field holding the vector's text.
const EMBEDS: &str = mnemo_core::api::EMBEDS;

/// The field a call's JS method takes directly, if the declaration says it takes one.
fn unwrapped(call: &Value) -> Option<&str> {
    call["unwrap"].as_str()
}

/// Type names of earlier releases of the package, kept as aliases.
const ALIASES: &[(&str, &str)] = &[
    ("SearchArgs", "SearchRequest"),
    ("ListArgs", "ListRequest"),
    ("HeartbeatArgs", "HeartbeatRequest"),
    ("EntitiesArgs", "EntitiesRequest"),
    ("RelationshipsArgs", "RelationshipsRequest"),
    ("TraverseArgs", "TraverseRequest"),
];

/// The two generated files.
pub struct Bindings {
    /// `www/src/index.d.ts`.
    pub declarations: String,
    /// `www/src/calls.js`.
    pub calls: String,
    /// `www/src/schema.json`: the call schema itself, which the WebAssembly reads its HTTP
    /// routes' argument types from (`Mnemo.loadSchema`) instead of carrying its generator.
    pub schema: String,
}

/// Where a host embedder's vector goes: the objects at `path` (`*` for each item of a list)
/// get `vector` from their `text`.
#[derive(Debug, PartialEq)]
struct Slot {
    path: Vec<String>,
    text: String,
    vector: String,
}

/// A snake_case method as a JS method name (`set_status` → `setStatus`).
fn camel(method: &str) -> String {
    let mut out = String::new();
    let mut upper = false;
    for c in method.chars() {
        if c == '_' {
            upper = true;
        } else if upper {
            out.extend(c.to_uppercase());
            upper = false;
        } else {
            out.push(c);
        }
    }
    out
}

/// A description as a JSDoc comment at `indent`.
fn doc(out: &mut String, text: Option<&str>, indent: &str) {
    let Some(text) = text.map(str::trim).filter(|t| !t.is_empty()) else {
        return;
    };
    let text = text
        .replace("*/", "*\\/")
        .replace("[`", "`")
        .replace("`]", "`");
    let lines = wrap(&text, 96 - indent.len());
    if lines.len() == 1 {
        let _ = writeln!(out, "{indent}/** {} */", lines[0]);
    } else {
        let _ = writeln!(out, "{indent}/**");
        for l in lines {
            let _ = writeln!(out, "{indent} * {l}");
        }
        let _ = writeln!(out, "{indent} */");
    }
}

/// Text in lines of at most `width` characters (its own line breaks kept).
fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut out = Vec::new();
    for line in text.lines() {
        let mut cur = String::new();
        for word in line.split_whitespace() {
            if !cur.is_empty() && cur.chars().count() + 1 + word.chars().count() > width {
                out.push(std::mem::take(&mut cur));
            }
            if !cur.is_empty() {
                cur.push(' ');
            }
            cur += word;
        }
        out.push(cur);
    }
    out
}

/// TypeScript's words for a schema's type; `indent` is where an inline object's fields go.
struct Ts<'a> {
    indent: &'a str,
}

impl Syntax for Ts<'_> {
    fn named(&self, name: &str) -> String {
        name.to_string()
    }
    fn constant(&self, value: &Value) -> String {
        value.to_string().replace('"', "'")
    }
    fn enumeration(&self, values: &[Value]) -> String {
        union(values.iter().map(|v| self.constant(v)))
    }
    fn union(&self, parts: Vec<String>) -> String {
        union(parts)
    }
    fn json(&self, json_type: &str, schema: &Value) -> String {
        match json_type {
            "integer" | "number" => "number".to_string(),
            "array" => {
                let item = ts(&schema["items"], self.indent);
                if item.contains(' ') {
                    format!("({item})[]")
                } else {
                    format!("{item}[]")
                }
            }
            "object" => object(schema, self.indent),
            other => other.to_string(),
        }
    }
    fn any(&self) -> String {
        "unknown".into()
    }
}

/// The TypeScript type of a schema.
fn ts(schema: &Value, indent: &str) -> String {
    if schema.get(EMBEDS).is_some() {
        return union(["Vector".to_string()].into_iter().chain(nullable(schema)));
    }
    render(schema, &Ts { indent })
}

/// `null` when the schema allows it (for a vector field's union).
fn nullable(schema: &Value) -> Option<String> {
    let null = |t: &Value| t.as_str() == Some("null");
    match &schema["type"] {
        Value::Array(ts) if ts.iter().any(null) => Some("null".into()),
        _ => None,
    }
}

/// Distinct alternatives joined by `|`.
fn union(parts: impl IntoIterator<Item = String>) -> String {
    distinct(parts).join(" | ")
}

/// An object type: its properties, or a map of one value type.
fn object(schema: &Value, indent: &str) -> String {
    match schema["properties"].as_object() {
        Some(props) if !props.is_empty() => {
            let inner = format!("{indent}  ");
            let mut out = String::from("{\n");
            fields(&mut out, schema, props, &inner);
            out + indent + "}"
        }
        _ => match schema.get("additionalProperties") {
            Some(v) if v.is_object() => format!("Record<string, {}>", ts(v, indent)),
            Some(Value::Bool(false)) => "Record<string, never>".into(),
            _ => "Record<string, unknown>".into(),
        },
    }
}

/// The fields of an object type, one per line.
fn fields(out: &mut String, schema: &Value, props: &Map<String, Value>, indent: &str) {
    let required = required(schema);
    for (name, prop) in props {
        doc(out, prop["description"].as_str(), indent);
        let optional = if required.contains(name.as_str()) {
            ""
        } else {
            "?"
        };
        let _ = writeln!(out, "{indent}{name}{optional}: {};", ts(prop, indent));
    }
}

/// One definition as an exported interface or type.
fn definition(out: &mut String, name: &str, schema: &Value) {
    doc(out, schema["description"].as_str(), "");
    let props = schema["properties"].as_object().filter(|p| !p.is_empty());
    match props {
        Some(props) if schema.get("oneOf").is_none() => {
            let _ = writeln!(out, "export interface {name} {{");
            fields(out, schema, props, "  ");
            let _ = writeln!(out, "}}");
        }
        _ => match schema["oneOf"]
            .as_array()
            .filter(|o| o.iter().any(|v| v.get("properties").is_some()))
        {
            // A tagged union: each variant with what it means.
            Some(variants) => {
                let _ = writeln!(out, "export type {name} =");
                for v in variants {
                    doc(out, v["description"].as_str(), "  ");
                    let _ = writeln!(out, "  | {}", ts(v, "  "));
                }
                out.pop();
                let _ = writeln!(out, ";");
            }
            None => {
                let _ = writeln!(out, "export type {name} = {};", ts(schema, ""));
            }
        },
    }
    out.push('\n');
}

/// Where a call's arguments hold texts whose vectors a host embedder may supply.
fn slots(schema: &Value, defs: &Value) -> Vec<Slot> {
    let mut out = Vec::new();
    properties(schema, defs, &mut Vec::new(), &mut |path, name, prop| {
        if let Some(text) = prop[EMBEDS].as_str() {
            out.push(Slot {
                path: path.to_vec(),
                text: text.to_string(),
                vector: name.to_string(),
            });
        }
    });
    out
}

/// A path as a JS array literal.
fn js_path(path: &[String]) -> String {
    let items: Vec<String> = path.iter().map(|p| format!("'{p}'")).collect();
    format!("[{}]", items.join(", "))
}

/// The JS method of a call: its name, parameters and result.
fn method_signature(call: &Value, defs: &Value) -> String {
    let method = call["method"].as_str().unwrap_or_default();
    let args = ts(&call["args"], "  ");
    let params = match unwrapped(call) {
        Some(field) => {
            let def = ref_name(&call["args"]).map_or(&call["args"], |n| &defs[n]);
            format!("{field}: {}", ts(&def["properties"][field], "  "))
        }
        None if args == "NoArgs" => "args?: NoArgs".to_string(),
        None => format!("args: {args}"),
    };
    format!(
        "  {}({params}): Promise<{}>;\n",
        camel(method),
        ts(&call["result"], "  ")
    )
}

/// The package's fixed members (opening, images, the clock, closing), beside its calls.
const CLASS_HEAD: &str = r#"/**
 * A Mnemo store: in a page a SQLite file in OPFS (or IndexedDB) owned by a dedicated worker,
 * under Node or at the edge one in memory; every engine call is an async method of it.
 */
export declare class Mnemo {
  /** Opens (creating if needed) a store. */
  static open(options?: OpenOptions): Promise<Mnemo>;
  /**
   * Opens a store from a SQLite image (`exportBytes`, or a native `mnemo.db`): in memory, or
   * with `storage: 'opfs' | 'idb'` a new persistent store `name` made from it.
   */
  static fromBytes(bytes: Uint8Array, options?: OpenOptions): Promise<Mnemo>;
  /** Any engine call by its snake_case name. */
  call(method: string, args?: object): Promise<unknown>;
  /** The whole store as a SQLite image. */
  exportBytes(): Promise<Uint8Array>;
  /**
   * `embed` with its vectors in one `Float32Array`: text `i`'s vector is
   * `vectors.subarray(i * dimension, (i + 1) * dimension)`. The same vectors, with no text made
   * of them: for a page that embeds many texts.
   */
  embedVectors(args: EmbedRequest): Promise<{ model: string; dimension: number; vectors: Float32Array }>;

  /**
   * Ingests a `File` or `Blob` of UTF-8 text (plain text, markdown or HTML, told by its type or
   * name; at most 40 MB): `args` are `ingest`'s other arguments, its name and type its
   * `filename` and `mime` unless given.
   */
  ingestFile(file: Blob, args: Omit<IngestRequest, 'content'>): Promise<IngestReport>;
  /** Where the store is kept: the storage asked for, or the one it fell back to. */
  readonly storage: 'memory' | 'opfs' | 'idb';
  /** Why the store is not kept where asked (OPFS unavailable); undefined when it is. */
  readonly fallback: StorageFallback | undefined;
  /** Moves the clock of a store opened with a fixed `now`. */
  setNow(ms: Millis): Promise<void>;
  /** Writes what is pending, closes the store and stops its worker. */
  close(): Promise<void>;

"#;

const HEADER: &str = "// Generated from the engine's call declarations (mnemo_core::api) by\n// `cargo run -p mnemo-wasm --example bindings`; do not edit.\n";

/// Generates both files from the schema document.
pub fn generate(schema: &Value) -> Bindings {
    let defs = &schema["$defs"];
    let calls = schema["calls"].as_array().cloned().unwrap_or_default();

    // Declarations.
    let mut d = String::from(HEADER);
    d += "// Field names are the engine's snake_case JSON, the same on every surface (JS, HTTP, CLI).\n\n";
    d += "import type { Millis, OpenOptions, StorageFallback, Vector } from './package';\n";
    d += "export * from './package';\n\n";
    for (name, def) in defs.as_object().into_iter().flatten() {
        definition(&mut d, name, def);
    }
    d += "/** Names of earlier releases. */\n";
    for (old, new) in ALIASES {
        let _ = writeln!(d, "export type {old} = {new};");
    }
    d.push('\n');
    d += CLASS_HEAD;
    for call in &calls {
        doc(&mut d, call["summary"].as_str(), "  ");
        d += &method_signature(call, defs);
    }
    d += "}\n\nexport default Mnemo;\n";

    // The call table.
    let mut c = String::from(HEADER);
    c += "\n/**\n * Every engine call: its snake_case `method`, its `name` on `Mnemo`, the `embeds` where a host\n * embedder supplies vectors — the objects at `path` (`*`: each item of a list) get `vector` from\n * their `text` —, the paths of the objects that name the `agent_id` a call is for (`agents`),\n * whether it is the `owner`'s (a handle opened for an agent refuses it), and, for a method that\n * takes its one argument directly, the field it `unwrap`s.\n */\nexport const CALLS = [\n";
    for call in &calls {
        let method = call["method"].as_str().unwrap_or_default();
        let embeds: Vec<String> = slots(&call["args"], defs)
            .iter()
            .map(|s| {
                format!(
                    "{{ path: {}, text: '{}', vector: '{}' }}",
                    js_path(&s.path),
                    s.text,
                    s.vector
                )
            })
            .collect();
        let agents: Vec<String> = call["agents"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|p| {
                let path: Vec<String> = p
                    .as_array()
                    .into_iter()
                    .flatten()
                    .filter_map(|k| k.as_str().map(String::from))
                    .collect();
                js_path(&path)
            })
            .collect();
        let unwrap = unwrapped(call).map_or(String::new(), |f| format!(", unwrap: '{f}'"));
        let owner = if call["owner"] == Value::Bool(true) {
            ", owner: true"
        } else {
            ""
        };
        let _ = writeln!(
            c,
            "  {{ method: '{method}', name: '{}', embeds: [{}], agents: [{}]{owner}{unwrap} }},",
            camel(method),
            embeds.join(", "),
            agents.join(", ")
        );
    }
    c += "];\n";
    Bindings {
        declarations: d,
        calls: c,
        schema: format!("{schema}\n"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_types() {
        assert_eq!(camel("set_status"), "setStatus");
        assert_eq!(camel("heartbeat_check"), "heartbeatCheck");
        assert_eq!(
            ts(&serde_json::json!({"type": ["string", "null"]}), ""),
            "string | null"
        );
        assert_eq!(
            ts(
                &serde_json::json!({"type": "array", "items": {"$ref": "#/$defs/Memory"}}),
                ""
            ),
            "Memory[]"
        );
        assert_eq!(
            ts(
                &serde_json::json!({"anyOf": [{"$ref": "#/$defs/Kind"}, {"type": "null"}]}),
                ""
            ),
            "Kind | null"
        );
        assert_eq!(
            ts(
                &serde_json::json!({"type": "object", "additionalProperties": {"type": "integer"}}),
                ""
            ),
            "Record<string, number>"
        );
    }

    #[test]
    fn vectors_are_found_where_the_schema_marks_them() {
        let schema = mnemo_core::api::schema();
        let defs = &schema["$defs"];
        let args = |method: &str| {
            let call = schema["calls"]
                .as_array()
                .and_then(|c| c.iter().find(|c| c["method"] == method))
                .expect("declared");
            call["args"].clone()
        };
        let of = |method: &str| slots(&args(method), defs);
        let slot = |path: &[&str], text: &str| Slot {
            path: path.iter().map(|p| p.to_string()).collect(),
            text: text.into(),
            vector: "vector".into(),
        };
        assert_eq!(of("seed"), vec![slot(&["items", "*"], "content")]);
        assert_eq!(of("search"), vec![slot(&[], "query")]);
        assert_eq!(of("update"), vec![slot(&["patch"], "content")]);
        assert_eq!(of("remember"), vec![slot(&["extracted", "*"], "content")]);
        assert!(of("get").is_empty());
    }
}
