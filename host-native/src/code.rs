//! `mnemo ingest-code DIR`: a repository's source files read as git sees them (ripgrep's
//! walker keeps to `.gitignore`, skips hidden files and never follows links), parsed with
//! tree-sitter for their symbols — Rust, Python, TypeScript/TSX, JavaScript and Go — and
//! handed to the engine's `ingest_code` call, which stores one codebase memory per file.
//! What is not read is said, file by file: too large, binary, not UTF-8, unreadable.

use std::path::Path;

use anyhow::{bail, Result};
use mnemo_core::codebase::{CodeFile, Symbol, SymbolKind, MAX_CODE_FILES};
use tree_sitter::{Language, Node, Parser};

/// Source files larger than this are not parsed (generated code, bundles).
pub const MAX_SOURCE_BYTES: u64 = 1 << 20;
/// The longest summary taken from a file's opening comment, in characters.
const SUMMARY_CHARS: usize = 200;

/// What walking a repository found.
#[derive(Debug, Default)]
pub struct Tree {
    /// The source files, parsed.
    pub files: Vec<CodeFile>,
    /// Files left out, with why (`path: reason`).
    pub skipped: Vec<String>,
}

/// A language this reads, by a file's extension.
fn language(ext: &str) -> Option<(&'static str, Language)> {
    Some(match ext {
        "rs" => ("rust", tree_sitter_rust::LANGUAGE.into()),
        "py" | "pyi" => ("python", tree_sitter_python::LANGUAGE.into()),
        "ts" | "mts" | "cts" => (
            "typescript",
            tree_sitter_typescript::LANGUAGE_TYPESCRIPT.into(),
        ),
        "tsx" => ("typescript", tree_sitter_typescript::LANGUAGE_TSX.into()),
        "js" | "mjs" | "cjs" | "jsx" => ("javascript", tree_sitter_javascript::LANGUAGE.into()),
        "go" => ("go", tree_sitter_go::LANGUAGE.into()),
        _ => return None,
    })
}

/// Reads and parses every source file under `root` that git would not ignore.
pub fn read(root: &Path) -> Result<Tree> {
    if !root.is_dir() {
        bail!("{}: not a directory", root.display());
    }
    let mut tree = Tree::default();
    let mut parser = Parser::new();
    let walk = ignore::WalkBuilder::new(root)
        .require_git(false)
        .follow_links(false)
        .sort_by_file_name(|a, b| a.cmp(b))
        .build();
    for entry in walk {
        let entry = match entry {
            Ok(e) => e,
            Err(e) => {
                tree.skipped.push(format!("{e}"));
                continue;
            }
        };
        if !entry.file_type().is_some_and(|t| t.is_file()) {
            continue;
        }
        let path = entry.path();
        let Some((name, lang)) = path.extension().and_then(|e| e.to_str()).and_then(language)
        else {
            continue;
        };
        let rel = path.strip_prefix(root).unwrap_or(path);
        let Some(rel) = rel
            .to_str()
            .map(|s| s.replace(std::path::MAIN_SEPARATOR, "/"))
        else {
            tree.skipped
                .push(format!("{}: the path is not UTF-8", rel.to_string_lossy()));
            continue;
        };
        match source(path) {
            Ok(text) => {
                parser.set_language(&lang)?;
                let symbols = match parser.parse(&text, None) {
                    Some(t) => symbols(t.root_node(), text.as_bytes(), name),
                    None => Vec::new(),
                };
                tree.files.push(CodeFile {
                    path: rel,
                    language: name.to_string(),
                    lines: lines(&text),
                    summary: summary(&text),
                    symbols,
                });
            }
            Err(why) => tree.skipped.push(format!("{rel}: {why}")),
        }
    }
    Ok(tree)
}

/// A source file's text, or why it is not read.
fn source(path: &Path) -> std::result::Result<String, String> {
    let meta = std::fs::metadata(path).map_err(|e| e.to_string())?;
    if meta.len() > MAX_SOURCE_BYTES {
        return Err(format!(
            "{} bytes, over the {} read",
            meta.len(),
            MAX_SOURCE_BYTES
        ));
    }
    let bytes = std::fs::read(path).map_err(|e| e.to_string())?;
    if bytes[..bytes.len().min(8192)].contains(&0) {
        return Err("a binary file".into());
    }
    String::from_utf8(bytes).map_err(|_| "not UTF-8 text".into())
}

fn lines(text: &str) -> u32 {
    let n = text.lines().count();
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// The first sentence of a file's opening comment or docstring (`//!`, `//`, `#`, `/* */`,
/// `"""`), if it opens with one.
fn summary(text: &str) -> Option<String> {
    let mut said = String::new();
    let mut in_block = false;
    for line in text.lines() {
        let t = line.trim();
        if said.is_empty()
            && !in_block
            && (t.is_empty() || t.starts_with("#!") || t.starts_with("# -*-"))
        {
            continue;
        }
        let body = if in_block {
            let end = t.contains("*/") || t.contains("\"\"\"") || t.contains("'''");
            in_block = !end;
            t.trim_end_matches("*/")
                .trim_end_matches("\"\"\"")
                .trim_end_matches("'''")
                .trim_start_matches('*')
        } else if let Some(rest) = ["//!", "///", "//", "#"]
            .iter()
            .find_map(|m| t.strip_prefix(m))
        {
            rest
        } else if let Some(rest) = ["/**", "/*", "\"\"\"", "'''", "r\"\"\""]
            .iter()
            .find_map(|m| t.strip_prefix(m))
        {
            let closed = rest.contains("*/") || rest.contains("\"\"\"") || rest.contains("'''");
            in_block = !closed;
            rest.trim_end_matches("*/")
                .trim_end_matches("\"\"\"")
                .trim_end_matches("'''")
        } else {
            break;
        };
        let body = body.trim();
        if body.is_empty() {
            if !said.is_empty() && !in_block {
                break;
            }
            continue;
        }
        if !said.is_empty() {
            said.push(' ');
        }
        said.push_str(body);
        if said.contains(". ") || said.ends_with('.') || said.chars().count() > SUMMARY_CHARS {
            break;
        }
    }
    let first = match said.find(". ") {
        Some(i) => &said[..=i],
        None => said.as_str(),
    };
    let first: String = first.chars().take(SUMMARY_CHARS).collect();
    (!first.trim().is_empty()).then(|| first.trim().to_string())
}

/// The symbols a syntax tree defines, in order of line.
fn symbols(root: Node, src: &[u8], language: &str) -> Vec<Symbol> {
    let mut out = Vec::new();
    collect(root, src, language, false, &mut out);
    out
}

/// What a node defines, if it is a definition: its kind, and the node naming it.
fn definition<'t>(node: Node<'t>, language: &str, in_type: bool) -> Option<(SymbolKind, Node<'t>)> {
    let function = if in_type {
        SymbolKind::Method
    } else {
        SymbolKind::Function
    };
    let kind = match (language, node.kind()) {
        ("rust", "function_item" | "function_signature_item") => function,
        ("rust", "struct_item" | "union_item" | "type_item") => SymbolKind::Type,
        ("rust", "enum_item") => SymbolKind::Enum,
        ("rust", "trait_item") => SymbolKind::Interface,
        ("rust", "mod_item") => SymbolKind::Module,
        ("rust", "const_item" | "static_item") => SymbolKind::Constant,
        ("rust", "macro_definition") => SymbolKind::Macro,
        ("python", "function_definition") => function,
        ("python", "class_definition") => SymbolKind::Type,
        (
            "typescript" | "javascript",
            "function_declaration" | "generator_function_declaration",
        ) => SymbolKind::Function,
        ("typescript" | "javascript", "method_definition" | "method_signature") => {
            SymbolKind::Method
        }
        ("typescript" | "javascript", "class_declaration" | "abstract_class_declaration") => {
            SymbolKind::Type
        }
        ("typescript", "interface_declaration") => SymbolKind::Interface,
        ("typescript", "type_alias_declaration") => SymbolKind::Type,
        ("typescript", "enum_declaration") => SymbolKind::Enum,
        ("typescript", "internal_module" | "module") => SymbolKind::Module,
        ("typescript" | "javascript", "variable_declarator") => {
            // `const f = (…) => …` and `const f = function …` are functions.
            let value = node.child_by_field_name("value")?;
            if !matches!(
                value.kind(),
                "arrow_function" | "function_expression" | "function"
            ) {
                return None;
            }
            SymbolKind::Function
        }
        ("go", "function_declaration") => SymbolKind::Function,
        ("go", "method_declaration") => SymbolKind::Method,
        ("go", "type_spec") => SymbolKind::Type,
        _ => return None,
    };
    let name = node.child_by_field_name("name")?;
    Some((kind, name))
}

/// Walks a tree for definitions; a function's body is its own business and not walked.
fn collect(node: Node, src: &[u8], language: &str, in_type: bool, out: &mut Vec<Symbol>) {
    let mut walk = node.walk();
    for child in node.children(&mut walk) {
        let found = definition(child, language, in_type);
        if let Some((kind, name)) = found {
            let name = name.utf8_text(src).unwrap_or("").trim().to_string();
            if !name.is_empty() && name.chars().count() <= 200 {
                out.push(Symbol {
                    kind,
                    signature: signature(child, src, language),
                    name,
                    line: child.start_position().row as u32 + 1,
                });
            }
            if matches!(kind, SymbolKind::Function | SymbolKind::Method) {
                continue;
            }
        }
        let opens_type = matches!(
            child.kind(),
            "impl_item"
                | "trait_item"
                | "class_definition"
                | "class_declaration"
                | "abstract_class_declaration"
        );
        let inside = child.kind() != "mod_item" && (in_type || opens_type);
        collect(child, src, language, inside, out);
    }
}

/// A definition's first line, without its body's opening brace or colon.
fn signature(node: Node, src: &[u8], language: &str) -> String {
    let text = node.utf8_text(src).unwrap_or("");
    let first = text.lines().next().unwrap_or("").trim();
    let first = first.trim_end_matches('{').trim_end();
    let first = if language == "python" {
        first.trim_end_matches(':')
    } else {
        first
    };
    first.chars().take(240).collect()
}

/// The `ingest_code` calls that store a tree: one, marked complete, when it fits in one call;
/// else batches, none complete (a deleted file is then found by drift detection).
pub fn batches(files: Vec<CodeFile>) -> Vec<(Vec<CodeFile>, bool)> {
    if files.len() <= MAX_CODE_FILES {
        return vec![(files, true)];
    }
    let mut out = Vec::new();
    let mut rest = files;
    while !rest.is_empty() {
        let tail = rest.split_off(rest.len().min(MAX_CODE_FILES));
        out.push((rest, false));
        rest = tail;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(ext: &str, text: &str) -> Vec<(SymbolKind, String, u32)> {
        let (name, lang) = language(ext).unwrap();
        let mut p = Parser::new();
        p.set_language(&lang).unwrap();
        let t = p.parse(text, None).unwrap();
        symbols(t.root_node(), text.as_bytes(), name)
            .into_iter()
            .map(|s| (s.kind, s.name, s.line))
            .collect()
    }

    #[test]
    fn each_language_gives_its_definitions() {
        use SymbolKind::*;
        let rust = "//! Tokens.\npub struct Session;\nimpl Session {\n    pub fn check(&self) -> bool { fn inner() {} true }\n}\npub fn check_token(t: &str) -> bool { true }\nmod inner { pub const MAX: u32 = 3; }\n";
        assert_eq!(
            parse("rs", rust),
            vec![
                (Type, "Session".into(), 2),
                (Method, "check".into(), 4),
                (Function, "check_token".into(), 6),
                (Module, "inner".into(), 7),
                (Constant, "MAX".into(), 7),
            ]
        );
        let py = "\"\"\"Reports.\"\"\"\nclass Report:\n    def render(self):\n        pass\n\n@cache\ndef load(path):\n    def helper(): pass\n";
        assert_eq!(
            parse("py", py),
            vec![
                (Type, "Report".into(), 2),
                (Method, "render".into(), 3),
                (Function, "load".into(), 7)
            ]
        );
        let ts = "export interface CartItem { id: string }\nexport function addToCart(i: CartItem) {}\nexport const total = (c: Cart) => 0;\nclass Cart { add(i: CartItem) {} }\ntype Id = string;\n";
        assert_eq!(
            parse("ts", ts),
            vec![
                (Interface, "CartItem".into(), 1),
                (Function, "addToCart".into(), 2),
                (Function, "total".into(), 3),
                (Type, "Cart".into(), 4),
                (Method, "add".into(), 4),
                (Type, "Id".into(), 5),
            ]
        );
        let go = "package auth\n\ntype Session struct{}\n\nfunc (s *Session) Check() bool { return true }\n\nfunc CheckToken(t string) bool { return true }\n";
        assert_eq!(
            parse("go", go),
            vec![
                (Type, "Session".into(), 3),
                (Method, "Check".into(), 5),
                (Function, "CheckToken".into(), 7)
            ]
        );
        let js = "function a() {}\nconst b = function () {};\nconst c = 3;\n";
        assert_eq!(
            parse("js", js),
            vec![(Function, "a".into(), 1), (Function, "b".into(), 2)]
        );
    }

    #[test]
    fn summaries_come_from_the_opening_comment() {
        assert_eq!(
            summary("//! Tokens: who sent it. More.\nfn x() {}").as_deref(),
            Some("Tokens: who sent it.")
        );
        assert_eq!(
            summary("#!/usr/bin/env python\n\"\"\"Monthly report.\n\nLong.\"\"\"\n").as_deref(),
            Some("Monthly report.")
        );
        assert_eq!(
            summary("/**\n * The cart.\n */\nexport {}").as_deref(),
            Some("The cart.")
        );
        assert_eq!(
            summary("// Package auth checks tokens\npackage auth").as_deref(),
            Some("Package auth checks tokens")
        );
        assert_eq!(summary("fn main() {}"), None);
    }
}
