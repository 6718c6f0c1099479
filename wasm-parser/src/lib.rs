//! # mnemo-wasm-parser
//!
//! Mnemo's source reader (`mnemo-source`: tree-sitter's grammars for Rust, Python,
//! TypeScript/TSX, JavaScript and Go) as a WebAssembly module of its own, for the JS hosts
//! whose engine module leaves the grammars out to stay small: the npm package's
//! `@mnemo/memory/parser` loads it only when a program reads source files. It turns files
//! given as `text` into the `language`, `lines`, `summary` and `symbols` that `ingest_code`
//! takes, read as the engine reads them inside the `mnemo` binary, the component and the
//! Python package, so the memories stored from the same texts are the same. It only converts.
//!
//! Build: `npm run build` (scripts/build-wasm.mjs), into `www/pkg/parser/`.

#![warn(missing_docs)]

use mnemo_source::{Read, Reader, Refusal};
use serde::Serialize;
use serde_json::Value;

/// A file read: what `ingest_code` takes of it.
#[derive(Debug, Serialize)]
struct Parsed<'a> {
    path: &'a str,
    #[serde(flatten)]
    read: Read,
}

/// Why a call is refused: its message, and the engine's code for it.
#[derive(Debug, PartialEq)]
pub struct Refused {
    /// `invalid_input`, or `internal` for a fault of this build.
    pub code: &'static str,
    /// What is wrong.
    pub message: String,
}

/// Reads the files of `json`, a list of `ingest_code`'s files, and writes the list back as
/// JSON text with each `{path, text, language?}` the parser reads replaced by `{path,
/// language, lines, summary?, symbols}`. Any other file comes back as it was given, for
/// `ingest_code` to take or refuse with the engine's own words (a text over 1 MiB or binary, a
/// language the parser does not read, a bad path): one place judges a file, on every face.
pub fn read(json: &str) -> Result<String, Refused> {
    let files: Vec<Value> = serde_json::from_str(json).map_err(|e| Refused {
        code: "invalid_input",
        message: format!(
            "invalid files: expected a list of files ({{path, text, language?}}): {e}"
        ),
    })?;
    let mut reader = Reader::new();
    let mut out = Vec::with_capacity(files.len());
    for f in files {
        out.push(match source(&f) {
            Some((path, language, text)) => match reader.read(path, language, text) {
                Ok(read) => json_of(&Parsed { path, read })?,
                Err(Refusal::Invalid { .. }) => f,
                Err(Refusal::Grammar(why)) => {
                    return Err(Refused {
                        code: "internal",
                        message: why,
                    })
                }
            },
            None => f,
        });
    }
    json_of(&out).map(|v| v.to_string())
}

/// A file given as its text alone: its path, the language it names, its text.
fn source(f: &Value) -> Option<(&str, Option<&str>, &str)> {
    let f = f.as_object()?;
    if !f
        .keys()
        .all(|k| ["path", "language", "text"].contains(&k.as_str()))
    {
        return None;
    }
    let language = match f.get("language") {
        None | Some(Value::Null) => None,
        Some(l) => Some(l.as_str()?),
    };
    Some((f.get("path")?.as_str()?, language, f.get("text")?.as_str()?))
}

/// A value as JSON.
fn json_of(v: &impl Serialize) -> Result<Value, Refused> {
    serde_json::to_value(v).map_err(|e| Refused {
        code: "internal",
        message: format!("parsed files do not write as JSON: {e}"),
    })
}

#[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
mod js {
    use js_sys::{Error as JsError, Reflect};
    use wasm_bindgen::prelude::*;

    /// Reads files' texts (`[{path, text, language?}]`, as JSON text) into what `ingest_code`
    /// takes (`[{path, language, lines, summary?, symbols}]`, JSON text). Throws an `Error`
    /// with a `code` (`invalid_input`) and a message naming the file.
    #[wasm_bindgen(js_name = readSources)]
    pub fn read_sources(json: &str) -> Result<String, JsValue> {
        super::read(json).map_err(|r| {
            let err = JsError::new(&r.message);
            // Setting a property on a fresh Error object cannot fail.
            let _ = Reflect::set(&err, &"code".into(), &r.code.into());
            err.into()
        })
    }
}

#[cfg(test)]
mod tests {
    use super::read;

    #[test]
    fn texts_come_back_parsed() {
        let out = read(r#"[{"path":"src/a.rs","text":"//! Checks tokens.\npub fn check(t: &str) -> bool { true }\n"}]"#).unwrap();
        assert_eq!(
            out,
            r#"[{"path":"src/a.rs","language":"rust","lines":2,"summary":"Checks tokens.","symbols":[{"kind":"function","name":"check","signature":"pub fn check(t: &str) -> bool","line":2}]}]"#
        );
    }

    #[test]
    fn what_the_parser_does_not_read_comes_back_as_given() {
        let big = "x".repeat(mnemo_source::MAX_SOURCE_BYTES + 1);
        for file in [
            serde_json::json!({"path": "a.rs", "text": "x\u{0}"}),
            serde_json::json!({"path": "README.md", "text": "x"}),
            serde_json::json!({"path": "a.c", "text": "x", "language": "c"}),
            serde_json::json!({"path": "a.rs", "text": "x", "lines": 3}),
            serde_json::json!({"path": "a.rs", "text": 7}),
            serde_json::json!({"path": "a.rs", "language": "rust", "lines": 1, "symbols": []}),
            serde_json::json!({"path": "a.rs", "text": big}),
            serde_json::json!("a.rs"),
        ] {
            let list = serde_json::json!([file]).to_string();
            assert_eq!(read(&list).unwrap(), list);
        }
    }

    #[test]
    fn a_list_is_required() {
        for json in [
            r#"{"files":[]}"#,
            "not json",
            "",
            r#"[{"path":"a.rs","text":"\ud800"}]"#,
        ] {
            let e = read(json).unwrap_err();
            assert_eq!(e.code, "invalid_input", "{json}");
            assert!(
                e.message.starts_with("invalid files: expected a list"),
                "{}",
                e.message
            );
        }
        assert_eq!(read("[]").unwrap(), "[]");
    }
}
