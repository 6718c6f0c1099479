//! The parser: tree-sitter's grammars, and the walk that finds a tree's definitions.

use tree_sitter::{Language, Node, Parser};

use crate::{check_text, language, Kind as SymbolKind, Read, Refusal, Symbol};

/// The longest symbol name kept, in characters.
const MAX_NAME_CHARS: usize = 200;
/// The longest signature taken, in characters (the memory cuts it further).
const SIGNATURE_CHARS: usize = 240;

/// The number of lines of a text, as an editor counts them.
fn lines(text: &str) -> u32 {
    u32::try_from(text.lines().count()).unwrap_or(u32::MAX)
}

/// The longest summary taken from a file's opening comment, in characters.
const SUMMARY_CHARS: usize = 200;

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

/// Reads files' texts with one parser, kept between files.
#[derive(Default)]
pub struct Reader {
    parser: Option<Parser>,
}

impl Reader {
    /// A reader whose parser is made on its first file.
    pub fn new() -> Self {
        Reader { parser: None }
    }

    /// What `text`, the file at `path`, says: its language (`named`, or its extension's),
    /// lines, opening comment and symbols.
    pub fn read(&mut self, path: &str, named: Option<&str>, text: &str) -> Result<Read, Refusal> {
        check_text(text)?;
        let language = language(path, named)?;
        let grammar = grammar(language, path);
        let parser = self.parser.get_or_insert_with(Parser::new);
        parser
            .set_language(&grammar)
            .map_err(|e| Refusal::Grammar(format!("the {language} grammar does not load: {e}")))?;
        let symbols = match parser.parse(text, None) {
            Some(tree) => symbols(tree.root_node(), text.as_bytes(), language),
            None => Vec::new(),
        };
        Ok(Read {
            language: language.to_string(),
            lines: lines(text),
            summary: summary(text),
            symbols,
        })
    }
}

/// The grammar of a language the parser reads (TSX by a `.tsx` path).
fn grammar(language: &str, path: &str) -> Language {
    match language {
        "rust" => tree_sitter_rust::LANGUAGE.into(),
        "python" => tree_sitter_python::LANGUAGE.into(),
        "typescript" if path.to_ascii_lowercase().ends_with(".tsx") => {
            tree_sitter_typescript::LANGUAGE_TSX.into()
        }
        "typescript" => tree_sitter_typescript::LANGUAGE_TYPESCRIPT.into(),
        "go" => tree_sitter_go::LANGUAGE.into(),
        _ => tree_sitter_javascript::LANGUAGE.into(),
    }
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
        if let Some((kind, name)) = definition(child, language, in_type) {
            let name = name.utf8_text(src).unwrap_or("").trim().to_string();
            if !name.is_empty() && name.chars().count() <= MAX_NAME_CHARS {
                out.push(Symbol {
                    kind,
                    signature: signature(child, src, language),
                    name,
                    line: u32::try_from(child.start_position().row + 1).unwrap_or(u32::MAX),
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

/// A definition's first line up to its body, without the body's opening brace or colon or
/// a closing semicolon.
fn signature(node: Node, src: &[u8], language: &str) -> String {
    // A function's body, or the body of the function a declarator is given
    // (`const f = (…) => …`).
    let body = node.child_by_field_name("body").or_else(|| {
        node.child_by_field_name("value")
            .and_then(|v| v.child_by_field_name("body"))
    });
    let end = body.map_or(node.end_byte(), |b| b.start_byte());
    let head = src.get(head_start(node)..end).unwrap_or_default();
    let head = std::str::from_utf8(head).unwrap_or("");
    let first = head.lines().next().unwrap_or("").trim();
    let first = first.trim_end_matches(['{', ';']).trim_end();
    let first = first.trim_end_matches("=>").trim_end();
    let first = if language == "python" {
        first.trim_end_matches(':')
    } else {
        first
    };
    first.chars().take(SIGNATURE_CHARS).collect()
}

/// Where a definition's signature begins: with the keywords of the statement around it
/// (`export`, `const`, Go's `type`), which the definition's own node leaves out.
fn head_start(node: Node) -> usize {
    let mut start = node;
    fn around<'t>(n: Node<'t>, kinds: &[&str]) -> Option<Node<'t>> {
        n.parent().filter(|p| kinds.contains(&p.kind()))
    }
    if let Some(p) = around(start, &["lexical_declaration", "variable_declaration"])
        .filter(|p| p.named_child_count() == 1)
    {
        start = p;
    }
    if let Some(p) = around(start, &["type_declaration"]).filter(|p| p.named_child_count() == 1) {
        start = p;
    }
    if let Some(p) = around(start, &["export_statement"]) {
        start = p;
    }
    start.start_byte()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(path: &str, text: &str) -> Vec<(SymbolKind, String, u32)> {
        Reader::new()
            .read(path, None, text)
            .expect("it parses")
            .symbols
            .into_iter()
            .map(|s| (s.kind, s.name, s.line))
            .collect()
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

    #[test]
    fn a_signature_is_the_head_of_its_definition() {
        let signatures = |path: &str, text: &str| -> Vec<String> {
            Reader::new()
                .read(path, None, text)
                .expect("it parses")
                .symbols
                .into_iter()
                .map(|s| s.signature)
                .collect()
        };
        assert_eq!(
            signatures(
                "a.rs",
                "pub struct S;\nimpl S { pub fn user(&self) -> &str { \"\" } }\n"
            ),
            ["pub struct S", "pub fn user(&self) -> &str"]
        );
        assert_eq!(
            signatures(
                "a.py",
                "def load(path: str) -> bytes: return b''\nclass A(B):\n    x = 1\n"
            ),
            ["def load(path: str) -> bytes", "class A(B)"]
        );
        assert_eq!(
            signatures(
                "a.go",
                "package a\nfunc (s *S) Check(t string) bool { return true }\n"
            ),
            ["func (s *S) Check(t string) bool"]
        );
        assert_eq!(
            signatures(
                "a.ts",
                "export const total = (c: Cart): number => c.n + 1;\nexport interface Item { id: string }\nexport default class Cart {}\n"
            ),
            [
                "export const total = (c: Cart): number",
                "export interface Item",
                "export default class Cart"
            ]
        );
        assert_eq!(
            signatures(
                "a.go",
                "package a\ntype Session struct{ id int }\ntype (\n  A int\n  B int\n)\n"
            ),
            ["type Session struct{ id int }", "A int", "B int"]
        );
    }

    #[test]
    fn each_language_gives_its_definitions() {
        use SymbolKind::*;
        let rust = "//! Tokens.\npub struct Session;\nimpl Session {\n    pub fn check(&self) -> bool { fn inner() {} true }\n}\npub fn check_token(t: &str) -> bool { true }\nmod inner { pub const MAX: u32 = 3; }\n";
        assert_eq!(
            parse("a.rs", rust),
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
            parse("a.py", py),
            vec![
                (Type, "Report".into(), 2),
                (Method, "render".into(), 3),
                (Function, "load".into(), 7)
            ]
        );
        let ts = "export interface CartItem { id: string }\nexport function addToCart(i: CartItem) {}\nexport const total = (c: Cart) => 0;\nclass Cart { add(i: CartItem) {} }\ntype Id = string;\n";
        assert_eq!(
            parse("a.ts", ts),
            vec![
                (Interface, "CartItem".into(), 1),
                (Function, "addToCart".into(), 2),
                (Function, "total".into(), 3),
                (Type, "Cart".into(), 4),
                (Method, "add".into(), 4),
                (Type, "Id".into(), 5),
            ]
        );
        let tsx = "export function Cart(p: Props) { return <div>{p.n}</div>; }\n";
        assert_eq!(parse("a.tsx", tsx), vec![(Function, "Cart".into(), 1)]);
        let go = "package auth\n\ntype Session struct{}\n\nfunc (s *Session) Check() bool { return true }\n\nfunc CheckToken(t string) bool { return true }\n";
        assert_eq!(
            parse("a.go", go),
            vec![
                (Type, "Session".into(), 3),
                (Method, "Check".into(), 5),
                (Function, "CheckToken".into(), 7)
            ]
        );
        let js = "function a() {}\nconst b = function () {};\nconst c = 3;\n";
        assert_eq!(
            parse("a.js", js),
            vec![(Function, "a".into(), 1), (Function, "b".into(), 2)]
        );
    }
}
