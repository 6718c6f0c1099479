//! # mnemo-source
//!
//! Reads a source file's text into what Mnemo's codebase layer stores of it — its language,
//! lines, opening comment and symbols with their signatures and lines — with tree-sitter's
//! grammars for Rust, Python, TypeScript/TSX, JavaScript and Go (the `parser` feature). It
//! knows nothing of stores: `mnemo-core` runs it inside `ingest_code` (the `mnemo` binary, the
//! component, the Python package), and `mnemo-wasm-parser` runs it alone, as the npm package's
//! parser module (`@mnemo/memory/parser`), for the browser and edge engine that leaves the
//! grammars out of its download. Both read a text the same way, so they store the same
//! memories.
//!
//! Without the `parser` feature it only names the languages and checks a text.

#![warn(missing_docs)]

use serde::Serialize;

#[cfg(feature = "parser")]
mod parser;
#[cfg(feature = "parser")]
pub use parser::Reader;

/// The longest source text of one file read, in bytes (1 MiB: larger files are mostly
/// generated code or bundles).
pub const MAX_SOURCE_BYTES: usize = 1 << 20;

/// The languages the parser reads, by name and by file extension.
pub const LANGUAGES: &[(&str, &[&str])] = &[
    ("rust", &["rs"]),
    ("python", &["py", "pyi"]),
    ("typescript", &["ts", "mts", "cts", "tsx"]),
    ("javascript", &["js", "mjs", "cjs", "jsx"]),
    ("go", &["go"]),
];

/// What a file's text says.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Read {
    /// Its language (a name of `LANGUAGES`).
    pub language: String,
    /// Its number of lines, as an editor counts them.
    pub lines: u32,
    /// The first sentence of its opening comment or docstring, if it opens with one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub summary: Option<String>,
    /// The symbols it defines, in order of line.
    pub symbols: Vec<Symbol>,
}

/// A symbol a file defines.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Symbol {
    /// What it is.
    pub kind: Kind,
    /// Its name (1 to 200 characters).
    pub name: String,
    /// Its definition's first line up to its body (at most 240 characters).
    pub signature: String,
    /// The line it starts on (1-based).
    pub line: u32,
}

/// What a symbol is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    /// A function.
    Function,
    /// A method of a type.
    Method,
    /// A struct, class or record type.
    Type,
    /// An interface or trait.
    Interface,
    /// An enumeration.
    Enum,
    /// A module or namespace.
    Module,
    /// A constant or static.
    Constant,
    /// A macro.
    Macro,
}

/// Why a text is not read.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum Refusal {
    /// The text or the language named is not one the parser takes; `field` names which.
    #[error("invalid {field}: {reason}")]
    Invalid {
        /// `text` or `language`.
        field: &'static str,
        /// What is expected of it.
        reason: String,
    },
    /// A grammar failed to load: a fault of this build, not of the text.
    #[error("{0}")]
    Grammar(String),
}

/// The language a file's extension (`rs`, `TSX`) names, if the parser reads it.
pub fn language_of_extension(ext: &str) -> Option<&'static str> {
    let ext = ext.to_ascii_lowercase();
    LANGUAGES
        .iter()
        .find(|(_, exts)| exts.contains(&ext.as_str()))
        .map(|(name, _)| *name)
}

/// The language a path's extension names, if the parser reads it.
fn language_of(path: &str) -> Option<&'static str> {
    language_of_extension(path.rsplit_once('.')?.1)
}

/// The language a file is read as: the one named, or its extension's.
pub fn language(path: &str, named: Option<&str>) -> Result<&'static str, Refusal> {
    let read = || {
        LANGUAGES
            .iter()
            .map(|(n, _)| *n)
            .collect::<Vec<_>>()
            .join(", ")
    };
    match named {
        Some(n) => LANGUAGES
            .iter()
            .map(|(l, _)| *l)
            .find(|l| *l == n)
            .ok_or_else(|| Refusal::Invalid {
                field: "language",
                reason: format!("the parser reads {}, not {n}: send this file's `lines` and `symbols` instead of its `text`", read()),
            }),
        None => language_of(path).ok_or_else(|| Refusal::Invalid {
            field: "language",
            reason: format!("is not told by {path}'s extension: name one the parser reads ({}), or send the file's `lines` and `symbols` instead of its `text`", read()),
        }),
    }
}

/// Refuses a text the parser does not take: over 1 MiB, or binary.
pub fn check_text(text: &str) -> Result<(), Refusal> {
    if text.len() > MAX_SOURCE_BYTES {
        return Err(Refusal::Invalid {
            field: "text",
            reason: format!(
                "{} bytes, over the {MAX_SOURCE_BYTES} one file may have",
                text.len()
            ),
        });
    }
    if text.contains('\0') {
        return Err(Refusal::Invalid {
            field: "text",
            reason: "holds a NUL byte: a binary file, not source".into(),
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_language_is_the_one_named_or_the_extension_s() {
        assert_eq!(language("src/a.TSX", None).unwrap(), "typescript");
        assert_eq!(language("Makefile", Some("go")).unwrap(), "go");
        assert!(language("README.md", None).is_err());
        assert!(language("a.c", Some("c")).is_err());
    }
}
