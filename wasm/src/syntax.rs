//! How the generators write a schema's type: the walk over `$ref`, `const`, `enum`,
//! `anyOf`/`oneOf` and JSON types is one ([`render`]); each language says the words
//! ([`Syntax`]): TypeScript (`typescript`), Python (`python`) and the API reference's prose
//! (`reference`).

use std::collections::BTreeSet;

use serde_json::Value;

pub(crate) use mnemo_core::api::ref_name;

/// The words one language writes a schema's type with.
pub(crate) trait Syntax {
    /// A named definition (`$ref`).
    fn named(&self, name: &str) -> String;
    /// A `const`'s value.
    fn constant(&self, value: &Value) -> String;
    /// An `enum`'s values.
    fn enumeration(&self, values: &[Value]) -> String;
    /// Alternatives (of `anyOf`/`oneOf`, or of a list of JSON types).
    fn union(&self, parts: Vec<String>) -> String;
    /// One JSON type of `schema` (`string`, `array`, `object`, …); lists' items and maps'
    /// values are written with [`render`].
    fn json(&self, json_type: &str, schema: &Value) -> String;
    /// A schema that says nothing of its type.
    fn any(&self) -> String;
}

/// The type of `schema` in `syntax`.
pub(crate) fn render(schema: &Value, syntax: &impl Syntax) -> String {
    if let Some(name) = ref_name(schema) {
        return syntax.named(name);
    }
    if let Some(c) = schema.get("const") {
        return syntax.constant(c);
    }
    if let Some(values) = schema["enum"].as_array() {
        return syntax.enumeration(values);
    }
    for key in ["anyOf", "oneOf"] {
        if let Some(options) = schema[key].as_array() {
            return syntax.union(options.iter().map(|o| render(o, syntax)).collect());
        }
    }
    let types = json_types(schema);
    if types.is_empty() {
        return syntax.any();
    }
    syntax.union(types.into_iter().map(|t| syntax.json(t, schema)).collect())
}

/// The names of an object schema's required properties.
pub(crate) fn required(schema: &Value) -> BTreeSet<&str> {
    schema["required"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .collect()
}

/// The JSON types a schema's `type` names (one, a list, or none).
pub(crate) fn json_types(schema: &Value) -> Vec<&str> {
    match &schema["type"] {
        Value::String(t) => vec![t.as_str()],
        Value::Array(ts) => ts.iter().filter_map(Value::as_str).collect(),
        _ => Vec::new(),
    }
}

/// The parts, each once, in their first order.
pub(crate) fn distinct(parts: impl IntoIterator<Item = String>) -> Vec<String> {
    let mut seen = Vec::new();
    for p in parts {
        if !seen.contains(&p) {
            seen.push(p);
        }
    }
    seen
}
