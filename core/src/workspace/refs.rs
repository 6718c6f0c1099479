//! The paths a memory cites: `core/src/engine.rs`, `docs/API.md:12`, `src/auth.rs#L42`,
//! `` `host-native/src/serve` ``, `tests/data/` — what drift detection checks against the
//! host's workspace.
//!
//! A word is a citation when it is a path with a directory part and either a file extension
//! people cite in code talk (`lexicon/code_extensions.txt`), a trailing `/`, or backticks
//! around it. A bare file name (`engine.rs`) is not one: without its directory it could be
//! anywhere, and taking it for the root's would invalidate what is true. Nor are URLs, `..`
//! paths (relative to some other directory), fractions, dates and `and/or`.

use crate::lexicon;

/// Citations kept per memory at most.
pub const MAX_CITATIONS: usize = 32;
/// The longest path taken for a citation, in bytes.
const MAX_PATH_BYTES: usize = 1024;

/// A path a memory cites, and the line when it names one (`file.rs:42`).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Citation {
    /// As cited, without a leading `./`: relative to the workspace's root, or absolute.
    pub path: String,
    /// The line cited (1-based).
    pub line: Option<u32>,
}

/// The paths `text` cites, in order of first mention, each once, at most [`MAX_CITATIONS`].
pub fn cited_paths(text: &str) -> Vec<Citation> {
    let mut out: Vec<Citation> = Vec::new();
    for word in text.split_whitespace() {
        let Some(c) = citation(word) else { continue };
        if !out.contains(&c) {
            out.push(c);
            if out.len() == MAX_CITATIONS {
                break;
            }
        }
    }
    out
}

/// The citation one whitespace-separated word makes, if it makes one.
fn citation(word: &str) -> Option<Citation> {
    let ticked = word.contains('`');
    let word = word.trim_matches(|c: char| "`'\"()[]{}<>,;!?*".contains(c));
    let word = word.trim_end_matches(['.', ':']);
    if word.contains("://") || word.starts_with("//") || word.contains('@') {
        return None;
    }
    let (path, line) = split_line(word);
    let path = path.strip_prefix("./").unwrap_or(path);
    if path.len() > MAX_PATH_BYTES || !path.contains('/') || path == "/" {
        return None;
    }
    let parts: Vec<&str> = path.split('/').collect();
    let inner =
        &parts[usize::from(path.starts_with('/'))..parts.len() - usize::from(path.ends_with('/'))];
    if inner.is_empty()
        || inner
            .iter()
            .any(|p| p.is_empty() || *p == "." || *p == ".." || !p.chars().all(path_char))
    {
        return None;
    }
    let last = inner[inner.len() - 1];
    let extension = last
        .rsplit_once('.')
        .filter(|(stem, _)| !stem.is_empty() || last.starts_with('.'))
        .map(|(_, ext)| ext.to_ascii_lowercase());
    let cited =
        path.ends_with('/') || ticked || extension.is_some_and(|ext| lexicon::code_extension(&ext));
    // Words of letters only on both sides of one slash ("and/or", "TCP/IP", "km/h") are
    // prose unless backticked or ending in a slash.
    if !cited || (inner.len() < 2 && !path.ends_with('/')) {
        return None;
    }
    Some(Citation {
        path: path.to_string(),
        line,
    })
}

/// Symbols kept per memory at most.
pub const MAX_SYMBOLS: usize = 32;
/// Words that say what sort of symbol follows (`fn probe`, `class Store`).
const SYMBOL_KEYWORDS: &[&str] = &[
    "fn",
    "def",
    "class",
    "struct",
    "enum",
    "trait",
    "type",
    "interface",
    "func",
    "const",
    "function",
    "impl",
    "mod",
    "async",
];

/// The code names `text` cites in backticks (`` `check_token` ``, `` `Session::new` ``,
/// `` `fn probe()` ``), as the name a file declares (`check_token`, `new`, `probe`), in order
/// of first mention, each once, at most [`MAX_SYMBOLS`]. A backticked path is a path, not a
/// name; a name under 3 characters says too little to be checked.
pub fn cited_symbols(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let parts: Vec<&str> = text.split('`').collect();
    // Odd parts are between backticks, but for a last one no backtick closes.
    let closed = parts.len() - 1 - (parts.len() - 1) % 2;
    for quoted in parts[..closed].iter().skip(1).step_by(2) {
        let mut words = quoted.split_whitespace().peekable();
        while words.peek().is_some_and(|w| SYMBOL_KEYWORDS.contains(w)) {
            words.next();
        }
        let Some(first) = words.next() else { continue };
        if words.next().is_some() || first.contains('/') {
            continue;
        }
        let called = first.split('(').next().unwrap_or("");
        let name = called.rsplit(['.', ':', '#']).next().unwrap_or("");
        let identifier = name
            .chars()
            .next()
            .is_some_and(|c| c.is_alphabetic() || c == '_')
            && name.chars().all(|c| c.is_alphanumeric() || c == '_');
        if identifier && name.chars().count() >= 3 && !out.iter().any(|o| o == name) {
            out.push(name.to_string());
            if out.len() == MAX_SYMBOLS {
                break;
            }
        }
    }
    out
}

/// A word's path and the line it names: `a.rs:42`, `a.rs:42:7`, `a.rs:42-50`, `a.rs#L42` (a
/// line 0 or past `u32` names none).
fn split_line(word: &str) -> (&str, Option<u32>) {
    // Some(line) when `rest` starts with a number.
    let at = |rest: &str| -> Option<Option<u32>> {
        let digits: &str = rest.split([':', '-']).next().unwrap_or("");
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        Some(digits.parse().ok().filter(|n| *n > 0))
    };
    for mark in ["#L", ":"] {
        if let Some((path, rest)) = word.split_once(mark) {
            if let Some(line) = at(rest) {
                return (path, line);
            }
        }
    }
    (word, None)
}

/// A character a cited path's parts are made of.
fn path_char(c: char) -> bool {
    c.is_alphanumeric() || matches!(c, '_' | '-' | '.' | '+')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn symbols_are_the_backticked_names() {
        assert_eq!(
            cited_symbols(
                "`check_token` in `server/src/auth.rs` calls `Session::new()`; see `fn probe` \
                 and `self.flush`, not `a b c`, `x`, `42`, `ok` or `check_token` again"
            ),
            ["check_token", "new", "probe", "flush"]
        );
        assert_eq!(
            cited_symbols("no ticks at all, or one ` only"),
            Vec::<String>::new()
        );
        assert_eq!(cited_symbols("`données_écrites`"), ["données_écrites"]);
        let many: String = (0..40).map(|i| format!("`name{i}` ")).collect();
        assert_eq!(cited_symbols(&many).len(), MAX_SYMBOLS);
    }

    fn cites(text: &str) -> Vec<(String, Option<u32>)> {
        cited_paths(text)
            .into_iter()
            .map(|c| (c.path, c.line))
            .collect()
    }

    fn one(path: &str, line: Option<u32>) -> Vec<(String, Option<u32>)> {
        vec![(path.to_string(), line)]
    }

    #[test]
    fn paths_with_a_directory_and_an_extension() {
        assert_eq!(
            cites("The token is checked in host-native/src/serve/auth.rs."),
            one("host-native/src/serve/auth.rs", None)
        );
        assert_eq!(
            cites("see docs/API.md:12 for it"),
            one("docs/API.md", Some(12))
        );
        assert_eq!(
            cites("(core/src/engine.rs:42:7)"),
            one("core/src/engine.rs", Some(42))
        );
        assert_eq!(cites("src/auth.rs#L42"), one("src/auth.rs", Some(42)));
        assert_eq!(cites("./scripts/test.sh"), one("scripts/test.sh", None));
        assert_eq!(cites("/etc/hosts.conf"), one("/etc/hosts.conf", None));
        assert_eq!(
            cites("`.github/workflows/ci.yml`"),
            one(".github/workflows/ci.yml", None)
        );
    }

    #[test]
    fn directories_by_a_slash_or_backticks() {
        assert_eq!(
            cites("fixtures live in tests/data/"),
            one("tests/data/", None)
        );
        assert_eq!(
            cites("the `host-native/src/serve` module"),
            one("host-native/src/serve", None)
        );
    }

    #[test]
    fn prose_is_not_a_citation() {
        for text in [
            "I like Node.js and and/or TCP/IP at 50 km/h",
            "born 3/5/2024, half 1/2, 24/7",
            "https://example.com/a/b.rs and //comment/x.rs",
            "git@github.com:owner/repo.rs",
            "the file engine.rs and `Cargo.toml`",
            "../other/place.rs and a//b.rs",
            "é/ü without an extension",
            "/",
        ] {
            assert_eq!(cites(text), vec![], "{text}");
        }
    }

    #[test]
    fn each_once_and_bounded() {
        assert_eq!(cites("a/b.rs a/b.rs a/b.rs:3").len(), 2);
        let many: String = (0..100).map(|i| format!("d/f{i}.rs ")).collect();
        assert_eq!(cited_paths(&many).len(), MAX_CITATIONS);
        let long = format!("{}/x.rs", "a".repeat(2000));
        assert_eq!(cites(&long), vec![]);
        assert_eq!(
            cites("a/b.rs:0 c/d.rs:99999999999"),
            vec![("a/b.rs".into(), None), ("c/d.rs".into(), None)]
        );
    }

    #[test]
    fn unicode_paths() {
        assert_eq!(cites("notas/reunião.md"), one("notas/reunião.md", None));
    }
}
