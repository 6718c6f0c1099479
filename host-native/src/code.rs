//! `mnemo ingest-code DIR`: a repository's source files read as git sees them (ripgrep's
//! walker keeps to `.gitignore`, skips hidden files and never follows links) and handed, as
//! their texts, to the engine's `ingest_code` call, which parses them with tree-sitter and
//! stores one codebase memory per file. What is not read is said, file by file: too large,
//! binary, not UTF-8, unreadable, a path too long.

use std::path::Path;

use anyhow::{bail, Result};
use mnemo_core::codebase::{
    language_of_extension, CodeFile, MAX_CODE_FILES, MAX_CODE_PATH_CHARS, MAX_CODE_TEXT_BYTES,
    MAX_SOURCE_BYTES,
};

/// What walking a repository found.
#[derive(Debug, Default)]
pub struct Tree {
    /// The source files, with their texts.
    pub files: Vec<CodeFile>,
    /// Files left out, with why (`path: reason`).
    pub skipped: Vec<String>,
}

/// Reads every source file under `root` that git would not ignore.
pub fn read(root: &Path) -> Result<Tree> {
    if !root.is_dir() {
        bail!("{}: not a directory", root.display());
    }
    let mut tree = Tree::default();
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
        // Only the files whose language the engine's parser reads, by their extension.
        if path
            .extension()
            .and_then(|e| e.to_str())
            .and_then(language_of_extension)
            .is_none()
        {
            continue;
        }
        let rel = path.strip_prefix(root).unwrap_or(path);
        let Some(rel) = rel
            .to_str()
            .map(|s| s.replace(std::path::MAIN_SEPARATOR, "/"))
        else {
            tree.skipped
                .push(format!("{}: the path is not UTF-8", rel.to_string_lossy()));
            continue;
        };
        if rel.chars().count() > MAX_CODE_PATH_CHARS {
            tree.skipped.push(format!(
                "{}…: the path is longer than {MAX_CODE_PATH_CHARS} characters",
                rel.chars().take(60).collect::<String>()
            ));
            continue;
        }
        match source(path) {
            Ok(text) => tree.files.push(CodeFile {
                path: rel,
                language: None,
                lines: None,
                summary: None,
                symbols: Vec::new(),
                text: Some(text),
            }),
            Err(why) => tree.skipped.push(format!("{rel}: {why}")),
        }
    }
    Ok(tree)
}

/// A source file's text, or why it is not read.
fn source(path: &Path) -> std::result::Result<String, String> {
    let meta = std::fs::metadata(path).map_err(|e| e.to_string())?;
    if meta.len() > MAX_SOURCE_BYTES as u64 {
        return Err(format!(
            "{} bytes, over the {} read",
            meta.len(),
            MAX_SOURCE_BYTES
        ));
    }
    let bytes = std::fs::read(path).map_err(|e| e.to_string())?;
    if bytes.contains(&0) {
        return Err("a binary file".into());
    }
    String::from_utf8(bytes).map_err(|_| "not UTF-8 text".into())
}

/// The `ingest_code` calls that store a tree: one, marked complete, when it fits in one call
/// (1,000 files, 24 MiB of text); else batches that fit, none complete (a deleted file is then
/// found by drift detection).
pub fn batches(files: Vec<CodeFile>) -> Vec<(Vec<CodeFile>, bool)> {
    let size = |f: &CodeFile| f.text.as_ref().map_or(0, String::len);
    let mut out: Vec<(Vec<CodeFile>, bool)> = Vec::new();
    let mut bytes = 0;
    for f in files {
        let n = size(&f);
        match out.last_mut() {
            Some((batch, _))
                if batch.len() < MAX_CODE_FILES && bytes + n <= MAX_CODE_TEXT_BYTES =>
            {
                bytes += n;
                batch.push(f);
            }
            _ => {
                bytes = n;
                out.push((vec![f], false));
            }
        }
    }
    if let [(_, complete)] = out.as_mut_slice() {
        *complete = true;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(path: &str, bytes: usize) -> CodeFile {
        CodeFile {
            path: path.into(),
            language: None,
            lines: None,
            summary: None,
            symbols: Vec::new(),
            text: Some("x".repeat(bytes)),
        }
    }

    #[test]
    fn a_tree_goes_in_one_complete_call_when_it_fits() {
        let b = batches((0..3).map(|i| file(&format!("{i}.rs"), 10)).collect());
        assert_eq!(b.len(), 1);
        assert!(b[0].1);
        let many = batches((0..2500).map(|i| file(&format!("{i}.rs"), 1)).collect());
        assert_eq!(
            many.iter().map(|(f, c)| (f.len(), *c)).collect::<Vec<_>>(),
            [(1000, false), (1000, false), (500, false)]
        );
        let big = MAX_SOURCE_BYTES;
        let heavy = batches((0..30).map(|i| file(&format!("{i}.rs"), big)).collect());
        assert!(heavy.len() > 1 && heavy.iter().all(|(_, c)| !c));
        assert!(heavy.iter().all(|(f, _)| f
            .iter()
            .map(|f| f.text.as_ref().unwrap().len())
            .sum::<usize>()
            <= MAX_CODE_TEXT_BYTES));
        assert_eq!(heavy.iter().map(|(f, _)| f.len()).sum::<usize>(), 30);
    }
}
