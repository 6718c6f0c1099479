//! The codebase layer (engram: "compressed code knowledge: file trees, function signatures",
//! kept permanently): `ingest_code` stores one memory per source file a host read — its path,
//! language, size, a one-line summary and its symbols with their signatures and lines — so an
//! agent asking "where is the token checked?" finds the file and the function. A host sends
//! each file's text, which the engine parses with tree-sitter (`source`), or its own parse;
//! the engine stores, compares and re-syncs. A file's memory is in the `codebase` layer:
//! exempt from decay, never merged, contradicted or clustered, and written by this call only.
//!
//! Ingesting again changes nothing for a file whose memory says the same; a changed file's
//! memory is superseded by a new one; with `complete` (the list is the whole tree), the files
//! no longer listed are invalidated as drift detection does (`drift: <path> is gone from the
//! workspace`), so drift detection restores them when they are back — and so does a later
//! ingest that lists them again.

use std::collections::{BTreeMap, BTreeSet};

use rusqlite::OptionalExtension;

use serde::{Deserialize, Serialize};

use crate::clock::Millis;
use crate::error::{Error, Result};
use crate::field::{Content, Id, Owner, SourceRef, Unit};
use crate::model::{Layer, Memory, MemoryType, Source, Status};
use crate::order::Keyed;
use crate::store::{memories, schema, Tx, View};
use crate::write::{self, NewMemory};

mod source;

pub use source::{language_of_extension, LANGUAGES, MAX_SOURCE_BYTES};

/// Files one `ingest_code` call takes at most.
pub const MAX_CODE_FILES: usize = 1000;
/// The longest path of a file, in characters.
pub const MAX_CODE_PATH_CHARS: usize = 1024;
/// The most source text one `ingest_code` call reads, in bytes (room in the 48 MiB body an
/// HTTP call of it may have, once written as JSON).
pub const MAX_CODE_TEXT_BYTES: usize = 24 << 20;
/// Symbols of one file kept in its memory at most (the rest are counted).
pub const MAX_SYMBOLS: usize = 400;
/// How `source_ref` names a file's memory: this, then its path.
pub const CODE_REF_PREFIX: &str = "code:";
/// How the reasons of status changes for files gone begin: drift detection's own, so that it
/// restores them.
const GONE_PREFIX: &str = "drift: ";
/// How a file's memory says it lists only some of the file's symbols.
const MORE_SYMBOLS: &str = "\n- … and ";
/// The importance of a file's memory: warm (searched as usual), below the heartbeat's floors.
const CODE_IMPORTANCE: f64 = 0.3;
/// The longest signature kept, in characters.
const MAX_SIGNATURE_CHARS: usize = 240;
/// The longest summary kept, in characters.
const MAX_SUMMARY_CHARS: usize = 400;

/// Arguments of `ingest_code`: the files a host read from a repository, parsed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CodeIngest {
    /// The owner of the memories (a user, an agent, a project): 1 to 256 characters of
    /// `[A-Za-z0-9_:.-]`; every read and write is scoped to one owner.
    pub entity_id: Owner,
    /// The agent writing (its memories are its own, `private`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub agent_id: Option<Id>,
    /// The files (1 to 1,000), each once.
    #[schemars(length(min = 1, max = MAX_CODE_FILES))]
    pub files: Vec<CodeFile>,
    /// Whether `files` is the whole tree: files of earlier runs not listed are then gone
    /// (invalidated), and code names memories cite with no file are checked against it. Send
    /// a large tree in several calls, `complete` on none of them, and let drift detection
    /// (`--workspace`) find what was deleted.
    #[serde(default)]
    pub complete: bool,
}

/// One source file: parsed by the host (its `language`, `lines`, `summary` and `symbols`), or
/// its `text` for the engine to parse (the `mnemo` binary, the component and the Python
/// package read Rust, Python, TypeScript, JavaScript and Go with tree-sitter; the npm package
/// reads it with its parser module, `@mnemo/memory/parser`, before the call).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CodeFile {
    /// Its path from the repository's root, `/`-separated (1 to 1,024 characters, no `..`).
    #[schemars(length(min = 1, max = MAX_CODE_PATH_CHARS))]
    pub path: String,
    /// Its language, lower case (`rust`, `python`, `typescript`, `javascript`, `go`, …; 1 to
    /// 32 characters). Required with `symbols`; with `text`, read from the path's extension
    /// when left out.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(length(min = 1, max = 32))]
    pub language: Option<String>,
    /// Its number of lines. Required with `symbols`; with `text`, counted from it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lines: Option<u32>,
    /// What it is for, in a line (its module comment), if it says. With `text`, read from it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub summary: Option<String>,
    /// Its public symbols, in order of line. With `text`, read from it.
    #[serde(default)]
    pub symbols: Vec<Symbol>,
    /// The file's source text (at most 1 MiB), for the engine to parse instead of `lines`,
    /// `summary` and `symbols`; not stored.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
}

/// A file as its memory is written: given parsed, or read from its text.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Parsed {
    path: String,
    language: String,
    lines: u32,
    summary: Option<String>,
    symbols: Vec<Symbol>,
}

/// A symbol a file defines.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Symbol {
    /// What it is.
    pub kind: SymbolKind,
    /// Its name (1 to 200 characters).
    #[schemars(length(min = 1, max = 200))]
    pub name: String,
    /// Its signature, one line (`fn check_token(token: &str) -> bool`; cut to 240
    /// characters).
    #[serde(default)]
    pub signature: String,
    /// The line it starts on (1-based).
    #[schemars(range(min = 1))]
    pub line: u32,
}

crate::model::string_enum! {
    /// What a symbol is.
    SymbolKind, "kind" {
        /// A function.
        Function = "function",
        /// A method of a type.
        Method = "method",
        /// A struct, class or record type.
        Type = "type",
        /// An interface or trait.
        Interface = "interface",
        /// An enumeration.
        Enum = "enum",
        /// A module or namespace.
        Module = "module",
        /// A constant or static.
        Constant = "constant",
        /// A macro.
        Macro = "macro",
    }
}

/// What `ingest_code` did.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct CodeIngestReport {
    /// Files given.
    pub files: usize,
    /// Files new to the store.
    pub created: usize,
    /// Files whose memory said the same already.
    pub unchanged: usize,
    /// Files that changed: their memory superseded by a new one.
    pub replaced: usize,
    /// Files that were gone and are back.
    pub restored: usize,
    /// With `complete`: files of earlier runs no longer listed, invalidated.
    pub gone: usize,
    /// Symbols stored.
    pub symbols: usize,
}

/// A file's memory ready to store.
pub(crate) struct Prepared {
    req: CodeIngest,
    files: Vec<(String, write::Prepared)>,
    symbols: usize,
}

/// Checks a request and builds each file's memory and vector.
pub(crate) fn prepare(view: &View, mut req: CodeIngest) -> Result<Prepared> {
    if req.files.is_empty() || req.files.len() > MAX_CODE_FILES {
        return Err(Error::invalid(
            "files",
            format!("give 1 to {MAX_CODE_FILES} files, not {}", req.files.len()),
        ));
    }
    let text: usize = req
        .files
        .iter()
        .filter_map(|f| f.text.as_ref())
        .map(String::len)
        .sum();
    if text > MAX_CODE_TEXT_BYTES {
        return Err(Error::invalid(
            "files",
            format!("the files' texts come to {text} bytes, over the {MAX_CODE_TEXT_BYTES} one call reads: send them in several calls (none `complete`)"),
        ));
    }
    let given = std::mem::take(&mut req.files);
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    let mut files = Vec::with_capacity(given.len());
    let mut symbols = 0;
    let mut reader = source::Reader::new();
    for (i, f) in given.into_iter().enumerate() {
        let at = |e: Error| e.within(&format!("files[{i}]"));
        let f = parsed(f, &mut reader).map_err(at)?;
        if let Some(j) = seen.insert(f.path.clone(), i) {
            return Err(Error::invalid(
                format!("files[{i}].path"),
                format!("{} is given twice (files[{j}])", f.path),
            ));
        }
        symbols += f.symbols.len().min(MAX_SYMBOLS);
        let content = Content::parse("content", &compress(&f)).map_err(at)?;
        let memory = NewMemory {
            memory_type: Some(MemoryType::Context),
            source: Some(Source::Import),
            importance: Some(Unit::parse("importance", CODE_IMPORTANCE)?),
            source_ref: Some(
                SourceRef::parse(&format!("{CODE_REF_PREFIX}{}", f.path)).map_err(at)?,
            ),
            agent_id: req.agent_id.clone(),
            ..NewMemory::of(req.entity_id.clone(), content)
        };
        let mut input: write::Input = memory.into();
        input.auto_tags = vec![f.language.clone()];
        let mut p = write::prepare(view, input)?;
        p.memory.layer = Layer::Codebase;
        files.push((f.path, p));
    }
    Ok(Prepared {
        req,
        files,
        symbols,
    })
}

/// A file as given, checked, and read from its text when it came as text.
fn parsed(f: CodeFile, reader: &mut source::Reader) -> Result<Parsed> {
    check_path(&f.path)?;
    let file = match f.text {
        Some(text) => {
            for (field, given) in [
                ("lines", f.lines.is_some()),
                ("summary", f.summary.is_some()),
                ("symbols", !f.symbols.is_empty()),
            ] {
                if given {
                    return Err(Error::invalid(
                        field,
                        "is read from `text`: give the file's `text` or its `lines`, `summary` and `symbols`, not both",
                    ));
                }
            }
            if let Some(lang) = &f.language {
                check_language(lang)?;
            }
            reader.read(f.path, f.language, &text)?
        }
        None => {
            let required = |field: &str| {
                Error::invalid(
                    field,
                    "is required when `text` is not given (or send the file's `text` for Mnemo to read)",
                )
            };
            let language = f.language.ok_or_else(|| required("language"))?;
            check_language(&language)?;
            Parsed {
                lines: f.lines.ok_or_else(|| required("lines"))?,
                path: f.path,
                language,
                summary: f.summary,
                symbols: f.symbols,
            }
        }
    };
    check_symbols(&file)?;
    Ok(file)
}

/// Folders whose files are tests or benchmarks, wherever they are in the tree.
const TEST_FOLDERS: &[&str] = &[
    "test",
    "tests",
    "__tests__",
    "spec",
    "specs",
    "testdata",
    "bench",
    "benches",
];
/// Words of a question that ask about tests or benchmarks (compared in lower case).
const TEST_WORDS: &[&str] = &[
    "test",
    "tests",
    "tested",
    "testing",
    "spec",
    "specs",
    "bench",
    "benches",
    "benchmark",
    "benchmarks",
    "fixture",
    "fixtures",
];

/// Whether `m` is the codebase layer's memory of a file of tests or benchmarks: one in a
/// folder such as `tests/` or `benches/`, or named as a test (`test_x.py`, `x_test.go`,
/// `x.test.mjs`, `x.spec.ts`, `conftest.py`). Search ranks these below the code they test
/// unless the question asks about tests: they name the same functions more often than the
/// file that defines them.
pub fn is_test_file(m: &Memory) -> bool {
    let path = match (&m.layer, &m.source_ref) {
        (Layer::Codebase, Some(r)) => r.strip_prefix(CODE_REF_PREFIX).unwrap_or_default(),
        _ => return false,
    };
    let mut parts: Vec<&str> = path.split('/').collect();
    let file = parts.pop().unwrap_or_default().to_ascii_lowercase();
    let stem = file.split('.').next().unwrap_or_default();
    parts
        .iter()
        .any(|d| TEST_FOLDERS.contains(&d.to_ascii_lowercase().as_str()))
        || stem.starts_with("test_")
        || stem.ends_with("_test")
        || stem == "conftest"
        || file.contains(".test.")
        || file.contains(".spec.")
}

/// Whether `query` asks about tests or benchmarks (so their files rank as any other).
pub fn asks_about_tests(query: &str) -> bool {
    query
        .split(|c: char| !c.is_alphanumeric())
        .any(|w| TEST_WORDS.contains(&w.to_lowercase().as_str()))
}

/// Refuses a path that is not a file's within a repository.
fn check_path(path: &str) -> Result<()> {
    if path.is_empty()
        || path.chars().count() > MAX_CODE_PATH_CHARS
        || path.starts_with('/')
        || path.contains('\\')
        || path.contains('\0')
        || path
            .split('/')
            .any(|p| p.is_empty() || p == "." || p == "..")
    {
        return Err(Error::invalid(
            "path",
            "must be a relative path of 1 to 1,024 characters, `/`-separated, with no empty, `.` or `..` part",
        ));
    }
    Ok(())
}

/// Refuses a language name that is not one.
fn check_language(lang: &str) -> Result<()> {
    if lang.is_empty()
        || lang.chars().count() > 32
        || !lang
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b"+#-_".contains(&b))
    {
        return Err(Error::invalid(
            "language",
            "must be 1 to 32 lower-case letters, digits or + # - _",
        ));
    }
    Ok(())
}

/// Refuses symbols that are not a file's.
fn check_symbols(f: &Parsed) -> Result<()> {
    for (i, s) in f.symbols.iter().enumerate() {
        let name = s.name.trim();
        if name.is_empty() || name.chars().count() > 200 || name.contains(['\n', '\r']) {
            return Err(Error::invalid(
                format!("symbols[{i}].name"),
                "must be 1 to 200 characters on one line",
            ));
        }
        if s.line == 0 || s.line > f.lines.max(1) {
            return Err(Error::invalid(
                format!("symbols[{i}].line"),
                format!("{} is not a line of a {}-line file", s.line, f.lines),
            ));
        }
    }
    Ok(())
}

/// A file's memory: `path — language, N lines. Summary.` then its symbols, a line each, and
/// the words of its names written together (`checkToken`: check token) for the text index.
fn compress(f: &Parsed) -> String {
    let mut out = format!("{} — {}, {} lines.", f.path, f.language, f.lines);
    if let Some(s) = f.summary.as_deref().map(one_line).filter(|s| !s.is_empty()) {
        out.push(' ');
        out.push_str(&cut(&s, MAX_SUMMARY_CHARS));
    }
    let mut words: Vec<String> = Vec::new();
    for s in f.symbols.iter().take(MAX_SYMBOLS) {
        let signature = one_line(&s.signature);
        let shown = if signature.contains(s.name.trim()) {
            cut(&signature, MAX_SIGNATURE_CHARS)
        } else {
            format!("{} {}", s.kind, s.name.trim())
        };
        out.push_str(&format!("\n- {shown} (line {})", s.line));
        for w in split_identifier(s.name.trim()) {
            if !words.contains(&w) {
                words.push(w);
            }
        }
    }
    if f.symbols.len() > MAX_SYMBOLS {
        out.push_str(&format!(
            "{MORE_SYMBOLS}{} more",
            f.symbols.len() - MAX_SYMBOLS
        ));
    }
    if !words.is_empty() {
        out.push_str("\nWords: ");
        out.push_str(&words.join(" "));
    }
    out
}

/// The words of an identifier written together: `checkToken` → check, token; `HTTPServer` →
/// http, server (none for one already split by `_` or of one word).
fn split_identifier(name: &str) -> Vec<String> {
    let mut parts: Vec<String> = Vec::new();
    for piece in name.split(|c: char| !c.is_alphanumeric()) {
        let chars: Vec<char> = piece.chars().collect();
        let mut start = 0;
        for i in 1..chars.len() {
            let (a, b) = (chars[i - 1], chars[i]);
            let next_lower = chars.get(i + 1).is_some_and(|c| c.is_lowercase());
            if (a.is_lowercase() && b.is_uppercase())
                || (a.is_uppercase() && b.is_uppercase() && next_lower)
            {
                parts.push(chars[start..i].iter().collect::<String>().to_lowercase());
                start = i;
            }
        }
        if start > 0 {
            parts.push(chars[start..].iter().collect::<String>().to_lowercase());
        }
    }
    parts
}

fn one_line(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn cut(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        return s.to_string();
    }
    let mut t: String = s.chars().take(max - 1).collect();
    t.push('…');
    t
}

/// The names the layer's latest reading of `path` declares, for `owner`'s whole view or
/// `agent`'s, when it read the file after `after`; `None` when it has not since, or when the
/// file has more symbols than its memory lists (a name missing from it may be there).
pub(crate) fn names_read_after(
    conn: &rusqlite::Connection,
    owner: &str,
    agent: Option<&str>,
    path: &str,
    after: Millis,
) -> Result<Option<BTreeSet<String>>> {
    let content: Option<String> = conn
        .prepare_cached(
            "SELECT content FROM memories WHERE entity_id = ?1 AND source_ref = ?2 \
               AND layer = 'codebase' AND status = 'active' AND state != 'DELETED' \
               AND (agent_id IS NULL OR agent_id IS ?3) AND updated_at > ?4 \
             ORDER BY updated_at DESC LIMIT 1",
        )?
        .query_row(
            rusqlite::params![owner, format!("{CODE_REF_PREFIX}{path}"), agent, after],
            |r| r.get(0),
        )
        .optional()?;
    Ok(content
        .filter(|c| !c.contains(MORE_SYMBOLS))
        .map(|c| symbol_words(&c).map(str::to_string).collect()))
}

/// The words of a file memory's symbol lines (`- pub fn check_token(…) (line 12)`).
fn symbol_words(content: &str) -> impl Iterator<Item = &str> {
    content
        .lines()
        .filter_map(|l| l.strip_prefix("- "))
        .flat_map(|l| l.split(|ch: char| !(ch.is_alphanumeric() || ch == '_')))
        .filter(|w| !w.is_empty())
}

/// Where the time of an owner's last complete run (of an agent's files, or the owner's own) is
/// kept (meta table; a space is in no owner or agent id).
fn complete_key(owner: &str, agent: Option<&str>) -> String {
    format!("codebase_complete {owner} {}", agent.unwrap_or_default())
}

/// What the codebase layer says of code names, for names a memory cites with no file: when a
/// complete run last read the whole tree, when each name was first declared by a file's
/// memory (of any status: a name a file once declared), and the names declared now.
pub(crate) struct Declared {
    /// The last complete run's time.
    pub complete_at: Millis,
    first: Keyed<String, Millis>,
    now: BTreeSet<String>,
}

impl Declared {
    /// The first of `names` some file declared by `at` that none declares now: a name the
    /// repository had when a memory written at `at` cited it, and has no more.
    pub fn gone<'n>(&self, names: &'n [String], at: Millis) -> Option<&'n str> {
        names
            .iter()
            .find(|n| self.first.get(*n).is_some_and(|&t| t <= at) && !self.now.contains(*n))
            .map(String::as_str)
    }
}

/// [`Declared`] for the codebase memories `agent` sees of `owner` (the owner's and its own),
/// or `None` when it cannot tell: no complete run, or a file's memory that lists only some of
/// its symbols.
pub(crate) fn declared(
    conn: &rusqlite::Connection,
    owner: &str,
    agent: Option<&str>,
) -> Result<Option<Declared>> {
    let mut complete_at: Option<Millis> = None;
    for scope in [None, agent] {
        let at = schema::meta(conn, &complete_key(owner, scope))?.and_then(|v| v.parse().ok());
        complete_at = complete_at.max(at);
    }
    let Some(complete_at) = complete_at else {
        return Ok(None);
    };
    let mut declared = Declared {
        complete_at,
        first: Keyed::new(),
        now: BTreeSet::new(),
    };
    let mut stmt = conn.prepare_cached(
        "SELECT content, created_at, status = 'active' FROM memories WHERE entity_id = ?1 \
           AND layer = 'codebase' AND state != 'DELETED' AND (agent_id IS NULL OR agent_id IS ?2)",
    )?;
    let mut rows = stmt.query(rusqlite::params![owner, agent])?;
    while let Some(row) = rows.next()? {
        let (content, at, active): (String, Millis, bool) = (row.get(0)?, row.get(1)?, row.get(2)?);
        if active && content.contains(MORE_SYMBOLS) {
            return Ok(None);
        }
        for word in symbol_words(&content) {
            let first = declared.first.or_insert_with(word.to_string(), || at);
            *first = (*first).min(at);
            if active {
                declared.now.insert(word.to_string());
            }
        }
    }
    Ok(Some(declared))
}

/// A file's memory of an earlier run: live, or gone (invalidated by drift or by a complete
/// run).
struct Earlier {
    pk: i64,
    memory: Memory,
}

/// The owner's file memories of the writer's scope, by path.
fn earlier(tx: &Tx, owner: &str, agent: Option<&str>) -> Result<Keyed<String, Earlier>> {
    let rows: Vec<i64> = tx
        .conn()
        .prepare_cached(
            "SELECT pk FROM memories WHERE entity_id = ?1 AND layer = 'codebase' \
             AND agent_id IS ?2 AND state != 'DELETED' AND status IN ('active', 'invalidated') \
             ORDER BY pk",
        )?
        .query_map(rusqlite::params![owner, agent], |r| r.get(0))?
        .collect::<rusqlite::Result<_>>()?;
    let mut out = Keyed::new();
    for (pk, memory) in memories::by_pks(tx.conn(), owner, &rows)? {
        let Some(path) = memory
            .source_ref
            .as_deref()
            .and_then(|r| r.strip_prefix(CODE_REF_PREFIX))
            .map(str::to_string)
        else {
            continue;
        };
        // An active memory of a path wins over an invalidated one.
        let keep = match out.get(&path) {
            Some(Earlier { memory: m, .. }) => m.status != Status::Active,
            None => true,
        };
        if keep {
            out.insert(path, Earlier { pk, memory });
        }
    }
    Ok(out)
}

/// Stores what [`prepare`] built.
pub(crate) fn store(tx: &mut Tx, p: Prepared) -> Result<CodeIngestReport> {
    let owner = p.req.entity_id.as_str().to_string();
    let agent = p.req.agent_id.as_ref().map(|a| a.as_str().to_string());
    let mut before = earlier(tx, &owner, agent.as_deref())?;
    let mut report = CodeIngestReport {
        files: p.files.len(),
        symbols: p.symbols,
        ..CodeIngestReport::default()
    };
    tx.defer_text();
    for (path, mut file) in p.files {
        match before.remove(&path) {
            Some(Earlier { pk, mut memory }) if memory.content_hash == file.memory.content_hash => {
                if memory.status == Status::Active {
                    report.unchanged += 1;
                } else {
                    let why = format!("{GONE_PREFIX}{path} back in the workspace");
                    tx.change_status(pk, &mut memory, Status::Active, why)?;
                    report.restored += 1;
                }
            }
            Some(Earlier { pk, mut memory }) => {
                tx.insert(&mut file.memory, &file.vector)?;
                let why = format!("codebase: {path} changed ({})", file.memory.id);
                tx.change_status(pk, &mut memory, Status::Superseded, why)?;
                report.replaced += 1;
            }
            None => {
                tx.insert(&mut file.memory, &file.vector)?;
                report.created += 1;
            }
        }
    }
    if p.req.complete {
        let key = complete_key(&owner, agent.as_deref());
        schema::set_meta(tx.conn(), &key, &tx.now()?.to_string())?;
        for (path, Earlier { pk, mut memory }) in before {
            if memory.status == Status::Active {
                let why = format!("{GONE_PREFIX}{path} is gone from the workspace");
                tx.change_status(pk, &mut memory, Status::Invalidated, why)?;
                report.gone += 1;
            }
        }
    }
    tx.index_text()?;
    Ok(report)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identifiers_split_into_words() {
        assert_eq!(split_identifier("checkToken"), ["check", "token"]);
        assert_eq!(split_identifier("HTTPServer"), ["http", "server"]);
        assert_eq!(split_identifier("parseJSONBody"), ["parse", "json", "body"]);
        assert!(split_identifier("check_token").is_empty());
        assert!(split_identifier("engine").is_empty());
    }

    #[test]
    fn test_files_are_told_by_folder_or_name() {
        let file = |path: &str| Memory {
            layer: Layer::Codebase,
            source_ref: Some(format!("{CODE_REF_PREFIX}{path}")),
            ..crate::decay::tests::memory(MemoryType::Context, 0)
        };
        for path in [
            "core/tests/drift.rs",
            "www/test/browser.test.mjs",
            "core/benches/seed.rs",
            "python/tests/conftest.py",
            "pkg/Tests/Thing.cs",
            "test_engine.py",
            "server/token_test.go",
            "src/ui/button.spec.ts",
            "src/__tests__/a.js",
        ] {
            assert!(is_test_file(&file(path)), "{path}");
        }
        for path in [
            "core/src/tier.rs",
            "src/testing_utils.rs",
            "src/latest.rs",
            "contest/main.go",
            "attest.py",
            "www/src/index.js",
        ] {
            assert!(!is_test_file(&file(path)), "{path}");
        }
        // Only the codebase layer's files: a note that names a test path is not one.
        let mut note = file("core/tests/drift.rs");
        note.layer = Layer::Semantic;
        assert!(!is_test_file(&note));
        note.layer = Layer::Codebase;
        note.source_ref = Some("drive:tests/plan".into());
        assert!(!is_test_file(&note));
    }

    #[test]
    fn questions_about_tests_are_told_by_their_words() {
        assert!(asks_about_tests("Where is the drift test?"));
        assert!(asks_about_tests("which BENCHMARK seeds the store"));
        assert!(asks_about_tests("where are the test-fixtures?"));
        assert!(!asks_about_tests("Where is the token checked?"));
        assert!(!asks_about_tests("the latest contest results"));
        assert!(!asks_about_tests(""));
    }
}
