//! The core's modules form layers, and imports only point down: a module may use the modules
//! ranked before it in [`RANKS`], never one ranked after it. The table is the one
//! `docs/DESIGN.md` shows ("Inside the core"); these tests keep the two equal and the code
//! true to them, reading every `crate::` path of the crate's sources (its unit-test modules
//! left out: a test may reach anywhere).

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

/// Every top-level module of `core/src`, lowest first, with its layer.
const RANKS: &[(&str, &str)] = &[
    ("error", "foundations"),
    ("order", "foundations"),
    ("math", "foundations"),
    ("clock", "foundations"),
    ("calendar", "foundations"),
    ("period", "foundations"),
    ("lexicon", "foundations"),
    ("text", "foundations"),
    ("json", "foundations"),
    ("field", "foundations"),
    ("model", "foundations"),
    ("importance", "foundations"),
    ("tier", "foundations"),
    ("decay", "foundations"),
    ("embed", "foundations"),
    ("vectors", "foundations"),
    ("notes", "foundations"),
    ("workspace", "foundations"),
    ("store", "store"),
    ("graph", "features"),
    ("links", "features"),
    ("team", "features"),
    ("extract", "features"),
    ("dedup", "features"),
    ("conflict", "features"),
    ("curate", "features"),
    ("census", "features"),
    ("write", "features"),
    ("schedule", "features"),
    ("document", "features"),
    ("codebase", "features"),
    ("recall", "features"),
    ("heartbeat", "features"),
    ("consolidate", "features"),
    ("maintain", "features"),
    ("export", "features"),
    ("config", "config"),
    ("engine", "engine"),
    ("api", "api"),
];

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

fn rank(module: &str) -> Option<usize> {
    RANKS.iter().position(|(m, _)| *m == module)
}

/// Every `.rs` file below `dir`.
fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = fs::read_dir(dir)
        .expect("core/src is readable")
        .map(|e| e.expect("a directory entry").path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The top-level module a source file belongs to (`store/tx.rs` → `store`); `None` for
/// `lib.rs`, the crate root.
fn module_of(path: &Path) -> Option<String> {
    let rel = path.strip_prefix(src()).expect("a file below src");
    let first = rel.components().next()?.as_os_str().to_str()?;
    let name = first.strip_suffix(".rs").unwrap_or(first);
    (name != "lib").then(|| name.to_string())
}

/// The file's code without its comments (a doc link is no import) and its unit-test module
/// (`#[cfg(test)]` then `mod tests`, to the end of the file, where this crate keeps them).
fn code(text: &str) -> String {
    without_tests(text)
        .lines()
        .filter(|line| !line.trim_start().starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n")
}

fn without_tests(text: &str) -> &str {
    let mut at = 0;
    while let Some(i) = text[at..].find("#[cfg(test)]") {
        let start = at + i;
        let rest = text[start + "#[cfg(test)]".len()..].trim_start();
        if rest.starts_with("mod tests") {
            return &text[..start];
        }
        at = start + 1;
    }
    text
}

/// The top-level modules `code` names through `crate::`: in paths (`crate::graph::x`) and in
/// grouped imports (`use crate::{error::Error, model::*}`).
fn uses(code: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let ident = |s: &str| -> String {
        s.chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect()
    };
    for (i, _) in code.match_indices("crate::") {
        let before = code[..i].chars().next_back();
        if before.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$') {
            continue; // `$crate::` in a macro, or part of a longer name
        }
        let rest = &code[i + "crate::".len()..];
        if let Some(group) = rest.strip_prefix('{') {
            // Top-level names of the group, up to its closing brace: at depth 0 of the
            // nested ones (`{model::{Memory, Status}, order}` names `model` and `order`).
            let mut depth = 0;
            let mut item = String::new();
            for c in group.chars() {
                match c {
                    '{' => depth += 1,
                    '}' if depth == 0 => break,
                    '}' => depth -= 1,
                    ',' if depth == 0 => {
                        out.extend(Some(ident(item.trim())).filter(|n| !n.is_empty()));
                        item.clear();
                        continue;
                    }
                    _ => {}
                }
                item.push(c);
            }
            out.extend(Some(ident(item.trim())).filter(|n| !n.is_empty()));
        } else {
            let name = ident(rest);
            if !name.is_empty() {
                out.insert(name);
            }
        }
    }
    out
}

/// What the crate root re-exports, by name (`Error` → `error`), read from `lib.rs`'s
/// `pub use` lines; a glob (`pub use model::*`) maps the names its module declares `pub`.
fn reexports() -> Vec<(String, String)> {
    let lib = fs::read_to_string(src().join("lib.rs")).expect("lib.rs is readable");
    let mut out = Vec::new();
    for statement in lib.split(';') {
        let Some(rest) = statement.trim().strip_prefix("pub use ") else {
            continue;
        };
        let Some((module, names)) = rest.split_once("::") else {
            continue;
        };
        let names = names.trim_matches(|c: char| c == '{' || c == '}' || c.is_whitespace());
        if names == "*" {
            let mut paths = Vec::new();
            let file = src().join(format!("{module}.rs"));
            if file.exists() {
                paths.push(file);
            } else {
                files(&src().join(module), &mut paths);
            }
            for path in paths {
                let text = fs::read_to_string(path).expect("a source file is text");
                for line in text.lines() {
                    let words: Vec<&str> = line.split_whitespace().collect();
                    if let ["pub", "struct" | "enum" | "type" | "trait" | "fn" | "const", name, ..] =
                        words.as_slice()
                    {
                        let name: String = name
                            .chars()
                            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                            .collect();
                        out.push((name, module.to_string()));
                    }
                }
            }
        } else {
            for name in names.split(',') {
                let name = name.trim();
                if !name.is_empty() {
                    out.push((name.to_string(), module.to_string()));
                }
            }
        }
    }
    out
}

/// Every (file, module it belongs to, module it names) of the crate.
fn imports() -> Vec<(String, String, String)> {
    let mut paths = Vec::new();
    files(&src(), &mut paths);
    let root = reexports();
    let mut out = Vec::new();
    for path in paths {
        let Some(module) = module_of(&path) else {
            continue;
        };
        let text = fs::read_to_string(&path).expect("a source file is text");
        let file = path
            .strip_prefix(src())
            .expect("below src")
            .display()
            .to_string();
        for used in uses(&code(&text)) {
            // A name the root re-exports counts as its module (`crate::Error` is `error`).
            let used = root
                .iter()
                .find(|(name, _)| *name == used)
                .map_or(used, |(_, m)| m.clone());
            if used != module {
                out.push((file.clone(), module.clone(), used));
            }
        }
    }
    out
}

#[test]
fn every_import_points_down_the_rank_table() {
    let mut upward = Vec::new();
    for (file, module, used) in imports() {
        let (Some(from), Some(to)) = (rank(&module), rank(&used)) else {
            continue; // names outside the table are checked by the next test
        };
        if to >= from {
            upward.push(format!(
                "{file}: `{module}` ({}) uses `{used}` ({}), which ranks above it",
                RANKS[from].1, RANKS[to].1
            ));
        }
    }
    assert!(
        upward.is_empty(),
        "imports that point up the layers (move the code down, or the shared piece into a lower module):\n{}",
        upward.join("\n")
    );
}

#[test]
fn every_module_of_the_crate_has_a_rank_and_every_rank_a_module() {
    let mut paths = Vec::new();
    files(&src(), &mut paths);
    let modules: BTreeSet<String> = paths.iter().filter_map(|p| module_of(p)).collect();
    let ranked: BTreeSet<String> = RANKS.iter().map(|(m, _)| m.to_string()).collect();
    let unranked: Vec<_> = modules.difference(&ranked).collect();
    let gone: Vec<_> = ranked.difference(&modules).collect();
    assert!(
        unranked.is_empty(),
        "modules missing from RANKS and DESIGN.md: {unranked:?}"
    );
    assert!(
        gone.is_empty(),
        "RANKS names modules that do not exist: {gone:?}"
    );
    for (file, _, used) in imports() {
        assert!(
            rank(&used).is_some() || used == "lib",
            "{file} names `crate::{used}`, which is no module of the crate"
        );
    }
}

#[test]
fn the_design_document_shows_the_same_rank_table() {
    let design =
        fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/DESIGN.md"))
            .expect("docs/DESIGN.md is readable");
    let section = design
        .split("\n### Inside the core")
        .nth(1)
        .and_then(|s| s.split("\n#").next())
        .expect("DESIGN.md has a section `### Inside the core`");
    // Rows `| layer | `module` | what it holds |`.
    let shown: Vec<(String, String)> = section
        .lines()
        .filter_map(|line| {
            let cells: Vec<&str> = line.split('|').map(str::trim).collect();
            let module = cells.get(2)?.strip_prefix('`')?.split(['`', '/']).next()?;
            Some((cells[1].to_lowercase(), module.to_string()))
        })
        .collect();
    let want: Vec<(String, String)> = RANKS
        .iter()
        .map(|(m, layer)| (layer.to_string(), m.to_string()))
        .collect();
    assert_eq!(
        shown, want,
        "DESIGN.md's table (layer, module) must list RANKS in order"
    );
}

#[test]
fn the_reader_finds_imports_in_paths_and_groups_but_not_in_tests_or_macros() {
    let text = "use crate::error::Result;\nuse crate::{model::{Memory, Status}, order};\n\
                fn f() { crate::graph::x(); $crate::api::y(); mycrate::z(); }\n\
                /// [`Engine`](crate::engine::Engine)\n\
                #[cfg(test)]\nmod tests { use crate::engine::Engine; }\n";
    let found = uses(&code(text));
    let want: BTreeSet<String> = ["error", "model", "order", "graph"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    assert_eq!(found, want);
}
